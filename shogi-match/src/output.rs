//! Where records go: one multi-game CSA file (`--out FILE`, games separated by `/` lines) or
//! one file per game in a folder (`--out-dir DIR`: `game-0001.csa`, `game-0001.kifu`, … in
//! every format asked for). Games are written as they end, in the order they end; each
//! record carries its game number ([`GAME_KEY`]), which `--resume` reads back.
//!
//! Without `--resume` nothing is ever overwritten: an existing file, or a folder holding game
//! files, is refused before the match starts. With `--resume` the games already written are
//! read back (each must read without error and name the engines the schedule gives it), their
//! results are counted, and only the others are played. In a folder each file is written to a
//! temporary name and renamed, so a killed match leaves no half-written game behind.

use crate::record::{self, OutFormat};
use crate::runner::{Done, Finished, GAME_KEY, GameSpec, Settings};
use shogi_kif::{HeaderKey, ReadOptions, Reader, Record};
use shogi_kif::{MainLine, Winner, outcome};
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where records are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// One multi-game file (CSA only).
    File(PathBuf),
    /// One file per game and format in a folder.
    Dir(PathBuf),
}

/// The record output of a match.
#[derive(Clone, Debug)]
pub struct Output {
    target: Target,
    formats: Vec<OutFormat>,
}

fn game_name(index: usize) -> String {
    format!("game-{:04}", index + 1)
}

impl Output {
    /// An output; a multi-game file takes one CSA format only.
    pub fn new(target: Target, formats: Vec<OutFormat>) -> Result<Output, String> {
        if formats.is_empty() {
            return Err("no --out-format".into());
        }
        if let Target::File(p) = &target {
            if formats.len() != 1 {
                return Err(format!(
                    "--out {}: one file takes one format (several formats need --out-dir)",
                    p.display()
                ));
            }
            if !formats[0].multi_game() {
                // KIF has no separator between games: our reader (shogi_kif) reads a KIF file
                // as one game, so a multi-game KIF could not be read back.
                return Err(format!(
                    "--out {}: KIF holds one game per file (the format has no separator between \
                     games; a KIF file is read as one game): use --out-dir DIR for KIF, or CSA \
                     (games separated by `/`) for one file",
                    p.display()
                ));
            }
        }
        Ok(Output { target, formats })
    }

    /// Checks the target before the match: refuses to overwrite without `resume`; with
    /// `resume`, reads the games already written.
    pub fn prepare(&self, settings: &Settings, resume: bool) -> Result<Vec<Done>, String> {
        let schedule = crate::runner::schedule(settings);
        match &self.target {
            Target::File(p) => {
                if !p.exists() {
                    if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                        if !parent.is_dir() {
                            return Err(format!(
                                "--out {}: the folder {} does not exist",
                                p.display(),
                                parent.display()
                            ));
                        }
                    }
                    return Ok(Vec::new());
                }
                if !resume {
                    return Err(format!(
                        "--out {} exists: --resume continues that match, or choose another file (nothing was overwritten)",
                        p.display()
                    ));
                }
                let bytes = fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return Ok(Vec::new());
                }
                let mut done = Vec::new();
                let reader = Reader::new(&bytes[..], ReadOptions::default())
                    .map_err(|e| e.with_path(p.display().to_string()).to_string())?;
                for game in reader {
                    if let Some(e) = game.error {
                        return Err(format!(
                            "{} (cannot resume: remove the broken game)",
                            e.with_path(p.display().to_string())
                        ));
                    }
                    done.push(check_done(&game.record, &schedule, settings, p)?);
                }
                Ok(done)
            }
            Target::Dir(d) => {
                if d.exists() && !d.is_dir() {
                    return Err(format!("--out-dir {}: not a folder", d.display()));
                }
                let mut done = Vec::new();
                if d.is_dir() {
                    let ext = self.formats[0].extension();
                    for spec in &schedule {
                        let path = d.join(format!("{}.{ext}", game_name(spec.index)));
                        if !path.exists() {
                            continue;
                        }
                        if !resume {
                            return Err(format!(
                                "--out-dir {} holds games of a match ({}): --resume continues it, or choose another folder (nothing was overwritten)",
                                d.display(),
                                path.display()
                            ));
                        }
                        let record = shogi_kif::read_path(&path, ReadOptions::default())
                            .map_err(|e| format!("{e} (cannot resume)"))?;
                        done.push(check_done(&record, &schedule, settings, &path)?);
                    }
                } else {
                    fs::create_dir_all(d).map_err(|e| format!("--out-dir {}: {e}", d.display()))?;
                }
                Ok(done)
            }
        }
    }

    /// Writes a finished game.
    pub fn write(&self, f: &Finished) -> Result<(), String> {
        match &self.target {
            Target::File(p) => {
                let text = record::write(&f.record, &f.notes, self.formats[0]);
                let mut file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| format!("{}: {e}", p.display()))?;
                let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
                let mut all = String::new();
                if !empty {
                    all.push_str("/\n");
                }
                all.push_str(&text);
                file.write_all(all.as_bytes())
                    .and_then(|()| file.flush())
                    .map_err(|e| format!("{}: {e}", p.display()))
            }
            Target::Dir(d) => {
                for &fmt in &self.formats {
                    let text = record::write(&f.record, &f.notes, fmt);
                    let name = format!("{}.{}", game_name(f.spec.index), fmt.extension());
                    let path = d.join(&name);
                    let tmp = d.join(format!(".{name}.tmp"));
                    fs::write(&tmp, text)
                        .and_then(|()| fs::rename(&tmp, &path))
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                }
                Ok(())
            }
        }
    }
}

/// A written game: its number, engines as scheduled, its result.
fn check_done(
    record: &Record,
    schedule: &[GameSpec],
    settings: &Settings,
    path: &Path,
) -> Result<Done, String> {
    let bad = |why: String| {
        Err(format!(
            "{}: {why}: not a game of this match (run it again with the same arguments, or another output)",
            path.display()
        ))
    };
    let Some(n) = record
        .header
        .get(&HeaderKey::Other(GAME_KEY.into()))
        .and_then(|v| v.trim().parse::<usize>().ok())
    else {
        return bad(format!("no {GAME_KEY} number"));
    };
    let Some(spec) = n.checked_sub(1).and_then(|i| schedule.get(i)) else {
        return bad(format!("game {n} is not in the schedule"));
    };
    let (b, w) = (
        &settings.engines[spec.black].name,
        &settings.engines[spec.white].name,
    );
    if record.header.black() != Some(b.as_str()) || record.header.white() != Some(w.as_str()) {
        return bad(format!(
            "game {n} is {:?} vs {:?}, the schedule says {b:?} vs {w:?}",
            record.header.black().unwrap_or(""),
            record.header.white().unwrap_or("")
        ));
    }
    // The workspace's one winner function decides, as for every other record.
    let winner = match outcome(record, &MainLine::replay(record)).1 {
        Winner::Draw => None,
        w @ (Winner::Sente | Winner::Gote) => w.color(),
        Winner::None => return bad(format!("game {n} has no result")),
    };
    Ok(Done {
        index: spec.index,
        winner,
    })
}
