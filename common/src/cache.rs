//! The response cache (rules CACHE-1 … CACHE-4): upstream answers that never change at their URL
//! (a BWB toestand XML), kept on disk so a later call reads them instead of the network.
//!
//! - Where: `OVERHEID_CACHE_DIR`, else `$XDG_CACHE_HOME/overheid-cli`, else
//!   `$HOME/.cache/overheid-cli` ([`Settings::from_env`]); directories `0700`, files `0600`.
//! - What: one file per request, named by the SHA-256 of its method, URL and the headers the
//!   command set ([`key`]); a secret (in the URL or a header) is only ever part of that digest,
//!   never of a name or of what the file says about itself. A body that contains a held secret is
//!   not stored at all.
//! - How: a header with the key, the status, the length and the SHA-256 of the body, then the body.
//!   Written to a temporary file and renamed into place ([`Pending::commit`], only once the command
//!   succeeded), so no process ever reads half an entry; an entry that does not match its digest or
//!   length is deleted and counts as a miss.
//! - How much: at most `OVERHEID_CACHE_MAX_BYTES` (default 256 MiB; `0` turns the cache off). After a
//!   write the least recently used entries (a hit refreshes the mtime) are deleted until the total
//!   fits; the scan looks at no more than [`SCAN_LIMIT`] names.
//!
//! Nothing here runs unless a command fetches something cacheable: the directory is neither
//! created nor read before the first [`Context::send_cached`](crate::Context::send_cached).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::digest::sha256_hex;
use crate::env::{Env, EnvKind, EnvVar};
use crate::error::Problem;
use crate::http::Request;

/// Variable with the cache directory (entries directly in it).
pub const CACHE_DIR: &str = "OVERHEID_CACHE_DIR";
/// Variable with the cap on the cache's total size in bytes; `0` turns the cache off.
pub const CACHE_MAX_BYTES: &str = "OVERHEID_CACHE_MAX_BYTES";
/// The XDG base directory for caches.
pub const XDG_CACHE_HOME: &str = "XDG_CACHE_HOME";
/// The default cap: 256 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 256 * 1024 * 1024;
/// The subdirectory of the XDG (or `~/.cache`) base.
const FAMILY_DIR: &str = "overheid-cli";
/// Names an eviction scan looks at, at most.
pub const SCAN_LIMIT: usize = 4096;
/// A temporary file older than this was left by a process that died; the next scan removes it.
const STALE_TEMP: Duration = Duration::from_secs(3600);
/// The first line of every entry.
const MAGIC: &str = "overheid-cli cache 1";
/// The header never exceeds this.
const HEADER_MAX: usize = 512;
/// Entry files end in this.
const ENTRY_SUFFIX: &str = ".cache";

/// The variables the cache reads, declared by every tool with a cached command.
pub const ENV: [EnvVar; 3] = [
    EnvVar::new(
        CACHE_DIR,
        EnvKind::Path,
        "map van de antwoordcache (toestand-XML die nooit verandert); standaard $XDG_CACHE_HOME/overheid-cli of ~/.cache/overheid-cli",
    ),
    EnvVar::new(
        CACHE_MAX_BYTES,
        EnvKind::Setting,
        "maximale totale grootte van de antwoordcache in bytes; 0 zet de cache uit",
    )
    .with_default("268435456"),
    EnvVar::new(
        XDG_CACHE_HOME,
        EnvKind::Path,
        "basismap voor de antwoordcache ($XDG_CACHE_HOME/overheid-cli)",
    ),
];

/// Where an answer came from, as provenance (`cache`) and the audit record (`overheid.cache`) say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Read from the cache; nothing was sent for it.
    Hit,
    /// Fetched from the source with the cache on (and stored if it could be).
    Miss,
    /// Fetched with the cache off: `--geen-cache`, a cap of 0, or a cache that cannot be used.
    Off,
}

impl Use {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hit => "hit",
            Self::Miss => "miss",
            Self::Off => "uit",
        }
    }
}

/// The configured cache: its directory and cap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub dir: PathBuf,
    pub max_bytes: u64,
}

impl Settings {
    /// The configured cache, `None` when it is off (`OVERHEID_CACHE_MAX_BYTES=0`) or has no place
    /// (no absolute `OVERHEID_CACHE_DIR`, `XDG_CACHE_HOME` or `HOME`). An unusable value is exit 78
    /// (CONF-7): a cap that is not a whole number, a relative `OVERHEID_CACHE_DIR`. A relative
    /// `XDG_CACHE_HOME` is ignored, as the XDG specification says.
    pub fn from_env(env: &Env) -> Result<Option<Self>, Problem> {
        let max_bytes = match env.value(CACHE_MAX_BYTES)? {
            Some(v) => v.trim().parse::<u64>().map_err(|_| {
                Problem::config(format!(
                    "{CACHE_MAX_BYTES} is geen geheel aantal bytes: {v:?}"
                ))
                .with_hint(format!(
                    "bv. {CACHE_MAX_BYTES}=268435456, of 0 voor geen cache"
                ))
            })?,
            None => DEFAULT_MAX_BYTES,
        };
        let dir = match env.value(CACHE_DIR)? {
            Some(dir) if Path::new(dir).is_absolute() => Some(PathBuf::from(dir)),
            Some(dir) => {
                return Err(Problem::config(format!(
                    "{CACHE_DIR} moet een absoluut pad zijn, niet {dir:?}"
                )));
            }
            None => {
                let xdg = env
                    .value(XDG_CACHE_HOME)?
                    .filter(|d| Path::new(d).is_absolute());
                match xdg {
                    Some(base) => Some(Path::new(base).join(FAMILY_DIR)),
                    None => env
                        .value("HOME")?
                        .filter(|h| Path::new(h).is_absolute())
                        .map(|home| Path::new(home).join(".cache").join(FAMILY_DIR)),
                }
            }
        };
        Ok(dir
            .filter(|_| max_bytes > 0)
            .map(|dir| Settings { dir, max_bytes }))
    }
}

/// The key of `request`: SHA-256 of its method, URL and the headers the command set, so two
/// requests share an entry only when they are the same request. A secret in the URL or a header
/// enters only this digest.
pub fn key(request: &Request) -> String {
    let mut material = format!("{} {}\n", request.method, request.url);
    for header in &request.headers {
        material.push_str(&format!(
            "{}: {}\n",
            header.name.to_ascii_lowercase(),
            header.value
        ));
    }
    sha256_hex(material.as_bytes())
}

/// An entry as read back, verified.
#[derive(Debug)]
pub struct Entry {
    pub status: u16,
    pub body: Vec<u8>,
    /// SHA-256 of `body`, checked against the bytes read.
    pub sha256: String,
}

/// The cache directory, created (mode 0700) when opened.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
    max_bytes: u64,
    /// Names an eviction scan looks at ([`SCAN_LIMIT`]; smaller in tests).
    scan_limit: usize,
}

impl Store {
    /// Open (create if needed) the directory of `settings`.
    pub fn open(settings: &Settings) -> io::Result<Self> {
        create_private_dir(&settings.dir)?;
        if !fs::metadata(&settings.dir)?.is_dir() {
            return Err(io::Error::other("geen map"));
        }
        Ok(Self::existing(settings))
    }

    /// The directory as it is, without creating it (for `cache leeg`).
    pub fn existing(settings: &Settings) -> Self {
        Self {
            dir: settings.dir.clone(),
            max_bytes: settings.max_bytes,
            scan_limit: SCAN_LIMIT,
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn entry_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}{ENTRY_SUFFIX}"))
    }

    /// The entry of `key` if it is whole and its body at most `max_body` bytes; a damaged entry
    /// is deleted. A hit refreshes the entry's mtime, the clock of the LRU eviction.
    pub fn get(&self, key: &str, max_body: u64) -> Option<Entry> {
        let path = self.entry_path(key);
        let mut file = open_regular(&path)?;
        let limit = max_body.saturating_add(HEADER_MAX as u64);
        let len = file.metadata().ok()?.len();
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
                let _ = fs::remove_file(&path);
                None
            }
        }
    }

    /// Write the entry of `key` to a temporary file; [`Pending::commit`] puts it in place. `None`
    /// when it is not to be stored: larger than the cap, or holding a secret the tool holds.
    pub fn put(&self, key: &str, status: u16, body: &[u8]) -> io::Result<Option<Pending>> {
        let header = format!(
            "{MAGIC}\nkey {key}\nstatus {status}\nlength {}\nsha256 {}\n\n",
            body.len(),
            sha256_hex(body)
        );
        let size = (header.len() + body.len()) as u64;
        if size > self.max_bytes || crate::secrets::occurs_in(body) {
            return Ok(None);
        }
        let temp = self.dir.join(format!(
            ".{key}.{}-{}.tmp",
            std::process::id(),
            crate::trace::random_hex::<4>()
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
    pub fn clear(&self, remove: bool) -> io::Result<Cleared> {
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
    pub fn evict(&self) {
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

/// What `cache leeg` removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cleared {
    pub entries: u64,
    pub bytes: u64,
}

/// An entry written but not yet in place; dropped without [`Pending::commit`], it is removed.
#[derive(Debug)]
pub struct Pending {
    temp: Option<PathBuf>,
    target: PathBuf,
    store: Store,
}

impl Pending {
    /// Put the entry in place (one rename: readers see the old entry or the new one, never part
    /// of one), then evict down to the cap.
    pub fn commit(mut self) -> io::Result<()> {
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
    let body = bytes.split_off(end + 2);
    if stored_key != key || body.len() != length || sha256_hex(&body) != sha256 {
        return None;
    }
    Some(Entry {
        status,
        body,
        sha256,
    })
}

/// Open an existing regular file for reading, never through a symbolic link or onto a FIFO.
fn open_regular(path: &Path) -> Option<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).ok()?;
    file.metadata().ok()?.is_file().then_some(file)
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

/// What one invocation did with the cache: the store (opened at the first cacheable request),
/// how the last cacheable answer was obtained, and the entries waiting for the command's success.
#[derive(Debug, Default)]
pub struct Session {
    /// `None`: not yet opened; `Some(None)`: off or unusable for this invocation.
    store: Option<Option<Store>>,
    pub used: Option<Use>,
    pending: Vec<Pending>,
}

impl Session {
    /// The store, opened on first use; `Err` (once) says why it cannot be used, for a warning.
    pub fn store(&mut self, env: &Env) -> Result<Option<Store>, String> {
        if let Some(store) = &self.store {
            return Ok(store.clone());
        }
        let opened = match Settings::from_env(env) {
            Ok(Some(settings)) => Store::open(&settings).map(Some).map_err(|e| {
                format!(
                    "de antwoordcache in {} is niet te gebruiken ({e}); verder zonder cache",
                    settings.dir.display()
                )
            }),
            Ok(None) | Err(_) => Ok(None),
        };
        self.store = Some(opened.as_ref().ok().and_then(Option::clone));
        opened
    }

    /// Keep `pending` until the command succeeded.
    pub fn hold(&mut self, pending: Pending) {
        self.pending.push(pending);
    }

    /// Put the held entries in place; the first failure, for a warning.
    pub fn commit(&mut self) -> Result<(), String> {
        let mut result = Ok(());
        for pending in self.pending.drain(..) {
            if let Err(e) = pending.commit()
                && result.is_ok()
            {
                result = Err(format!("antwoord niet in de cache gezet: {e}"));
            }
        }
        result
    }
}

/// `cache leeg` as printed: compact JSON outside a terminal (or with `--output json`), a Dutch
/// line for people on one. With `dry_run` nothing is removed.
pub fn utility(
    env: &Env,
    printer: &crate::output::Printer,
    dry_run: bool,
) -> Result<String, Problem> {
    let result = clear_command(env, dry_run)?;
    Ok(match printer.format {
        crate::output::OutputFormat::Json => printer.render(&result),
        _ => cleared_text(&result),
    })
}

/// `cache leeg`: empty the cache of `env` and say what was removed, as data (with `dry_run`:
/// what would be, and `"dry_run": true`).
pub fn clear_command(env: &Env, dry_run: bool) -> Result<Value, Problem> {
    let Some(settings) = Settings::from_env(env)? else {
        return Ok(json!({"verwijderd": 0, "bytes": 0, "map": null}));
    };
    let store = Store::existing(&settings);
    let cleared = store.clear(!dry_run).map_err(|e| {
        Problem::io(format!(
            "de cache in {} kon niet worden geleegd: {e}",
            settings.dir.display()
        ))
    })?;
    let mut result = json!({
        "verwijderd": cleared.entries,
        "bytes": cleared.bytes,
        "map": settings.dir.display().to_string(),
    });
    if dry_run {
        result["dry_run"] = true.into();
    }
    Ok(result)
}

/// The Dutch line a person sees after `cache leeg` on a terminal.
pub fn cleared_text(result: &Value) -> String {
    let entries = result["verwijderd"].as_u64().unwrap_or(0);
    let bytes = result["bytes"].as_u64().unwrap_or(0);
    match result["map"].as_str() {
        None => "De cache staat uit; er is niets verwijderd.\n".to_string(),
        Some(dir) => format!(
            "{entries} {} {} ({}) uit {dir}\n",
            if entries == 1 { "item" } else { "items" },
            if result["dry_run"] == true {
                "zou worden verwijderd (--dry-run)"
            } else {
                "verwijderd"
            },
            human_bytes(bytes)
        ),
    }
}

/// Bytes for people: `512 B`, `3,4 KiB`, `1,2 MiB`.
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit]).replace('.', ",")
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
        assert!(s.get(&k(1), 1 << 20).is_none());
        put(&s, &k(1), b"<toestand/>");
        let entry = s.get(&k(1), 1 << 20).expect("hit");
        assert_eq!(entry.body, b"<toestand/>");
        assert_eq!(entry.status, 200);
        assert_eq!(entry.sha256, sha256_hex(b"<toestand/>"));
        // A body above the response cap is not served (and was not stored for it).
        assert!(s.get(&k(1), 4).is_none());
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
            assert!(s.get(&k(1), 1 << 20).is_none());
            assert!(!path.exists(), "a damaged entry is removed");
        }
        // An entry moved to another key's name does not answer for that key.
        put(&s, &k(1), b"een");
        fs::rename(s.entry_path(&k(1)), s.entry_path(&k(2))).unwrap();
        assert!(s.get(&k(2), 1 << 20).is_none());
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
                        let entry = s.get(&k(1), 1 << 24).expect("always a whole entry");
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
        assert!(s.get(&k(1), 1 << 20).is_none());
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
        assert!(s.get(&k(2), 1 << 20).is_some());
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
        crate::secrets::hold("cache-kanarie-91c2");
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
        let request = Request::get("https://bron.example/x?apikey=geheim-sleutel-5")
            .secret_header("Authorization", "Bearer geheim-token-6");
        let key = key(&request);
        assert_ne!(
            key,
            super::key(&Request::get(
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
    fn settings_follow_the_variables() {
        let settings = |pairs: &[(&'static str, &str)]| Settings::from_env(&Env::from_pairs(pairs));
        let dir = |s: Result<Option<Settings>, Problem>| s.unwrap().map(|s| s.dir);
        assert_eq!(
            dir(settings(&[("HOME", "/h")])),
            Some(PathBuf::from("/h/.cache/overheid-cli"))
        );
        assert_eq!(
            dir(settings(&[("HOME", "/h"), (XDG_CACHE_HOME, "/x")])),
            Some(PathBuf::from("/x/overheid-cli"))
        );
        assert_eq!(
            dir(settings(&[("HOME", "/h"), (XDG_CACHE_HOME, "rel")])),
            Some(PathBuf::from("/h/.cache/overheid-cli")),
            "a relative XDG_CACHE_HOME is ignored"
        );
        assert_eq!(
            dir(settings(&[("HOME", "/h"), (CACHE_DIR, "/c")])),
            Some(PathBuf::from("/c"))
        );
        assert_eq!(
            dir(settings(&[("HOME", "/h"), (CACHE_MAX_BYTES, "0")])),
            None
        );
        assert_eq!(dir(settings(&[])), None);
        let max = settings(&[("HOME", "/h")]).unwrap().unwrap().max_bytes;
        assert_eq!(max, DEFAULT_MAX_BYTES);
        assert_eq!(
            ENV[1].default,
            Some(DEFAULT_MAX_BYTES.to_string()).as_deref()
        );
        for bad in [
            settings(&[("HOME", "/h"), (CACHE_MAX_BYTES, "veel")]),
            settings(&[("HOME", "/h"), (CACHE_DIR, "relatief")]),
        ] {
            assert_eq!(bad.unwrap_err().exit.code(), 78);
        }
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

    #[test]
    fn sizes_read_in_dutch() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3482), "3,4 KiB");
        assert_eq!(
            cleared_text(&json!({"verwijderd": 1, "bytes": 2048, "map": "/c"})),
            "1 item verwijderd (2,0 KiB) uit /c\n"
        );
    }
}
