//! Sorting and merging text books larger than memory: sorted runs in temporary files, then a
//! k-way merge; the output is written to a temporary file beside it and renamed into place, so
//! a failure leaves any existing output as it was.

use crate::book::{Entry, min_ply, prefer_theirs};
use crate::error::BookError;
use crate::text::{HEADER, TextReader, TextRecord, write_record};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// What happens to a position found more than once (in one book or across books).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duplicates {
    /// Keep the entry with the smaller ply (YaneuraOu's `write_book` and `sort`).
    SmallestPly,
    /// YaneuraOu's `merge` rule: the side with moves, then the deeper first move, then more
    /// moves, then the earlier book; the smaller ply.
    Merge,
    /// Add the counts of equal moves and keep every move (books built from games).
    AddCounts,
}

/// Settings of [`sort_books`].
#[derive(Clone, Debug)]
pub struct SortOptions {
    /// Bytes of positions held in memory before a sorted run is written out (an estimate of
    /// the records' size; the process also holds one buffered record and 64 KiB per run).
    pub memory: usize,
    /// Folder for the temporary runs (default: the output's folder).
    pub temp_dir: Option<PathBuf>,
    /// What to do with repeated positions.
    pub duplicates: Duplicates,
}

impl Default for SortOptions {
    fn default() -> SortOptions {
        SortOptions {
            memory: 256 << 20,
            temp_dir: None,
            duplicates: Duplicates::SmallestPly,
        }
    }
}

/// What [`sort_books`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SortReport {
    /// Positions read.
    pub read: u64,
    /// Positions written.
    pub written: u64,
    /// Sorted runs written to temporary files (0: everything fitted in memory).
    pub runs: usize,
    /// Problems that did not stop the sort (see [`TextReader::warnings`]).
    pub warnings: Vec<BookError>,
}

/// The bytes a buffered record holds: its slot in the buffer (counted twice, as the buffer
/// grows by doubling), its key and moves, each allocation rounded up to 16 bytes.
fn record_size(r: &TextRecord) -> usize {
    let heap = |n: usize| n.div_ceil(16) * 16 + 16;
    2 * std::mem::size_of::<TextRecord>()
        + heap(r.key.len())
        + heap(r.entry.moves.len() * std::mem::size_of::<crate::BookMove>())
        + r.entry
            .comments
            .iter()
            .map(|c| heap(c.len()) + 24)
            .sum::<usize>()
}

/// Combines two entries of one position; `a` came first.
pub(crate) fn combine(a: Entry, b: Entry, rule: Duplicates) -> Entry {
    let ply = min_ply(a.ply, b.ply);
    let (mut keep, mut other) = match rule {
        Duplicates::SmallestPly => {
            if b.ply.is_some() && min_ply(a.ply, b.ply) != a.ply {
                (b, a)
            } else {
                (a, b)
            }
        }
        Duplicates::Merge => {
            if prefer_theirs(&a, &b) {
                (b, a)
            } else {
                (a, b)
            }
        }
        Duplicates::AddCounts => {
            let mut a = a;
            for m in b.moves {
                match a.moves.iter_mut().find(|x| x.mv == m.mv) {
                    Some(x) => x.count += m.count,
                    None => a.moves.push(m),
                }
            }
            (
                a,
                Entry {
                    comments: b.comments,
                    ..Entry::default()
                },
            )
        }
    };
    keep.ply = ply;
    keep.comments.append(&mut other.comments);
    keep
}

/// A temporary file that is removed when dropped unless kept.
#[derive(Debug)]
pub(crate) struct TempFile(pub(crate) PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The folder of the temporary files made for `path`: `chosen`, else `path`'s folder, else
/// the current one.
pub(crate) fn temp_dir_for(chosen: Option<&PathBuf>, path: &Path) -> PathBuf {
    chosen
        .cloned()
        .or_else(|| path.parent().map(Path::to_path_buf))
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| PathBuf::from("."))
}

pub(crate) fn temp_path(dir: &Path, stem: &str, n: usize) -> PathBuf {
    dir.join(format!(".{stem}.{}.{n}.tmp", std::process::id()))
}

/// Sorts (and merges) text books into one sorted text book at `out`, within the memory bound
/// of `options`. Each input is checked as [`TextReader`] checks it; the first error stops
/// everything and `out` is left untouched.
pub fn sort_books(
    inputs: &[PathBuf],
    out: &Path,
    options: &SortOptions,
) -> Result<SortReport, BookError> {
    let out_name = out.display().to_string();
    let dir = temp_dir_for(options.temp_dir.as_ref(), out);
    let stem = out
        .file_name()
        .map_or("book".into(), |n| n.to_string_lossy().into_owned());
    let run_at = |n: usize| temp_path(&dir, &stem, n);
    let mut report = SortReport::default();
    let mut runs: Vec<TempFile> = Vec::new();
    let mut buffer: Vec<TextRecord> = Vec::new();
    let mut used = 0usize;
    let (mut header, mut trailing) = (Vec::new(), Vec::new());
    for input in inputs {
        let name = input.display().to_string();
        let file = File::open(input).map_err(|e| BookError::io(&name, &e))?;
        let mut reader = TextReader::new(BufReader::with_capacity(1 << 16, file), &name);
        for rec in reader.by_ref() {
            let mut rec = rec?;
            // The text as written is needed only for the sort check of the reader.
            rec.sfen = String::new();
            report.read += 1;
            used += record_size(&rec);
            buffer.push(rec);
            if used >= options.memory {
                runs.push(write_run(
                    &mut buffer,
                    &run_at(runs.len()),
                    options.duplicates,
                )?);
                used = 0;
            }
        }
        report.warnings.extend_from_slice(reader.warnings());
        let (h, t) = reader.take_comments();
        header.extend(h);
        trailing.extend(t);
    }
    let final_tmp = TempFile(temp_path(&dir, &stem, usize::MAX));
    let io = |e: std::io::Error| BookError::io(&out_name, &e);
    let mut w = BufWriter::with_capacity(1 << 16, File::create(&final_tmp.0).map_err(io)?);
    writeln!(w, "{HEADER}").map_err(io)?;
    for c in &header {
        writeln!(w, "{c}").map_err(io)?;
    }
    if runs.is_empty() {
        sort_buffer(&mut buffer, options.duplicates);
        for r in &buffer {
            write_record(&mut w, &r.key, &r.entry).map_err(io)?;
            report.written += 1;
        }
    } else {
        if !buffer.is_empty() {
            runs.push(write_run(
                &mut buffer,
                &run_at(runs.len()),
                options.duplicates,
            )?);
        }
        report.runs = runs.len();
        report.written = merge_runs(&runs, &mut w, options.duplicates, &out_name)?;
    }
    for c in &trailing {
        writeln!(w, "{c}").map_err(io)?;
    }
    w.flush().map_err(io)?;
    drop(w);
    std::fs::rename(&final_tmp.0, out).map_err(io)?;
    std::mem::forget(final_tmp);
    Ok(report)
}

/// Sorts a buffer by key (stable) and folds repeated positions.
fn sort_buffer(buffer: &mut Vec<TextRecord>, rule: Duplicates) {
    buffer.sort_by(|a, b| a.key.cmp(&b.key));
    let mut out: Vec<TextRecord> = Vec::with_capacity(buffer.len());
    for r in buffer.drain(..) {
        match out.last_mut() {
            Some(last) if last.key == r.key => {
                let a = std::mem::take(&mut last.entry);
                last.entry = combine(a, r.entry, rule);
            }
            _ => out.push(r),
        }
    }
    *buffer = out;
}

fn write_run(
    buffer: &mut Vec<TextRecord>,
    path: &Path,
    rule: Duplicates,
) -> Result<TempFile, BookError> {
    sort_buffer(buffer, rule);
    let tmp = TempFile(path.to_path_buf());
    let name = tmp.0.display().to_string();
    let io = |e: std::io::Error| BookError::io(&name, &e);
    let mut w = BufWriter::with_capacity(1 << 16, File::create(&tmp.0).map_err(io)?);
    for r in buffer.drain(..) {
        write_record(&mut w, &r.key, &r.entry).map_err(io)?;
    }
    w.flush().map_err(io)?;
    Ok(tmp)
}

type RunReader = TextReader<BufReader<File>>;

fn merge_runs<W: Write>(
    runs: &[TempFile],
    w: &mut W,
    rule: Duplicates,
    out_name: &str,
) -> Result<u64, BookError> {
    let mut readers: Vec<RunReader> = Vec::with_capacity(runs.len());
    for r in runs {
        let name = r.0.display().to_string();
        let f = File::open(&r.0).map_err(|e| BookError::io(&name, &e))?;
        readers.push(TextReader::new(BufReader::with_capacity(1 << 16, f), &name));
    }
    let mut heads: Vec<Option<TextRecord>> = Vec::with_capacity(runs.len());
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        let head = r.next().transpose()?;
        if let Some(h) = &head {
            heap.push(Reverse((h.key.clone(), i)));
        }
        heads.push(head);
    }
    let mut written = 0u64;
    let mut pending: Option<TextRecord> = None;
    while let Some(Reverse((_, i))) = heap.pop() {
        let rec = heads[i].take().expect("a run in the heap has a head");
        if let Some(next) = readers[i].next().transpose()? {
            heap.push(Reverse((next.key.clone(), i)));
            heads[i] = Some(next);
        }
        pending = match pending {
            Some(mut p) if p.key == rec.key => {
                let a = std::mem::take(&mut p.entry);
                p.entry = combine(a, rec.entry, rule);
                Some(p)
            }
            Some(p) => {
                write_record(w, &p.key, &p.entry).map_err(|e| BookError::io(out_name, &e))?;
                written += 1;
                Some(rec)
            }
            None => Some(rec),
        };
    }
    if let Some(p) = pending {
        write_record(w, &p.key, &p.entry).map_err(|e| BookError::io(out_name, &e))?;
        written += 1;
    }
    Ok(written)
}
