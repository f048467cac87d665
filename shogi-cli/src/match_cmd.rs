//! `shogi match`: games between USI engines refereed by our rules (the shogi-match crate),
//! records written as games end, results with Elo, LOS and SPRT.

use crate::args::{OutputFormat, VariantArg};
use crate::ctx::{Ctx, Failure, emit};
use shogi_core::Variant;
use shogi_match::output::{Output, Target};
use shogi_match::record::OutFormat;
use shogi_match::runner::{self, Finished, Summary, Tally};
use shogi_match::settings::{Pairing, Request, Settings};
use shogi_match::{MatchError, Parameter};
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `shogi match`.
#[derive(clap::Args)]
#[command(
    after_help = "Time: every move is timed by us from writing `go` to reading \
`bestmove`; a move longer than the side's time (main time left + byoyomi, or + increment) plus \
--time-margin loses on time. --nodes has no clock: a move longer than --move-timeout is a hang. \
An engine that crashes or hangs loses that game and is restarted. The referee is ours: an \
illegal move loses (反則負け), four-fold repetition draws (perpetual check loses), `bestmove win` \
is judged by the 27-point rule (--declaration 24: the 24-point rule, 24-30 points draw), and \
--max-plies moves without an end is a draw (a mate on the last allowed move counts).\n\
SPRT: elo0,elo1 are normalized Elo (fastchess's default model), the log-likelihood ratio over \
game pairs (pentanomial).\n\
Exit status: 0, 2 on usage or input errors (a missing engine, a bad opening line, an output \
that exists without --resume: nothing is overwritten).\n\n\
Examples:\n  shogi match --engine a=/usr/games/fairy-stockfish --engine b=/usr/games/fairy-stockfish,Skill\\ Level=0 --games 2 --nodes 2000 --max-plies 40\n  \
shogi match --engine a=/usr/games/fairy-stockfish --engine b=/usr/games/fairy-stockfish --variant mini --games 2 --jobs 2 --movetime 20 --out mini.csa --format json"
)]
pub struct MatchArgs {
    /// An engine: NAME=PATH[,option=value...] (`arg=X` passes X on its command line); give
    /// two, or more with --gauntlet / --round-robin.
    #[arg(
        long = "engine",
        value_name = "NAME=PATH[,OPT=VAL...]",
        required = true
    )]
    pub engines: Vec<String>,
    /// Games per pairing (pairs of games share an opening with colours swapped).
    #[arg(long, value_name = "N")]
    pub games: Option<u32>,
    /// Games played at once (each with its own engine processes).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
    /// The first engine plays each of the others.
    #[arg(long, conflicts_with = "round_robin")]
    pub gauntlet: bool,
    /// Every engine plays every other.
    #[arg(long)]
    pub round_robin: bool,
    /// Byoyomi per move, ms (after --time's main time, if given).
    #[arg(long, value_name = "MS")]
    pub byoyomi: Option<u64>,
    /// Main time per side, ms (with --inc: Fischer; alone: sudden death).
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Fischer increment per move, ms (USI: already granted for the current move).
    #[arg(long, value_name = "MS")]
    pub inc: Option<u64>,
    /// A fixed time per move, ms (`go movetime`).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// A node count per move (`go nodes`), no clock.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Allowance beyond a side's time before it loses on time, ms: a move may take the side's
    /// remaining time + byoyomi (or + increment) + this (at --byoyomi 100, 200 ms). Timed from
    /// our `go` written to our reading of `bestmove`, so our own work is not on the clock.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub time_margin: u64,
    /// With --nodes: how long a move may take before the engine is called hung, ms.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub move_timeout: u64,
    /// How the engines are scheduled: `batch` (default) starts them under Linux's SCHED_BATCH
    /// (through `chrt`; the same CPU share, but an engine woken by `go` does not preempt the
    /// referee while it writes), `normal` as they are.
    #[arg(long, value_enum, default_value_t = EngineSched::Batch)]
    pub engine_sched: EngineSched,
    /// Openings: SFEN or USI `position` lines, or records in any format `shogi check` reads.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Take only the first K moves of each opening.
    #[arg(long, value_name = "K")]
    pub opening_plies: Option<usize>,
    #[command(flatten)]
    pub book: crate::book::MatchBookArgs,
    /// Shuffle the openings with this seed (default: file order).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// The variant (without --openings: its start position).
    #[arg(long, value_enum, default_value_t = VariantArg::Standard)]
    pub variant: VariantArg,
    /// Draw after this many plies (opening moves included; 0 = no limit).
    #[arg(long, value_name = "N", default_value_t = 320)]
    pub max_plies: u32,
    /// The entering-king declaration rule: 27 (CSA) or 24 (JSA).
    #[arg(long, value_name = "27|24", default_value = "27", value_parser = ["27", "24"])]
    pub declaration: String,
    /// Resign adjudication: the side to move loses when its last --resign-moves scores were all
    /// at or below -CP and the opponent's all at or above CP.
    #[arg(long, value_name = "CP", requires = "resign_moves")]
    pub resign_score: Option<i32>,
    /// See --resign-score.
    #[arg(long, value_name = "K", requires = "resign_score")]
    pub resign_moves: Option<u32>,
    /// Draw adjudication: both engines' last --draw-moves scores within ±CP.
    #[arg(long, value_name = "CP", requires = "draw_moves")]
    pub draw_score: Option<i32>,
    /// See --draw-score.
    #[arg(long, value_name = "K", requires = "draw_score")]
    pub draw_moves: Option<u32>,
    /// SPRT: elo0,elo1[,alpha,beta] (Elo as --sprt-model counts it, normalized Elo by default;
    /// alpha and beta 0.05 by default); the match stops at a decision.
    #[arg(long, value_name = "ELO0,ELO1[,A,B]")]
    pub sprt: Option<String>,
    /// The SPRT model, as fastchess names them: normalized (normalized Elo, pentanomial over
    /// game pairs), logistic (logistic Elo, pentanomial), bayesian (BayesElo, draw Elo from the
    /// games, trinomial); or cutechess (cutechess-cli's BayesElo, trinomial).
    #[arg(long, value_name = "MODEL", requires = "sprt")]
    pub sprt_model: Option<String>,
    /// Write every game to this one CSA file (games separated by `/`).
    #[arg(long, value_name = "FILE", conflicts_with = "out_dir")]
    pub out: Option<PathBuf>,
    /// Write every game to its own file in this folder (game-0001.csa, …).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Record formats: csa (V3.0), csa2 (V2.2), kif; several with commas (--out-dir).
    #[arg(long, value_name = "FMT[,FMT]", default_value = "csa")]
    pub out_format: String,
    /// Continue a match from the games already written to --out / --out-dir.
    #[arg(long)]
    pub resume: bool,
    /// The event name written in records.
    #[arg(long, value_name = "TEXT", default_value = "shogi match")]
    pub event: String,
    /// The summary on stdout: text or JSON.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

/// `--engine-sched`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineSched {
    /// SCHED_BATCH, through `chrt --batch 0` (when `chrt` is on the PATH).
    Batch,
    /// The default policy.
    Normal,
}

fn usage(msg: impl Into<String>) -> Failure {
    Failure::usage(format!("error: {}", msg.into()))
}

/// The flag of a match setting.
fn flag(p: Parameter) -> String {
    match p {
        Parameter::Engine => "--engine",
        Parameter::Pairing => "--gauntlet / --round-robin",
        Parameter::Games => "--games",
        Parameter::Jobs => "--jobs",
        Parameter::Time => "--time",
        Parameter::Byoyomi => "--byoyomi",
        Parameter::Inc => "--inc",
        Parameter::Movetime => "--movetime",
        Parameter::Nodes => "--nodes",
        Parameter::TimeMargin => "--time-margin",
        Parameter::MoveTimeout => "--move-timeout",
        Parameter::Openings => "--openings",
        Parameter::Book => "--book",
        Parameter::Resign => "--resign-score/--resign-moves",
        Parameter::Draw => "--draw-score/--draw-moves",
        Parameter::Declaration => "--declaration",
        Parameter::Sprt => "--sprt",
        Parameter::SprtModel => "--sprt-model",
        Parameter::Out => "--out",
        Parameter::OutDir => "--out-dir",
        Parameter::OutFormat => "--out-format",
        Parameter::Resume => "--resume",
    }
    .to_string()
}

/// The library's error in the command line's words (exit 2).
fn failure(e: MatchError) -> Failure {
    match e {
        // Located (`file:line:col: error: …`) by the library already.
        MatchError::Openings(e) => Failure::usage(e.to_string()),
        e => usage(e.describe(&flag)),
    }
}

/// `--sprt`'s numbers (their ranges are the library's to check).
fn sprt_numbers(text: &str) -> Result<Vec<f64>, Failure> {
    text.split(',')
        .map(|s| s.trim().parse::<f64>())
        .collect::<Result<Vec<f64>, _>>()
        .map_err(|_| {
            failure(MatchError::setting(
                Parameter::Sprt,
                format!("{text:?}: not numbers separated by commas (elo0,elo1[,alpha,beta])"),
            ))
        })
}

fn parse_formats(text: &str) -> Result<Vec<OutFormat>, Failure> {
    let mut v = Vec::new();
    for f in text.split(',') {
        let f = match f.trim() {
            "csa" | "csa3" => OutFormat::Csa3,
            "csa2" | "csa22" => OutFormat::Csa22,
            "kif" => OutFormat::Kif,
            other => {
                return Err(usage(format!(
                    "--out-format {other:?}: csa (V3.0), csa2 (V2.2) or kif"
                )));
            }
        };
        if !v.contains(&f) {
            v.push(f);
        }
    }
    Ok(v)
}

/// The settings the arguments describe (engines not started yet): the library checks them.
fn settings(a: &MatchArgs) -> Result<Settings, Failure> {
    let variant: Variant = a.variant.into();
    let request = Request {
        engines: a.engines.clone(),
        pairing: if a.gauntlet {
            Pairing::Gauntlet
        } else if a.round_robin {
            Pairing::RoundRobin
        } else {
            Pairing::HeadToHead
        },
        games: a.games,
        jobs: a.jobs as usize,
        time: a.time,
        byoyomi: a.byoyomi,
        inc: a.inc,
        movetime: a.movetime,
        nodes: a.nodes,
        time_margin_ms: a.time_margin,
        move_timeout_ms: a.move_timeout,
        batch: a.engine_sched == EngineSched::Batch,
        variant,
        openings: a.openings.clone(),
        opening_plies: a.opening_plies,
        book: a.book.request(),
        seed: a.seed,
        max_plies: a.max_plies,
        declaration: if a.declaration == "24" { 24 } else { 27 },
        resign: a.resign_score.zip(a.resign_moves),
        draw: a.draw_score.zip(a.draw_moves),
        sprt: a.sprt.as_deref().map(sprt_numbers).transpose()?,
        sprt_model: a.sprt_model.clone(),
        event: a.event.clone(),
    };
    request.settings().map_err(failure)
}

fn result_word(f: &Finished) -> &'static str {
    match f.outcome.winner {
        Some(shogi_core::Color::Black) => "1-0",
        Some(shogi_core::Color::White) => "0-1",
        None => "1/2",
    }
}

/// The live line after a game.
fn live_line(f: &Finished, tally: &Tally, settings: &Settings, total: usize) -> String {
    let s = tally.summary(settings, false);
    let black = &settings.engines[f.spec.black].name;
    let white = &settings.engines[f.spec.white].name;
    let mut line = format!(
        "[{}/{total}] game {} {black} (black) vs {white}: {} ({})",
        tally.games,
        f.spec.index + 1,
        result_word(f),
        f.outcome
    );
    if let Some(p) = s.pairings.get(f.spec.pairing) {
        let _ = write!(
            line,
            " | {} vs {}: +{} -{} ={}, Elo: {:.2} +/- {:.2}",
            p.first, p.second, p.wins, p.losses, p.draws, p.elo, p.elo_margin
        );
    }
    if let Some(sp) = &s.sprt {
        let _ = write!(
            line,
            ", LLR {:.2} ({:.2}, {:.2})",
            sp.llr, sp.lower_bound, sp.upper_bound
        );
    }
    line
}

fn text_summary(s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Games: {}", s.games);
    for e in &s.engines {
        let _ = writeln!(
            out,
            "{}: +{} -{} ={} (score {:.3}; as black +{} -{} ={}, as white +{} -{} ={})",
            e.name,
            e.wins,
            e.losses,
            e.draws,
            e.score,
            e.as_black.wins,
            e.as_black.losses,
            e.as_black.draws,
            e.as_white.wins,
            e.as_white.losses,
            e.as_white.draws
        );
    }
    for p in &s.pairings {
        let _ = writeln!(
            out,
            "{} vs {}: +{} -{} ={}, Elo: {:.2} +/- {:.2} [{:.2}, {:.2}], nElo: {:.2} +/- {:.2}, \
             LOS: {:.2} %, DrawRatio: {:.2} %; pairs {} (LL LD WL+DD WD WW: {:?})",
            p.first,
            p.second,
            p.wins,
            p.losses,
            p.draws,
            p.elo,
            p.elo_margin,
            p.elo_low,
            p.elo_high,
            p.normalized_elo,
            p.normalized_elo_margin,
            100.0 * p.los,
            100.0 * p.draw_rate,
            p.pairs,
            p.pentanomial
        );
    }
    if let Some(sp) = &s.sprt {
        let _ = writeln!(
            out,
            "SPRT elo0 {} elo1 {} alpha {} beta {} ({}): LLR {:.3} [{:.3}, {:.3}]: {}",
            sp.elo0,
            sp.elo1,
            sp.alpha,
            sp.beta,
            sp.model,
            sp.llr,
            sp.lower_bound,
            sp.upper_bound,
            match sp.decision {
                shogi_match::stats::Decision::H0 => "H0 accepted",
                shogi_match::stats::Decision::H1 => "H1 accepted",
                shogi_match::stats::Decision::Continue => "not decided",
            }
        );
    }
    let ends: Vec<String> = s
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = writeln!(out, "Endings: {}", ends.join(", "));
    if let (Some(m), Some(p)) = (s.overhead_us_median, s.overhead_us_p99) {
        let _ = writeln!(
            out,
            "Our overhead per move (bestmove read to next go written): median {m} µs, p99 {p} µs over {} moves",
            s.overhead_samples
        );
    }
    out
}

/// Runs `shogi match`.
pub fn run(a: &MatchArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let settings = settings(a)?;
    let formats = parse_formats(&a.out_format)?;
    let output = match (&a.out, &a.out_dir) {
        (Some(f), None) => Some(Output::new(Target::File(f.clone()), formats).map_err(failure)?),
        (None, Some(d)) => Some(Output::new(Target::Dir(d.clone()), formats).map_err(failure)?),
        _ => {
            if a.resume {
                return Err(usage("--resume needs --out or --out-dir"));
            }
            None
        }
    };
    // Everything that can be checked without engines first, so a bad output costs nothing.
    let done = match &output {
        Some(o) => o.prepare(&settings, a.resume).map_err(failure)?,
        None => Vec::new(),
    };
    runner::check(&settings).map_err(failure)?;
    let total = runner::schedule(&settings).len();
    if !done.is_empty() {
        let _ = writeln!(
            ctx.stderr,
            "resuming: {} of {total} games already written",
            done.len()
        );
    }
    let stderr = &mut ctx.stderr;
    let mut trace = match &ctx.options.match_trace {
        Some(p) => match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
        {
            Ok(f) => Some(std::io::BufWriter::new(f)),
            Err(e) => {
                let _ = writeln!(stderr, "warning: SHOGI_MATCH_TRACE={}: {e}", p.display());
                None
            }
        },
        None => None,
    };
    let (tally, stopped) = runner::run(&settings, &done, |f, tally| {
        if let Some(o) = &output {
            o.write(f)?;
        }
        if let Some(w) = &mut trace {
            if runner::write_trace(w, f).and_then(|()| w.flush()).is_err() {
                trace = None;
            }
        }
        let _ = writeln!(stderr, "{}", live_line(f, tally, &settings, total));
        let _ = stderr.flush();
        Ok(())
    })
    .map_err(|e| usage(format!("the match stopped: {}", e.describe(&flag))))?;
    let summary = tally.summary(&settings, stopped);
    let text = match a.format {
        OutputFormat::Json => {
            let mut s =
                serde_json::to_string_pretty(&summary).map_err(|e| usage(format!("JSON: {e}")))?;
            s.push('\n');
            s
        }
        OutputFormat::Text => text_summary(&summary),
    };
    emit(ctx.stdout, &text)
}
