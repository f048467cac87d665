//! Fuzz target `eval_comments`: see `shogi_tests::invariants` (the check replayed by plain `cargo test`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    (shogi_tests::invariants::target("eval_comments").expect("target exists"))(data)
});
