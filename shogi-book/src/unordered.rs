//! Books whose positions come in another order than their keys' (a `.ybb` index, an Apery
//! walk) written as they would be in key order, in bounded memory.

use crate::book::Entry;
use crate::error::BookError;
use crate::extsort::{
    Duplicates, SortOptions, SortReport, TempFile, sort_books, temp_dir_for, temp_path,
};
use crate::file::{BookFormat, BookWriter, WriteOptions};
use crate::runs::unique_stem;
use crate::text::{HEADER, write_record};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// What [`write_unordered`] wrote.
#[derive(Clone, Debug, Default)]
pub struct Unordered {
    /// Positions written.
    pub positions: u64,
    /// Moves written.
    pub moves: u64,
    /// The sort on disk of the positions as they came (a text book's).
    pub sort: SortReport,
    /// What the output format could not keep, one line each.
    pub notes: Vec<String>,
}

/// The sink `fill` gives each position to: its key ([`crate::position_key`]) and entry.
pub type Push<'a> = dyn FnMut(&str, &Entry) -> Result<(), BookError> + 'a;

/// Writes the positions `fill` gives, in any order (each once), to `output` in `format`, as
/// [`BookWriter`] writes them in key order: a text book is written into a temporary file,
/// then sorted on disk within `options.memory` ([`sort_books`]) into the output; `.ybb` and
/// `book.bin` go straight to their writers, which sort by their own keys (two positions with
/// one Apery key, which differ only in the hand of the side not to move, keep the order they
/// came in). Temporary files go to `options.temp_dir`, else the output's folder, and are
/// removed; the output is replaced only on success.
pub fn write_unordered(
    output: &Path,
    format: BookFormat,
    header_comments: &[String],
    options: &WriteOptions,
    fill: impl FnOnce(&mut Push<'_>) -> Result<(), BookError>,
) -> Result<Unordered, BookError> {
    let mut done = Unordered::default();
    if format != BookFormat::Db {
        let mut writer = BookWriter::create(output, format, header_comments, options)?;
        fill(&mut |key, entry| writer.push(key, entry))?;
        (done.positions, done.moves) = writer.written();
        done.notes = writer.finish(&[])?;
        return Ok(done);
    }
    let dir = temp_dir_for(options.temp_dir.as_ref(), output);
    let stem = unique_stem("unordered");
    let unsorted = TempFile(temp_path(&dir, &stem, 0));
    {
        let name = unsorted.0.display().to_string();
        let io = |e: std::io::Error| BookError::io(&name, &e);
        let mut w = BufWriter::with_capacity(1 << 16, File::create(&unsorted.0).map_err(io)?);
        writeln!(w, "{HEADER}").map_err(io)?;
        for c in header_comments {
            writeln!(w, "{c}").map_err(io)?;
        }
        fill(&mut |key, entry| {
            done.positions += 1;
            done.moves += entry.moves.len() as u64;
            write_record(&mut w, key, entry).map_err(io)
        })?;
        w.flush().map_err(io)?;
    }
    let sort = SortOptions {
        memory: options.memory,
        temp_dir: options.temp_dir.clone(),
        duplicates: Duplicates::SmallestPly,
    };
    done.sort = sort_books(std::slice::from_ref(&unsorted.0), output, &sort)?;
    Ok(done)
}
