//! The JKF document as serde types, used by the reader and the writer alike.
//!
//! Written objects come out with their keys in alphabetical order (as a `serde_json` map
//! orders them), so the fields of each struct are declared in that order. Text the writer
//! takes from the record or from shogi-core is borrowed (`Cow`); what the reader gets is owned.
//! A few fields only the writer fills (`capture`, `same`) are skipped when reading, as the
//! reader has no use for them.

use crate::limits::{MAX_HEADER_ENTRIES, MAX_JKF_ITEMS, count};
use serde::de::{Error as _, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

thread_local! {
    /// The array elements and object members of the document being read, so far.
    static ITEMS: Cell<usize> = const { Cell::new(0) };
}

/// Starts counting the items of a document (see [`MAX_JKF_ITEMS`]).
pub(crate) fn start_document() {
    ITEMS.with(|n| n.set(0));
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

fn moves<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    Bounded::deserialize(d).map(|b| b.0)
}

fn forks<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Vec<Vec<T>>>, D::Error> {
    let forks = Option::<Bounded<Bounded<T>>>::deserialize(d)?;
    Ok(forks.map(|f| f.0.into_iter().map(|line| line.0).collect()))
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
#[derive(Deserialize, Serialize)]
pub(crate) struct Initial<'a> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<StateFormat<'a>>,
    pub preset: Cow<'a, str>,
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
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<MoveMoveFormat<'a>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
