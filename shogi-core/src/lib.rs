//! Core (in progress).
