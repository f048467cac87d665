//! Game results: absolute (hcpe) and from the side to move (psv).

use shogi_core::Color;
// ---------------------------------------------------------------------------------------------
// Results

/// A game's result, absolute: who won. hcpe's `gameResult` byte (0 draw, 1 sente won,
/// 2 gote won) is the same for every position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GameResult {
    /// A draw (or no result), byte 0.
    Draw = 0,
    /// Sente (black) won, byte 1.
    BlackWin = 1,
    /// Gote (white) won, byte 2.
    WhiteWin = 2,
}

/// A game's result from the point of view of the side to move in a position: psv's
/// `game_result` byte (1 won, -1 lost, 0 draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i8)]
pub enum RelativeResult {
    /// The side to move lost, byte -1.
    Loss = -1,
    /// A draw, byte 0.
    Draw = 0,
    /// The side to move won, byte 1.
    Win = 1,
}

impl GameResult {
    /// The result with this winner (`None` is a draw).
    pub const fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            None => GameResult::Draw,
            Some(Color::Black) => GameResult::BlackWin,
            Some(Color::White) => GameResult::WhiteWin,
        }
    }

    /// The winner, `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::Draw => None,
            GameResult::BlackWin => Some(Color::Black),
            GameResult::WhiteWin => Some(Color::White),
        }
    }

    /// The result seen by `side` (the side to move of a position).
    pub const fn relative_to(self, side: Color) -> RelativeResult {
        match self.winner() {
            None => RelativeResult::Draw,
            Some(c) if c as u8 == side as u8 => RelativeResult::Win,
            Some(_) => RelativeResult::Loss,
        }
    }

    /// The hcpe byte.
    pub const fn to_byte(self) -> u8 {
        self as u8
    }

    /// The result of an hcpe byte, `None` unless 0, 1 or 2.
    pub const fn from_byte(b: u8) -> Option<GameResult> {
        match b {
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::BlackWin),
            2 => Some(GameResult::WhiteWin),
            _ => None,
        }
    }
}

impl RelativeResult {
    /// The absolute result, given the side to move this result is relative to.
    pub const fn absolute(self, side: Color) -> GameResult {
        match self {
            RelativeResult::Draw => GameResult::Draw,
            RelativeResult::Win => GameResult::from_winner(Some(side)),
            RelativeResult::Loss => GameResult::from_winner(Some(side.opposite())),
        }
    }

    /// The psv byte (as `i8`).
    pub const fn to_byte(self) -> i8 {
        self as i8
    }

    /// The result of a psv byte, `None` unless -1, 0 or 1.
    pub const fn from_byte(b: i8) -> Option<RelativeResult> {
        match b {
            -1 => Some(RelativeResult::Loss),
            0 => Some(RelativeResult::Draw),
            1 => Some(RelativeResult::Win),
            _ => None,
        }
    }
}
