//! Archives as inputs, end to end: a collection (the hand-checked stats fixtures, several
//! formats, in two folders) packed at test time into every archive format with the readers'
//! own crates, read by `shogi stats` and compared row for row with the unpacked folder
//! (paths aside); damaged archives, bad members, archives in a folder walk and a compressed
//! standard input.

use crate::common;

use common::{assert_contains, code, scratch, shogi, stderr, stdout};
use std::io::{Cursor, Write};
use std::path::Path;

/// The files of the fixture folder `fixtures` (below tests/fixtures), each at the relative
/// path `place` gives its name, in sorted path order (a folder walk's order).
fn files_of(fixtures: &str, place: fn(&str) -> String) -> Vec<(String, Vec<u8>)> {
    let src = common::workspace_root()
        .join("tests/fixtures")
        .join(fixtures);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (place(&name), std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// The collection: the stats fixtures in two folders, so that members have paths below the
/// archive's root.
fn collection() -> Vec<(String, Vec<u8>)> {
    files_of("stats", |name| {
        if name.ends_with(".csa") || name.ends_with(".usi") {
            format!("2020/{name}")
        } else {
            format!("top/{name}")
        }
    })
}

/// The collection unpacked below `dir/col`.
fn unpack(dir: &Path, files: &[(String, Vec<u8>)]) -> String {
    for (rel, bytes) in files {
        let p = dir.join("col").join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    dir.join("col").display().to_string()
}

fn zip_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (rel, bytes) in files {
        zip.start_file(rel.as_str(), options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn sevenz_of(files: &[(String, Vec<u8>)], solid: bool) -> Vec<u8> {
    use sevenz_rust2::{ArchiveEntry, ArchiveWriter, SourceReader};
    let mut w = ArchiveWriter::new(Cursor::new(Vec::new())).unwrap();
    if solid {
        let entries = files.iter().map(|f| ArchiveEntry::new_file(&f.0)).collect();
        let readers = files.iter().map(|f| SourceReader::new(&f.1[..])).collect();
        w.push_archive_entries(entries, readers).unwrap();
    } else {
        for (rel, bytes) in files {
            w.push_archive_entry(ArchiveEntry::new_file(rel), Some(&bytes[..]))
                .unwrap();
        }
    }
    w.finish().unwrap().into_inner()
}

fn tar_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut tar = tar::Builder::new(Vec::new());
    for (rel, bytes) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        tar.append_data(&mut h, rel, &bytes[..]).unwrap();
    }
    tar.into_inner().unwrap()
}

/// `bytes` compressed with the compression of `suffix` (`gz`, `zst`, `xz`, `bz2`).
fn compress(suffix: &str, bytes: &[u8]) -> Vec<u8> {
    match suffix {
        "gz" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        "zst" => zstd::bulk::compress(bytes, 1).unwrap(),
        "xz" => {
            let mut w =
                lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1))
                    .unwrap();
            w.write_all(bytes).unwrap();
            w.finish().unwrap()
        }
        "bz2" => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        }
        other => panic!("no compression {other}"),
    }
}

/// The collection packed as `name` says (`col.zip`, `col.tar.zst`, …).
fn pack(name: &str, files: &[(String, Vec<u8>)]) -> Vec<u8> {
    if name.ends_with(".zip") {
        return zip_of(files);
    }
    if name.ends_with(".solid.7z") {
        return sevenz_of(files, true);
    }
    if name.ends_with(".7z") {
        return sevenz_of(files, false);
    }
    let tar = tar_of(files);
    match name.rsplit_once(".tar") {
        Some((_, "")) => tar,
        Some((_, rest)) => compress(&rest[1..], &tar),
        None if name.ends_with(".tgz") => compress("gz", &tar),
        None => panic!("{name}"),
    }
}

/// The CLI run in-process with `bytes` on standard input (paths given absolute).
fn stdin_bytes(args: &[&str], bytes: &[u8]) -> common::Output {
    let argv = std::iter::once("shogi")
        .chain(args.iter().copied())
        .map(std::ffi::OsString::from);
    let mut stdin = bytes;
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = shogi_cli::run(argv, &mut stdin, &mut out, &mut err);
    common::Output {
        stdout: out,
        stderr: err,
        code,
    }
}

/// `stats` rows split into the path and the other columns.
fn rows(args: &[&str]) -> (i32, Vec<(String, String)>, String) {
    let out = shogi(args);
    let text = stdout(&out);
    let rows = text
        .lines()
        .skip(1)
        .map(|l| {
            let (path, rest) = l.split_once(',').unwrap();
            (path.to_string(), rest.to_string())
        })
        .collect();
    (code(&out), rows, stderr(&out))
}

/// Files by relative path, and `stats` rows as (path, the other columns).
type Files = Vec<(String, Vec<u8>)>;
type Rows = Vec<(String, String)>;

/// A scratch folder `name` with the collection unpacked in it: the folder, the collection,
/// the unpacked folder's path and its `stats` rows.
fn with_folder(name: &str) -> (std::path::PathBuf, Files, String, Rows) {
    let dir = scratch(name);
    let files = collection();
    let folder = unpack(&dir, &files);
    let (_, want, _) = rows(&["stats", &folder]);
    (dir, files, folder, want)
}

const FORMATS: [&str; 9] = [
    "col.zip",
    "col.7z",
    "col.solid.7z",
    "col.tar",
    "col.tar.gz",
    "col.tgz",
    "col.tar.zst",
    "col.tar.xz",
    "col.tar.bz2",
];

#[test]
fn every_archive_format_reads_as_its_folder() {
    let (dir, files, folder, want) = with_folder("archive-formats");
    assert_eq!(want.len(), 9, "the fixtures' 9 games");
    for name in FORMATS {
        let path = dir.join(name);
        std::fs::write(&path, pack(name, &files)).unwrap();
        let path = path.display().to_string();
        let (c, got, err) = rows(&["stats", &path, "--jobs", "2"]);
        assert_eq!(c, 0, "{name}: {err}");
        let strip =
            |rows: &[(String, String)]| rows.iter().map(|r| r.1.clone()).collect::<Vec<_>>();
        assert_eq!(strip(&got), strip(&want), "{name}");
        // Each member is named archive/member, as the folder's file is folder/member.
        for (g, w) in got.iter().zip(&want) {
            let member = w.0.strip_prefix(&format!("{folder}/")).unwrap();
            assert_eq!(g.0, format!("{path}/{member}"), "{name}");
        }
    }
}

#[test]
fn single_compressed_records_and_compressed_stdin() {
    let dir = scratch("archive-single");
    let csa = common::workspace_root().join("tests/fixtures/stats/floodgate.csa");
    let plain = csa.display().to_string();
    let (_, want, _) = rows(&["stats", &plain]);
    let bytes = std::fs::read(&csa).unwrap();
    for suffix in ["gz", "zst", "xz", "bz2"] {
        let packed = compress(suffix, &bytes);
        let path = dir.join(format!("floodgate.csa.{suffix}"));
        std::fs::write(&path, &packed).unwrap();
        let (c, got, err) = rows(&["stats", &path.display().to_string()]);
        assert_eq!(c, 0, "{suffix}: {err}");
        assert_eq!(got.len(), want.len());
        assert_eq!(got[0].1, want[0].1, "{suffix}");
        // The same bytes on standard input, told by their magic bytes.
        let out = stdin_bytes(&["stats", "-"], &packed);
        assert_eq!(code(&out), 0, "{suffix}: {}", stderr(&out));
        let line = stdout(&out).lines().nth(1).unwrap().to_string();
        assert_eq!(
            line.split_once(',').unwrap().1,
            want[0].1,
            "{suffix} on stdin"
        );
    }
}

/// What the CLI printed, standard output then standard error.
fn said(o: &common::Output) -> String {
    stdout(o) + &stderr(o)
}

/// The rows of `args` that are not errors, the first error row, and stderr.
fn until_error(args: &[&str]) -> (i32, Vec<(String, String)>, String) {
    let (c, rows, err) = rows(args);
    let ok = rows
        .iter()
        .take_while(|r| !r.1.contains("io: "))
        .cloned()
        .collect();
    (c, ok, err)
}

#[test]
fn a_truncated_archive_keeps_every_member_before_the_break() {
    let (dir, files, folder, want) = with_folder("archive-truncated");
    for name in ["col.tar.gz", "col.tar", "col.solid.7z"] {
        let whole = pack(name, &files);
        let path = dir.join(format!("cut-{name}"));
        std::fs::write(&path, &whole[..whole.len() * 3 / 5]).unwrap();
        let path = path.display().to_string();
        let check = shogi(&["check", &path]);
        assert_eq!(code(&check), 2, "{name}: an input could not be read");
        let (_, kept, _) = until_error(&["stats", &path]);
        let kept: Vec<_> = kept.iter().map(|r| r.1.clone()).collect();
        let before: Vec<_> = want.iter().take(kept.len()).map(|r| r.1.clone()).collect();
        assert_eq!(
            kept, before,
            "{name}: the records before the break, as in the folder"
        );
        if name.ends_with(".7z") {
            // The header is at the end: nothing can be listed, and the error says why.
            assert_contains(
                &said(&check),
                &format!("{path}: error: not a readable 7z file"),
            );
        } else {
            assert!(!kept.is_empty(), "{name}");
            // The member where it broke is named.
            let broke = &want[kept.len()].0;
            let member = broke.strip_prefix(&format!("{folder}/")).unwrap();
            let err = said(&check);
            assert!(
                err.contains(&format!("{path}/{member}: error: "))
                    || err.contains("cannot be read after the member"),
                "{name}: {err}"
            );
        }
    }
}

/// A zip of `members` (name, bytes), stored or deflated.
fn zip_members(members: &[(&str, Vec<u8>)], deflate: bool) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let method = if deflate {
        zip::CompressionMethod::Deflated
    } else {
        zip::CompressionMethod::Stored
    };
    let options = zip::write::SimpleFileOptions::default().compression_method(method);
    for (name, bytes) in members {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        common::workspace_root()
            .join("tests/fixtures/stats")
            .join(name),
    )
    .unwrap()
}

#[test]
fn damaged_bombed_and_encrypted_members_leave_the_rest_readable() {
    let dir = scratch("archive-bad-members");
    let (good, kif) = (fixture("floodgate.csa"), fixture("handicap.kif"));
    // A damaged deflate stream in the second member.
    let mut damaged = zip_members(
        &[
            ("a.csa", good.clone()),
            ("b.kif", kif.clone()),
            ("c.csa", good.clone()),
        ],
        true,
    );
    let at = find(&damaged, b"b.kif") + 5 + 30;
    damaged[at..at + 24].fill(0xa5);
    // A bomb: 65 MiB of spaces inflating from a few kilobytes.
    let bomb = zip_members(
        &[
            ("a.csa", good.clone()),
            ("bomb.kif", vec![b' '; 65 << 20]),
            ("c.csa", good.clone()),
        ],
        true,
    );
    // An encrypted member: the flag set in its local and central headers.
    let mut locked = zip_members(
        &[
            ("a.csa", good.clone()),
            ("locked.csa", good.clone()),
            ("c.csa", good.clone()),
        ],
        false,
    );
    for (sig, flags) in [(&b"PK\x03\x04"[..], 6), (&b"PK\x01\x02"[..], 8)] {
        let header = nth_before(&locked, sig, b"locked.csa");
        locked[header + flags] |= 1;
    }
    for (name, bytes, bad, why) in [
        ("damaged.zip", damaged, "b.kif", "the member is damaged"),
        (
            "bomb.zip",
            bomb,
            "bomb.kif",
            "the member inflates past 64 MiB",
        ),
        (
            "locked.zip",
            locked,
            "locked.csa",
            "encrypted: a password is needed",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let path = path.display().to_string();
        let out = shogi(&["check", &path]);
        assert_eq!(code(&out), 2, "{name}");
        let err = said(&out);
        assert_contains(&err, &format!("{path}/{bad}: error: {why}"));
        // floodgate.csa holds 2 games.
        assert_contains(&err, "5 record(s) in 3 file(s): 4 valid, 1 invalid");
    }
}

/// The offset of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).position(|w| w == needle).unwrap()
}

/// Where the zip header with signature `sig` (local or central) of the member `name` starts.
fn nth_before(hay: &[u8], sig: &[u8], name: &[u8]) -> usize {
    let name_at = if sig == b"PK\x03\x04" { 30 } else { 46 };
    (0..hay.len() - name_at)
        .find(|&p| hay[p..].starts_with(sig) && hay[p + name_at..].starts_with(name))
        .unwrap()
}

#[test]
fn escaping_and_legacy_named_members_are_read_and_stay_inside_the_output() {
    let dir = scratch("archive-names");
    let good = fixture("floodgate.csa");
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("棋譜.csa");
    assert_eq!(sjis.len(), 8);
    let mut zip = zip_members(
        &[
            ("../../evil.csa", good.clone()),
            ("/abs/evil2.csa", good.clone()),
            ("QQQQQQ.csa", good.clone()),
            ("\u{7f}QQQQ.csa", good.clone()),
        ],
        false,
    );
    // Names as Windows archivers store them: Shift_JIS bytes, and bytes that are neither.
    for (from, to) in [
        (&b"QQQQQQ.csa"[..], &b"\x8a\xfb\x95\x88QQ.csa"[..]),
        (&b"\x7fQQQQ.csa"[..], &b"\x81\x7fQQQ.csa"[..]),
    ] {
        while let Some(at) = locate(&zip, from) {
            zip[at..at + to.len()].copy_from_slice(to);
        }
    }
    let path = dir.join("names.zip");
    std::fs::write(&path, zip).unwrap();
    let path = path.display().to_string();
    let out = shogi(&["check", &path]);
    let err = said(&out);
    assert_eq!(code(&out), 0, "{err}");
    // Once per member, not once per game.
    assert_eq!(err.matches("leaves the archive").count(), 2, "{err}");
    assert_contains(&err, &format!("{path}/../../evil.csa:"));
    assert_contains(&err, "leaves the archive");
    assert_contains(&err, &format!("{path}/棋譜QQ.csa:"));
    assert_contains(&err, "read as Shift_JIS");
    assert_contains(&err, "read as CP437");
    // Converted into a folder: every output below it, none beside or above.
    let out_dir = dir.join("deep/out");
    let o = out_dir.display().to_string();
    let conv = shogi(&["convert", &path, "--to", "kif", "--out-dir", &o]);
    assert_eq!(code(&conv), 0, "{}", stderr(&conv));
    let mut written = Vec::new();
    walk(&dir, &mut written);
    let outside: Vec<_> = written
        .iter()
        .filter(|p| p.ends_with(".kifu") && !p.starts_with(&o))
        .collect();
    assert!(outside.is_empty(), "{outside:?}");
    assert_eq!(
        written.iter().filter(|p| p.ends_with(".kifu")).count(),
        8,
        "{written:?}"
    );
    // Two games a member: numbered siblings (UTF-8 KIF, as the records are UTF-8).
    assert!(Path::new(&o).join("names/evil.kifu").exists());
    assert!(Path::new(&o).join("names/evil-2.kifu").exists());
    assert!(Path::new(&o).join("names/abs/evil2.kifu").exists());
}

fn locate(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Every file below `dir`.
fn walk(dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p.display().to_string());
        }
    }
}

#[test]
fn a_damaged_7z_block_leaves_the_other_blocks_readable() {
    let (dir, files, folder, want) = with_folder("archive-7z-block");
    let mut bytes = sevenz_of(&files, false);
    // The first block's packed data starts after the 32-byte signature header.
    bytes[40..60].fill(0x5a);
    let path = dir.join("hurt.7z");
    std::fs::write(&path, bytes).unwrap();
    let path = path.display().to_string();
    let (c, got, err) = rows(&["stats", &path]);
    assert_eq!(c, 2, "an input could not be read: {err}");
    let first = want[0].0.strip_prefix(&format!("{folder}/")).unwrap();
    assert_eq!(got[0].0, format!("{path}/{first}"));
    assert!(got[0].1.contains("io: "), "{:?}", got[0]);
    let rest = |rows: &[(String, String)]| {
        rows.iter()
            .skip_while(|r| r.0.ends_with(first))
            .map(|r| r.1.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(rest(&got), rest(&want));
}

#[test]
fn archives_in_a_folder_walk_shards_and_copies_across_members() {
    let dir = scratch("archive-walk");
    let files = collection();
    std::fs::create_dir_all(dir.join("walk/sub")).unwrap();
    std::fs::write(dir.join("walk/a.csa"), fixture("floodgate.csa")).unwrap();
    std::fs::write(dir.join("walk/sub/col.zip"), zip_of(&files)).unwrap();
    std::fs::write(
        dir.join("walk/sub/b.csa.gz"),
        compress("gz", &fixture("floodgate.csa")),
    )
    .unwrap();
    std::fs::write(
        dir.join("walk/notes.txt.gz"),
        compress("gz", b"not a record"),
    )
    .unwrap();
    let walk = dir.join("walk").display().to_string();
    let (c, all, err) = rows(&["stats", &walk, "--dedup"]);
    assert_eq!(c, 0, "{err}");
    let paths: Vec<&str> = all.iter().map(|r| r.0.as_str()).collect();
    // floodgate.csa holds 2 games: 2 + 2 + the collection's 9.
    assert_eq!(paths.len(), 2 + 2 + 9, "{paths:?}");
    assert_eq!(
        paths[..2],
        [format!("{walk}/a.csa"), format!("{walk}/a.csa")]
    );
    assert_eq!(paths[2], format!("{walk}/sub/b.csa.gz"));
    assert!(
        paths[4..]
            .iter()
            .all(|p| p.starts_with(&format!("{walk}/sub/col.zip/"))),
        "{paths:?}"
    );
    // --dedup: the compressed copy and the member copy name the first file's games.
    let copies: Vec<_> = all
        .iter()
        .filter(|r| r.1.contains(&format!("{walk}/a.csa#")))
        .map(|r| r.0.clone())
        .collect();
    let b = format!("{walk}/sub/b.csa.gz");
    let m = format!("{walk}/sub/col.zip/2020/floodgate.csa");
    // copies.ki2 holds a copy of one of them (as in the fixtures' own stats).
    let k = format!("{walk}/sub/col.zip/top/copies.ki2");
    assert_eq!(copies, [b.clone(), b, m.clone(), m, k]);
    // Shards split the members one by one: together every row, once.
    let mut shards: Vec<String> = Vec::new();
    for s in ["1/3", "2/3", "3/3"] {
        let (_, part, _) = rows(&["stats", &walk, "--shard", s]);
        shards.extend(part.into_iter().map(|r| r.0));
    }
    shards.sort();
    let mut whole: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
    whole.sort();
    assert_eq!(shards, whole);
}

/// The columns `names` of every row of `stats args`.
fn columns(args: &[&str], names: &[&str]) -> Vec<Vec<String>> {
    let out = shogi(args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at: Vec<usize> = names
        .iter()
        .map(|n| header.iter().position(|h| h == n).unwrap())
        .collect();
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            at.iter().map(|&i| cells[i].to_string()).collect()
        })
        .collect()
}

#[test]
fn floodgate_names_give_time_control_and_event_in_folders_and_archives() {
    let dir = scratch("archive-floodgate");
    let src = common::workspace_root().join("tests/fixtures/floodgate");
    let files = files_of("floodgate", |name| format!("2020/{name}"));
    // What each file says: its $EVENT, else its name; and the time its game name means.
    let want: Vec<Vec<String>> = files
        .iter()
        .map(|(rel, bytes)| {
            let text = String::from_utf8(bytes.clone()).unwrap();
            let id = match text.lines().find_map(|l| l.strip_prefix("$EVENT:")) {
                Some(e) => e.to_string(),
                None => rel[5..].strip_suffix(".csa").unwrap().to_string(),
            };
            let game = id.split('+').nth(1).unwrap();
            let (base, more) = game[game.find('-').unwrap() + 1..].split_once('-').unwrap();
            vec![id.clone(), format!("{base}+{more}")]
        })
        .collect();
    assert!(
        want.iter().any(|w| w[1].ends_with('F')),
        "a Fischer game among them"
    );
    let cols = ["event", "time_control"];
    let folder = src.display().to_string();
    assert_eq!(columns(&["stats", &folder], &cols), want);
    let zip = dir.join("wdoor2020.zip");
    std::fs::write(&zip, zip_of(&files)).unwrap();
    let zip = zip.display().to_string();
    assert_eq!(columns(&["stats", &zip], &cols), want);
    // The index reads the members, and a second run finds them unchanged.
    let db = dir.join("fg.sqlite").display().to_string();
    let first = shogi(&["index", "--db", &db, &zip]);
    assert_contains(&said(&first), "3 files read, 0 unchanged");
    let again = shogi(&["index", "--db", &db, &zip]);
    assert_contains(&said(&again), "0 files read, 3 unchanged");
}

#[test]
fn mate_reads_problems_out_of_an_archive() {
    // Sente mates by G*5b; the stated answer of bad.csa does not mate.
    let board = "P1 *  *  *  *  -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  +FU *  *  *  * \n\
P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  +OU *  *  *  * \nP+00KI\n+\n";
    let files = vec![
        (
            "q/bad.csa".to_string(),
            format!("V2.2\n{board}+0042KI\n").into_bytes(),
        ),
        (
            "q/good.csa".to_string(),
            format!("V2.2\n{board}+0052KI\n%TSUMI\n").into_bytes(),
        ),
    ];
    let dir = scratch("archive-mate");
    let path = dir.join("tsume.tar.gz");
    std::fs::write(&path, pack("tsume.tar.gz", &files)).unwrap();
    let path = path.display().to_string();
    let out = shogi(&["mate", &path, "--shortest"]);
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert_contains(
        &text,
        &format!("{path}/q/bad.csa:1: mate 1 (minimal, unique): G*5b"),
    );
    assert_contains(&text, "stated answer (1 plies) does not mate");
    assert_contains(&text, &format!("{path}/q/good.csa:1: mate 1"));
}
