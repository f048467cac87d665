//! The inputs of a batch command and how they are read, through shogi-batch (the one
//! collection layer of the CLI, the database and the Python bindings): paths as given,
//! directories walked recursively in sorted order, `-` for standard input.

use crate::args::InputArgs;
use crate::ctx::Failure;
pub use shogi_batch::{Input, io_reason};
use shogi_kif::{Encoding, Format, ReadOptions};

/// Expands the command line's paths (see [`shogi_batch::expand`]); a path that is not there
/// is a usage error.
pub fn expand(paths: &[String]) -> Result<Vec<Input>, Failure> {
    shogi_batch::expand(paths).map_err(|e| Failure::usage(format!("error: {e}")))
}

/// How a batch command reads: `--from`, `--encoding`, validation, and the standard input
/// `-` stands for.
pub fn reading<'a>(
    args: &InputArgs,
    validate: bool,
    stdin: &'a (dyn shogi_batch::SharedStdin + 'a),
) -> shogi_batch::Reading<'a> {
    shogi_batch::Reading {
        options: ReadOptions {
            format: args.from.map(Format::from),
            hint: None,
            encoding: args.encoding.map(Encoding::from),
            ..ReadOptions::default()
        },
        validate,
        stdin: Some(stdin),
    }
}

/// Where a command writes its output: `path` (created, buffered) or `stdout`; a file that
/// cannot be created is a usage error naming it.
pub fn output<'a>(
    path: Option<&std::path::Path>,
    stdout: &'a mut dyn std::io::Write,
) -> Result<Box<dyn std::io::Write + 'a>, Failure> {
    Ok(match path {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| {
                Failure::usage(format!("error: {}: {}", path.display(), io_reason(&e)))
            })?,
        )),
        None => Box::new(std::io::BufWriter::new(stdout)),
    })
}

/// Calls the per-record hook of [`crate::ctx::Options::on_record`] (tests only) before a game is
/// handled, unless the game is the report of a panic.
pub fn record_hook(
    hook: Option<&crate::ctx::RecordHook>,
    input: &Input,
    game: &shogi_batch::InputRecord,
) {
    if let Some(hook) = hook {
        if game.panic.is_none() {
            hook(&input.name, game.index as usize);
        }
    }
}
