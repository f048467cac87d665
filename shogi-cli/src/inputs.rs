//! The inputs of a batch command: the paths as given, directories walked recursively in sorted
//! order for record files, `-` for standard input; and reading a file whole, once.

use crate::Failure;
use shogi_kif::Format;
use std::path::{Path, PathBuf};

/// Extensions read when walking a directory.
const RECORD_EXTENSIONS: &[&str] = &["kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usi", "sfen"];

/// One input: a path, or stdin (`-`).
#[derive(Clone, Debug)]
pub struct Input {
    /// The name shown in messages.
    pub name: String,
    /// The file (`None`: standard input).
    pub path: Option<PathBuf>,
    /// The path an output for this input takes below an output folder: the file name for a
    /// file given on the command line, the path below the directory for a walked one.
    pub rel: PathBuf,
}

impl Input {
    /// The format the extension suggests.
    pub fn hint(&self) -> Option<Format> {
        self.path
            .as_ref()
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
    }
}

/// Expands the command line's paths: files as given, directories walked recursively for
/// record files (sorted, so output is deterministic), `-` for stdin.
pub fn expand(paths: &[String]) -> Result<Vec<Input>, Failure> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            out.push(Input {
                name: "<stdin>".into(),
                path: None,
                rel: PathBuf::from("stdin"),
            });
            continue;
        }
        let path = PathBuf::from(p);
        let meta = std::fs::metadata(&path)
            .map_err(|e| Failure::usage(format!("error: {p}: {}", io_reason(&e))))?;
        if meta.is_dir() {
            // `walk` gives the files in path order (sorted), each directory sorted by name.
            let mut files = Vec::new();
            walk(&path, &mut files)
                .map_err(|e| Failure::usage(format!("error: {p}: {}", io_reason(&e))))?;
            out.extend(files.into_iter().map(|f| {
                Input {
                    name: f.display().to_string(),
                    rel: f
                        .strip_prefix(&path)
                        .map(Path::to_path_buf)
                        .unwrap_or_else(|_| f.clone()),
                    path: Some(f),
                }
            }));
        } else {
            out.push(Input {
                name: p.clone(),
                rel: path
                    .file_name()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| path.clone()),
                path: Some(path),
            });
        }
    }
    Ok(out)
}

/// The record files under `dir`, in the order of sorting their paths: a path sorts by its
/// components, so visiting each directory's entries by name gives that order without
/// comparing whole paths.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        entries.push((entry.file_name(), entry.path(), entry.file_type()?));
    }
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (_, path, ft) in entries {
        if ft.is_dir() {
            walk(&path, out)?;
        } else if ft.is_file() {
            let ext = path
                .extension()
                .and_then(|e| e.to_str())
                .map(|e| e.to_ascii_lowercase());
            if ext.is_some_and(|e| RECORD_EXTENSIONS.contains(&e.as_str())) {
                out.push(path);
            }
        }
    }
    Ok(())
}

/// An I/O error in the words of a message.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
