//! Reading the games to analyse: each selected game's positions and moves, its players, its
//! record (for annotated copies) and the evaluations its comments carry.

use crate::result::PosResult;
use crate::{Observer, Settings, Stage};
use shogi_batch::{DedupMode, Event, GameRow, Input, InputRecord, Reading, Selection};
use shogi_core::{Move, Position};
use shogi_kif::Record;
use std::ops::ControlFlow;
use std::path::PathBuf;

/// One game as read, with what the analysis needs.
#[derive(Default)]
pub(crate) struct GameIn {
    pub path: String,
    pub rel: PathBuf,
    pub index: u32,
    pub format: Option<shogi_kif::Format>,
    pub encoding: Option<shogi_kif::Encoding>,
    /// The positions of the main line (start first), up to a read error or foul.
    pub positions: Vec<Position>,
    /// The moves between them.
    pub moves: Vec<Move>,
    /// Why the game (or its rest) could not be read, and from which ply.
    pub error: Option<(Option<u32>, String)>,
    /// The players (sente, gote).
    pub players: [Option<String>; 2],
    /// The record, for annotation.
    pub record: Option<Record>,
    /// Results read from the comments (`from_comments`), per position.
    pub from_comments: Vec<Option<PosResult>>,
}

/// What a reading worker hands back.
struct Read {
    game: GameIn,
    keep: bool,
    key: u64,
    line: Option<String>,
    io: bool,
}

/// The game's positions, moves and (with `comments`) the evaluations its comments carry.
fn game_in(input: &Input, game: InputRecord, keep_record: bool, comments: bool) -> GameIn {
    let mut g = GameIn {
        path: input.name.clone(),
        rel: input.rel.clone(),
        index: game.index,
        format: game.format,
        encoding: game.encoding,
        error: game.error.as_ref().map(|e| {
            (
                e.ply,
                e.to_string().lines().next().unwrap_or("").to_string(),
            )
        }),
        ..GameIn::default()
    };
    let Some(record) = game.record else {
        return g;
    };
    g.players = [
        record.header.black().map(str::to_string),
        record.header.white().map(str::to_string),
    ];
    let mut pos = record.start_position().clone();
    g.positions.push(pos.clone());
    for node in record.main_line() {
        if node.foul.is_some() || pos.play(node.mv).is_err() {
            break;
        }
        g.moves.push(node.mv);
        g.positions.push(pos.clone());
    }
    if comments {
        let mut per: Vec<Option<PosResult>> = vec![None; g.positions.len()];
        for e in shogi_kif::eval::evaluations(&record) {
            let k = e.ply as usize;
            let Some(p) = g.positions.get(k) else {
                continue;
            };
            per[k] = Some(PosResult {
                best: e.pv_usi.first().cloned(),
                score: e
                    .score
                    .map(|s| s.to_view(shogi_core::Color::Black, p.side_to_move())),
                pv: e.pv_usi.clone(),
                depth: e.depth,
                nodes: e.nodes,
                others: Vec::new(),
                warning: e.engine.map(|n| format!("engine={n}")),
                error: None,
            });
        }
        g.from_comments = per;
    }
    if keep_record {
        g.record = Some(record);
    }
    g
}

fn read_one(
    input: &Input,
    game: InputRecord,
    selection: &Selection,
    dedup: Option<DedupMode>,
    keep_record: bool,
    comments: bool,
) -> Read {
    let io = game
        .error
        .as_ref()
        .is_some_and(|e| e.kind == shogi_kif::ErrorKind::Io);
    let mut row = GameRow::new(&input.name, &game);
    if let Some(rules) = selection.tag_rules() {
        row.set_tags(&game, rules, false);
    }
    let keep = selection.matches(&row, |want| game.reached(want));
    let (key, line) = match &game.record {
        Some(rec) if keep && dedup.is_some() => (
            shogi_batch::game_key(rec),
            (dedup == Some(DedupMode::Prefix)).then(|| shogi_batch::line_text(rec)),
        ),
        _ => (0, None),
    };
    let game = if keep {
        game_in(input, game, keep_record, comments)
    } else {
        // Not kept: nothing of it is needed.
        GameIn::default()
    };
    Read {
        game,
        keep,
        key,
        line,
        io,
    }
}

/// Reads every selected game in input order, without the copies `dedup` drops; and whether
/// an input could not be read.
pub(crate) fn read_games(
    settings: &Settings,
    inputs: &[Input],
    reading: &Reading<'_>,
    read_pool: &rayon::ThreadPool,
    observer: &mut dyn Observer,
) -> (Vec<GameIn>, bool) {
    let (selection, dedup) = (&settings.selection, settings.dedup);
    let keep_record = settings.annotate_dir.is_some();
    let mut games: Vec<GameIn> = Vec::new();
    let mut io_failed = false;
    let mut exact = shogi_batch::Dedup::new();
    let mut held_lines: Vec<String> = Vec::new();
    let total_inputs = inputs.len() as u64;
    let mut inputs_done = 0u64;
    let _ = shogi_batch::run(
        inputs,
        reading,
        read_pool,
        |input, game| {
            read_one(
                input,
                game,
                selection,
                dedup,
                keep_record,
                settings.from_comments,
            )
        },
        |_, event| {
            match event {
                Event::InputDone => {
                    inputs_done += 1;
                    observer.progress(Stage::Reading, inputs_done, total_inputs);
                }
                Event::Game(r) => {
                    io_failed |= r.io;
                    if !r.keep {
                        return ControlFlow::Continue(());
                    }
                    match dedup {
                        Some(DedupMode::Exact)
                            if r.game.record.is_some() || !r.game.positions.is_empty() =>
                        {
                            let id = format!("{}#{}", r.game.path, r.game.index);
                            if r.game.error.is_none() && exact.check(r.key, &id).is_some() {
                                return ControlFlow::Continue(());
                            }
                        }
                        Some(DedupMode::Prefix) => {
                            held_lines.push(r.line.unwrap_or_else(|| {
                                format!("\u{0}{}#{}", r.game.path, r.game.index)
                            }));
                        }
                        _ => {}
                    }
                    games.push(r.game);
                }
            }
            ControlFlow::Continue(())
        },
    );
    observer.stage_done(Stage::Reading);
    if dedup == Some(DedupMode::Prefix) {
        let dups = shogi_batch::duplicates(&held_lines, DedupMode::Prefix);
        games = games
            .into_iter()
            .zip(dups)
            .filter(|(_, d)| d.is_none())
            .map(|(g, _)| g)
            .collect();
    }
    (games, io_failed)
}
