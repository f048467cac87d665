//! The records of one input, through shogi-kif's reader: the only module that knows it.
//!
//! Files and standard input take the same path: `shogi_kif::Reader` reads a small input
//! whole and a larger multi-game one a chunk at a time, so memory does not grow with the
//! number of games.

use crate::cli::InputArgs;
use crate::inputs::{Input, io_reason};
use shogi_kif::{Diagnostic, Encoding, Format, Game, ReadError, ReadOptions, Reader, Record};
use std::cell::Cell;
use std::io::BufRead;
use std::sync::Mutex;

/// Whether each record is also validated (every move replayed; problems as diagnostics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validation {
    /// Records with what `shogi_kif::validate` says of them, from the same replay.
    On,
    /// Records with the reader's warnings only.
    Off,
}

/// One record of an input, or the error that stopped it.
pub type Item = Result<(Record, Vec<Diagnostic>), ReadError>;

/// The standard input a batch command shares between its workers.
pub type Stdin<'a> = Mutex<&'a mut (dyn BufRead + Send)>;

/// Reads every record of `input`, handing each (or the error that stops the input) to `f`.
/// `Err` is the reason an input could not be read at all (an I/O error).
///
/// `at` is kept at the line where the record being read starts, for a caller that catches
/// a panic (a bug) to say where it happened.
pub fn for_each_record(
    input: &Input,
    args: &InputArgs,
    stdin: &Stdin,
    validation: Validation,
    at: &Cell<u32>,
    mut f: impl FnMut(Item),
) -> Result<(), String> {
    let opts = ReadOptions {
        format: args.from.map(Format::from),
        hint: input.hint(),
        encoding: args.encoding.map(Encoding::from),
        validate: validation == Validation::On,
        ..ReadOptions::default()
    };
    let each = |game: Game| {
        let Game {
            record,
            error,
            diagnostics,
            ..
        } = game;
        error.map_or(Ok((record, diagnostics)), Err)
    };
    let mut read = |source: &mut dyn BufRead| match Reader::new(source, opts) {
        Ok(mut games) => loop {
            at.set(games.line());
            let Some(g) = games.next() else { break };
            at.set(g.line);
            f(each(g));
        },
        Err(e) => f(Err(e)),
    };
    match &input.path {
        None => {
            let mut guard = stdin.lock().unwrap_or_else(|e| e.into_inner());
            read(&mut **guard);
        }
        Some(path) => {
            let file = std::fs::File::open(path).map_err(|e| io_reason(&e))?;
            read(&mut std::io::BufReader::with_capacity(1 << 16, file));
        }
    }
    Ok(())
}
