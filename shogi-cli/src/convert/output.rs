//! Where converted records go: stdout, or one file per input below --out-dir (numbered
//! siblings for several KIF, KI2 or JKF records); each input's records and messages gathered
//! until it is done, and --dedup's choice of copies.

use super::{ConvertArgs, ConvertedGame, Message, ToFormat, record::format_of};
use crate::ctx::Failure;
use crate::driver::{Copies, Handler};
use crate::inputs::{Input, io_reason};
use shogi_kif::{Encoding, Format};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Where the converted records go (stdout, or a file per input below --out-dir), and what
/// went wrong on the way.
pub(super) struct Writer<'a> {
    pub(super) args: &'a ConvertArgs,
    pub(super) inputs: &'a [Input],
    /// With --out-dir: each input's file.
    pub(super) targets: Option<Vec<PathBuf>>,
    /// Files already written (two inputs never write one file).
    pub(super) claimed: std::sync::Mutex<std::collections::HashSet<PathBuf>>,
    pub(super) out: std::io::BufWriter<&'a mut dyn Write>,
    pub(super) stderr: &'a mut dyn Write,
    pub(super) failed: bool,
    pub(super) io_failed: bool,
    /// Records written to stdout so far.
    pub(super) written: usize,
    /// Files written below --out-dir so far.
    pub(super) files: usize,
    /// Records converted and what they did not keep, for the closing total.
    pub(super) totals: Totals,
}

/// Records converted, and for each kind of thing not kept (in the order first met) how many
/// of them lost one.
#[derive(Default)]
pub(super) struct Totals {
    converted: usize,
    lost: Vec<(&'static str, usize)>,
}

impl Totals {
    /// Counts a converted record's losses.
    pub(super) fn add(&mut self, g: &ConvertedGame) {
        if g.text.is_none() {
            return;
        }
        self.converted += 1;
        for &kind in &g.lost {
            match self.lost.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => self.lost.push((kind, 1)),
            }
        }
    }

    /// `converted 10,000 records; not kept: times in 10,000, comments in 52`, when anything
    /// was not kept.
    pub(super) fn line(&self) -> Option<String> {
        if self.lost.is_empty() {
            return None;
        }
        let kinds: Vec<String> = self
            .lost
            .iter()
            .map(|(k, n)| format!("{k} in {}", thousands(*n)))
            .collect();
        let records = if self.converted == 1 {
            "record"
        } else {
            "records"
        };
        Some(format!(
            "converted {} {records}; not kept: {}",
            thousands(self.converted),
            kinds.join(", ")
        ))
    }
}

/// `10000` as `10,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Writer<'_> {
    /// Writes the converted records of input `i` (to stdout or its file) and reports its
    /// errors; `records` is the number of records the input held.
    pub(super) fn flush_input(
        &mut self,
        i: usize,
        texts: &[Vec<u8>],
        errors: &[Message],
        records: usize,
    ) {
        let input = &self.inputs[i];
        match self.targets.as_ref().map(|t| &t[i]) {
            None => {
                for text in texts {
                    // CSA separates games with a `/` line; the other formats hold one record
                    // a file (SFEN and USI one a line).
                    if self.written > 0 && self.args.to == ToFormat::Csa {
                        let _ = self.out.write_all(b"/\n");
                    }
                    let _ = self.out.write_all(text);
                    if !text.ends_with(b"\n") {
                        let _ = self.out.write_all(b"\n");
                    }
                    self.written += 1;
                }
                // Keep stdout and stderr in step for a reader watching both.
                let _ = self.out.flush();
            }
            Some(base) => match write_outputs(base, self.args, texts, &self.claimed, input) {
                Ok(n) => self.files += n,
                Err(e) => {
                    let _ = writeln!(self.stderr, "{e}");
                    self.io_failed = true;
                }
            },
        }
        for e in errors {
            let _ = writeln!(self.stderr, "{}", e.render(&input.name, records));
        }
    }

    /// The closing line on stderr: the files written, or a note on records that were written
    /// one after another where no reader takes them as one input.
    pub(super) fn closing_note(&mut self) {
        if let Some(line) = self.totals.line().filter(|_| !self.args.lossy) {
            let _ = writeln!(self.stderr, "{line}");
        }
        if let Some(dir) = &self.args.out_dir {
            let _ = writeln!(
                self.stderr,
                "wrote {} file(s) into {} from {} input(s)",
                self.files,
                dir.display(),
                self.inputs.len()
            );
        } else if self.written > 1
            && matches!(self.args.to, ToFormat::Kif | ToFormat::Ki2 | ToFormat::Jkf)
        {
            let _ = writeln!(
                self.stderr,
                "note: {} {} records were written one after another to stdout, which \
                 no reader takes as one input; --out-dir writes a file for each",
                self.written,
                format_of(self.args.to)
                    .map_or("", Format::name)
                    .to_ascii_uppercase()
            );
        }
    }
}

/// The converted games of the input being read, handed over to the writer when it is done;
/// and, for --dedup, which copies are kept.
pub(super) struct Gather<'a> {
    pub(super) w: Writer<'a>,
    pub(super) texts: Vec<Vec<u8>>,
    pub(super) errors: Vec<Message>,
    /// Games the current input gave, for `record N` in its messages.
    pub(super) games: usize,
    /// Inputs done so far: the index of the input being read.
    pub(super) inputs_done: usize,
    /// With --dedup prefix: every kept game, with its input's index, until the end.
    pub(super) copies: Copies<(usize, ConvertedGame)>,
}

impl<'a> Handler<ConvertedGame> for Gather<'a> {
    /// Takes one converted game.
    fn game(&mut self, input: &Input, mut g: ConvertedGame) -> ControlFlow<()> {
        self.games += 1;
        if !g.selected {
            return ControlFlow::Continue(());
        }
        if let Some(io) = &g.io {
            self.errors.push(Message::Plain(io.clone()));
            self.w.io_failed = true;
        }
        self.w.failed |= g.errors.iter().any(Message::is_error);
        self.errors.extend(std::mem::take(&mut g.errors));
        let (key, line) = (g.key, g.line.take());
        let offered = self
            .copies
            .offer((self.inputs_done, g), key, |_| input.name.clone(), line);
        if let Some(((_, g), None)) = offered {
            self.w.totals.add(&g);
            self.texts.extend(g.text);
        }
        ControlFlow::Continue(())
    }

    /// The input is done: its records are written.
    fn input_done(&mut self, _: &Input) -> ControlFlow<()> {
        let (texts, errors) = (
            std::mem::take(&mut self.texts),
            std::mem::take(&mut self.errors),
        );
        self.w.flush_input(
            self.inputs_done,
            &texts,
            &errors,
            std::mem::take(&mut self.games),
        );
        self.inputs_done += 1;
        ControlFlow::Continue(())
    }
}

impl<'a> Gather<'a> {
    /// --dedup prefix: every game was needed before deciding; the kept ones now, by input.
    /// Returns the writer, done with.
    pub(super) fn flush_held(mut self) -> Writer<'a> {
        let held = self.copies.finish();
        if held.is_empty() {
            return self.w;
        }
        let mut by_input: Vec<Vec<Vec<u8>>> = vec![Vec::new(); self.w.inputs.len()];
        for ((i, g), d) in held {
            if d.is_none() {
                self.w.totals.add(&g);
                by_input[i].extend(g.text);
            }
        }
        for (i, t) in by_input.into_iter().enumerate() {
            if !t.is_empty() {
                self.w.flush_input(i, &t, &[], 0);
            }
        }
        self.w
    }
}

/// The extension of an output format: Kakinoki's `.kif`/`.ki2` for Shift_JIS, `.kifu`/`.ki2u`
/// for UTF-8.
pub(crate) fn extension(to: ToFormat, encoding: Encoding) -> &'static str {
    let utf8 = encoding == Encoding::Utf8;
    match to {
        ToFormat::Sfen => "sfen",
        ToFormat::Usi => "usi",
        ToFormat::Moves => "moves",
        ToFormat::Kif if utf8 => "kifu",
        ToFormat::Kif => "kif",
        ToFormat::Ki2 if utf8 => "ki2u",
        ToFormat::Ki2 => "ki2",
        ToFormat::Csa => "csa",
        ToFormat::Jkf => "jkf",
        ToFormat::Hcpe => "hcpe",
        ToFormat::Psv => "psv",
        ToFormat::Positions => "positions",
    }
}

/// The output file of each input below `dir`: its relative path with the output format's
/// extension, or, where two inputs would meet in one file (`game.kif` and `game.ki2`), the whole
/// input name with the extension added (`game.kif.csa`). Writing over an input is refused.
pub(crate) fn output_paths(
    dir: &Path,
    inputs: &[Input],
    ext: &str,
) -> Result<Vec<PathBuf>, Failure> {
    let plain: Vec<PathBuf> = inputs
        .iter()
        .map(|i| dir.join(&i.rel).with_extension(ext))
        .collect();
    let mut seen = std::collections::HashMap::new();
    for p in &plain {
        *seen.entry(p.clone()).or_insert(0) += 1;
    }
    let mut out = Vec::with_capacity(inputs.len());
    for (input, p) in inputs.iter().zip(plain) {
        let target = if seen[&p] > 1 {
            let mut name = dir.join(&input.rel).into_os_string();
            name.push(".");
            name.push(ext);
            PathBuf::from(name)
        } else {
            p
        };
        if let Some(src) = &input.path {
            let same = match (std::fs::canonicalize(src), std::fs::canonicalize(&target)) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            };
            if same {
                return Err(Failure::usage(format!(
                    "error: {}: converting it would overwrite it; choose another --out-dir",
                    input.name
                )));
            }
        }
        out.push(target);
    }
    Ok(out)
}

/// Writes the converted records of one input to `base` (numbered siblings for KIF, KI2 and
/// JKF inputs with several records); returns the number of files written.
fn write_outputs(
    base: &Path,
    args: &ConvertArgs,
    texts: &[Vec<u8>],
    claimed: &std::sync::Mutex<std::collections::HashSet<PathBuf>>,
    input: &Input,
) -> Result<usize, String> {
    if texts.is_empty() {
        return Ok(0);
    }
    let (to, ext) = (args.to, extension(args.to, args.encoding()));
    let base = base.to_path_buf();
    if let Some(parent) = base.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("error: {}: {}", parent.display(), io_reason(&e)))?;
    }
    let line = |t: &Vec<u8>| {
        let mut t = t.clone();
        if !t.ends_with(b"\n") {
            t.push(b'\n');
        }
        t
    };
    let outputs: Vec<(PathBuf, Vec<u8>)> = match to {
        ToFormat::Sfen | ToFormat::Usi | ToFormat::Moves => {
            vec![(base, texts.iter().flat_map(line).collect())]
        }
        ToFormat::Csa => vec![(
            base,
            texts.iter().map(line).collect::<Vec<_>>().join(&b"/\n"[..]),
        )],
        _ => texts
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let path = if i == 0 {
                    base.clone()
                } else {
                    let stem = base
                        .file_stem()
                        .and_then(|s| s.to_str())
                        .unwrap_or("record");
                    base.with_file_name(format!("{stem}-{}.{ext}", i + 1))
                };
                (path, line(t))
            })
            .collect(),
    };
    for (path, _) in &outputs {
        let fresh = claimed
            .lock()
            .map(|mut set| set.insert(path.clone()))
            .unwrap_or(false);
        if !fresh {
            return Err(format!(
                "error: {}: two records would be written to {}; rename one of the inputs",
                input.name,
                path.display()
            ));
        }
    }
    for (path, text) in &outputs {
        std::fs::write(path, text)
            .map_err(|e| format!("error: {}: {}", path.display(), io_reason(&e)))?;
    }
    Ok(outputs.len())
}
