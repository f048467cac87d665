//! peta_shock's back-up from a book file to a book file, the text book streamed from disk.

use crate::apery_walk::AperyWalk;
use crate::backup::{BackupReport, backup_stream};
use crate::book::Entry;
use crate::error::BookError;
use crate::extsort::{SortOptions, TempFile, sort_books, temp_dir_for, temp_path};
use crate::file::{BookFormat, BookWriter, WriteOptions};
use crate::runs::unique_stem;
use crate::stream::TextStream;
use crate::unordered::write_unordered;
use crate::ybb_stream::YbbStream;
use shogi_core::Position;
use std::path::Path;

type Sink<'s> = dyn FnMut(&str, &Entry) -> Result<(), BookError> + 's;

/// Backs up the book at `input` ([`backup_stream`]) into `output` (its format by extension,
/// written through a temporary file renamed into place, `.ybb` and `book.bin` sorted within
/// `options.memory`). A text book is read from disk three times, never held: with `sort`, it
/// is sorted on disk once first (else it must be sorted: the first position out of order is
/// the error). A `.ybb` or `book.bin` book (Apery's walked from `roots`, its records
/// searched on disk) is written as a sorted text book on disk first, within `options.memory`
/// (or `sort`'s), and backed up as one: never held whole either.
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
    let sorted = match (format, sort) {
        (BookFormat::Db, None) => None,
        (BookFormat::Db, Some(options)) => {
            let dir = temp_dir_for(options.temp_dir.as_ref(), input);
            let tmp = TempFile(temp_path(&dir, &unique_stem("backup-sorted"), 0));
            let report = sort_books(&[input.to_path_buf()], &tmp.0, options)?;
            notes.extend(report.warnings.iter().map(|w| format!("{w} (warning)")));
            Some(tmp)
        }
        // A binary book is written as a sorted text book on disk first, a position at a
        // time (its index or its walk is not in key order), then backed up as one.
        (_, _) => {
            let dir = temp_dir_for(options.temp_dir.as_ref(), output);
            let tmp = TempFile(temp_path(&dir, &unique_stem("backup-sorted"), 0));
            let as_text = WriteOptions {
                memory: sort.map_or(options.memory, |s| s.memory),
                ..options.clone()
            };
            let mut walk = None;
            write_unordered(&tmp.0, BookFormat::Db, &[], &as_text, |push| {
                if format == BookFormat::Ybb {
                    for item in YbbStream::open(input)? {
                        let (key, entry) = item?;
                        push(&key, &entry)?;
                    }
                    return Ok(());
                }
                let w = walk.insert(AperyWalk::open(input, roots)?);
                for item in w.by_ref() {
                    let (key, entry) = item?;
                    push(&key, &entry)?;
                }
                Ok(())
            })?;
            if let Some(note) = walk.map(|mut w| w.note()).transpose()?.flatten() {
                notes.push(note);
            }
            Some(tmp)
        }
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
