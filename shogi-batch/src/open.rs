//! Opening the record files of a batch. Most come from a folder walk, thousands a folder:
//! on Linux each is opened through a handle on its folder (`openat`) that the thread keeps
//! while the files it reads are in that folder, so that the kernel looks up one name a file
//! instead of walking the whole path again (a twentieth of `check`'s time went to that walk).
//!
//! The one difference from opening the whole path: a folder renamed while its files are
//! being read is still read from (the walk listed them there), where `File::open` would
//! look for them at the old path.
//!
//! Files opened through a folder handle are opened with `O_NOATIME` where the user may (the
//! file's owner): reading a collection does not rewrite each file's access time, and the
//! kernel skips the check on every read of whether to (a thirtieth of a small file's cost).
//! For a file of another owner the kernel refuses the flag; the thread then opens without it
//! from there on.

use std::fs::File;
use std::path::Path;

/// Opens `path` for reading, as [`File::open`] does, with the same result and the same
/// error for every path.
pub(crate) fn open(path: &Path) -> std::io::Result<File> {
    open_record(path).map(|(f, _)| f)
}

/// [`open`], and whether a first read that asks for [`WHOLE_IF_SHORT`] bytes from the
/// file's start and gets fewer has read the whole file (see [`WHOLE_IF_SHORT`]): `true`
/// only for a file opened through its folder's handle, on a file system that reads so.
/// The folder's file system is the one asked (once a folder): a file mounted by itself onto
/// a name in the folder, from a file system that reads otherwise, would be misjudged.
pub(crate) fn open_record(path: &Path) -> std::io::Result<(File, bool)> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        linux::open(path)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        File::open(path).map(|f| (f, false))
    }
}

/// The most a first read may ask for to be taken as whole when it comes back short.
///
/// `read` may return fewer bytes than asked before a file's end: on a signal, or when an
/// I/O error stops it part way, or as some file systems do (FUSE with direct I/O, network
/// file systems). So a reader asks again until a read returns nothing: for a record file of
/// a few kilobytes a second system call (a fifteenth of the kernel's time a file). On the
/// local file systems named in `linux::SHORT_MEANS_END` a read of a regular file is copied
/// from the page cache a page at a time, and a read within the first page either returns
/// every byte up to the file's end or fails with nothing read (a fatal signal included):
/// there a short first read of at most a page has read the whole file, as the read that
/// would follow it would say.
pub(crate) const WHOLE_IF_SHORT: usize = 4096;

#[cfg(any(target_os = "linux", target_os = "android"))]
mod linux {
    use rustix::fs::{Mode, OFlags};
    use rustix::io::Errno;
    use std::cell::{Cell, RefCell};
    use std::ffi::OsStr;
    use std::fs::File;
    use std::os::fd::OwnedFd;
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    /// The file systems whose reads of regular files go through the page cache a page at a
    /// time (see [`super::WHOLE_IF_SHORT`]): ext2/3/4, XFS, Btrfs, F2FS and tmpfs
    /// (`statfs`'s `f_type`).
    const SHORT_MEANS_END: [i64; 5] = [0xEF53, 0x5846_5342, 0x9123_683E, 0xF2F5_2010, 0x0102_1994];

    thread_local! {
        /// The folder of the last file this thread opened, a handle on it (`O_PATH`: it
        /// grants nothing beyond looking up names in it), and whether its file system is one
        /// of [`SHORT_MEANS_END`].
        static FOLDER: RefCell<Option<(PathBuf, OwnedFd, bool)>> = const { RefCell::new(None) };
        /// Whether to ask for `O_NOATIME`: until the kernel refuses it once (`EPERM`, a file
        /// the user does not own).
        static NOATIME: Cell<bool> = const { Cell::new(true) };
    }

    /// `path` as its folder and a plain name in it (no `/`, not `.` or `..`), from its last
    /// `/`; `None` when it has no such folder part or name (then it is opened whole).
    /// Cheaper than `Path::parent` and `file_name`, which parse the path into components.
    pub(super) fn split(path: &Path) -> Option<(&Path, &OsStr)> {
        let bytes = path.as_os_str().as_bytes();
        let slash = bytes.iter().rposition(|&b| b == b'/')?;
        let (folder, name) = (&bytes[..slash], &bytes[slash + 1..]);
        if folder.is_empty() || name.is_empty() || name == b"." || name == b".." {
            return None;
        }
        Some((
            Path::new(OsStr::from_bytes(folder)),
            OsStr::from_bytes(name),
        ))
    }

    /// Whether the file system of `fd` is one of [`SHORT_MEANS_END`].
    // `f_type`'s type is the architecture's word: `i64` here, narrower elsewhere.
    #[allow(clippy::unnecessary_cast)]
    fn short_means_end(fd: &OwnedFd) -> bool {
        rustix::fs::fstatfs(fd).is_ok_and(|s| SHORT_MEANS_END.contains(&(s.f_type as i64)))
    }

    pub(super) fn open(path: &Path) -> std::io::Result<(File, bool)> {
        let Some((folder, name)) = split(path) else {
            return File::open(path).map(|f| (f, false));
        };
        let opened = FOLDER.with(|kept| {
            let mut kept = kept.borrow_mut();
            if kept.as_ref().is_none_or(|(p, _, _)| p != folder) {
                let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
                *kept = rustix::fs::open(folder, flags, Mode::empty())
                    .ok()
                    .map(|fd| {
                        let local = short_means_end(&fd);
                        (folder.to_path_buf(), fd, local)
                    });
            }
            let (_, fd, local) = kept.as_ref()?;
            let plain = OFlags::RDONLY | OFlags::CLOEXEC;
            if NOATIME.get() {
                match rustix::fs::openat(fd, name, plain | OFlags::NOATIME, Mode::empty()) {
                    Err(Errno::PERM) => NOATIME.set(false),
                    other => return other.ok().map(|f| (f, *local)),
                }
            }
            rustix::fs::openat(fd, name, plain, Mode::empty())
                .ok()
                .map(|f| (f, *local))
        });
        match opened {
            Some((fd, local)) => Ok((File::from(fd), local)),
            // Whatever failed (the folder or the file), the path is opened as given: the error
            // is then the one `File::open` reports, word for word.
            None => File::open(path).map(|f| (f, false)),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::open;
    use std::io::Read;
    use std::path::Path;

    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn split_cuts_at_the_last_slash_only_for_a_plain_name() {
        fn split(p: &str) -> Option<(&str, &str)> {
            let (f, n) = super::linux::split(Path::new(p))?;
            Some((f.to_str().unwrap(), n.to_str().unwrap()))
        }
        assert_eq!(split("/a/b/x.kif"), Some(("/a/b", "x.kif")));
        assert_eq!(split("a//x.kif"), Some(("a/", "x.kif")));
        assert_eq!(split("../x.kif"), Some(("..", "x.kif")));
        for whole in ["x.kif", "/x.kif", "a/", "a/.", "a/..", ""] {
            assert_eq!(split(whole), None, "{whole}");
        }
    }

    #[test]
    fn opens_as_file_open_does() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("sub");
        std::fs::create_dir(&a).unwrap();
        std::fs::create_dir(&b).unwrap();
        std::fs::write(a.join("x.kif"), "in a").unwrap();
        std::fs::write(b.join("x.kif"), "in sub").unwrap();
        std::os::unix::fs::symlink(b.join("x.kif"), a.join("link.kif")).unwrap();
        let read = |p: &std::path::Path| {
            let mut s = String::new();
            open(p)
                .and_then(|mut f| f.read_to_string(&mut s))
                .map(|_| s)
        };
        // Same file name in two folders, in turn: each read from its own folder.
        for _ in 0..2 {
            assert_eq!(read(&a.join("x.kif")).unwrap(), "in a");
            assert_eq!(read(&b.join("x.kif")).unwrap(), "in sub");
        }
        // A link is followed; `..` resolves as in the whole path.
        assert_eq!(read(&a.join("link.kif")).unwrap(), "in sub");
        assert_eq!(read(&a.join("../sub/x.kif")).unwrap(), "in sub");
        // A missing file, a missing folder, a folder given as the file: File::open's errors.
        for p in [a.join("none.kif"), dir.path().join("none/x.kif"), b.clone()] {
            let ours = open(&p).and_then(|mut f| f.read_to_end(&mut Vec::new()));
            let std = std::fs::File::open(&p).and_then(|mut f| f.read_to_end(&mut Vec::new()));
            assert_eq!(
                ours.unwrap_err().to_string(),
                std.unwrap_err().to_string(),
                "{p:?}"
            );
        }
        // A file of the folder kept, after that folder was deleted and made again: the new
        // folder's file.
        assert_eq!(read(&b.join("x.kif")).unwrap(), "in sub");
        std::fs::remove_dir_all(&b).unwrap();
        std::fs::create_dir(&b).unwrap();
        std::fs::write(b.join("x.kif"), "new sub").unwrap();
        assert_eq!(read(&b.join("x.kif")).unwrap(), "new sub");
    }

    /// Reading a file through a folder leaves its access time as it was, even where the
    /// kernel would set it (`relatime` sets it when it is older than the modification time).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    fn reading_keeps_the_access_time() {
        use std::time::{Duration, SystemTime};
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.kif");
        std::fs::write(&p, "a record").unwrap();
        let old = SystemTime::now() - Duration::from_secs(3 * 24 * 3600);
        let times = std::fs::FileTimes::new().set_accessed(old);
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_times(times)
            .unwrap();
        let before = std::fs::metadata(&p).unwrap().accessed().unwrap();
        assert_eq!(before, old);
        let mut s = String::new();
        open(&p).unwrap().read_to_string(&mut s).unwrap();
        assert_eq!(s, "a record");
        assert_eq!(std::fs::metadata(&p).unwrap().accessed().unwrap(), old);
        // Opened whole, as `File::open` does, the same read sets it where the file system
        // keeps access times (`relatime`, the default; this machine's and CI's): there the
        // test can tell. A file system mounted `noatime` keeps them in both cases.
        std::fs::File::open(&p)
            .unwrap()
            .read_to_string(&mut String::new())
            .unwrap();
        let after = std::fs::metadata(&p).unwrap().accessed().unwrap();
        if after == old {
            eprintln!("this file system does not set access times: the test shows nothing");
        }
    }
}
