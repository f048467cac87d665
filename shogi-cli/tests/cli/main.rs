//! shogi-cli's integration tests (the `shogi` binary run as a child process), in one test
//! binary with one module per former test file (a test keeps its name after the module's): one
//! binary instead of one per file links the workspace's code once, which made compiling the
//! tests faster.

mod analyze;
mod analyze_merge;
mod binary;
mod help;
mod no_unit_tests;
