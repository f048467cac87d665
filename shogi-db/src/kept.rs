//! `find` and `explore --by opening` with filters, for a position whose games are packed
//! ([`crate::postings`]): the games the filters keep are read from its row instead of
//! replaying every hit's game, when the filters are those the row decides (dates by whole
//! months, time controls, ratings at multiples of [`crate::BAND`], tag filters). The hits
//! shown are then read game by game from `positions`, the counts come from the row (and,
//! for the few games that reach the position more often than they have records there,
//! from `positions`).

use crate::error::DbError;
use crate::fast::first_hit_is;
use crate::hit::{Counts, Hit, stored_move};
use crate::postings::{KeptGame, kept_games, set_mains};
use crate::schema::{self, db_err};
use crate::tags::{OpeningCount, Openings, TagReader};
use rusqlite::Connection;
use shogi_batch::Selection;
use shogi_core::Position;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;

/// The games `selection` keeps at the position of `keys`, from its packed row; `None` when
/// the row does not decide the filters or there is no row.
fn kept(
    conn: &Connection,
    keys: [i64; 2],
    selection: &Selection,
) -> rusqlite::Result<Option<Vec<KeptGame>>> {
    if selection.is_empty() {
        return Ok(None);
    }
    let Some(b) = crate::buckets::row_bounds(conn, selection) else {
        return Ok(None);
    };
    kept_games(conn, keys, &b, selection.tag_filters())
}

/// [`crate::Db::find_each`] with filters, from the packed row: the hits kept, in (path,
/// game, ply) order, at most `limit` passed to `each`, and the counts of all; `None` (with
/// nothing passed) when the row cannot answer, the database's ids do not follow path order
/// or the first hit, replayed, is not the position.
pub(crate) fn find_each(
    conn: &Connection,
    db: &Path,
    target: &Position,
    selection: &Selection,
    limit: Option<usize>,
    each: &mut dyn FnMut(&Hit) -> ControlFlow<()>,
) -> Result<Option<Counts>, DbError> {
    let err = |e| db_err(db, e);
    let keys = [
        crate::key::position_key(target),
        crate::key::check_key(target),
    ];
    if !schema::ids_in_path_order(conn).map_err(err)? {
        return Ok(None);
    }
    let Some(mut games) = kept(conn, keys, selection).map_err(err)? else {
        return Ok(None);
    };
    if !first_hit_is(conn, db, target, keys)? {
        return Ok(None);
    }
    let mut hits_of = conn
        .prepare_cached(
            "SELECT count(*) FROM positions WHERE key = ?1 AND check_key = ?2 AND game_id = ?3",
        )
        .map_err(err)?;
    let mut total = 0;
    for g in &games {
        total += match g.repeats {
            true => hits_of
                .query_row(rusqlite::params![keys[0], keys[1], g.id], |r| {
                    r.get::<_, usize>(0)
                })
                .map_err(err)?,
            false => g.records as usize,
        };
    }
    let counts = Counts {
        total,
        games: games.len(),
    };
    let mut shown = limit.unwrap_or(usize::MAX).min(total);
    // Each game has a hit at least: the first `shown` games by id hold the hits shown, and
    // only those are put in order (a million at the start of a million games).
    let first = shown.min(games.len());
    if first > 0 && first < games.len() {
        games.select_nth_unstable_by_key(first - 1, |g| g.id);
    }
    games.truncate(first);
    games.sort_unstable_by_key(|g| g.id);
    // The whole row of each hit shown, and its tags when a tag filter asked for them, as
    // the replaying path gives them.
    let sql = format!(
        "SELECT p.ply, p.move, {} FROM positions p JOIN games g ON g.id = p.game_id \
         WHERE p.key = ?1 AND p.check_key = ?2 AND p.game_id = ?3 ORDER BY p.ply",
        schema::select_list("g")
    );
    let mut st = conn.prepare_cached(&sql).map_err(err)?;
    let tags = match selection.tag_rules() {
        Some(_) => Some(TagReader::new(conn).map_err(err)?),
        None => None,
    };
    for g in &games {
        if shown == 0 {
            break;
        }
        let mut rows = st
            .query(rusqlite::params![keys[0], keys[1], g.id])
            .map_err(err)?;
        while let Some(r) = rows.next().map_err(err)? {
            let mut row = schema::row_from(r, 2).map_err(err)?;
            if let Some(reader) = &tags {
                row.tags = reader.tags(conn, i64::from(g.id)).map_err(err)?;
            }
            let hit = Hit {
                row,
                ply: r.get(0).map_err(err)?,
                next_move: r
                    .get_ref(1)
                    .and_then(|v| stored_move(v.as_str_or_null()?, 1))
                    .map_err(err)?,
            };
            if each(&hit).is_break() {
                return Ok(Some(counts));
            }
            shown -= 1;
            if shown == 0 {
                break;
            }
        }
    }
    Ok(Some(counts))
}

/// `explore --by opening` with filters, from the packed row: each kept game once under
/// its main 戦型 (`none` without tags); `None` when the row cannot answer.
pub(crate) fn openings(
    conn: &Connection,
    target: &Position,
    keys: [i64; 2],
    selection: &Selection,
) -> rusqlite::Result<Option<Openings>> {
    let Some(games) = kept(conn, keys, selection)? else {
        return Ok(None);
    };
    let mains = set_mains(conn)?;
    // Games and results per `main:` id first (a million games at the start of a million),
    // then per name (two ids can share one: no tags and a game named `none`).
    let mut by_set: Vec<[u32; 5]> = vec![[0; 5]; mains.len().max(1)];
    for g in games {
        let at = g.set as usize;
        if by_set.len() <= at {
            by_set.resize(at + 1, [0; 5]);
        }
        by_set[at][0] += 1;
        by_set[at][1 + usize::from(g.winner.min(3))] += 1;
    }
    let mut by_id: HashMap<i64, [u32; 5]> = HashMap::new();
    for (set, n) in by_set.into_iter().enumerate().filter(|(_, n)| n[0] > 0) {
        let main = mains.get(set).copied().unwrap_or(0);
        let sum = by_id.entry(main).or_default();
        for (a, b) in sum.iter_mut().zip(n) {
            *a += b;
        }
    }
    let mut by: HashMap<String, OpeningCount> = HashMap::new();
    for (main, n) in by_id {
        let name = match main {
            0 => "none".to_string(),
            id => match crate::tag_buckets::main_name(conn, id)? {
                Some(name) => name,
                None => return Ok(None),
            },
        };
        let line = by.entry(name).or_insert_with_key(|name| OpeningCount {
            opening: name.clone(),
            ..OpeningCount::default()
        });
        line.games += n[0];
        line.sente_wins += n[1];
        line.gote_wins += n[2];
        line.draws += n[3];
        line.unfinished += n[4];
    }
    Ok(Some(crate::tags::openings_table(
        target,
        by.into_values().collect(),
    )))
}
