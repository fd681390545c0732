//! The index of a corpus directory kept between calls (issue 41 item 2): every directory the
//! walk took and every law file in it, each with its stamp, and what the scan of each law file
//! found, in a compact binary form that a call uses where it lies: nothing is decoded up front.
//!
//! A call checks the index against the disk ([`crate::load::Corpus::add_dir`]) and then reads
//! only the records of the laws it needs: an evaluation the laws on its chain (found by `$id`),
//! a listing every law's summary. The records are fixed-size and little-endian, read in place
//! with `zerocopy` (no `unsafe`, no alignment needed: the cache hands the index over as the bytes
//! it verified); strings are stored once each in one text area.
//!
//! # Why the index can be believed
//!
//! The cache itself only hands over an index that is the user's own and whose SHA-256 is the one
//! it was written with (CACHE-2, CACHE-6). That it still describes the disk rests on stamps:
//!
//! * A **file** is believed only while its size, modification time, change time (`ctime`), inode
//!   and device are the ones recorded. `ctime` moves on every write, rename or change of
//!   metadata and cannot be set back by any program, so a file rewritten with its old size and
//!   modification time put back is read again too.
//! * A **directory** that has not changed is not read again: its entries come from the index.
//!   A directory's `ctime` moves whenever an entry is added, removed or renamed in it, so a
//!   directory with its recorded stamp holds the entries it held (each still checked by its own
//!   stamp, each subdirectory by its own). A directory holding a symlink is read every time (the
//!   link's target may change without the directory changing).
//! * A stamp is **settled** when its `ctime` lies at least [`SETTLED`] before the moment it was
//!   taken: a change in the same tick of the file system's clock cannot hide behind it. Only
//!   settled stamps are believed; a file or directory that changed just before is read again
//!   on the next call, and believed once settled.
//!
//! So a warm call costs one `stat` per directory and one per law file, not the opening and
//! reading of every directory, and a file the index describes wrongly is never used.

use crate::scan::{Declares, Header, Implements, Summary};
use rustix::fd::AsFd;
use rustix::fs::{AtFlags, FileType};
use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use zerocopy::byteorder::little_endian::{I64, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// How long before a stamp was taken its `ctime` must lie for the stamp to be believed: well
/// above any file system's timestamp granularity (a clock tick on Linux, two seconds on FAT).
pub(crate) const SETTLED: Duration = Duration::from_secs(2);

/// The first bytes of an index in this form; another form is not read.
const MAGIC: [u8; 8] = *b"RRCIDX03";

/// "No value" in a [`Span`]'s start or a record number.
const NONE: u32 = u32::MAX;

/// A range: of bytes in the text area (a string), of records in a table, or of entries in a pool.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    FromBytes,
    IntoBytes,
    KnownLayout,
    Immutable,
    Unaligned,
)]
#[repr(C)]
struct Span {
    start: U32,
    len: U32,
}

impl Span {
    const NONE: Span = Span {
        start: U32::new(NONE),
        len: U32::new(0),
    };

    fn new(start: usize, len: usize) -> Span {
        Span {
            start: U32::new(start as u32),
            len: U32::new(len as u32),
        }
    }

    fn is_none(self) -> bool {
        self.start.get() == NONE
    }

    fn range(self) -> std::ops::Range<usize> {
        let start = self.start.get() as usize;
        start..start + self.len.get() as usize
    }
}

/// Where each table lies in the index (byte offset and number of records).
#[derive(Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct Head {
    magic: [u8; 8],
    dirs: Span,
    files: Span,
    laws: Span,
    strings: Span,
    numbers: Span,
    implements: Span,
    text: Span,
}

/// A file's or directory's stamp as stored.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
struct StampRecord {
    size: U64,
    mtime: I64,
    mtime_nsec: I64,
    ctime: I64,
    ctime_nsec: I64,
    ino: U64,
    dev: U64,
}

/// One directory the walk took: its name, its stamp, and (when `listed`) what it holds, the
/// subdirectories as a range of `numbers` (directory records, in name order) and the law files
/// as a range of the file table (in name order).
#[derive(Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub(crate) struct DirRecord {
    name: Span,
    stamp: StampRecord,
    subdirs: Span,
    files: Span,
    /// 1: the stamp was settled and the directory held no symlink, so its entries may be believed.
    listed: u8,
}

/// One `*.yaml` file the walk took: its name, its stamp, and its law record (`NONE`: no law).
#[derive(Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct FileRecord {
    name: Span,
    stamp: StampRecord,
    /// 1: the stamp was settled when the file was read.
    settled: u8,
    law: U32,
}

/// What the scan of one law file found ([`crate::scan`]).
#[derive(Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct LawRecord {
    id: Span,
    schema: Span,
    schema_line: U32,
    valid_from: Span,
    valid_to: Span,
    valid_to_line: U32,
    /// implements, hooks, overrides, procedure: bits 0 to 3; bit 4: a `$schema` not read.
    flags: u8,
    /// 1: the summary below is the scan's (else the law is parsed for it).
    summary: u8,
    name: Span,
    layer: Span,
    bwb_id: Span,
    /// A range of `strings`.
    outputs: Span,
    /// 1: the implements below are all the law's (else it may implement anything).
    implements_known: u8,
    /// A range of the implements table.
    implements: Span,
}

/// One `implements` entry.
#[derive(Clone, Copy, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
struct ImplementsRecord {
    law: Span,
    article: Span,
    open_term: Span,
}

/// A file's or directory's stamp: size, modification and change time, inode and device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    record: StampRecord,
    /// Whether its `ctime` lay [`SETTLED`] before the stamp was taken.
    pub(crate) settled: bool,
}

impl Stamp {
    /// The stamp of `path` below the directory `dir` (after symlinks; `""` is `dir` itself),
    /// settled or not as of `now` (a moment before it is taken), and what it is.
    pub(crate) fn at(
        dir: impl AsFd,
        path: &[u8],
        now: Duration,
    ) -> std::io::Result<(Stamp, FileType)> {
        let path: &[u8] = if path.is_empty() { b"." } else { path };
        let stat = rustix::fs::statat(dir, path, AtFlags::empty())?;
        let changed = Duration::new(
            u64::try_from(stat.st_ctime).unwrap_or(0),
            u32::try_from(stat.st_ctime_nsec).unwrap_or(0),
        );
        let stamp = Stamp {
            record: StampRecord {
                size: U64::new(stat.st_size as u64),
                mtime: I64::new(stat.st_mtime as i64),
                mtime_nsec: I64::new(stat.st_mtime_nsec as i64),
                ctime: I64::new(stat.st_ctime as i64),
                ctime_nsec: I64::new(stat.st_ctime_nsec as i64),
                ino: U64::new(stat.st_ino as u64),
                dev: U64::new(stat.st_dev as u64),
            },
            settled: now.checked_sub(changed).is_some_and(|age| age >= SETTLED),
        };
        Ok((stamp, FileType::from_raw_mode(stat.st_mode as _)))
    }

    /// The moment against which stamps taken from now on are settled or not.
    pub(crate) fn now() -> Duration {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
    }

    /// The device and inode: what makes a directory the same directory.
    pub(crate) fn identity(&self) -> (u64, u64) {
        (self.record.dev.get(), self.record.ino.get())
    }

    /// Whether this stamp, taken now, says the thing is as it was when `recorded` was taken.
    fn matches(&self, recorded: &StampRecord) -> bool {
        self.settled && self.record == *recorded
    }
}

/// What a listing shows of a law ([`crate::scan::Summary`]), borrowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryRef<'a> {
    pub name: Option<&'a str>,
    pub layer: Option<&'a str>,
    pub bwb_id: Option<&'a str>,
    pub outputs: Vec<&'a str>,
}

/// An index read from the cache: its bytes, checked once to be well formed, and read in place.
pub(crate) struct IndexView {
    bytes: Vec<u8>,
    head: Head,
}

impl std::fmt::Debug for IndexView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IndexView({} bytes)", self.bytes.len())
    }
}

/// A law file the index describes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IndexedFile {
    /// Its law record (`None`: the file is no law).
    pub(crate) law: Option<u32>,
}

impl IndexView {
    /// The index in `bytes`, or `None` when they are no index of this form or not well formed
    /// (then the directory is read as if there were none, and the index written anew).
    pub(crate) fn open(bytes: Vec<u8>) -> Option<IndexView> {
        let head = Head::read_from_prefix(&bytes).ok()?.0;
        if head.magic != MAGIC {
            return None;
        }
        let view = IndexView { bytes, head };
        view.well_formed().then_some(view)
    }

    /// Whether every table lies within the bytes and every span within its table or the text:
    /// one pass over the records, so that reading them later cannot fail.
    fn well_formed(&self) -> bool {
        let (Some(dirs), Some(files), Some(laws), Some(strings), Some(numbers), Some(implements)) = (
            self.table::<DirRecord>(self.head.dirs),
            self.table::<FileRecord>(self.head.files),
            self.table::<LawRecord>(self.head.laws),
            self.table::<Span>(self.head.strings),
            self.table::<U32>(self.head.numbers),
            self.table::<ImplementsRecord>(self.head.implements),
        ) else {
            return false;
        };
        let Some(text) = self.bytes.get(self.head.text.range()) else {
            return false;
        };
        let Ok(text) = std::str::from_utf8(text) else {
            return false;
        };
        let string = |span: Span| span.is_none() || text.get(span.range()).is_some();
        let within = |span: Span, len: usize| span.range().end <= len;
        dirs.iter().all(|d| {
            string(d.name) && within(d.subdirs, numbers.len()) && within(d.files, files.len())
        }) && numbers.iter().all(|n| (n.get() as usize) < dirs.len())
            && files.iter().all(|f| {
                string(f.name) && (f.law.get() == NONE || (f.law.get() as usize) < laws.len())
            })
            && laws.iter().all(|l| {
                !l.id.is_none()
                    && [
                        l.id,
                        l.schema,
                        l.valid_from,
                        l.valid_to,
                        l.name,
                        l.layer,
                        l.bwb_id,
                    ]
                    .into_iter()
                    .all(string)
                    && within(l.outputs, strings.len())
                    && within(l.implements, implements.len())
            })
            && strings.iter().all(|s| string(*s))
            && implements
                .iter()
                .all(|i| string(i.law) && string(i.article) && string(i.open_term))
    }

    fn table<T: FromBytes + KnownLayout + Immutable + Unaligned>(
        &self,
        span: Span,
    ) -> Option<&[T]> {
        let start = span.start.get() as usize;
        let len = (span.len.get() as usize).checked_mul(std::mem::size_of::<T>())?;
        let bytes = self.bytes.get(start..start.checked_add(len)?)?;
        <[T]>::ref_from_bytes(bytes).ok()
    }

    fn dirs(&self) -> &[DirRecord] {
        self.table(self.head.dirs).unwrap_or_default()
    }

    fn files(&self) -> &[FileRecord] {
        self.table(self.head.files).unwrap_or_default()
    }

    fn laws(&self) -> &[LawRecord] {
        self.table(self.head.laws).unwrap_or_default()
    }

    /// A string of the text area ("" for none; the index was checked to hold only valid spans).
    fn text(&self, span: Span) -> &str {
        self.bytes
            .get(self.head.text.range())
            .and_then(|text| text.get(span.range()))
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
            .unwrap_or_default()
    }

    fn optional(&self, span: Span) -> Option<&str> {
        (!span.is_none()).then(|| self.text(span))
    }

    /// The root directory's record (the first), if any.
    pub(crate) fn root(&self) -> Option<u32> {
        (!self.dirs().is_empty()).then_some(0)
    }

    /// Whether directory `dir` may be taken from the index: its entries were believed when it
    /// was written, and `stamp` (taken now) is its recorded one.
    pub(crate) fn unchanged(&self, dir: u32, stamp: &Stamp) -> bool {
        self.dirs()
            .get(dir as usize)
            .is_some_and(|d| d.listed == 1 && stamp.matches(&d.stamp))
    }

    /// Whether directory `dir`, read again, holds what the index says: the same stamp, as
    /// believed or not, with as many subdirectories and law files taken.
    pub(crate) fn same_dir(
        &self,
        dir: u32,
        stamp: &Stamp,
        listed: bool,
        subdirs: usize,
        files: usize,
    ) -> bool {
        self.dirs().get(dir as usize).is_some_and(|d| {
            d.stamp == stamp.record
                && (d.listed == 1) == listed
                && d.subdirs.len.get() as usize == subdirs
                && d.files.len.get() as usize == files
        })
    }

    fn numbers(&self) -> &[U32] {
        self.table(self.head.numbers).unwrap_or_default()
    }

    /// The subdirectories of `dir` in name order: name and record.
    pub(crate) fn subdirs(&self, dir: u32) -> impl Iterator<Item = (&[u8], u32)> {
        let span = self
            .dirs()
            .get(dir as usize)
            .map_or(Span::default(), |d| d.subdirs);
        self.numbers()
            .get(span.range())
            .unwrap_or_default()
            .iter()
            .map(|n| (self.dir_name(n.get()), n.get()))
    }

    /// The law files of `dir` in name order: name and record.
    pub(crate) fn files_of(&self, dir: u32) -> impl Iterator<Item = (&[u8], u32)> {
        let span = self
            .dirs()
            .get(dir as usize)
            .map_or(Span::default(), |d| d.files);
        let files = self.files();
        span.range()
            .filter_map(move |f| Some((self.name(files.get(f)?.name), f as u32)))
    }

    fn dir_name(&self, dir: u32) -> &[u8] {
        self.dirs()
            .get(dir as usize)
            .map_or(&[][..], |d| self.name(d.name))
    }

    fn name(&self, span: Span) -> &[u8] {
        self.bytes
            .get(self.head.text.range())
            .and_then(|text| text.get(span.range()))
            .unwrap_or_default()
    }

    /// The subdirectory of `dir` named `name`, if the index has it.
    pub(crate) fn subdir(&self, dir: u32, name: &[u8]) -> Option<u32> {
        let d = self.dirs().get(dir as usize)?;
        let subdirs = self.numbers().get(d.subdirs.range())?;
        let at = subdirs
            .binary_search_by(|n| self.dir_name(n.get()).cmp(name))
            .ok()?;
        Some(subdirs[at].get())
    }

    /// The record of the law file of `dir` named `name`, if the index has it.
    pub(crate) fn file_named(&self, dir: u32, name: &[u8]) -> Option<u32> {
        let d = self.dirs().get(dir as usize)?;
        let range = d.files.range();
        let files = self.files().get(range.clone())?;
        let at = files
            .binary_search_by(|f| self.name(f.name).cmp(name))
            .ok()?;
        Some((range.start + at) as u32)
    }

    /// File record `file`, when `stamp` (taken now) is its recorded one.
    pub(crate) fn file_at(&self, file: u32, stamp: &Stamp) -> Option<IndexedFile> {
        let f = self.files().get(file as usize)?;
        (f.settled == 1 && stamp.matches(&f.stamp)).then_some(IndexedFile {
            law: (f.law.get() != NONE).then(|| f.law.get()),
        })
    }

    /// The `$id` of law record `law`.
    pub(crate) fn id(&self, law: u32) -> &str {
        self.laws()
            .get(law as usize)
            .map_or("", |l| self.text(l.id))
    }

    /// `valid_from` of law record `law`, as written.
    pub(crate) fn valid_from(&self, law: u32) -> Option<&str> {
        self.laws()
            .get(law as usize)
            .and_then(|l| self.optional(l.valid_from))
    }

    /// `valid_to` of law record `law`, as written.
    pub(crate) fn valid_to(&self, law: u32) -> Option<&str> {
        self.laws()
            .get(law as usize)
            .and_then(|l| self.optional(l.valid_to))
    }

    /// What the scan of law record `law` found for a listing, borrowed from the index: name,
    /// layer, BWB id and outputs; `None` when the scan was not sure (the law is then parsed).
    pub(crate) fn summary(&self, law: u32) -> Option<SummaryRef<'_>> {
        let l = self.laws().get(law as usize)?;
        if l.summary != 1 {
            return None;
        }
        let strings: &[Span] = self.table(self.head.strings).unwrap_or_default();
        Some(SummaryRef {
            name: self.optional(l.name),
            layer: self.optional(l.layer),
            bwb_id: self.optional(l.bwb_id),
            outputs: strings
                .get(l.outputs.range())
                .unwrap_or_default()
                .iter()
                .map(|s| self.text(*s))
                .collect(),
        })
    }

    /// What law record `law` declares, and whether its `$schema` is one this engine does not read.
    pub(crate) fn declares(&self, law: u32) -> (Declares, bool) {
        let flags = self.laws().get(law as usize).map_or(0, |l| l.flags);
        (Declares::from_bits(flags), flags & REFUSED != 0)
    }

    /// Whether law record `law` may implement `term` of article `article` of `law_id`: false only
    /// when it declares no `implements`, or its scan read every entry and none is that one.
    pub(crate) fn may_implement(&self, law: u32, law_id: &str, article: &str, term: &str) -> bool {
        let Some(l) = self.laws().get(law as usize) else {
            return true;
        };
        if !Declares::from_bits(l.flags).implements {
            return false;
        }
        if l.implements_known != 1 {
            return true;
        }
        let entries: &[ImplementsRecord] = self.table(self.head.implements).unwrap_or_default();
        entries
            .get(l.implements.range())
            .unwrap_or_default()
            .iter()
            .any(|i| {
                self.text(i.law) == law_id
                    && self.text(i.article) == article
                    && self.text(i.open_term) == term
            })
    }

    /// Everything the scan of law record `law` found, as the loader keeps it.
    pub(crate) fn law(&self, law: u32) -> Option<IndexedLaw> {
        let l = self.laws().get(law as usize)?;
        let owned = |span: Span| self.optional(span).map(str::to_string);
        let line = |n: U32| (n.get() != NONE).then(|| n.get() as usize);
        let strings: &[Span] = self.table(self.head.strings).unwrap_or_default();
        let entries: &[ImplementsRecord] = self.table(self.head.implements).unwrap_or_default();
        Some(IndexedLaw {
            header: Header {
                id: owned(l.id),
                schema: owned(l.schema),
                schema_line: line(l.schema_line),
                valid_from: owned(l.valid_from),
                valid_to: owned(l.valid_to),
                valid_to_line: line(l.valid_to_line),
            },
            declares: Declares::from_bits(l.flags),
            summary: (l.summary == 1).then(|| Summary {
                name: owned(l.name),
                layer: owned(l.layer),
                bwb_id: owned(l.bwb_id),
                outputs: strings
                    .get(l.outputs.range())
                    .unwrap_or_default()
                    .iter()
                    .map(|s| self.text(*s).to_string())
                    .collect(),
            }),
            implements: (l.implements_known == 1).then(|| {
                entries
                    .get(l.implements.range())
                    .unwrap_or_default()
                    .iter()
                    .map(|i| Implements {
                        law: self.text(i.law).to_string(),
                        article: self.text(i.article).to_string(),
                        open_term: self.text(i.open_term).to_string(),
                    })
                    .collect()
            }),
        })
    }
}

/// Bit 4 of a law record's flags: its `$schema` names a version this engine does not read.
const REFUSED: u8 = 1 << 4;

/// What the scan of one law file found, owned.
#[derive(Clone, Debug)]
pub(crate) struct IndexedLaw {
    pub(crate) header: Header,
    pub(crate) declares: Declares,
    pub(crate) summary: Option<Summary>,
    pub(crate) implements: Option<Vec<Implements>>,
}

/// A directory as the walk took it, for writing the index: its name, its stamp, whether its
/// entries may be believed next time, and its subdirectories and law files (in name order).
pub(crate) struct WalkedDir<'w> {
    pub(crate) name: &'w [u8],
    pub(crate) stamp: Stamp,
    pub(crate) listed: bool,
    pub(crate) subdirs: Vec<u32>,
    pub(crate) files: Vec<WrittenFile<'w>>,
}

/// A law file as the walk took it, for writing the index.
pub(crate) struct WrittenFile<'w> {
    pub(crate) name: &'w [u8],
    pub(crate) stamp: Stamp,
    pub(crate) law: Option<&'w IndexedLaw>,
    pub(crate) refused: bool,
}

/// Writes an index: the directories in walk order (the root first), each with its files.
#[derive(Default)]
pub(crate) struct IndexWriter {
    dirs: Vec<DirRecord>,
    files: Vec<FileRecord>,
    laws: Vec<LawRecord>,
    strings: Vec<Span>,
    numbers: Vec<U32>,
    implements: Vec<ImplementsRecord>,
    text: Vec<u8>,
    /// Each string written, so that it is stored once.
    interned: HashMap<Vec<u8>, Span>,
}

impl IndexWriter {
    /// The index of `dirs` (the root first; subdirectories named by their position).
    pub(crate) fn write(dirs: &[WalkedDir<'_>]) -> Vec<u8> {
        let mut writer = IndexWriter::default();
        for dir in dirs {
            let name = writer.intern(dir.name);
            let subdirs = Span::new(writer.numbers.len(), dir.subdirs.len());
            writer
                .numbers
                .extend(dir.subdirs.iter().map(|&n| U32::new(n)));
            let files = Span::new(writer.files.len(), dir.files.len());
            for file in &dir.files {
                let name = writer.intern(file.name);
                let law = match file.law {
                    Some(law) => {
                        let record = writer.law(law, file.refused);
                        writer.laws.push(record);
                        U32::new((writer.laws.len() - 1) as u32)
                    }
                    None => U32::new(NONE),
                };
                writer.files.push(FileRecord {
                    name,
                    stamp: file.stamp.record,
                    settled: u8::from(file.stamp.settled),
                    law,
                });
            }
            writer.dirs.push(DirRecord {
                name,
                stamp: dir.stamp.record,
                subdirs,
                files,
                listed: u8::from(dir.listed),
            });
        }
        writer.finish()
    }

    fn intern(&mut self, bytes: &[u8]) -> Span {
        if let Some(span) = self.interned.get(bytes) {
            return *span;
        }
        let span = Span::new(self.text.len(), bytes.len());
        self.text.extend_from_slice(bytes);
        self.interned.insert(bytes.to_vec(), span);
        span
    }

    fn optional(&mut self, text: Option<&str>) -> Span {
        text.map_or(Span::NONE, |t| self.intern(t.as_bytes()))
    }

    fn law(&mut self, law: &IndexedLaw, refused: bool) -> LawRecord {
        let header = &law.header;
        let line = |n: Option<usize>| U32::new(n.map_or(NONE, |n| n as u32));
        let summary = law.summary.as_ref();
        let outputs: Vec<Span> = summary
            .map(|s| {
                s.outputs
                    .iter()
                    .map(|o| self.intern(o.as_bytes()))
                    .collect()
            })
            .unwrap_or_default();
        let outputs_span = Span::new(self.strings.len(), outputs.len());
        self.strings.extend(outputs);
        let implements: Vec<ImplementsRecord> = law
            .implements
            .iter()
            .flatten()
            .map(|i| ImplementsRecord {
                law: self.intern(i.law.as_bytes()),
                article: self.intern(i.article.as_bytes()),
                open_term: self.intern(i.open_term.as_bytes()),
            })
            .collect();
        let implements_span = Span::new(self.implements.len(), implements.len());
        self.implements.extend(implements);
        LawRecord {
            id: self.optional(header.id.as_deref()),
            schema: self.optional(header.schema.as_deref()),
            schema_line: line(header.schema_line),
            valid_from: self.optional(header.valid_from.as_deref()),
            valid_to: self.optional(header.valid_to.as_deref()),
            valid_to_line: line(header.valid_to_line),
            flags: law.declares.bits() | if refused { REFUSED } else { 0 },
            summary: u8::from(summary.is_some()),
            name: self.optional(summary.and_then(|s| s.name.as_deref())),
            layer: self.optional(summary.and_then(|s| s.layer.as_deref())),
            bwb_id: self.optional(summary.and_then(|s| s.bwb_id.as_deref())),
            outputs: outputs_span,
            implements_known: u8::from(law.implements.is_some()),
            implements: implements_span,
        }
    }

    fn finish(self) -> Vec<u8> {
        let mut bytes = vec![0u8; std::mem::size_of::<Head>()];
        let table = |bytes: &mut Vec<u8>, records: &[u8], count: usize| {
            let span = Span::new(bytes.len(), count);
            bytes.extend_from_slice(records);
            span
        };
        let dirs = table(&mut bytes, self.dirs.as_bytes(), self.dirs.len());
        let files = table(&mut bytes, self.files.as_bytes(), self.files.len());
        let laws = table(&mut bytes, self.laws.as_bytes(), self.laws.len());
        let strings = table(&mut bytes, self.strings.as_bytes(), self.strings.len());
        let numbers = table(&mut bytes, self.numbers.as_bytes(), self.numbers.len());
        let implements = table(
            &mut bytes,
            self.implements.as_bytes(),
            self.implements.len(),
        );
        let text = table(&mut bytes, &self.text, self.text.len());
        let head = Head {
            magic: MAGIC,
            dirs,
            files,
            laws,
            strings,
            numbers,
            implements,
            text,
        };
        bytes[..std::mem::size_of::<Head>()].copy_from_slice(head.as_bytes());
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustix::fs::CWD;

    #[test]
    fn a_stamp_just_taken_is_not_settled_and_one_older_than_the_bound_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.yaml");
        std::fs::write(&path, "x").unwrap();
        let at = |path: &std::path::Path| {
            Stamp::at(CWD, path.as_os_str().as_encoded_bytes(), Stamp::now())
        };
        let (fresh, kind) = at(&path).unwrap();
        assert!(!fresh.settled);
        assert_eq!(kind, FileType::RegularFile);
        std::thread::sleep(SETTLED + Duration::from_millis(100));
        let (settled, _) = at(&path).unwrap();
        assert!(settled.settled);
        assert_eq!(settled.record, fresh.record);
    }

    #[test]
    fn an_index_is_read_as_it_was_written_and_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.yaml"), "x").unwrap();
        let path = dir.path().join("a.yaml");
        let (stamp, _) = Stamp::at(CWD, path.as_os_str().as_encoded_bytes(), Stamp::now()).unwrap();
        let settled = Stamp {
            settled: true,
            ..stamp
        };
        let law = IndexedLaw {
            header: Header {
                id: Some("wet_a".into()),
                valid_from: Some("2025-01-01".into()),
                ..Header::default()
            },
            declares: Declares::from_bits(1),
            summary: Some(Summary {
                name: Some("Wet A".into()),
                layer: Some("WET".into()),
                bwb_id: None,
                outputs: vec!["een".into(), "twee".into()],
            }),
            implements: Some(vec![Implements {
                law: "wet_b".into(),
                article: "1".into(),
                open_term: "term".into(),
            }]),
        };
        let bytes = IndexWriter::write(&[
            WalkedDir {
                name: b"",
                stamp: settled,
                listed: true,
                subdirs: vec![1],
                files: vec![],
            },
            WalkedDir {
                name: b"wet",
                stamp: settled,
                listed: true,
                subdirs: vec![],
                files: vec![WrittenFile {
                    name: b"a.yaml",
                    stamp: settled,
                    law: Some(&law),
                    refused: false,
                }],
            },
        ]);
        let view = IndexView::open(bytes.clone()).expect("well formed");
        assert_eq!(view.subdir(0, b"wet"), Some(1));
        assert_eq!(view.subdir(0, b"wat"), None);
        let record = view.file_named(1, b"a.yaml").expect("the file");
        let found = view.file_at(record, &settled).expect("its stamp");
        let record = found.law.expect("a law");
        assert_eq!(view.id(record), "wet_a");
        assert_eq!(view.valid_from(record), Some("2025-01-01"));
        assert!(view.may_implement(record, "wet_b", "1", "term"));
        assert!(!view.may_implement(record, "wet_b", "2", "term"));
        let read = view.law(record).unwrap();
        assert_eq!(read.summary, law.summary);
        assert_eq!(read.header, law.header);
        // Another stamp, or one not settled, is not the file's.
        assert!(view.file_at(record, &stamp).is_none());
        // A span beyond the text, or a cut index, is no index.
        let mut cut = bytes.clone();
        cut.truncate(bytes.len() - 3);
        assert!(IndexView::open(cut).is_none());
        let mut wrong = bytes;
        wrong[0] = b'X';
        assert!(IndexView::open(wrong).is_none());
    }
}
