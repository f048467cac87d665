//! `fake-usi`: a scripted USI engine for tests. It knows the rules through shogi-core, so its
//! moves are legal unless told otherwise, and its behaviour is set by arguments.
//!
//! The arguments are in [`HELP`] (`fake-usi --help` prints them).
//!
//! A side with no legal move gets `info depth 0 score mate 0` and `bestmove resign`.

use shogi_core::{Move, Position, Variant, parse_usi_position};
use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// The arguments, printed by `--help`.
const HELP: &str = "\
usage: fake-usi [ARGS]   a scripted USI engine for tests
--name TEXT          `id name` (default fake-usi)
--no-options         offer no options (default: Threads, MultiPV, USI_Hash, Flag, Style,
                     Clear Hash, Book File; see `DEFAULT_OPTIONS`)
--option TEXT        offer one more option: the text after `option ` (repeatable)
--mini               offer UCI_Variant (combo shogi|minishogi), so Mini Shogi can be played
--score LIST         scores sent, comma-separated, one per go in turn, cycling (\"cp 42\",
                     \"mate 3\", \"mate -\"); default: cp (position key mod 201) - 100
--pv TEXT            the PV sent, as written (default: the chosen move)
--bestmove TEXT      the bestmove text, as written (`resign`, `win`, `9a9b`)
--ponder TEXT        append `ponder TEXT` to the bestmove
--play first|last    move choice: the first / last legal move in USI text order (default first)
--moves LIST         comma-separated USI moves: at a position k moves after its start, play
                     item k when it is legal there (else the --play rule)
--crash-at-go N      exit with status 3 at the N-th go, writing nothing
--hang-at-go N       stop answering at the N-th go
--counter FILE       count go's across processes in FILE, so --crash-at-go / --hang-at-go
                     happen once (a restarted engine then works)
--hang-on CMD        stop answering when the command word CMD arrives (usi, isready, go, …)
--hang-after-lines K stop answering after writing K lines
--exit-on CMD        exit with status 4 when the command word CMD arrives
--garbage            write garbage lines (non-UTF-8, unknown words, a 100 kB line) before answers
--slow-start MS      wait MS before answering `usi`
--think MS           wait MS before every bestmove (`stop` ends the wait)
--ready-ms MS        wait MS before every readyok (as YaneuraOu's isready sleeps)
--stderr TEXT        write TEXT to stderr at start
--ignore-quit        do not exit on `quit` (the caller must kill)
--log FILE           append every line received to FILE
--checkmate TEXT     the answer to `go mate` (after `checkmate `); default: a mate in 1 when
                     there is one, else `nomate`
";

const DEFAULT_OPTIONS: &[&str] = &[
    "name Threads type spin default 1 min 1 max 8",
    "name MultiPV type spin default 1 min 1 max 10",
    "name USI_Hash type spin default 16 min 1 max 1024",
    "name Flag type check default false",
    "name Style type combo default normal var normal var solid var wild",
    "name Clear Hash type button",
    "name Book File type string default <empty>",
];

#[derive(Default)]
struct Config {
    name: String,
    options: Vec<String>,
    mini: bool,
    scores: Vec<String>,
    pv: Option<String>,
    bestmove: Option<String>,
    ponder: Option<String>,
    last: bool,
    moves: Vec<String>,
    crash_at_go: Option<u64>,
    hang_at_go: Option<u64>,
    counter: Option<String>,
    hang_on: Option<String>,
    hang_after_lines: Option<u64>,
    exit_on: Option<String>,
    garbage: bool,
    slow_start: u64,
    think: u64,
    ready_ms: u64,
    stderr: Option<String>,
    ignore_quit: bool,
    log: Option<String>,
    checkmate: Option<String>,
}

fn usage(msg: &str) -> ! {
    eprintln!("fake-usi: {msg} (see the doc comment of shogi-usi/src/bin/fake-usi.rs)");
    std::process::exit(2)
}

fn parse_args() -> Config {
    let mut c = Config {
        name: "fake-usi".into(),
        options: DEFAULT_OPTIONS.iter().map(|s| s.to_string()).collect(),
        ..Config::default()
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{a} needs a value")))
        };
        let num = |v: String| -> u64 {
            v.parse()
                .unwrap_or_else(|_| usage(&format!("not a number: {v}")))
        };
        match a.as_str() {
            "--name" => c.name = val(),
            "--no-options" => c.options.clear(),
            "--option" => c.options.push(val()),
            "--mini" => c.mini = true,
            "--score" => c.scores = val().split(',').map(|s| s.trim().to_owned()).collect(),
            "--pv" => c.pv = Some(val()),
            "--bestmove" => c.bestmove = Some(val()),
            "--ponder" => c.ponder = Some(val()),
            "--play" => match val().as_str() {
                "first" => c.last = false,
                "last" => c.last = true,
                other => usage(&format!("--play first|last, not {other}")),
            },
            "--moves" => c.moves = val().split(',').map(|s| s.trim().to_owned()).collect(),
            "--crash-at-go" => c.crash_at_go = Some(num(val())),
            "--hang-at-go" => c.hang_at_go = Some(num(val())),
            "--counter" => c.counter = Some(val()),
            "--hang-on" => c.hang_on = Some(val()),
            "--hang-after-lines" => c.hang_after_lines = Some(num(val())),
            "--exit-on" => c.exit_on = Some(val()),
            "--garbage" => c.garbage = true,
            "--slow-start" => c.slow_start = num(val()),
            "--think" => c.think = num(val()),
            "--ready-ms" => c.ready_ms = num(val()),
            "--stderr" => c.stderr = Some(val()),
            "--ignore-quit" => c.ignore_quit = true,
            "--log" => c.log = Some(val()),
            "--checkmate" => c.checkmate = Some(val()),
            "--help" | "-h" => {
                print!("{HELP}");
                std::process::exit(0)
            }
            other => usage(&format!("unknown argument {other}")),
        }
    }
    if c.mini {
        c.options
            .push("name UCI_Variant type combo default shogi var shogi var minishogi".into());
    }
    c
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

struct Out {
    written: u64,
    limit: Option<u64>,
    garbage: bool,
}

impl Out {
    fn raw(&mut self, bytes: &[u8]) {
        if self.limit.is_some_and(|l| self.written >= l) {
            hang();
        }
        let mut o = std::io::stdout().lock();
        // A closed pipe means the caller is gone: exit quietly.
        if o.write_all(bytes)
            .and_then(|()| o.write_all(b"\n"))
            .and_then(|()| o.flush())
            .is_err()
        {
            std::process::exit(0);
        }
        self.written += 1;
    }

    fn line(&mut self, s: &str) {
        self.raw(s.as_bytes());
    }

    fn garbage(&mut self) {
        if self.garbage {
            self.raw(b"\xff\xfe garbage \x01\x02");
            self.line("bestmovex 7g7f");
            self.line("info depth nonsense score cp");
            self.line(&"z".repeat(100_000));
        }
    }
}

fn count_go(config: &Config, local: &mut u64) -> u64 {
    *local += 1;
    let Some(file) = &config.counter else {
        return *local;
    };
    let n = std::fs::read_to_string(file)
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(0)
        + 1;
    let _ = std::fs::write(file, n.to_string());
    n
}

fn sorted_moves(pos: &Position) -> Vec<Move> {
    let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    moves.sort_by_key(|m| m.to_usi());
    moves
}

// Over 100 lines on purpose: the fake engine's whole script, one match arm per USI command
// and per fault it can be told to show, read top to bottom like the protocol.
fn main() {
    let config = parse_args();
    let (tx, rx) = channel::<String>();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    if let Some(s) = &config.stderr {
        eprintln!("{s}");
    }
    let mut out = Out {
        written: 0,
        limit: config.hang_after_lines,
        garbage: config.garbage,
    };
    let mut variant = Variant::Standard;
    let mut multipv = 1usize;
    let mut position: Option<(Position, usize)> = Some((Position::startpos(Variant::Standard), 0));
    let mut gos = 0u64;
    let mut started = false;
    while let Ok(line) = rx.recv() {
        if let Some(log) = &config.log {
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
            {
                let _ = writeln!(f, "{line}");
            }
        }
        let word = line.split_whitespace().next().unwrap_or("");
        if config.hang_on.as_deref() == Some(word) {
            hang();
        }
        if config.exit_on.as_deref() == Some(word) {
            std::process::exit(4);
        }
        match word {
            "usi" => {
                if !started && config.slow_start > 0 {
                    std::thread::sleep(Duration::from_millis(config.slow_start));
                }
                started = true;
                out.garbage();
                out.line(&format!("id name {}", config.name));
                out.line("id author the shogi toolkit tests");
                for o in &config.options {
                    out.line(&format!("option {o}"));
                }
                out.line("usiok");
            }
            "isready" => {
                if config.ready_ms > 0 {
                    std::thread::sleep(Duration::from_millis(config.ready_ms));
                }
                out.garbage();
                out.line("readyok");
            }
            "setoption" => {
                let rest = line.trim_start_matches("setoption").trim();
                let rest = rest.strip_prefix("name ").unwrap_or(rest);
                let (name, value) = match rest.split_once(" value ") {
                    Some((n, v)) => (n.trim(), v.trim()),
                    None => (rest.trim(), ""),
                };
                match name {
                    "MultiPV" => multipv = value.parse().unwrap_or(1).clamp(1, 10),
                    "UCI_Variant" if config.mini => {
                        variant = if value == "minishogi" {
                            Variant::Mini
                        } else {
                            Variant::Standard
                        };
                        position = Some((Position::startpos(variant), 0));
                        out.line(&format!("info string variant {value}"));
                    }
                    _ => {
                        let known = config.options.iter().any(|o| {
                            o.strip_prefix("name ")
                                .is_some_and(|r| r.starts_with(&format!("{name} type")))
                        });
                        if !known {
                            out.line(&format!("info string No such option: {name}"));
                        }
                    }
                }
            }
            "usinewgame" | "gameover" | "ponderhit" => {}
            "position" => match parse_usi_position(&line, variant) {
                Ok(p) => position = Some((p.end, p.moves.len())),
                Err(e) => {
                    out.line(&format!("info string bad position: {e}"));
                    position = None;
                }
            },
            "go" => {
                let n = count_go(&config, &mut gos);
                if config.crash_at_go == Some(n) {
                    std::process::exit(3);
                }
                if config.hang_at_go == Some(n) {
                    hang();
                }
                let tokens: Vec<&str> = line.split_whitespace().collect();
                if tokens.get(1) == Some(&"mate") {
                    out.garbage();
                    let answer = config.checkmate.clone().unwrap_or_else(|| match &position {
                        Some((p, _)) => mate_in_one(p).map_or("nomate".into(), |m| m.to_usi()),
                        None => "nomate".into(),
                    });
                    out.line(&format!("checkmate {answer}"));
                    continue;
                }
                let infinite = tokens.contains(&"infinite");
                let nodes: u64 = tokens
                    .iter()
                    .position(|t| *t == "nodes")
                    .and_then(|i| tokens.get(i + 1))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(1);
                search(
                    &config,
                    &mut out,
                    &rx,
                    position.as_ref(),
                    multipv,
                    n,
                    nodes,
                    infinite,
                );
            }
            "stop" => {}
            "quit" if !config.ignore_quit => std::process::exit(0),
            _ => {}
        }
    }
}

fn mate_in_one(pos: &Position) -> Option<Move> {
    sorted_moves(pos).into_iter().find(|&m| {
        let mut p = pos.clone();
        p.play_unchecked(m);
        p.is_checkmate()
    })
}

#[allow(clippy::too_many_arguments)]
fn search(
    config: &Config,
    out: &mut Out,
    rx: &Receiver<String>,
    position: Option<&(Position, usize)>,
    multipv: usize,
    go_number: u64,
    nodes: u64,
    infinite: bool,
) {
    // Think (or wait for stop), answering isready meanwhile.
    let wait = |out: &mut Out, limit: Option<Duration>| {
        let until = limit.map(|d| std::time::Instant::now() + d);
        loop {
            let r = match until {
                Some(u) => rx.recv_timeout(u.saturating_duration_since(std::time::Instant::now())),
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match r {
                Ok(l) if l.trim() == "stop" => return,
                Ok(l) if l.trim() == "isready" => out.line("readyok"),
                Ok(l) if l.trim() == "quit" && !config.ignore_quit => std::process::exit(0),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return,
                Err(RecvTimeoutError::Disconnected) => std::process::exit(0),
            }
        }
    };
    if infinite {
        wait(out, None);
    } else if config.think > 0 {
        wait(out, Some(Duration::from_millis(config.think)));
    }
    out.garbage();
    let Some((pos, ply)) = position else {
        out.line("bestmove resign");
        return;
    };
    let moves = sorted_moves(pos);
    if moves.is_empty() {
        out.line("info depth 0 score mate 0");
        out.line("bestmove resign");
        return;
    }
    let scripted = config
        .moves
        .get(*ply)
        .and_then(|t| Move::from_usi(t).ok())
        .filter(|m| pos.is_legal(*m));
    let chosen = scripted.unwrap_or(if config.last {
        moves[moves.len() - 1]
    } else {
        moves[0]
    });
    let score = if config.scores.is_empty() {
        format!("cp {}", (pos.key() % 201) as i64 - 100)
    } else {
        config.scores[((go_number - 1) as usize) % config.scores.len()].clone()
    };
    for k in 1..=multipv.min(moves.len()) {
        let (mv, sc) = if k == 1 {
            (chosen, score.clone())
        } else {
            let alt = moves
                .iter()
                .copied()
                .filter(|m| *m != chosen)
                .nth(k - 2)
                .unwrap_or(chosen);
            let sc = match score
                .strip_prefix("cp ")
                .and_then(|v| v.parse::<i64>().ok())
            {
                Some(cp) => format!("cp {}", cp - 10 * (k as i64 - 1)),
                None => score.clone(),
            };
            (alt, sc)
        };
        let pv = match (&config.pv, k) {
            (Some(pv), 1) => pv.clone(),
            _ => mv.to_usi(),
        };
        out.line(&format!(
            "info depth 1 seldepth 1 multipv {k} score {sc} nodes {nodes} nps 1000 time 0 pv {pv}"
        ));
    }
    let mut best = config.bestmove.clone().unwrap_or_else(|| chosen.to_usi());
    if let Some(p) = &config.ponder {
        best = format!("{best} ponder {p}");
    }
    out.line(&format!("bestmove {best}"));
}
