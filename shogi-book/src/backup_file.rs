//! peta_shock's back-up from a book file to a book file, the text book streamed from disk.

use crate::backup::{BackupReport, backup_stream};
use crate::book::Entry;
use crate::error::BookError;
use crate::extsort::{SortOptions, TempFile, sort_books, temp_dir_for, temp_path};
use crate::file::{BookFormat, BookWriter, WriteOptions, read_book};
use crate::runs::unique_stem;
use crate::stream::TextStream;
use shogi_core::Position;
use std::path::Path;

type Sink<'s> = dyn FnMut(&str, &Entry) -> Result<(), BookError> + 's;

/// Backs up the book at `input` ([`backup_stream`]) into `output` (its format by extension,
/// written through a temporary file renamed into place, `.ybb` and `book.bin` sorted within
/// `options.memory`). A text book is read from disk three times, never held: with `sort`, it
/// is sorted on disk once first (else it must be sorted: the first position out of order is
/// the error). A `.ybb` or `book.bin` book is read whole (Apery's walked from `roots`).
/// Returns the report and the notes to print: warnings of reading, and what the output format
/// could not keep.
pub fn backup_file(
    input: &Path,
    sort: Option<&SortOptions>,
    roots: &[Position],
    output: &Path,
    options: &WriteOptions,
) -> Result<(BackupReport, Vec<String>), BookError> {
    let name = input.display().to_string();
    let format = BookFormat::of_input(input)?;
    let mut notes = Vec::new();
    let to = BookFormat::of_output(output);
    if format != BookFormat::Db {
        let (book, read_notes) = read_book(input, format, false, roots)?;
        notes.extend(read_notes);
        let mut writer = BookWriter::create(output, to, &book.header_comments, options)?;
        let mut read = |sink: &mut Sink<'_>| book.iter().try_for_each(|(k, e)| sink(k, e));
        let report = backup_stream(&name, &mut read, &mut |k, e| writer.push(k, &e))?;
        notes.extend(writer.finish(&[])?);
        return Ok((report, notes));
    }
    let sorted = match sort {
        Some(options) => {
            let dir = temp_dir_for(options.temp_dir.as_ref(), input);
            let tmp = TempFile(temp_path(&dir, &unique_stem("backup-sorted"), 0));
            let report = sort_books(&[input.to_path_buf()], &tmp.0, options)?;
            notes.extend(report.warnings.iter().map(|w| format!("{w} (warning)")));
            Some(tmp)
        }
        None => None,
    };
    let source = sorted.as_ref().map_or(input, |t| t.0.as_path());
    let header = {
        let mut stream = TextStream::open(source, None)?;
        if let Some(Err(e)) = stream.next() {
            return Err(e);
        }
        stream.header().to_vec()
    };
    let mut writer = BookWriter::create(output, to, &header, options)?;
    let mut first = true;
    let mut read = |sink: &mut Sink<'_>| {
        let mut stream = TextStream::open(source, None)?;
        for item in stream.by_ref() {
            let (key, entry) = item?;
            sink(&key, &entry)?;
        }
        if std::mem::take(&mut first) && sort.is_none() {
            let (_, warnings) = stream.finish();
            notes.extend(warnings.iter().map(|w| format!("{w} (warning)")));
        }
        Ok(())
    };
    let report = backup_stream(&name, &mut read, &mut |k, e| writer.push(k, &e))?;
    notes.extend(writer.finish(&[])?);
    Ok((report, notes))
}
