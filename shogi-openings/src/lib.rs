//! Openings (戦法) and castles (囲い) of shogi games: a taxonomy with families, aliases and
//! classes, and a recogniser whose rules are data.
//!
//! ```
//! use shogi_core::{Move, Position, Variant};
//! use shogi_openings::{GameClass, RuleSet, recognise};
//!
//! let rules = RuleSet::builtin();
//! let moves = ["7g7f", "3c3d", "6g6f", "8c8d", "2h6h"].map(|m| Move::from_usi(m).unwrap());
//! let tags = recognise(rules, &Position::startpos(Variant::Standard), moves).unwrap();
//! let shiken = rules.find("四間飛車", None)[0];
//! assert_eq!(tags.sente.openings.iter().find(|h| h.tag == shiken).map(|h| h.ply), Some(5));
//! assert_eq!(tags.class, GameClass::StaticVsRanging);
//! assert_eq!(tags.main.map(|t| rules.name(t)), Some("四間飛車"));
//! // Every tag reaches a class through its family line.
//! let line: Vec<&str> = rules.lineage(shiken).map(|t| rules.name(t)).collect();
//! assert_eq!(line, ["四間飛車", "振り飛車"]);
//! ```
//!
//! # The rule file
//!
//! The built-in rules are `rules/builtin.rules` in this crate, compiled into the binary;
//! [`RuleSet::with_user_file`] reads a user's file over them (a tag defined again replaces the
//! built-in one; new tags add). A mistake is a [`RuleError`] at `file:line:col`. `#` starts a
//! comment. A line that starts in column 1 opens a block; the indented lines below belong to it.
//!
//! ```text
//! class 振り飛車                    # a root of the families: 居飛車, 振り飛車, 共通
//!
//! defaults opening                 # conditions every later opening rule starts with
//!   ply <= 40
//!   before-capture 飛金銀桂香        # only before any of these is first captured
//!
//! opening 四間飛車 < 振り飛車        # kind, name, `<` family (names are unique per kind)
//!   alias 四間飛車戦法               # other names and spellings
//!   english Fourth File Rook
//!   main 60                        # a `戦型：` header may name it (priority 0-255);
//!                                  # `main 30 矢倉` writes the tag 矢倉 instead
//!   rule                           # one way it forms (a tag may have several)
//!     moved 飛 at 6八 from 2八      # the move that completes it
//!     board                        # (optional word) rows: a rank, then files 9 to 1
//!     八 . . . 飛 . . . . .
//! ```
//!
//! Squares and diagrams are drawn from the owner's side, as sente: for gote every square is
//! turned 180° (▲6八 is △4二), so one rule serves both sides.
//!
//! | condition | the completing move or the position after it must … |
//! |---|---|
//! | `ply <= N`, `ply = N`, `ply-any` | be at most / exactly ply N of the game (1-based); drop a default limit |
//! | `order first` / `order second` | be by the side that moved first / second in the game |
//! | `before-capture 飛金銀桂香` / `none` | come before any capture (in the game so far) of these pieces |
//! | `moved P [at SQ [SQ…]] [from SQ] [drop] [captures P]` | move piece P (`any`: any), its role before the move |
//! | `hand 角`, `hand none`, `hand-has 歩2`, `hand-lacks 歩` | own hand exactly / at least / without |
//! | `opponent-hand …`, `opponent-hand-has …`, `opponent-hand-lacks …` | the same for the other side |
//! | `requires T…`, `excludes T…` | own tags include (all of) / include none of these tags or their descendants |
//! | `opponent-has T…`, `opponent-lacks T…` | the same for the other side's tags |
//! | board row `七 . 歩 _ v歩 ~銀 *飛 …` | `.` any, `_` empty, `歩` own piece, `v歩` the opponent's, `~銀` no own silver, `*飛` own rook on at least one `*` cell |
//!
//! A rule is checked only on its owner's moves, only while its ply and capture conditions can
//! still hold; a tag is given once, at the first ply any of its rules holds, and never taken
//! back. Tags whose family is a class decide the side's class: an opening of the 振り飛車 class
//! makes the side 振り飛車.

mod index;
mod names;
mod parse;
mod recognise;
mod ruleset;

pub use names::normalize;
pub use parse::{Kind, RuleError};
pub use recognise::{
    GameClass, GameTags, Recognizer, SideClass, SideTags, TagHit, applies_to, recognise,
    recognise_legal,
};
pub use ruleset::{BUILTIN_RULES, RuleSet, Tag, TagId};
