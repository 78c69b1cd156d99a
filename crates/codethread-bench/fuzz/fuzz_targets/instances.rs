#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| codethread_bench_fuzz::check_instances(data));
