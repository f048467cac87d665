//! shogi-mate's integration tests, one binary: each file is a module (see Cargo.toml's `[[test]]`).

mod agree;
mod known;
