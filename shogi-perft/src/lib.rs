//! Perft (in progress).
