//! The `shogi` command as a library: [`run`] takes the arguments and the three standard streams
//! and returns the exit code, so tests (and other programs) run it in-process; the binary only
//! hands it the real streams.
//!
//! Exit codes: 0 success, 1 a check or suite found failures, 2 usage, input or I/O error.
//!
//! Layout: `cli` holds the top-level parser, `args` the argument types several commands share,
//! `ctx` what every command is handed (streams, options, [`Options`], the failure type); `perft`, `moves`, `check`,
//! `convert`, `stats`, `show` and `completions` one command each. The batch commands (`check`,
//! `convert`, `stats`) stand on the shogi-batch crate (inputs walked in sorted order, shards,
//! inputs read in parallel with results in input order, one row type, the selection, duplicates,
//! and a panic in one game reported as that game's error while the batch goes on), with `inputs`
//! and `batch` (the flags they share), `driver` (the one loop over `shogi_batch::run` they all
//! use, with `--dedup`'s choice of copies and the exit status), `pool` (the worker threads) and
//! `progress` (the terminal's progress bar). `convert --to hcpe|psv|positions` is
//! `convert::training`.

mod analyze;
mod args;
mod batch;
mod book;
mod check;
mod cli;
mod completions;
mod convert;
mod ctx;
mod db;
mod driver;
mod inputs;
mod match_cmd;
mod mate;
mod moves;
mod perft;
mod pool;
mod progress;
mod serve;
mod show;
mod stats;
mod view;

/// The columns of `shogi analyze`'s per-ply table and of its `--summary`, in order.
pub use analyze::{COLUMNS as ANALYZE_COLUMNS, SUMMARY_COLUMNS as ANALYZE_SUMMARY_COLUMNS};
use clap::{CommandFactory, Parser};
use cli::{Cli, Command};
use ctx::Ctx;
pub use ctx::{Options, RecordHook};
use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::sync::Mutex;

/// Runs the `shogi` command line `args` (the program name first, as in `std::env::args_os`),
/// reading `stdin` and writing `stdout` and `stderr`; returns the exit code. No progress bar is
/// drawn (see [`run_with`]).
pub fn run(
    args: impl IntoIterator<Item = OsString>,
    stdin: &mut (dyn BufRead + Send),
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    run_with(args, stdin, stdout, stderr, &Options::default())
}

/// [`run`] with [`Options`].
///
/// `stdin` is `Send` because a batch command reads `-` on whichever worker thread takes it.
pub fn run_with(
    args: impl IntoIterator<Item = OsString>,
    stdin: &mut (dyn BufRead + Send),
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    options: &Options,
) -> i32 {
    shogi_batch::install_hook();
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => return usage_error(&e, stdout, stderr),
    };
    let mut ctx = Ctx {
        stdin: Mutex::new(stdin),
        stdout,
        stderr,
        options,
    };
    let result = match &cli.command {
        Command::Perft(a) => perft::run(a, &mut ctx),
        Command::Moves(a) => moves::run(a, &mut ctx),
        Command::Check(a) => check::run(a, &mut ctx),
        Command::Convert(a) => convert::run(a, &mut ctx),
        Command::Stats(a) => stats::run(a, &mut ctx),
        Command::Index(a) => db::index(a, &mut ctx),
        Command::Find(a) => db::find(a, &mut ctx),
        Command::Explore(a) => db::explore(a, &mut ctx),
        Command::Show(a) => show::run(a, &mut ctx),
        Command::Analyze(a) => analyze::run(a, &mut ctx),
        Command::Completions(a) => completions::run(a, &mut Cli::command(), &mut ctx),
        Command::Match(a) => match_cmd::run(a, &mut ctx),
        Command::Mate(a) => mate::run(a, &mut ctx),
        Command::View(a) => view::run(a, &mut ctx),
        Command::Serve(a) => serve::run(a, &mut ctx),
        Command::Book(a) => book::run(a, &mut ctx),
    };
    let code = match result {
        Ok(()) => 0,
        Err(f) => {
            if !f.message.is_empty() {
                let _ = writeln!(ctx.stderr, "{}", f.message);
            }
            i32::from(f.code)
        }
    };
    let _ = ctx.stdout.flush();
    let _ = ctx.stderr.flush();
    code
}

/// `--help` and `--version` on stdout (exit 0); any other clap error as one line naming the
/// problem, without clap's usage block (exit 2).
fn usage_error(e: &clap::Error, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    if !e.use_stderr() {
        let _ = write!(stdout, "{}", e.render());
        return 0;
    }
    let text = e.to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut line = message.join(" ");
    if line.is_empty() {
        line = "error: bad arguments".into();
    }
    let _ = writeln!(stderr, "{line} (see 'shogi --help')");
    2
}
