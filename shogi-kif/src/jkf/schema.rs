//! The JKF document as serde types, used by the reader and the writer alike.
//!
//! Written objects come out with their keys in alphabetical order (as a `serde_json` map
//! orders them), so the fields of each struct are declared in that order. Text the writer
//! takes from the record or from shogi-core is borrowed (`Cow`); what the reader gets is owned.
//! A few fields only the writer fills (`capture`, `same`) are skipped when reading, as the
//! reader has no use for them.

use crate::limits::{MAX_HEADER_ENTRIES, MAX_JKF_ITEMS, count, move_limit};
use serde::de::{Error as _, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use shogi_core::{Role, Square};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

thread_local! {
    /// The array elements and object members of the document being read, so far.
    static ITEMS: Cell<usize> = const { Cell::new(0) };
}

thread_local! {
    /// Where the entry being read stands in its line of play: the moves before it, from the
    /// start of the game, and whether its line has ended before it (an entry after a
    /// `special` is ignored by the reader, and not counted).
    static PLY: Cell<(usize, bool)> = const { Cell::new((0, false)) };
}

/// Starts counting the items of a document (see [`MAX_JKF_ITEMS`]) and the moves of its
/// lines of play (see [`crate::limits::MAX_PLIES`]).
pub(crate) fn start_document() {
    ITEMS.with(|n| n.set(0));
    PLY.with(|p| p.set((0, false)));
}

/// The limit of moves in one line of play, checked as the move or ending of an entry is
/// read, so that the JSON reader locates the error at that entry (the reader that builds
/// the move tree later has no places left).
fn check_ply<E: serde::de::Error>() -> Result<(), E> {
    match PLY.with(Cell::get) {
        (ply, false) => move_limit(0, ply).map_or(Ok(()), |m| Err(E::custom(m))),
        (_, true) => Ok(()),
    }
}

/// An entry's `move`, read after [`check_ply`]; in an entry the reader uses (not the start's,
/// nor one after the line's ending), a piece name or square that is not one is an error here,
/// where the JSON reader locates it (at the end of the move).
fn counted_move<'de, 'a, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<MoveMoveFormat<'a>>, D::Error> {
    check_ply()?;
    let mv = Option::<MoveMoveFormat<'a>>::deserialize(d)?;
    if let (Some(m), (_, false)) = (&mv, PLY.with(Cell::get)) {
        if Role::from_csa(&m.piece).is_none() {
            return Err(D::Error::custom(format!("bad piece {:?}", m.piece)));
        }
        for p in [m.from, m.to].into_iter().flatten() {
            if Square::new(p.x, p.y).is_none() {
                return Err(D::Error::custom(p.off_board()));
            }
        }
    }
    Ok(mv)
}

/// An entry's `special`, read after [`check_ply`].
fn counted_special<'de, 'a, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'a, str>>, D::Error> {
    check_ply()?;
    Option::deserialize(d)
}

/// A line of play: its entries, each counted against the document's items, with [`PLY`]
/// set for each as it is read. The line starts at the ply [`PLY`] holds when it is read;
/// with `start`, its first entry is the start position's (the document's `moves`).
struct LineOfPlay<'a> {
    entries: Vec<MoveFormat<'a>>,
}

impl<'de, 'a> Deserialize<'de> for LineOfPlay<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(LineVisitor {
            start: false,
            marker: PhantomData,
        })
    }
}

struct LineVisitor<'a> {
    start: bool,
    marker: PhantomData<MoveFormat<'a>>,
}

impl<'de, 'a> Visitor<'de> for LineVisitor<'a> {
    type Value = LineOfPlay<'a>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of moves")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let (mut ply, mut ended) = PLY.with(Cell::get);
        let mut entries = Vec::new();
        // The start position's entry holds no move: nothing to count.
        let mut start = self.start;
        loop {
            PLY.with(|p| p.set((ply, ended || start)));
            let Some(entry) = seq.next_element::<MoveFormat<'a>>()? else {
                break;
            };
            spend()?;
            if !start && !ended && (entry.mv.is_some() || entry.special.is_some()) {
                ended = entry.mv.is_none();
                ply += 1;
            }
            start = false;
            entries.push(entry);
        }
        Ok(LineOfPlay { entries })
    }
}

/// An entry's `forks`: lines of play that each replace the entry, so each starts at the
/// entry's ply. [`PLY`] is the entry's again afterwards (its `move` may come after).
struct Forks<'a>(Vec<Vec<MoveFormat<'a>>>);

impl<'de, 'a> Deserialize<'de> for Forks<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(PhantomData<MoveFormat<'a>>);
        impl<'de, 'a> Visitor<'de> for V<'a> {
            type Value = Forks<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of lines of moves")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Forks<'a>, A::Error> {
                let entry = PLY.with(Cell::get);
                let mut lines = Vec::new();
                loop {
                    PLY.with(|p| p.set(entry));
                    let Some(line) = seq.next_element::<LineOfPlay<'a>>()? else {
                        break;
                    };
                    spend()?;
                    lines.push(line.entries);
                }
                PLY.with(|p| p.set(entry));
                Ok(Forks(lines))
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

/// Counts one item: past [`MAX_JKF_ITEMS`], an error that the JSON reader locates.
fn spend<E: serde::de::Error>() -> Result<(), E> {
    let n = ITEMS.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    if n > MAX_JKF_ITEMS {
        return Err(E::custom(format!(
            "more than {} moves, forks, comments and other items in one record (the limit)",
            count(MAX_JKF_ITEMS)
        )));
    }
    Ok(())
}

/// An array whose elements count against the document's items: JSON of a few bytes an
/// element cannot make a vector of millions of large entries.
struct Bounded<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Bounded<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Bounded<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Bounded<T>, A::Error> {
                let mut v = Vec::new();
                while let Some(x) = seq.next_element()? {
                    spend()?;
                    v.push(x);
                }
                Ok(Bounded(v))
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

/// An object whose members count against the document's items.
struct BoundedMap<K, V>(BTreeMap<K, V>);

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for BoundedMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Vis<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for Vis<K, V> {
            type Value = BoundedMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut m = BTreeMap::new();
                while let Some((k, v)) = map.next_entry()? {
                    spend()?;
                    m.insert(k, v);
                }
                Ok(BoundedMap(m))
            }
        }
        d.deserialize_map(Vis(PhantomData))
    }
}

/// The document's `moves`: the main line, after the start position's entry.
fn moves<'de, 'a, D: Deserializer<'de>>(d: D) -> Result<Vec<MoveFormat<'a>>, D::Error> {
    let line = d.deserialize_seq(LineVisitor {
        start: true,
        marker: PhantomData,
    })?;
    Ok(line.entries)
}

fn forks<'de, 'a, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<Vec<MoveFormat<'a>>>>, D::Error> {
    Ok(Option::<Forks<'a>>::deserialize(d)?.map(|f| f.0))
}

fn board<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<Vec<T>>, D::Error> {
    let b = Bounded::<Bounded<T>>::deserialize(d)?;
    Ok(b.0.into_iter().map(|file| file.0).collect())
}

fn comments<'de, 'a, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'a, [String]>>, D::Error> {
    let c = Option::<Bounded<String>>::deserialize(d)?;
    Ok(c.map(|c| Cow::Owned(c.0)))
}

fn hands<'de, D: Deserializer<'de>, K: Deserialize<'de> + Ord, V: Deserialize<'de>>(
    d: D,
) -> Result<Vec<BTreeMap<K, V>>, D::Error> {
    let h = Bounded::<BoundedMap<K, V>>::deserialize(d)?;
    Ok(h.0.into_iter().map(|m| m.0).collect())
}

/// A JKF document.
#[derive(Deserialize, Serialize)]
pub(crate) struct Jkf<'a> {
    #[serde(default)]
    pub header: Header<'a>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial: Option<Initial<'a>>,
    /// `moves[0]` holds the start's comments only; written only with a start position.
    #[serde(skip_serializing_if = "Vec::is_empty", deserialize_with = "moves")]
    pub moves: Vec<MoveFormat<'a>>,
}

/// The header in document order (a JSON object; non-string values are read as their JSON
/// text).
#[derive(Default)]
pub(crate) struct Header<'a>(pub Vec<(Cow<'a, str>, Cow<'a, str>)>);

impl<'de> Deserialize<'de> for Header<'_> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<Header<'a>>);
        impl<'de, 'a> Visitor<'de> for V<'a> {
            type Value = Header<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Header<'a>, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = map.next_entry::<String, serde_json::Value>()? {
                    if v.len() >= MAX_HEADER_ENTRIES {
                        return Err(A::Error::custom(format!(
                            "more than {} header entries (the limit)",
                            count(MAX_HEADER_ENTRIES)
                        )));
                    }
                    spend()?;
                    let s = match val {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    };
                    v.push((Cow::Owned(k), Cow::Owned(s)));
                }
                Ok(Header(v))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

impl Serialize for Header<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The start: a preset name (`HIRATE`, `KY`, …) or `OTHER` with the position in `data`.
/// The position of `OTHER` is checked as it is read (see [`InitialAsRead`]).
#[derive(Deserialize, Serialize)]
#[serde(try_from = "InitialAsRead<'a>")]
pub(crate) struct Initial<'a> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<StateFormat<'a>>,
    pub preset: Cow<'a, str>,
}

/// [`Initial`] as read, before its check: an `OTHER` start needs `data` with a 9x9 board of
/// pieces (colour 0 or 1, a CSA piece name) and hands of pieces that can be in hand, at most
/// 99 of a kind (what SFEN can write). A failed check is an error the JSON reader locates
/// (at the end of `initial`).
#[derive(Deserialize)]
struct InitialAsRead<'a> {
    #[serde(default)]
    data: Option<StateFormat<'a>>,
    preset: Cow<'a, str>,
}

impl<'a> TryFrom<InitialAsRead<'a>> for Initial<'a> {
    type Error = String;
    fn try_from(i: InitialAsRead<'a>) -> Result<Initial<'a>, String> {
        if i.preset == "OTHER" {
            let data = i.data.as_ref().ok_or("preset OTHER needs initial.data")?;
            if data.board.len() != 9 || data.board.iter().any(|c| c.len() != 9) {
                return Err("initial.data.board must be 9x9".into());
            }
            for p in data.board.iter().flatten() {
                if let (Some(c), Some(k)) = (p.color, p.kind.as_deref()) {
                    if c > 1 {
                        return Err(format!("bad colour {c}"));
                    }
                    if Role::from_csa(k).is_none() {
                        return Err(format!("bad piece kind {k:?}"));
                    }
                }
            }
            for hand in data.hands.iter().take(2) {
                if let Some((k, n)) = hand.iter().find(|(_, n)| **n > 99) {
                    return Err(format!("{n} {k} in hand: at most 99 can be written"));
                }
                for k in hand.keys() {
                    match Role::from_csa(k) {
                        None => return Err(format!("bad piece kind {k:?} in hand")),
                        Some(r) if crate::raw::hand_slot(r).is_none() => {
                            return Err(format!("{k} cannot be in hand"));
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        Ok(Initial {
            data: i.data,
            preset: i.preset,
        })
    }
}

/// A position: the board by file then rank (`board[x-1][y-1]`), side to move, hands.
#[derive(Deserialize, Serialize)]
pub(crate) struct StateFormat<'a> {
    #[serde(deserialize_with = "board")]
    pub board: Vec<Vec<PieceFormat<'a>>>,
    pub color: u8,
    /// Black's then White's hand: CSA piece name to count.
    #[serde(deserialize_with = "hands")]
    pub hands: Vec<BTreeMap<Cow<'a, str>, u8>>,
}

/// A square's content: both fields for a piece, neither for an empty square.
#[derive(Deserialize, Serialize, Default)]
pub(crate) struct PieceFormat<'a> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Cow<'a, str>>,
}

/// A square: file `x` and rank `y`, 1 to 9.
#[derive(Deserialize, Serialize, Clone, Copy)]
pub(crate) struct PlaceFormat {
    pub x: u8,
    pub y: u8,
}

impl PlaceFormat {
    /// The message for a square off the board.
    pub fn off_board(&self) -> String {
        format!("square {{x:{},y:{}}} is off the board", self.x, self.y)
    }
}

/// One entry of a move list: a move, an ending (`special`), or comments only; with its
/// alternatives (`forks`), each a list starting with a replacement for this entry.
#[derive(Deserialize, Serialize, Default)]
pub(crate) struct MoveFormat<'a> {
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "comments"
    )]
    pub comments: Option<Cow<'a, [String]>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "forks"
    )]
    pub forks: Option<Vec<Vec<MoveFormat<'a>>>>,
    #[serde(
        default,
        rename = "move",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "counted_move"
    )]
    pub mv: Option<MoveMoveFormat<'a>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "counted_special"
    )]
    pub special: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeFormat>,
}

/// A move. `piece` is the CSA name of the piece before the move.
#[derive(Deserialize, Serialize)]
pub(crate) struct MoveMoveFormat<'a> {
    /// The captured piece (written only).
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub capture: Option<&'static str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<PlaceFormat>,
    pub piece: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promote: Option<bool>,
    /// The move lands where the previous one did (同; written only).
    #[serde(skip_deserializing, skip_serializing_if = "Option::is_none")]
    pub same: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<PlaceFormat>,
}

/// Time spent on a move (`now`) and the mover's running total.
#[derive(Deserialize, Serialize)]
pub(crate) struct TimeFormat {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now: Option<Hms>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<Hms>,
}

/// Hours (optional), minutes and seconds.
#[derive(Deserialize, Serialize)]
pub(crate) struct Hms {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub h: Option<u64>,
    #[serde(default)]
    pub m: u64,
    #[serde(default)]
    pub s: u64,
}

impl Hms {
    /// Milliseconds (each field clamped so that absurd values cannot overflow).
    pub fn ms(&self) -> u64 {
        (self.h.unwrap_or(0).min(1_000_000) * 3600
            + self.m.min(1_000_000_000) * 60
            + self.s.min(1_000_000_000))
            * 1000
    }
}
