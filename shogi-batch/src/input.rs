//! Inputs: the command line's paths expanded into files, and shards of them.

use crate::archive::{self, Archive, Codec, Kind, Member};
use crate::key::Fnv1a;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// File extensions read when a directory is walked (compared without case).
pub const RECORD_EXTENSIONS: &[&str] = &["kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usi", "sfen"];

/// One input: a file, a member of an archive, or standard input (`-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The name shown in messages and in the `path` column: the path as given, or for a
    /// file found in a directory, the directory as given joined with the path below it;
    /// `<stdin>` for standard input.
    pub name: String,
    /// The file, or `None` for standard input and for a member of an archive.
    pub path: Option<PathBuf>,
    /// The path below the directory it was found in (the file name for a file given by
    /// itself, `stdin` for standard input): where an output for it goes below an output
    /// folder, and what [`Shard`] hashes.
    pub rel: PathBuf,
    /// The size in bytes when known at expansion, 0 when not (standard input, and a record
    /// file found in a folder walk: reading it finds its end); a member's size unpacked; a
    /// compressed file's size packed.
    pub size: u64,
    /// For a member of an archive: which (its name is `archive/member/path`, its `rel` the
    /// archive's relative path without its suffix joined with the member's path).
    pub member: Option<Arc<Member>>,
    /// For a file compressed as a whole (`game.csa.gz`): how (read through it, streamed).
    pub codec: Option<Codec>,
}

impl Input {
    /// Standard input.
    pub fn stdin() -> Input {
        Input {
            name: "<stdin>".into(),
            path: None,
            rel: PathBuf::from("stdin"),
            size: 0,
            member: None,
            codec: None,
        }
    }

    /// A file, named as given.
    pub fn file(path: impl Into<PathBuf>) -> Input {
        let path = path.into();
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        Input {
            name: path.display().to_string(),
            rel: path
                .file_name()
                .map(PathBuf::from)
                .unwrap_or_else(|| path.clone()),
            path: Some(path),
            size,
            member: None,
            codec: None,
        }
    }

    /// Whether this is standard input.
    pub fn is_stdin(&self) -> bool {
        self.path.is_none() && self.member.is_none()
    }

    /// The format the file extension suggests (a hint for detection only): the member's for
    /// a member, the name's without the compression suffix for a compressed file.
    pub fn hint(&self) -> Option<shogi_kif::Format> {
        fn of(name: &Path) -> Option<shogi_kif::Format> {
            extension(name).and_then(shogi_kif::Format::from_extension)
        }
        // A lossy name has the same extension when it is UTF-8 (a replaced byte is no dot),
        // and none that a format has otherwise: the path is asked directly.
        match (&self.member, &self.path) {
            (Some(m), _) => of(Path::new(&m.path)),
            (None, Some(p)) if self.codec.is_some() => of(Path::new(
                archive::strip_archive_suffix(&p.to_string_lossy()),
            )),
            (None, Some(p)) => of(p),
            (None, None) => None,
        }
    }

    /// The text [`Shard`] hashes: the path below the directory it was found in, with `/`
    /// between components (so the same on every machine and operating system wherever the
    /// collection is mounted), or the path as given for a file named by itself; `-` for
    /// standard input.
    pub fn shard_name(&self) -> String {
        if self.is_stdin() {
            return "-".into();
        }
        let parts: Vec<String> = self
            .rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        parts.join("/")
    }
}

/// A path on the command line that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The path as given.
    pub path: String,
    /// Why (`no such file or directory`, `permission denied`, …).
    pub reason: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

impl std::error::Error for InputError {}

/// A short reason for an I/O error.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Expands paths into inputs, in order: files as given (whatever their extension), `-` as
/// standard input, directories walked recursively for record files (see
/// [`RECORD_EXTENSIONS`]) and archives (see [`archive::is_archive_name`]) in sorted path
/// order, so that every run lists them the same way.
///
/// An archive (zip, 7z, tar, compressed tar: told by its first bytes) becomes one input per
/// record member, in the archive's order; a file compressed as a whole (gzip, zstd, xz,
/// bzip2) one input read through its decompression. An archive that cannot be listed, or
/// breaks part way, becomes inputs that fail with the reason when read, after the members
/// listed before the break.
///
/// A path that does not exist or a directory that cannot be listed is an error: the caller
/// asked for something that is not there.
pub fn expand(paths: &[impl AsRef<str>]) -> Result<Vec<Input>, InputError> {
    let mut out = Vec::new();
    let mut budget = archive::HOLD_LIMIT;
    for p in paths {
        let p = p.as_ref();
        if p == "-" {
            out.push(Input::stdin());
            continue;
        }
        let path = PathBuf::from(p);
        let err = |e: std::io::Error| InputError {
            path: p.to_string(),
            reason: io_reason(&e),
        };
        let meta = std::fs::metadata(&path).map_err(err)?;
        if meta.is_dir() {
            let mut files = Vec::new();
            walk(&path, Path::new(""), &mut files).map_err(err)?;
            // Room for them all at once: grown by doubling, a list of 10,000 inputs is copied
            // into fresh memory several times (each new page a fault).
            out.reserve(files.len());
            for Found {
                path: f,
                rel,
                size,
                record,
            } in files
            {
                let input = Input {
                    // What `f.display()` writes, without the formatting machinery (a
                    // collection is walked once a file).
                    name: f.to_string_lossy().into_owned(),
                    rel,
                    path: Some(f),
                    size,
                    member: None,
                    codec: None,
                };
                // A record's extension is not an archive's: only other files are asked.
                if !record && archive::is_archive_name(&input.rel.to_string_lossy()) {
                    unpack(input, &mut out, &mut budget);
                } else {
                    out.push(input);
                }
            }
        } else {
            let input = Input {
                name: p.to_string(),
                rel: path
                    .file_name()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| path.clone()),
                path: Some(path),
                size: meta.len(),
                member: None,
                codec: None,
            };
            unpack(input, &mut out, &mut budget);
        }
    }
    Ok(out)
}

/// Adds `input` to `out` as what its first bytes say it is: a record file, a compressed
/// record, or an archive's record members (see [`expand`]).
/// `budget`: the bytes tars' listings may still hold (see [`archive::HOLD_LIMIT`]).
fn unpack(mut input: Input, out: &mut Vec<Input>, budget: &mut u64) {
    let Some(path) = input.path.clone() else {
        out.push(input);
        return;
    };
    // A file that cannot be read is kept: reading it reports why.
    let packing = match Kind::of_file(&path) {
        Ok(Kind::Archive(packing)) => packing,
        Ok(Kind::Compressed(codec)) => {
            input.codec = Some(codec);
            let rel = input.rel.to_string_lossy().into_owned();
            input.rel = PathBuf::from(archive::strip_archive_suffix(&rel));
            out.push(input);
            return;
        }
        Ok(Kind::Plain) | Err(_) => {
            out.push(input);
            return;
        }
    };
    let mut listing = archive::list(&path, packing, budget);
    let held = listing
        .as_mut()
        .map(|l| std::mem::take(&mut l.held))
        .unwrap_or_default();
    let archive = Arc::new(Archive {
        path,
        name: input.name.clone(),
        packing,
        held: archive::Held::new(held),
    });
    let rel = input.rel.to_string_lossy().into_owned();
    let stem = PathBuf::from(archive::strip_archive_suffix(&rel));
    let member = |index: usize, path: String, size: u64, note, error| {
        let (below, escape) = archive::safe_rel(&path, index);
        Input {
            name: if path.is_empty() {
                archive.name.clone()
            } else {
                format!("{}/{path}", archive.name)
            },
            rel: stem.join(below),
            path: None,
            size,
            member: Some(Arc::new(Member {
                archive: archive.clone(),
                index,
                note: escape.or(note),
                path,
                error,
            })),
            codec: None,
        }
    };
    match listing {
        Err(why) => out.push(member(usize::MAX, String::new(), 0, None, Some(why))),
        Ok(listing) => {
            let last = listing.entries.last().map(|e| e.path.clone());
            for e in listing.entries {
                out.push(member(e.index, e.path, e.size, e.note, None));
            }
            if let Some(why) = listing.tail {
                let why = match last {
                    Some(p) => format!("cannot be read after the member {p}: {why}"),
                    None => format!("cannot be read: {why}"),
                };
                out.push(member(usize::MAX, String::new(), 0, None, Some(why)));
            }
        }
    }
}

/// The record files under `dir` with their sizes, in sorted path order: a path sorts by its
/// components, so visiting each directory's entries sorted by name gives that order. A
/// record file's size is not asked for (0: a system call a file saved; reading it finds
/// its end); an archive's is.
/// A file a folder walk keeps.
struct Found {
    path: PathBuf,
    /// `path` below the folder walked: the names joined as the walk went down (what
    /// `path.strip_prefix(folder)` gives, without comparing components again).
    rel: PathBuf,
    /// The size when looked up (0 for a record file: reading it finds its end).
    size: u64,
    /// Whether its extension is a record's (then it is not an archive's).
    record: bool,
}

/// Whether `ext` is one of [`RECORD_EXTENSIONS`], compared without case.
fn is_record_extension(ext: &str) -> bool {
    RECORD_EXTENSIONS
        .iter()
        .any(|r| r.eq_ignore_ascii_case(ext))
}

fn walk(dir: &Path, rel_dir: &Path, out: &mut Vec<Found>) -> std::io::Result<()> {
    // Each entry's name and type (the type from the folder's listing where the file system
    // gives it): the entry itself, with its own copy of the name, is not kept through the sort.
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        entries.push(Some((entry.file_name(), entry.file_type())));
    }
    // By name: the first 16 bytes as one number first (most names differ there; a name has
    // no NUL byte, so padding a shorter one with zeros keeps the order), then the whole name.
    // The small (number, index) pairs are sorted, not the entries.
    let name = |i: u32| entries[i as usize].as_ref().map(|e| &e.0);
    let mut order: Vec<(u128, u32)> = (0..entries.len() as u32)
        .map(|i| (name(i).map_or(0, |n| name_prefix(n)), i))
        .collect();
    order.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| name(a.1).cmp(&name(b.1))));
    // At most one found file an entry here (a folder's own are reserved when it is walked).
    out.reserve(entries.len());
    for (name, kind) in order
        .iter()
        .filter_map(|&(_, i)| entries[i as usize].take())
    {
        // `entry.path()` and `rel_dir.join(&name)`, each made in one allocation of its
        // size (`join` copies the folder, then grows the copy for the name); at the top of
        // the walk the name itself becomes `rel`, not copied.
        let path = joined(dir, &name);
        let rel = if rel_dir.as_os_str().is_empty() {
            PathBuf::from(name)
        } else {
            joined(rel_dir, &name)
        };
        let is_record = extension(&path).is_some_and(is_record_extension);
        let found = |size| Found {
            path: path.clone(),
            rel: rel.clone(),
            size,
            record: is_record,
        };
        // The entry's own type is the folder's (no call at all for a file that is not read);
        // a symbolic link is followed, as `metadata` does for the paths given. A record file
        // that cannot be looked at (a dangling link) is kept: reading it reports why.
        let meta = match kind {
            Ok(t) if t.is_file() && is_record => {
                out.push(Found {
                    path,
                    rel,
                    size: 0,
                    record: true,
                });
                continue;
            }
            Ok(t) if t.is_file() && !is_archive(&path) => continue,
            Ok(t) if t.is_dir() => {
                walk(&path, &rel, out)?;
                continue;
            }
            // An archive (a regular file, not a link: following the path asks the same file)
            // or a type the listing did not give.
            _ => std::fs::metadata(&path),
        };
        match meta {
            Ok(meta) if meta.is_dir() => walk(&path, &rel, out)?,
            Ok(meta) if meta.is_file() && (is_record || is_archive(&path)) => {
                out.push(found(meta.len()))
            }
            Ok(_) => {}
            Err(_) if is_record => out.push(found(0)),
            Err(_) => {}
        }
    }
    Ok(())
}

/// `path.extension()` as UTF-8 (`None` when it is not), read off the path's last bytes when
/// the last component is a plain name: asked of every file a batch reads, and
/// `Path::extension` parses the components from the end first (a tenth of the work on a
/// record of one move).
fn extension(path: &Path) -> Option<&str> {
    let bytes = path.as_os_str().as_encoded_bytes();
    let start = bytes.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    let name = &bytes[start..];
    if cfg!(windows) || name.is_empty() || name == b"." || name == b".." {
        // Other separators, a trailing separator or a `.`/`..` component: the general rule.
        return path.extension().and_then(|e| e.to_str());
    }
    let dot = name.iter().rposition(|&b| b == b'.')?;
    // A name that starts with its only dot (`.kif`) has no extension.
    if dot == 0 {
        return None;
    }
    std::str::from_utf8(&name[dot + 1..]).ok()
}

/// The first 16 bytes of `name` as a big-endian number, zeros after a shorter name: two names
/// with different numbers are in the order of the numbers.
fn name_prefix(name: &std::ffi::OsStr) -> u128 {
    let bytes = name.as_encoded_bytes();
    let mut first = [0u8; 16];
    let n = bytes.len().min(16);
    first[..n].copy_from_slice(&bytes[..n]);
    u128::from_be_bytes(first)
}

/// `dir.join(name)`, allocated once at its size.
fn joined(dir: &Path, name: &std::ffi::OsStr) -> PathBuf {
    let mut p = PathBuf::with_capacity(dir.as_os_str().len() + 1 + name.len());
    p.push(dir);
    p.push(name);
    p
}

/// Whether a file found in a folder is read as an archive or a compressed record.
fn is_archive(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(archive::is_archive_name)
}

/// A share of the inputs: `--shard I/N` keeps the inputs whose [`Input::shard_name`] hashes
/// to `I` among `N` (1-based).
///
/// The hash is FNV-1a (64-bit) of the name's UTF-8 bytes, finished with the SplitMix64
/// mixer, modulo `N`: it depends on nothing but the name, so every machine, run and job
/// count splits a collection the same way, and a file added later does not move the others.
/// The shards `1/N` … `N/N` are disjoint and together hold every input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which share, from 1.
    pub index: u32,
    /// Of how many.
    pub count: u32,
}

impl Shard {
    /// Parses `I/N` (1 ≤ I ≤ N).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard (expected I/N with 1 <= I <= N, e.g. 1/4)");
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard (1-based) a name falls in among `count`.
    pub fn of(name: &str, count: u32) -> u32 {
        let mut h = Fnv1a::new();
        h.write(name.as_bytes());
        (splitmix_finish(h.finish()) % u64::from(count.max(1))) as u32 + 1
    }

    /// Whether this shard holds `input`.
    pub fn contains(&self, input: &Input) -> bool {
        Shard::of(&input.shard_name(), self.count) == self.index
    }

    /// The inputs of this shard, in their order.
    pub fn select(&self, inputs: Vec<Input>) -> Vec<Input> {
        inputs.into_iter().filter(|i| self.contains(i)).collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The SplitMix64 finaliser: spreads FNV's weak low bits over the whole word.
fn splitmix_finish(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `extension` gives what `Path::extension` gives (as UTF-8), for names with no dot,
    /// several dots, a leading dot, a trailing dot or separator, `.` and `..`, and bytes
    /// that are not UTF-8.
    #[test]
    fn extension_is_path_extension() {
        use std::os::unix::ffi::OsStrExt;
        let names: [&[u8]; 22] = [
            b"",
            b"a",
            b"a.kif",
            b"a.KIF",
            b"dir/a.kif",
            b"/abs/a.b.csa",
            b".kif",
            b"d/.kif",
            b"a.",
            b"..",
            b"...",
            b"a..b",
            b".",
            b"d/.",
            b"d/..",
            b"a.kif/",
            b"a.kif//",
            b"a.kif/.",
            b"d//a.kif",
            b"a.\xff",
            b"\xff.kif",
            b"d.x/noext",
        ];
        for name in names {
            let p = Path::new(std::ffi::OsStr::from_bytes(name));
            assert_eq!(
                extension(p),
                p.extension().and_then(|e| e.to_str()),
                "{:?}",
                String::from_utf8_lossy(name)
            );
        }
    }

    /// Names sorted by `name_prefix` and then whole are in the order of the names: short,
    /// long, shared prefixes of 15, 16 and 17 bytes, and bytes from 0x80.
    #[test]
    fn name_prefix_keeps_the_order_of_names() {
        use std::ffi::OsString;
        use std::os::unix::ffi::OsStringExt;
        let mut rng = shogi_testkit::Rng::new(5);
        let alphabet = [b'a', b'b', b'.', b'0', b'9', 0x01, 0x7F, 0x80, 0xE3, 0xFF];
        let mut names: Vec<OsString> = Vec::new();
        for _ in 0..3000 {
            let mut bytes = b"game-record-0000".to_vec();
            bytes.truncate(rng.below(17));
            for _ in 0..rng.below(6) {
                bytes.push(alphabet[rng.below(alphabet.len())]);
            }
            names.push(OsString::from_vec(bytes));
        }
        let mut ours: Vec<(u128, OsString)> =
            names.iter().map(|n| (name_prefix(n), n.clone())).collect();
        ours.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        names.sort();
        let ours: Vec<OsString> = ours.into_iter().map(|(_, n)| n).collect();
        assert_eq!(ours, names);
    }

    /// `joined` gives what `Path::join` gives, for relative, absolute, empty and
    /// slash-ended folders and names.
    #[test]
    fn joined_is_join() {
        for dir in ["", ".", "a", "a/", "a/b", "/", "/x/y", "/x/y/", "../up"] {
            for name in ["f.kif", "b", ".hidden", "名前.kif", "/abs"] {
                let (d, n) = (Path::new(dir), std::ffi::OsStr::new(name));
                assert_eq!(joined(d, n), d.join(n), "{dir:?} {name:?}");
            }
        }
    }

    #[test]
    fn shard_parse() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, count: 4 }));
        assert_eq!(Shard::parse(" 4/4 "), Ok(Shard { index: 4, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "1", "a/b", "1/4/5", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_partition_names() {
        let names: Vec<String> = (0..2000).map(|i| format!("dir/{i:05}.kif")).collect();
        for n in [1u32, 2, 3, 7] {
            let mut counts = vec![0usize; n as usize];
            for name in &names {
                let s = Shard::of(name, n);
                assert!((1..=n).contains(&s));
                counts[s as usize - 1] += 1;
            }
            assert_eq!(counts.iter().sum::<usize>(), names.len());
            // Roughly even: every shard within 20% of the mean.
            let mean = names.len() / n as usize;
            for c in counts {
                assert!(
                    c * 10 >= mean * 8 && c * 10 <= mean * 12,
                    "{n}: {c} vs {mean}"
                );
            }
        }
    }

    #[test]
    fn shard_is_fixed_across_versions() {
        // Pinned: a change here moves files between shards on users' clusters.
        assert_eq!(
            Shard::of("2024/01/game.kif", 4),
            Shard::of("2024/01/game.kif", 4)
        );
        let pinned: Vec<u32> = ["a.kif", "b.csa", "x/y.kif"]
            .iter()
            .map(|n| Shard::of(n, 10))
            .collect();
        assert_eq!(pinned, PINNED_SHARDS);
    }

    const PINNED_SHARDS: [u32; 3] = [2, 10, 7];

    #[test]
    fn expand_walks_sorted_and_filters_extensions() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("b/c")).unwrap();
        for f in ["b/c/z.kif", "b/a.CSA", "a.txt", "c.ki2", "b/c/a.sfen"] {
            std::fs::write(d.join(f), "x").unwrap();
        }
        let root = d.display().to_string();
        let inputs = expand(std::slice::from_ref(&root)).unwrap();
        let rel: Vec<String> = inputs.iter().map(Input::shard_name).collect();
        assert_eq!(rel, ["b/a.CSA", "b/c/a.sfen", "b/c/z.kif", "c.ki2"]);
        // A file given by itself is read whatever its extension.
        let txt = d.join("a.txt").display().to_string();
        let one = expand(&[txt.clone(), "-".to_string()]).unwrap();
        assert_eq!(one[0].name, txt);
        assert_eq!(one[1], Input::stdin());
        let missing = expand(&[d.join("nope").display().to_string()]).unwrap_err();
        assert_eq!(missing.reason, "no such file or directory");
    }

    /// The names and relative paths a walk builds as it goes equal what the whole paths
    /// give (`display`, `strip_prefix` of the folder as given), whichever way the folder is
    /// written, with names that are not UTF-8, nested folders and a symbolic link.
    #[test]
    fn walked_names_and_rel_paths_equal_the_whole_paths() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("top");
        std::fs::create_dir_all(d.join("b/c.d/e")).unwrap();
        let odd = std::ffi::OsStr::from_bytes(b"x\xff\xfe.kif");
        for f in [
            "b/c.d/e/z.KIF",
            "b/a.csa",
            "a.txt",
            "c.ki2",
            "b/.kif",
            "b/c.d/a.sfen",
        ] {
            std::fs::write(d.join(f), "x").unwrap();
        }
        std::fs::write(d.join("b").join(odd), "x").unwrap();
        std::os::unix::fs::symlink(d.join("c.ki2"), d.join("b/link.kif")).unwrap();
        let base = d.display().to_string();
        let forms = [
            base.clone(),
            format!("{base}/"),
            format!("{base}/."),
            format!("{base}//"),
            format!("{base}/b/.."),
        ];
        for root in forms {
            let inputs = expand(std::slice::from_ref(&root)).unwrap();
            assert_eq!(inputs.len(), 6, "{root}: {inputs:?}");
            for i in &inputs {
                let path = i.path.as_ref().unwrap();
                assert_eq!(i.name, path.display().to_string());
                assert_eq!(
                    i.rel,
                    path.strip_prefix(Path::new(&root)).unwrap(),
                    "{root}"
                );
            }
        }
    }
}
