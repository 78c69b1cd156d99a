#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    codethread_skeleton_fuzz::check(data);
});
