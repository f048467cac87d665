//! What a search gives back: the checked best move, each line's final info, mate answers, and
//! a game's result for `gameover`. A leaf of the engine module.

use crate::error::{EngineError, Illegality};
use shogi_core::score::PovScore;
use shogi_core::{Declaration, Move, Position};
use std::time::{Duration, Instant};

/// The engine's chosen move, checked on our position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// A legal move.
    Move(Move),
    /// `bestmove resign`.
    Resign,
    /// `bestmove win`: a declaration, judged by our rule (the verdict is in
    /// [`Declaration::result`]; a false claim is `Lose`).
    Win(Declaration),
}

/// Where a PV stopped being legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvCut {
    /// Index in the engine's PV of the first move dropped (0-based).
    pub index: usize,
    /// That move as written.
    pub text: String,
    /// Why it is not legal there.
    pub reason: String,
    /// Why it is not legal there, typed.
    pub why: Illegality,
}

/// The final `info` of one multipv line, checked on our position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchLine {
    /// 1 = the best line.
    pub multipv: u32,
    /// The score with both views, if the engine gave one.
    pub score: Option<PovScore>,
    /// The PV up to its first illegal move.
    pub pv: Vec<Move>,
    /// Where and why the PV was cut, if it was.
    pub pv_cut: Option<PvCut>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `time` in ms.
    pub time_ms: Option<u64>,
    /// `hashfull` (per mille).
    pub hashfull: Option<u32>,
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct Search {
    /// The position searched (after the moves given).
    pub position: Position,
    /// The engine's answer.
    pub bestmove: BestMove,
    /// The ponder move, when given and legal after the best move.
    pub ponder: Option<Move>,
    /// The final info of each multipv line, best first (empty when the engine sent none).
    pub lines: Vec<SearchLine>,
    /// The largest `nodes` any info of this search reported.
    pub nodes: Option<u64>,
    /// Wall time from writing `go` to reading `bestmove`, measured by us.
    pub elapsed: Duration,
    /// When the reader thread read the `bestmove` line (to measure our own overhead).
    pub bestmove_read_at: Instant,
    /// `info string` texts of this search (the last 16).
    pub strings: Vec<String>,
    /// Things noticed but not fatal (an illegal ponder move, malformed info fields).
    pub warnings: Vec<String>,
    /// When [`Engine::search_with_retry`] restarted the engine, the error of the first try.
    pub retried: Option<Box<EngineError>>,
}

impl Search {
    /// The best line (multipv 1), if the engine sent an info.
    pub fn best_line(&self) -> Option<&SearchLine> {
        self.lines.first()
    }

    /// The score of the best line, if any.
    pub fn score(&self) -> Option<PovScore> {
        self.best_line().and_then(|l| l.score)
    }
}

/// The answer to `go mate`, checked on our position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A mating line, every move legal.
    Mate(Vec<Move>),
    /// `checkmate nomate`.
    NoMate,
    /// `checkmate timeout`.
    Timeout,
    /// `checkmate notimplemented`.
    NotImplemented,
}

/// The result word of `gameover`, from the engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `gameover win`.
    Win,
    /// `gameover lose`.
    Lose,
    /// `gameover draw`.
    Draw,
}
