//! The cache's files (rule CACHE-2): one entry per request, written to a temporary file and
//! renamed into place, verified against its digest on every read, evicted least recently used
//! first; nothing else in the directory is ever touched. The directory and every entry are
//! used only when they belong to the user and nobody else can write them ([`crate::process::trust`],
//! CACHE-6).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::Settings;
use crate::data::digest::sha256_hex;

/// Names an eviction scan looks at, at most.
pub(crate) const SCAN_LIMIT: usize = 4096;
/// A temporary file older than this was left by a process that died; the next scan removes it.
const STALE_TEMP: Duration = Duration::from_secs(3600);
/// The first line of every entry.
const MAGIC: &str = "overheid-cli cache 1";
/// The header never exceeds this.
const HEADER_MAX: usize = 512;
/// Entry files end in this.
const ENTRY_SUFFIX: &str = ".cache";

/// An entry as read back, verified.
#[derive(Debug)]
pub(crate) struct Entry {
    pub status: u16,
    pub body: Vec<u8>,
    /// SHA-256 of `body`, checked against the bytes read.
    pub sha256: String,
}

/// The cache directory, created (mode 0700) when opened.
#[derive(Clone, Debug)]
pub(crate) struct Store {
    dir: PathBuf,
    max_bytes: u64,
    /// Names an eviction scan looks at ([`SCAN_LIMIT`]; smaller in tests).
    scan_limit: usize,
}

impl Store {
    /// Open (create if needed, 0700) the directory of `settings`; one that is not the user's
    /// own, or that others can write, is refused (CACHE-6).
    pub(crate) fn open(settings: &Settings) -> io::Result<Self> {
        create_private_dir(&settings.dir)?;
        crate::process::trust::check_dir(&settings.dir).map_err(io::Error::other)?;
        Ok(Self::existing(settings))
    }

    /// The directory as it is, without creating it (for `cache leeg`).
    pub(crate) fn existing(settings: &Settings) -> Self {
        Self {
            dir: settings.dir.clone(),
            max_bytes: settings.max_bytes,
            scan_limit: SCAN_LIMIT,
        }
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    fn entry_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}{ENTRY_SUFFIX}"))
    }

    /// The entry of `key` if it is whole and its body at most `max_body` bytes; a damaged entry
    /// is deleted. A hit refreshes the entry's mtime, the clock of the LRU eviction. An entry
    /// that is not the user's own or that others can write is not read: `Err` says why, for a
    /// warning, and the caller goes on without the cache (CACHE-6).
    pub(crate) fn get(&self, key: &str, max_body: u64) -> Result<Option<Entry>, String> {
        let path = self.entry_path(key);
        let Some((file, metadata)) = open_regular(&path) else {
            return Ok(None);
        };
        crate::process::trust::check_file(&metadata).map_err(|why| {
            format!(
                "cachebestand {} niet gebruikt: {why}; verder zonder cache",
                path.display()
            )
        })?;
        Ok(read_entry(key, &path, file, &metadata, max_body))
    }

    /// Write the entry of `key` to a temporary file; [`Pending::commit`] puts it in place. `None`
    /// when it is not to be stored: larger than the cap, or holding a secret the tool holds.
    pub(crate) fn put(&self, key: &str, status: u16, body: &[u8]) -> io::Result<Option<Pending>> {
        let header = format!(
            "{MAGIC}\nkey {key}\nstatus {status}\nlength {}\nsha256 {}\n\n",
            body.len(),
            sha256_hex(body)
        );
        let size = (header.len() + body.len()) as u64;
        if size > self.max_bytes || crate::process::secrets::occurs_in(body) {
            return Ok(None);
        }
        let temp = self.dir.join(format!(
            ".{key}.{}-{}.tmp",
            std::process::id(),
            crate::process::trace::random_hex::<4>()
        ));
        let mut file = create_private_file(&temp)?;
        let pending = Pending {
            temp: Some(temp),
            target: self.entry_path(key),
            store: self.clone(),
        };
        file.write_all(header.as_bytes())?;
        file.write_all(body)?;
        Ok(Some(pending))
    }

    /// Remove every entry (and temporary file) of the cache; what was removed. With `remove`
    /// false (a dry run) nothing is removed and the answer says what would be.
    pub(crate) fn clear(&self, remove: bool) -> io::Result<Cleared> {
        let mut cleared = Cleared::default();
        let listing = match fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(cleared),
            Err(e) => return Err(e),
        };
        for item in listing {
            let item = item?;
            let name = item.file_name();
            let Some(kind) = name.to_str().and_then(classify) else {
                continue;
            };
            let meta = item.metadata()?;
            if !meta.is_file() {
                continue;
            }
            if remove {
                match fs::remove_file(item.path()) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(e),
                }
            }
            cleared.bytes += meta.len();
            if kind == Kind::Entry {
                cleared.entries += 1;
            }
        }
        Ok(cleared)
    }

    /// Delete least recently used entries until the total fits the cap, and temporary files that
    /// a dead process left. The scan looks at no more than [`SCAN_LIMIT`] names; when the
    /// directory holds more, the oldest quarter of those seen goes too, so the number of entries
    /// stays bounded and the next scan sees them all.
    pub(crate) fn evict(&self) {
        let Ok(listing) = fs::read_dir(&self.dir) else {
            return;
        };
        let now = SystemTime::now();
        let mut entries = Vec::new();
        let mut total = 0u64;
        let mut listing = listing.flatten();
        for item in listing.by_ref().take(self.scan_limit) {
            let name = item.file_name();
            let Some(kind) = name.to_str().and_then(classify) else {
                continue;
            };
            let Ok(meta) = item.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            match kind {
                Kind::Temp => {
                    if now.duration_since(modified).unwrap_or_default() > STALE_TEMP {
                        let _ = fs::remove_file(item.path());
                    }
                }
                Kind::Entry => {
                    total += meta.len();
                    entries.push((modified, meta.len(), item.path()));
                }
            }
        }
        let crowded = listing.next().is_some();
        if total <= self.max_bytes && !crowded {
            return;
        }
        entries.sort_by_key(|(modified, _, _)| *modified);
        let mut surplus = if crowded {
            entries.len().div_ceil(4)
        } else {
            0
        };
        for (_, len, path) in entries {
            if total <= self.max_bytes && surplus == 0 {
                break;
            }
            if fs::remove_file(&path).is_ok() {
                total -= len;
            }
            surplus = surplus.saturating_sub(1);
        }
    }
}

/// The entry in the open `file` at `path` if it is whole; a damaged one is deleted, a sound one
/// gets a fresh mtime.
fn read_entry(
    key: &str,
    path: &Path,
    mut file: File,
    metadata: &fs::Metadata,
    max_body: u64,
) -> Option<Entry> {
    let limit = max_body.saturating_add(HEADER_MAX as u64);
    let len = metadata.len();
    let entry = if len > limit {
        None
    } else {
        let mut bytes = Vec::with_capacity(len as usize);
        (&mut file)
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .ok()
            .and_then(|_| parse_entry(key, bytes))
            .filter(|entry| entry.body.len() as u64 <= max_body)
    };
    match entry {
        Some(entry) => {
            let _ = file.set_modified(SystemTime::now());
            Some(entry)
        }
        None => {
            let _ = fs::remove_file(path);
            None
        }
    }
}

/// What `cache leeg` removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cleared {
    pub entries: u64,
    pub bytes: u64,
}

/// An entry written but not yet in place; dropped without [`Pending::commit`], it is removed.
#[derive(Debug)]
pub(crate) struct Pending {
    temp: Option<PathBuf>,
    target: PathBuf,
    store: Store,
}

impl Pending {
    /// Put the entry in place (one rename: readers see the old entry or the new one, never part
    /// of one), then evict down to the cap.
    pub(crate) fn commit(mut self) -> io::Result<()> {
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        if let Err(e) = fs::rename(&temp, &self.target) {
            let _ = fs::remove_file(&temp);
            return Err(e);
        }
        self.store.evict();
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let _ = fs::remove_file(temp);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Entry,
    Temp,
}

/// Which of the cache's own files `name` is, if any: `<64 hex>.cache` or `.<64 hex>.<…>.tmp`.
/// Nothing else in the directory is ever touched.
fn classify(name: &str) -> Option<Kind> {
    let hex = |s: &str| s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if let Some(key) = name.strip_suffix(ENTRY_SUFFIX) {
        return hex(key).then_some(Kind::Entry);
    }
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (key, _) = rest.split_once('.')?;
    hex(key).then_some(Kind::Temp)
}

/// The entry in `bytes` if its header names `key` and the body has the stated length and digest.
fn parse_entry(key: &str, mut bytes: Vec<u8>) -> Option<Entry> {
    let window = &bytes[..bytes.len().min(HEADER_MAX)];
    let end = window.windows(2).position(|w| w == b"\n\n")?;
    let header = std::str::from_utf8(&bytes[..end]).ok()?;
    let mut lines = header.lines();
    if lines.next()? != MAGIC {
        return None;
    }
    let mut field = |name: &str| {
        lines
            .next()
            .and_then(|l| l.strip_prefix(name))
            .and_then(|l| l.strip_prefix(' '))
            .map(str::to_string)
    };
    let (stored_key, status, length, sha256) = (
        field("key")?,
        field("status")?,
        field("length")?,
        field("sha256")?,
    );
    let status: u16 = status.parse().ok()?;
    let length: usize = length.parse().ok()?;
    // The header is taken off in place: no second buffer the size of the body (a prepared form
    // can be megabytes: regelrecht-cli's corpus index).
    bytes.drain(..end + 2);
    let body = bytes;
    if stored_key != key || body.len() != length || sha256_hex(&body) != sha256 {
        return None;
    }
    Some(Entry {
        status,
        body,
        sha256,
    })
}

/// Open an existing regular file for reading, never through a symbolic link or onto a FIFO: the
/// file and its metadata.
fn open_regular(path: &Path) -> Option<(File, fs::Metadata)> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).ok()?;
    let metadata = file.metadata().ok()?;
    metadata.is_file().then_some((file, metadata))
}

fn create_private_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

fn create_private_dir(path: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(dir: &Path, max_bytes: u64) -> Store {
        Store::open(&Settings {
            dir: dir.to_path_buf(),
            max_bytes,
        })
        .unwrap()
    }

    fn put(store: &Store, key: &str, body: &[u8]) {
        store
            .put(key, 200, body)
            .unwrap()
            .unwrap()
            .commit()
            .unwrap();
    }

    fn k(n: u8) -> String {
        sha256_hex(&[n])
    }
    #[test]
    fn an_entry_comes_back_whole_with_its_digest() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path(), 1 << 20);
        assert!(s.get(&k(1), 1 << 20).unwrap().is_none());
        put(&s, &k(1), b"<toestand/>");
        let entry = s.get(&k(1), 1 << 20).unwrap().expect("hit");
        assert_eq!(entry.body, b"<toestand/>");
        assert_eq!(entry.status, 200);
        assert_eq!(entry.sha256, sha256_hex(b"<toestand/>"));
        // A body above the response cap is not served (and was not stored for it).
        assert!(s.get(&k(1), 4).unwrap().is_none());
    }

    #[cfg(unix)]
    #[test]
    fn the_directory_is_private_and_so_are_the_files() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("a/overheid-cli");
        let s = store(&nested, 1 << 20);
        put(&s, &k(1), b"x");
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&nested), 0o700);
        assert_eq!(mode(&s.entry_path(&k(1))), 0o600);
    }

    #[test]
    fn a_damaged_entry_is_a_miss_and_is_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path(), 1 << 20);
        for damage in [
            |b: &mut Vec<u8>| b.truncate(b.len() - 3),
            |b: &mut Vec<u8>| *b.last_mut().unwrap() ^= 1,
            |b: &mut Vec<u8>| b.extend_from_slice(b"extra"),
            |b: &mut Vec<u8>| b.clear(),
        ] {
            put(&s, &k(1), b"<toestand>artikel</toestand>");
            let path = s.entry_path(&k(1));
            let mut bytes = fs::read(&path).unwrap();
            damage(&mut bytes);
            fs::write(&path, bytes).unwrap();
            assert!(s.get(&k(1), 1 << 20).unwrap().is_none());
            assert!(!path.exists(), "a damaged entry is removed");
        }
        // An entry moved to another key's name does not answer for that key.
        put(&s, &k(1), b"een");
        fs::rename(s.entry_path(&k(1)), s.entry_path(&k(2))).unwrap();
        assert!(s.get(&k(2), 1 << 20).unwrap().is_none());
    }

    #[test]
    fn concurrent_writers_never_show_a_reader_half_an_entry() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path(), 1 << 24);
        let bodies = [vec![b'a'; 64 * 1024], vec![b'b'; 80 * 1024]];
        put(&s, &k(1), &bodies[0]);
        std::thread::scope(|scope| {
            for body in &bodies {
                let s = &s;
                scope.spawn(move || {
                    for _ in 0..20 {
                        put(s, &k(1), body);
                    }
                });
            }
            for _ in 0..2 {
                let (s, bodies) = (&s, &bodies);
                scope.spawn(move || {
                    for _ in 0..40 {
                        let entry = s
                            .get(&k(1), 1 << 24)
                            .unwrap()
                            .expect("always a whole entry");
                        assert!(bodies.contains(&entry.body));
                    }
                });
            }
        });
    }

    #[test]
    fn an_uncommitted_entry_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path(), 1 << 20);
        drop(s.put(&k(1), 200, b"body").unwrap());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        assert!(s.get(&k(1), 1 << 20).unwrap().is_none());
    }

    #[test]
    fn eviction_removes_the_least_recently_used_first() {
        let dir = tempfile::tempdir().unwrap();
        let body = vec![b'x'; 1000];
        // Room for two entries of ~1.1 KB, not three.
        let s = store(dir.path(), 2500);
        put(&s, &k(1), &body);
        put(&s, &k(2), &body);
        let old = SystemTime::now() - Duration::from_secs(60);
        for (n, age) in [(1, 30), (2, 60)] {
            File::options()
                .write(true)
                .open(s.entry_path(&k(n)))
                .unwrap()
                .set_modified(old + Duration::from_secs(60 - age))
                .unwrap();
        }
        // A hit makes entry 2 the most recently used.
        assert!(s.get(&k(2), 1 << 20).unwrap().is_some());
        put(&s, &k(3), &body);
        assert!(s.entry_path(&k(2)).exists(), "recently read");
        assert!(s.entry_path(&k(3)).exists(), "just written");
        assert!(!s.entry_path(&k(1)).exists(), "least recently used");
    }

    #[test]
    fn a_crowded_directory_is_thinned_out_to_what_a_scan_sees() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store {
            scan_limit: 8,
            ..store(dir.path(), 1 << 20)
        };
        for n in 0..40 {
            put(&s, &k(n), b"klein");
            let count = entries_in(dir.path());
            assert!(count <= 9, "{count} entries after {n} writes");
        }
        assert!(s.entry_path(&k(39)).exists(), "the newest stays");
    }

    fn entries_in(dir: &Path) -> usize {
        fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                classify(name.to_str().unwrap()) == Some(Kind::Entry)
            })
            .count()
    }

    #[test]
    fn an_entry_larger_than_the_cap_or_holding_a_secret_is_not_stored() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path(), 100);
        assert!(s.put(&k(1), 200, &[b'x'; 200]).unwrap().is_none());
        crate::process::secrets::hold("cache-kanarie-91c2");
        let s = store(dir.path(), 1 << 20);
        assert!(
            s.put(&k(2), 200, b"<fout>sleutel cache-kanarie-91c2</fout>")
                .unwrap()
                .is_none()
        );
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn the_key_holds_a_secret_only_as_a_digest() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path(), 1 << 20);
        use crate::net::http::Request;
        let request = Request::get("https://bron.example/x?apikey=geheim-sleutel-5")
            .secret_header("Authorization", "Bearer geheim-token-6");
        let key = crate::net::cache::key(&request);
        assert_ne!(
            key,
            crate::net::cache::key(&Request::get(
                "https://bron.example/x?apikey=geheim-sleutel-5"
            ))
        );
        put(&s, &key, b"<openbaar/>");
        for item in fs::read_dir(dir.path()).unwrap() {
            let item = item.unwrap();
            let text = String::from_utf8_lossy(&fs::read(item.path()).unwrap()).into_owned()
                + &item.file_name().to_string_lossy();
            assert!(!text.contains("geheim"), "{text}");
        }
    }

    #[test]
    fn clearing_removes_only_the_caches_own_files() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path(), 1 << 20);
        put(&s, &k(1), b"een");
        put(&s, &k(2), b"twee");
        fs::write(dir.path().join("notities.txt"), "van de gebruiker").unwrap();
        fs::write(dir.path().join(format!("{}.cache.bak", k(3))), "x").unwrap();
        assert_eq!(s.clear(false).unwrap().entries, 2);
        assert_eq!(
            s.clear(false).unwrap().entries,
            2,
            "a dry run removes nothing"
        );
        let cleared = s.clear(true).unwrap();
        assert_eq!(cleared.entries, 2);
        assert!(cleared.bytes > 7);
        assert!(dir.path().join("notities.txt").exists());
        assert_eq!(s.clear(true).unwrap(), Cleared::default());
        let gone = Store::existing(&Settings {
            dir: dir.path().join("nooit"),
            max_bytes: 1,
        });
        assert_eq!(gone.clear(true).unwrap(), Cleared::default());
    }

    #[test]
    fn names_outside_the_pattern_are_not_the_caches() {
        let key = k(1);
        assert_eq!(classify(&format!("{key}.cache")), Some(Kind::Entry));
        assert_eq!(classify(&format!(".{key}.12-ab.tmp")), Some(Kind::Temp));
        assert_eq!(classify("audit.jsonl"), None);
        assert_eq!(classify(&format!("{}.cache", &key[..63])), None);
        assert_eq!(classify(&format!("{}.cache", key.to_uppercase())), None);
    }
}
