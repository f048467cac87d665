//! Book marks for the explorer (`shogi serve --book`): an opening book's moves of the explored
//! position beside the database's. The front end opens the book and looks positions up
//! ([`BookLookup`]) exactly as `shogi explore --book` does, so both mark the same moves; this
//! module only puts the marks into the explorer's answer.

use crate::api::{self, ApiError, Params};
use serde_json::{Value, json};
use shogi_book::BookMove;
use shogi_core::Position;
use shogi_db::Db;
use shogi_kif::notation::move_text;

/// An opening book as the explorer asks it: the book's moves of a position.
pub trait BookLookup: std::fmt::Debug + Send + Sync {
    /// The book's moves of `pos` (none when the book lacks it), or why the book failed.
    fn moves(&self, pos: &Position) -> Result<Vec<BookMove>, String>;
}

impl BookLookup for shogi_book::MarkBook {
    fn moves(&self, pos: &Position) -> Result<Vec<BookMove>, String> {
        shogi_book::MarkBook::moves(self, pos).map_err(|e| e.to_string())
    }
}

/// A book move's marks as JSON, as `shogi explore --book --format json` writes them.
fn marks(b: &BookMove) -> Value {
    json!({"value": b.value, "depth": b.depth, "count": b.count})
}

/// `/api/explore` ([`api::explore`]), with a book: each move gets `book`, its value, depth and
/// count (`null` when the book lacks it), as `shogi explore --book --format json` gives them,
/// and `book_only` lists the legal book moves no game of the selection played (`usi`, `move`
/// in the notation asked for, `book`), in the book's order. Without a book, the table alone.
pub fn explore_marked(
    db: &Db,
    book: Option<&dyn BookLookup>,
    p: &Params,
) -> Result<Value, ApiError> {
    let table = api::explore(db, p)?;
    let mut v = serde_json::to_value(&table).map_err(|e| ApiError::internal(e.to_string()))?;
    let Some(book) = book else {
        return Ok(v);
    };
    let target = p.position()?.end;
    let notation = p.notation()?;
    let moves = book.moves(&target).map_err(ApiError::internal)?;
    let usi: Vec<String> = moves.iter().map(|b| b.mv.to_usi()).collect();
    let mut played = vec![false; moves.len()];
    for m in v["moves"].as_array_mut().into_iter().flatten() {
        let found = usi
            .iter()
            .position(|u| m["usi"].as_str() == Some(u.as_str()));
        m["book"] = found.map_or(Value::Null, |i| {
            played[i] = true;
            marks(&moves[i])
        });
    }
    let only: Vec<Value> = moves
        .iter()
        .zip(&usi)
        .zip(&played)
        .filter(|((b, _), seen)| !**seen && target.is_legal(b.mv))
        .map(|((b, u), _)| {
            json!({"usi": u, "move": move_text(&target, b.mv, None, notation), "book": marks(b)})
        })
        .collect();
    v["book_only"] = Value::Array(only);
    Ok(v)
}
