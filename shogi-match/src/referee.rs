//! The referee: a [`Game`] under our rules that takes each engine answer and decides when and
//! how the game ends.
//!
//! The rules, in the order they are checked after every move:
//!
//! 1. four-fold repetition (the same board, hands and side to move for the fourth time; the
//!    start position counts): a draw, or a loss for the side that gave check with every one
//!    of its moves since the first occurrence (perpetual check);
//! 2. no legal move for the side to move: it loses (checkmate, or no move at all);
//! 3. the move limit: when `max_plies` moves have been played (opening moves included) and
//!    the game has not ended by 1 or 2, it is a draw; the move after that is never asked for,
//!    and a mate given by the last allowed move counts (ENGINE-FACTS §5.1: cshogi's
//!    `--draw`, WCSC's rule). The default is 320 (WCSC29, CSA V3 `$MAX_MOVES:320`);
//!    Floodgate uses 256;
//! 4. adjudication by score, when asked for: the side to move loses when its own last K
//!    scores were all ≤ −CP and its opponent's last K scores all ≥ CP (both engines agree;
//!    `resign`); the game is drawn when both engines' last K scores were all within ±CP
//!    (`draw`). A mate score counts as beyond any CP; a move without score breaks the run.
//!
//! An engine answer ends the game when it is `resign`, `win` (an entering-king declaration,
//! judged by the 27-point rule or the 24-point rule: a false declaration loses, the 24-point
//! rule's 24–30 band draws), or a move that is not legal by our rules (not a USI move, nifu,
//! pawn-drop mate, leaving the king in check, a dead piece, …): the mover loses, 反則負け.
//! Time-up, a crash and a hang are reported by the caller ([`Referee::fail`]).
//!
//! The referee takes the answer as the engine layer judged it ([`Answer`]: shogi-usi checks
//! every `bestmove` on the position it was asked, with shogi-core's rules, and judges `win`
//! by the match's rule); it parses no text and judges neither a move nor a declaration again.
//! Moves from elsewhere (tests, a replay) enter typed through [`Referee::play`].

use serde::Serialize;
use shogi_core::{
    Color, Declaration, DeclarationResult, Game, ImpasseRule, Move, PlayError, Position, Score,
};
use shogi_usi::{BestMove, Illegality};
use std::fmt;

/// What the engine to move answered, as the engine layer (shogi-usi) judged it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `bestmove <move>`: a move the engine layer checked legal in the referee's position
    /// ([`BestMove::Move`]).
    Move(Move),
    /// `bestmove resign`.
    Resign,
    /// `bestmove win`: the entering-king declaration as the engine layer judged it
    /// ([`BestMove::Win`]), under the match's rule ([`Rules::declaration`], which the match
    /// gives its engines).
    Win(Declaration),
    /// `bestmove <text>` that is no legal move here
    /// ([`shogi_usi::EngineErrorKind::IllegalMove`]): the mover loses.
    Illegal {
        /// The move as the engine wrote it.
        text: String,
        /// Why it is not legal, as the engine layer decided.
        why: Illegality,
    },
}

impl From<BestMove> for Answer {
    fn from(b: BestMove) -> Answer {
        match b {
            BestMove::Move(m) => Answer::Move(m),
            BestMove::Resign => Answer::Resign,
            BestMove::Win(d) => Answer::Win(d),
        }
    }
}

/// What came with a move: its time and the engine's last score and PV.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveInfo {
    /// Time used, in milliseconds, as measured by us.
    pub time_ms: u64,
    /// The engine's last score (`multipv 1`), its own view (the mover's).
    pub eval: Option<Score>,
    /// The PV of that score, checked legal from the position the move was asked on (the
    /// first one usually the move played).
    pub pv: Vec<Move>,
    /// The depth of that search, when sent.
    pub depth: Option<u32>,
    /// The nodes of that search, when sent.
    pub nodes: Option<u64>,
    /// Remarks written in the record as comments of the move (e.g. that the engine was
    /// restarted before it).
    pub notes: Vec<String>,
}

/// Score adjudication: K moves of each engine at a score threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Adjudication {
    /// The threshold in centipawns.
    pub score: i32,
    /// How many consecutive moves of each engine.
    pub moves: u32,
}

/// The rules of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The move limit (plies, opening moves included); 0 = none.
    pub max_plies: u32,
    /// The declaration rule.
    pub declaration: ImpasseRule,
    /// Resign adjudication.
    pub resign: Option<Adjudication>,
    /// Draw adjudication.
    pub draw: Option<Adjudication>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            max_plies: 320,
            declaration: ImpasseRule::Points27,
            resign: None,
            draw: None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Termination {
    /// The side to move resigned.
    Resign,
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move but is not in check: it loses.
    NoLegalMoves,
    /// The side to move answered an illegal move.
    IllegalMove {
        /// The move as the engine wrote it.
        text: String,
        /// The rule it breaks.
        reason: String,
    },
    /// Four-fold repetition: a draw.
    Repetition,
    /// Four-fold repetition with perpetual check: the checker loses.
    PerpetualCheck {
        /// The side that checked throughout.
        checker: ColorName,
    },
    /// An entering-king declaration, judged.
    Declaration {
        /// The declarer's points.
        points: u32,
        /// Its pieces in the camp (king excluded).
        pieces_in_zone: u32,
        /// Whether its king stood in the camp.
        king_in_zone: bool,
        /// Whether it was in check.
        in_check: bool,
        /// The rule (27 or 24).
        rule: u32,
        /// The verdict for the declarer.
        verdict: String,
    },
    /// The move limit was reached: a draw.
    MaxPlies {
        /// The limit.
        limit: u32,
    },
    /// The side to move ran out of time.
    TimeUp {
        /// Time used, ms.
        elapsed_ms: u64,
        /// Time it had, ms (the margin not included).
        allowed_ms: u64,
        /// Whether it did not answer at all (hung), rather than answering late.
        no_answer: bool,
        /// With `no_answer`: the engine's last `info` line by then (its `time` is the engine's
        /// own account of how long it had searched).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_info: Option<String>,
    },
    /// The engine to move crashed or broke the protocol.
    EngineFailure {
        /// What happened.
        detail: String,
    },
    /// Adjudicated as a loss for the side to move.
    AdjudicatedLoss {
        /// Threshold.
        score: i32,
        /// Moves.
        moves: u32,
    },
    /// Adjudicated as a draw.
    AdjudicatedDraw {
        /// Threshold.
        score: i32,
        /// Moves.
        moves: u32,
    },
}

impl Termination {
    /// The kind's name (`resign`, `illegal_move`, `time_up`…): the `kind` field of its JSON
    /// form, and the key of the match summary's endings.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Resign => "resign",
            Termination::Checkmate => "checkmate",
            Termination::NoLegalMoves => "no_legal_moves",
            Termination::IllegalMove { .. } => "illegal_move",
            Termination::Repetition => "repetition",
            Termination::PerpetualCheck { .. } => "perpetual_check",
            Termination::Declaration { .. } => "declaration",
            Termination::MaxPlies { .. } => "max_plies",
            Termination::TimeUp { .. } => "time_up",
            Termination::EngineFailure { .. } => "engine_failure",
            Termination::AdjudicatedLoss { .. } => "adjudicated_loss",
            Termination::AdjudicatedDraw { .. } => "adjudicated_draw",
        }
    }
}

/// A colour, serialized as `black` / `white`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColorName(pub Color);

impl Serialize for ColorName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(color_name(self.0))
    }
}

/// `black` or `white`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The end of a game: who won and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    #[serde(serialize_with = "ser_winner")]
    pub winner: Option<Color>,
    /// The side to move when it ended.
    #[serde(serialize_with = "ser_color")]
    pub side_to_move: Color,
    /// Why.
    pub termination: Termination,
}

fn ser_winner<S: serde::Serializer>(w: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match w {
        Some(c) => s.serialize_str(color_name(*c)),
        None => s.serialize_str("draw"),
    }
}

fn ser_color<S: serde::Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(color_name(*c))
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stm = color_name(self.side_to_move);
        match &self.termination {
            Termination::Resign => write!(f, "{stm} resigned"),
            Termination::Checkmate => write!(f, "{stm} is checkmated"),
            Termination::NoLegalMoves => write!(f, "{stm} has no legal move"),
            Termination::IllegalMove { text, reason } => {
                write!(f, "{stm} played an illegal move {text}: {reason}")
            }
            Termination::Repetition => write!(f, "four-fold repetition (sennichite): draw"),
            Termination::PerpetualCheck { checker } => write!(
                f,
                "four-fold repetition with perpetual check by {}: {} loses",
                color_name(checker.0),
                color_name(checker.0)
            ),
            Termination::Declaration {
                points,
                pieces_in_zone,
                king_in_zone,
                in_check,
                rule,
                verdict,
            } => write!(
                f,
                "{stm} declared (entering king, {rule}-point rule): {points} points, \
                 {pieces_in_zone} pieces in the camp, king in the camp {king_in_zone}, \
                 in check {in_check}: {verdict}"
            ),
            Termination::MaxPlies { limit } => {
                write!(f, "the move limit of {limit} plies was reached: draw")
            }
            Termination::TimeUp {
                elapsed_ms,
                allowed_ms,
                no_answer,
                last_info,
            } => {
                if *no_answer {
                    write!(
                        f,
                        "{stm} lost on time: no answer after {elapsed_ms} ms (it had {allowed_ms} ms)"
                    )?;
                    match last_info {
                        Some(l) => write!(f, "; its last info: {l}"),
                        None => Ok(()),
                    }
                } else {
                    write!(
                        f,
                        "{stm} lost on time: {elapsed_ms} ms used, {allowed_ms} ms allowed"
                    )
                }
            }
            Termination::EngineFailure { detail } => write!(f, "{stm}'s engine failed: {detail}"),
            Termination::AdjudicatedLoss { score, moves } => write!(
                f,
                "adjudicated: {stm} loses (scores beyond {score} cp for {moves} moves of each engine)"
            ),
            Termination::AdjudicatedDraw { score, moves } => write!(
                f,
                "adjudicated: draw (scores within {score} cp for {moves} moves of each engine)"
            ),
        }
    }
}

/// One move played in the game (not the opening's), with what came with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// Its time and the engine's score.
    pub info: MoveInfo,
}

/// Why an opening cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningProblem {
    /// A move is illegal (1-based index).
    Illegal(usize, PlayError),
    /// The game is already over after the opening.
    Over(String),
}

impl fmt::Display for OpeningProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningProblem::Illegal(i, e) => write!(f, "opening move {i} is illegal: {e}"),
            OpeningProblem::Over(why) => write!(f, "the game is over after the opening: {why}"),
        }
    }
}

/// A game in progress under our rules.
#[derive(Clone, Debug)]
pub struct Referee {
    game: Game,
    rules: Rules,
    opening_plies: usize,
    played: Vec<Played>,
    /// Each colour's scores of its own moves, in order (`None` = no score).
    evals: [Vec<Option<Score>>; 2],
    outcome: Option<Outcome>,
}

impl Referee {
    /// A game from `start` after the opening moves `opening`.
    pub fn new(start: Position, opening: &[Move], rules: Rules) -> Result<Referee, OpeningProblem> {
        let mut game = Game::new(start);
        for (i, &m) in opening.iter().enumerate() {
            game.play(m)
                .map_err(|e| OpeningProblem::Illegal(i + 1, e))?;
        }
        let mut r = Referee {
            game,
            rules,
            opening_plies: opening.len(),
            played: Vec::new(),
            evals: [Vec::new(), Vec::new()],
            outcome: None,
        };
        r.judge_position();
        if let Some(o) = &r.outcome {
            return Err(OpeningProblem::Over(o.to_string()));
        }
        Ok(r)
    }

    /// The game so far (opening moves included).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// How many of the moves are the opening's.
    pub fn opening_plies(&self) -> usize {
        self.opening_plies
    }

    /// The moves played after the opening.
    pub fn played(&self) -> &[Played] {
        &self.played
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Takes the answer of the engine to move, as the engine layer judged it. Returns the
    /// outcome when the game is over (by this answer or by the position it leads to), `None`
    /// when play goes on.
    pub fn answer(&mut self, answer: &Answer, info: MoveInfo) -> Option<&Outcome> {
        if self.outcome.is_some() {
            return self.outcome.as_ref();
        }
        let us = self.side_to_move();
        match answer {
            Answer::Resign => self.end(Some(!us), Termination::Resign),
            Answer::Win(d) => self.declared(d),
            Answer::Illegal { text, why } => self.end(
                Some(!us),
                Termination::IllegalMove {
                    text: text.clone(),
                    reason: why.to_string(),
                },
            ),
            Answer::Move(m) => self.push(*m, info),
        }
        self.outcome.as_ref()
    }

    /// Plays a move that did not come from the engine layer (a test, a replay), checked by
    /// shogi-core's rules: an illegal one is refused (the game goes on unchanged), a legal one
    /// is played as an engine's. Returns the outcome when the game is over after it.
    pub fn play(&mut self, m: Move, info: MoveInfo) -> Result<Option<&Outcome>, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        self.position().check_move(m)?;
        self.push(m, info);
        Ok(self.outcome.as_ref())
    }

    /// Plays a legal move with what came with it, then judges the position it leads to.
    fn push(&mut self, m: Move, info: MoveInfo) {
        let mover = self.side_to_move();
        self.evals[mover.index()].push(info.eval);
        self.game.play_unchecked(m);
        self.played.push(Played { mv: m, info });
        self.judge_position();
    }

    /// Ends the game by a declaration of the side to move, with the verdict it carries.
    fn declared(&mut self, d: &Declaration) {
        let us = self.side_to_move();
        let (winner, verdict) = match d.result {
            DeclarationResult::Win => (Some(us), "the declarer wins"),
            DeclarationResult::Draw => (None, "draw (持将棋)"),
            DeclarationResult::Lose => (Some(!us), "false declaration: the declarer loses"),
        };
        let rule = match self.rules.declaration {
            ImpasseRule::Points27 => 27,
            ImpasseRule::Points24 => 24,
        };
        self.end(
            winner,
            Termination::Declaration {
                points: d.points,
                pieces_in_zone: d.pieces_in_zone,
                king_in_zone: d.king_in_zone,
                in_check: d.in_check,
                rule,
                verdict: verdict.to_string(),
            },
        )
    }

    /// Ends the game against the side to move (time-up, crash, hang): it loses.
    pub fn fail(&mut self, termination: Termination) -> &Outcome {
        if self.outcome.is_none() {
            let us = self.side_to_move();
            self.end(Some(!us), termination);
        }
        self.outcome.as_ref().expect("set just above")
    }

    fn end(&mut self, winner: Option<Color>, termination: Termination) {
        self.outcome = Some(Outcome {
            winner,
            side_to_move: self.side_to_move(),
            termination,
        });
    }

    fn judge_position(&mut self) {
        if let Some(r) = self.game.repetition() {
            match r.perpetual_checker {
                Some(c) => self.end(
                    Some(!c),
                    Termination::PerpetualCheck {
                        checker: ColorName(c),
                    },
                ),
                None => self.end(None, Termination::Repetition),
            }
            return;
        }
        let us = self.side_to_move();
        if !self.position().has_legal_moves() {
            let t = if self.position().is_check() {
                Termination::Checkmate
            } else {
                Termination::NoLegalMoves
            };
            self.end(Some(!us), t);
            return;
        }
        let plies = self.game.moves().len();
        if self.rules.max_plies > 0 && plies >= self.rules.max_plies as usize {
            self.end(
                None,
                Termination::MaxPlies {
                    limit: self.rules.max_plies,
                },
            );
            return;
        }
        if let Some(a) = self.rules.resign {
            let k = a.moves as usize;
            let ours = last_k(&self.evals[us.index()], k);
            let theirs = last_k(&self.evals[(!us).index()], k);
            if let (Some(ours), Some(theirs)) = (ours, theirs) {
                // A mate counts as beyond any threshold.
                if ours.iter().all(|e| e.centipawns(i32::MAX) <= -a.score)
                    && theirs.iter().all(|e| e.centipawns(i32::MAX) >= a.score)
                {
                    self.end(
                        Some(!us),
                        Termination::AdjudicatedLoss {
                            score: a.score,
                            moves: a.moves,
                        },
                    );
                    return;
                }
            }
        }
        if let Some(a) = self.rules.draw {
            let k = a.moves as usize;
            let within = |v: Option<Vec<Score>>| {
                v.is_some_and(|v| {
                    v.iter()
                        .all(|e| matches!(e, Score::Cp(c) if c.abs() <= a.score))
                })
            };
            if within(last_k(&self.evals[0], k)) && within(last_k(&self.evals[1], k)) {
                self.end(
                    None,
                    Termination::AdjudicatedDraw {
                        score: a.score,
                        moves: a.moves,
                    },
                );
            }
        }
    }
}

/// The last `k` scores when there are `k` and all are known.
fn last_k(v: &[Option<Score>], k: usize) -> Option<Vec<Score>> {
    if k == 0 || v.len() < k {
        return None;
    }
    v[v.len() - k..].iter().copied().collect()
}

#[cfg(test)]
#[path = "referee_tests.rs"]
mod tests;
