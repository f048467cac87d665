//! Generated collections for the database tests: seeded random legal games written as CSA
//! (players, dates, results, Floodgate ratings, some invalid games, several games per file),
//! and a brute-force reader that replays every game and compares positions as text.

#![allow(dead_code)]

use shogi_batch::filter_text as text;
use shogi_batch::{Event, GameRow, Input, Selection, expand, pool, run, select_row};
use shogi_core::{Move, Position, Variant};
use shogi_db::Explore;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::path::Path;

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal game from the start: the first `narrow` plies choose among the first two
/// legal moves (in USI order), so that games share openings and transpose.
pub fn random_game(rng: &mut Rng, plies: usize, narrow: usize) -> Vec<Move> {
    let mut pos = Position::startpos(Variant::Standard);
    let mut out = Vec::new();
    for ply in 0..plies {
        let mut legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if legal.is_empty() {
            break;
        }
        legal.sort_by_key(|m| m.to_usi());
        let m = if ply < narrow {
            legal[rng.below(2.min(legal.len()))]
        } else {
            legal[rng.below(legal.len())]
        };
        pos.play(m).unwrap();
        out.push(m);
    }
    out
}

/// One CSA game. `illegal` inserts an impossible move after that many plies.
pub fn csa_game(
    moves: &[Move],
    names: (&str, &str),
    date: Option<&str>,
    ending: &str,
    ratings: Option<(f64, f64)>,
    illegal: Option<usize>,
) -> String {
    let mut s = String::from("V2.2\n");
    s.push_str(&format!("N+{}\nN-{}\n", names.0, names.1));
    if let Some((b, w)) = ratings {
        s.push_str(&format!(
            "'black_rate:{}:{b:.1}\n'white_rate:{}:{w:.1}\n",
            names.0, names.1
        ));
    }
    if let Some(d) = date {
        s.push_str(&format!("$START_TIME:{d}\n"));
    }
    s.push_str("PI\n+\n");
    let mut pos = Position::startpos(Variant::Standard);
    for (i, m) in moves.iter().enumerate() {
        if illegal == Some(i) {
            let sign = if i % 2 == 0 { '+' } else { '-' };
            s.push_str(&format!("{sign}5555FU\n"));
        }
        let sign = if i % 2 == 0 { '+' } else { '-' };
        match *m {
            Move::Normal { from, to, promote } => {
                let role = pos.piece_at(from).unwrap().role;
                let role = if promote {
                    role.promote().unwrap()
                } else {
                    role
                };
                s.push_str(&format!("{sign}{}{}{}\n", from.csa(), to.csa(), role.csa()));
            }
            Move::Drop { role, to } => {
                s.push_str(&format!("{sign}00{}{}\n", to.csa(), role.csa()));
            }
        }
        pos.play(*m).unwrap();
    }
    s.push_str(ending);
    s.push('\n');
    s
}

/// Writes `files` CSA files of 1 to `max_games` games under `dir` (subfolders `a`, `b`).
pub fn write_collection(dir: &Path, seed: u64, files: usize, max_games: usize) {
    let mut rng = Rng(seed);
    let players = ["Tanaka", "Suzuki", "Sato", "Ito", "Kato"];
    for f in 0..files {
        let sub = dir.join(if f % 3 == 0 { "b" } else { "a" });
        std::fs::create_dir_all(&sub).unwrap();
        let n = 1 + rng.below(max_games);
        let mut text = String::new();
        for g in 0..n {
            if g > 0 {
                text.push_str("/\n");
            }
            let plies = 4 + rng.below(50);
            let moves = random_game(&mut rng, plies, 6);
            let a = players[rng.below(players.len())];
            let b = players[rng.below(players.len())];
            let date = (rng.below(5) > 0).then(|| {
                format!(
                    "2024/{:02}/{:02} 10:00:00",
                    1 + rng.below(12),
                    1 + rng.below(28)
                )
            });
            let ending = ["%TORYO", "%TORYO", "%TORYO", "%CHUDAN"][rng.below(4)];
            let ratings = (rng.below(2) == 0).then(|| {
                (
                    1500.0 + rng.below(1000) as f64,
                    1500.0 + rng.below(1000) as f64,
                )
            });
            let illegal = (rng.below(15) == 0).then(|| rng.below(moves.len() + 1));
            text.push_str(&csa_game(
                &moves,
                (a, b),
                date.as_deref(),
                ending,
                ratings,
                illegal,
            ));
        }
        std::fs::write(sub.join(format!("g{f:03}.csa")), text).unwrap();
    }
}

/// One position of one game, as the brute force sees it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub path: String,
    pub game: u32,
    pub ply: u32,
    /// Board, side to move, hands (SFEN without the move number).
    pub sfen: String,
    pub next: Option<String>,
    pub row: GameRow,
}

/// Every position of every main line under `paths`, replayed move by move and kept as text.
pub fn brute_force(paths: &[&str]) -> Vec<Seen> {
    brute_force_rows(paths, false)
}

/// [`brute_force`], with each row's openings and castles recognised (as `shogi stats
/// --tags` gives them) when `tags`.
pub fn brute_force_rows(paths: &[&str], tags: bool) -> Vec<Seen> {
    let inputs: Vec<Input> = expand(paths).unwrap();
    let mut out = Vec::new();
    let _ = run(
        &inputs,
        &Default::default(),
        &pool(Some(2)).unwrap(),
        |input, game| {
            let mut row = select_row(input, &game, &Selection::new())?;
            if tags {
                row.set_tags(&game, shogi_openings::RuleSet::builtin(), true);
            }
            let rec = game.record.as_ref()?;
            let mut pos = rec.start_position().clone();
            let mut seen = Vec::new();
            let text = |p: &Position| shogi_batch::start_text(&p.to_sfen());
            for (ply, node) in rec.moves.moves.iter().enumerate() {
                if node.foul.is_some() {
                    break;
                }
                seen.push((ply as u32, text(&pos), Some(node.mv.to_usi())));
                pos.play(node.mv)
                    .expect("the reader gave a legal main line");
            }
            let last = seen.len() as u32;
            seen.push((last, text(&pos), None));
            Some((row, seen))
        },
        |_, event| {
            if let Event::Game(Some((row, seen))) = event {
                for (ply, sfen, next) in seen {
                    out.push(Seen {
                        path: row.path.clone(),
                        game: row.game,
                        ply,
                        sfen,
                        next,
                        row: row.clone(),
                    });
                }
            }
            ControlFlow::Continue(())
        },
    );
    out
}

/// The explorer table of `sfen` counted from the stats rows `all` that `s` keeps.
pub fn brute(all: &[Seen], sfen: &str, s: &Selection) -> Explore {
    brute_top(all, sfen, s, 0)
}

/// [`brute`] with each move's first `top` games: the higher mean of both ratings first (a
/// game lacking one after all that have both), then the later start (undated last), then
/// by path and number.
pub fn brute_top(all: &[Seen], sfen: &str, s: &Selection, top: usize) -> Explore {
    let pos = text::position(sfen).unwrap();
    let s = s.clone().mover(pos.side_to_move());
    let mut games = BTreeSet::new();
    let mut ended = BTreeSet::new();
    let mut per: BTreeMap<String, BTreeMap<(String, u32), &Seen>> = BTreeMap::new();
    for h in all.iter().filter(|h| h.sfen == sfen) {
        if !s.matches(&h.row, |_| true) {
            continue;
        }
        let id = (h.path.clone(), h.game);
        games.insert(id.clone());
        match &h.next {
            None => {
                ended.insert(id);
            }
            Some(m) => {
                per.entry(m.clone()).or_default().insert(id, h);
            }
        }
    }
    let mut moves = Vec::new();
    for (usi, g) in per {
        let count = |w: &str| g.values().filter(|h| h.row.winner.name() == w).count() as u32;
        let ratings: Vec<f64> = g
            .values()
            .flat_map(|h| [h.row.sente_rating, h.row.gote_rating])
            .flatten()
            .collect();
        let recent = g
            .iter()
            .filter_map(|(id, h)| h.row.start_iso.clone().map(|d| (d, id.clone())))
            .max()
            .map(|(d, (path, game))| shogi_db::GameRef {
                path,
                game,
                date: Some(d),
            });
        let mut best: Vec<shogi_db::TopGame> = g
            .iter()
            .map(|((path, game), h)| shogi_db::TopGame {
                path: path.clone(),
                game: *game,
                rating: match (h.row.sente_rating, h.row.gote_rating) {
                    (Some(a), Some(b)) => Some((a + b) / 2.0),
                    _ => None,
                },
                date: h.row.start_iso.clone(),
            })
            .collect();
        best.sort_by(|a, b| {
            let r = match (a.rating, b.rating) {
                (Some(x), Some(y)) => y.partial_cmp(&x).unwrap(),
                (x, y) => y.is_some().cmp(&x.is_some()),
            };
            let d = match (&a.date, &b.date) {
                (Some(x), Some(y)) => y.cmp(x),
                (x, y) => y.is_some().cmp(&x.is_some()),
            };
            r.then(d)
                .then_with(|| (&a.path, a.game).cmp(&(&b.path, b.game)))
        });
        best.truncate(top);
        let games = g.len() as u32;
        let (sente, gote) = (count("sente"), count("gote"));
        let wins = if pos.side_to_move() == shogi_core::Color::Black {
            sente
        } else {
            gote
        };
        moves.push(shogi_db::MoveLine {
            text: usi.clone(),
            usi,
            games,
            sente_wins: sente,
            gote_wins: gote,
            draws: count("draw"),
            unfinished: count("none"),
            win_rate: f64::from(wins) / f64::from(games),
            avg_rating: (!ratings.is_empty())
                .then(|| ratings.iter().sum::<f64>() / ratings.len() as f64),
            recent,
            top: best,
        });
    }
    moves.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.usi.cmp(&b.usi)));
    Explore {
        sfen: sfen.to_string(),
        side_to_move: String::new(),
        games: games.len() as u32,
        ended_here: ended.len() as u32,
        moves,
    }
}

/// Asserts two tables equal (average ratings to rounding: sums are taken in another order).
pub fn same(got: &Explore, want: &Explore, what: &str) {
    assert_eq!(got.games, want.games, "{what}: games");
    assert_eq!(got.ended_here, want.ended_here, "{what}: ended here");
    assert_eq!(got.moves.len(), want.moves.len(), "{what}: moves");
    for (g, w) in got.moves.iter().zip(&want.moves) {
        let line = format!("{what} {}", w.usi);
        assert_eq!(
            (
                &g.usi,
                g.games,
                g.sente_wins,
                g.gote_wins,
                g.draws,
                g.unfinished
            ),
            (
                &w.usi,
                w.games,
                w.sente_wins,
                w.gote_wins,
                w.draws,
                w.unfinished
            ),
            "{line}"
        );
        assert!((g.win_rate - w.win_rate).abs() < 1e-12, "{line}");
        match (g.avg_rating, w.avg_rating) {
            (Some(a), Some(b)) => assert!((a - b).abs() < 1e-6, "{line}: {a} {b}"),
            (a, b) => assert_eq!(a, b, "{line}"),
        }
        assert_eq!(g.recent, w.recent, "{line}");
        assert_eq!(g.top, w.top, "{line}: top games");
    }
}

/// Indexes `paths` into `db` with 2 jobs, aggregating positions of at least `min` games in
/// buckets (`u32::MAX`: none; every query reads the hits).
pub fn index_min(paths: &[&str], db: &Path, min: u32) -> std::path::PathBuf {
    let opts = shogi_db::IndexOptions {
        jobs: Some(2),
        bucket_min_games: Some(min),
        ..shogi_db::IndexOptions::default()
    };
    shogi_db::index(paths, db, &opts).unwrap();
    db.to_path_buf()
}
