//! The rule-file reader: text to tag definitions with their rules, every token located.
//!
//! Names are not resolved here (a rule may name a tag defined later, or in another file);
//! [`crate::RuleSet`] resolves them and reports unknown names at the place they were written.

use shogi_core::{Role, Square};
use std::fmt;

/// A mistake in a rule file, at the place it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// The file (or the name given to the text: `builtin` for the rules built in).
    pub origin: String,
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.origin, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for RuleError {}

/// Where a token was written: the index of the source, line and column (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Loc {
    pub source: usize,
    pub line: usize,
    pub col: usize,
}

/// What a tag is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A side's class at the root of the families: 居飛車, 振り飛車, and the neutral 共通.
    Class,
    /// An opening (戦法).
    Opening,
    /// A castle (囲い).
    Castle,
}

impl Kind {
    /// The word of the rule file (`class`, `opening`, `castle`).
    pub const fn word(self) -> &'static str {
        match self {
            Kind::Class => "class",
            Kind::Opening => "opening",
            Kind::Castle => "castle",
        }
    }

    /// The Japanese word (分類, 戦法, 囲い).
    pub const fn japanese(self) -> &'static str {
        match self {
            Kind::Class => "分類",
            Kind::Opening => "戦法",
            Kind::Castle => "囲い",
        }
    }
}

/// Which mover of the game a rule is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    First,
    Second,
}

/// A name written in a rule, resolved later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NameRef {
    pub name: String,
    pub loc: Loc,
}

/// A condition on a hand: exactly these pieces, at least these, none of these.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct HandCond {
    pub exact: Option<[u8; 7]>,
    pub at_least: [u8; 7],
    pub lacks: u8,
}

/// What the move that completes the formation must be.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Moved {
    /// The piece's role before the move (unpromoted for a promotion), `None` for any.
    pub role: Option<Role>,
    /// Any of these destinations (owner's frame); empty for any.
    pub to: Vec<Square>,
    pub from: Option<Square>,
    pub drop: bool,
    /// The role captured (unpromoted), if the move must capture.
    pub captures: Option<Role>,
}

/// A board cell's mark, in the owner's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    Empty,
    Own(Role),
    Opponent(Role),
    NotOwn(Role),
    AnyOwn(Role),
}

/// The conditions of one rule (one way a tag forms).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cond {
    pub max_ply: Option<u32>,
    pub eq_ply: Option<u32>,
    pub order: Option<Order>,
    /// Roles (bits of `Role::index` of the unpromoted role) whose capture ends the rule.
    pub before_capture: Option<u16>,
    pub moved: Option<Moved>,
    pub hand: Option<HandCond>,
    pub opponent_hand: Option<HandCond>,
    pub requires: Vec<NameRef>,
    pub excludes: Vec<NameRef>,
    pub opponent_has: Vec<NameRef>,
    pub opponent_lacks: Vec<NameRef>,
    pub board: Vec<(Square, Mark, Loc)>,
}

/// One rule of a tag, where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RuleDef {
    pub cond: Cond,
    pub loc: Loc,
}

/// One tag as written: its kind, family, aliases, header priority and rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TagDef {
    pub name: String,
    pub kind: Kind,
    pub parent: Option<NameRef>,
    pub aliases: Vec<NameRef>,
    /// `main N [NAME]`: priority and the tag a header writes (itself when `None`).
    pub main: Option<(u8, Option<NameRef>)>,
    pub english: Option<String>,
    pub rules: Vec<RuleDef>,
    pub loc: Loc,
}

type Tok<'a> = (usize, &'a str);

/// The tokens of a line with their columns (characters, from 1), up to a `#` comment.
fn tokens(line: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (byte, c)) in line.char_indices().enumerate() {
        if c == '#' && start.is_none() {
            break;
        }
        if c.is_whitespace() || c == ',' || c == '、' {
            if let Some((b, cc)) = start.take() {
                out.push((cc, &line[b..byte]));
            }
        } else if start.is_none() {
            start = Some((byte, col + 1));
        }
    }
    if let Some((b, cc)) = start {
        out.push((cc, &line[b..]));
    }
    out
}

/// A reader of one source: the error constructor knows the source's index.
pub(crate) struct Reader<'a> {
    pub source: usize,
    pub origin: &'a str,
}

impl Reader<'_> {
    fn err(&self, line: usize, col: usize, message: impl Into<String>) -> RuleError {
        RuleError {
            origin: self.origin.to_string(),
            line,
            col,
            message: message.into(),
        }
    }

    fn loc(&self, line: usize, col: usize) -> Loc {
        Loc {
            source: self.source,
            line,
            col,
        }
    }

    /// Reads one file's text into tag definitions (in file order).
    pub fn read(&self, text: &str) -> Result<Vec<TagDef>, RuleError> {
        let mut tags: Vec<TagDef> = Vec::new();
        let mut defaults = [Cond::default(), Cond::default()];
        // What the indented lines add to: a tag (attributes, then rules) or a defaults block.
        let mut in_defaults: Option<usize> = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let toks = tokens(raw);
            let Some(&(col, word)) = toks.first() else {
                continue;
            };
            let indented = raw.starts_with([' ', '\t']);
            if !indented {
                in_defaults = None;
                match word {
                    "defaults" => {
                        let k = match toks.get(1).map(|t| t.1) {
                            Some("opening") => 0,
                            Some("castle") => 1,
                            _ => {
                                let c = toks.get(1).map_or(col + 8, |t| t.0);
                                return Err(self.err(
                                    n,
                                    c,
                                    "expected `defaults opening` or `defaults castle`",
                                ));
                            }
                        };
                        self.no_more(&toks, 2, n)?;
                        in_defaults = Some(k);
                    }
                    "class" | "opening" | "castle" => tags.push(self.tag_line(&toks, n)?),
                    _ => {
                        return Err(self.err(
                            n,
                            col,
                            format!("expected `class`, `opening`, `castle` or `defaults` at the start of a line, found `{word}`"),
                        ));
                    }
                }
                continue;
            }
            if let Some(k) = in_defaults {
                self.condition(&mut defaults[k], &toks, n)?;
                continue;
            }
            let Some(tag) = tags.last_mut() else {
                return Err(self.err(n, col, "an indented line before any tag"));
            };
            match word {
                "alias" | "main" | "english" if !tag.rules.is_empty() => {
                    return Err(self.err(
                        n,
                        col,
                        format!("`{word}` after a rule: write it before the tag's first `rule`"),
                    ));
                }
                "alias" => {
                    if toks.len() < 2 {
                        return Err(self.err(n, col + 5, "`alias` needs at least one name"));
                    }
                    for &(c, a) in &toks[1..] {
                        tag.aliases.push(NameRef {
                            name: a.to_string(),
                            loc: self.loc(n, c),
                        });
                    }
                }
                "english" => {
                    let rest = raw.trim_start().trim_start_matches("english").trim();
                    tag.english = Some(rest.split('#').next().unwrap_or("").trim().to_string());
                }
                "main" => {
                    let (c, v) = toks
                        .get(1)
                        .copied()
                        .ok_or_else(|| self.err(n, col + 4, "`main` needs a priority 0-255"))?;
                    let p: u8 = v
                        .parse()
                        .map_err(|_| self.err(n, c, format!("`{v}` is not a priority 0-255")))?;
                    let header = toks.get(2).map(|&(c, h)| NameRef {
                        name: h.to_string(),
                        loc: self.loc(n, c),
                    });
                    self.no_more(&toks, 3, n)?;
                    tag.main = Some((p, header));
                }
                "rule" => {
                    if tag.kind == Kind::Class {
                        return Err(self.err(
                            n,
                            col,
                            "a class has no rules: its tags come from its openings",
                        ));
                    }
                    self.no_more(&toks, 1, n)?;
                    let d = if tag.kind == Kind::Opening { 0 } else { 1 };
                    tag.rules.push(RuleDef {
                        cond: defaults[d].clone(),
                        loc: self.loc(n, col),
                    });
                }
                _ => {
                    let Some(rule) = tag.rules.last_mut() else {
                        return Err(self.err(n, col, format!("`{word}` before the tag's first `rule` (expected `alias`, `main`, `english` or `rule`)")));
                    };
                    self.condition(&mut rule.cond, &toks, n)?;
                }
            }
        }
        Ok(tags)
    }

    fn no_more(&self, toks: &[Tok<'_>], max: usize, n: usize) -> Result<(), RuleError> {
        match toks.get(max) {
            Some(&(c, w)) => Err(self.err(n, c, format!("unexpected `{w}`"))),
            None => Ok(()),
        }
    }

    fn tag_line(&self, toks: &[Tok<'_>], n: usize) -> Result<TagDef, RuleError> {
        let (col, word) = toks[0];
        let kind = match word {
            "class" => Kind::Class,
            "opening" => Kind::Opening,
            _ => Kind::Castle,
        };
        let &(nc, name) = toks.get(1).ok_or_else(|| {
            self.err(
                n,
                col + word.chars().count(),
                format!("`{word}` needs a name"),
            )
        })?;
        let parent = match toks.get(2) {
            None => None,
            Some(&(_, "<")) => {
                let &(pc, p) = toks
                    .get(3)
                    .ok_or_else(|| self.err(n, toks[2].0 + 1, "`<` needs the family's name"))?;
                self.no_more(toks, 4, n)?;
                Some(NameRef {
                    name: p.to_string(),
                    loc: self.loc(n, pc),
                })
            }
            Some(&(c, w)) => {
                return Err(self.err(
                    n,
                    c,
                    format!("expected `< FAMILY` or the end of the line, found `{w}`"),
                ));
            }
        };
        if kind == Kind::Class && parent.is_some() {
            return Err(self.err(n, toks[2].0, "a class is a root: it has no family"));
        }
        if kind != Kind::Class && parent.is_none() {
            return Err(self.err(
                n,
                nc,
                format!(
                    "`{name}` needs a family (`{word} {name} < FAMILY`): every tag reaches a class"
                ),
            ));
        }
        Ok(TagDef {
            name: name.to_string(),
            kind,
            parent,
            aliases: Vec::new(),
            main: None,
            english: None,
            rules: Vec::new(),
            loc: self.loc(n, nc),
        })
    }

    /// One condition line of a rule (or of a defaults block).
    fn condition(&self, cond: &mut Cond, toks: &[Tok<'_>], n: usize) -> Result<(), RuleError> {
        let (col, word) = toks[0];
        let arg = |i: usize| {
            toks.get(i).copied().ok_or_else(|| {
                let end = toks.last().map_or(col, |t| t.0 + t.1.chars().count());
                self.err(
                    n,
                    end,
                    format!("`{word}` needs more: see the format in the crate docs"),
                )
            })
        };
        let names = |v: &mut Vec<NameRef>| -> Result<(), RuleError> {
            arg(1)?;
            v.extend(toks[1..].iter().map(|&(c, s)| NameRef {
                name: s.to_string(),
                loc: self.loc(n, c),
            }));
            Ok(())
        };
        if let Some(rank) = rank_label(word) {
            return self.board_row(cond, toks, rank, n);
        }
        match word {
            "board" => self.no_more(toks, 1, n)?,
            "ply" => {
                let (oc, op) = arg(1)?;
                let (vc, v) = arg(2)?;
                self.no_more(toks, 3, n)?;
                if op == "any" {
                    return Err(self.err(n, vc, "write `ply any` alone"));
                }
                let v: u32 = v
                    .parse()
                    .map_err(|_| self.err(n, vc, format!("`{v}` is not a ply number")))?;
                match op {
                    "<=" => cond.max_ply = Some(v),
                    "=" => cond.eq_ply = Some(v),
                    _ => {
                        return Err(self.err(n, oc, format!("expected `<=` or `=`, found `{op}`")));
                    }
                }
            }
            "ply-any" => {
                self.no_more(toks, 1, n)?;
                cond.max_ply = None;
                cond.eq_ply = None;
            }
            "order" => {
                let (c, v) = arg(1)?;
                self.no_more(toks, 2, n)?;
                cond.order = Some(match v {
                    "first" => Order::First,
                    "second" => Order::Second,
                    _ => {
                        return Err(self.err(
                            n,
                            c,
                            format!("expected `first` or `second`, found `{v}`"),
                        ));
                    }
                });
            }
            "before-capture" => {
                let (c, v) = arg(1)?;
                self.no_more(toks, 2, n)?;
                cond.before_capture = if v == "none" {
                    None
                } else {
                    Some(self.role_set(v, n, c)?)
                };
            }
            "moved" => cond.moved = Some(self.moved(toks, n)?),
            "hand"
            | "hand-has"
            | "hand-lacks"
            | "opponent-hand"
            | "opponent-hand-has"
            | "opponent-hand-lacks" => {
                let (c, v) = arg(1)?;
                self.no_more(toks, 2, n)?;
                let target = if word.starts_with("opponent") {
                    &mut cond.opponent_hand
                } else {
                    &mut cond.hand
                };
                let h = target.get_or_insert_with(HandCond::default);
                let counts = if v == "none" {
                    [0; 7]
                } else {
                    self.hand_counts(v, n, c)?
                };
                if word.ends_with("-has") {
                    h.at_least = counts;
                } else if word.ends_with("-lacks") {
                    h.lacks = counts
                        .iter()
                        .enumerate()
                        .fold(0, |m, (i, &k)| if k > 0 { m | 1 << i } else { m });
                } else {
                    h.exact = Some(counts);
                }
            }
            "requires" => names(&mut cond.requires)?,
            "excludes" => names(&mut cond.excludes)?,
            "opponent-has" => names(&mut cond.opponent_has)?,
            "opponent-lacks" => names(&mut cond.opponent_lacks)?,
            _ => return Err(self.err(n, col, format!("unknown condition `{word}`"))),
        }
        Ok(())
    }

    fn board_row(
        &self,
        cond: &mut Cond,
        toks: &[Tok<'_>],
        rank: u8,
        n: usize,
    ) -> Result<(), RuleError> {
        if toks.len() != 10 {
            let c = toks.get(10).map_or(toks.last().map_or(1, |t| t.0), |t| t.0);
            return Err(self.err(
                n,
                c,
                format!(
                    "a board row is a rank and 9 cells (files 9 to 1), found {} cells",
                    toks.len() - 1
                ),
            ));
        }
        for (i, &(c, cell)) in toks[1..].iter().enumerate() {
            let file = 9 - i as u8;
            let sq = Square::new(file, rank).expect("files 1-9, ranks 1-9");
            let mark = match cell {
                "." | "・" => continue,
                "_" | "○" => Mark::Empty,
                _ => {
                    let mut chars = cell.chars();
                    let first = chars.next().unwrap_or('.');
                    let (make, rest): (fn(Role) -> Mark, &str) = match first {
                        'v' => (Mark::Opponent, &cell[1..]),
                        '~' => (Mark::NotOwn, &cell[1..]),
                        '*' => (Mark::AnyOwn, &cell[1..]),
                        _ => (Mark::Own, cell),
                    };
                    let role = self.role(rest, n, c)?;
                    make(role)
                }
            };
            if cond.board.iter().any(|&(s, _, _)| s == sq) {
                return Err(self.err(
                    n,
                    c,
                    format!("the square {} is drawn twice", square_text(sq)),
                ));
            }
            cond.board.push((sq, mark, self.loc(n, c)));
        }
        Ok(())
    }

    fn moved(&self, toks: &[Tok<'_>], n: usize) -> Result<Moved, RuleError> {
        let mut m = Moved::default();
        let mut i = 1;
        let &(rc, r) = toks
            .get(1)
            .ok_or_else(|| self.err(n, toks[0].0 + 5, "`moved` needs a piece (or `any`)"))?;
        if r != "any" {
            m.role = Some(self.role(r, n, rc)?);
        }
        i += 1;
        while let Some(&(c, w)) = toks.get(i) {
            let value = |k: usize| {
                toks.get(k).copied().ok_or_else(|| {
                    self.err(n, c + w.chars().count(), format!("`{w}` needs a value"))
                })
            };
            match w {
                "at" => {
                    let (sc, s) = value(i + 1)?;
                    m.to.push(self.square(s, n, sc)?);
                    i += 2;
                    // `at 6八 7八`: several destinations.
                    while let Some(&(sc, s)) = toks.get(i) {
                        match parse_square(s) {
                            Some(sq) => m.to.push(sq),
                            None if s.chars().next().is_some_and(|ch| {
                                ch.is_ascii_digit() || ('１'..='９').contains(&ch)
                            }) =>
                            {
                                return Err(self.err(n, sc, format!("unknown square `{s}`")));
                            }
                            None => break,
                        }
                        i += 1;
                    }
                }
                "from" => {
                    let (sc, s) = value(i + 1)?;
                    m.from = Some(self.square(s, n, sc)?);
                    i += 2;
                }
                "captures" => {
                    let (sc, s) = value(i + 1)?;
                    m.captures = Some(self.role(s, n, sc)?.unpromote());
                    i += 2;
                }
                "drop" => {
                    m.drop = true;
                    i += 1;
                }
                _ => {
                    return Err(self.err(
                        n,
                        c,
                        format!("expected `at`, `from`, `captures` or `drop`, found `{w}`"),
                    ));
                }
            }
        }
        if m.drop && (m.from.is_some() || m.captures.is_some()) {
            return Err(self.err(n, toks[0].0, "a drop has no origin and captures nothing"));
        }
        Ok(m)
    }

    fn role(&self, s: &str, n: usize, c: usize) -> Result<Role, RuleError> {
        let mut chars = s.chars();
        match (chars.next().and_then(Role::from_kanji), chars.next()) {
            (Some(r), None) => Ok(r),
            _ => Err(self.err(
                n,
                c,
                format!(
                    "unknown piece `{s}` (one kanji: 玉 飛 角 金 銀 桂 香 歩 龍 馬 全 圭 杏 と)"
                ),
            )),
        }
    }

    fn role_set(&self, s: &str, n: usize, c: usize) -> Result<u16, RuleError> {
        let mut set = 0u16;
        for (k, ch) in s.chars().enumerate() {
            let r = Role::from_kanji(ch)
                .ok_or_else(|| self.err(n, c + k, format!("unknown piece `{ch}`")))?;
            set |= 1 << r.unpromote().index();
        }
        Ok(set)
    }

    /// `角`, `角歩2`, `歩10`: hand pieces with optional counts.
    fn hand_counts(&self, s: &str, n: usize, c: usize) -> Result<[u8; 7], RuleError> {
        let mut counts = [0u8; 7];
        let chars: Vec<char> = s.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let r = Role::from_kanji(chars[k])
                .filter(|r| r.is_hand_role())
                .ok_or_else(|| {
                    self.err(n, c + k, format!("`{}` is not a piece in hand", chars[k]))
                })?;
            let start = k + 1;
            let mut end = start;
            while end < chars.len() && chars[end].is_ascii_digit() {
                end += 1;
            }
            let count = if end > start {
                let t: String = chars[start..end].iter().collect();
                t.parse::<u8>()
                    .ok()
                    .filter(|&v| v <= 18)
                    .ok_or_else(|| self.err(n, c + start, format!("`{t}` is not a count 0-18")))?
            } else {
                1
            };
            counts[hand_index(r)] = count;
            k = end;
        }
        Ok(counts)
    }

    fn square(&self, s: &str, n: usize, c: usize) -> Result<Square, RuleError> {
        parse_square(s).ok_or_else(|| {
            self.err(
                n,
                c,
                format!("unknown square `{s}` (write file and rank: 7六, 76)"),
            )
        })
    }
}

/// The index of a hand role in `Role::HAND`.
pub(crate) fn hand_index(r: Role) -> usize {
    Role::HAND.iter().position(|&h| h == r).unwrap_or(0)
}

fn digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '１' as u32) as u8 + 1),
        _ => None,
    }
}

fn rank_label(s: &str) -> Option<u8> {
    let mut chars = s.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    digit(c).or_else(|| {
        "一二三四五六七八九"
            .chars()
            .position(|k| k == c)
            .map(|i| i as u8 + 1)
    })
}

/// A square written `7六`, `76` or `７６`.
pub(crate) fn parse_square(s: &str) -> Option<Square> {
    let mut chars = s.chars();
    let f = digit(chars.next()?)?;
    let r = rank_label(&chars.next()?.to_string())?;
    if chars.next().is_some() {
        return None;
    }
    Square::new(f, r)
}

/// A square as the rule file writes it (`7六`).
pub(crate) fn square_text(sq: Square) -> String {
    let ranks = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
    format!("{}{}", sq.file(), ranks[sq.rank() as usize - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_columns() {
        assert_eq!(
            tokens("  moved 飛 at 6八 # c"),
            vec![(3, "moved"), (9, "飛"), (11, "at"), (14, "6八")]
        );
        assert_eq!(parse_square("７六"), Square::new(7, 6));
        assert_eq!(parse_square("76"), Square::new(7, 6));
        assert_eq!(parse_square("70"), None);
    }
}
