//! The one adapter between the bindings and shogi-kif's reader: every record read by the
//! bindings goes through [`read_games`], so a change of the reading API changes this file only.

use shogi_kif::{Diagnostic, Encoding, ErrorKind, Format, ReadError, ReadOptions, Reader, Record};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// One game of an input: the record (as far as it could be read; None when the input could
/// not be read at all), the error that stopped it, and the diagnostics of the reader and the
/// validator.
pub struct GameData {
    /// The file, when read from one.
    pub path: Option<String>,
    /// The game's number in its input, from 1 (0 for an input that could not be read).
    pub index: usize,
    /// The line the game starts on.
    pub line: Option<u32>,
    /// The format the input was read as.
    pub format: Option<Format>,
    /// The encoding the input was decoded with.
    pub encoding: Option<Encoding>,
    /// The record.
    pub record: Option<Record>,
    /// Why the game could not be read.
    pub error: Option<ReadError>,
    /// Warnings, notes and errors about a record that was read.
    pub diagnostics: Vec<Diagnostic>,
}

/// Every game of `input`. An input that cannot be read at all (encoding, unknown format) is
/// an `Err`; a game that cannot be read is a [`GameData`] with its error.
pub fn read_games<R: BufRead>(
    input: R,
    opts: ReadOptions,
    path: Option<&str>,
) -> Result<Vec<GameData>, ReadError> {
    let with_path = |e: ReadError| match path {
        Some(p) => e.with_path(p),
        None => e,
    };
    let reader = Reader::new(input, opts).map_err(with_path)?;
    let format = Some(reader.format());
    let encoding = Some(reader.encoding());
    Ok(reader
        .map(|game| GameData {
            path: path.map(str::to_string),
            index: game.index,
            line: Some(game.line),
            format,
            encoding,
            record: Some(game.record),
            error: game.error.map(with_path),
            diagnostics: game.diagnostics,
        })
        .collect())
}

/// The reason of an I/O error, worded as the CLI words it.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::IsADirectory => "is a directory".to_string(),
        _ => e.to_string(),
    }
}

/// The games of a file. Nothing stops a batch: a file that cannot be opened or read at all is
/// one game holding that error.
pub fn read_path(path: &Path, opts: ReadOptions) -> Vec<GameData> {
    let name = path.to_string_lossy().into_owned();
    let opts = ReadOptions {
        hint: opts.hint.or_else(|| hint_of(path)),
        ..opts
    };
    let result = std::fs::File::open(path)
        .map_err(|e| ReadError::new(ErrorKind::Io, io_reason(&e)).with_path(name.as_str()))
        .and_then(|f| {
            read_games(
                std::io::BufReader::with_capacity(1 << 16, f),
                opts,
                Some(&name),
            )
        });
    match result {
        Ok(games) => games,
        Err(e) => vec![GameData {
            path: Some(name),
            index: 0,
            line: None,
            format: opts.format,
            encoding: opts.encoding,
            record: None,
            error: Some(e),
            diagnostics: Vec::new(),
        }],
    }
}

/// The format a file's extension suggests.
pub fn hint_of(path: &Path) -> Option<Format> {
    path.extension()
        .and_then(|e| e.to_str())
        .and_then(Format::from_extension)
}

/// Extensions read when walking a directory (those of `shogi check` and `convert`).
const RECORD_EXTENSIONS: &[&str] = &["kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usi", "sfen"];

/// The files named by `paths` as the CLI expands them: files as given, directories walked
/// recursively in name order, keeping files with a record extension.
///
/// To be replaced by shogi-batch's walk once that crate lands.
pub fn expand(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else {
            out.push(p.clone());
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        // An unreadable folder is reported when it is read, as a file would be.
        out.push(dir.to_path_buf());
        return;
    };
    let mut entries: Vec<_> = read
        .filter_map(Result::ok)
        .filter_map(|e| Some((e.file_name(), e.path(), e.file_type().ok()?)))
        .collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (_, path, kind) in entries {
        if kind.is_dir() {
            walk(&path, out);
        } else if kind.is_file() {
            let ext = path
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            if ext.is_some_and(|e| RECORD_EXTENSIONS.contains(&e.as_str())) {
                out.push(path);
            }
        }
    }
}
