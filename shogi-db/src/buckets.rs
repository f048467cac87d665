//! The explorer's counts aggregated at index time, as lila-openingexplorer keeps them: for
//! each position reached by at least [`MIN_GAMES`] games, per move, the games, results,
//! rating sums and newest game of each bucket of month, time control and rating bands
//! (`buckets` table). `explore` then answers from the buckets of the position whose filters
//! they can decide (dates by whole months, time controls, ratings bounded at multiples of
//! [`BAND`]), instead of reading every hit; other filters, and rarer positions, go through
//! the hits as before.
//!
//! Each position is counted at several levels, so that a query reads as few rows as its
//! filters allow: 0 (no dimension: the totals), 1 (month and time control), 2 (the rating
//! bands), 3 (all of them), 4 (per opening, castle or class and side mask, see
//! [`crate::tag_buckets`]: one tag filter and no other) and 8 to 11 (levels 0 to 3 per name
//! `explore --by opening` counts the games under, the games only). A rating `r` is in band
//! `2·floor(r/BAND)` when it is a multiple of [`BAND`] and `2·floor(r/BAND)+1` otherwise, so
//! that both `r ≥ k·BAND` and `r ≤ k·BAND` are unions of whole bands.

use crate::tag_buckets::{BY_OPENING, TAGGED, Wants};
use crate::tags::{OpeningCount, Openings};
use crate::tally::{Explore, GameRef, MoveLine, TopGame, table};
use rusqlite::{Connection, OptionalExtension, params};
use shogi_batch::{FactFilters, RatingOf, Selection, average};
use shogi_core::{Color, Position};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// Positions reached by fewer games than this are not aggregated by default (their hits are
/// few); see [`crate::IndexOptions::bucket_min_games`].
pub const MIN_GAMES: u32 = 64;

/// The width of a rating band.
pub const BAND: f64 = 100.0;

/// The top games (`explore --top`) each bucket keeps per move: a larger `--top` reads the
/// hits.
pub const TOP_KEPT: usize = 5;

/// The band, month and time control of what is unknown.
pub(crate) const UNKNOWN: i64 = -1_000_000_000;

/// The `meta` entry holding the [`MIN_GAMES`] the buckets were built with.
const MIN_GAMES_META: &str = "bucket_min_games";

/// The tables of the buckets (in [`crate::schema::create_sql`]).
pub const CREATE_SQL: &str =
    "CREATE TABLE time_controls (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
CREATE TABLE buckets (
  key INTEGER NOT NULL,
  check_key INTEGER NOT NULL,
  level INTEGER NOT NULL,
  tag INTEGER NOT NULL,
  sides INTEGER NOT NULL,
  month INTEGER NOT NULL,
  tc INTEGER NOT NULL,
  sente_band INTEGER NOT NULL,
  gote_band INTEGER NOT NULL,
  avg_band INTEGER NOT NULL,
  move TEXT NOT NULL,
  games INTEGER NOT NULL,
  sente_wins INTEGER NOT NULL,
  gote_wins INTEGER NOT NULL,
  draws INTEGER NOT NULL,
  unfinished INTEGER NOT NULL,
  ended INTEGER NOT NULL,
  rating_sum REAL NOT NULL,
  rating_n INTEGER NOT NULL,
  newest TEXT,
  newest_rank INTEGER,
  newest_id INTEGER,
  top BLOB,
  PRIMARY KEY (key, check_key, level, tag, sides, tc, month, sente_band, gote_band, avg_band,
    move)
) WITHOUT ROWID;
";

/// The band of a rating (see the module docs).
pub fn band(r: Option<f64>) -> i64 {
    match r {
        Some(r) if r.is_finite() && r.abs() < 1e15 => {
            let f = (r / BAND).floor();
            2 * f as i64 + i64::from(r != f * BAND)
        }
        _ => UNKNOWN,
    }
}

/// The month of a start date as `12·year + month − 1`, when it has a day (as the date
/// filters read it: the first 10 characters).
fn month(start_iso: Option<&str>) -> i64 {
    let Some(d) = start_iso.and_then(|d| d.get(..10)) else {
        return UNKNOWN;
    };
    // `get`, not indexing: a stored date that is not ASCII must not cut a character.
    let field = |r: std::ops::Range<usize>| d.get(r).and_then(|t| t.parse::<i64>().ok());
    match (field(0..4), field(5..7)) {
        (Some(y), Some(m)) => 12 * y + m - 1,
        _ => UNKNOWN,
    }
}

/// What the buckets need of a game.
struct Facts {
    winner: u8,
    ratings: (f64, u32),
    dims: [i64; 5],
    start_iso: Option<String>,
    /// Its place in (path, game) order.
    rank: i64,
    /// Its place in the order of the top games ([`crate::tally::top_order`]).
    top: u32,
    /// Its place in (start, rank) order, when it has a start.
    newest: Option<u32>,
    /// Its want set ([`Wants::set`]) and the `bucket_tags.id` of its main 戦型's name.
    wants: u32,
    main: i64,
}

/// The dimensions of a bucket at `level`.
fn project(dims: &[i64; 5], level: u8) -> [i64; 5] {
    match level {
        0 => [0; 5],
        1 => [dims[0], dims[1], 0, 0, 0],
        2 => [0, 0, dims[2], dims[3], dims[4]],
        _ => *dims,
    }
}

/// The counts of one bucket.
#[derive(Default)]
struct Agg {
    games: i64,
    wins: [i64; 4],
    ended: i64,
    rating_sum: f64,
    rating_n: i64,
    /// The newest start, its game's rank and id.
    newest: Option<(String, i64, i64)>,
    /// The first [`TOP_KEPT`] games in the top order: (place, id), in order.
    top: Vec<(u32, u32)>,
}

impl Agg {
    fn add_top(&mut self, place: u32, id: u32) {
        let at = self.top.partition_point(|t| t.0 < place);
        if at < TOP_KEPT {
            self.top.insert(at, (place, id));
            self.top.truncate(TOP_KEPT);
        }
    }

    fn add_newest(&mut self, date: &str, rank: i64, id: i64) {
        let newer = match &self.newest {
            None => true,
            Some((d, r, _)) => (date, rank) > (d.as_str(), *r),
        };
        if newer {
            self.newest = Some((date.to_string(), rank, id));
        }
    }
}

/// The mean rating the top games are ordered by ([`crate::TopGame::rating`]).
fn top_rating(s: Option<f64>, g: Option<f64>) -> Option<f64> {
    s.zip(g).map(|(a, b)| average(a, b))
}

/// The stored form of a bucket's top games: (place, id) as two little-endian `u32`s each.
fn top_blob(top: &[(u32, u32)]) -> Option<Vec<u8>> {
    (!top.is_empty()).then(|| {
        top.iter()
            .flat_map(|(p, i)| p.to_le_bytes().into_iter().chain(i.to_le_bytes()))
            .collect()
    })
}

/// The (place, id) pairs of [`top_blob`] (a damaged blob's partial pair is ignored).
fn blob_top(b: &[u8]) -> impl Iterator<Item = (u32, u32)> + '_ {
    b.chunks_exact(8).map(|c| {
        let n = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
        (n(0), n(4))
    })
}

/// Reads what the buckets need of every game, by id (with `wants`, its tags too).
fn facts(
    conn: &Connection,
    mut wants: Option<&mut Wants>,
) -> rusqlite::Result<(HashMap<i64, Facts>, Vec<String>)> {
    let mut tcs: HashMap<String, i64> = HashMap::new();
    let mut st = conn.prepare(
        "SELECT g.id, g.winner, g.sente_rating, g.gote_rating, g.start_iso, g.time_control, \
         t.opening FROM games g LEFT JOIN game_tags t ON t.game_id = g.id \
         ORDER BY g.path, g.game",
    )?;
    let mut rows = st.query([])?;
    let mut all = HashMap::new();
    let mut rank = 0;
    let mut top: Vec<(i64, Option<f64>)> = Vec::new();
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let winner = match r.get_ref(1)?.as_str_or_null()? {
            Some("sente") => 0,
            Some("gote") => 1,
            Some("draw") => 2,
            _ => 3,
        };
        let (s, g): (Option<f64>, Option<f64>) = (r.get(2)?, r.get(3)?);
        let start_iso: Option<String> = r.get(4)?;
        let tc = match r.get_ref(5)?.as_str_or_null()? {
            None => UNKNOWN,
            Some(t) => {
                let n = tcs.len() as i64;
                *tcs.entry(t.to_string()).or_insert(n)
            }
        };
        let ratings = [s, g]
            .into_iter()
            .flatten()
            .fold((0.0, 0), |(sum, n), x| (sum + x, n + 1));
        let avg = match (s, g) {
            (Some(a), Some(b)) => band(Some(average(a, b))),
            _ => UNKNOWN,
        };
        let dims = [month(start_iso.as_deref()), tc, band(s), band(g), avg];
        let (wants, main) = match wants.as_deref_mut() {
            Some(w) => {
                let name = r.get_ref(6)?.as_str_or_null()?.unwrap_or("none");
                let main = w.main_id(conn, name)?;
                (w.game(conn, id, main)?, main)
            }
            None => (0, 0),
        };
        all.insert(
            id,
            Facts {
                winner,
                ratings,
                dims,
                start_iso,
                rank,
                top: 0,
                newest: None,
                wants,
                main,
            },
        );
        rank += 1;
        top.push((id, top_rating(s, g)));
    }
    top.sort_by(|a, b| {
        let (fa, fb) = (&all[&a.0], &all[&b.0]);
        crate::tally::top_order(
            (a.1, fa.start_iso.as_deref(), fa.rank),
            (b.1, fb.start_iso.as_deref(), fb.rank),
        )
    });
    for (place, (id, _)) in top.into_iter().enumerate() {
        if let Some(f) = all.get_mut(&id) {
            f.top = place as u32;
        }
    }
    let mut dated: Vec<(&str, i64, i64)> = all
        .iter()
        .filter_map(|(id, f)| Some((f.start_iso.as_deref()?, f.rank, *id)))
        .collect();
    dated.sort_unstable();
    let places: Vec<(i64, u32)> = dated
        .into_iter()
        .enumerate()
        .map(|(place, (_, _, id))| (id, place as u32))
        .collect();
    for (id, place) in places {
        if let Some(f) = all.get_mut(&id) {
            f.newest = Some(place);
        }
    }
    let mut names = vec![String::new(); tcs.len()];
    for (t, i) in tcs {
        names[i as usize] = t;
    }
    Ok((all, names))
}

/// Builds the buckets afresh (after an index run that changed the games).
pub(crate) fn build(conn: &Connection, min_games: u32) -> rusqlite::Result<u64> {
    conn.execute_batch(
        "DELETE FROM buckets; DELETE FROM time_controls; DELETE FROM position_games; \
         DELETE FROM want_sets;",
    )?;
    let mut wants = Wants::create(conn)?;
    let (games, tcs) = facts(conn, wants.as_mut())?;
    {
        let mut st = conn.prepare("INSERT INTO time_controls (id, text) VALUES (?1, ?2)")?;
        for (i, t) in tcs.iter().enumerate() {
            st.execute(params![i as i64, t])?;
        }
    }
    let mut ins = conn.prepare(
        "INSERT INTO buckets VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, \
         ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)",
    )?;
    let mut packed = conn.prepare("INSERT INTO position_games VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?;
    let mut st = conn.prepare("SELECT key, check_key, game_id, move FROM positions")?;
    let mut rows = st.query([])?;
    // The rows of the current key: check key, game, move.
    let mut group: Vec<(i64, i64, Option<String>)> = Vec::new();
    let mut current: Option<i64> = None;
    let mut written = 0;
    loop {
        let row = rows.next()?;
        let key = match row {
            Some(r) => Some(r.get::<_, i64>(0)?),
            None => None,
        };
        if key != current {
            if let Some(k) = current {
                let to = (&mut ins, &mut packed);
                written += flush(to, k, &mut group, &games, wants.as_ref(), min_games)?;
            }
            group.clear();
            current = key;
        }
        let Some(r) = row else { break };
        group.push((r.get(1)?, r.get(2)?, r.get(3)?));
    }
    if let Some(w) = &wants {
        crate::postings::write_sets(conn, w.sets())?;
    }
    conn.execute(
        "INSERT OR REPLACE INTO meta (name, value) VALUES (?1, ?2)",
        params![MIN_GAMES_META, min_games.to_string()],
    )?;
    Ok(written)
}

/// A bucket: level, want id, side mask, dimensions, move (`""`: the games reaching the
/// position, whatever they played).
type BucketKey<'a> = (u8, i64, u8, [i64; 5], &'a str);

/// Counts one game (`id`, facts `f`, the `moves` it played from the position, whether its
/// line `ended` there) into the buckets of `at` (level, want, side mask, dimensions).
fn count_game<'a>(
    aggs: &mut HashMap<BucketKey<'a>, Agg>,
    at: (u8, i64, u8, [i64; 5]),
    f: &Facts,
    id: i64,
    ended: bool,
    moves: &[&'a str],
) {
    let (level, tag, sides, dims) = at;
    let here = aggs.entry((level, tag, sides, dims, "")).or_default();
    here.games += 1;
    here.ended += i64::from(ended);
    for mv in moves {
        let a = aggs.entry((level, tag, sides, dims, mv)).or_default();
        a.games += 1;
        a.wins[usize::from(f.winner)] += 1;
        a.rating_sum += f.ratings.0;
        a.rating_n += i64::from(f.ratings.1);
        if let Some(d) = &f.start_iso {
            a.add_newest(d, f.rank, id);
        }
        a.add_top(f.top, id as u32);
    }
}

/// Counts the rows of one key (grouped by check key) into buckets and writes them; returns
/// the rows written. With `wants` (the games have their tags), each game is also counted
/// per want and side mask ([`TAGGED`]) and under its main 戦型 ([`BY_OPENING`]).
fn flush(
    (ins, packed): (&mut rusqlite::Statement<'_>, &mut rusqlite::Statement<'_>),
    key: i64,
    group: &mut [(i64, i64, Option<String>)],
    games: &HashMap<i64, Facts>,
    wants: Option<&Wants>,
    min_games: u32,
) -> rusqlite::Result<u64> {
    group.sort_unstable_by_key(|(ck, g, _)| (*ck, *g));
    let mut written = 0;
    for part in group.chunk_by(|a, b| a.0 == b.0) {
        let distinct = part.chunk_by(|a, b| a.1 == b.1).count();
        if distinct < min_games.max(1) as usize {
            continue;
        }
        let mut aggs: HashMap<BucketKey<'_>, Agg> = HashMap::new();
        let mut entries = Vec::with_capacity(distinct);
        for game in part.chunk_by(|a, b| a.1 == b.1) {
            let id = game[0].1;
            let Some(f) = games.get(&id) else {
                continue;
            };
            let ended = game.iter().any(|h| h.2.is_none());
            let mut moves: Vec<&str> = game.iter().filter_map(|h| h.2.as_deref()).collect();
            moves.sort_unstable();
            moves.dedup();
            let records = moves.len() + usize::from(ended || moves.is_empty());
            entries.push(crate::postings::Entry {
                id,
                set: f.wants,
                top: f.top,
                newest: f.newest,
                ratings: f.ratings,
                dims: f.dims,
                winner: f.winner,
                ended,
                repeats: game.len() > records,
                moves: moves.clone(),
            });
            for level in 0..4u8 {
                let at = (level, 0, 0, project(&f.dims, level));
                count_game(&mut aggs, at, f, id, ended, &moves);
            }
            let Some(w) = wants else { continue };
            for &(want, sides) in w.set(f.wants) {
                count_game(
                    &mut aggs,
                    (TAGGED, want, sides, [0; 5]),
                    f,
                    id,
                    ended,
                    &moves,
                );
            }
            for level in 0..4u8 {
                let dims = project(&f.dims, level);
                let by = aggs
                    .entry((BY_OPENING + level, f.main, 0, dims, ""))
                    .or_default();
                by.games += 1;
                by.wins[usize::from(f.winner)] += 1;
            }
        }
        let (moves, blob) = crate::postings::pack(entries).unzip();
        packed.execute(params![key, part[0].0, part.len(), distinct, moves, blob])?;
        for ((level, tag, sides, d, mv), a) in aggs {
            let (newest, rank, id) = match a.newest {
                Some((d, r, i)) => (Some(d), Some(r), Some(i)),
                None => (None, None, None),
            };
            ins.execute(params![
                key,
                part[0].0,
                level,
                tag,
                sides,
                d[0],
                d[1],
                d[2],
                d[3],
                d[4],
                mv,
                a.games,
                a.wins[0],
                a.wins[1],
                a.wins[2],
                a.wins[3],
                a.ended,
                a.rating_sum,
                a.rating_n,
                newest,
                rank,
                id,
                top_blob(&a.top)
            ])?;
            written += 1;
        }
    }
    Ok(written)
}

/// The bounds of the filters on a bucket's dimensions, when the buckets decide them.
pub(crate) struct Bounds {
    level: u8,
    months: (i64, i64),
    /// The time controls kept (`None`: all).
    tcs: Option<Vec<i64>>,
    bands: (i64, i64),
    rating_of: RatingOf,
    mover: Option<Color>,
    /// The want counted ([`TAGGED`]; 0: none) and the side masks summed (see
    /// [`crate::tag_buckets`]; 0 when there is no want).
    tag: i64,
    sides: u8,
}

/// The band bound of a rating bound that is a multiple of [`BAND`].
fn band_bound(r: Option<f64>, none: i64) -> Option<i64> {
    match r {
        None => Some(none),
        Some(r) if (r / BAND).fract() == 0.0 && r.abs() < 1e15 => Some(band(Some(r))),
        Some(_) => None,
    }
}

/// The bounds of `f`, when the buckets decide every filter in it.
fn bounds(conn: &Connection, selection: &Selection, f: &FactFilters) -> Option<Bounds> {
    let month_of = |d: &shogi_batch::Day| {
        let (y, m) = d.year_month();
        12 * i64::from(y) + i64::from(m) - 1
    };
    if f.since.is_some_and(|d| !d.is_month_start()) || f.until.is_some_and(|d| !d.is_month_end()) {
        return None;
    }
    let months = (
        f.since.as_ref().map_or(i64::MIN, month_of),
        f.until.as_ref().map_or(i64::MAX, month_of),
    );
    let tcs = match f.time_control {
        None => None,
        Some(_) => {
            let mut st = conn.prepare("SELECT id, text FROM time_controls").ok()?;
            let rows = st
                .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
                .ok()?;
            let mut keep = Vec::new();
            for row in rows {
                let (id, text) = row.ok()?;
                if selection.keeps_time_control(Some(&text)) {
                    keep.push(id);
                }
            }
            Some(keep)
        }
    };
    let rated = f.min_rating.is_some() || f.max_rating.is_some();
    let bands = (
        band_bound(f.min_rating, i64::MIN)?,
        band_bound(f.max_rating, i64::MAX)?,
    );
    let dated = f.since.is_some() || f.until.is_some() || f.time_control.is_some();
    Some(Bounds {
        level: u8::from(dated) + 2 * u8::from(rated),
        months,
        tcs,
        bands,
        rating_of: f.rating_of,
        mover: f.mover,
        tag: 0,
        sides: 0,
    })
}

/// The bounds of `selection`, when the buckets decide every filter in it: filters of the
/// games' facts alone (dates, time controls, ratings), or one tag filter alone.
fn selection_bounds(conn: &Connection, selection: &Selection) -> rusqlite::Result<Option<Bounds>> {
    let plain = selection.without_tags();
    let Some(f) = plain.fact_filters() else {
        return Ok(None);
    };
    let Some(mut b) = bounds(conn, &plain, &f) else {
        return Ok(None);
    };
    match selection.tag_filters() {
        [] => {}
        [t] if b.level == 0 => {
            let Some((tag, sides)) = crate::tag_buckets::filter_id(conn, t)? else {
                return Ok(None);
            };
            (b.level, b.tag, b.sides) = (TAGGED, tag, sides);
        }
        _ => return Ok(None),
    }
    Ok(Some(b))
}

/// Whether `selection`'s filters are those of the finest level (months or time controls
/// with ratings): its rows grow about as the games do, so a position's packed games are
/// read instead where it has them.
pub(crate) fn finest(conn: &Connection, selection: &Selection) -> rusqlite::Result<bool> {
    Ok(selection_bounds(conn, selection)?.is_some_and(|b| b.level == 3))
}

/// Whether the position of `keys` is counted in the buckets.
fn counted(conn: &Connection, keys: [i64; 2]) -> rusqlite::Result<bool> {
    let has: Option<i64> = conn
        .prepare_cached(
            "SELECT 1 FROM buckets WHERE key = ?1 AND check_key = ?2 AND level = 0 LIMIT 1",
        )?
        .query_row(params![keys[0], keys[1]], |r| r.get(0))
        .optional()?;
    Ok(has.is_some())
}

impl Bounds {
    /// Bounds that keep every game.
    #[cfg(test)]
    pub(crate) fn none() -> Bounds {
        Bounds {
            level: 0,
            months: (i64::MIN, i64::MAX),
            tcs: None,
            bands: (i64::MIN, i64::MAX),
            rating_of: RatingOf::Both,
            mover: None,
            tag: 0,
            sides: 0,
        }
    }

    /// Whether a bucket of these dimensions is kept.
    pub(crate) fn keeps(&self, d: [i64; 5]) -> bool {
        if self.level & 1 == 1 {
            let dated = self.months != (i64::MIN, i64::MAX);
            if dated && (d[0] == UNKNOWN || d[0] < self.months.0 || d[0] > self.months.1) {
                return false;
            }
            if self.tcs.as_ref().is_some_and(|t| !t.contains(&d[1])) {
                return false;
            }
        }
        if self.level & 2 == 2 {
            let within = |b: i64| b != UNKNOWN && b >= self.bands.0 && b <= self.bands.1;
            let ok = match self.rating_of {
                RatingOf::Both => within(d[2]) && within(d[3]),
                RatingOf::Average => within(d[4]),
                RatingOf::Mover => match self.mover {
                    Some(Color::Black) => within(d[2]),
                    Some(Color::White) => within(d[3]),
                    None => false,
                },
            };
            if !ok {
                return false;
            }
        }
        true
    }
}

/// A move's merged buckets: its line, rating sum and count, newest (date, rank, id), top
/// games (place, id) in order.
type Merged = (
    MoveLine,
    (f64, u32),
    Option<(String, i64, i64)>,
    Vec<(u32, u32)>,
);

/// The explorer table of `target` from the buckets, with `selection`'s filters and `top`
/// top games per move; `None` when the position has no buckets, the filters are not all
/// decided by them, or `top` is more than the buckets keep.
pub(crate) fn explore(
    conn: &Connection,
    target: &Position,
    keys: [i64; 2],
    selection: &Selection,
    top: usize,
) -> rusqlite::Result<Option<Explore>> {
    // The finest level (months or time controls with ratings), more top games than kept,
    // and tag filters with others are counted from the position's games instead: the
    // finest level's rows grow about as the games do, and scanning the packed games takes
    // about half their time (measured at 100,000 games; see the README). A position
    // without packed games still has its finest buckets.
    let b = match selection_bounds(conn, selection)? {
        Some(b) if top <= TOP_KEPT && b.level < 3 => b,
        Some(b) if top == 0 && b.level != 3 => b,
        Some(b) if top == 0 => match from_postings(conn, target, keys, selection, top)? {
            Some(table) => return Ok(Some(table)),
            None => b,
        },
        _ => return from_postings(conn, target, keys, selection, top),
    };
    if !counted(conn, keys)? {
        return Ok(None);
    }
    // With months and time controls, only their ranges of the primary key are read: each
    // time control kept (all when none is asked), then the months.
    let mut sql = String::from(
        "SELECT month, tc, sente_band, gote_band, avg_band, move, games, sente_wins, \
         gote_wins, draws, unfinished, ended, rating_sum, rating_n, newest, newest_rank, \
         newest_id, top FROM buckets WHERE key = ?1 AND check_key = ?2 AND level = ?3 \
         AND tag = ?4",
    );
    // The side masks summed: those sharing a bit with the filter's side (0: no want).
    let masks: Vec<String> = (0..4u8)
        .filter(|m| {
            if b.sides == 0 {
                *m == 0
            } else {
                m & b.sides != 0
            }
        })
        .map(|m| m.to_string())
        .collect();
    sql.push_str(&format!(" AND sides IN ({})", masks.join(",")));
    if b.level & 1 == 1 {
        let tcs = match &b.tcs {
            Some(t) => t.clone(),
            None => {
                let mut st = conn.prepare_cached("SELECT id FROM time_controls")?;
                let mut all = vec![UNKNOWN];
                for id in st.query_map([], |r| r.get(0))? {
                    all.push(id?);
                }
                all
            }
        };
        let list: Vec<String> = tcs.iter().map(i64::to_string).collect();
        sql.push_str(&format!(
            " AND tc IN ({}) AND month BETWEEN {} AND {}",
            list.join(","),
            b.months.0,
            b.months.1
        ));
    }
    let mut st = conn.prepare_cached(&sql)?;
    let mut rows = st.query(params![keys[0], keys[1], b.level, b.tag])?;
    let (mut games, mut ended) = (0u32, 0u32);
    let mut lines: HashMap<String, Merged> = HashMap::new();
    while let Some(r) = rows.next()? {
        let d = [r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?];
        if !b.keeps(d) {
            continue;
        }
        let mv = r.get_ref(5)?.as_str()?;
        let n = |i: usize| r.get::<_, u32>(i);
        if mv.is_empty() {
            games += n(6)?;
            ended += n(11)?;
            continue;
        }
        let entry = lines.entry(mv.to_string()).or_insert_with(|| {
            let line = MoveLine::new(mv);
            (line, (0.0, 0), None, Vec::new())
        });
        let line = &mut entry.0;
        line.games += n(6)?;
        line.sente_wins += n(7)?;
        line.gote_wins += n(8)?;
        line.draws += n(9)?;
        line.unfinished += n(10)?;
        entry.1.0 += r.get::<_, f64>(12)?;
        entry.1.1 += n(13)?;
        let newest: Option<String> = r.get(14)?;
        if let Some(date) = newest {
            let (rank, id): (i64, i64) = (r.get(15)?, r.get(16)?);
            let newer = entry
                .2
                .as_ref()
                .is_none_or(|(d, k, _)| (date.as_str(), rank) > (d.as_str(), *k));
            if newer {
                entry.2 = Some((date, rank, id));
            }
        }
        if top > 0 {
            if let Some(blob) = r.get_ref(17)?.as_blob_or_null()? {
                for t in blob_top(blob) {
                    let at = entry.3.partition_point(|x| x.0 < t.0);
                    if at < top {
                        entry.3.insert(at, t);
                        entry.3.truncate(top);
                    }
                }
            }
        }
    }
    let mut game_of = conn.prepare_cached("SELECT path, game FROM games WHERE id = ?1")?;
    let mut out = Vec::with_capacity(lines.len());
    for (_, (mut line, ratings, newest, best)) in lines {
        line.top = top_games(conn, best.into_iter().map(|t| t.1))?;
        if line.games == 0 {
            continue;
        }
        if let Some((date, _, id)) = newest {
            let (path, game) = game_of
                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?
                .unwrap_or_default();
            line.recent = Some(GameRef {
                path,
                game,
                date: Some(date),
            });
        }
        out.push((line, ratings));
    }
    Ok(Some(table(target, out, games, ended)))
}

/// The top games of these game ids, in order (an id without a game is left out).
pub(crate) fn top_games(
    conn: &Connection,
    ids: impl IntoIterator<Item = u32>,
) -> rusqlite::Result<Vec<TopGame>> {
    let mut top_of = conn.prepare_cached(
        "SELECT path, game, sente_rating, gote_rating, start_iso FROM games WHERE id = ?1",
    )?;
    let mut out = Vec::new();
    for id in ids {
        let game = top_of
            .query_row([id], |r| {
                let ratings = [r.get(2)?, r.get(3)?];
                Ok(TopGame::new(r.get(0)?, r.get(1)?, ratings, r.get(4)?))
            })
            .optional()?;
        out.extend(game);
    }
    Ok(out)
}

/// The table of `target` from its packed games ([`crate::postings`]), when the filters are
/// those the buckets' dimensions decide plus any tag filters.
fn from_postings(
    conn: &Connection,
    target: &Position,
    keys: [i64; 2],
    selection: &Selection,
    top: usize,
) -> rusqlite::Result<Option<Explore>> {
    let Some(b) = row_bounds(conn, selection) else {
        return Ok(None);
    };
    crate::postings::explore(conn, target, keys, &b, selection.tag_filters(), top)
}

/// The bounds of `selection`'s filters other than its tag filters, when the packed games
/// ([`crate::postings`]) decide them all: dates by whole months, time controls, ratings at
/// multiples of [`BAND`], and any tag filters.
pub(crate) fn row_bounds(conn: &Connection, selection: &Selection) -> Option<Bounds> {
    let plain = selection.without_tags();
    let f = plain.fact_filters()?;
    bounds(conn, &plain, &f)
}

/// `explore --by opening` of `target` over the games `selection` keeps, from the buckets
/// ([`BY_OPENING`] plus the level of the date, time-control and rating filters: games and
/// results per main 戦型); `None` when the position has no buckets, they were not counted
/// with these rules' families, or the filters are not all decided by them.
pub(crate) fn explore_openings(
    conn: &Connection,
    target: &Position,
    keys: [i64; 2],
    selection: &Selection,
) -> rusqlite::Result<Option<Openings>> {
    if !selection.tag_filters().is_empty() || !crate::tag_buckets::counted_with_these_rules(conn)? {
        return Ok(None);
    }
    let Some(b) = selection_bounds(conn, selection)? else {
        return Ok(None);
    };
    if !counted(conn, keys)? {
        return Ok(None);
    }
    let mut st = conn.prepare_cached(
        "SELECT month, tc, sente_band, gote_band, avg_band, tag, games, sente_wins, \
         gote_wins, draws, unfinished FROM buckets \
         WHERE key = ?1 AND check_key = ?2 AND level = ?3",
    )?;
    let mut rows = st.query(params![keys[0], keys[1], BY_OPENING + b.level])?;
    let mut lines: HashMap<i64, OpeningCount> = HashMap::new();
    while let Some(r) = rows.next()? {
        let d = [r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?];
        if !b.keeps(d) {
            continue;
        }
        let id: i64 = r.get(5)?;
        let line = match lines.entry(id) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let Some(opening) = crate::tag_buckets::main_name(conn, id)? else {
                    return Ok(None);
                };
                e.insert(OpeningCount {
                    opening,
                    ..OpeningCount::default()
                })
            }
        };
        line.games += r.get::<_, u32>(6)?;
        line.sente_wins += r.get::<_, u32>(7)?;
        line.gote_wins += r.get::<_, u32>(8)?;
        line.draws += r.get::<_, u32>(9)?;
        line.unfinished += r.get::<_, u32>(10)?;
    }
    let lines = lines.into_values().filter(|l| l.games > 0).collect();
    Ok(Some(crate::tags::openings_table(target, lines)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_of_a_date_never_cuts_a_character() {
        assert_eq!(month(Some("2020-05-17T10:00:00")), 12 * 2020 + 4);
        // '€' spans bytes 2..5: byte 4 is inside it (indexing panicked there).
        assert_eq!(month(Some("ab€12-05-01")), UNKNOWN);
        assert_eq!(month(Some("2020-0")), UNKNOWN);
        assert_eq!(month(None), UNKNOWN);
    }
}
