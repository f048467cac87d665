//! `shogi find` and `shogi explore`: the games through a position, and the moves played from
//! it, from the database or by scanning records.

use crate::error::DbError;
use crate::fast::Counts;
use crate::index::stored_start;
use crate::key::position_key;
use crate::schema::{self, db_err};
use serde::Serialize;
use shogi_batch::{Event, GameRow, Input, Reading, Replay, Selection, expand, read_input};
use shogi_core::{Color, Position, SetupOptions, UsiError, UsiPosition, Variant};
use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::Path;

/// One occurrence of the position: a game, the ply at which it stood there (0 = the start)
/// and the move played from it.
///
/// From the database without filters, `row` holds only what find and explore print (path,
/// game, players, start, plies, ending, winner, validity, ratings); with filters, or from a
/// scan, all of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// The game's row (the `games` table, the columns of `shogi stats`).
    pub row: GameRow,
    /// Moves played before the position (0: the start position).
    pub ply: u32,
    /// The move played from the position, in USI; `None` when the game's line ends there.
    pub next_move: Option<String>,
}

/// The hits of a search, in order (path, game, ply), and how many there were before a limit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Found {
    /// The hits kept.
    pub hits: Vec<Hit>,
    /// All hits (before `limit`).
    pub total: usize,
    /// Distinct games among all hits.
    pub games: usize,
}

/// The position to search for: an SFEN (with or without its move number and `sfen `
/// prefix) or `startpos`, either followed by `moves` and USI moves, or a record file, taken after `ply` moves of its main line (its final
/// position when `ply` is `None`).
pub fn target(spec: &str, ply: Option<u32>) -> Result<Position, DbError> {
    let path = Path::new(spec);
    if path.is_file() {
        let input = Input::file(path);
        let mut first = None;
        read_input(&input, &Reading::default(), &mut |g| {
            if first.is_none() {
                first = Some(g);
            }
        })
        .map_err(|e| DbError::new(spec, e))?;
        let game = first.ok_or_else(|| DbError::new(spec, "holds no game"))?;
        let Some(record) = game.record else {
            let why = game
                .error
                .map(|e| e.to_string())
                .unwrap_or_else(|| "cannot be read".into());
            return Err(DbError::new(spec, why));
        };
        let legal = record
            .moves
            .moves
            .iter()
            .take_while(|m| m.foul.is_none())
            .count();
        let at = ply.map_or(legal, |p| p as usize);
        if at > legal {
            return Err(DbError::new(
                spec,
                format!("--ply {at}: the record's main line has {legal} playable moves"),
            ));
        }
        return record
            .position_at(at)
            .ok_or_else(|| DbError::new(spec, "the record's start cannot be played from"));
    }
    if ply.is_some() {
        return Err(DbError::new(
            spec,
            "--ply needs a record file (no such file; for a position give its SFEN alone)",
        ));
    }
    // Tsume diagrams are looked up too: their setups need not be legal game positions.
    UsiPosition::parse_with(spec, Variant::Standard, SetupOptions::PERMISSIVE)
        .map(|p| p.end)
        .map_err(|e| match e {
            UsiError::Move { text, message, .. } => {
                DbError::new(spec, format!("move '{text}': {message}"))
            }
            // A lone word with a `/`, or any `.`, was more likely meant as a file name.
            UsiError::Sfen { .. }
                if spec.contains('/') && spec.split_whitespace().count() == 1
                    || spec.contains('.') =>
            {
                DbError::new(spec, "no such file, and not an SFEN")
            }
            UsiError::Sfen { error, .. } => DbError::new(spec, format!("not a position: {error}")),
            UsiError::Syntax { message, .. } => {
                DbError::new(spec, format!("not a position: {message}"))
            }
        })
}

fn finish(mut hits: Vec<Hit>, limit: Option<usize>) -> Found {
    hits.sort_by(|a, b| {
        (a.row.path.as_str(), a.row.game, a.ply).cmp(&(b.row.path.as_str(), b.row.game, b.ply))
    });
    let total = hits.len();
    let games = {
        let mut n = 0;
        let mut last: Option<(&str, u32)> = None;
        for h in &hits {
            let id = (h.row.path.as_str(), h.row.game);
            if last != Some(id) {
                n += 1;
                last = Some(id);
            }
        }
        n
    };
    if let Some(l) = limit {
        hits.truncate(l);
    }
    Found { hits, total, games }
}

/// Whether a stored game reaches `want`; a game replayed from its stored line.
fn reaches(start: &str, moves: &str, want: &Position) -> bool {
    let Some(mut pos) = stored_start(start) else {
        return false;
    };
    let k = want.key();
    if pos.key() == k && pos.same_position(want) {
        return true;
    }
    for m in moves.split_whitespace() {
        let Ok(mv) = shogi_core::Move::from_usi(m) else {
            return false;
        };
        pos.play_unchecked(mv);
        if pos.key() == k && pos.same_position(want) {
            return true;
        }
    }
    false
}

/// The games of the database `db` that reach `target`, confirmed against the position
/// (the key only selects candidates), kept by `selection`, in (path, game, ply) order.
///
/// Without filters the hits are those of the key and the check key (see
/// [`crate::key::check_key`]), one of them replayed and compared with the position; should
/// that one not be the position, or with filters, every hit is replayed.
pub fn find(
    db: &Path,
    target: &Position,
    selection: &Selection,
    limit: Option<usize>,
) -> Result<Found, DbError> {
    let mut hits = Vec::new();
    let counts = find_each(db, target, selection, limit, &mut |h| {
        hits.push(h.clone());
        ControlFlow::Continue(())
    })?;
    Ok(Found {
        hits,
        total: counts.total,
        games: counts.games,
    })
}

/// [`find`] with each hit passed to `each` as it comes (in the same order, at most `limit`)
/// instead of collected: what prints a million hits without holding them. Returns the counts
/// of all hits; `each` stops the search by returning `Break` (the counts are then partial).
///
/// The hits stream straight from the index when there are no filters, the first hit
/// confirms the position and the database's game ids follow path order (true of a database
/// built in one run); otherwise they are collected and sorted first.
pub fn find_each(
    db: &Path,
    target: &Position,
    selection: &Selection,
    limit: Option<usize>,
    each: &mut dyn FnMut(&Hit) -> ControlFlow<()>,
) -> Result<Counts, DbError> {
    let conn = schema::open_for_query(db)?;
    let mut found = None;
    if selection.is_empty() {
        if let Some(counts) = crate::fast::find_each(&conn, db, target, limit, each)? {
            return Ok(counts);
        }
        if let Some(hits) = crate::fast::find(&conn, db, target)? {
            found = Some(finish(hits, limit));
        }
    }
    let found = match found {
        Some(f) => f,
        None => find_exact(&conn, db, target, selection, limit)?,
    };
    for h in &found.hits {
        if each(h).is_break() {
            break;
        }
    }
    Ok(Counts {
        total: found.total,
        games: found.games,
    })
}

/// The opening explorer of the database `db` for `target` (the games kept by `selection`):
/// [`explore`] of [`find`], counted in one pass over the hits when there are no filters.
pub fn explore_db(db: &Path, target: &Position, selection: &Selection) -> Result<Explore, DbError> {
    if selection.is_empty() {
        let conn = schema::open_for_query(db)?;
        if let Some(table) = crate::fast::explore(&conn, db, target)? {
            return Ok(table);
        }
    }
    Ok(explore(target, &find(db, target, selection, None)?))
}

/// [`find`] with every hit replayed and compared with the position.
fn find_exact(
    conn: &rusqlite::Connection,
    db: &Path,
    target: &Position,
    selection: &Selection,
    limit: Option<usize>,
) -> Result<Found, DbError> {
    // Without filters only the columns find and explore print are read, and of the line only
    // what confirming the hit needs (a move is at most 5 characters and a space).
    let full = !selection.is_empty();
    let (moves, columns) = if full {
        ("g.moves".to_string(), schema::select_list("g"))
    } else {
        (
            "substr(g.moves, 1, 6 * p.ply)".to_string(),
            HIT_COLUMNS
                .iter()
                .map(|c| format!("g.{c}"))
                .collect::<Vec<_>>()
                .join(", "),
        )
    };
    let sql = format!(
        "SELECT p.ply, p.move, g.start_sfen, {moves}, {columns} FROM positions p JOIN games g ON g.id = p.game_id WHERE p.key = ?1"
    );
    let mut st = conn.prepare(&sql).map_err(|e| db_err(db, e))?;
    let mut rows = st
        .query([position_key(target)])
        .map_err(|e| db_err(db, e))?;
    // Confirmed lines: start → first `ply` moves → whether they lead to the target.
    let mut confirmed: HashMap<String, HashMap<String, bool>> = HashMap::new();
    let mut hits = Vec::new();
    while let Some(r) = rows.next().map_err(|e| db_err(db, e))? {
        let ply: i64 = r.get(0).map_err(|e| db_err(db, e))?;
        let next: Option<String> = r.get(1).map_err(|e| db_err(db, e))?;
        let start = r.get_ref(2).map_err(|e| db_err(db, e))?;
        let Ok(start) = start.as_str() else { continue };
        let line = r
            .get_ref(3)
            .map_err(|e| db_err(db, e))?
            .as_str()
            .unwrap_or("");
        let prefix = prefix(line, ply as usize);
        let known = confirmed.get(start).and_then(|m| m.get(prefix)).copied();
        let ok = match known {
            Some(ok) => ok,
            None => {
                let ok = position_after(start, prefix).is_some_and(|p| p.same_position(target));
                confirmed
                    .entry(start.to_string())
                    .or_default()
                    .insert(prefix.to_string(), ok);
                ok
            }
        };
        if !ok {
            continue;
        }
        let row = if full {
            let row = schema::row_from(r, 4).map_err(|e| db_err(db, e))?;
            let reached = selection
                .position()
                .is_some_and(|want| reaches(start, line, want));
            let rep = Replay {
                reached,
                ..Replay::default()
            };
            if !selection.matches(&row, Some(&rep)) {
                continue;
            }
            row
        } else {
            hit_row(r, 4).map_err(|e| db_err(db, e))?
        };
        hits.push(Hit {
            row,
            ply: ply as u32,
            next_move: next,
        });
    }
    Ok(finish(hits, limit))
}

/// The `games` columns a hit reads when no filter is set: what find and explore print.
pub(crate) const HIT_COLUMNS: &[&str] = &[
    "path",
    "game",
    "sente",
    "gote",
    "start",
    "start_iso",
    "plies",
    "ending",
    "winner",
    "valid",
    "sente_rating",
    "gote_rating",
];

/// A row holding the [`HIT_COLUMNS`] (the other fields left empty).
pub(crate) fn hit_row(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        path: r.get(i)?,
        game: r.get(i + 1)?,
        sente: r.get(i + 2)?,
        gote: r.get(i + 3)?,
        start: r.get(i + 4)?,
        start_iso: r.get(i + 5)?,
        plies: r.get(i + 6)?,
        ending: r.get(i + 7)?,
        winner: r.get(i + 8)?,
        valid: r.get::<_, i64>(i + 9)? != 0,
        sente_rating: r.get(i + 10)?,
        gote_rating: r.get(i + 11)?,
        ..GameRow::default()
    })
}

/// Sets `to` to `from` (empty for `None`), reusing its allocation.
pub(crate) fn set(to: &mut String, from: Option<&str>) {
    to.clear();
    to.push_str(from.unwrap_or_default());
}

/// Sets `to` to `from`, reusing its allocation where both are there.
pub(crate) fn set_opt(to: &mut Option<String>, from: Option<&str>) {
    match (to.as_mut(), from) {
        (Some(t), Some(f)) => {
            t.clear();
            t.push_str(f);
        }
        (_, f) => *to = f.map(str::to_string),
    }
}

/// [`hit_row`] into an existing row, reusing its strings (for streaming many hits).
pub(crate) fn fill_hit_row(
    r: &rusqlite::Row<'_>,
    i: usize,
    row: &mut GameRow,
) -> rusqlite::Result<()> {
    let text = |k: usize| r.get_ref(i + k).and_then(|v| Ok(v.as_str_or_null()?));
    set(&mut row.path, text(0)?);
    row.game = r.get(i + 1)?;
    set_opt(&mut row.sente, text(2)?);
    set_opt(&mut row.gote, text(3)?);
    set_opt(&mut row.start, text(4)?);
    set_opt(&mut row.start_iso, text(5)?);
    row.plies = r.get(i + 6)?;
    set_opt(&mut row.ending, text(7)?);
    set(&mut row.winner, text(8)?);
    row.valid = r.get::<_, i64>(i + 9)? != 0;
    row.sente_rating = r.get(i + 10)?;
    row.gote_rating = r.get(i + 11)?;
    Ok(())
}

/// The first `n` moves of a stored line (`7g7f 3c3d …`).
pub(crate) fn prefix(moves: &str, n: usize) -> &str {
    if n == 0 {
        return "";
    }
    let mut seen = 0;
    for (i, b) in moves.bytes().enumerate() {
        if b == b' ' {
            seen += 1;
            if seen == n {
                return &moves[..i];
            }
        }
    }
    moves
}

pub(crate) fn position_after(start: &str, moves: &str) -> Option<Position> {
    let mut pos = stored_start(start)?;
    for m in moves.split_whitespace() {
        let mv = shogi_core::Move::from_usi(m).ok()?;
        pos.play_unchecked(mv);
    }
    Some(pos)
}

/// The same search without a database: every game under `paths` replayed, every position
/// compared (by key, confirmed by board, hands and side to move).
pub fn scan(
    paths: &[impl AsRef<str>],
    target: &Position,
    selection: &Selection,
    limit: Option<usize>,
    jobs: Option<usize>,
) -> Result<Found, DbError> {
    let inputs = expand(paths).map_err(|e| DbError::new(&e.path, e.reason))?;
    let pool = shogi_batch::pool(jobs).map_err(|e| DbError::new("--jobs", e))?;
    let key = target.key();
    let mut hits = Vec::new();
    let _ = shogi_batch::run(
        &inputs,
        &Reading::default(),
        &pool,
        |input, game| {
            let rec = game.record.as_ref()?;
            let mut pos = rec.start_position()?;
            let mut found: Vec<(u32, Option<String>)> = Vec::new();
            let moves = &rec.moves.moves;
            let mut ply = 0usize;
            loop {
                let next = moves.get(ply).filter(|m| m.foul.is_none());
                if pos.key() == key && pos.same_position(target) {
                    found.push((ply as u32, next.map(|m| m.mv.to_usi())));
                }
                let Some(node) = next else { break };
                pos.play_unchecked(node.mv);
                ply += 1;
            }
            if found.is_empty() {
                return None;
            }
            let r = game.replay(selection.position());
            let row = GameRow::new(&input.name, &game, Some(&r));
            if !selection.matches(&row, Some(&r)) {
                return None;
            }
            Some((row, found))
        },
        |_, event| {
            if let Event::Game(Some((row, found))) = event {
                for (ply, next_move) in found {
                    hits.push(Hit {
                        row: row.clone(),
                        ply,
                        next_move,
                    });
                }
            }
            ControlFlow::Continue(())
        },
    );
    Ok(finish(hits, limit))
}

/// A game named in the explorer: where it is and when it was played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRef {
    /// The game's input.
    pub path: String,
    /// Its number in the input.
    pub game: u32,
    /// Its start date (ISO 8601), if known.
    pub date: Option<String>,
}

/// One move played from the position, with what came of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveLine {
    /// The move in USI.
    pub usi: String,
    /// The move in the notation asked for (see [`name_moves`]; USI until then).
    #[serde(rename = "move")]
    pub text: String,
    /// Games that played it from the position.
    pub games: u32,
    /// Of those, games won by sente.
    pub sente_wins: u32,
    /// Won by gote.
    pub gote_wins: u32,
    /// Drawn (repetition, impasse, …).
    pub draws: u32,
    /// Without a result (unfinished, aborted, unknown).
    pub unfinished: u32,
    /// Games won by the side that played the move, divided by `games`.
    pub win_rate: f64,
    /// The mean of the players' ratings, over the ratings known (none: `null`).
    pub avg_rating: Option<f64>,
    /// The most recent game with a date (the last by path and number among equals).
    pub recent: Option<GameRef>,
}

/// The opening explorer's answer: the moves played from a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explore {
    /// The position (SFEN without the move number).
    pub sfen: String,
    /// `sente` or `gote`.
    pub side_to_move: String,
    /// Games reaching the position.
    pub games: u32,
    /// Of those, games whose main line ends there.
    pub ended_here: u32,
    /// The moves played from it, most played first (then by USI).
    pub moves: Vec<MoveLine>,
}

/// The explorer table of `target` from its hits (see [`find`] and [`scan`], without a
/// limit). A game counts once per distinct move it played from the position.
pub fn explore(target: &Position, found: &Found) -> Explore {
    let mut by_move: HashMap<&str, MoveLine> = HashMap::new();
    let mut ratings: HashMap<&str, (f64, u32)> = HashMap::new();
    let mut seen: HashSet<(&str, u32, Option<&str>)> = HashSet::new();
    let mut games: HashSet<(&str, u32)> = HashSet::new();
    let mut ended: HashSet<(&str, u32)> = HashSet::new();
    for h in &found.hits {
        let id = (h.row.path.as_str(), h.row.game);
        games.insert(id);
        let Some(mv) = h.next_move.as_deref() else {
            ended.insert(id);
            continue;
        };
        if !seen.insert((id.0, id.1, Some(mv))) {
            continue;
        }
        let line = by_move.entry(mv).or_insert_with(|| MoveLine {
            usi: mv.to_string(),
            text: mv.to_string(),
            games: 0,
            sente_wins: 0,
            gote_wins: 0,
            draws: 0,
            unfinished: 0,
            win_rate: 0.0,
            avg_rating: None,
            recent: None,
        });
        line.games += 1;
        match h.row.winner.as_str() {
            "sente" => line.sente_wins += 1,
            "gote" => line.gote_wins += 1,
            "draw" => line.draws += 1,
            _ => line.unfinished += 1,
        }
        let r = ratings.entry(mv).or_insert((0.0, 0));
        for x in [h.row.sente_rating, h.row.gote_rating]
            .into_iter()
            .flatten()
        {
            r.0 += x;
            r.1 += 1;
        }
        if let Some(date) = &h.row.start_iso {
            let newer = line
                .recent
                .as_ref()
                .is_none_or(|old| old.date.as_deref().is_none_or(|d| date.as_str() >= d));
            if newer {
                line.recent = Some(GameRef {
                    path: h.row.path.clone(),
                    game: h.row.game,
                    date: Some(date.clone()),
                });
            }
        }
    }
    let lines = by_move
        .into_iter()
        .map(|(mv, line)| {
            let r = ratings.get(mv).copied().unwrap_or((0.0, 0));
            (line, r)
        })
        .collect();
    table(target, lines, games.len() as u32, ended.len() as u32)
}

/// The explorer table from its move lines (with the sum and number of known ratings of
/// each): win rates, average ratings, most played first (then by USI).
pub(crate) fn table(
    target: &Position,
    lines: Vec<(MoveLine, (f64, u32))>,
    games: u32,
    ended_here: u32,
) -> Explore {
    let mover = target.side_to_move();
    let mut moves: Vec<MoveLine> = lines
        .into_iter()
        .map(|(mut line, (sum, n))| {
            let wins = match mover {
                Color::Black => line.sente_wins,
                Color::White => line.gote_wins,
            };
            line.win_rate = if line.games == 0 {
                0.0
            } else {
                f64::from(wins) / f64::from(line.games)
            };
            if n > 0 {
                line.avg_rating = Some(sum / f64::from(n));
            }
            line
        })
        .collect();
    moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.usi.cmp(&b.usi)));
    Explore {
        sfen: shogi_batch::start_text(&target.to_sfen()),
        side_to_move: match mover {
            Color::Black => "sente".into(),
            Color::White => "gote".into(),
        },
        games,
        ended_here,
        moves,
    }
}

/// Names the moves of `table`, the explorer of `target`, in `notation` ([`MoveLine::text`]).
/// Moves are named from the position alone: a move to the previous move's square is written
/// with its square, not 同 (games reach the position by different moves).
pub fn name_moves(table: &mut Explore, target: &Position, notation: shogi_kif::notation::Notation) {
    for line in &mut table.moves {
        if let Ok(mv) = shogi_core::Move::from_usi(&line.usi) {
            line.text = shogi_kif::notation::move_text(target, mv, None, notation);
        }
    }
}
