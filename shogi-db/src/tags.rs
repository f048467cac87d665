//! Each game's openings and castles (戦型・囲い) as the rows of `shogi stats --tags` give them:
//! recognised at index time with the built-in rules of shogi-openings, stored in three tables,
//! and read back typed ([`GameTags`]) for the tag filters of `find` and `explore` (which
//! shogi-batch's [`Selection`] decides) and for `explore --by opening`.
//!
//! ```text
//! tag_names  id, kind (opening | castle | class), name          UNIQUE (kind, name)
//! game_tags  game_id PRIMARY KEY, opening (the name `--summary opening` counts the game
//!            under), main (tag_names.id of the main 戦型, NULL for none), game_class,
//!            sente_class, gote_class, plies_seen
//! tag_hits   game_id, side (0 sente, 1 gote), tag (tag_names.id), seq (its place in the
//!            side's openings or castles), ply      PRIMARY KEY (game_id, side, tag)
//! ```
//!
//! A game the taxonomy does not cover (Mini Shogi, most handicaps, a record that could not
//! be read) has no rows: no tag filter keeps it, and `--by opening` counts it as `none`.

use crate::error::DbError;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use shogi_batch::Selection;
use shogi_openings::{GameClass, GameTags, Kind, RuleSet, SideClass, SideTags, TagHit, TagId};
use std::collections::HashMap;
use std::path::Path;

/// The tables of the tags (in [`crate::schema::create_sql`]).
pub const CREATE_SQL: &str =
    "CREATE TABLE tag_names (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL,
  UNIQUE (kind, name));
CREATE TABLE game_tags (
  game_id INTEGER PRIMARY KEY,
  opening TEXT NOT NULL,
  main INTEGER,
  game_class TEXT NOT NULL,
  sente_class TEXT NOT NULL,
  gote_class TEXT NOT NULL,
  plies_seen INTEGER NOT NULL
);
CREATE TABLE tag_hits (
  game_id INTEGER NOT NULL,
  side INTEGER NOT NULL,
  tag INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  ply INTEGER NOT NULL,
  PRIMARY KEY (game_id, side, tag)
) WITHOUT ROWID;
";

/// The rules the database's tags are recognised with.
pub(crate) fn rules() -> &'static RuleSet {
    RuleSet::builtin()
}

/// The `meta` entry naming the rules the tags were recognised with.
pub(crate) const RULES_META: &str = "tag_rules";

/// Writes the tags of the games of an index run.
pub(crate) struct TagWriter {
    /// `tag_names.id` of each tag of [`rules`], by [`TagId::index`].
    ids: Vec<i64>,
}

impl TagWriter {
    /// Makes sure every tag of the rules has its `tag_names` row.
    pub(crate) fn new(conn: &Connection) -> rusqlite::Result<TagWriter> {
        let rules = rules();
        let mut insert =
            conn.prepare_cached("INSERT OR IGNORE INTO tag_names (kind, name) VALUES (?1, ?2)")?;
        let mut id_of =
            conn.prepare_cached("SELECT id FROM tag_names WHERE kind = ?1 AND name = ?2")?;
        let mut ids = Vec::with_capacity(rules.len());
        for (_, tag) in rules.tags() {
            insert.execute([tag.kind.word(), &tag.name])?;
            ids.push(id_of.query_row([tag.kind.word(), &tag.name], |r| r.get(0))?);
        }
        conn.execute(
            "INSERT OR REPLACE INTO meta (name, value) VALUES (?1, 'builtin')",
            [RULES_META],
        )?;
        Ok(TagWriter { ids })
    }

    /// Writes the tags of game `game_id` (none: the taxonomy does not apply).
    pub(crate) fn write(
        &self,
        conn: &Connection,
        game_id: u32,
        tags: Option<&GameTags>,
    ) -> rusqlite::Result<()> {
        let Some(t) = tags else { return Ok(()) };
        let rules = rules();
        let main = t.main.map(|m| self.ids[m.index()]);
        conn.prepare_cached("INSERT INTO game_tags VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?
            .execute(params![
                game_id,
                shogi_batch::opening_name(Some(t), rules),
                main,
                t.class.japanese(),
                t.sente.class.japanese(),
                t.gote.class.japanese(),
                t.plies_seen
            ])?;
        let mut hit = conn.prepare_cached("INSERT INTO tag_hits VALUES (?1, ?2, ?3, ?4, ?5)")?;
        for (side, s) in [(0, &t.sente), (1, &t.gote)] {
            for list in [&s.openings, &s.castles] {
                for (seq, h) in list.iter().enumerate() {
                    hit.execute(params![game_id, side, self.ids[h.tag.index()], seq, h.ply])?;
                }
            }
        }
        Ok(())
    }
}

/// Whether the database's games have their tags (the rules are recorded in `meta`).
pub(crate) fn stored(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT count(*) FROM meta WHERE name = ?1",
        [RULES_META],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
}

/// Records that the database's games lack their tags (some were indexed without them).
pub(crate) fn forget(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute("DELETE FROM meta WHERE name = ?1", [RULES_META])?;
    Ok(())
}

/// Removes the tags of game `game_id` (its file changed or is gone).
pub(crate) fn remove(conn: &Connection, game_id: i64) -> rusqlite::Result<()> {
    conn.prepare_cached("DELETE FROM game_tags WHERE game_id = ?1")?
        .execute([game_id])?;
    conn.prepare_cached("DELETE FROM tag_hits WHERE game_id = ?1")?
        .execute([game_id])?;
    Ok(())
}

/// Refuses a selection with tag filters when the database has no tags, or when the filters
/// name tags of other rules than the database's (a `--tag-rules` file: the stored tags were
/// recognised with the built-in rules).
pub(crate) fn check_rules(
    conn: &Connection,
    db: &Path,
    selection: &Selection,
) -> Result<(), DbError> {
    let Some(r) = selection.tag_rules() else {
        return Ok(());
    };
    let stored: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE name = ?1",
            [RULES_META],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| DbError::new(db, e.to_string()))?;
    if stored.is_none() {
        return Err(DbError::new(
            db,
            "the database holds no openings and castles (indexed with --no-tags); \
             build a new one with `shogi index ... --db NEW.sqlite`",
        ));
    }
    if !std::ptr::eq(r, rules()) {
        return Err(DbError::new(
            db,
            "the database's openings and castles were recognised with the built-in rules; \
             --tag-rules applies to records read, not to a database",
        ));
    }
    Ok(())
}

/// Reads games' tags back, typed in the database's rules.
pub(crate) struct TagReader {
    /// The rules' tag of each `tag_names.id` (and its kind).
    by_id: HashMap<i64, (TagId, Kind)>,
}

/// A class from its stored Japanese name.
fn side_class(text: &str) -> SideClass {
    match text {
        "振り飛車" => SideClass::RangingRook,
        _ => SideClass::StaticRook,
    }
}

fn game_class(text: &str) -> GameClass {
    GameClass::ALL
        .into_iter()
        .find(|c| c.japanese() == text)
        .unwrap_or(GameClass::Unclassified)
}

impl TagReader {
    /// The names of `tag_names` resolved in the database's rules (a name they do not know,
    /// from another version's rules, is left out).
    pub(crate) fn new(conn: &Connection) -> rusqlite::Result<TagReader> {
        let rules = rules();
        let known: HashMap<(&str, &str), TagId> = rules
            .tags()
            .map(|(id, t)| ((t.kind.word(), t.name.as_str()), id))
            .collect();
        let mut st = conn.prepare_cached("SELECT id, kind, name FROM tag_names")?;
        let mut rows = st.query([])?;
        let mut by_id = HashMap::new();
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let key = (r.get_ref(1)?.as_str()?, r.get_ref(2)?.as_str()?);
            if let Some(&tag) = known.get(&key) {
                by_id.insert(id, (tag, rules.tag(tag).kind));
            }
        }
        Ok(TagReader { by_id })
    }

    /// The tags of game `game_id`, `None` where the taxonomy does not apply.
    pub(crate) fn tags(
        &self,
        conn: &Connection,
        game_id: i64,
    ) -> rusqlite::Result<Option<GameTags>> {
        let head = conn
            .prepare_cached(
                "SELECT main, game_class, sente_class, gote_class, plies_seen FROM game_tags \
                 WHERE game_id = ?1",
            )?
            .query_row([game_id], |r| {
                Ok((
                    r.get::<_, Option<i64>>(0)?,
                    game_class(r.get_ref(1)?.as_str()?),
                    side_class(r.get_ref(2)?.as_str()?),
                    side_class(r.get_ref(3)?.as_str()?),
                    r.get::<_, u32>(4)?,
                ))
            })
            .optional()?;
        let Some((main, class, sente, gote)) = head.map(|h| (h.0, h.1, h.2, h.3)) else {
            return Ok(None);
        };
        let plies_seen = head.map_or(0, |h| h.4);
        let side = |class| SideTags {
            openings: Vec::new(),
            castles: Vec::new(),
            class,
        };
        let mut tags = GameTags {
            sente: side(sente),
            gote: side(gote),
            class,
            main: main.and_then(|m| self.by_id.get(&m)).map(|t| t.0),
            plies_seen,
        };
        let mut st = conn.prepare_cached(
            "SELECT side, tag, seq, ply FROM tag_hits WHERE game_id = ?1 ORDER BY side, seq",
        )?;
        let mut rows = st.query([game_id])?;
        while let Some(r) = rows.next()? {
            let Some(&(tag, kind)) = self.by_id.get(&r.get::<_, i64>(1)?) else {
                continue;
            };
            let s = if r.get::<_, i64>(0)? == 0 {
                &mut tags.sente
            } else {
                &mut tags.gote
            };
            let hit = TagHit {
                tag,
                ply: r.get(3)?,
            };
            match kind {
                Kind::Castle => s.castles.push(hit),
                _ => s.openings.push(hit),
            }
        }
        Ok(Some(tags))
    }
}

/// One main 戦型 of the games through a position (`explore --by opening`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OpeningCount {
    /// The name `shogi stats --summary opening` counts the game under: its main 戦型, `力戦`
    /// where no opening formed, the game's class where openings formed but none names a 戦型,
    /// `none` where the taxonomy does not apply.
    pub opening: String,
    /// Games.
    pub games: u32,
    /// Of those, won by sente.
    pub sente_wins: u32,
    /// Won by gote.
    pub gote_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Without a result.
    pub unfinished: u32,
}

/// `explore --by opening`: the main 戦型 of the games that pass through a position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Openings {
    /// The position (SFEN without the move number).
    pub sfen: String,
    /// `sente` or `gote`.
    pub side_to_move: String,
    /// Games reaching the position (kept by the filters).
    pub games: u32,
    /// One line per main 戦型, most games first (then by name).
    pub openings: Vec<OpeningCount>,
}

/// The [`Openings`] of the games `ids` (each once), read from their rows.
pub(crate) fn openings_of(
    conn: &Connection,
    target: &shogi_core::Position,
    ids: &[i64],
) -> rusqlite::Result<Openings> {
    let mut st = conn.prepare_cached(
        "SELECT g.winner, t.opening FROM games g LEFT JOIN game_tags t ON t.game_id = g.id \
         WHERE g.id = ?1",
    )?;
    let mut by: HashMap<String, OpeningCount> = HashMap::new();
    for id in ids {
        let (winner, name): (Option<String>, Option<String>) =
            st.query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        let name = name.unwrap_or_else(|| "none".into());
        let line = by.entry(name.clone()).or_insert_with(|| OpeningCount {
            opening: name,
            ..OpeningCount::default()
        });
        line.games += 1;
        match winner.as_deref() {
            Some("sente") => line.sente_wins += 1,
            Some("gote") => line.gote_wins += 1,
            Some("draw") => line.draws += 1,
            _ => line.unfinished += 1,
        }
    }
    Ok(openings_table(target, by.into_values().collect()))
}

/// The [`Openings`] of `target` with these lines (one per name): most games first, then by
/// name.
pub(crate) fn openings_table(
    target: &shogi_core::Position,
    mut openings: Vec<OpeningCount>,
) -> Openings {
    openings.sort_by(|a, b| {
        b.games
            .cmp(&a.games)
            .then_with(|| a.opening.cmp(&b.opening))
    });
    Openings {
        sfen: shogi_batch::start_text(&target.to_sfen()),
        side_to_move: match target.side_to_move() {
            shogi_core::Color::Black => "sente".into(),
            shogi_core::Color::White => "gote".into(),
        },
        games: openings.iter().map(|o| o.games).sum(),
        openings,
    }
}
