//! The opening explorer's counting: one tally of the moves played from a position, fed hit by
//! hit (from the index's rows or from collected hits), and the table made of it.

use crate::hit::Found;
use serde::Serialize;
use shogi_core::{Color, Position};
use shogi_kif::Winner;
use std::collections::HashMap;

/// A game named in the explorer: where it is and when it was played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRef {
    /// The game's input.
    pub path: String,
    /// Its number in the input.
    pub game: u32,
    /// Its start date (ISO 8601), if known.
    pub date: Option<String>,
}

/// One of a move's top games (`explore --top N`): the highest-rated games that played it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TopGame {
    /// The game's input.
    pub path: String,
    /// Its number in the input.
    pub game: u32,
    /// The mean of both players' ratings (`null` when either is unknown).
    pub rating: Option<f64>,
    /// Its start date (ISO 8601), if known.
    pub date: Option<String>,
}

impl TopGame {
    /// A game with these players' ratings and start.
    pub(crate) fn new(
        path: String,
        game: u32,
        ratings: [Option<f64>; 2],
        date: Option<String>,
    ) -> TopGame {
        let rating = match ratings {
            [Some(a), Some(b)] => Some(shogi_batch::average(a, b)),
            _ => None,
        };
        TopGame {
            path,
            game,
            rating,
            date,
        }
    }

    /// The order of top games: the higher mean rating first (a game lacking a rating after
    /// every game with both), then the later start (a game without a date after those with
    /// one), then (path, game).
    pub(crate) fn order(&self, other: &TopGame) -> std::cmp::Ordering {
        top_order(
            (
                self.rating,
                self.date.as_deref(),
                (self.path.as_str(), self.game),
            ),
            (
                other.rating,
                other.date.as_deref(),
                (other.path.as_str(), other.game),
            ),
        )
    }
}

/// [`TopGame::order`] on (mean rating, start, tiebreak), the tiebreak ascending: the one
/// order of the top games, for the hits and for the ranks stored in the buckets.
pub(crate) fn top_order<T: Ord>(
    a: (Option<f64>, Option<&str>, T),
    b: (Option<f64>, Option<&str>, T),
) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let rating = match (a.0, b.0) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    let date = match (a.1, b.1) {
        (Some(x), Some(y)) => y.cmp(x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    rating.then(date).then_with(|| a.2.cmp(&b.2))
}

/// Keeps `game` in `best` (in [`TopGame::order`]) if it is among the first `n`.
pub(crate) fn keep_top(best: &mut Vec<TopGame>, game: TopGame, n: usize) {
    if n == 0 {
        return;
    }
    let at = best.partition_point(|g| g.order(&game).is_lt());
    if at < n {
        best.insert(at, game);
        best.truncate(n);
    }
}

/// One move played from the position, with what came of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveLine {
    /// The move in USI.
    pub usi: String,
    /// The move in the notation asked for (see [`name_moves`]; USI until then).
    #[serde(rename = "move")]
    pub text: String,
    /// Games that played it from the position.
    pub games: u32,
    /// Of those, games won by sente.
    pub sente_wins: u32,
    /// Won by gote.
    pub gote_wins: u32,
    /// Drawn (repetition, impasse, …).
    pub draws: u32,
    /// Without a result (unfinished, aborted, unknown).
    pub unfinished: u32,
    /// Games won by the side that played the move, divided by `games`.
    pub win_rate: f64,
    /// The mean of the players' ratings, over the ratings known (none: `null`).
    pub avg_rating: Option<f64>,
    /// The most recent game with a date (the last by path and number among equals).
    pub recent: Option<GameRef>,
    /// With `explore --top N`: up to N games that played it, the highest-rated first (by
    /// the mean of both players' ratings, then the latest, then by path and number).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub top: Vec<TopGame>,
}

/// The opening explorer's answer: the moves played from a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explore {
    /// The position (SFEN without the move number).
    pub sfen: String,
    /// `sente` or `gote`.
    pub side_to_move: String,
    /// Games reaching the position.
    pub games: u32,
    /// Of those, games whose main line ends there.
    pub ended_here: u32,
    /// The moves played from it, most played first (then by USI).
    pub moves: Vec<MoveLine>,
}

impl MoveLine {
    /// A move not yet played by any game.
    pub(crate) fn new(usi: &str) -> MoveLine {
        MoveLine {
            usi: usi.to_string(),
            text: usi.to_string(),
            games: 0,
            sente_wins: 0,
            gote_wins: 0,
            draws: 0,
            unfinished: 0,
            win_rate: 0.0,
            avg_rating: None,
            recent: None,
            top: Vec::new(),
        }
    }
}

/// The counts of one move so far.
struct MoveTally<G> {
    line: MoveLine,
    /// The sum and number of the players' ratings known.
    ratings: (f64, u32),
    /// The newest date so far and the games of that date.
    newest: Option<(String, Vec<G>)>,
}

/// The explorer's counts, fed the hits of a position grouped by game (as the index's rows
/// and [`Found`] give them); `G` names a game (a database id, or path and number).
pub(crate) struct Tally<G> {
    by_move: HashMap<String, MoveTally<G>>,
    /// Top games kept per move.
    top: usize,
    games: u32,
    ended: u32,
    /// The game being read and the moves it has counted.
    current: Option<G>,
    counted: Vec<String>,
    ended_current: bool,
}

impl<G: PartialEq + Clone> Tally<G> {
    /// No hits yet; `top` games kept per move (see [`MoveLine::top`]).
    pub(crate) fn new(top: usize) -> Tally<G> {
        Tally {
            by_move: HashMap::new(),
            top,
            games: 0,
            ended: 0,
            current: None,
            counted: Vec::new(),
            ended_current: false,
        }
    }

    /// A hit of game `game` with next move `mv` (`None`: the line ends there): whether the
    /// move is still to be counted for the game (see [`Tally::count`]). A game counts once
    /// per distinct move it played from the position.
    pub(crate) fn hit(&mut self, game: &G, mv: Option<&str>) -> bool {
        if self.current.as_ref() != Some(game) {
            self.current = Some(game.clone());
            self.counted.clear();
            self.ended_current = false;
            self.games += 1;
        }
        let Some(mv) = mv else {
            if !self.ended_current {
                self.ended_current = true;
                self.ended += 1;
            }
            return false;
        };
        if self.counted.iter().any(|m| m == mv) {
            return false;
        }
        self.counted.push(mv.to_string());
        true
    }

    /// Whether top games are kept (then [`Tally::count`] wants each game's path and number).
    pub(crate) fn wants_top(&self) -> bool {
        self.top > 0
    }

    /// Counts move `mv` of game `game` (after [`Tally::hit`] said so): the game's winner
    /// (a sente or gote win, a draw, or no result), players' ratings and date; `at`, its
    /// path and number, for the top games (when [`Tally::wants_top`]).
    pub(crate) fn count(
        &mut self,
        game: G,
        mv: &str,
        winner: Winner,
        ratings: [Option<f64>; 2],
        date: Option<&str>,
        at: Option<(&str, u32)>,
    ) {
        let tally = match self.by_move.get_mut(mv) {
            Some(t) => t,
            None => self
                .by_move
                .entry(mv.to_string())
                .or_insert_with(|| MoveTally {
                    line: MoveLine::new(mv),
                    ratings: (0.0, 0),
                    newest: None,
                }),
        };
        tally.line.games += 1;
        match winner {
            Winner::Sente => tally.line.sente_wins += 1,
            Winner::Gote => tally.line.gote_wins += 1,
            Winner::Draw => tally.line.draws += 1,
            Winner::None => tally.line.unfinished += 1,
        }
        for x in ratings.into_iter().flatten() {
            tally.ratings.0 += x;
            tally.ratings.1 += 1;
        }
        if let Some((path, number)) = at.filter(|_| self.top > 0) {
            let g = TopGame::new(path.to_string(), number, ratings, date.map(str::to_string));
            keep_top(&mut tally.line.top, g, self.top);
        }
        if let Some(date) = date {
            match &mut tally.newest {
                Some((d, games)) if date == d.as_str() => games.push(game),
                Some((d, _)) if date < d.as_str() => {}
                _ => tally.newest = Some((date.to_string(), vec![game])),
            }
        }
    }

    /// The table of `target`; `recent` names the most recent game of a move from its date
    /// and the games of that date.
    pub(crate) fn table<E>(
        self,
        target: &Position,
        mut recent: impl FnMut(String, &[G]) -> Result<GameRef, E>,
    ) -> Result<Explore, E> {
        let mut lines = Vec::with_capacity(self.by_move.len());
        for (_, mut t) in self.by_move {
            if let Some((date, games)) = t.newest {
                t.line.recent = Some(recent(date, &games)?);
            }
            lines.push((t.line, t.ratings));
        }
        Ok(table(target, lines, self.games, self.ended))
    }
}

/// The explorer table from its move lines (with the sum and number of known ratings of
/// each): win rates, average ratings, most played first (then by USI).
pub(crate) fn table(
    target: &Position,
    lines: Vec<(MoveLine, (f64, u32))>,
    games: u32,
    ended_here: u32,
) -> Explore {
    let mover = target.side_to_move();
    let mut moves: Vec<MoveLine> = lines
        .into_iter()
        .map(|(mut line, (sum, n))| {
            let wins = match mover {
                Color::Black => line.sente_wins,
                Color::White => line.gote_wins,
            };
            line.win_rate = if line.games == 0 {
                0.0
            } else {
                f64::from(wins) / f64::from(line.games)
            };
            if n > 0 {
                line.avg_rating = Some(sum / f64::from(n));
            }
            line
        })
        .collect();
    moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.usi.cmp(&b.usi)));
    Explore {
        sfen: shogi_batch::start_text(&target.to_sfen()),
        side_to_move: match mover {
            Color::Black => "sente".into(),
            Color::White => "gote".into(),
        },
        games,
        ended_here,
        moves,
    }
}

/// The explorer table of `target` from its hits (see [`crate::Db::find`] and
/// [`crate::scan`], without a limit; the hits in their order, grouped by game). A game counts
/// once per distinct move it played from the position.
pub fn explore_hits(target: &Position, found: &Found) -> Explore {
    explore_hits_top(target, found, 0)
}

/// [`explore_hits`] with up to `top` top games per move ([`MoveLine::top`]).
pub fn explore_hits_top(target: &Position, found: &Found, top: usize) -> Explore {
    let mut tally: Tally<(&str, u32)> = Tally::new(top);
    // The tally keys moves by their USI text.
    let usi: Vec<Option<String>> = found
        .hits
        .iter()
        .map(|h| h.next_move.map(|m| m.to_usi()))
        .collect();
    for (h, mv) in found.hits.iter().zip(&usi) {
        let game = (h.row.path.as_str(), h.row.game);
        let mv = mv.as_deref();
        let new_move = tally.hit(&game, mv);
        if let Some(mv) = mv.filter(|_| new_move) {
            let ratings = [h.row.sente_rating, h.row.gote_rating];
            let date = h.row.start_iso.as_deref();
            tally.count(game, mv, h.row.winner, ratings, date, Some(game));
        }
    }
    // The last by path and number of the games of the newest date.
    let recent = |date: String, games: &[(&str, u32)]| {
        let (path, game) = games.iter().max().copied().unwrap_or_default();
        Ok::<_, std::convert::Infallible>(GameRef {
            path: path.to_string(),
            game,
            date: Some(date),
        })
    };
    match tally.table(target, recent) {
        Ok(table) => table,
        Err(never) => match never {},
    }
}

/// Names the moves of `table`, the explorer of `target`, in `notation` ([`MoveLine::text`]).
/// Moves are named from the position alone: a move to the previous move's square is written
/// with its square, not 同 (games reach the position by different moves).
pub fn name_moves(table: &mut Explore, target: &Position, notation: shogi_kif::notation::Notation) {
    for line in &mut table.moves {
        if let Ok(mv) = shogi_core::Move::from_usi(&line.usi) {
            line.text = shogi_kif::notation::move_text(target, mv, None, notation);
        }
    }
}
