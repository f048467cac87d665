//! Archives as inputs, end to end: a collection (the hand-checked stats fixtures, several
//! formats, in two folders) packed at test time into every archive format with the readers'
//! own crates, read by `shogi stats` and compared row for row with the unpacked folder
//! (paths aside); damaged archives, bad members, archives in a folder walk and a compressed
//! standard input.

mod common;

use common::{assert_contains, code, scratch, shogi, shogi_stdin, stderr, stdout};
use std::io::{Cursor, Write};
use std::path::Path;

/// The collection: relative path and bytes, in sorted path order (a folder walk's order).
fn collection() -> Vec<(String, Vec<u8>)> {
    let src = common::workspace_root().join("tests/fixtures/stats");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            // Two folders, so that members have paths below the archive's root.
            let rel = if name.ends_with(".csa") || name.ends_with(".usi") {
                format!("2020/{name}")
            } else {
                format!("top/{name}")
            };
            (rel, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
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
        "zst" => {
            ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
        }
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
    let dir = scratch("archive-formats");
    let files = collection();
    let folder = unpack(&dir, &files);
    let (c, want, _) = rows(&["stats", &folder]);
    assert_eq!(c, 0);
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
