#![no_main]
// The body lives in the library so corpus replay runs the same code on stable.
libfuzzer_sys::fuzz_target!(|data: &[u8]| framecheck::fuzzing::run_envelope_nonce(data));
