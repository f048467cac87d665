//! The members of one archive: decoded in the archive's order on a thread of their own
//! (decompression of one stream is serial), read and worked on in parallel on the pool a
//! batch at a time, and handed over in the archive's order.

use super::{CHUNK_BYTES, CHUNK_PER_THREAD, Event, read_guarded};
use crate::archive::members::{Bytes, read_members};
use crate::input::Input;
use crate::read::{InputRecord, Reading, read_member};
use rayon::prelude::*;
use std::ops::ControlFlow;

/// Batches of members decoded ahead of the parsing (each at most a chunk).
const BATCHES_AHEAD: usize = 2;

/// Runs `work` on every game of `members` (inputs that are members of one archive, in its
/// order) and hands the results to `emit` in that order.
pub(super) fn run_members<T, W, E>(
    members: &[Input],
    reading: &Reading<'_>,
    pool: &rayon::ThreadPool,
    work: &W,
    emit: &mut E,
) -> ControlFlow<()>
where
    T: Send,
    W: Fn(&Input, InputRecord) -> T + Sync,
    E: FnMut(&Input, Event<T>) -> ControlFlow<()>,
{
    let Some(archive) = members[0].member.as_ref().map(|m| m.archive.clone()) else {
        return ControlFlow::Continue(());
    };
    let wanted: Vec<_> = members.iter().filter_map(|i| i.member.as_deref()).collect();
    let per_chunk = CHUNK_PER_THREAD * pool.current_num_threads().max(1);
    let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<(usize, Bytes)>>(BATCHES_AHEAD);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let (mut batch, mut bytes) = (Vec::new(), 0u64);
            read_members(&archive, &wanted, &mut |pos, b| {
                bytes += b.as_ref().map_or(0, |v| v.len() as u64);
                batch.push((pos, b));
                if batch.len() >= per_chunk || bytes >= CHUNK_BYTES {
                    bytes = 0;
                    if tx.send(std::mem::take(&mut batch)).is_err() {
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            });
            if !batch.is_empty() {
                let _ = tx.send(batch);
            }
        });
        // `rx` moves in here: dropped on a break, it stops the decoder.
        let read_one = |(pos, bytes): (usize, Bytes)| {
            let input = &members[pos];
            let mut out = Vec::new();
            let source =
                |each: &mut dyn FnMut(InputRecord)| read_member(input, bytes, reading, each);
            read_guarded(input, work, source, &mut |t| {
                out.push(t);
                ControlFlow::Continue(())
            });
            (pos, out)
        };
        for batch in rx {
            // With one worker the caller reads the batch itself (as `run_inputs` does).
            let results: Vec<(usize, Vec<T>)> = if pool.current_num_threads() == 1 {
                batch.into_iter().map(read_one).collect()
            } else {
                pool.install(|| batch.into_par_iter().map(read_one).collect())
            };
            for (pos, games) in results {
                let input = &members[pos];
                for t in games {
                    emit(input, Event::Game(t))?;
                }
                emit(input, Event::InputDone)?;
            }
        }
        ControlFlow::Continue(())
    })
}
