//! shogi-db's integration tests, in one test binary with one module per former test file (a test
//! keeps its name after the module's: `db::child_index`): one binary instead of five links the
//! crate and its dependencies (SQLite among them) once, which made compiling the tests much faster.

// Also used by examples/bench_explore.rs, hence outside this folder.
#[path = "../common/mod.rs"]
mod common;

mod buckets;
mod db;
mod floodgate;
mod handle;
mod tags;
