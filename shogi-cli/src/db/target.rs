//! The position argument of `shogi find` and `shogi explore`.

use shogi_batch::{Input, Reading, read_input};
use shogi_core::{Position, SetupOptions, UsiError, UsiPosition, Variant};
use shogi_db::DbError;
use std::path::Path;

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
