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
//! created nor read before the first [`Context::send_cached`](crate::call::context::Context::send_cached).

mod store;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

pub(crate) use store::{Pending, Store};

use crate::data::digest::sha256_hex;
use crate::net::http::Request;
use crate::problem::error::Problem;
use crate::process::env::{Env, EnvKind, EnvVar};

/// Variable with the cache directory (entries directly in it).
pub(crate) const CACHE_DIR: &str = "OVERHEID_CACHE_DIR";
/// Variable with the cap on the cache's total size in bytes; `0` turns the cache off.
pub(crate) const CACHE_MAX_BYTES: &str = "OVERHEID_CACHE_MAX_BYTES";
/// The XDG base directory for caches.
pub(crate) const XDG_CACHE_HOME: &str = "XDG_CACHE_HOME";
/// The default cap: 256 MiB.
pub(crate) const DEFAULT_MAX_BYTES: u64 = 256 * 1024 * 1024;
/// The subdirectory of the XDG (or `~/.cache`) base.
const FAMILY_DIR: &str = "overheid-cli";

/// The variables the cache reads, declared by every tool with a cached command.
pub(crate) const ENV: [EnvVar; 3] = [
    EnvVar::new(
        CACHE_DIR,
        EnvKind::Path,
        "map van de cache (antwoorden die nooit veranderen, voorbereide wetten); standaard $XDG_CACHE_HOME/overheid-cli of ~/.cache/overheid-cli",
    ),
    EnvVar::new(
        CACHE_MAX_BYTES,
        EnvKind::Setting,
        "maximale totale grootte van de cache in bytes; 0 zet de cache uit",
    )
    .with_default("268435456"),
    EnvVar::new(
        XDG_CACHE_HOME,
        EnvKind::Path,
        "basismap voor de cache ($XDG_CACHE_HOME/overheid-cli)",
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
pub(crate) fn key(request: &Request) -> String {
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

/// The first line of a prepared form names the SHA-256 of the file it was made from.
const PREPARED_SOURCE: &str = "bron-sha256";

/// Prepared forms of local files (rule CACHE-5): what a tool derives from a file it parses
/// (regelrecht-cli: a law's YAML as JSON), kept in the same directory and under the same cap as
/// the answers, so that a later call with the same file skips the slow parse. An entry is named
/// by the SHA-256 of the form's label, the tool's version and the file's SHA-256, so an edited
/// file or another version of the tool never meets an old form. The directory is only created
/// when a form is first stored.
#[derive(Clone, Debug)]
pub struct PreparedForms {
    settings: Settings,
    /// What the form is, with the version of the tool that wrote it.
    label: String,
}

impl PreparedForms {
    pub fn new(settings: Settings, label: String) -> Self {
        Self { settings, label }
    }

    fn key(&self, file_sha256: &str) -> String {
        sha256_hex(format!("prepared\n{}\n{file_sha256}", self.label).as_bytes())
    }

    /// The form kept for the file with this digest, verified as every entry is (CACHE-2) and
    /// against the digest of the file it was made from, which it names in its first line. A
    /// directory or entry that is not the user's own or that others can write is not read: `Err`
    /// says why, for a warning (CACHE-6).
    pub fn get(&self, file_sha256: &str) -> Result<Option<Vec<u8>>, String> {
        match std::fs::symlink_metadata(&self.settings.dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            _ => {}
        }
        crate::process::trust::check_dir(&self.settings.dir).map_err(|why| {
            format!("voorbereide vormen in de cache niet gebruikt ({why}); verder zonder")
        })?;
        let Some(entry) = Store::existing(&self.settings)
            .get(&self.key(file_sha256), self.settings.max_bytes)?
            .filter(|entry| entry.status == 200)
        else {
            return Ok(None);
        };
        let mut body = entry.body;
        let first = format!("{PREPARED_SOURCE} {file_sha256}\n");
        if !body.starts_with(first.as_bytes()) {
            return Ok(None);
        }
        body.drain(..first.len());
        Ok(Some(body))
    }

    /// Keep `form` for the file with this digest; why it could not be, for a warning.
    pub fn put(&self, file_sha256: &str, form: &[u8]) -> Result<(), String> {
        let mut body = format!("{PREPARED_SOURCE} {file_sha256}\n").into_bytes();
        body.extend_from_slice(form);
        let stored = Store::open(&self.settings).and_then(|store| {
            match store.put(&self.key(file_sha256), 200, &body)? {
                Some(pending) => pending.commit(),
                None => Ok(()),
            }
        });
        stored.map_err(|e| {
            format!(
                "voorbereide vorm niet in de cache in {} gezet ({e}); verder zonder",
                self.settings.dir.display()
            )
        })
    }
}

/// What one invocation did with the cache: the store (opened at the first cacheable request),
/// how the last cacheable answer was obtained, and the entries waiting for the command's success.
#[derive(Debug, Default)]
pub(crate) struct Session {
    /// `None`: not yet opened; `Some(None)`: off or unusable for this invocation.
    store: Option<Option<Store>>,
    pub used: Option<Use>,
    pending: Vec<Pending>,
}

impl Session {
    /// The store, opened on first use; `Err` (once) says why it cannot be used, for a warning.
    pub(crate) fn store(&mut self, env: &Env) -> Result<Option<Store>, String> {
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
    pub(crate) fn hold(&mut self, pending: Pending) {
        self.pending.push(pending);
    }

    /// Put the held entries in place; the first failure, for a warning.
    pub(crate) fn commit(&mut self) -> Result<(), String> {
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
pub(crate) fn utility(
    env: &Env,
    printer: &crate::print::output::Printer,
    dry_run: bool,
) -> Result<String, Problem> {
    let result = clear_command(env, dry_run)?;
    Ok(match printer.format {
        crate::print::output::OutputFormat::Json => printer.render(&result),
        _ => cleared_text(&result),
    })
}

/// `cache leeg`: empty the cache of `env` and say what was removed, as data (with `dry_run`:
/// what would be, and `"dry_run": true`).
pub(crate) fn clear_command(env: &Env, dry_run: bool) -> Result<Value, Problem> {
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
pub(crate) fn cleared_text(result: &Value) -> String {
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
    fn sizes_read_in_dutch() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3482), "3,4 KiB");
        assert_eq!(
            cleared_text(&json!({"verwijderd": 1, "bytes": 2048, "map": "/c"})),
            "1 item verwijderd (2,0 KiB) uit /c\n"
        );
    }
}
