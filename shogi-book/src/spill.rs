//! The builder's sorted runs: tallies of positions written to temporary files when memory is
//! full, merged back in key order when the book is made.

use crate::book::{BookMove, Entry};
use crate::build::MoveTally;
use crate::error::BookError;
use crate::extsort::{TempFile, temp_path};
use shogi_core::Move;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One position's tallies: its key, smallest ply, games reaching it, and its moves in the
/// order they were first played.
#[derive(Debug)]
pub(crate) struct Tallied {
    pub key: String,
    pub ply: u32,
    pub games: u64,
    pub moves: Vec<(Move, MoveTally)>,
}

impl Tallied {
    /// The key and book entry: counts and values from the tallies, moves in `write_book`'s
    /// order.
    pub fn into_entry(self) -> (String, Entry) {
        let moves = self
            .moves
            .iter()
            .map(|(mv, t)| BookMove {
                mv: *mv,
                ponder: None,
                value: t.value(),
                depth: 0,
                count: t.games,
            })
            .collect();
        let mut entry = Entry {
            ply: Some(self.ply),
            moves,
            comments: Vec::new(),
        };
        entry.sort_moves();
        (self.key, entry)
    }

    /// Adds the tallies of the same position from a later run.
    fn add(&mut self, other: Tallied) {
        self.ply = self.ply.min(other.ply);
        self.games += other.games;
        for (mv, t) in other.moves {
            match self.moves.iter_mut().find(|m| m.0 == mv) {
                Some((_, m)) => {
                    m.games += t.games;
                    m.wins += t.wins;
                    m.draws += t.draws;
                    m.losses += t.losses;
                }
                None => self.moves.push((mv, t)),
            }
        }
    }
}

/// Builders of this process so far (temporary names stay apart).
static BUILDERS: AtomicUsize = AtomicUsize::new(0);

/// The runs of one builder, and the first failure writing them.
#[derive(Debug)]
pub(crate) struct Spill {
    pub memory: usize,
    dir: PathBuf,
    stem: String,
    runs: Vec<TempFile>,
    error: Option<BookError>,
}

impl Spill {
    pub fn new(memory: usize, dir: &Path) -> Spill {
        let n = BUILDERS.fetch_add(1, Ordering::Relaxed);
        Spill {
            memory,
            dir: dir.to_path_buf(),
            stem: format!("book-build-{n}"),
            runs: Vec::new(),
            error: None,
        }
    }

    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Writes sorted tallies as a run (nothing after a failure).
    pub fn write_run(&mut self, sorted: Vec<Tallied>) {
        if self.error.is_some() {
            return;
        }
        let tmp = TempFile(temp_path(&self.dir, &self.stem, self.runs.len()));
        let name = tmp.0.display().to_string();
        let written = (|| {
            let mut w = BufWriter::with_capacity(1 << 16, File::create(&tmp.0)?);
            for t in &sorted {
                writeln!(w, "{} {} {} {}", t.ply, t.games, t.moves.len(), t.key)?;
                for (mv, m) in &t.moves {
                    let usi = mv.usi();
                    let (g, wi, d, l) = (m.games, m.wins, m.draws, m.losses);
                    writeln!(w, "{} {g} {wi} {d} {l}", usi.as_str())?;
                }
            }
            w.flush()
        })();
        match written {
            Ok(()) => self.runs.push(tmp),
            Err(e) => self.error = Some(BookError::io(&name, &e)),
        }
    }

    /// Merges the runs in key order, adding the tallies of a position found in several runs
    /// (earlier runs first, so moves keep the order they were first played in).
    pub fn merge(
        self,
        emit: &mut impl FnMut(Tallied) -> Result<(), BookError>,
    ) -> Result<(), BookError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut readers = Vec::with_capacity(self.runs.len());
        for r in &self.runs {
            readers.push(RunReader::open(&r.0)?);
        }
        let mut heads = Vec::with_capacity(readers.len());
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            let head = r.next()?;
            if let Some(h) = &head {
                heap.push(Reverse((h.key.clone(), i)));
            }
            heads.push(head);
        }
        let mut pending: Option<Tallied> = None;
        while let Some(Reverse((_, i))) = heap.pop() {
            let t = heads[i].take().expect("a run in the heap has a head");
            heads[i] = readers[i].next()?;
            if let Some(h) = &heads[i] {
                heap.push(Reverse((h.key.clone(), i)));
            }
            match &mut pending {
                Some(p) if p.key == t.key => p.add(t),
                _ => {
                    if let Some(p) = pending.replace(t) {
                        emit(p)?;
                    }
                }
            }
        }
        pending.map_or(Ok(()), emit)
    }
}

/// Reads a run back, one position at a time.
struct RunReader {
    input: BufReader<File>,
    name: String,
    line: u64,
    buf: String,
}

impl RunReader {
    fn open(path: &Path) -> Result<RunReader, BookError> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| BookError::io(&name, &e))?;
        Ok(RunReader {
            input: BufReader::with_capacity(1 << 16, file),
            name,
            line: 0,
            buf: String::new(),
        })
    }

    /// The next line, without its newline (`None` at the end).
    fn read_line(&mut self) -> Result<Option<&str>, BookError> {
        self.buf.clear();
        let n = self
            .input
            .read_line(&mut self.buf)
            .map_err(|e| BookError::io(&self.name, &e))?;
        self.line += 1;
        Ok((n > 0).then(|| self.buf.trim_end_matches('\n')))
    }

    fn bad(&self) -> BookError {
        BookError::line(&self.name, self.line, None, "damaged temporary run")
    }

    fn next(&mut self) -> Result<Option<Tallied>, BookError> {
        let Some(head) = self.read_line()? else {
            return Ok(None);
        };
        let mut f = head.splitn(4, ' ');
        let mut num = || f.next().and_then(|x| x.parse::<u64>().ok());
        let (Some(ply), Some(games), Some(n)) = (num(), num(), num()) else {
            return Err(self.bad());
        };
        let key = match f.next() {
            Some(k) => k.to_string(),
            None => return Err(self.bad()),
        };
        let mut moves = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let line = self.read_line()?.unwrap_or("");
            match parse_move(line) {
                Some(m) => moves.push(m),
                None => return Err(self.bad()),
            }
        }
        Ok(Some(Tallied {
            key,
            ply: u32::try_from(ply).map_err(|_| self.bad())?,
            games,
            moves,
        }))
    }
}

fn parse_move(line: &str) -> Option<(Move, MoveTally)> {
    let mut f = line.split(' ');
    let mv = Move::from_usi(f.next()?).ok()?;
    let mut num = || f.next().and_then(|x| x.parse::<u64>().ok());
    let tally = MoveTally {
        games: num()?,
        wins: num()?,
        draws: num()?,
        losses: num()?,
    };
    Some((mv, tally))
}
