//! The `shogi` command as a library: [`run`] takes the arguments and the three standard streams
//! and returns the exit code, so tests (and other programs) run it in-process; the binary only
//! hands it the real streams.
//!
//! Exit codes: 0 success, 1 a check or suite found failures, 2 usage, input or I/O error.
//!
//! Layout: `cli` holds the command line shared by every command; `perft`, `moves`, `check`,
//! `convert`, `stats`, `show` and `completions` one command each. The batch commands (`check`,
//! `convert`, `stats`) stand on the shogi-batch crate (inputs walked in sorted order, shards,
//! inputs read in parallel with results in input order, one row type, the selection, duplicates,
//! and a panic in one game reported as that game's error while the batch goes on), with `inputs`
//! and `batch` (the flags they share), `driver` (the one loop over `shogi_batch::run` they all
//! use, with `--dedup`'s choice of copies and the exit status), `pool` (the worker threads) and
//! `progress` (the terminal's progress bar). `convert --to hcpe|psv|positions` is
//! `convert::training`.

mod analyze;
mod batch;
mod check;
mod cli;
mod completions;
mod convert;
mod db;
mod driver;
mod inputs;
mod match_cmd;
mod mate;
mod moves;
mod perft;
mod pool;
mod progress;
mod show;
mod stats;

/// The columns of `shogi analyze`'s per-ply table and of its `--summary`, in order.
pub use analyze::{COLUMNS as ANALYZE_COLUMNS, SUMMARY_COLUMNS as ANALYZE_SUMMARY_COLUMNS};
use clap::Parser;
use cli::{Cli, Command};
use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// A per-record hook: called with the input's name and the record's number (from 1).
pub type RecordHook = Arc<dyn Fn(&str, usize) + Send + Sync>;

/// Settings the binary takes from its environment; tests leave them at their defaults.
#[derive(Clone, Default)]
pub struct Options {
    /// Draw progress bars on the process's real stderr (the binary sets this when stderr is a
    /// terminal; they never go to the `stderr` given to [`run_with`]).
    pub progress: bool,
    /// Called with the input's name and the record's number (from 1) before each record of a
    /// batch command is handled, inside the isolation of that input: a test installs one that
    /// panics to check that an internal failure is reported and the batch goes on.
    #[doc(hidden)]
    pub on_record: Option<RecordHook>,
    /// Standard output is a terminal (the binary sets this): binary training data is then
    /// refused.
    pub stdout_terminal: bool,
}

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
        Command::Completions(a) => completions::run(a, &mut ctx),
        Command::Match(a) => match_cmd::run(a, &mut ctx),
        Command::Mate(a) => mate::run(a, &mut ctx),
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

/// What a command reads and writes: the streams given to [`run_with`] and its options.
pub(crate) struct Ctx<'a> {
    /// Standard input, locked by whichever thread reads `-`.
    pub stdin: Mutex<&'a mut (dyn BufRead + Send)>,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    pub options: &'a Options,
}

/// A failure that ends the command: a message for stderr and the exit code.
#[derive(Debug)]
pub(crate) struct Failure {
    /// Exit code (1: something checked failed, 2: usage, input or I/O error).
    pub code: u8,
    /// One-line message (empty: the command already said everything).
    pub message: String,
}

impl Failure {
    /// A usage, input or I/O error (exit 2).
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: message.into(),
        }
    }

    /// An exit code with nothing more to say.
    pub fn silent(code: u8) -> Failure {
        Failure {
            code,
            message: String::new(),
        }
    }
}

/// Writes `text` to `out` and flushes it; a closed pipe is not an error worth reporting.
pub(crate) fn emit(out: &mut dyn Write, text: &str) -> Result<(), Failure> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::usage(format!("error: cannot write stdout: {e}"))),
    }
}
