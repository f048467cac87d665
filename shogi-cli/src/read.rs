//! The records of one input, through shogi-kif's readers: the only module that knows them.
//!
//! Small files are read and decoded whole (one allocation, the fastest path); standard input
//! and files of 32 MiB or more are streamed, so memory does not grow with the number of games.

use crate::cli::InputArgs;
use crate::inputs::{Input, io_reason, read_whole, regular_size};
use shogi_kif::{
    Diagnostic, Encoding, Format, ReadError, ReadOptions, Record, RecordStream, Records,
};
use std::io::BufRead;
use std::sync::Mutex;

/// Inputs at least this large, and standard input, are read game by game.
const STREAM_FROM: u64 = 32 * 1024 * 1024;

/// Whether each record is also validated (every move replayed; problems as diagnostics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validation {
    /// Records with what `shogi_kif::validate` says of them, from the same replay.
    On,
    /// Records only (the diagnostics are always empty).
    Off,
}

/// One record of an input, or the error that stopped it.
pub type Item = Result<(Record, Vec<Diagnostic>), ReadError>;

/// The standard input a batch command shares between its workers.
pub type Stdin<'a> = Mutex<&'a mut (dyn BufRead + Send)>;

/// Reads every record of `input`, handing each (or the error that stops the input) to `f`.
/// `Err` is the reason an input could not be read at all (an I/O error).
pub fn for_each_record(
    input: &Input,
    args: &InputArgs,
    stdin: &Stdin,
    validation: Validation,
    mut f: impl FnMut(Item),
) -> Result<(), String> {
    let opts = ReadOptions {
        format: args.from.map(Format::from),
        hint: input.hint(),
        encoding: args.encoding.map(Encoding::from),
    };
    let Some(path) = &input.path else {
        let mut guard = stdin.lock().unwrap_or_else(|e| e.into_inner());
        let reader: &mut (dyn BufRead + Send) = &mut **guard;
        match RecordStream::new(reader, opts) {
            Ok(mut records) => drain(&mut records, validation, f),
            Err(e) => f(Err(e)),
        }
        return Ok(());
    };
    // A file is opened and asked its size once, and read from that handle.
    let file = std::fs::File::open(path).map_err(|e| io_reason(&e))?;
    let size = regular_size(&file);
    if size >= STREAM_FROM {
        let reader = std::io::BufReader::with_capacity(1 << 16, file);
        match RecordStream::new(reader, opts) {
            Ok(mut records) => drain(&mut records, validation, f),
            Err(e) => f(Err(e)),
        }
        return Ok(());
    }
    let bytes = read_whole(file, size)?;
    let text = match shogi_kif::decode(&bytes, opts.encoding) {
        Ok((text, _)) => text,
        Err(e) => {
            f(Err(e));
            return Ok(());
        }
    };
    match Records::from_str_with(&text, opts) {
        Ok(mut records) => drain(&mut records, validation, f),
        Err(e) => f(Err(e)),
    }
    Ok(())
}

/// What both of shogi-kif's readers offer.
trait Source {
    fn next_plain(&mut self) -> Option<Result<Record, ReadError>>;
    fn next_checked(&mut self) -> Option<Item>;
}

impl Source for Records<'_> {
    fn next_plain(&mut self) -> Option<Result<Record, ReadError>> {
        self.next()
    }
    fn next_checked(&mut self) -> Option<Item> {
        self.next_validated()
    }
}

impl<R: BufRead> Source for RecordStream<R> {
    fn next_plain(&mut self) -> Option<Result<Record, ReadError>> {
        self.next()
    }
    fn next_checked(&mut self) -> Option<Item> {
        self.next_validated()
    }
}

fn drain(records: &mut impl Source, validation: Validation, mut f: impl FnMut(Item)) {
    match validation {
        Validation::On => {
            while let Some(item) = records.next_checked() {
                f(item);
            }
        }
        Validation::Off => {
            while let Some(r) = records.next_plain() {
                f(r.map(|record| (record, Vec::new())));
            }
        }
    }
}
