//! `--summary opening`: games, wins and average length by main 戦型, overall or per player.

use crate::row::{GameRow, main_name};
use serde::Serialize;
use shogi_kif::Winner;
use shogi_openings::{GameTags, RuleSet};
use std::collections::HashMap;

/// The name a game is counted under: its main 戦型, `力戦` where no opening fits, the game's
/// class where openings formed but none names a 戦型, `none` where the taxonomy does not
/// apply (Mini Shogi, most handicaps) or the game could not be read.
pub fn opening_name<'r>(tags: Option<&GameTags>, rules: &'r RuleSet) -> &'r str {
    tags.map_or("none", |t| {
        main_name(t, rules).unwrap_or(t.class.japanese())
    })
}

/// Counts of one group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    games: u64,
    sente_wins: u64,
    gote_wins: u64,
    draws: u64,
    /// With a player: the player's wins and losses.
    wins: u64,
    losses: u64,
    plies: u64,
}

/// One line of `--summary opening`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningLine {
    /// With `--player`: the name as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The main 戦型 ([`opening_name`]).
    pub opening: String,
    /// Games counted.
    pub games: u64,
    /// Games sente won.
    pub sente_wins: u64,
    /// Games gote won.
    pub gote_wins: u64,
    /// Games drawn (a game without a result is counted in `games` only).
    pub draws: u64,
    /// With `--player`: games the player won.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<u64>,
    /// With `--player`: games the player lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losses: Option<u64>,
    /// Average main-line length in plies, to one decimal.
    pub average_plies: f64,
}

/// Totals by main 戦型; with players, by player and main 戦型 (a game counts for each player
/// whose name one side's contains, on that side; sente's first when both do).
#[derive(Clone, Debug)]
pub struct OpeningSummary {
    rules: &'static RuleSet,
    /// The players as given, and lower-cased for matching.
    players: Vec<(String, String)>,
    groups: HashMap<(usize, String), Tally>,
}

impl OpeningSummary {
    /// A summary over `rules`' names; `players` (none: one row per 戦型) as `--player` takes them.
    pub fn new(rules: &'static RuleSet, players: &[String]) -> OpeningSummary {
        OpeningSummary {
            rules,
            players: players
                .iter()
                .map(|p| (p.clone(), p.to_lowercase()))
                .collect(),
            groups: HashMap::new(),
        }
    }

    /// Counts a row (its tags recognised with the same rules: [`GameRow::set_tags`]).
    pub fn add(&mut self, row: &GameRow) {
        let name = opening_name(row.tags.as_ref(), self.rules);
        let mut count = |player: usize, side: Option<Winner>| {
            let t = self.groups.entry((player, name.to_string())).or_default();
            t.games += 1;
            t.plies += u64::from(row.plies);
            match row.winner {
                Winner::Sente => t.sente_wins += 1,
                Winner::Gote => t.gote_wins += 1,
                Winner::Draw => t.draws += 1,
                Winner::None => {}
            }
            if let Some(side) = side {
                let decided = matches!(row.winner, Winner::Sente | Winner::Gote);
                t.wins += u64::from(decided && row.winner == side);
                t.losses += u64::from(decided && row.winner != side);
            }
        };
        if self.players.is_empty() {
            count(0, None);
            return;
        }
        let has = |name: &Option<String>, p: &str| {
            name.as_ref().is_some_and(|n| n.to_lowercase().contains(p))
        };
        for i in 0..self.players.len() {
            let p = &self.players[i].1;
            let side = if has(&row.sente, p) {
                Winner::Sente
            } else if has(&row.gote, p) {
                Winner::Gote
            } else {
                continue;
            };
            count(i, Some(side));
        }
    }

    /// The lines: by player (in the order given), then most games first, then by name.
    pub fn lines(&self) -> Vec<OpeningLine> {
        let mut groups: Vec<(&(usize, String), &Tally)> = self.groups.iter().collect();
        groups.sort_by(|a, b| {
            (a.0.0, std::cmp::Reverse(a.1.games), &a.0.1).cmp(&(
                b.0.0,
                std::cmp::Reverse(b.1.games),
                &b.0.1,
            ))
        });
        let with_player = !self.players.is_empty();
        groups
            .into_iter()
            .map(|((player, opening), t)| OpeningLine {
                player: with_player.then(|| self.players[*player].0.clone()),
                opening: opening.clone(),
                games: t.games,
                sente_wins: t.sente_wins,
                gote_wins: t.gote_wins,
                draws: t.draws,
                wins: with_player.then_some(t.wins),
                losses: with_player.then_some(t.losses),
                average_plies: (t.plies as f64 / t.games.max(1) as f64 * 10.0).round() / 10.0,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::tests::read_one;

    type PlayerRow = (String, String, u64, Option<u64>, Option<u64>);

    fn row(text: &str) -> GameRow {
        let game = read_one(text);
        let mut row: GameRow = GameRow::new("t", &game);
        row.set_tags(&game, RuleSet::builtin(), false);
        row
    }

    #[test]
    fn by_opening_and_player() {
        let shiken = "先手：羽生\n後手：谷川\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ６八飛(28)\n   4 投了\n";
        let shiken_lost = "先手：谷川\n後手：羽生\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ６八飛(28)\n   4 ８四歩(83)\n   5 投了\n";
        let rikisen = "先手：羽生\n後手：森内\n   1 １六歩(17)\n   2 投了\n";
        let mini = "手合割：二枚落ち\n下手：羽生\n   1 ６二銀(71)\n   2 投了\n";
        let rows: Vec<GameRow> = [shiken, shiken_lost, rikisen, mini]
            .iter()
            .map(|t| row(t))
            .collect();
        let mut all = OpeningSummary::new(RuleSet::builtin(), &[]);
        rows.iter().for_each(|r| all.add(r));
        let lines = all.lines();
        let got: Vec<(&str, u64, u64, u64, f64)> = lines
            .iter()
            .map(|l| {
                (
                    l.opening.as_str(),
                    l.games,
                    l.sente_wins,
                    l.gote_wins,
                    l.average_plies,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("四間飛車", 2, 1, 1, 3.5),
                ("none", 1, 0, 1, 1.0),
                ("力戦", 1, 1, 0, 1.0)
            ]
        );
        let json = serde_json::to_string(&lines[0]).unwrap();
        assert!(
            !json.contains("player") && !json.contains("wins\":null"),
            "{json}"
        );

        let mut per = OpeningSummary::new(RuleSet::builtin(), &["羽生".into(), "谷川".into()]);
        rows.iter().for_each(|r| per.add(r));
        let got: Vec<PlayerRow> = per
            .lines()
            .into_iter()
            .map(|l| (l.player.unwrap(), l.opening, l.games, l.wins, l.losses))
            .collect();
        let s = |a: &str, b: &str, g, w, l| (a.to_string(), b.to_string(), g, Some(w), Some(l));
        assert_eq!(
            got,
            [
                s("羽生", "四間飛車", 2, 2, 0),
                s("羽生", "none", 1, 0, 1),
                s("羽生", "力戦", 1, 1, 0),
                s("谷川", "四間飛車", 2, 0, 2),
            ]
        );
    }
}
