//! End-to-end tests live in `tests/`; this library holds what both they and the fuzz
//! targets in `fuzz/` use: [`invariants`], the checks every fuzz target makes.

pub mod invariants;
