//! Loading games into the database: records read and replayed on the worker threads, one
//! writer (the calling thread) taking their results in input order over a bounded channel,
//! and the position rows gathered in memory, sorted by key in parallel and written in key
//! order (appending to the clustered `positions` tree instead of splitting its pages).

use crate::key::{check_of, check_sum, check_sum_after, position_key};
use crate::rows::Positions;
use crate::schema;
use crate::tags::TagWriter;
use rusqlite::Connection;
use rusqlite::types::Value;
use shogi_batch::{Event, GameRow, Input, InputRecord, Reading};
use shogi_core::Move;
use std::ops::ControlFlow;

/// Where an index run is, for a progress display (see [`crate::index_with`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexProgress {
    /// Files read so far (of those to read).
    pub files_done: u64,
    /// Files to read (new or changed).
    pub files_total: u64,
    /// Games written so far.
    pub games: u64,
    /// What is being done: `reading`, `positions` (sorting and writing the position rows)
    /// or `indexes` (building the secondary indexes of a new database).
    pub stage: &'static str,
}

/// What one game becomes in the database (made on a worker thread).
pub(crate) struct Entry {
    values: Vec<Value>,
    valid: bool,
    /// Key and check key of each position of the main line (one more than the moves).
    keys: Vec<(i64, i32)>,
    moves: Vec<Move>,
    /// The moves in USI, separated by spaces (`games.moves`).
    text: String,
    /// Its openings and castles (`None`: the taxonomy does not apply).
    tags: Option<shogi_openings::GameTags>,
}

/// The main line of a record as played: key and check key of each position (one more than
/// the moves) and the moves, up to a declared foul move (which cannot be played).
fn line_of(record: &shogi_kif::Record) -> (Vec<(i64, i32)>, Vec<Move>) {
    let mut pos = record.start_position().clone();
    let n = record.moves.moves.len();
    let mut keys = Vec::with_capacity(n + 1);
    let mut moves = Vec::with_capacity(n);
    // The check key is updated move by move (a sum over the board per position cost more
    // than reading the record).
    let mut sum = check_sum(&pos);
    for node in &record.moves.moves {
        if node.foul.is_some() {
            break;
        }
        keys.push((position_key(&pos), check_of(sum) as i32));
        moves.push(node.mv);
        sum = check_sum_after(sum, &pos, node.mv);
        pos.play_unchecked(node.mv);
    }
    keys.push((position_key(&pos), check_of(sum) as i32));
    (keys, moves)
}

/// The work on one game (on a worker thread): its row, keys, line and (with `tags`) its
/// openings and castles.
pub(crate) fn entry(input: &Input, game: InputRecord, tags: bool) -> Entry {
    let (keys, moves) = game.record.as_ref().map(line_of).unwrap_or_default();
    let mut row = GameRow::new(&input.name, &game);
    if tags {
        // The tags `shogi stats --tags` gives the game (typed; no tag column is filled).
        row.set_tags(&game, crate::tags::rules(), false);
    }
    let tags = row.tags.take();
    let mut text = String::with_capacity(moves.len() * 5);
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text.push_str(m.usi().as_str());
    }
    Entry {
        values: schema::row_values(&row),
        valid: row.valid,
        keys,
        moves,
        text,
        tags,
    }
}

/// What [`load`] needs besides the connection.
pub(crate) struct LoadJob<'a> {
    pub inputs: &'a [Input],
    /// The `files.id` of each input.
    pub file_ids: &'a [i64],
    pub reading: &'a Reading<'a>,
    pub pool: &'a rayon::ThreadPool,
    /// Commit every this many games (a new database only; 0: one transaction).
    pub batch: u64,
    /// Position rows held in memory at most (more are spilled to files).
    pub memory_rows: usize,
    /// The folder for spilled position rows (created only when needed).
    pub spill_dir: std::path::PathBuf,
    /// Test hook: abort the process after writing this many games.
    pub abort_after: Option<u64>,
    /// Whether the games' openings and castles are recognised and stored.
    pub tags: bool,
}

/// Counts of a load.
#[derive(Default)]
pub(crate) struct Loaded {
    pub games: u64,
    pub invalid: u64,
    pub positions: u64,
}

/// Reads `job.inputs` and writes their games and positions; `progress` is told after each
/// file and before the positions are written.
pub(crate) fn load(
    conn: &Connection,
    job: &LoadJob<'_>,
    progress: &mut dyn FnMut(IndexProgress),
) -> rusqlite::Result<Loaded> {
    let cols = shogi_batch::COLUMNS.join(", ");
    let marks = vec!["?"; shogi_batch::COLUMNS.len() + 3].join(", ");
    let insert_game = format!("INSERT INTO games (id, file_id, {cols}, moves) VALUES ({marks})");
    let mut next_id: i64 =
        conn.query_row("SELECT coalesce(max(id), 0) + 1 FROM games", [], |r| {
            r.get(0)
        })?;
    let mut positions = Positions::new(job.memory_rows, job.spill_dir.clone());
    // Tags are stored only where every game has them: in a new database, or one whose games
    // all had theirs recognised.
    let with_tags = job.tags && (next_id == 1 || crate::tags::stored(conn)?);
    let tags = match with_tags {
        true => Some(TagWriter::new(conn)?),
        false => {
            crate::tags::forget(conn)?;
            None
        }
    };
    let mut loaded = Loaded::default();
    let mut state = IndexProgress {
        files_total: job.inputs.len() as u64,
        stage: "reading",
        ..IndexProgress::default()
    };
    let mut games_in_file = 0i64;
    let mut failure = None;
    let (tx, rx) = std::sync::mpsc::sync_channel::<Event<Entry>>(2048);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            shogi_batch::run(
                job.inputs,
                job.reading,
                job.pool,
                |input, game| entry(input, game, with_tags),
                |_, event| match tx.send(event) {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(_) => ControlFlow::Break(()),
                },
            )
        });
        let receiver = rx;
        for event in receiver.iter() {
            let step = || -> rusqlite::Result<()> {
                let i = state.files_done as usize;
                let file_id = job.file_ids.get(i).copied().unwrap_or_default();
                match event {
                    Event::Game(e) => {
                        let game = u32::try_from(next_id).map_err(|_| {
                            rusqlite::Error::ToSqlConversionFailure("more than 2^32 games".into())
                        })?;
                        next_id += 1;
                        let mut st = conn.prepare_cached(&insert_game)?;
                        st.raw_bind_parameter(1, game)?;
                        st.raw_bind_parameter(2, file_id)?;
                        for (k, v) in e.values.iter().enumerate() {
                            st.raw_bind_parameter(k + 3, v)?;
                        }
                        st.raw_bind_parameter(e.values.len() + 3, &e.text)?;
                        st.raw_execute()?;
                        if let Some(t) = &tags {
                            t.write(conn, game, e.tags.as_ref())?;
                        }
                        positions.push(game, &e.keys, &e.moves)?;
                        loaded.games += 1;
                        loaded.invalid += u64::from(!e.valid);
                        loaded.positions += e.keys.len() as u64;
                        games_in_file += 1;
                        state.games = loaded.games;
                        if job.abort_after.is_some_and(|n| loaded.games >= n) {
                            std::process::abort();
                        }
                        if job.batch > 0 && loaded.games % job.batch == 0 {
                            conn.execute_batch("COMMIT; BEGIN")?;
                        }
                    }
                    Event::InputDone => {
                        conn.prepare_cached("UPDATE files SET games = ?1 WHERE id = ?2")?
                            .execute([games_in_file, file_id])?;
                        games_in_file = 0;
                        state.files_done += 1;
                        progress(state);
                    }
                }
                Ok(())
            };
            if let Err(e) = step() {
                failure = Some(e);
                break;
            }
        }
        // Dropping the receiver stops the reader at its next game.
        drop(receiver);
    });
    if let Some(e) = failure {
        return Err(e);
    }
    state.stage = "positions";
    progress(state);
    positions.write(conn)?;
    Ok(loaded)
}
