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

use crate::error::{MatchError, Parameter};
use crate::game::{Finished, GAME_KEY};
use crate::record::{self, OutFormat};
use crate::schedule::GameSpec;
use crate::settings::Settings;
use crate::tally::Done;
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
    pub fn new(target: Target, formats: Vec<OutFormat>) -> Result<Output, MatchError> {
        if formats.is_empty() {
            return Err(MatchError::setting(Parameter::OutFormat, "names no format"));
        }
        if let Target::File(p) = &target {
            if formats.len() != 1 {
                return Err(MatchError::setting(
                    Parameter::Out,
                    format!(
                        "{}: one file takes one format (several formats need a folder)",
                        p.display()
                    ),
                ));
            }
            if !formats[0].multi_game() {
                // KIF has no separator between games: our reader (shogi_kif) reads a KIF file
                // as one game, so a multi-game KIF could not be read back.
                return Err(MatchError::setting(
                    Parameter::Out,
                    format!(
                        "{}: KIF holds one game per file (the format has no separator between \
                         games; a KIF file is read as one game): write KIF to a folder, or CSA \
                         (games separated by `/`) to one file",
                        p.display()
                    ),
                ));
            }
        }
        Ok(Output { target, formats })
    }

    /// Checks the target before the match: refuses to overwrite without `resume`; with
    /// `resume`, reads the games already written.
    pub fn prepare(&self, settings: &Settings, resume: bool) -> Result<Vec<Done>, MatchError> {
        let schedule = crate::schedule::schedule(settings);
        match &self.target {
            Target::File(p) => {
                if !p.exists() {
                    if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                        if !parent.is_dir() {
                            return Err(MatchError::setting(
                                Parameter::Out,
                                format!(
                                    "{}: the folder {} does not exist",
                                    p.display(),
                                    parent.display()
                                ),
                            ));
                        }
                    }
                    return Ok(Vec::new());
                }
                if !resume {
                    return Err(MatchError::OutputExists {
                        parameter: Parameter::Out,
                        path: p.clone(),
                        game: None,
                    });
                }
                let bytes = fs::read(p).map_err(|error| MatchError::Write {
                    path: p.clone(),
                    error,
                })?;
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return Ok(Vec::new());
                }
                let mut done = Vec::new();
                let unreadable = |message: String| MatchError::Resume {
                    path: p.clone(),
                    message,
                };
                let reader = Reader::new(&bytes[..], ReadOptions::default())
                    .map_err(|e| unreadable(e.to_string()))?;
                for game in reader {
                    if let Some(e) = game.error {
                        return Err(unreadable(format!(
                            "{e} (cannot resume: remove the broken game)"
                        )));
                    }
                    done.push(check_done(&game.record, &schedule, settings, p)?);
                }
                Ok(done)
            }
            Target::Dir(d) => {
                if d.exists() && !d.is_dir() {
                    return Err(MatchError::setting(
                        Parameter::OutDir,
                        format!("{}: not a folder", d.display()),
                    ));
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
                            return Err(MatchError::OutputExists {
                                parameter: Parameter::OutDir,
                                path: d.clone(),
                                game: Some(path.clone()),
                            });
                        }
                        let record =
                            shogi_kif::read_path(&path, ReadOptions::default()).map_err(|e| {
                                MatchError::Resume {
                                    path: path.clone(),
                                    message: format!("{e} (cannot resume)"),
                                }
                            })?;
                        done.push(check_done(&record, &schedule, settings, &path)?);
                    }
                } else {
                    fs::create_dir_all(d).map_err(|error| MatchError::Write {
                        path: d.clone(),
                        error,
                    })?;
                }
                Ok(done)
            }
        }
    }

    /// Writes a finished game.
    pub fn write(&self, f: &Finished) -> Result<(), MatchError> {
        match &self.target {
            Target::File(p) => {
                let text = record::write(&f.record, &f.notes, self.formats[0]);
                let mut file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|error| MatchError::Write {
                        path: p.clone(),
                        error,
                    })?;
                let empty = file.metadata().map(|m| m.len() == 0).unwrap_or(true);
                let mut all = String::new();
                if !empty {
                    all.push_str("/\n");
                }
                all.push_str(&text);
                file.write_all(all.as_bytes())
                    .and_then(|()| file.flush())
                    .map_err(|error| MatchError::Write {
                        path: p.clone(),
                        error,
                    })
            }
            Target::Dir(d) => {
                for &fmt in &self.formats {
                    let text = record::write(&f.record, &f.notes, fmt);
                    let name = format!("{}.{}", game_name(f.spec.index), fmt.extension());
                    let path = d.join(&name);
                    let tmp = d.join(format!(".{name}.tmp"));
                    fs::write(&tmp, text)
                        .and_then(|()| fs::rename(&tmp, &path))
                        .map_err(|error| MatchError::Write {
                            path: path.clone(),
                            error,
                        })?;
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
) -> Result<Done, MatchError> {
    let bad = |why: String| {
        Err(MatchError::Resume {
            path: path.to_path_buf(),
            message: format!(
                "{why}: not a game of this match (run it again with the same arguments, or another output)"
            ),
        })
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
