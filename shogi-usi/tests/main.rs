//! shogi-usi's integration tests, one binary: each file is a module (see Cargo.toml's `[[test]]`).

mod fake;
mod real;
