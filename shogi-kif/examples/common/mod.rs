//! What the timing examples share: their arguments.

use std::path::PathBuf;

/// A timing example's arguments: the record files of the folders (not their subfolders) or
/// files given, sorted; `--rounds N` (default `rounds`); and the other `--` flags, as given.
pub struct Args {
    pub rounds: usize,
    pub files: Vec<PathBuf>,
    pub flags: Vec<String>,
}

impl Args {
    pub fn parse(rounds: usize) -> Args {
        let mut out = Args {
            rounds,
            files: Vec::new(),
            flags: Vec::new(),
        };
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            if a == "--rounds" {
                out.rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds N");
            } else if a.starts_with("--") {
                out.flags.push(a);
            } else {
                match std::fs::read_dir(&a) {
                    Ok(dir) => out
                        .files
                        .extend(dir.filter_map(|e| e.ok().map(|e| e.path()))),
                    Err(_) => out.files.push(PathBuf::from(a)),
                }
            }
        }
        out.files.sort();
        out
    }
}
