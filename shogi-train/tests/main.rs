//! shogi-train's integration tests, one binary: each file is a module (see Cargo.toml's `[[test]]`).

mod export;
mod packed;
