//! shogi-batch's integration tests, in one test binary with one module per former test file (a test
//! keeps its name after the module's): one binary instead of three links the crate and its
//! dependencies once, which made compiling the tests faster.

mod batch;
mod corpus;
mod moves_corpus;
