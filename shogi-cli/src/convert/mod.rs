//! `shogi convert`: every record of every input written in another format, to stdout or one
//! file per input below an output folder.
//!
//! Layout: this module holds the arguments and the per-game work; `record` turns one record
//! into the output format's bytes (or says what it cannot hold); `output` writes them (stdout,
//! files below --out-dir) and gathers each input's records and messages.

use crate::args::{EncodingArg, InputArgs, NotationArg};
use crate::batch::{SelectArgs, ShardArgs};
use crate::ctx::{Ctx, Failure};
use crate::driver::{Batch, Copies, Plan, internal_error, selected, status};
use shogi_batch::{DedupMode, InputRecord, Selection, game_key, line_text};
use shogi_kif::{Encoding, ErrorKind, Record};
use shogi_openings::RuleSet;
use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;

mod output;
mod record;
mod training;

use output::{Gather, Writer};
pub(crate) use output::{extension, output_paths};
use record::convert_record;
/// Output formats of `shogi convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ToFormat {
    /// The SFEN of the final position (or of `--ply N`), one line per record.
    Sfen,
    /// A USI `position … moves …` line per record.
    Usi,
    /// The main line's moves as text, one line per record, in `--notation` (usi, japanese,
    /// western), moves separated by single spaces.
    Moves,
    /// Kakinoki KIF (UTF-8, or Shift_JIS with --to-encoding).
    Kif,
    /// KI2 (UTF-8, or Shift_JIS with --to-encoding).
    Ki2,
    /// CSA (V3.0; UTF-8, or Shift_JIS with --to-encoding).
    Csa,
    /// JSON Kifu Format.
    Jkf,
    /// Training data: cshogi/DLShogi hcpe, 38 bytes per position (binary).
    Hcpe,
    /// Training data: YaneuraOu PackedSfenValue, 40 bytes per position (binary).
    Psv,
    /// Training data as text: a line per position, `SFEN<TAB>move<TAB>ply<TAB>result<TAB>eval`.
    Positions,
}

impl ToFormat {
    /// The record formats (KIF, KI2, CSA, JKF), which convert a whole record and say what
    /// they cannot hold; the others extract a position or a line from it.
    pub fn is_record(self) -> bool {
        matches!(
            self,
            ToFormat::Kif | ToFormat::Ki2 | ToFormat::Csa | ToFormat::Jkf
        )
    }

    /// The training-data targets (one entry per position; see `shogi_train`).
    pub fn is_training(self) -> bool {
        matches!(self, ToFormat::Hcpe | ToFormat::Psv | ToFormat::Positions)
    }
}

/// Arguments of `shogi convert`.
#[derive(clap::Args)]
#[command(
    after_help = "Each record of each input is converted; a record that cannot be read is reported as \
`path:line:col: error: message` on stderr and the others are still converted (exit 1 at the end).\n\n\
--to sfen, usi and moves take the main line (its final position, or --ply N), or the line of \
--variation N, and lose nothing a position or a line could hold. The record formats convert every record and say on stderr, once \
per record, what the format cannot hold (variations, bookmarks and some endings in CSA; times in \
KI2; bookmarks in JKF; see the README), with a closing total; --strict makes any of it an error \
for that record (nothing written for it, exit 1), --lossy silences the warnings. --mainline \
converts the main line only (variations dropped, with a warning).\n\n\
Examples:\n  shogi convert samples/game.kif --to sfen           # the final position\n  \
shogi convert samples/game.kif --to sfen --ply 30  # the position after 30 moves\n  \
shogi convert samples/game.csa --to usi\n  \
shogi convert samples/ --to moves --notation western  # P-7f P-8d ..., a line per record\n  shogi convert - --to kif < samples/game.ki2\n  \
shogi convert samples/ --to csa --out-dir csa/  # one file per record file, same layout\n  \
shogi convert samples/game.kif --to csa --mainline  # a game with variations: its main line as CSA\n  \
shogi convert samples/game.csa --to kif --to-encoding shift-jis -o out/  # out/game.kif in Shift_JIS\n\n\
Training data (--to hcpe|psv|positions): one entry per position of each game's main line, before \
each move, with the move played, the game's result and the evaluation of the record's engine \
comments (Floodgate '**, ShogiHome 評価値=, ShogiGUI, ぴよ将棋; sente's view in the record, the \
side to move's in the output) or 0. hcpe: result 0 draw / 1 sente won / 2 gote won; psv and \
positions: 1 / 0 / -1 for the side to move, ply = the SFEN move number. Games without a result \
are left out unless --keep-unfinished; the counts go to stderr.\n  \
shogi convert samples/ --to hcpe --output train.hcpe --skip-draws\n  \
shogi convert samples/game.kif --to positions"
)]
pub struct ConvertArgs {
    /// Record files or directories (walked recursively); `-` reads stdin.
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// The output format.
    #[arg(long, value_enum)]
    pub to: ToFormat,
    /// With `--to sfen`: the position after this many main-line moves (0 = the start).
    #[arg(long)]
    pub ply: Option<usize>,
    /// With --to sfen, usi, moves, hcpe, psv or positions: take variation N (numbered as
    /// `shogi show` lists them) instead of the main line: the line it branches from up to
    /// the branch, then its own moves and ending. A record without it is an error for that
    /// record.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub variation: Option<u32>,
    /// With `--to moves`: how the moves are written (default usi).
    #[arg(long, value_enum, value_name = "NOTATION")]
    pub notation: Option<NotationArg>,
    /// Write one file per input into this folder (the layout below a given directory is kept,
    /// the extension becomes the output format's: `.kifu` and `.ki2u` for UTF-8 KIF and KI2,
    /// `.kif` and `.ki2` for Shift_JIS) instead of printing to stdout. An input with several
    /// records gives one file for SFEN, USI and CSA (games split by `/`) and numbered files
    /// (`name-2.kifu`, ...) for KIF, KI2 and JKF.
    #[arg(long, short = 'o')]
    pub out_dir: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Write each game's openings and castles into its header: `戦型` (CSA `$OPENING`), and
    /// `先手の戦型`, `先手の囲い`, `後手の戦型`, `後手の囲い` (CSA: as comment lines). A line
    /// the record already has is kept, with a note when ours differs.
    #[arg(long)]
    pub tags: bool,
    /// Convert the main line only: variations are dropped (in every format) and a warning
    /// says how many.
    #[arg(long)]
    pub mainline: bool,
    /// Do not warn about what the output format cannot hold (see below); in Shift_JIS
    /// output, write ▲ for ☗, △ for ☖ and `U+XXXX` for any other character Shift_JIS lacks.
    #[arg(long, conflicts_with = "strict")]
    pub lossy: bool,
    /// Make anything the output format cannot hold an error for that record: nothing is
    /// written for it, and the exit code is 1.
    #[arg(long)]
    pub strict: bool,
    /// The text encoding of KIF, KI2 and CSA output (default utf8); its declaration line says
    /// which. A character Shift_JIS lacks is an error naming it, unless --lossy.
    #[arg(long, value_enum, value_name = "ENCODING")]
    pub to_encoding: Option<EncodingArg>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub shard: ShardArgs,
    #[command(flatten)]
    pub select: SelectArgs,
    #[command(flatten)]
    pub training: training::TrainingArgs,
}

impl ConvertArgs {
    /// The encoding of the output text.
    fn encoding(&self) -> Encoding {
        self.to_encoding.map_or(Encoding::Utf8, Encoding::from)
    }
}

/// An error or warning of one input.
enum Message {
    /// A line as it is printed.
    Plain(String),
    /// About the `index`th record (from 1): printed after the input's name, with the record's
    /// number when the input holds several.
    Record {
        index: usize,
        text: String,
        error: bool,
    },
    /// Information about the `index`th record (no warning): printed as `path: note: ...`.
    Note { index: usize, text: String },
}

impl Message {
    /// The line printed for an input `path` of `records` records.
    fn render(&self, path: &str, records: usize) -> String {
        let (index, text, level) = match self {
            Message::Plain(s) => return s.clone(),
            Message::Record { index, text, error } => {
                (index, text, if *error { "error" } else { "warning" })
            }
            Message::Note { index, text } => (index, text, "note"),
        };
        if records > 1 {
            format!("{path}: {level}: record {index}: {text}")
        } else {
            format!("{path}: {level}: {text}")
        }
    }

    fn is_error(&self) -> bool {
        matches!(
            self,
            Message::Plain(_) | Message::Record { error: true, .. }
        )
    }
}

/// One game converted: the text, or the errors to report.
struct ConvertedGame {
    text: Option<Vec<u8>>,
    errors: Vec<Message>,
    io: Option<String>,
    selected: bool,
    key: Option<u64>,
    line: Option<String>,
    /// The kinds of what the output did not keep of the record.
    lost: Vec<&'static str>,
}

/// Converts one game (when the selection keeps it).
fn convert_game(
    path: &str,
    game: &InputRecord,
    args: &ConvertArgs,
    selection: &Selection,
    dedup: Option<DedupMode>,
    tags: Option<&RuleSet>,
) -> ConvertedGame {
    let mut done = ConvertedGame {
        text: None,
        errors: Vec::new(),
        io: None,
        selected: true,
        key: None,
        line: None,
        lost: Vec::new(),
    };
    if let Some((_, error, note)) = internal_error(path, game) {
        done.errors.push(Message::Plain(error));
        done.errors.push(Message::Plain(note));
        return done;
    }
    done.selected = selected(selection, path, game, None);
    if !done.selected {
        return done;
    }
    match (&game.record, &game.error) {
        (_, Some(e)) if e.kind == ErrorKind::Io => {
            done.io = Some(format!("error: {path}: {}", e.message));
        }
        (_, Some(e)) => done
            .errors
            .push(Message::Plain(e.clone().with_path(path).render())),
        (Some(record), None) => {
            if let Some(mode) = dedup {
                done.key = Some(game_key(record));
                done.line = (mode == DedupMode::Prefix).then(|| line_text(record));
            }
            let index = game.index as usize;
            let record = match chosen_line(record, args.variation) {
                Ok(r) => r,
                Err(text) => {
                    done.errors.push(Message::Record {
                        index,
                        text,
                        error: true,
                    });
                    return done;
                }
            };
            let record = match tags {
                Some(rules) => Cow::Owned(with_tags(record.into_owned(), rules, index, &mut done)),
                None => record,
            };
            let converted = convert_record(&record, args);
            done.lost = converted.lost;
            if let Some(text) = converted.warning {
                done.errors.push(Message::Record {
                    index,
                    text,
                    error: false,
                });
            }
            match converted.result {
                Ok(text) => done.text = Some(text),
                Err(text) => done.errors.push(Message::Record {
                    index,
                    text,
                    error: true,
                }),
            }
        }
        (None, None) => {}
    }
    done
}

/// `record` with its tags in its header (`--tags`); a line it already had is kept, with a
/// note when ours differs.
fn with_tags(
    mut record: Record,
    rules: &RuleSet,
    index: usize,
    done: &mut ConvertedGame,
) -> Record {
    if let Some(tags) = shogi_batch::game_tags(&record, rules) {
        for k in shogi_batch::add_tag_headers(&mut record, &tags, rules) {
            done.errors.push(Message::Note {
                index,
                text: format!(
                    "kept the record's own {}：{} (recognised: {})",
                    k.key, k.theirs, k.ours
                ),
            });
        }
    }
    record
}

/// The record whose main line is the line `--variation` chose (the record itself without
/// it); a record without that variation is an error for that record.
fn chosen_line(record: &Record, variation: Option<u32>) -> Result<Cow<'_, Record>, String> {
    let Some(n) = variation else {
        return Ok(Cow::Borrowed(record));
    };
    shogi_kif::with_variation(record, n as usize)
        .map(Cow::Owned)
        .ok_or_else(|| {
            format!(
                "no variation {n}: the record has {} (`shogi show` lists them)",
                crate::show::variation_count(shogi_kif::variations(record).len())
            )
        })
}

/// Refuses flags that do not go together; runs the training writers for their targets.
/// `Ok(true)`: the command is done.
fn check_flags(args: &ConvertArgs, ctx: &mut Ctx) -> Result<bool, Failure> {
    if args.ply.is_some() && args.to != ToFormat::Sfen {
        return Err(Failure::usage("error: --ply goes with --to sfen"));
    }
    if args.variation.is_some() && args.to.is_record() {
        return Err(Failure::usage(
            "error: --variation goes with --to sfen, usi, moves, hcpe, psv or positions \
             (the record formats keep every variation)",
        ));
    }
    if args.tags && !args.to.is_record() {
        return Err(Failure::usage(
            "error: --tags goes with --to kif, ki2, csa or jkf (stats --tags gives the columns)",
        ));
    }
    if args.notation.is_some() && args.to != ToFormat::Moves {
        return Err(Failure::usage("error: --notation goes with --to moves"));
    }
    match args.to_encoding {
        None | Some(EncodingArg::Utf8) => {}
        Some(EncodingArg::ShiftJis)
            if matches!(args.to, ToFormat::Kif | ToFormat::Ki2 | ToFormat::Csa) => {}
        Some(EncodingArg::ShiftJis) => {
            return Err(Failure::usage(
                "error: --to-encoding shift-jis goes with --to kif, ki2 or csa (the other formats are UTF-8 or ASCII)",
            ));
        }
        Some(EncodingArg::EucJp) => {
            return Err(Failure::usage(
                "error: --to-encoding takes utf8 or shift-jis (EUC-JP is read, not written)",
            ));
        }
    }
    if args.to.is_training() {
        // The training writers take --min-rating and the tag filters from the selection; the
        // other selection flags, --dedup and --shard are not theirs yet: refused rather than
        // ignored.
        let others = SelectArgs {
            min_rating: None,
            opening: None,
            castle: None,
            class: None,
            ..args.select.clone()
        };
        if !others.selection()?.is_empty() || others.dedup.is_some() || args.shard.shard.is_some() {
            return Err(Failure::usage(
                "error: with --to hcpe, psv or positions, only --min-rating, --opening, --castle \
                 and --class of the selection flags apply (and not --dedup or --shard)",
            ));
        }
        training::run(args, ctx)?;
        return Ok(true);
    }
    if args.training != training::TrainingArgs::default() {
        return Err(Failure::usage(
            "error: --output, --skip-first, --skip-draws, --skip-declarations and \
             --keep-unfinished go with --to hcpe, psv or positions",
        ));
    }
    Ok(false)
}

/// Runs `shogi convert`.
pub fn run(args: &ConvertArgs, ctx: &mut Ctx) -> Result<(), Failure> {
    if check_flags(args, ctx)? {
        return Ok(());
    }
    let selection = args.select.selection()?;
    let dedup = args.select.dedup()?;
    let tags = if args.tags {
        Some(args.select.tag_rules()?)
    } else {
        None
    };
    // Validation only matters to a selection (--valid, --ending ...).
    let plan = Plan::new(&args.paths, &args.input, args.jobs, "convert")
        .shard(&args.shard)
        .validate(!selection.is_empty());
    let batch = Batch::new(&plan, &ctx.stdin, ctx.options)?;
    let inputs = &batch.inputs;
    let targets = match &args.out_dir {
        Some(dir) => Some(output_paths(
            dir,
            inputs,
            extension(args.to, args.encoding()),
        )?),
        None => None,
    };
    let mut gather = Gather {
        w: Writer {
            args,
            inputs,
            targets,
            claimed: Default::default(),
            out: std::io::BufWriter::new(&mut *ctx.stdout),
            stderr: &mut *ctx.stderr,
            failed: false,
            io_failed: false,
            written: 0,
            files: 0,
            totals: Default::default(),
        },
        texts: Vec::new(),
        errors: Vec::new(),
        games: 0,
        inputs_done: 0,
        copies: Copies::new(dedup),
    };
    batch.run(
        |input, game| convert_game(&input.name, &game, args, &selection, dedup, tags),
        &mut gather,
    );
    let mut w = gather.flush_held();
    let _ = w.out.flush();
    w.closing_note();
    status(w.io_failed, w.failed)
}
