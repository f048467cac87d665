//! The pickled form of a `Record`: everything a [`RecordData`] holds (the record with its
//! variations, times, comments, bookmarks and source lines, the error, the diagnostics, the
//! ratings), so that Dask and multiprocessing can ship records and get back an equal one. No
//! record format can do this: each leaves something out (subsecond times, bookmarks, the
//! error of an unreadable game).
//!
//! The form is the record model's own serde form as JSON (see [`shogi_kif::Record`]), with
//! beside it what that form leaves out: the source lines, the header keys kept verbatim
//! under a known key's name, and the ratings as their bits (so that they come back exact).

use crate::reading::RecordData;
use serde::{Deserialize, Serialize};
use shogi_kif::{Diagnostic, Encoding, Format, HeaderKey, ReadError, Record};
use std::borrow::Cow;

/// The version of the form written now (the hand-written binary form of before was 1).
const VERSION: u32 = 2;
/// Arrays and objects nested deeper than this are refused when decoding: the readers stop
/// at 64 levels of variations, four JSON levels each.
const MAX_NESTING: usize = 4 * 64 + 16;

/// The pickled form (borrowed when written, owned when read).
#[derive(Serialize, Deserialize)]
struct State<'a> {
    version: u32,
    path: Option<Cow<'a, str>>,
    index: u32,
    line: Option<u32>,
    format: Option<Format>,
    encoding: Option<Encoding>,
    record: Option<Cow<'a, Record>>,
    error: Option<Cow<'a, ReadError>>,
    diagnostics: Cow<'a, [Diagnostic]>,
    /// `f64::to_bits` of each rating.
    ratings: [Option<u64>; 2],
    /// [`Record::source_lines`].
    source_lines: Vec<u32>,
    /// Header entries whose key is [`HeaderKey::Other`] under a known key's name: their
    /// index and name.
    other_keys: Vec<(usize, Cow<'a, str>)>,
}

/// The pickled form of a game.
pub fn encode(g: &RecordData) -> Vec<u8> {
    let other_keys = g.record.as_ref().map_or_else(Vec::new, |r| {
        let known = |k: &str| !matches!(HeaderKey::from_kif(k), HeaderKey::Other(_));
        (r.header.entries.iter().enumerate())
            .filter_map(|(i, e)| match &e.key {
                HeaderKey::Other(k) if known(k) => Some((i, Cow::Borrowed(k.as_str()))),
                _ => None,
            })
            .collect()
    });
    let state = State {
        version: VERSION,
        path: g.path.as_deref().map(Cow::Borrowed),
        index: g.index,
        line: g.line,
        format: g.format,
        encoding: g.encoding,
        record: g.record.as_ref().map(Cow::Borrowed),
        error: g.error.as_ref().map(Cow::Borrowed),
        diagnostics: Cow::Borrowed(&g.diagnostics),
        ratings: g.ratings.map(|r| r.map(f64::to_bits)),
        source_lines: g
            .record
            .as_ref()
            .map_or_else(Vec::new, Record::source_lines),
        other_keys,
    };
    // Serialising the model to JSON in memory cannot fail (string keys, no maps of others).
    serde_json::to_vec(&state).unwrap_or_default()
}

fn corrupt<T>(what: impl std::fmt::Display) -> Result<T, String> {
    Err(format!("not a pickled shogitk Record ({what})"))
}

/// The deepest nesting of arrays and objects in JSON text (strings skipped).
fn nesting(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The game of a pickled form (a message saying what is wrong when it is not one).
pub fn decode(bytes: &[u8]) -> Result<RecordData, String> {
    if nesting(bytes) > MAX_NESTING {
        return corrupt("variations nested too deep");
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // The depth is bounded above; serde_json's own limit (128) is below what records reach.
    de.disable_recursion_limit();
    let state = State::deserialize(&mut de)
        .and_then(|s| de.end().map(|()| s))
        .or_else(corrupt)?;
    if state.version != VERSION {
        return corrupt("unknown version");
    }
    let mut record = state.record.map(Cow::into_owned);
    if let Some(r) = &mut record {
        if !r.set_source_lines(&state.source_lines) {
            return corrupt("source lines do not fit the moves");
        }
        for (i, name) in state.other_keys {
            let Some(e) = r.header.entries.get_mut(i) else {
                return corrupt("bad header key");
            };
            e.key = HeaderKey::Other(name.into_owned());
        }
    }
    Ok(RecordData {
        path: state.path.map(Cow::into_owned),
        index: state.index,
        line: state.line,
        format: state.format,
        encoding: state.encoding,
        record,
        error: state.error.map(Cow::into_owned),
        diagnostics: state.diagnostics.into_owned(),
        ratings: state.ratings.map(|r| r.map(f64::from_bits)),
    })
}
