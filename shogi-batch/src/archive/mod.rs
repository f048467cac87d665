//! Archives as inputs: which files are archives or compressed records, the members of an
//! archive (listed once, when the inputs are expanded), and their bytes, read member by
//! member in the archive's order without unpacking anything to disk ([`members`]).
//!
//! A member is one [`Input`](crate::Input): named `archive/member/path` in messages and in
//! the `path` column, placed below an output folder at the archive's name without its
//! extension joined with the member's path (never outside it: see [`safe_rel`]), and
//! sharded by that relative path like a file of a folder.

mod codec;
mod forward;
pub(crate) mod members;

pub use codec::Codec;
pub(crate) use codec::peek;

use crate::input::RECORD_EXTENSIONS;
use std::io::{BufRead, BufReader, Read};
use std::path::{Component, Path, PathBuf};

/// The most bytes one member may inflate to: a member past it (a zip bomb, or a file that
/// is no record) is an error located at the member, and the rest of the archive is read.
pub const MEMBER_LIMIT: u64 = 64 << 20;

/// How an archive file is packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Packing {
    /// A zip file.
    Zip,
    /// A 7z file.
    SevenZ,
    /// A tar file, compressed as a whole or not.
    Tar(Option<Codec>),
}

/// The most bytes of tars' members kept from their listing for the reading that follows
/// (for all the archives of one [`crate::expand`] together).
/// A tar has no index: listing it decompresses all of it, and so would reading its members
/// again. Up to this total the listing keeps the record members' bytes and the reading
/// takes them, so the archive is decompressed once; past it they are dropped (memory stays
/// bounded) and the members are decoded a second time when read.
pub const HOLD_LIMIT: u64 = 256 << 20;

/// An archive whose members are inputs.
#[derive(Debug, PartialEq, Eq)]
pub struct Archive {
    /// The file.
    pub path: PathBuf,
    /// Its name as shown (the path as given, or found in a folder).
    pub name: String,
    /// How it is packed.
    pub packing: Packing,
    /// Members' bytes decoded while listing, not yet read (see [`HOLD_LIMIT`]).
    pub held: Held,
}

/// Members' bytes by their index in the archive, each taken by the first reading of it.
#[derive(Default)]
pub struct Held(std::sync::Mutex<std::collections::HashMap<usize, Vec<u8>>>);

impl Held {
    pub(crate) fn new(map: std::collections::HashMap<usize, Vec<u8>>) -> Held {
        Held(std::sync::Mutex::new(map))
    }

    /// The bytes of member `index`, once (later readings decode the archive again).
    pub(crate) fn take(&self, index: usize) -> Option<Vec<u8>> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&index)
    }
}

impl std::fmt::Debug for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map_or(0, |m| m.len());
        write!(f, "Held({n} members)")
    }
}

/// What is held does not make two archives different.
impl PartialEq for Held {
    fn eq(&self, _: &Held) -> bool {
        true
    }
}

impl Eq for Held {}

/// One member of an archive, as an input.
#[derive(Debug, PartialEq, Eq)]
pub struct Member {
    /// The archive.
    pub archive: std::sync::Arc<Archive>,
    /// Its place in the archive: the entry's number in the zip's central directory, the
    /// tar's sequence or the 7z's file list.
    pub index: usize,
    /// Its path inside the archive, as stored (decoded; see [`member_name`]).
    pub path: String,
    /// A remark for every game of it (a name read in a legacy encoding, a path that leaves
    /// the archive, an encrypted member), shown as a warning.
    pub note: Option<String>,
    /// Why it cannot be read, when that was known from the listing (the archive cannot be
    /// opened, or breaks after the members listed before this one).
    pub error: Option<String>,
}

/// What a file's first bytes say it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Not compressed, not an archive: a record file.
    Plain,
    /// One compressed stream that is not a tar.
    Compressed(Codec),
    /// An archive.
    Archive(Packing),
}

impl Kind {
    /// What `head` (the first bytes of a file, 512 or more where the file has them) shows,
    /// decompressing the first bytes of a compressed stream to look for a tar inside.
    pub fn of(head: &[u8]) -> Kind {
        if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
            return Kind::Archive(Packing::Zip);
        }
        if head.starts_with(b"7z\xbc\xaf\x27\x1c") {
            return Kind::Archive(Packing::SevenZ);
        }
        if is_tar(head) {
            return Kind::Archive(Packing::Tar(None));
        }
        let Some(codec) = Codec::sniff(head) else {
            return Kind::Plain;
        };
        let mut inner = Vec::new();
        // A short or damaged stream: its reading will say so.
        let _ = codec.decoder(head).take(512).read_to_end(&mut inner);
        if is_tar(&inner) {
            Kind::Archive(Packing::Tar(Some(codec)))
        } else {
            Kind::Compressed(codec)
        }
    }

    /// What the file at `path` is, from its first 512 bytes (for a compressed file, from
    /// the first 512 bytes it unpacks to, read through the decoder: a zstd or bzip2 block
    /// must be read whole before it gives anything).
    pub fn of_file(path: &Path) -> std::io::Result<Kind> {
        let mut file = std::fs::File::open(path)?;
        let mut head = Vec::new();
        (&mut file).take(512).read_to_end(&mut head)?;
        let Some(codec) = Codec::sniff(&head) else {
            return Ok(Kind::of(&head));
        };
        let file = BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
        let mut inner = Vec::new();
        // A damaged stream: its reading will say so.
        let _ = codec.decoder(file).take(512).read_to_end(&mut inner);
        Ok(if is_tar(&inner) {
            Kind::Archive(Packing::Tar(Some(codec)))
        } else {
            Kind::Compressed(codec)
        })
    }
}

/// Whether a tar header starts `block` (POSIX `ustar` or GNU magic at offset 257).
fn is_tar(block: &[u8]) -> bool {
    block.len() >= 262 && &block[257..262] == b"ustar"
}

/// Whether a file name found in a folder is read as an archive or a compressed record:
/// `.zip`, `.7z`, `.tar`, `.tgz`, `.tar.gz`/`.zst`/`.xz`/`.bz2` (and `.tzst`, `.txz`,
/// `.tbz2`), and a record's name with `.gz`, `.zst`, `.xz` or `.bz2` added (`game.csa.gz`).
pub fn is_archive_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let (stem, ext) = match lower.rsplit_once('.') {
        Some(p) => p,
        None => return false,
    };
    match ext {
        "zip" | "7z" | "tar" | "tgz" | "tzst" | "txz" | "tbz2" | "tbz" => true,
        _ if Codec::from_suffix(ext).is_some() => stem
            .rsplit_once('.')
            .is_some_and(|(_, inner)| inner == "tar" || RECORD_EXTENSIONS.contains(&inner)),
        _ => false,
    }
}

/// `name` without its archive or compression suffixes (`a.tar.gz` → `a`, `g.csa.gz` →
/// `g.csa`, `wdoor2020.7z` → `wdoor2020`).
pub fn strip_archive_suffix(name: &str) -> &str {
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return name;
    };
    let ext = ext.to_ascii_lowercase();
    match ext.as_str() {
        "zip" | "7z" | "tar" | "tgz" | "tzst" | "txz" | "tbz2" | "tbz" => stem,
        _ if Codec::from_suffix(&ext).is_some() => match stem.rsplit_once('.') {
            Some((inner, t)) if t.eq_ignore_ascii_case("tar") => inner,
            _ => stem,
        },
        _ => name,
    }
}

/// A member's name from its stored bytes: UTF-8 when the bytes are (zip's UTF-8 flag or
/// not); else Shift_JIS (CP932), as Japanese archives made on Windows store names; else
/// `fallback` (zip's CP437 reading) or the bytes with replacement characters. Returns the
/// name and, for anything but UTF-8, a note saying how it was read.
pub fn member_name(raw: &[u8], fallback: Option<String>) -> (String, Option<String>) {
    if let Ok(s) = std::str::from_utf8(raw) {
        return (s.to_string(), None);
    }
    if let Some(s) = encoding_rs::SHIFT_JIS.decode_without_bom_handling_and_without_replacement(raw)
    {
        return (
            s.into_owned(),
            Some("the member's name is not UTF-8: read as Shift_JIS (CP932)".into()),
        );
    }
    match fallback {
        Some(s) => (
            s,
            Some(
                "the member's name is neither UTF-8 nor Shift_JIS: read as CP437 (zip's default)"
                    .into(),
            ),
        ),
        None => (
            String::from_utf8_lossy(raw).into_owned(),
            Some(
                "the member's name is neither UTF-8 nor Shift_JIS: unknown bytes shown as \u{fffd}"
                    .into(),
            ),
        ),
    }
}

/// A member's path without the `./` that `tar -C dir .` puts before every name.
fn tidy(mut path: String) -> String {
    while let Some(p) = path.strip_prefix("./") {
        path = p.to_string();
    }
    path
}

/// Where a member goes below a folder: its path's plain parts, without a root, a drive,
/// `.` or `..` (a path that would leave the folder stays inside it), with a note when
/// anything was dropped. A path with no plain part becomes `member-N`.
pub fn safe_rel(path: &str, index: usize) -> (PathBuf, Option<String>) {
    let mut rel = PathBuf::new();
    let mut dropped = false;
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => dropped = true,
            p if p.len() >= 2 && p.as_bytes()[1] == b':' && rel.as_os_str().is_empty() => {
                dropped = true
            }
            p => {
                // A part the platform reads as more than a name (a root or prefix) is dropped.
                let plain = Path::new(p)
                    .components()
                    .all(|c| matches!(c, Component::Normal(_)));
                if plain {
                    rel.push(p);
                } else {
                    dropped = true;
                }
            }
        }
    }
    let absolute = path.starts_with('/') || path.starts_with('\\');
    if rel.as_os_str().is_empty() {
        rel.push(format!("member-{index}"));
        dropped = true;
    }
    let note = (dropped || absolute).then(|| {
        format!(
            "the member's path '{path}' leaves the archive: it is read, and placed at '{}' below an output folder",
            rel.display()
        )
    });
    (rel, note)
}

/// Whether a member's name is that of a record file (by extension, as in a folder).
pub(crate) fn is_record_name(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(_, e)| {
        let e = e.to_ascii_lowercase();
        RECORD_EXTENSIONS.contains(&e.as_str())
    }) && !name.ends_with('/')
}

/// A member found by listing an archive.
#[derive(Debug)]
pub(crate) struct Entry {
    pub index: usize,
    pub path: String,
    pub size: u64,
    pub note: Option<String>,
}

/// The record members of an archive, in its order; `tail` says why the listing stopped
/// early (a damaged or truncated archive), after the members listed.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    pub entries: Vec<Entry>,
    pub tail: Option<String>,
    /// The record members' bytes by index, decoded while listing a tar (see [`HOLD_LIMIT`]).
    pub held: std::collections::HashMap<usize, Vec<u8>>,
}

/// Lists the record members of the archive at `path`; `Err` when it cannot be opened or
/// read at all.
/// `budget`: the bytes the listing of a tar may still hold (see [`HOLD_LIMIT`]); what it
/// holds is taken from it.
pub(crate) fn list(path: &Path, packing: Packing, budget: &mut u64) -> Result<Listing, String> {
    let file = std::fs::File::open(path).map_err(|e| crate::input::io_reason(&e))?;
    let reader = BufReader::with_capacity(1 << 16, file);
    match packing {
        Packing::Zip => list_zip(reader),
        Packing::SevenZ => list_7z(reader),
        Packing::Tar(codec) => Ok(list_tar(
            match codec {
                Some(c) => c.decoder(reader),
                None => Box::new(reader),
            },
            budget,
        )),
    }
}

fn list_zip(reader: BufReader<std::fs::File>) -> Result<Listing, String> {
    let mut zip = zip::ZipArchive::new(reader).map_err(|e| zip_reason(&e))?;
    let mut out = Listing::default();
    for index in 0..zip.len() {
        let f = match zip.by_index_raw(index) {
            Ok(f) => f,
            Err(e) => {
                out.tail = Some(format!(
                    "entry {} cannot be read: {}",
                    index + 1,
                    zip_reason(&e)
                ));
                break;
            }
        };
        if !f.is_file() {
            continue;
        }
        let (name, mut note) = member_name(f.name_raw(), Some(f.name().to_string()));
        if !is_record_name(&name) {
            continue;
        }
        if f.encrypted() {
            note = Some("the member is encrypted".into());
        }
        out.entries.push(Entry {
            index,
            path: tidy(name),
            size: f.size(),
            note,
        });
    }
    Ok(out)
}

fn list_7z(mut reader: BufReader<std::fs::File>) -> Result<Listing, String> {
    let archive = sevenz_rust2::Archive::read(&mut reader, &sevenz_rust2::Password::empty())
        .map_err(|e| sevenz_reason(&e))?;
    let mut out = Listing::default();
    for index in members::sevenz_order(&archive) {
        let f = &archive.files[index];
        if f.is_directory || f.is_anti_item || !is_record_name(&f.name) {
            continue;
        }
        out.entries.push(Entry {
            index,
            path: tidy(f.name.clone()),
            size: f.size,
            note: None,
        });
    }
    Ok(out)
}

fn list_tar(reader: Box<dyn Read + '_>, budget: &mut u64) -> Listing {
    let mut out = Listing::default();
    let mut tar = tar::Archive::new(forward::Forward::new(reader));
    let entries = match tar.entries_with_seek() {
        Ok(e) => e,
        Err(e) => {
            out.tail = Some(e.to_string());
            return out;
        }
    };
    // The members' bytes while they fit in HOLD_LIMIT (`None` once they do not).
    let (mut held, mut held_bytes) = (Some(std::collections::HashMap::new()), 0u64);
    for (index, entry) in entries.enumerate() {
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => {
                out.tail = Some(tar_reason(&e));
                break;
            }
        };
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let (name, note) = member_name(&entry.path_bytes(), None);
        if is_record_name(&name) {
            let size = entry.size();
            out.entries.push(Entry {
                index,
                path: tidy(name),
                size,
                note,
            });
            // A header's size is not trusted for an allocation past the budget.
            held_bytes = held_bytes.saturating_add(size);
            if held_bytes > *budget {
                held = None;
            }
            if let Some(map) = held.as_mut() {
                // A member that does not read whole is left to the reading, which says why.
                let mut bytes = Vec::with_capacity(size as usize);
                if entry.read_to_end(&mut bytes).is_ok() && bytes.len() as u64 == size {
                    map.insert(index, bytes);
                }
            }
        }
    }
    if let Some(map) = held {
        *budget -= map.values().map(|b| b.len() as u64).sum::<u64>();
        out.held = map;
    }
    out
}

/// A zip error in words.
pub(crate) fn zip_reason(e: &zip::result::ZipError) -> String {
    use zip::result::ZipError;
    match e {
        ZipError::UnsupportedArchive(ZipError::PASSWORD_REQUIRED) | ZipError::InvalidPassword => {
            "encrypted: a password is needed (not read)".into()
        }
        ZipError::UnsupportedArchive(why) => format!("not supported: {why}"),
        ZipError::InvalidArchive(why) => format!("not a readable zip file: {why}"),
        ZipError::Io(e) => member_reason(e),
        other => other.to_string(),
    }
}

/// A 7z error in words.
pub(crate) fn sevenz_reason(e: &sevenz_rust2::Error) -> String {
    if let sevenz_rust2::Error::Io(io, _) = e {
        return format!("not a readable 7z file: {}", tar_reason(io));
    }
    let text = e.to_string();
    if text.to_ascii_lowercase().contains("password") {
        format!("encrypted: a password is needed (not read): {text}")
    } else {
        format!("not a readable 7z file: {text}")
    }
}

/// An I/O error met inside an archive or compressed stream, in words.
pub(crate) fn tar_reason(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        "the archive ends too early (truncated)".into()
    } else {
        format!("the archive is damaged: {e}")
    }
}

/// An I/O error met reading one member's bytes out of a zip, in words.
pub(crate) fn member_reason(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        "the member ends too early (truncated)".into()
    } else {
        format!("the member is damaged: {e}")
    }
}

/// The reader of a file compressed as a whole.
pub(crate) fn open_compressed(
    path: &Path,
    codec: Codec,
) -> std::io::Result<BufReader<Box<dyn Read>>> {
    let file = BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    Ok(BufReader::with_capacity(1 << 16, codec.decoder(file)))
}

/// Standard input, decompressed when its first bytes show a compression; handed over as
/// it is (no second buffer) when its buffer already shows that it is not compressed.
pub(crate) fn stdin_decoded<'a>(
    reader: &'a mut dyn BufRead,
) -> std::io::Result<Box<dyn BufRead + 'a>> {
    let head = reader.fill_buf()?;
    if head.len() >= 6 && Codec::sniff(head).is_none() {
        return Ok(Box::new(reader));
    }
    let (head, all) = peek(reader, 6)?;
    Ok(match Codec::sniff(&head) {
        Some(codec) => Box::new(BufReader::with_capacity(
            1 << 16,
            codec.decoder(BufReader::with_capacity(1 << 16, all)),
        )),
        None => Box::new(BufReader::new(all)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tar_held_from_its_listing_reads_as_one_decoded_again() {
        let dir = std::env::temp_dir().join(format!("shogi-held-tar-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.tar");
        let files = [
            ("a.csa", "PI\n+\n+7776FU\n"),
            ("notes.txt", "x"),
            ("b.usi", "startpos\n"),
        ];
        let mut b = tar::Builder::new(Vec::new());
        for (name, text) in files {
            let mut h = tar::Header::new_gnu();
            h.set_size(text.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            b.append_data(&mut h, name, text.as_bytes()).unwrap();
        }
        std::fs::write(&path, b.into_inner().unwrap()).unwrap();
        let want: Vec<&[u8]> = vec![files[0].1.as_bytes(), files[2].1.as_bytes()];
        let record_bytes = (files[0].1.len() + files[2].1.len()) as u64;
        // Held within the budget (and taken from it), not held past it.
        for (budget, held) in [(HOLD_LIMIT, 2), (record_bytes - 1, 0)] {
            let mut left = budget;
            let listing = list(&path, Packing::Tar(None), &mut left).unwrap();
            assert_eq!(listing.held.len(), held);
            assert_eq!(budget - left, if held > 0 { record_bytes } else { 0 });
            let archive = std::sync::Arc::new(Archive {
                path: path.clone(),
                name: "a.tar".into(),
                packing: Packing::Tar(None),
                held: Held::new(listing.held),
            });
            let members: Vec<Member> = (listing.entries.iter())
                .map(|e| Member {
                    archive: archive.clone(),
                    index: e.index,
                    path: e.path.clone(),
                    note: None,
                    error: None,
                })
                .collect();
            let wanted: Vec<&Member> = members.iter().collect();
            // The first reading takes what is held; the second decodes the archive.
            for _ in 0..2 {
                let mut got = Vec::new();
                members::read_members(&archive, &wanted, &mut |pos, bytes| {
                    got.push((pos, bytes.unwrap()));
                    std::ops::ControlFlow::Continue(())
                });
                let got: Vec<(usize, &[u8])> = got.iter().map(|(p, b)| (*p, &b[..])).collect();
                assert_eq!(got, vec![(0, want[0]), (1, want[1])]);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn archive_names_and_stems() {
        for yes in [
            "a.zip",
            "b.7z",
            "c.tar",
            "d.tgz",
            "e.tar.gz",
            "f.TAR.ZST",
            "g.csa.gz",
            "h.kif.xz",
            "i.tar.bz2",
        ] {
            assert!(is_archive_name(yes), "{yes}");
        }
        for no in ["a.txt.gz", "b.csa", "c.gz", "zip"] {
            assert!(!is_archive_name(no), "{no}");
        }
        assert_eq!(strip_archive_suffix("a.tar.gz"), "a");
        assert_eq!(strip_archive_suffix("wdoor2020.7z"), "wdoor2020");
        assert_eq!(strip_archive_suffix("g.csa.gz"), "g.csa");
        assert_eq!(strip_archive_suffix("plain.csa"), "plain.csa");
    }

    #[test]
    fn escaping_paths_stay_inside() {
        assert_eq!(
            safe_rel("2020/a.csa", 0),
            (PathBuf::from("2020/a.csa"), None)
        );
        for bad in [
            "../../etc/a.csa",
            "/abs/a.csa",
            "x/../../a.csa",
            "C:\\w\\a.csa",
            "..\\a.csa",
        ] {
            let (rel, note) = safe_rel(bad, 3);
            assert!(note.is_some(), "{bad}");
            assert!(
                rel.components().all(|c| matches!(c, Component::Normal(_))),
                "{bad}: {rel:?}"
            );
        }
        assert_eq!(safe_rel("..", 3).0, PathBuf::from("member-3"));
    }

    #[test]
    fn stdin_is_decompressed_whatever_its_buffer_holds() {
        use std::io::Write;
        let text = "position startpos moves 7g7f\n".repeat(50);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).unwrap();
        let gz = gz.finish().unwrap();
        // A buffer of 2 bytes (a pipe handing out little at a time), and a whole one.
        for capacity in [2, 1 << 16] {
            for (input, want) in [(&gz[..], text.as_str()), (b"ab".as_slice(), "ab")] {
                let mut reader = BufReader::with_capacity(capacity, input);
                let mut out = String::new();
                stdin_decoded(&mut reader)
                    .unwrap()
                    .read_to_string(&mut out)
                    .unwrap();
                assert_eq!(out, want, "capacity {capacity}");
            }
        }
    }

    #[test]
    fn a_tar_is_found_inside_a_compressed_stream_whose_first_block_is_large() {
        // 300 KB that do not compress: the first zstd block is about 128 KB of input.
        let mut noise = Vec::with_capacity(300_000);
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        while noise.len() < 300_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            noise.extend_from_slice(&x.to_le_bytes());
        }
        let mut tar = tar::Builder::new(Vec::new());
        let mut h = tar::Header::new_gnu();
        h.set_size(noise.len() as u64);
        tar.append_data(&mut h, "noise.bin", &noise[..]).unwrap();
        let tar = tar.into_inner().unwrap();
        let packed = zstd::bulk::compress(&tar[..], 1).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.tar.zst");
        std::fs::write(&path, &packed).unwrap();
        assert_eq!(
            Kind::of_file(&path).unwrap(),
            Kind::Archive(Packing::Tar(Some(Codec::Zstd)))
        );
    }

    #[test]
    fn names_in_legacy_encodings() {
        assert_eq!(
            member_name("棋譜/a.csa".as_bytes(), None),
            ("棋譜/a.csa".into(), None)
        );
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("棋譜/a.csa");
        let (name, note) = member_name(&sjis, Some("cp437".into()));
        assert_eq!(name, "棋譜/a.csa");
        assert!(note.unwrap().contains("Shift_JIS"));
        let (name, note) = member_name(b"\xff\xff.csa", Some("cp437 text".into()));
        assert_eq!(name, "cp437 text");
        assert!(note.unwrap().contains("CP437"));
    }
}
