//! `shogi show`: one position of a record (or an SFEN) as a board diagram, with hands, side to
//! move, check and mate, its SFEN and the moves that led to it.

use crate::args::{InputArgs, NotationArg, VariantArg, parse_position};
use crate::ctx::{Ctx, Failure, emit};
use shogi_core::{Color, Handicap, Move, Position, Square, UsiWords, Variant};
use shogi_kif::notation::{Notation, move_text};
use shogi_kif::{Format, Line, ReadError, ReadOptions, Reader, Record};
use shogi_openings::{RuleSet, TagHit, recognise};
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;

/// Arguments of `shogi show`.
#[derive(clap::Args)]
#[command(
    after_help = "The input is a record file (any format `shogi check` reads; `-` for \
stdin), an SFEN (one argument: quote it), `startpos`, or a USI line `position ... moves ...`. \
A record is shown after --ply N moves of its main line (default: all of them), or of the line \
of --variation N; a record with variations lists them, numbered as --variation (and `shogi \
convert --variation`) take them: in the order a KIF file writes its 変化 blocks, each with the \
move where it branches. A record with an \
error is shown up to the error, and the error is printed on stderr (exit 1).\n\
Exit status: 0, 1 when the record has an error, 2 on usage or input errors.\n\n\
Examples:\n  shogi show samples/game.kif\n  shogi show samples/game.kif --ply 10 --notation western\n  \
shogi show samples/game.csa --ascii --notation usi\n  shogi show samples/mini.kif\n  \
shogi show 'position startpos moves 7g7f 3c3d 8h2b+'\n  shogi show startpos --variant mini --ascii\n  \
shogi show 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1'\n  \
shogi show samples/game.kif --ply 30 --format svg > board.svg"
)]
pub struct ShowArgs {
    /// A record file (`-` reads stdin), an SFEN, `startpos`, or `position ... [moves ...]`.
    pub input: String,
    /// Show the position after N moves of the main line or --variation (default: the end).
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Follow variation N (numbered as the list of variations shows them) instead of the main
    /// line: the line it branches from up to the branch, then its own moves.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub variation: Option<u32>,
    /// How the moves are written: Japanese (▲７六歩, KI2 style), Western (Hodges: P-7f) or USI.
    #[arg(long, value_enum, default_value_t = NotationArg::Japanese)]
    pub notation: NotationArg,
    /// An ASCII board with USI letters (sente uppercase, `+` for promoted) instead of kanji.
    #[arg(long, conflicts_with = "format")]
    pub ascii: bool,
    /// What is printed: the text (board, state, SFEN, moves) or an SVG picture of the board
    /// alone.
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    pub format: ShowFormat,
    /// Which game of a multi-game input (CSA with `/`, several USI lines), from 1.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// The variant for `startpos` (an SFEN's or a record's board decides on its own).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// List each side's openings (戦法) and castles (囲い) over the line shown, each with the
    /// ply it formed, the sides' and the game's class and the main 戦型.
    #[arg(long)]
    pub tags: bool,
    #[command(flatten)]
    pub read: InputArgs,
}

/// Output formats of `shogi show`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ShowFormat {
    /// The board diagram (kanji, or ASCII with --ascii), side to move, check, SFEN, moves.
    Text,
    /// An SVG picture of the board and hands (one document on stdout).
    Svg,
}

/// What is shown: the start, the moves played from it, and where it came from.
struct Shown {
    /// The name of the input for messages (`<input>` for an argument).
    name: String,
    start: Position,
    moves: Vec<Move>,
    /// Name the sides 上手/下手 (a handicap game).
    handicap: bool,
    /// The error that stopped the record, if any.
    error: Option<ReadError>,
    /// The record's variations: each one's number, and where it branches.
    variations: Vec<(usize, String)>,
}

/// Runs `shogi show`.
pub fn run(args: &ShowArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    let shown = load(args, ctx)?;
    let available = shown.moves.len();
    let ply = args.ply.unwrap_or(available);
    if ply > available {
        let line = args
            .variation
            .map_or("its main line".to_string(), |n| format!("variation {n}"));
        let why = if shown.error.is_some() {
            "before its first error".to_string()
        } else {
            format!("in {line}")
        };
        return Err(Failure::usage(format!(
            "error: --ply {ply}: {} has {available} move(s) {why}",
            shown.name
        )));
    }
    let text = match args.format {
        ShowFormat::Text => {
            render(&shown, ply, args).map_err(|_| Failure::usage("error: cannot format"))?
        }
        ShowFormat::Svg => format!("{}\n", shogi_kif::board::svg(&position_at(&shown, ply))),
    };
    emit(ctx.stdout, &text)?;
    match &shown.error {
        Some(e) => {
            let rendered = e.clone().with_path(shown.name.clone()).render();
            Err(Failure {
                code: 1,
                message: rendered.trim_end().to_string(),
            })
        }
        None => Ok(()),
    }
}

/// Reads what `args.input` names: a file, stdin, `startpos`, a USI line or an SFEN.
fn load(args: &ShowArgs, ctx: &mut Ctx) -> Result<Shown, Failure> {
    let input = args.input.trim();
    let opts = ReadOptions {
        format: args.read.from,
        encoding: args.read.encoding.map(Into::into),
        validate: false,
        ..ReadOptions::default()
    };
    if args.input == "-" {
        let mut guard = ctx.stdin.lock().unwrap_or_else(|e| e.into_inner());
        return from_reader(&mut **guard, opts, "<stdin>", args);
    }
    if Path::new(&args.input).is_file() {
        let reader = Reader::open(&args.input, opts)
            .map_err(|e| Failure::usage(e.with_path(args.input.clone()).render()))?;
        return from_games(reader, &args.input, args);
    }
    // A USI line (and an SFEN with moves) is read as a record, so that it is shown up to a
    // bad move; `startpos` or an SFEN alone is a position argument.
    let usi_line = ["position ", "startpos ", "sfen "]
        .iter()
        .any(|p| input.starts_with(p))
        || UsiWords::split(input).is_ok_and(|w| !w.moves.is_empty());
    if usi_line {
        let opts = ReadOptions::with_format(Format::Usi);
        return from_reader(&mut input.as_bytes(), opts, "<input>", args);
    }
    if input != "startpos" && !input.contains(' ') {
        return Err(Failure::usage(format!(
            "error: {input}: no such file (and not an SFEN, `startpos` or a `position` line)"
        )));
    }
    if args.variation.is_some() {
        return Err(Failure::usage(format!(
            "error: --variation goes with a record; {input} is a position"
        )));
    }
    let start = parse_position(input, args.variant)?;
    Ok(Shown {
        name: "<input>".into(),
        start,
        moves: Vec::new(),
        handicap: false,
        error: None,
        variations: Vec::new(),
    })
}

/// The game `args.game` of an input read with `opts`.
fn from_reader(
    input: &mut dyn BufRead,
    opts: ReadOptions,
    name: &str,
    args: &ShowArgs,
) -> Result<Shown, Failure> {
    let reader = Reader::new(input, opts)
        .map_err(|e| Failure::usage(e.with_path(name.to_string()).render()))?;
    from_games(reader, name, args)
}

/// The game `args.game` of `games`, as far as it could be read.
fn from_games<R: BufRead>(
    mut games: Reader<R>,
    name: &str,
    args: &ShowArgs,
) -> Result<Shown, Failure> {
    let want = args.game as usize;
    let Some(game) = games.by_ref().nth(want - 1) else {
        return Err(Failure::usage(format!(
            "error: --game {want}: {name} holds fewer games"
        )));
    };
    let record = game.record;
    let start = record.start_position().clone();
    if let Some(v) = args.variant {
        if start.variant() != Variant::from(v) {
            return Err(Failure::usage(format!(
                "error: {name} is a {} game but --variant {} was given",
                start.variant().name(),
                Variant::from(v).name()
            )));
        }
    }
    let moves = match args.variation {
        None => playable(&record),
        Some(n) => match shogi_kif::with_variation(&record, n as usize) {
            Some(line) => playable(&line),
            None => {
                return Err(Failure::usage(format!(
                    "error: --variation {n}: {name} has {}",
                    variation_count(shogi_kif::variations(&record).len())
                )));
            }
        },
    };
    Ok(Shown {
        name: name.to_string(),
        handicap: is_handicap(&record),
        variations: list_variations(&record, &start, args.notation.into()),
        moves,
        start,
        error: game.error,
    })
}

/// `2 variations`, `1 variation`, `no variations`.
pub(crate) fn variation_count(n: usize) -> String {
    match n {
        0 => "no variations".to_string(),
        1 => "1 variation".to_string(),
        n => format!("{n} variations"),
    }
}

/// A line per variation of `record`: its number, the move where it branches (move number and
/// the move in `notation`) and the line it branches from.
fn list_variations(record: &Record, start: &Position, notation: Notation) -> Vec<(usize, String)> {
    shogi_kif::variations(record)
        .iter()
        .map(|v| {
            let from = match v.parent {
                0 => "the main line".to_string(),
                p => format!("variation {p}"),
            };
            let first = shogi_kif::variation_line(record, v.number)
                .and_then(|line| first_move(&line, v.ply, start, notation))
                .unwrap_or_else(|| "no move (an ending)".to_string());
            (
                v.number,
                format!("move {} (from {from}): {first}", v.ply + 1),
            )
        })
        .collect()
}

/// The move `ply` of `line` in `notation`, written from the position before it.
fn first_move(line: &Line, ply: usize, start: &Position, notation: Notation) -> Option<String> {
    let mut pos = start.clone();
    let mut last = None;
    for node in line.moves.get(..ply)? {
        pos.play(node.mv).ok()?;
        last = Some(node.mv.to());
    }
    let mv = line.moves.get(ply)?.mv;
    Some(move_text(&pos, mv, last, notation))
}

/// The main line's moves up to a declared foul (which cannot be played).
fn playable(record: &Record) -> Vec<Move> {
    record
        .main_line()
        .take_while(|n| n.foul.is_none())
        .map(|n| n.mv)
        .collect()
}

fn is_handicap(record: &Record) -> bool {
    record.start.variant() == Variant::Standard
        && matches!(record.start.handicap, Some(h) if h != Handicap::Even)
}

/// The position after `ply` moves.
fn position_at(shown: &Shown, ply: usize) -> Position {
    let mut pos = shown.start.clone();
    for &mv in &shown.moves[..ply] {
        pos.play_unchecked(mv);
    }
    pos
}

/// The whole text: diagram, state, SFEN and the moves so far.
fn render(shown: &Shown, ply: usize, args: &ShowArgs) -> Result<String, std::fmt::Error> {
    let mut pos = shown.start.clone();
    let mut moves = Vec::with_capacity(ply);
    let mut last_to: Option<Square> = None;
    for &mv in &shown.moves[..ply] {
        moves.push(move_text(&pos, mv, last_to, args.notation.into()));
        pos.play_unchecked(mv);
        last_to = Some(mv.to());
    }
    let mut out = String::new();
    if args.ascii {
        shogi_kif::board::write_ascii(&mut out, &pos)?;
    } else {
        shogi_kif::board::write_kanji(&mut out, &pos, shown.handicap)?;
    }
    out.push('\n');
    let side = side_name(pos.side_to_move(), shown.handicap);
    writeln!(out, "Ply: {ply} of {}", shown.moves.len())?;
    writeln!(out, "To move: {side}")?;
    let state = if pos.is_checkmate() {
        format!("{side} is checkmated")
    } else if pos.is_check() {
        format!("{side} is in check")
    } else if !pos.has_legal_moves() {
        format!("{side} has no legal move")
    } else {
        "no".to_string()
    };
    writeln!(out, "Check: {state}")?;
    writeln!(out, "SFEN: {}", pos.to_sfen())?;
    if let Some(n) = args.variation {
        writeln!(out, "Line: variation {n}")?;
    }
    if args.tags {
        write_tags(&mut out, shown)?;
    }
    if !moves.is_empty() {
        writeln!(out, "Moves:")?;
        let width = moves.len().to_string().len();
        for (i, text) in moves.iter().enumerate() {
            writeln!(out, "{:>width$} {text}", i + 1)?;
        }
    }
    if !shown.variations.is_empty() {
        writeln!(out, "Variations:")?;
        let width = shown.variations.len().to_string().len();
        for (n, text) in &shown.variations {
            writeln!(out, "{n:>width$} {text}")?;
        }
    }
    Ok(out)
}

/// `Tags:` and a line per side: class, openings and castles with the ply each formed (or
/// that the taxonomy does not apply: Mini Shogi, most handicaps).
fn write_tags(out: &mut String, shown: &Shown) -> std::fmt::Result {
    let rules = RuleSet::builtin();
    let Some(tags) = recognise(rules, &shown.start, shown.moves.iter().copied()) else {
        return writeln!(
            out,
            "Tags: none (the taxonomy covers the even game and the lance handicaps)"
        );
    };
    let main = tags.main.map_or("力戦", |t| rules.name(t));
    writeln!(out, "Tags: {}, 戦型 {main}", tags.class.japanese())?;
    let list = |hits: &[TagHit]| {
        let v: Vec<String> = hits
            .iter()
            .map(|h| format!("{} ({})", rules.name(h.tag), h.ply))
            .collect();
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(", ")
        }
    };
    for color in [Color::Black, Color::White] {
        let side = tags.side(color);
        let name = side_name(color, shown.handicap);
        writeln!(
            out,
            "  {name} {}: {}; castles: {}",
            side.class.japanese(),
            list(&side.openings),
            list(&side.castles)
        )?;
    }
    Ok(())
}

/// `sente`/`gote`, or `shitate`/`uwate` in a handicap game.
fn side_name(color: Color, handicap: bool) -> &'static str {
    match (color, handicap) {
        (Color::Black, false) => "sente (black, ▲)",
        (Color::White, false) => "gote (white, △)",
        (Color::Black, true) => "shitate (sente, ▲)",
        (Color::White, true) => "uwate (gote, △)",
    }
}
