//! Compressed streams: which compression a stream's first bytes show, and a reader that
//! undoes it (flate2 with miniz_oxide, lzma-rust2 and bzip2 with libbz2-rs-sys, all pure
//! Rust; zstd, the bindings to the reference C library, because the pure-Rust ruzstd took
//! 2.9 times its instructions and 3.8 times its time to decompress a 31.6 MB tar of KIF
//! files, a third of what reading that `.tar.zst` cost beyond reading the files).

use std::io::{self, BufRead, Read};

/// A compression applied to one stream (a single record file, or a whole tar archive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Codec {
    /// gzip (`.gz`, `.tgz`), every member of a concatenated file.
    Gzip,
    /// Zstandard (`.zst`), every frame.
    Zstd,
    /// xz (`.xz`), every stream.
    Xz,
    /// bzip2 (`.bz2`), every stream.
    Bzip2,
}

impl Codec {
    /// The compression whose magic bytes `head` starts with.
    pub fn sniff(head: &[u8]) -> Option<Codec> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Codec::Gzip)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Codec::Zstd)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Some(Codec::Xz)
        } else if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
            Some(Codec::Bzip2)
        } else {
            None
        }
    }

    /// The file-name suffixes (lower case, without the dot) of this compression.
    pub fn suffixes(self) -> &'static [&'static str] {
        match self {
            Codec::Gzip => &["gz"],
            Codec::Zstd => &["zst", "zstd"],
            Codec::Xz => &["xz"],
            Codec::Bzip2 => &["bz2"],
        }
    }

    /// The compression a file-name suffix names (`gz`, `zst`, `xz`, `bz2`; any case).
    pub fn from_suffix(ext: &str) -> Option<Codec> {
        let ext = ext.to_ascii_lowercase();
        [Codec::Gzip, Codec::Zstd, Codec::Xz, Codec::Bzip2]
            .into_iter()
            .find(|c| c.suffixes().contains(&ext.as_str()))
    }

    /// A reader of the decompressed bytes of `inner`.
    pub fn decoder<'a, R: BufRead + 'a>(self, inner: R) -> Box<dyn Read + 'a> {
        match self {
            Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(inner)),
            // Every frame of the stream, one after another (the decoder's default).
            Codec::Zstd => match zstd::stream::read::Decoder::with_buffer(inner) {
                Ok(d) => Box::new(d),
                Err(e) => Box::new(Failed(Some(e))),
            },
            Codec::Xz => Box::new(lzma_rust2::XzReader::new(inner, true)),
            Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(inner)),
        }
    }

    /// What it is called in messages.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Gzip => "gzip",
            Codec::Zstd => "zstd",
            Codec::Xz => "xz",
            Codec::Bzip2 => "bzip2",
        }
    }
}

/// A decoder that could not be made: its error, on the first read.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// A reader whose first bytes were read ahead ([`peek`]) and are given back first.
pub type Peeked<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// Reads the first bytes of `reader` (up to `n`, fewer only at the end) without losing them:
/// they come first in the reader returned.
pub fn peek<R: Read>(mut reader: R, n: usize) -> io::Result<(Vec<u8>, Peeked<R>)> {
    let mut head = Vec::with_capacity(n);
    (&mut reader).take(n as u64).read_to_end(&mut head)?;
    let copy = head.clone();
    Ok((copy, io::Cursor::new(head).chain(reader)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes_name_each_compression() {
        assert_eq!(Codec::sniff(&[0x1f, 0x8b, 8]), Some(Codec::Gzip));
        assert_eq!(
            Codec::sniff(&[0x28, 0xb5, 0x2f, 0xfd, 0]),
            Some(Codec::Zstd)
        );
        assert_eq!(Codec::sniff(b"\xfd7zXZ\0\0"), Some(Codec::Xz));
        assert_eq!(Codec::sniff(b"BZh9"), Some(Codec::Bzip2));
        assert_eq!(Codec::sniff(b"BZhx"), None);
        assert_eq!(Codec::sniff("V2.2\nN+".as_bytes()), None);
        assert_eq!(Codec::from_suffix("GZ"), Some(Codec::Gzip));
        assert_eq!(Codec::from_suffix("csa"), None);
    }

    #[test]
    fn zstd_reads_every_frame() {
        let mut both = zstd::bulk::compress(&b"first "[..], 1).unwrap();
        both.extend(zstd::bulk::compress(&b"second"[..], 1).unwrap());
        let mut out = String::new();
        Codec::Zstd
            .decoder(&both[..])
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "first second");
    }
}
