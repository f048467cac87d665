//! shogi-kif's integration tests, in one test binary with one module per former test file (a test
//! keeps its name after the module's: `fixtures::kifu_for_windows`): one binary instead of twenty
//! links the crate and its dependencies once, which made compiling the tests much faster.

mod dialects;

mod bad_input;
mod corpus;
mod dialect_line_ends;
mod dialect_moves;
mod encode;
mod ending_names;
mod eval;
mod fixtures;
mod ki2_endings;
mod ki2_qualifiers;
mod limits;
mod losses;
mod moves_off;
mod one_pass;
mod reader;
mod roundtrip;
mod serde_model;
mod stream;
mod unknown_endings;
mod validate;
mod write;
