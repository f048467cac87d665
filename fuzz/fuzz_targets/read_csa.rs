//! Fuzz target `read_csa`: see `shogi_tests::invariants` (the check replayed by plain `cargo test`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    (shogi_tests::invariants::target("read_csa").expect("target exists"))(data)
});
