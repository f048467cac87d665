//! The rule set: the taxonomy (tags, families, aliases, classes) and the rules compiled to
//! bitboard masks for each owner colour.

use crate::index::RuleIndex;
use crate::names::{nearest, normalize, variants};
use crate::parse::{Cond, HandCond, Kind, Loc, Mark, NameRef, Order, Reader, RuleError, TagDef};
use shogi_core::{Bitboard, Color, Role, Square};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The rules built into the binary (`rules/builtin.rules`).
pub const BUILTIN_RULES: &str = include_str!("../rules/builtin.rules");

/// A tag of a [`RuleSet`]: an index, valid for the set that gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TagId(pub(crate) u16);

impl TagId {
    /// The index of the tag in its set (0..[`RuleSet::len`]).
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A tag of the taxonomy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The canonical name (what output writes).
    pub name: String,
    /// Opening, castle or class.
    pub kind: Kind,
    /// The family: `None` for a class only.
    pub parent: Option<TagId>,
    /// Other names and spellings that find this tag.
    pub aliases: Vec<String>,
    /// An English name, where the rules give one.
    pub english: Option<String>,
    /// The class the family line ends at.
    pub class: TagId,
    /// `main` priority and the tag a `戦型` header writes for it.
    pub main: Option<(u8, TagId)>,
    /// Whether any rule recognises it (families without rules are given only through their
    /// descendants in filters).
    pub has_rules: bool,
}

/// A set of tags as bits.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct TagSet(Vec<u64>);

impl TagSet {
    pub fn new(n: usize) -> TagSet {
        TagSet(vec![0; n.div_ceil(64)])
    }
    /// Makes this the empty set of `n` tags, keeping its memory.
    pub fn reset(&mut self, n: usize) {
        self.0.clear();
        self.0.resize(n.div_ceil(64), 0);
    }
    pub fn insert(&mut self, t: TagId) {
        self.0[t.index() / 64] |= 1 << (t.index() % 64);
    }
    pub fn contains(&self, t: TagId) -> bool {
        self.0[t.index() / 64] >> (t.index() % 64) & 1 == 1
    }
    pub fn meets(&self, other: &TagSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}

/// A hand condition on counts indexed like `Role::HAND`.
pub(crate) type HandRule = HandCond;

/// Board masks of one rule for one owner colour (actual squares).
#[derive(Clone, Debug, Default)]
pub(crate) struct Masks {
    /// Every square an own piece must stand on, whatever its role: one test that rejects
    /// most positions before the per-role ones.
    pub own_any: Bitboard,
    pub own: Vec<(Role, Bitboard)>,
    pub opponent: Vec<(Role, Bitboard)>,
    pub empty: Bitboard,
    pub not_own: Vec<(Role, Bitboard)>,
    pub any_own: Vec<(Role, Bitboard)>,
    pub to: Bitboard,
    pub from: Option<Square>,
}

/// The move condition without squares (those are in [`Masks`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MovedRule {
    pub role: Option<Role>,
    pub drop: bool,
    pub captures: Option<Role>,
}

/// One compiled rule.
#[derive(Clone, Debug)]
pub(crate) struct Rule {
    pub tag: TagId,
    pub max_ply: u32,
    pub eq_ply: Option<u32>,
    pub order: Option<Order>,
    pub before_capture: u16,
    pub moved: Option<MovedRule>,
    pub hand: Option<HandRule>,
    pub opponent_hand: Option<HandRule>,
    pub requires: Vec<TagId>,
    pub excludes: Vec<TagId>,
    pub opponent_has: Vec<TagId>,
    pub opponent_lacks: Vec<TagId>,
    /// Masks for a sente owner (index 0) and a gote owner (index 1).
    pub masks: [Masks; 2],
}

/// The taxonomy and its compiled rules: the built-in set ([`RuleSet::builtin`]), or the
/// built-in set with a user's file over it ([`RuleSet::with_user_file`]).
#[derive(Clone, Debug)]
pub struct RuleSet {
    tags: Vec<Tag>,
    pub(crate) rules: Vec<Rule>,
    lookup: HashMap<String, Vec<TagId>>,
    /// For each tag, the set of itself and its descendants.
    pub(crate) below: Vec<TagSet>,
    furibisha: Option<TagId>,
    ai_furibisha: Option<TagId>,
    /// Which rules each kind of change can affect.
    pub(crate) index: RuleIndex,
}

impl RuleSet {
    /// The rules built into the binary, parsed once.
    pub fn builtin() -> &'static RuleSet {
        static SET: OnceLock<RuleSet> = OnceLock::new();
        SET.get_or_init(|| {
            RuleSet::parse(&[("builtin", BUILTIN_RULES)])
                .expect("the built-in rules are valid (tested)")
        })
    }

    /// The built-in rules with `text` (read from `origin`, for error locations) over them: a tag
    /// the file defines again replaces the built-in one (family, aliases, rules), new tags add.
    pub fn with_user_file(origin: &str, text: &str) -> Result<RuleSet, RuleError> {
        RuleSet::parse(&[("builtin", BUILTIN_RULES), (origin, text)])
    }

    /// Rule files read in order, each `(origin, text)`; a later file overrides an earlier one's
    /// tag of the same kind and name. A name defined twice in one file is an error.
    pub fn parse(sources: &[(&str, &str)]) -> Result<RuleSet, RuleError> {
        let mut defs: Vec<TagDef> = Vec::new();
        let mut at: HashMap<(Kind, String), usize> = HashMap::new();
        for (i, (origin, text)) in sources.iter().enumerate() {
            for def in (Reader { source: i, origin }).read(text)? {
                let key = (def.kind, normalize(&def.name));
                match at.get(&key) {
                    Some(&k) if defs[k].loc.source == i => {
                        return Err(error(
                            sources,
                            def.loc,
                            format!(
                                "duplicate name `{}`: already defined at line {}",
                                def.name, defs[k].loc.line
                            ),
                        ));
                    }
                    Some(&k) => defs[k] = def,
                    None => {
                        at.insert(key, defs.len());
                        defs.push(def);
                    }
                }
            }
        }
        if defs.len() > u16::MAX as usize {
            return Err(error(sources, Loc::default(), "too many tags".into()));
        }
        build(sources, defs)
    }

    /// The number of tags.
    pub fn len(&self) -> usize {
        self.tags.len()
    }

    /// Whether the set has no tags.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }

    /// A tag's definition.
    pub fn tag(&self, id: TagId) -> &Tag {
        &self.tags[id.index()]
    }

    /// A tag's canonical name.
    pub fn name(&self, id: TagId) -> &str {
        &self.tags[id.index()].name
    }

    /// Every tag with its id, in file order.
    pub fn tags(&self) -> impl Iterator<Item = (TagId, &Tag)> {
        self.tags
            .iter()
            .enumerate()
            .map(|(i, t)| (TagId(i as u16), t))
    }

    /// The tags a name finds (canonical name or alias, in any spelling [`crate::normalize`]
    /// accepts, also with or without 戦法 / 囲い / 流), of `kind` if given.
    pub fn find(&self, name: &str, kind: Option<Kind>) -> Vec<TagId> {
        let key = normalize(name);
        for v in variants(&key) {
            if let Some(ids) = self.lookup.get(&v) {
                let ids: Vec<TagId> = ids
                    .iter()
                    .copied()
                    .filter(|&t| kind.is_none_or(|k| self.tag(t).kind == k))
                    .collect();
                if !ids.is_empty() {
                    return ids;
                }
            }
        }
        Vec::new()
    }

    /// Up to `n` names (canonical, of `kind` if given) nearest to `name`, for a suggestion.
    pub fn nearest(&self, name: &str, kind: Option<Kind>, n: usize) -> Vec<&str> {
        let names = self
            .tags
            .iter()
            .filter(|t| kind.is_none_or(|k| t.kind == k))
            .map(|t| t.name.as_str());
        let mut out = nearest(name, names, n);
        if out.is_empty() {
            // An alias may be nearer than any canonical name: suggest the tag it names.
            let aliases: Vec<(&str, &str)> = self
                .tags
                .iter()
                .filter(|t| kind.is_none_or(|k| t.kind == k))
                .flat_map(|t| t.aliases.iter().map(move |a| (a.as_str(), t.name.as_str())))
                .collect();
            for a in nearest(name, aliases.iter().map(|p| p.0), n) {
                if let Some(&(_, canon)) = aliases.iter().find(|p| p.0 == a) {
                    if !out.contains(&canon) {
                        out.push(canon);
                    }
                }
            }
        }
        out
    }

    /// Whether `tag` is `family` or one of its descendants.
    pub fn is_within(&self, tag: TagId, family: TagId) -> bool {
        self.below[family.index()].contains(tag)
    }

    /// The family line of a tag: itself, its parent, ..., its class.
    pub fn lineage(&self, tag: TagId) -> impl Iterator<Item = TagId> + '_ {
        std::iter::successors(Some(tag), |&t| self.tag(t).parent)
    }

    /// The class 振り飛車, if the rules define it.
    pub fn furibisha(&self) -> Option<TagId> {
        self.furibisha
    }

    /// The opening 相振り飛車 (the header of a game where both sides range), if defined.
    pub fn ai_furibisha(&self) -> Option<TagId> {
        self.ai_furibisha
    }

    /// The nearest ancestor-or-self with a header priority: `(priority, header tag)`.
    pub fn header_of(&self, tag: TagId) -> Option<(u8, TagId)> {
        self.lineage(tag).find_map(|t| self.tag(t).main)
    }
}

fn error(sources: &[(&str, &str)], loc: Loc, message: String) -> RuleError {
    RuleError {
        origin: sources.get(loc.source).map_or("", |s| s.0).to_string(),
        line: loc.line,
        col: loc.col,
        message,
    }
}

/// Resolves names, checks families, compiles rules.
/// Every name and alias (normalised) to its tags; a name given twice within a kind is an error.
fn lookup_table(
    sources: &[(&str, &str)],
    defs: &[TagDef],
) -> Result<HashMap<String, Vec<TagId>>, RuleError> {
    let mut lookup: HashMap<String, Vec<TagId>> = HashMap::new();
    for (i, d) in defs.iter().enumerate() {
        let id = TagId(i as u16);
        let mut keys = vec![(normalize(&d.name), d.loc)];
        keys.extend(d.aliases.iter().map(|a| (normalize(&a.name), a.loc)));
        for (k, loc) in keys {
            let entry = lookup.entry(k).or_default();
            if let Some(&other) = entry.iter().find(|&&o| defs[o.index()].kind == d.kind) {
                if other != id {
                    // At the later file's place (a user's name that meets a built-in one).
                    let first = &defs[other.index()];
                    let loc = if first.loc.source > loc.source {
                        first.loc
                    } else {
                        loc
                    };
                    return Err(error(
                        sources,
                        loc,
                        format!(
                            "duplicate name: `{}` already names `{}`",
                            d.aliases
                                .iter()
                                .find(|a| a.loc == loc)
                                .map_or(&d.name, |a| &a.name),
                            defs[other.index()].name
                        ),
                    ));
                }
                continue;
            }
            entry.push(id);
        }
    }
    Ok(lookup)
}

fn build(sources: &[(&str, &str)], defs: Vec<TagDef>) -> Result<RuleSet, RuleError> {
    let lookup = lookup_table(sources, &defs)?;
    let resolve = |r: &NameRef, prefer: &[Kind]| -> Result<TagId, RuleError> {
        let key = normalize(&r.name);
        let found = variants(&key)
            .iter()
            .find_map(|v| lookup.get(v).cloned())
            .unwrap_or_default();
        for k in prefer {
            if let Some(&t) = found.iter().find(|t| defs[t.index()].kind == *k) {
                return Ok(t);
            }
        }
        let names: Vec<&str> = defs
            .iter()
            .filter(|d| prefer.contains(&d.kind))
            .map(|d| d.name.as_str())
            .collect();
        let near = nearest(&r.name, names.into_iter(), 3);
        let hint = if near.is_empty() {
            String::new()
        } else {
            format!(" (nearest: {})", near.join(", "))
        };
        let mut what: Vec<&str> = Vec::new();
        for k in prefer {
            if !what.contains(&k.word()) {
                what.push(k.word());
            }
        }
        Err(error(
            sources,
            r.loc,
            format!("unknown {} `{}`{hint}", what.join(" or "), r.name),
        ))
    };
    let n = defs.len();
    let mut parents: Vec<Option<TagId>> = Vec::with_capacity(n);
    for d in &defs {
        parents.push(match &d.parent {
            Some(p) => Some(resolve(p, &[d.kind, Kind::Class])?),
            None => None,
        });
    }
    // Cycles: walking up from any tag must end at a root within n steps.
    let mut class = Vec::with_capacity(n);
    for (i, d) in defs.iter().enumerate() {
        let mut t = TagId(i as u16);
        let mut steps = 0;
        while let Some(p) = parents[t.index()] {
            t = p;
            steps += 1;
            if steps > n {
                // `t` is on the cycle: blame the family written last (a user's file that
                // closed a cycle through built-in tags is where the mistake is).
                let mut members = vec![t];
                while let Some(p) = parents[members[members.len() - 1].index()].filter(|&p| p != t)
                {
                    members.push(p);
                }
                let blamed = members
                    .iter()
                    .map(|m| &defs[m.index()])
                    .max_by_key(|m| {
                        m.parent.as_ref().map_or((0, std::cmp::Reverse(0)), |p| {
                            (p.loc.source, std::cmp::Reverse(p.loc.line))
                        })
                    })
                    .unwrap_or(d);
                let loc = blamed.parent.as_ref().map_or(blamed.loc, |p| p.loc);
                return Err(error(
                    sources,
                    loc,
                    format!("a cycle of families through `{}`", blamed.name),
                ));
            }
        }
        class.push(t);
    }
    let mut below: Vec<TagSet> = (0..n).map(|_| TagSet::new(n)).collect();
    for i in 0..n {
        let mut t = Some(TagId(i as u16));
        while let Some(a) = t {
            below[a.index()].insert(TagId(i as u16));
            t = parents[a.index()];
        }
    }
    let mut tags = Vec::with_capacity(n);
    let mut rules = Vec::new();
    for (i, d) in defs.iter().enumerate() {
        let main = match &d.main {
            Some((p, Some(h))) => Some((*p, resolve(h, &[Kind::Opening, Kind::Castle])?)),
            Some((p, None)) => Some((*p, TagId(i as u16))),
            None => None,
        };
        for r in &d.rules {
            let same = [d.kind, Kind::Opening, Kind::Castle, Kind::Class];
            let ids = |v: &[NameRef]| {
                v.iter()
                    .map(|x| resolve(x, &same))
                    .collect::<Result<Vec<_>, _>>()
            };
            rules.push(Rule {
                tag: TagId(i as u16),
                max_ply: r.cond.max_ply.unwrap_or(u32::MAX),
                eq_ply: r.cond.eq_ply,
                order: r.cond.order,
                before_capture: r.cond.before_capture.unwrap_or(0),
                moved: r.cond.moved.as_ref().map(|m| MovedRule {
                    role: m.role,
                    drop: m.drop,
                    captures: m.captures,
                }),
                hand: r.cond.hand.clone(),
                opponent_hand: r.cond.opponent_hand.clone(),
                requires: ids(&r.cond.requires)?,
                excludes: ids(&r.cond.excludes)?,
                opponent_has: ids(&r.cond.opponent_has)?,
                opponent_lacks: ids(&r.cond.opponent_lacks)?,
                masks: [masks(&r.cond, Color::Black), masks(&r.cond, Color::White)],
            });
        }
        tags.push(Tag {
            name: d.name.clone(),
            kind: d.kind,
            parent: parents[i],
            aliases: d.aliases.iter().map(|a| a.name.clone()).collect(),
            english: d.english.clone(),
            class: class[i],
            main,
            has_rules: !d.rules.is_empty(),
        });
    }
    let by_name = |name: &str, kind: Kind| {
        tags.iter()
            .position(|t: &Tag| t.kind == kind && t.name == name)
            .map(|i| TagId(i as u16))
    };
    let furibisha = by_name("振り飛車", Kind::Class);
    let ai_furibisha = by_name("相振り飛車", Kind::Opening);
    Ok(RuleSet {
        index: RuleIndex::new(&rules, &below),
        tags,
        rules,
        lookup,
        below,
        furibisha,
        ai_furibisha,
    })
}

/// A square in the owner's frame to the board: itself for sente, turned 180° for gote.
pub(crate) fn owner_square(sq: Square, owner: Color) -> Square {
    match owner {
        Color::Black => sq,
        Color::White => {
            Square::new(10 - sq.file(), 10 - sq.rank()).expect("a turned square is a square")
        }
    }
}

fn masks(c: &Cond, owner: Color) -> Masks {
    let mut m = Masks::default();
    let add = |v: &mut Vec<(Role, Bitboard)>, role: Role, sq: Square| match v
        .iter_mut()
        .find(|e| e.0 == role)
    {
        Some(e) => e.1 |= Bitboard::from_square(sq),
        None => v.push((role, Bitboard::from_square(sq))),
    };
    for &(sq, mark, _) in &c.board {
        let s = owner_square(sq, owner);
        match mark {
            Mark::Empty => m.empty |= Bitboard::from_square(s),
            Mark::Own(r) => {
                m.own_any |= Bitboard::from_square(s);
                add(&mut m.own, r, s)
            }
            Mark::Opponent(r) => add(&mut m.opponent, r, s),
            Mark::NotOwn(r) => add(&mut m.not_own, r, s),
            Mark::AnyOwn(r) => add(&mut m.any_own, r, s),
        }
    }
    if let Some(mv) = &c.moved {
        m.to = if mv.to.is_empty() {
            Bitboard::FULL
        } else {
            mv.to.iter().fold(Bitboard::EMPTY, |b, &s| {
                b | Bitboard::from_square(owner_square(s, owner))
            })
        };
        m.from = mv.from.map(|s| owner_square(s, owner));
    }
    m
}
