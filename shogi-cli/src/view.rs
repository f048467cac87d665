//! `shogi view`: one self-contained HTML page per game (the shogi-web crate draws them), and
//! for a folder or several games an index page.

use crate::ctx::{Ctx, Failure};
use shogi_kif::{ReadOptions, Reader};
use shogi_web::{Analysis, GameView, IndexEntry, game_page, index_page};
use std::path::{Path, PathBuf};

/// Arguments of `shogi view`.
#[derive(clap::Args)]
#[command(
    after_help = "Each page holds the board (SVG, kanji), the moves in Japanese notation \
(Western at a click), comments, tags and the evaluation graph (from the record's evaluation \
comments, or from --analysis), with keys ←/→, Home/End. A page makes no request of any kind: it \
opens offline, from a file. With several games, -o names a folder: one page per game \
(INPUT.html, or INPUT.N.html for the N-th game of a file holding several) and index.html.\n\
A record with an error is shown up to the error, which is reported as path:line:col (exit 1).\n\
Exit status: 0, 1 when a record had an error, 2 on usage, input or output errors.\n\n\
Examples:\n  shogi view samples/game.kif -o game.html\n  shogi view samples/ -o pages/"
)]
pub struct ViewArgs {
    /// Record files or directories (walked recursively for record files).
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// The page (FILE.html, for one game) or the folder of pages and index.html.
    #[arg(long, short = 'o', value_name = "DIR|FILE.html")]
    pub output: PathBuf,
    /// Take the evaluations from this analysis cache (`shogi analyze --cache`) instead of the
    /// records' comments.
    #[arg(long, value_name = "FILE")]
    pub analysis: Option<PathBuf>,
    #[command(flatten)]
    pub input: crate::args::InputArgs,
}

/// One game read: its view and where its page goes (relative to the output folder).
struct Page {
    view: GameView,
    rel: PathBuf,
    date: Option<String>,
}

/// `shogi view`.
pub fn run(args: &ViewArgs, ctx: &mut Ctx<'_>) -> Result<(), Failure> {
    let inputs =
        shogi_batch::expand(&args.paths).map_err(|e| Failure::usage(format!("error: {e}")))?;
    let analysis = match &args.analysis {
        Some(p) => Some(Analysis::open(p).map_err(|e| Failure::usage(format!("error: {e}")))?),
        None => None,
    };
    let opts = ReadOptions {
        format: args.input.from,
        encoding: args.input.encoding.map(shogi_kif::Encoding::from),
        ..ReadOptions::default()
    };
    let mut pages = Vec::new();
    let mut failed = false;
    for input in &inputs {
        let Some(path) = &input.path else {
            return Err(Failure::usage(
                "error: -: shogi view reads files, not stdin",
            ));
        };
        let reader = match Reader::open(path, opts) {
            Ok(r) => r,
            Err(e) => {
                report(ctx, &input.name, &e)?;
                failed = true;
                continue;
            }
        };
        let games: Vec<_> = reader.collect();
        let several = games.len() > 1;
        for game in games {
            if let Some(e) = &game.error {
                report(ctx, &input.name, e)?;
                failed = true;
            }
            let name = input.rel.to_string_lossy().into_owned();
            let mut view = GameView::of(&game.record, &name);
            if let Some(e) = &game.error {
                view.stopped_by(&input.name, e);
            }
            if let Some(a) = &analysis {
                a.annotate(&mut view)
                    .map_err(|e| Failure::usage(format!("error: {e}")))?;
            }
            let rel = if several {
                PathBuf::from(format!("{}.{}.html", input.rel.display(), game.index))
            } else {
                PathBuf::from(format!("{}.html", input.rel.display()))
            };
            let date = game.record.header.entries.iter().find_map(|e| {
                matches!(e.key.kif(), "開始日時" | "対局日" | "終了日時").then(|| e.value.clone())
            });
            pages.push(Page { view, rel, date });
        }
    }
    write_pages(args, &pages, ctx)?;
    if failed {
        return Err(Failure::silent(1));
    }
    Ok(())
}

/// A record's error as `path:line:col: error: message` on stderr.
fn report(ctx: &mut Ctx<'_>, name: &str, e: &shogi_kif::ReadError) -> Result<(), Failure> {
    let _ = writeln!(
        ctx.stderr,
        "{name}:{}:{}: error: {}",
        e.location.line, e.location.column, e.message
    );
    Ok(())
}

/// Writes one page (`-o FILE.html`, one game) or a folder of pages with an index.
fn write_pages(args: &ViewArgs, pages: &[Page], ctx: &mut Ctx<'_>) -> Result<(), Failure> {
    let out = &args.output;
    let write = |path: &Path, text: &str| {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure::usage(format!("error: {}: {e}", dir.display())))?;
        }
        std::fs::write(path, text)
            .map_err(|e| Failure::usage(format!("error: {}: cannot write: {e}", path.display())))
    };
    let is_file = out.extension().is_some_and(|e| e == "html" || e == "htm");
    if is_file {
        match pages {
            [one] => {
                write(out, &game_page(&one.view))?;
                let _ = writeln!(ctx.stdout, "{}: 1 game", out.display());
                return Ok(());
            }
            [] => return Err(Failure::usage("error: no game was read: nothing written")),
            _ => {
                return Err(Failure::usage(format!(
                    "error: -o {}: {} games: give a folder for several games",
                    out.display(),
                    pages.len()
                )));
            }
        }
    }
    let mut entries = Vec::with_capacity(pages.len());
    for p in pages {
        write(&out.join(&p.rel), &game_page(&p.view))?;
        entries.push(IndexEntry {
            href: p.rel.to_string_lossy().replace('\\', "/"),
            title: p.view.title.clone(),
            date: p.date.clone(),
            result: p.view.result.clone(),
        });
    }
    let title = format!("{} games", entries.len());
    write(&out.join("index.html"), &index_page(&title, &entries))?;
    let _ = writeln!(
        ctx.stdout,
        "{}: {} game page{} and index.html",
        out.display(),
        pages.len(),
        if pages.len() == 1 { "" } else { "s" }
    );
    Ok(())
}
