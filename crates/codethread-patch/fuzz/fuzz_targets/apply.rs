#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| codethread_patch_fuzz::check_apply(data));
