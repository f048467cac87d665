//! The one adapter between the bindings and the reading layer: every record the bindings hold
//! was read by shogi-batch ([`shogi_batch::read_input`], [`shogi_batch::run`]), the layer
//! `shogi check`, `convert` and `stats` read through, so that a file reads the same from
//! Python as from the CLI.

use shogi_batch::{Input, InputRecord, Reading};
use shogi_kif::{Diagnostic, Encoding, Format, ReadError, ReadOptions, Record};
use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

/// One game of an input: the record (as far as it could be read; None when the input could
/// not be read at all), the error that stopped it, and the diagnostics of the reader and the
/// validator.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordData {
    /// The file, when read from one.
    pub path: Option<String>,
    /// The game's number in its input, from 1 (0 for an input that could not be read).
    pub index: u32,
    /// The line the game starts on.
    pub line: Option<u32>,
    /// The format the input was read as.
    pub format: Option<Format>,
    /// The encoding the input was decoded with.
    pub encoding: Option<Encoding>,
    /// The record.
    pub record: Option<Record>,
    /// Why the game could not be read (located in `path`).
    pub error: Option<ReadError>,
    /// Warnings, notes and errors about a record that was read.
    pub diagnostics: Vec<Diagnostic>,
    /// Ratings found in lines the record model does not keep (Floodgate `'black_rate:`).
    pub ratings: [Option<f64>; 2],
}

impl RecordData {
    /// A game read by shogi-batch from the input named `path` (None for bytes or text).
    pub fn new(path: Option<&str>, game: InputRecord) -> RecordData {
        // An input whose format was never recognised holds no game: number 0, as before
        // the bindings read through shogi-batch.
        let index = if game.format.is_none() && game.record.is_none() {
            0
        } else {
            game.index
        };
        RecordData {
            path: path.map(str::to_string),
            index,
            line: (game.line > 0).then_some(game.line),
            format: game.format,
            encoding: game.encoding,
            record: game.record,
            error: game.error.map(|e| match path {
                Some(p) if e.path.is_none() => e.with_path(p),
                _ => e,
            }),
            diagnostics: game.diagnostics,
            ratings: game.ratings,
        }
    }

    /// Whether the whole input failed before any game (unknown format, bad encoding, empty,
    /// cannot be opened): what `read` raises instead of returning.
    pub fn input_failed(&self) -> bool {
        self.index == 0 && self.error.is_some()
    }
}

/// How the bindings read: the given format and encoding, validation on (as `shogi check`).
pub fn reading(options: ReadOptions) -> Reading<'static> {
    Reading {
        options,
        validate: true,
        stdin: None,
    }
}

/// Every game of a file, in order. `Err` (the reason) when the file cannot be read at all.
pub fn read_file(path: &Path, options: ReadOptions) -> Result<Vec<RecordData>, String> {
    let input = Input::file(path);
    let mut games = Vec::new();
    shogi_batch::read_input(&input, &reading(options), &mut |g| {
        games.push(RecordData::new(Some(&input.name), g));
    })?;
    Ok(games)
}

/// Every game of record bytes, in order (named `<input>` in messages).
pub fn read_bytes(bytes: Vec<u8>, options: ReadOptions) -> Result<Vec<RecordData>, String> {
    let mut cursor = std::io::Cursor::new(bytes);
    let source: shogi_batch::Stdin<'_> =
        std::sync::Mutex::new(&mut cursor as &mut (dyn BufRead + Send));
    let reading = Reading {
        options,
        validate: true,
        stdin: Some(&source),
    };
    let mut games = Vec::new();
    shogi_batch::read_input(&Input::stdin(), &reading, &mut |g| {
        games.push(RecordData::new(None, g));
    })?;
    Ok(games)
}

/// The inputs named by `paths` as the CLI expands them (files as given, directories walked
/// recursively in sorted order for record files), except that nothing fails here: a path
/// that is missing, or a folder that cannot be walked, is kept as an input, with the reason
/// it cannot be read in the map (by input name), to be reported as that input's one game.
/// `-` is a file named `-`, not standard input.
pub fn expand(paths: &[String]) -> (Vec<Input>, HashMap<String, String>) {
    let mut inputs = Vec::new();
    let mut failed = HashMap::new();
    for p in paths {
        if p == "-" {
            inputs.push(Input::file(p));
            continue;
        }
        match shogi_batch::expand(std::slice::from_ref(p)) {
            Ok(found) => inputs.extend(found),
            Err(e) => {
                let input = Input::file(p);
                failed.insert(input.name.clone(), e.reason);
                inputs.push(input);
            }
        }
    }
    (inputs, failed)
}

/// The reason of an I/O error, worded as the CLI words it.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::IsADirectory => "is a directory".to_string(),
        _ => shogi_batch::io_reason(e),
    }
}
