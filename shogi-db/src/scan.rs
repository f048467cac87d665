//! `find` and `explore` without a database: every game of the records replayed.

use crate::error::DbError;
use crate::hit::{Found, Hit};
use shogi_batch::{Event, Reading, Selection, expand, select_row};
use shogi_core::Position;
use std::ops::ControlFlow;

/// The same search without a database: every game under `paths` replayed, every position
/// compared (by key, confirmed by board, hands and side to move).
pub fn scan(
    paths: &[impl AsRef<str>],
    target: &Position,
    selection: &Selection,
    limit: Option<usize>,
    jobs: Option<usize>,
) -> Result<Found, DbError> {
    let selection = &selection.clone().mover(target.side_to_move());
    let inputs = expand(paths).map_err(|e| DbError::new(&e.path, e.reason))?;
    let pool = shogi_batch::pool(jobs).map_err(|e| DbError::new("--jobs", e))?;
    let key = target.key();
    let mut hits = Vec::new();
    let _ = shogi_batch::run(
        &inputs,
        &Reading::default(),
        &pool,
        |input, game| {
            let rec = game.record.as_ref()?;
            let mut pos = rec.start_position().clone();
            let mut found: Vec<(u32, Option<shogi_core::Move>)> = Vec::new();
            let moves = &rec.moves.moves;
            let mut ply = 0usize;
            loop {
                let next = moves.get(ply).filter(|m| m.foul.is_none());
                if pos.key() == key && pos.same_position(target) {
                    found.push((ply as u32, next.map(|m| m.mv)));
                }
                let Some(node) = next else { break };
                pos.play_unchecked(node.mv);
                ply += 1;
            }
            if found.is_empty() {
                return None;
            }
            // The selection's tags recognised, as `stats` does (tag filters included).
            let row = select_row(input, &game, selection)?;
            Some((row, found))
        },
        |_, event| {
            if let Event::Game(Some((row, found))) = event {
                for (ply, next_move) in found {
                    hits.push(Hit {
                        row: row.clone(),
                        ply,
                        next_move,
                    });
                }
            }
            ControlFlow::Continue(())
        },
    );
    Ok(Found::sorted(hits, limit))
}
