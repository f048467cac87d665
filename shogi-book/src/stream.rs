//! A text book read position by position in key order within bounded memory: a sorted book
//! as it stands (checked as [`read_text`](crate::read_text) checks it), an unsorted one
//! sorted on disk first.

use crate::book::Entry;
use crate::error::BookError;
use crate::extsort::{SortOptions, TempFile, sort_books, temp_dir_for, temp_path};
use crate::runs::unique_stem;
use crate::text::{TextReader, check_order};
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

/// The positions of a text book in key order, as [`read_book`](crate::read_book) would hold
/// them, read one at a time: what reads a book of any size in bounded memory (`book stats`,
/// `book convert`).
///
/// Without a sort, the book must be sorted: the first position out of order or repeated is
/// the error `read_text` gives, and iteration ends there. With [`SortOptions`], the book is
/// first sorted on disk by [`sort_books`] (its warnings and repeats handled as there) into a
/// temporary file beside its runs, removed when the stream is dropped.
///
/// ```
/// use shogi_book::TextStream;
/// let path = std::env::temp_dir().join(format!("stream-doc-{}.db", std::process::id()));
/// std::fs::write(&path, "#YANEURAOU-DB2016 1.00\n\
///     sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
///     7g7f none 0 0 1\n")?;
/// let mut stream = TextStream::open(&path, None)?;
/// let (key, entry) = stream.next().unwrap()?;
/// assert!(key.ends_with(" b -") && entry.moves.len() == 1);
/// assert!(stream.next().is_none());
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TextStream {
    reader: TextReader<BufReader<File>>,
    file: String,
    /// Checking the order (a book read as it stands): the last SFEN and key, with its line.
    check: bool,
    last: Option<(String, u64)>,
    last_key: String,
    failed: bool,
    warnings: Vec<BookError>,
    _sorted: Option<TempFile>,
}

impl std::fmt::Debug for TextStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TextStream({})", self.file)
    }
}

impl TextStream {
    /// Opens the text book at `path`, sorting it on disk first when `sort` is given (its
    /// runs and the sorted copy in `sort.temp_dir`, else the book's folder).
    pub fn open(path: &Path, sort: Option<&SortOptions>) -> Result<TextStream, BookError> {
        let file = path.display().to_string();
        let (source, sorted, warnings) = match sort {
            None => (path.to_path_buf(), None, Vec::new()),
            Some(options) => {
                let dir = temp_dir_for(options.temp_dir.as_ref(), path);
                let tmp = TempFile(temp_path(&dir, &unique_stem("book-sorted"), 0));
                let report = sort_books(&[path.to_path_buf()], &tmp.0, options)?;
                (tmp.0.clone(), Some(tmp), report.warnings)
            }
        };
        let name = source.display().to_string();
        let input = File::open(&source).map_err(|e| BookError::io(&name, &e))?;
        Ok(TextStream {
            reader: TextReader::new(BufReader::with_capacity(1 << 16, input), &name),
            file,
            check: sorted.is_none(),
            last: None,
            last_key: String::new(),
            failed: false,
            warnings,
            _sorted: sorted,
        })
    }

    /// The comment lines before the first position (complete once a position has been
    /// read).
    pub fn header(&self) -> &[String] {
        self.reader.header()
    }

    /// At the end: the comment lines after the last position, and the problems that did
    /// not stop reading (see [`TextReader::warnings`]).
    pub fn finish(mut self) -> (Vec<String>, Vec<BookError>) {
        let (_, trailing) = self.reader.take_comments();
        let mut warnings = self.warnings;
        warnings.extend_from_slice(self.reader.warnings());
        (trailing, warnings)
    }
}

impl Iterator for TextStream {
    type Item = Result<(String, Entry), BookError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let rec = match self.reader.next()? {
            Ok(r) => r,
            Err(e) => {
                self.failed = true;
                return Some(Err(e));
            }
        };
        if self.check {
            let problem = check_order(&self.file, self.last.as_ref(), &rec)
                .err()
                .or_else(|| {
                    // In a sorted book the plies of one position are next to each other.
                    (self.last.is_some() && self.last_key == rec.key).then(|| {
                        BookError::line(
                            &self.file,
                            rec.line,
                            Some(6),
                            format!("repeated position `{}`", rec.key),
                        )
                    })
                });
            if let Some(e) = problem {
                self.failed = true;
                return Some(Err(e));
            }
            self.last_key.clone_from(&rec.key);
            self.last = Some((rec.sfen, rec.line));
        }
        Some(Ok((rec.key, rec.entry)))
    }
}

/// Every position of a text book that repeats an earlier one (the same key, at any ply), in
/// any order of the book, found within about `memory` bytes (sorted runs in `dir` beyond
/// it): `each(key, line, first_line)`, in key order and then line order. Lines that do not
/// read are passed over (a checker reports them); an I/O error stops the search.
pub fn repeated_positions(
    path: &Path,
    memory: usize,
    dir: &Path,
    mut each: impl FnMut(&str, u64, u64),
) -> Result<(), BookError> {
    let name = path.display().to_string();
    let input = File::open(path).map_err(|e| BookError::io(&name, &e))?;
    let mut reader = TextReader::new(BufReader::with_capacity(1 << 16, input), &name);
    let mut sort = crate::runs::RecordSort::new(memory, dir);
    for rec in reader.by_ref() {
        match rec {
            Ok(r) => sort.push(r.key.as_bytes(), &r.line.to_le_bytes())?,
            Err(e) if e.location == crate::Location::File => return Err(e),
            Err(_) => {}
        }
    }
    let mut first: Option<(Vec<u8>, u64)> = None;
    sort.finish(|key, payload| {
        let line = u64::from_le_bytes(
            payload
                .try_into()
                .map_err(|_| BookError::file(&name, "damaged temporary run"))?,
        );
        match &first {
            Some((k, at)) if k.as_slice() == key => {
                each(&String::from_utf8_lossy(key), line, *at);
            }
            _ => first = Some((key.to_vec(), line)),
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ReadOptions, read_text};
    use std::path::PathBuf;

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    const AFTER: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";

    fn write_book(dir: &Path, name: &str, lines: &[&str]) -> PathBuf {
        let path = dir.join(name);
        let mut text = String::from("#YANEURAOU-DB2016 1.00\n# head\n");
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_stream_is_the_book_read_whole_and_stops_where_reading_does() {
        let dir = std::env::temp_dir().join(format!("shogi-book-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let unsorted = [
            &*format!("sfen {START} 5"),
            "7g7f none 10 2 3",
            &*format!("sfen {AFTER} 2"),
            "3c3d none 0 0 1",
            &*format!("sfen {START} 1"),
            "2g2f none 5 1 1",
            "# tail",
        ];
        let path = write_book(&dir, "u.db", &unsorted);
        // Read as it stands: the first position out of order is read_text's error.
        let whole = read_text(
            std::io::BufReader::new(File::open(&path).unwrap()),
            &path.display().to_string(),
            ReadOptions::default(),
        )
        .unwrap_err();
        let streamed: Vec<_> = TextStream::open(&path, None).unwrap().collect();
        assert_eq!(streamed.len(), 2);
        assert_eq!(streamed[1].as_ref().unwrap_err(), &whole);
        // Sorted on disk first (even with no memory): the positions read_text sorts, the
        // repeat keeping the smaller ply, and the comments.
        let (book, _) = read_text(
            std::io::BufReader::new(File::open(&path).unwrap()),
            "u.db",
            ReadOptions { sort: true },
        )
        .unwrap();
        let options = SortOptions {
            memory: 0,
            ..SortOptions::default()
        };
        let mut stream = TextStream::open(&path, Some(&options)).unwrap();
        let got: Vec<_> = stream.by_ref().map(|r| r.unwrap()).collect();
        let want: Vec<_> = book
            .iter()
            .map(|(k, e)| (k.to_string(), e.clone()))
            .collect();
        assert_eq!(got, want);
        assert_eq!(stream.header(), ["# head"]);
        assert_eq!(stream.finish().0, ["# tail"]);
        // In a sorted book the plies of a position are neighbours: a repeat is found there.
        let sorted = write_book(
            &dir,
            "s.db",
            &[
                &format!("sfen {START} 1"),
                "7g7f none 0 0 1",
                &format!("sfen {START} 11"),
                "7g7f none 0 0 1",
            ],
        );
        let streamed: Vec<_> = TextStream::open(&sorted, None).unwrap().collect();
        let e = streamed[1].as_ref().unwrap_err();
        assert_eq!(
            e.location,
            crate::Location::Line {
                line: 5,
                col: Some(6)
            }
        );
        assert!(e.message.starts_with("repeated position"), "{e}");
        // Anywhere in an unsorted book, by sorting the keys on disk: each repeat with the line
        // of the first.
        let mut repeats = Vec::new();
        repeated_positions(&path, 0, &dir, |k, line, first| {
            repeats.push((k.to_string(), line, first))
        })
        .unwrap();
        assert_eq!(repeats, [(START.to_string(), 7, 3)]);
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
