//! Fuzz target `read_usi`: see `shogi_tests::invariants` (the check replayed by plain `cargo test`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    (shogi_tests::invariants::target("read_usi").expect("target exists"))(data)
});
