//! Reading an archive's members in its order, one decoder pass for all of them: each
//! member's bytes (at most [`MEMBER_LIMIT`]) or why they cannot be had.

use super::{
    Archive, MEMBER_LIMIT, Member, Packing, member_reason, sevenz_reason, tar_reason, zip_reason,
};
use std::io::{BufReader, Read};
use std::ops::ControlFlow;

/// A member's bytes, or why it could not be read.
pub(crate) type Bytes = Result<Vec<u8>, String>;

/// The 7z's files in the order their data is stored: block by block, then the files
/// without data.
pub(crate) fn sevenz_order(archive: &sevenz_rust2::Archive) -> Vec<usize> {
    let mut order = Vec::with_capacity(archive.files.len());
    for files in block_files(archive) {
        order.extend(files);
    }
    order.extend(
        (0..archive.files.len()).filter(|&i| archive.stream_map.file_block_index[i].is_none()),
    );
    order
}

/// The files of each 7z block (consecutive in the file list).
fn block_files(archive: &sevenz_rust2::Archive) -> Vec<std::ops::Range<usize>> {
    let mut counts = vec![0usize; archive.blocks.len()];
    for b in archive.stream_map.file_block_index.iter().flatten() {
        if let Some(c) = counts.get_mut(*b) {
            *c += 1;
        }
    }
    counts
        .iter()
        .enumerate()
        .map(|(block, n)| {
            let first = archive.stream_map.block_first_file_index[block];
            first..first + n
        })
        .collect()
}

/// Reads `wanted` (members of `archive` in its order) and hands each, by its position in
/// `wanted`, its bytes or why not, in that order, until `each` breaks. A member the
/// listing already knew to be unreadable gets its error without decoding anything.
pub(crate) fn read_members(
    archive: &Archive,
    wanted: &[&Member],
    each: &mut dyn FnMut(usize, Bytes) -> ControlFlow<()>,
) {
    // Members with a known error come last in a listing (or alone): read the others first.
    let readable = wanted.iter().take_while(|m| m.error.is_none()).count();
    // The members the listing kept (a tar's): no decoding, up to the first one it did not.
    let mut next = 0;
    while let Some(bytes) = wanted[..readable]
        .get(next)
        .and_then(|m| archive.held.take(m.index))
    {
        next += 1;
        if each(next - 1, Ok(bytes)).is_break() {
            return;
        }
    }
    let skip = next;
    let mut hand = |pos: usize, bytes: Bytes| -> ControlFlow<()> {
        next = skip + pos + 1;
        each(skip + pos, bytes)
    };
    let flow = match std::fs::File::open(&archive.path) {
        _ if skip == readable => ControlFlow::Continue(()),
        Err(e) => {
            let reason = crate::input::io_reason(&e);
            (0..readable - skip).try_for_each(|pos| hand(pos, Err(reason.clone())))
        }
        Ok(file) => {
            let file = BufReader::with_capacity(1 << 16, file);
            let wanted = &wanted[skip..readable];
            match archive.packing {
                Packing::Zip => zip_members(file, wanted, &mut hand),
                Packing::SevenZ => sevenz_members(file, wanted, &mut hand),
                Packing::Tar(codec) => {
                    let reader: Box<dyn Read> = match codec {
                        Some(c) => c.decoder(file),
                        None => Box::new(file),
                    };
                    tar_members(reader, wanted, &mut hand)
                }
            }
        }
    };
    if flow.is_break() {
        return;
    }
    for (pos, m) in wanted.iter().enumerate().skip(next) {
        let why = m.error.clone().unwrap_or_else(|| {
            "not read: the archive could not be read up to this member".to_string()
        });
        if each(pos, Err(why)).is_break() {
            return;
        }
    }
}

/// Reads at most [`MEMBER_LIMIT`] bytes of a member, then reads past the rest of it (the
/// next member starts there in a stream).
/// `reason` words an I/O error (the member's own, or the stream's).
fn read_capped(r: &mut dyn Read, reason: fn(&std::io::Error) -> String) -> Bytes {
    let mut buf = Vec::new();
    r.take(MEMBER_LIMIT + 1)
        .read_to_end(&mut buf)
        .map_err(|e| reason(&e))?;
    if buf.len() as u64 > MEMBER_LIMIT {
        std::io::copy(r, &mut std::io::sink()).map_err(|e| reason(&e))?;
        return Err(format!(
            "the member inflates past {} MiB, the limit for one member: not read",
            MEMBER_LIMIT >> 20
        ));
    }
    Ok(buf)
}

fn zip_members(
    file: BufReader<std::fs::File>,
    wanted: &[&Member],
    each: &mut dyn FnMut(usize, Bytes) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut zip = match zip::ZipArchive::new(file) {
        Ok(z) => z,
        Err(e) => {
            let why = zip_reason(&e);
            return (0..wanted.len()).try_for_each(|pos| each(pos, Err(why.clone())));
        }
    };
    for (pos, m) in wanted.iter().enumerate() {
        let bytes = match zip.by_index(m.index) {
            Ok(mut f) => read_capped(&mut f, member_reason),
            Err(e) => Err(zip_reason(&e)),
        };
        each(pos, bytes)?;
    }
    ControlFlow::Continue(())
}

fn sevenz_members(
    mut file: BufReader<std::fs::File>,
    wanted: &[&Member],
    each: &mut dyn FnMut(usize, Bytes) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let password = sevenz_rust2::Password::empty();
    let archive = match sevenz_rust2::Archive::read(&mut file, &password) {
        Ok(a) => a,
        Err(e) => {
            let why = sevenz_reason(&e);
            return (0..wanted.len()).try_for_each(|pos| each(pos, Err(why.clone())));
        }
    };
    let blocks = block_files(&archive);
    let mut pos = 0;
    // Each block holding a wanted member is decoded once, from its start; a block that
    // fails leaves its remaining members with the error and the next block is read.
    while pos < wanted.len() {
        let index = wanted[pos].index;
        let Some(block) = archive.stream_map.file_block_index.get(index).copied() else {
            each(pos, Err("not in the archive's file list".into()))?;
            pos += 1;
            continue;
        };
        let Some(block) = block else {
            each(pos, Ok(Vec::new()))?;
            pos += 1;
            continue;
        };
        let (first, end) = (blocks[block].start, blocks[block].end);
        let in_block = wanted[pos..]
            .iter()
            .take_while(|m| (first..end).contains(&m.index))
            .count();
        let members = &wanted[pos..pos + in_block];
        let (mut handed, mut at) = (0, first);
        let mut broke: Option<String> = None;
        let mut flow = ControlFlow::Continue(());
        let decoder = sevenz_rust2::BlockDecoder::new(1, block, &archive, &password, &mut file);
        let result = decoder.for_each_entries(&mut |_, reader| {
            let Some(m) = members.get(handed) else {
                return Ok(false);
            };
            // The block hands its files in order, from its first.
            let this = at;
            at += 1;
            if this != m.index {
                // Not wanted: read past it.
                return match std::io::copy(reader, &mut std::io::sink()) {
                    Ok(_) => Ok(true),
                    Err(e) => {
                        broke = Some(tar_reason(&e));
                        Ok(false)
                    }
                };
            }
            let bytes = read_capped(reader, member_reason);
            if let Err(why) = &bytes {
                if !why.contains("inflates past") {
                    broke = Some(format!(
                        "not read: the block broke at an earlier member ({why})"
                    ));
                }
            }
            flow = each(pos + handed, bytes);
            handed += 1;
            Ok(flow.is_continue() && broke.is_none())
        });
        flow?;
        let why = match (result, broke) {
            (Err(e), _) => Some(sevenz_reason(&e)),
            (Ok(_), b) => b,
        };
        for k in handed..in_block {
            let why = why
                .clone()
                .unwrap_or_else(|| "not found in its block of the archive".into());
            each(pos + k, Err(why))?;
        }
        pos += in_block;
    }
    ControlFlow::Continue(())
}

fn tar_members(
    reader: Box<dyn Read + '_>,
    wanted: &[&Member],
    each: &mut dyn FnMut(usize, Bytes) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut tar = tar::Archive::new(super::forward::Forward::new(reader));
    let mut pos = 0;
    let mut broke = None;
    match tar.entries_with_seek() {
        Err(e) => broke = Some(tar_reason(&e)),
        Ok(entries) => {
            for (index, entry) in entries.enumerate() {
                if pos == wanted.len() {
                    break;
                }
                let mut entry = match entry {
                    Ok(e) => e,
                    Err(e) => {
                        broke = Some(tar_reason(&e));
                        break;
                    }
                };
                if index != wanted[pos].index {
                    continue;
                }
                let bytes = read_capped(&mut entry, tar_reason);
                let stop = matches!(&bytes, Err(w) if !w.contains("inflates past"));
                if let Err(w) = &bytes {
                    broke = Some(format!(
                        "not read: the archive broke at an earlier member ({w})"
                    ));
                }
                each(pos, bytes)?;
                pos += 1;
                if stop {
                    break;
                }
                broke = None;
            }
        }
    }
    let why = broke.unwrap_or_else(|| "not found in the archive".into());
    (pos..wanted.len()).try_for_each(|p| each(p, Err(why.clone())))
}
