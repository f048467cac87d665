//! The games of each position the buckets count, with what the filters ask of them, in one
//! packed row per position (`position_games`): what answers the filters the buckets cannot
//! combine (a tag filter with dates, time controls or ratings, several tag filters) and
//! `--top N` with any of them, by reading one row instead of every hit's game.
//!
//! ```text
//! position_games  key, check_key, hits (occurrences), games_n (distinct games), moves
//!                 (the position's moves in USI, space-separated), games (BLOB: one record
//!                 per game and move played, see below; NULL when a value does not fit)
//!                 PRIMARY KEY (key, check_key) WITHOUT ROWID
//! want_sets       want, sets, sides: the games' tag sets ([`crate::tag_buckets`]) holding
//!                 each want, with the side mask; and each set's `main:` want (the name
//!                 `explore --by opening` counts its games under) with side mask 0
//!                 PRIMARY KEY (want, sets) WITHOUT ROWID
//! ```
//!
//! A record is [`RECORD`] bytes, little-endian: game id (u32), want set (u32), place in the
//! order of the newest games (u32; `u32::MAX`: no date), rating sum (f64), month, time
//! control and the three rating bands (i16 each, `i16::MIN`: unknown), the move's index in
//! `moves` (u8; 255: none, the line ended there) and flags (bit 0: the game's first record,
//! bits 1-2: winner, bit 3: the line ended there, bits 4-5: ratings known, bit 6: the game
//! reaches the position more often than it has records, so that `find` counts its hits in
//! `positions`). Records are in
//! the order of the top games ([`crate::tally::top_order`]), so a move's top games are its
//! first records kept. The counts of occurrences and games give `find` its totals without
//! reading every hit.

use crate::buckets::{Bounds, UNKNOWN};
use crate::hit::Counts;
use crate::tally::{Explore, GameRef, MoveLine, table};
use rusqlite::{Connection, OptionalExtension, params};
use shogi_batch::TagFilter;
use shogi_core::Position;

/// Bytes per record.
const RECORD: usize = 32;

/// The move index of a record without a move.
const NO_MOVE: u8 = 255;

/// The tables (in [`crate::schema::create_sql`]).
pub const CREATE_SQL: &str = "CREATE TABLE position_games (
  key INTEGER NOT NULL,
  check_key INTEGER NOT NULL,
  hits INTEGER NOT NULL,
  games_n INTEGER NOT NULL,
  moves TEXT,
  games BLOB,
  PRIMARY KEY (key, check_key)
) WITHOUT ROWID;
CREATE TABLE want_sets (
  want INTEGER NOT NULL,
  sets INTEGER NOT NULL,
  sides INTEGER NOT NULL,
  PRIMARY KEY (want, sets)
) WITHOUT ROWID;
";

/// One game at a position, as the index knows it.
pub(crate) struct Entry<'a> {
    pub id: i64,
    pub set: u32,
    pub top: u32,
    pub newest: Option<u32>,
    pub ratings: (f64, u32),
    pub dims: [i64; 5],
    pub winner: u8,
    pub ended: bool,
    /// It reaches the position more often than it has records here (a move played twice
    /// from it, or the line ending in it after passing it).
    pub repeats: bool,
    pub moves: Vec<&'a str>,
}

/// A dimension as stored, when it fits.
fn small(d: i64) -> Option<i16> {
    match d {
        UNKNOWN => Some(i16::MIN),
        d => i16::try_from(d).ok().filter(|&v| v != i16::MIN),
    }
}

/// The packed row of a position's games (`None` when a value does not fit).
pub(crate) fn pack(mut games: Vec<Entry<'_>>) -> Option<(String, Vec<u8>)> {
    games.sort_unstable_by_key(|g| g.top);
    let mut moves: Vec<&str> = games.iter().flat_map(|g| g.moves.iter().copied()).collect();
    moves.sort_unstable();
    moves.dedup();
    if moves.len() >= usize::from(NO_MOVE) {
        return None;
    }
    let mut out = Vec::with_capacity(games.len() * RECORD * 2);
    for g in &games {
        let id = u32::try_from(g.id).ok()?;
        let mut dims = [0i16; 5];
        for (s, d) in dims.iter_mut().zip(g.dims) {
            *s = small(d)?;
        }
        let flags = |first: bool, ended: bool| {
            u8::from(first)
                | (g.winner << 1)
                | (u8::from(ended) << 3)
                | ((g.ratings.1 as u8) << 4)
                | (u8::from(g.repeats) << 6)
        };
        let mut records: Vec<(u8, u8)> = g
            .moves
            .iter()
            .map(|m| (moves.binary_search(m).unwrap_or(0) as u8, 0))
            .collect();
        if g.ended || records.is_empty() {
            records.push((NO_MOVE, 0));
        }
        for (i, (mv, _)) in records.into_iter().enumerate() {
            out.extend(id.to_le_bytes());
            out.extend(g.set.to_le_bytes());
            out.extend(g.newest.unwrap_or(u32::MAX).to_le_bytes());
            out.extend(g.ratings.0.to_le_bytes());
            for d in dims {
                out.extend(d.to_le_bytes());
            }
            out.push(mv);
            out.push(flags(i == 0, g.ended));
        }
    }
    Some((moves.join(" "), out))
}

/// The occurrences and distinct games of the position of `keys`, when it is counted.
pub(crate) fn counts(conn: &Connection, keys: [i64; 2]) -> rusqlite::Result<Option<Counts>> {
    conn.prepare_cached(
        "SELECT hits, games_n FROM position_games WHERE key = ?1 AND check_key = ?2",
    )?
    .query_row(params![keys[0], keys[1]], |r| {
        Ok(Counts {
            total: r.get(0)?,
            games: r.get(1)?,
        })
    })
    .optional()
}

/// Writes the tag sets (`sets[i]`: set `i`'s (want, side mask) pairs and its `main:` id,
/// written with side mask 0).
pub(crate) fn write_sets(
    conn: &Connection,
    sets: &[crate::tag_buckets::TagSet],
) -> rusqlite::Result<()> {
    conn.execute_batch("DELETE FROM want_sets")?;
    let mut st = conn.prepare("INSERT INTO want_sets (want, sets, sides) VALUES (?1, ?2, ?3)")?;
    for (i, (set, main)) in sets.iter().enumerate() {
        for &(want, sides) in set {
            st.execute(params![want, i as i64, sides])?;
        }
        if *main != 0 {
            st.execute(params![main, i as i64, 0])?;
        }
    }
    Ok(())
}

/// The want sets a tag filter keeps, when the database counted its want.
fn kept_sets(conn: &Connection, f: &TagFilter) -> rusqlite::Result<Option<Vec<bool>>> {
    let Some((want, bits)) = crate::tag_buckets::filter_id(conn, f)? else {
        return Ok(None);
    };
    let mut st = conn.prepare_cached("SELECT sets, sides FROM want_sets WHERE want = ?1")?;
    // Indexed by set number: a lookup per record, without hashing.
    let mut keep = Vec::new();
    for row in st.query_map([want], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, u8>(1)?)))? {
        let (set, sides) = row?;
        if sides & bits != 0 {
            let at = set as usize;
            if keep.len() <= at {
                keep.resize(at + 1, false);
            }
            keep[at] = true;
        }
    }
    Ok(Some(keep))
}

/// A game of a packed row that the filters keep.
#[derive(Debug, PartialEq)]
pub(crate) struct KeptGame {
    pub id: u32,
    /// Its records in the row: its hits, unless `repeats`.
    pub records: u32,
    pub repeats: bool,
    /// Its tag set and winner (0 sente, 1 gote, 2 draw, 3 none).
    pub set: u32,
    pub winner: u8,
}

/// The games of the packed row of `keys` that `b` and the tag filters `tags` keep, in the
/// row's order; `None` when the position has no row or a tag filter's want was not counted.
pub(crate) fn kept_games(
    conn: &Connection,
    keys: [i64; 2],
    b: &Bounds,
    tags: &[TagFilter],
) -> rusqlite::Result<Option<Vec<KeptGame>>> {
    let Some(sets) = filters_sets(conn, tags)? else {
        return Ok(None);
    };
    let mut st =
        conn.prepare_cached("SELECT games FROM position_games WHERE key = ?1 AND check_key = ?2")?;
    let mut rows = st.query(params![keys[0], keys[1]])?;
    let Some(row) = rows.next()? else {
        return Ok(None);
    };
    let Some(blob) = row.get_ref(0)?.as_blob_or_null()? else {
        return Ok(None);
    };
    Ok(Some(kept_in(blob, b, &sets, PART_RECORDS)))
}

/// The games of `blob` that `b` and `sets` keep, scanned in parts of `part` records on the
/// thread pool.
fn kept_in(blob: &[u8], b: &Bounds, sets: &[Vec<bool>], part: usize) -> Vec<KeptGame> {
    use rayon::prelude::*;
    let parts: Vec<KeptPart> = blob
        .par_chunks(part.max(1) * RECORD)
        .map(|bytes| KeptPart::scan(bytes, b, sets))
        .collect();
    let mut kept: Vec<KeptGame> = Vec::new();
    // Whether the last game so far is kept and may have records in the next part.
    let mut open = false;
    for p in parts {
        if open {
            if let Some(g) = kept.last_mut() {
                g.records += p.leading;
            }
        }
        open = p.open.unwrap_or(open);
        kept.extend(p.games);
    }
    kept
}

/// The kept games of one part of a packed row.
struct KeptPart {
    /// Records at its start that belong to the game before it.
    leading: u32,
    games: Vec<KeptGame>,
    /// Whether its last game is kept (`None`: no game starts in it).
    open: Option<bool>,
}

impl KeptPart {
    /// The games of `bytes` that `b` and the kept sets `sets` keep (a game's records follow
    /// one another and share its facts).
    fn scan(bytes: &[u8], b: &Bounds, sets: &[Vec<bool>]) -> KeptPart {
        let mut part = KeptPart {
            leading: 0,
            games: Vec::new(),
            open: None,
        };
        for c in bytes.chunks_exact(RECORD) {
            let r = record(c);
            if r.flags & 1 == 1 {
                let keeping =
                    b.keeps(r.dims) && sets.iter().all(|s| s.get(r.set as usize) == Some(&true));
                part.open = Some(keeping);
                if keeping {
                    part.games.push(KeptGame {
                        id: r.id,
                        records: 0,
                        repeats: r.flags & 0x40 != 0,
                        set: r.set,
                        winner: (r.flags >> 1) & 3,
                    });
                }
            }
            match part.open {
                None => part.leading += 1,
                Some(true) => {
                    if let Some(g) = part.games.last_mut() {
                        g.records += 1;
                    }
                }
                Some(false) => {}
            }
        }
        part
    }
}

/// The `main:` want id of each tag set that has one (`explore --by opening`'s names).
pub(crate) fn set_mains(conn: &Connection) -> rusqlite::Result<Vec<i64>> {
    // By the names' ids: a range of the primary key each, not a scan of every set's wants.
    let mut st = conn.prepare_cached(
        "SELECT w.want, w.sets FROM bucket_tags t JOIN want_sets w ON w.want = t.id \
         WHERE t.want >= 'main:' AND t.want < 'main;' AND w.sides = 0",
    )?;
    let mut mains = Vec::new();
    for row in st.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, u32>(1)?)))? {
        let (main, set) = row?;
        let at = set as usize;
        if mains.len() <= at {
            mains.resize(at + 1, 0);
        }
        mains[at] = main;
    }
    Ok(mains)
}

/// The sets each tag filter keeps ([`kept_sets`]), when the database counted every want.
fn filters_sets(conn: &Connection, tags: &[TagFilter]) -> rusqlite::Result<Option<Vec<Vec<bool>>>> {
    let mut sets = Vec::new();
    for f in tags {
        match kept_sets(conn, f)? {
            Some(s) => sets.push(s),
            None => return Ok(None),
        }
    }
    Ok(Some(sets))
}

/// A record's fields.
struct Record {
    id: u32,
    set: u32,
    newest: u32,
    rating_sum: f64,
    dims: [i64; 5],
    mv: u8,
    flags: u8,
}

fn record(c: &[u8]) -> Record {
    let u = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
    let mut dims = [0i64; 5];
    for (k, d) in dims.iter_mut().enumerate() {
        let v = i16::from_le_bytes([c[20 + 2 * k], c[21 + 2 * k]]);
        *d = if v == i16::MIN { UNKNOWN } else { i64::from(v) };
    }
    let mut sum = [0u8; 8];
    sum.copy_from_slice(&c[12..20]);
    Record {
        id: u(0),
        set: u(4),
        newest: u(8),
        rating_sum: f64::from_le_bytes(sum),
        dims,
        mv: c[30],
        flags: c[31],
    }
}

/// A move's counts: its line, rating sum and count, newest (place, id), top ids.
type Line = (MoveLine, (f64, u32), Option<(u32, u32)>, Vec<u32>);

/// A move's counts so far: games, results (sente, gote, draw, none), rating sum and count,
/// newest (place, id), top ids.
#[derive(Clone, Debug, Default, PartialEq)]
struct Tally {
    games: u32,
    results: [u32; 4],
    ratings: (f64, u32),
    newest: Option<(u32, u32)>,
    top: Vec<u32>,
}

/// The counts of one part of a packed row: per move index, games and lines ending here.
#[derive(Clone, Debug, PartialEq)]
struct Part {
    moves: Vec<Tally>,
    games: u32,
    ended: u32,
}

/// Records scanned by one task: parts of a large row are counted on several threads.
const PART_RECORDS: usize = 1 << 16;

impl Part {
    fn new(moves: usize) -> Part {
        Part {
            moves: vec![Tally::default(); moves],
            games: 0,
            ended: 0,
        }
    }

    /// Counts the records of `bytes` that `b` and the kept sets `sets` keep.
    fn scan(mut self, bytes: &[u8], b: &Bounds, sets: &[Vec<bool>], top: usize) -> Part {
        for c in bytes.chunks_exact(RECORD) {
            let r = record(c);
            if !b.keeps(r.dims) || !sets.iter().all(|s| s.get(r.set as usize) == Some(&true)) {
                continue;
            }
            let first = r.flags & 1 == 1;
            self.games += u32::from(first);
            self.ended += u32::from(first && r.flags & 8 != 0);
            let Some(line) = self.moves.get_mut(usize::from(r.mv)) else {
                continue;
            };
            line.games += 1;
            line.results[usize::from((r.flags >> 1) & 3)] += 1;
            line.ratings.0 += r.rating_sum;
            line.ratings.1 += u32::from((r.flags >> 4) & 3);
            if r.newest != u32::MAX && line.newest.is_none_or(|(n, _)| r.newest > n) {
                line.newest = Some((r.newest, r.id));
            }
            if line.top.len() < top {
                line.top.push(r.id);
            }
        }
        self
    }

    /// This part followed by `later` (the records after it, in top-game order).
    fn then(mut self, later: Part, top: usize) -> Part {
        self.games += later.games;
        self.ended += later.ended;
        for (a, b) in self.moves.iter_mut().zip(later.moves) {
            a.games += b.games;
            for (x, y) in a.results.iter_mut().zip(b.results) {
                *x += y;
            }
            a.ratings.0 += b.ratings.0;
            a.ratings.1 += b.ratings.1;
            if let Some((n, id)) = b.newest {
                if a.newest.is_none_or(|(m, _)| n > m) {
                    a.newest = Some((n, id));
                }
            }
            let room = top.saturating_sub(a.top.len());
            a.top.extend(b.top.into_iter().take(room));
        }
        self
    }
}

/// The counts of a packed row's records that `b` and `sets` keep, `moves` move indexes: a
/// large row is counted in parts on the thread pool, merged in order.
fn count(blob: &[u8], moves: usize, b: &Bounds, sets: &[Vec<bool>], top: usize) -> Part {
    count_in(blob, moves, b, sets, top, PART_RECORDS)
}

/// [`count`] in parts of `part` records.
fn count_in(
    blob: &[u8],
    moves: usize,
    b: &Bounds,
    sets: &[Vec<bool>],
    top: usize,
    part: usize,
) -> Part {
    use rayon::prelude::*;
    let part = part.max(1);
    if blob.len() <= part * RECORD {
        return Part::new(moves).scan(blob, b, sets, top);
    }
    let parts: Vec<Part> = blob
        .par_chunks(part * RECORD)
        .map(|bytes| Part::new(moves).scan(bytes, b, sets, top))
        .collect();
    parts
        .into_iter()
        .fold(Part::new(moves), |all, p| all.then(p, top))
}

/// The explorer table of `target` from its packed row, for filters `b` decides and the tag
/// filters `tags`, with `top` top games per move; `None` when the position has no row or a
/// tag filter's want was not counted.
pub(crate) fn explore(
    conn: &Connection,
    target: &Position,
    keys: [i64; 2],
    b: &Bounds,
    tags: &[TagFilter],
    top: usize,
) -> rusqlite::Result<Option<Explore>> {
    let Some(sets) = filters_sets(conn, tags)? else {
        return Ok(None);
    };
    let mut st = conn.prepare_cached(
        "SELECT moves, games FROM position_games WHERE key = ?1 AND check_key = ?2",
    )?;
    let mut rows = st.query(params![keys[0], keys[1]])?;
    let Some(row) = rows.next()? else {
        return Ok(None);
    };
    // The blob is read where SQLite holds it, not copied (32 MB at the start of a million
    // games).
    let (Some(moves), Some(blob)) = (
        row.get_ref(0)?.as_str_or_null()?,
        row.get_ref(1)?.as_blob_or_null()?,
    ) else {
        return Ok(None);
    };
    let names: Vec<String> = moves
        .split(' ')
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    let counted = count(blob, names.len(), b, &sets, top);
    drop(rows);
    let (games, ended) = (counted.games, counted.ended);
    let mut lines: Vec<Line> = Vec::with_capacity(names.len());
    for (name, t) in names.iter().zip(counted.moves) {
        let mut line = MoveLine::new(name);
        line.games = t.games;
        [line.sente_wins, line.gote_wins, line.draws, line.unfinished] = t.results;
        lines.push((line, t.ratings, t.newest, t.top));
    }
    let mut of = conn.prepare_cached("SELECT path, game, start_iso FROM games WHERE id = ?1")?;
    let mut out = Vec::with_capacity(lines.len());
    for (mut line, ratings, newest, best) in lines {
        if line.games == 0 {
            continue;
        }
        line.top = crate::buckets::top_games(conn, best)?;
        if let Some((_, id)) = newest {
            line.recent = of
                .query_row([id], |r| {
                    Ok(GameRef {
                        path: r.get(0)?,
                        game: r.get(1)?,
                        date: r.get(2)?,
                    })
                })
                .optional()?;
        }
        out.push((line, ratings));
    }
    Ok(Some(table(target, out, games, ended)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of 40 games of 1 to 3 moves (some ending at the position), in 3 tag sets.
    fn row() -> (String, Vec<u8>) {
        let pool = ["2g2f", "5g5f", "7g7f"];
        let games = (0..40u32)
            .map(|i| Entry {
                id: i64::from(i) + 1,
                set: i % 3,
                top: 40 - i,
                newest: (i % 5 != 0).then_some(i * 7 % 40),
                ratings: (3000.0 + f64::from(i), 2),
                dims: [24_000 + i64::from(i), 0, 30, 31, 30],
                winner: (i % 4) as u8,
                ended: i % 4 == 0,
                repeats: i % 9 == 0,
                moves: pool[..(i % 3) as usize + usize::from(i % 4 != 0)].to_vec(),
            })
            .collect();
        pack(games).unwrap()
    }

    #[test]
    fn parts_of_a_row_add_up_to_the_whole() {
        let (moves, blob) = row();
        let moves = moves.split(' ').count();
        let all = Bounds::none();
        for sets in [vec![], vec![vec![true, false, true]]] {
            let whole = kept_in(&blob, &all, &sets, usize::MAX / RECORD);
            assert!(whole.len() > 20 && whole.iter().any(|g| g.records > 2));
            assert!(whole.iter().all(|g| sets.is_empty() || g.set != 1));
            for top in [0, 2, 50] {
                let once = count_in(&blob, moves, &all, &sets, top, usize::MAX / RECORD);
                assert_eq!(once.games as usize, whole.len());
                for part in [1, 2, 3, 7, 64] {
                    let got = count_in(&blob, moves, &all, &sets, top, part);
                    // Sums of ratings in another order: equal to rounding.
                    for (a, b) in got.moves.iter().zip(&once.moves) {
                        assert!((a.ratings.0 - b.ratings.0).abs() < 1e-6);
                    }
                    let cut = |p: Part| {
                        let moves = p
                            .moves
                            .into_iter()
                            .map(|t| (t.games, t.results, t.newest, t.top));
                        (p.games, p.ended, moves.collect::<Vec<_>>())
                    };
                    assert_eq!(cut(got), cut(once.clone()), "part {part}, top {top}");
                    assert_eq!(kept_in(&blob, &all, &sets, part), whole, "part {part}");
                }
            }
        }
    }
}
