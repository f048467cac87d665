//! A game: a start position and the moves played, with four-fold repetition (sennichite),
//! perpetual check, and the entering-king declaration (入玉宣言).

use crate::moves::Move;
use crate::position::{Outcome, PlayError, Position};
use crate::types::{Color, Role};
use std::collections::HashMap;

/// What a four-fold repetition means for the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// The ply (number of moves played) at which the position occurred the first time.
    pub first_ply: usize,
    /// The ply at which it occurred the fourth time.
    pub fourth_ply: usize,
    /// The side that gave check with every one of its moves in between, if exactly one did.
    pub perpetual_checker: Option<Color>,
}

/// A start position, the moves played and the positions seen, for repetition detection.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// For each ply (0 = start): the key and whether the side to move was in check.
    history: Vec<(u64, bool)>,
    seen: HashMap<u64, (usize, u8)>,
    repetition: Option<Repetition>,
}

impl Game {
    /// A game from `start`.
    pub fn new(start: Position) -> Game {
        let mut seen = HashMap::new();
        seen.insert(start.key(), (0, 1));
        Game {
            history: vec![(start.key(), start.is_check())],
            position: start.clone(),
            start,
            moves: Vec::new(),
            seen,
            repetition: None,
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The four-fold repetition, once it has happened.
    pub fn repetition(&self) -> Option<Repetition> {
        self.repetition
    }

    /// Plays a move. Refused with the rule it breaks, or [`PlayError::GameOver`] once the game
    /// has ended (repetition, or no legal move).
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if self.repetition.is_some() {
            return Err(PlayError::GameOver);
        }
        if let Err(e) = self.position.check_move(m) {
            return Err(if self.position.has_legal_moves() {
                e
            } else {
                PlayError::GameOver
            });
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move known to be legal.
    pub fn play_unchecked(&mut self, m: Move) {
        self.position.play_unchecked(m);
        self.moves.push(m);
        let ply = self.moves.len();
        let key = self.position.key();
        self.history.push((key, self.position.is_check()));
        let entry = self.seen.entry(key).or_insert((ply, 0));
        entry.1 += 1;
        if entry.1 >= 4 && self.repetition.is_none() {
            let first = entry.0;
            self.repetition = Some(Repetition {
                first_ply: first,
                fourth_ply: ply,
                perpetual_checker: self.perpetual_checker(first, ply),
            });
        }
    }

    /// The side that gave check with every one of its moves from ply `from + 1` to `to`.
    fn perpetual_checker(&self, from: usize, to: usize) -> Option<Color> {
        let mut all_checks = [true, true];
        let mut any_move = [false, false];
        for ply in from + 1..=to {
            // The move that produced ply `ply` was made by the side to move at `ply - 1`.
            let mover = if (ply - 1) % 2 == 0 {
                self.start.side_to_move()
            } else {
                !self.start.side_to_move()
            };
            any_move[mover.index()] = true;
            if !self.history[ply].1 {
                all_checks[mover.index()] = false;
            }
        }
        let b = all_checks[0] && any_move[0];
        let w = all_checks[1] && any_move[1];
        match (b, w) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    }

    /// How the game stands: repetition (draw or perpetual-check loss), mate, no legal move.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(r) = self.repetition {
            return Some(match r.perpetual_checker {
                Some(c) => Outcome::PerpetualCheck { winner: !c },
                None => Outcome::Repetition,
            });
        }
        self.position.outcome()
    }
}

/// Which entering-king declaration rule applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImpasseRule {
    /// CSA / Floodgate rule: 28 points for sente, 27 for gote, or the declarer loses.
    Points27,
    /// JSA rule: 31 points or more wins, 24 to 30 is a draw, fewer loses.
    Points24,
}

/// The verdict on a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclarationResult {
    /// The declarer wins.
    Win,
    /// Draw (持将棋), 24-point rule only.
    Draw,
    /// The declarer loses.
    Lose,
}

/// What a declaration by the side to move would find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The declarer's king stands in the enemy camp.
    pub king_in_zone: bool,
    /// The declarer's pieces other than the king in the enemy camp.
    pub pieces_in_zone: u32,
    /// The declarer is in check.
    pub in_check: bool,
    /// Points: rooks and bishops (promoted or not) 5, other pieces 1, counted in the camp and in hand.
    pub points: u32,
    /// The verdict.
    pub result: DeclarationResult,
}

impl Position {
    /// Judges an entering-king declaration by the side to move under `rule` (standard shogi).
    pub fn declaration(&self, rule: ImpasseRule) -> Declaration {
        let us = self.side_to_move();
        let zone = self.variant().promotion_zone(us);
        let ours = self.by_color(us);
        let king_in_zone = self.king_square(us).is_some_and(|k| zone.contains(k));
        let value = |r: Role| match r.unpromote() {
            Role::Rook | Role::Bishop => 5,
            Role::King => 0,
            _ => 1,
        };
        let mut pieces_in_zone = 0;
        let mut points = 0;
        for sq in ours & zone {
            if let Some(p) = self.piece_at(sq) {
                if p.role != Role::King {
                    pieces_in_zone += 1;
                    points += value(p.role);
                }
            }
        }
        for (role, n) in self.hand(us).iter() {
            points += value(role) * n as u32;
        }
        let in_check = self.is_check();
        let ok = king_in_zone && pieces_in_zone >= 10 && !in_check;
        let result = match rule {
            ImpasseRule::Points27 => {
                let need = if us == Color::Black { 28 } else { 27 };
                if ok && points >= need {
                    DeclarationResult::Win
                } else {
                    DeclarationResult::Lose
                }
            }
            ImpasseRule::Points24 => {
                if !ok || points < 24 {
                    DeclarationResult::Lose
                } else if points >= 31 {
                    DeclarationResult::Win
                } else {
                    DeclarationResult::Draw
                }
            }
        };
        Declaration {
            king_in_zone,
            pieces_in_zone,
            in_check,
            points,
            result,
        }
    }
}
