//! Fuzz target `usi_line`: see `shogi_tests::invariants` (the check replayed by plain `cargo test`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    (shogi_tests::invariants::target("usi_line").expect("target exists"))(data)
});
