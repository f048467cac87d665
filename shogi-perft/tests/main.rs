//! shogi-perft's integration tests, one binary: each file is a module (see Cargo.toml's `[[test]]`).

mod properties;
mod serial;
mod suites;
