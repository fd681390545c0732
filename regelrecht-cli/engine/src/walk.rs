//! Walking a corpus directory: every file with one of the given extensions below it, in path
//! order, each directory once (by device and inode, so a symlink loop is walked once), within the
//! loader's bounds (depth, number of files, deadline). Hidden entries and the names to skip are
//! passed over.
//!
//! With a corpus index ([`crate::index`]) a directory whose stamp is the recorded one is not
//! opened: its entries are the index's, and each file's own stamp (one `stat`) says whether its
//! record may be used. A directory that changed is read, and its entries are matched to the
//! index's by name, each file again by its stamp.

use crate::error::LoadError;
use crate::index::{IndexView, IndexedFile, Stamp};
use crate::limits::Limits;
use crate::origin::Origin;
use rustix::fd::OwnedFd;
use rustix::fs::{FileType, Mode, OFlags};
use std::borrow::Cow;
use std::collections::HashSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many directories the walk enters between looks at the deadline.
const DEADLINE_EVERY: usize = 64;

/// "No parent": the walked directory itself.
pub(crate) const ROOT: u32 = u32::MAX;

/// A file the walk took.
pub(crate) struct Walked {
    /// Its path below the walked directory: a range of [`Walk::paths`].
    path: (u32, u32),
    /// Where its name starts in [`Walk::paths`].
    name_start: u32,
    /// Its stamp, taken as it was found (when the walk takes stamps).
    pub(crate) stamp: Option<Stamp>,
    /// Whether no symlink lies on its way: its canonical path is the walked directory's joined
    /// with its path.
    pub(crate) plain: bool,
    /// Its index record, when its stamp is the recorded one.
    pub(crate) known: Option<IndexedFile>,
    /// The directory it is in (a position in [`Walk::dirs`]).
    pub(crate) dir: u32,
}

/// A directory the walk took.
pub(crate) struct WalkedDirectory {
    /// The directory it is in ([`ROOT`] for the walked directory).
    pub(crate) parent: u32,
    /// Its name: a range of [`Walk::paths`].
    name: (u32, u32),
    pub(crate) stamp: Stamp,
    /// Whether its entries may be believed next time: its stamp was settled and it held no symlink.
    pub(crate) listed: bool,
}

/// What a directory holds that the walk takes.
enum Entry<'i> {
    Dir {
        name: Cow<'i, [u8]>,
        /// Its record in the index.
        known: Option<u32>,
        /// Reached through a symlink.
        linked: bool,
    },
    File {
        name: Cow<'i, [u8]>,
        found: Found,
    },
}

/// A file a directory holds, as its listing says.
#[derive(Clone, Copy)]
struct Found {
    /// A regular file, no symlink.
    plain: bool,
    /// Its record in the index, by name (its stamp decides whether it is used).
    record: Option<u32>,
}

impl Entry<'_> {
    fn name(&self) -> &[u8] {
        match self {
            Entry::Dir { name, .. } | Entry::File { name, .. } => name,
        }
    }
}

/// One walk of a directory.
pub(crate) struct Walk<'e> {
    limits: Limits,
    extensions: &'e [&'e str],
    skip: &'e [&'e str],
    /// Whether each file's stamp is taken.
    stamps: bool,
    index: Option<&'e IndexView>,
    /// The walked directory, as given.
    root: PathBuf,
    /// The directories visited, by device and inode (foldhash: SipHash's cost showed in a
    /// 29,000-directory walk, and the keys are the kernel's, not the corpus's text).
    visited: HashSet<(u64, u64), foldhash::quality::RandomState>,
    /// Directories entered so far: the deadline is looked at every [`DEADLINE_EVERY`]th.
    entered: usize,
    /// The files taken, in path order.
    pub(crate) files: Vec<Walked>,
    /// The directories taken, the walked directory first.
    pub(crate) dirs: Vec<WalkedDirectory>,
    /// The paths of the files and the names of the directories, one after the other.
    pub(crate) paths: Vec<u8>,
    /// Whether what the walk found differs from the index (or there was none).
    pub(crate) changed: bool,
    /// The directories open for taking stamps, innermost last, each with where the part of a
    /// path below it starts: a stamp is taken by a path relative to the innermost, so the kernel
    /// looks up one or two names per `stat`, not every name from the root. A directory is opened
    /// only when it holds subdirectories; a law folder's files are taken from its parent's.
    open: Vec<(OwnedFd, usize)>,
    /// The moment stamps are settled against (taken before the first).
    now: Duration,
}

impl<'e> Walk<'e> {
    /// A walk taking the files with one of `extensions`, passing over hidden entries and the
    /// names in `skip`; each file's stamp is taken when `stamps`, and compared with `index`.
    pub(crate) fn new(
        extensions: &'e [&'e str],
        skip: &'e [&'e str],
        limits: Limits,
        stamps: bool,
        index: Option<&'e IndexView>,
    ) -> Walk<'e> {
        Walk {
            limits,
            extensions,
            skip,
            stamps,
            index,
            root: PathBuf::new(),
            visited: HashSet::default(),
            entered: 0,
            files: Vec::new(),
            dirs: Vec::new(),
            paths: Vec::new(),
            changed: index.is_none(),
            open: Vec::new(),
            now: Stamp::now(),
        }
    }

    /// Walks `root`.
    pub(crate) fn run(mut self, root: &Path) -> Result<Walk<'e>, LoadError> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let opened = rustix::fs::open(root, flags, Mode::empty()).map_err(|e| {
            LoadError::new(
                &Origin::File(root.to_path_buf()),
                None,
                format!("kan de map niet lezen: {}", std::io::Error::from(e)),
            )
        })?;
        self.open.push((opened, 0));
        self.root = root.to_path_buf();
        let known = self.index.and_then(IndexView::root);
        self.collect(&mut Vec::new(), true, 0, known, ROOT)?;
        Ok(self)
    }

    /// The path of `rel` (below the walked directory) as the walked directory was given, for
    /// messages and for reading: made only when needed, not kept up as the walk goes.
    fn full(&self, rel: &[u8]) -> PathBuf {
        if rel.is_empty() {
            self.root.clone()
        } else {
            self.root.join(OsStr::from_bytes(rel))
        }
    }

    /// The path of `file` below the walked directory.
    pub(crate) fn path(&self, file: &Walked) -> &Path {
        Path::new(OsStr::from_bytes(
            &self.paths[file.path.0 as usize..file.path.1 as usize],
        ))
    }

    /// The name of `file`.
    pub(crate) fn file_name(&self, file: &Walked) -> &[u8] {
        &self.paths[file.name_start as usize..file.path.1 as usize]
    }

    /// The range of [`Walk::paths`] holding the path of `file`.
    pub(crate) fn path_range(file: &Walked) -> (u32, u32) {
        file.path
    }

    /// The name of `dir`.
    pub(crate) fn dir_name(&self, dir: &WalkedDirectory) -> &[u8] {
        &self.paths[dir.name.0 as usize..dir.name.1 as usize]
    }

    fn remember(&mut self, bytes: &[&[u8]]) -> (u32, u32) {
        let start = self.paths.len() as u32;
        for part in bytes {
            self.paths.extend_from_slice(part);
        }
        (start, self.paths.len() as u32)
    }

    /// Takes the directory at `rel` (below the root), whose index record is `known`, and what
    /// is below it; whether it was taken (a directory seen before is not).
    fn collect(
        &mut self,
        rel: &mut Vec<u8>,
        plain: bool,
        depth: usize,
        known: Option<u32>,
        parent: u32,
    ) -> Result<bool, LoadError> {
        let origin = |walk: &Self, rel: &[u8]| Origin::File(walk.full(rel));
        // The clock is read every so many directories, the first included: a few hundred
        // microseconds of walking between looks, not one look per directory.
        let look = self.entered.is_multiple_of(DEADLINE_EVERY);
        self.entered += 1;
        if look && self.limits.past_deadline() {
            return Err(LoadError::deadline(&origin(self, rel)));
        }
        if depth > self.limits.max_dir_depth {
            return Err(LoadError::new(
                &origin(self, rel),
                None,
                format!(
                    "mappen dieper dan {} niveaus; laad een minder diepe map",
                    self.limits.max_dir_depth
                ),
            ));
        }
        // The stamp is taken before the directory is read: a change while it is read moves it.
        let (stamp, _) = self.stamp(rel).map_err(|e| {
            LoadError::new(
                &origin(self, rel),
                None,
                format!("kan de map niet lezen: {e}"),
            )
        })?;
        if !self.visited.insert(stamp.identity()) {
            return Ok(false);
        }
        let id = self.dirs.len() as u32;
        let name_at = rel.iter().rposition(|&b| b == b'/').map_or(0, |p| p + 1);
        let name = self.remember(&[&rel[name_at..]]);
        let index = self.index;
        let unchanged = known.filter(|&d| index.is_some_and(|i| i.unchanged(d, &stamp)));
        let (entries, listed) = match (index, unchanged) {
            (Some(index), Some(d)) => (from_index(index, d), true),
            _ => {
                let (entries, linked) = self.read(&self.full(rel), known)?;
                (entries, stamp.settled && !linked)
            }
        };
        self.dirs.push(WalkedDirectory {
            parent,
            name,
            stamp,
            listed,
        });
        // Opened for its entries' stamps only when it holds subdirectories (see `open`).
        let opened = entries.iter().any(|e| matches!(e, Entry::Dir { .. }));
        if opened {
            self.open_dir(rel)?;
        }
        let (mut subdirs, mut files) = (0, 0);
        for entry in entries {
            let name = entry.name();
            let rel_len = rel.len();
            if !rel.is_empty() {
                rel.push(b'/');
            }
            rel.extend_from_slice(name);
            let taken = match &entry {
                Entry::Dir { known, linked, .. } => {
                    let taken = self.collect(rel, plain && !linked, depth + 1, *known, id)?;
                    subdirs += usize::from(taken);
                    Ok(())
                }
                Entry::File { found, .. } => {
                    files += 1;
                    let found = Found {
                        plain: plain && found.plain,
                        ..*found
                    };
                    self.take_file(rel, name_at_end(rel, name), found, id)
                }
            };
            rel.truncate(rel_len);
            taken?;
        }
        if opened {
            self.open.pop();
        }
        // A directory read again is a change when what it holds is not what the index says.
        if unchanged.is_none()
            && !known.is_some_and(|d| {
                index.is_some_and(|i| i.same_dir(d, &stamp, listed, subdirs, files))
            })
        {
            self.changed = true;
        }
        Ok(true)
    }

    /// Opens the directory at `rel` (relative to the innermost open one), for its entries'
    /// stamps; closed again when its entries are taken.
    fn open_dir(&mut self, rel: &[u8]) -> Result<(), LoadError> {
        let path = rel
            .get(self.open.last().map_or(0, |o| o.1)..)
            .unwrap_or_default();
        let path: &[u8] = if path.is_empty() { b"." } else { path };
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let parent = self.open.last().map(|(fd, _)| fd);
        let fd = match parent {
            Some(parent) => rustix::fs::openat(parent, path, flags, Mode::empty()),
            None => rustix::fs::open(self.full(rel), flags, Mode::empty()),
        }
        .map_err(|e| {
            LoadError::new(
                &Origin::File(self.full(rel)),
                None,
                format!("kan de map niet lezen: {}", std::io::Error::from(e)),
            )
        })?;
        self.open
            .push((fd, if rel.is_empty() { 0 } else { rel.len() + 1 }));
        Ok(())
    }

    /// The stamp of `rel` below the walked directory.
    fn stamp(&self, rel: &[u8]) -> std::io::Result<(Stamp, FileType)> {
        match self.open.last() {
            Some((dir, start)) => Stamp::at(dir, rel.get(*start..).unwrap_or_default(), self.now),
            None => Err(std::io::ErrorKind::NotFound.into()),
        }
    }

    /// Takes the file at `rel` below the root, its name starting at `name_at`.
    fn take_file(
        &mut self,
        rel: &[u8],
        name_at: usize,
        found: Found,
        dir: u32,
    ) -> Result<(), LoadError> {
        if self.files.len() >= self.limits.max_files {
            let path = self.full(rel);
            return Err(self
                .limits
                .too_many_files(&Origin::File(path.parent().unwrap_or(&path).to_path_buf())));
        }
        let stamp = if self.stamps {
            let origin = || Origin::File(self.full(rel));
            let (stamp, file_type) = self.stamp(rel).map_err(|e| {
                LoadError::new(&origin(), None, format!("kan het bestand niet lezen: {e}"))
            })?;
            // After symlinks, only a regular file is read (a FIFO would block, a device never end).
            if file_type != FileType::RegularFile {
                return Err(LoadError::new(
                    &origin(),
                    None,
                    "geen gewoon bestand (bijv. een FIFO of apparaat)",
                ));
            }
            Some(stamp)
        } else {
            None
        };
        let known = match (self.index, found.record, stamp) {
            (Some(index), Some(record), Some(stamp)) => index.file_at(record, &stamp),
            _ => None,
        };
        if self.stamps && known.is_none() {
            self.changed = true;
        }
        let range = self.remember(&[rel]);
        self.files.push(Walked {
            path: range,
            name_start: range.0 + name_at as u32,
            stamp,
            plain: found.plain,
            known,
            dir,
        });
        Ok(())
    }

    /// What `dir` holds, read from the directory, in name order; and whether it holds a symlink.
    fn read(&self, dir: &Path, known: Option<u32>) -> Result<(Vec<Entry<'e>>, bool), LoadError> {
        let origin = || Origin::File(dir.to_path_buf());
        let entries = std::fs::read_dir(dir)
            .map_err(|e| LoadError::new(&origin(), None, format!("kan de map niet lezen: {e}")))?;
        let index = self.index.zip(known);
        // The directory stream is closed before its subdirectories are walked: one stream (and
        // its 32 KiB buffer) open at a time, however deep the corpus.
        let mut found: Vec<Entry<'e>> = Vec::new();
        let mut linked = false;
        for entry in entries {
            if self.limits.past_deadline() {
                return Err(LoadError::deadline(&origin()));
            }
            let entry = entry.map_err(|e| LoadError::new(&origin(), None, e.to_string()))?;
            let name = entry.file_name();
            if name.as_encoded_bytes().starts_with(b".")
                || self.skip.iter().any(|skip| name == *skip)
            {
                continue;
            }
            let file_type = entry
                .file_type()
                .map_err(|e| LoadError::new(&origin(), None, e.to_string()))?;
            let bytes = name.as_bytes();
            let subdir = || index.and_then(|(index, d)| index.subdir(d, bytes));
            if file_type.is_dir() {
                found.push(Entry::Dir {
                    known: subdir(),
                    name: Cow::Owned(bytes.to_vec()),
                    linked: false,
                });
            } else if file_type.is_symlink() && dir.join(&name).is_dir() {
                linked = true;
                found.push(Entry::Dir {
                    known: subdir(),
                    name: Cow::Owned(bytes.to_vec()),
                    linked: true,
                });
            } else if Path::new(&name)
                .extension()
                .is_some_and(|ext| self.extensions.iter().any(|e| ext == *e))
            {
                linked |= file_type.is_symlink();
                found.push(Entry::File {
                    found: Found {
                        plain: file_type.is_file(),
                        record: index.and_then(|(index, d)| index.file_named(d, bytes)),
                    },
                    name: Cow::Owned(bytes.to_vec()),
                });
            }
        }
        found.sort_unstable_by(|a, b| a.name().cmp(b.name()));
        Ok((found, linked))
    }
}

/// Where a name that ends `rel` starts in it.
fn name_at_end(rel: &[u8], name: &[u8]) -> usize {
    rel.len() - name.len()
}

/// The entries of an unchanged directory as the index holds them, in name order.
fn from_index(index: &IndexView, dir: u32) -> Vec<Entry<'_>> {
    let mut subdirs = index.subdirs(dir).peekable();
    let mut files = index.files_of(dir).peekable();
    let mut entries = Vec::new();
    loop {
        let take_dir = match (subdirs.peek(), files.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some((d, _)), Some((f, _))) => d <= f,
        };
        entries.push(if take_dir {
            let Some((name, known)) = subdirs.next() else {
                break;
            };
            Entry::Dir {
                name: Cow::Borrowed(name),
                known: Some(known),
                linked: false,
            }
        } else {
            let Some((name, record)) = files.next() else {
                break;
            };
            Entry::File {
                name: Cow::Borrowed(name),
                found: Found {
                    plain: true,
                    record: Some(record),
                },
            }
        });
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::LoadErrorKind;
    use std::time::Instant;

    /// A directory holding `count` subdirectories, each with one law file.
    fn tree(count: usize) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..count {
            let folder = dir.path().join(format!("wet/w{n:03}"));
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(
                folder.join("2020.yaml"),
                format!("$id: w{n:03}\nvalid_from: '2020-01-01'\narticles: []\n"),
            )
            .unwrap();
        }
        dir
    }

    fn past_deadline() -> Limits {
        Limits {
            deadline: Some(Instant::now() - Duration::from_secs(1)),
            ..Limits::default()
        }
    }

    /// An index store in memory holding the last index put.
    #[derive(Default)]
    struct Last(std::sync::Mutex<Option<Vec<u8>>>);

    impl crate::load::IndexStore for Last {
        fn get(&self, _: &str) -> Option<Vec<u8>> {
            self.0.lock().unwrap().clone()
        }
        fn put(&self, _: &str, index: &[u8]) {
            *self.0.lock().unwrap() = Some(index.to_vec());
        }
    }

    #[test]
    fn a_walk_looks_at_its_deadline_at_the_first_directory_and_every_so_many_after() {
        let dir = tree(2 * DEADLINE_EVERY);
        let ext: &[&str] = &["yaml"];
        // The first directory entered looks: a deadline already passed stops the walk there.
        let err = Walk::new(ext, &[], past_deadline(), true, None)
            .run(dir.path())
            .err()
            .expect("the deadline stops the walk");
        assert!(matches!(err.kind, LoadErrorKind::Deadline));
        assert_eq!(err.file, dir.path().display().to_string(), "{err}");
        // With a settled index no directory is read, so only the walk's own looks stop it: a
        // walk that has passed its first look (here the walked directory's skipped, as if it
        // had been entered after one) stops within the next DEADLINE_EVERY directories.
        let store = std::sync::Arc::new(Last::default());
        let load = || {
            let mut corpus = crate::load::Corpus::new();
            corpus.set_index(store.clone());
            corpus.add_dir(dir.path()).unwrap();
        };
        load();
        std::thread::sleep(crate::index::SETTLED + Duration::from_millis(100));
        load();
        let view = IndexView::open(store.0.lock().unwrap().clone().unwrap()).unwrap();
        let walk = Walk::new(ext, &[], Limits::default(), true, Some(&view))
            .run(dir.path())
            .unwrap();
        assert!(!walk.changed, "the index describes the tree");
        assert!(walk.files.iter().all(|f| f.known.is_some()));
        let mut walk = Walk::new(ext, &[], past_deadline(), true, Some(&view));
        walk.entered = 1;
        let err = walk
            .run(dir.path())
            .err()
            .expect("the deadline stops the walk");
        assert!(matches!(err.kind, LoadErrorKind::Deadline));
        let stopped = dir.path().join(format!("wet/w{:03}", DEADLINE_EVERY - 3));
        assert_eq!(err.file, stopped.display().to_string(), "{err}");
        // Without a deadline the whole tree is walked, every file with its stamp.
        let walk = Walk::new(ext, &[], Limits::default(), true, None)
            .run(dir.path())
            .unwrap();
        assert_eq!(walk.files.len(), 2 * DEADLINE_EVERY);
        assert_eq!(walk.dirs.len(), 2 * DEADLINE_EVERY + 2);
        assert!(walk.files.iter().all(|f| f.stamp.is_some()));
        assert_eq!(walk.path(&walk.files[5]), Path::new("wet/w005/2020.yaml"));
    }
}
