//! The end-to-end tests of the workspace and the `shogi` command, in one test binary with one
//! module per former test file (a test keeps its name after the module's:
//! `records_cli::check_context_shows_the_line_and_a_caret`). One binary instead of nineteen
//! compiles and links the workspace's code once instead of nineteen times, the largest part of
//! building this crate's tests. The tests share the process: each works in its own scratch
//! folder ([`common::scratch`]) and the working directory is set once for all.

mod common;

mod archives_cli;
mod book_cli;
mod book_sources_cli;
mod convert_losses;
mod convert_moves;
mod db_cli;
mod fuzz_replay;
mod isolation;
mod match_cli;
mod mate_cli;
mod openings_cli;
mod perft_cli;
mod records_cli;
mod robustness;
mod show_cli;
mod stats_cli;
mod training_cli;
mod variations_cli;
mod web_cli;
