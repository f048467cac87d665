//! shogi-openings' integration tests, one binary: each file is a module (see Cargo.toml's `[[test]]`).

mod games;
mod taxonomy;
