//! What the buckets need of the games' openings and castles, so that the tag filters
//! (`--opening`, `--castle`, `--class`, `--side`) and `explore --by opening` are counted at
//! index time as the other filters are.
//!
//! A tag filter asks for one *want* (a [`TagWant`]: an opening or castle family, a side's
//! class, a game's class) on a side. Each game is counted, for every want it has, under a
//! *side mask*: 1 when only sente has it, 2 when only gote has it, 3 when both do (a game's
//! class is the game's, so always 3). `--side sente` then sums masks 1 and 3, `--side gote`
//! 2 and 3, `--side either` all three: each game once, exactly. Whether a side has a want is
//! asked of [`TagFilter::keeps`] itself, the function the filters apply to every hit.
//!
//! ```text
//! bucket_tags  id, want (`opening:NAME`, `castle:NAME`, `side:CLASS`, `game:CLASS`, or
//!              `main:NAME`: the name `explore --by opening` counts a game under)
//! ```
//!
//! `meta.bucket_tag_rules` holds a fingerprint of the rules' families the counts were made
//! with: a database counted with other families (another version's rules) answers the tag
//! filters from the hits instead.

use crate::tags::{TagReader, rules};
use rusqlite::{Connection, OptionalExtension, params};
use shogi_batch::{TagFilter, TagSide, TagWant};
use shogi_openings::{GameClass, GameTags, Kind, RuleSet, SideClass, TagId};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The `buckets.level` of the counts per want and side mask (no other dimension).
pub(crate) const TAGGED: u8 = 4;

/// The first `buckets.level` of the games and results per main 戦型 (`explore --by opening`;
/// no move): plus the level of the other dimensions (0 to 3, as in [`crate::buckets`]).
pub(crate) const BY_OPENING: u8 = 8;

/// The table of the wants (in [`crate::schema::create_sql`]).
pub const CREATE_SQL: &str =
    "CREATE TABLE bucket_tags (id INTEGER PRIMARY KEY, want TEXT NOT NULL UNIQUE);\n";

/// The `meta` entry holding the fingerprint of the rules the tag buckets were counted with.
const RULES_META: &str = "bucket_tag_rules";

/// How a want is named in `bucket_tags`.
fn want_text(rules: &RuleSet, want: TagWant) -> String {
    match want {
        TagWant::Tag(id, kind) => format!("{}:{}", kind.word(), rules.name(id)),
        TagWant::Side(c) => format!("side:{}", c.japanese()),
        TagWant::Game(c) => format!("game:{}", c.japanese()),
    }
}

/// How the name `explore --by opening` counts a game under is named in `bucket_tags`.
fn main_text(name: &str) -> String {
    format!("main:{name}")
}

/// The side mask bits a filter on `side` sums (see the module docs).
pub(crate) fn side_bits(side: TagSide) -> u8 {
    match side {
        TagSide::Sente => 1,
        TagSide::Gote => 2,
        TagSide::Either => 3,
    }
}

/// Every family each tag is within (itself included), by [`TagId::index`].
fn families(rules: &RuleSet) -> &'static [Vec<TagId>] {
    static FAMILIES: OnceLock<Vec<Vec<TagId>>> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        let all: Vec<TagId> = rules.tags().map(|(id, _)| id).collect();
        all.iter()
            .map(|&t| {
                all.iter()
                    .copied()
                    .filter(|&f| rules.is_within(t, f))
                    .collect()
            })
            .collect()
    })
}

/// A fingerprint of the rules' tags, kinds and families (FNV-1a over their names).
fn fingerprint(rules: &RuleSet) -> String {
    static PRINT: OnceLock<String> = OnceLock::new();
    PRINT
        .get_or_init(|| {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            let mut eat = |s: &str| {
                for b in s.bytes().chain([0]) {
                    h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
                }
            };
            for ((id, tag), fams) in rules.tags().zip(families(rules)) {
                eat(tag.kind.word());
                eat(rules.name(id));
                for f in fams {
                    eat(rules.name(*f));
                }
            }
            format!("{h:016x}")
        })
        .clone()
}

/// Every want a filter can ask for in `rules`.
fn all_wants(rules: &RuleSet) -> Vec<TagWant> {
    let mut out: Vec<TagWant> = Vec::new();
    for (id, _) in rules.tags() {
        out.push(TagWant::Tag(id, Kind::Opening));
        out.push(TagWant::Tag(id, Kind::Castle));
    }
    out.extend([SideClass::StaticRook, SideClass::RangingRook].map(TagWant::Side));
    out.extend(GameClass::ALL.map(TagWant::Game));
    out
}

/// A game's wants: (`bucket_tags.id`, side mask), each want it has once.
pub(crate) type WantSet = Vec<(i64, u8)>;

/// Reads each game's wants at index time (when the database holds tags).
pub(crate) struct Wants {
    reader: TagReader,
    ids: HashMap<String, i64>,
    /// The distinct tag sets seen (many games share one: a want set and the `main:` id of
    /// the name `explore --by opening` counts the game under), and the index of each.
    sets: Vec<TagSet>,
    set_of: HashMap<TagSet, u32>,
}

/// A game's want set and the `bucket_tags.id` of its main 戦型's name (0: no tags read).
pub(crate) type TagSet = (WantSet, i64);

impl Wants {
    /// Fills `bucket_tags` with every want of the rules and records their fingerprint;
    /// `None` when the database's games lack their tags.
    pub(crate) fn create(conn: &Connection) -> rusqlite::Result<Option<Wants>> {
        conn.execute_batch("DELETE FROM bucket_tags")?;
        conn.execute("DELETE FROM meta WHERE name = ?1", [RULES_META])?;
        if !crate::tags::stored(conn)? {
            return Ok(None);
        }
        let rules = rules();
        let mut w = Wants {
            reader: TagReader::new(conn)?,
            ids: HashMap::new(),
            sets: vec![(Vec::new(), 0)],
            set_of: HashMap::from([((Vec::new(), 0), 0)]),
        };
        for want in all_wants(rules) {
            w.id(conn, want_text(rules, want))?;
        }
        conn.execute(
            "INSERT OR REPLACE INTO meta (name, value) VALUES (?1, ?2)",
            params![RULES_META, fingerprint(rules)],
        )?;
        Ok(Some(w))
    }

    /// The id of a want's text, added when new.
    fn id(&mut self, conn: &Connection, text: String) -> rusqlite::Result<i64> {
        if let Some(&id) = self.ids.get(&text) {
            return Ok(id);
        }
        conn.execute("INSERT INTO bucket_tags (want) VALUES (?1)", [&text])?;
        let id = conn.last_insert_rowid();
        self.ids.insert(text, id);
        Ok(id)
    }

    /// The id of the name `explore --by opening` counts a game under.
    pub(crate) fn main_id(&mut self, conn: &Connection, name: &str) -> rusqlite::Result<i64> {
        self.id(conn, main_text(name))
    }

    /// The index of game `game_id`'s tag set (see [`Wants::set`]), its main 戦型's name
    /// having the id `main`.
    pub(crate) fn game(
        &mut self,
        conn: &Connection,
        game_id: i64,
        main: i64,
    ) -> rusqlite::Result<u32> {
        let Some(tags) = self.reader.tags(conn, game_id)? else {
            return Ok(0);
        };
        let set = (self.want_set(conn, &tags)?, main);
        let n = self.sets.len() as u32;
        Ok(*self.set_of.entry(set).or_insert_with_key(|s| {
            self.sets.push(s.clone());
            n
        }))
    }

    /// The wants of a game's tags with their side masks, as [`TagFilter::keeps`] decides.
    fn want_set(&mut self, conn: &Connection, tags: &GameTags) -> rusqlite::Result<WantSet> {
        let rules = rules();
        let fams = families(rules);
        let mut wants: Vec<TagWant> = [SideClass::StaticRook, SideClass::RangingRook]
            .map(TagWant::Side)
            .into();
        wants.extend(GameClass::ALL.map(TagWant::Game));
        for side in [&tags.sente, &tags.gote] {
            for h in side.openings.iter().chain(&side.castles) {
                let kind = rules.tag(h.tag).kind;
                for &f in &fams[h.tag.index()] {
                    let want = TagWant::Tag(f, kind);
                    if !wants.contains(&want) {
                        wants.push(want);
                    }
                }
            }
        }
        let mut set = Vec::new();
        for want in wants {
            let keeps = |side| TagFilter { rules, want, side }.keeps(Some(tags));
            let mask = u8::from(keeps(TagSide::Sente)) | (u8::from(keeps(TagSide::Gote)) << 1);
            if mask != 0 {
                set.push((self.id(conn, want_text(rules, want))?, mask));
            }
        }
        set.sort_unstable();
        Ok(set)
    }

    /// Every tag set, by index.
    pub(crate) fn sets(&self) -> &[TagSet] {
        &self.sets
    }

    /// The want set of an index [`Wants::game`] gave.
    pub(crate) fn set(&self, index: u32) -> &[(i64, u8)] {
        &self.sets[index as usize].0
    }
}

/// The want id and side bits of a tag filter, when the buckets count it: the database's
/// tag buckets were counted with these rules' families and know the want.
pub(crate) fn filter_id(conn: &Connection, f: &TagFilter) -> rusqlite::Result<Option<(i64, u8)>> {
    if !counted_with_these_rules(conn)? {
        return Ok(None);
    }
    let id: Option<i64> = conn
        .prepare_cached("SELECT id FROM bucket_tags WHERE want = ?1")?
        .query_row([want_text(f.rules, f.want)], |r| r.get(0))
        .optional()?;
    Ok(id.map(|id| (id, side_bits(f.side))))
}

/// Whether the tag buckets were counted with the families of the rules in use.
pub(crate) fn counted_with_these_rules(conn: &Connection) -> rusqlite::Result<bool> {
    let stored: Option<String> = conn
        .prepare_cached("SELECT value FROM meta WHERE name = ?1")?
        .query_row([RULES_META], |r| r.get(0))
        .optional()?;
    Ok(stored.is_some_and(|s| s == fingerprint(rules())))
}

/// The name behind a `main:` want id, for `explore --by opening` from the buckets.
pub(crate) fn main_name(conn: &Connection, id: i64) -> rusqlite::Result<Option<String>> {
    let text: Option<String> = conn
        .prepare_cached("SELECT want FROM bucket_tags WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?;
    Ok(text.and_then(|t| t.strip_prefix("main:").map(str::to_string)))
}
