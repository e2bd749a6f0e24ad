#![no_main]
// Search's judgement against the framing FRAMECHECK_FUZZ_TARGET names (the
// reference when unset); the body lives in the library so corpus replay
// runs the same code on stable.
libfuzzer_sys::fuzz_target!(|data: &[u8]| framecheck::fuzzing::run_search_framing(data));
