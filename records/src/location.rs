//! Where the store is: a shared PostgreSQL database (`OVERHEID_STORE_URL=postgres://…`) or,
//! by default, an SQLite file in the data directory (`RVO_DATA_DIR`, else
//! `$XDG_DATA_HOME/rvo-cli`, else `~/.local/share/rvo-cli`).
//!
//! The data directory is made 0700 and must belong to the user and be writable by nobody else;
//! the database file is made 0600 and must belong to the user and be readable by nobody else.
//! Anything else is refused ([`Error::Unsafe`]) before a byte is read or written.

use std::fs::{self, DirBuilder, OpenOptions};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::Error;

/// The shared store's URL (`postgres://…` or `postgresql://…`); unset: the embedded store.
pub const STORE_URL_ENV: &str = "OVERHEID_STORE_URL";
/// The data directory of the embedded store.
pub const DATA_DIR_ENV: &str = "RVO_DATA_DIR";
/// The database file in the data directory.
pub const DATABASE_FILE: &str = "overheid.sqlite3";

/// Where the records live.
#[derive(Clone)]
pub enum Location {
    /// The embedded SQLite store in this directory.
    Sqlite(PathBuf),
    /// A shared PostgreSQL database. The URL may hold a password: it is never shown
    /// ([`Location::shown`] leaves it out) and `Debug` prints the redacted form.
    Postgres(String),
}

impl std::fmt::Debug for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown())
    }
}

impl Location {
    /// The location from the environment (`env` looks a variable up): `OVERHEID_STORE_URL`,
    /// else the data directory. Neither known, or a URL of another scheme: [`Error::Config`].
    pub fn from_env(env: impl Fn(&str) -> Option<String>) -> Result<Location, Error> {
        let non_empty = |name: &str| env(name).filter(|value| !value.trim().is_empty());
        if let Some(url) = non_empty(STORE_URL_ENV) {
            let url = url.trim().to_string();
            if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
                return Err(Error::Config(format!(
                    "{STORE_URL_ENV} moet met postgres:// of postgresql:// beginnen"
                )));
            }
            #[cfg(feature = "postgres")]
            {
                let config = parsed(&url).ok_or_else(|| {
                    Error::Config(format!(
                        "{STORE_URL_ENV} is geen geldige PostgreSQL-URL (een @ in het wachtwoord \
                         schrijft u als %40)"
                    ))
                })?;
                // The password as a secret: masked wherever it is printed or recorded, also
                // when a server or a library quotes it (SEC-2).
                if let Some(password) = config.get_password() {
                    common::secrets::hold(&String::from_utf8_lossy(password));
                }
            }
            return Ok(Location::Postgres(url));
        }
        if let Some(dir) = non_empty(DATA_DIR_ENV) {
            return Ok(Location::Sqlite(PathBuf::from(dir)));
        }
        if let Some(xdg) = non_empty("XDG_DATA_HOME").map(PathBuf::from)
            && xdg.is_absolute()
        {
            return Ok(Location::Sqlite(xdg.join("rvo-cli")));
        }
        non_empty("HOME")
            .map(|home| Location::Sqlite(PathBuf::from(home).join(".local/share/rvo-cli")))
            .ok_or_else(|| {
                Error::Config(format!(
                    "er is geen map voor de opslag: zet {DATA_DIR_ENV} (of XDG_DATA_HOME of HOME), of {STORE_URL_ENV}"
                ))
            })
    }

    /// The location as it may be shown: the directory, or the URL without user info's password
    /// and without query parameters (which may carry one too).
    pub fn shown(&self) -> String {
        match self {
            Location::Sqlite(dir) => dir.display().to_string(),
            Location::Postgres(url) => shown_url(url),
        }
    }

    /// Whether the store may hold records yet: an SQLite store whose file was never created is
    /// empty, so a reader need not create it (a dry run writes nothing). A shared database may
    /// always hold records.
    pub fn may_hold_records(&self) -> bool {
        match self {
            Location::Sqlite(dir) => dir.join(DATABASE_FILE).exists(),
            Location::Postgres(_) => true,
        }
    }

    /// `sqlite` or `postgres`.
    pub fn kind(&self) -> &'static str {
        match self {
            Location::Sqlite(_) => "sqlite",
            Location::Postgres(_) => "postgres",
        }
    }
}

/// The shown form of a store URL, built from the URL as the driver parses it, never from its
/// text: `postgres://user:pa/ss?@host:5432/db?password=x` is `postgres://user@host:5432/db`. A
/// URL the driver cannot read, or reads with a host that holds an `@` (an unencoded one in the
/// password), is shown by its scheme only.
fn shown_url(url: &str) -> String {
    let scheme = url
        .split_once("://")
        .map_or("postgres", |(scheme, _)| scheme);
    #[cfg(feature = "postgres")]
    if let Some(config) = parsed(url) {
        use postgres::config::Host;
        let ports = config.get_ports();
        let hosts: Vec<String> = config
            .get_hosts()
            .iter()
            .enumerate()
            .map(|(at, host)| {
                let host = match host {
                    Host::Tcp(name) if name.contains(':') => format!("[{name}]"),
                    Host::Tcp(name) => name.clone(),
                    Host::Unix(path) => path.display().to_string().replace('/', "%2F"),
                };
                match ports.get(at).or(ports.first().filter(|_| ports.len() == 1)) {
                    Some(port) => format!("{host}:{port}"),
                    None => host,
                }
            })
            .collect();
        let user = config
            .get_user()
            .map(|u| format!("{u}@"))
            .unwrap_or_default();
        let db = config
            .get_dbname()
            .map(|d| format!("/{d}"))
            .unwrap_or_default();
        return format!("{scheme}://{user}{}{db}", hosts.join(","));
    }
    format!("{scheme}://…")
}

/// The URL as the driver reads it; `None` when it cannot, or when a host holds an `@` (the
/// driver ends the user information at the first `@`, so the rest of a password would be read
/// as the host, and shown as one).
#[cfg(feature = "postgres")]
fn parsed(url: &str) -> Option<postgres::Config> {
    use std::str::FromStr;
    let config = postgres::Config::from_str(url).ok()?;
    let ambiguous = config
        .get_hosts()
        .iter()
        .any(|host| matches!(host, postgres::config::Host::Tcp(name) if name.contains('@')));
    (!ambiguous).then_some(config)
}

/// Makes `dir` (0700, parents too) if missing, and checks it as every directory the family
/// trusts is checked (`common::trust`): it belongs to this user and nobody else can write in it,
/// nor replace it through its parent.
pub(crate) fn safe_dir(dir: &Path) -> Result<(), Error> {
    DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|source| Error::Io {
            action: "map aanmaken",
            path: dir.to_path_buf(),
            source,
        })?;
    common::trust::check_dir(dir).map_err(|why| Error::Unsafe {
        path: dir.to_path_buf(),
        why: format!("{why}; maak de map alleen voor uzelf (chmod 700)"),
    })
}

/// Creates the database file 0600 if it is missing (never through a symbolic link), and checks it
/// is a regular file of this user that nobody else can write (`common::trust`) or read.
///
/// An existing file is checked by its metadata only, never opened: closing any descriptor of a
/// database file drops every POSIX lock this process holds on it, also those of an SQLite
/// connection already open (a second store in one process, the bridge's page serving two
/// requests), and with them the WAL's guard against another process checkpointing and deleting
/// the WAL under that connection: a corrupt database.
pub(crate) fn safe_file(path: &Path) -> Result<(), Error> {
    let io = |action: &'static str| {
        move |source| Error::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    };
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            // No connection of this process can have a file open that did not exist.
            match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
                .open(path)
            {
                Ok(_) => {}
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(io("databasebestand aanmaken")(error)),
            }
            fs::symlink_metadata(path).map_err(io("databasebestand bekijken"))?
        }
        Err(error) => return Err(io("databasebestand bekijken")(error)),
    };
    let unsafe_file = |why: &str| Error::Unsafe {
        path: path.to_path_buf(),
        why: format!("{why}; maak het alleen voor uzelf (chmod 600)"),
    };
    if meta.file_type().is_symlink() {
        return Err(unsafe_file("het is een symbolische link"));
    }
    common::trust::check_file(&meta).map_err(unsafe_file)?;
    if meta.mode() & 0o044 != 0 {
        return Err(unsafe_file("anderen kunnen het bestand lezen"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "postgres")]
    #[test]
    fn the_password_is_never_shown() {
        let location =
            Location::Postgres("postgres://app:s3cret@db.example:5432/records?password=x".into());
        let shown = location.shown();
        assert_eq!(shown, "postgres://app@db.example:5432/records");
        assert!(!format!("{location:?}").contains("s3cret"));
        assert_eq!(shown_url("postgresql://db/x"), "postgresql://db:5432/x");
        assert_eq!(shown_url("postgres://u:p:q@h"), "postgres://u@h:5432");
    }

    /// Generated passwords hold `/`, `?`, `@` (written `%40`) and `%`: the shown form is built
    /// from the parsed URL, so no part of one is shown, and the password is held as a secret.
    #[cfg(feature = "postgres")]
    #[test]
    fn a_password_with_url_characters_is_never_shown() {
        for (written, password) in [
            ("Zk/9qW+u8?x=7", "Zk/9qW+u8?x=7"),
            ("Zk%409qW/u8", "Zk@9qW/u8"),
            ("Zk%259qW%u8?/", "Zk%9qW%u8?/"),
            ("/?Zk9qWu8#x", "/?Zk9qWu8#x"),
        ] {
            let url = format!("postgres://app:{written}@db.example:5432/records?sslmode=require");
            let location =
                Location::from_env(|name| (name == STORE_URL_ENV).then(|| url.clone())).unwrap();
            let shown = location.shown();
            assert_eq!(shown, "postgres://app@db.example:5432/records", "{written}");
            assert!(!format!("{location:?}").contains("Zk"), "{written}");
            let echoed = format!("server: password {password} rejected");
            assert!(!common::secrets::scrub(&echoed).contains("Zk"), "{written}");
        }
        // An unencoded @ makes the rest of the password the host: refused, and shown by its
        // scheme only.
        let ambiguous = "postgres://app:Zk@9qWu8@db.example/records";
        assert!(matches!(
            Location::from_env(|name| (name == STORE_URL_ENV).then(|| ambiguous.to_string())),
            Err(Error::Config(_))
        ));
        assert_eq!(Location::Postgres(ambiguous.into()).shown(), "postgres://…");
        assert_eq!(
            shown_url("postgres://app:pw@[::1]:5433,db2/records"),
            "postgres://app@[::1]:5433,db2:5432/records"
        );
    }

    #[test]
    fn the_url_wins_then_the_data_directory() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        let both = Location::from_env(env(&[
            (STORE_URL_ENV, "postgres://h/db"),
            (DATA_DIR_ENV, "/d"),
        ]))
        .unwrap();
        assert_eq!(both.kind(), "postgres");
        let dir = Location::from_env(env(&[(DATA_DIR_ENV, "/d"), ("HOME", "/h")])).unwrap();
        assert_eq!(dir.shown(), "/d");
        let home = Location::from_env(env(&[("XDG_DATA_HOME", "rel"), ("HOME", "/h")])).unwrap();
        assert_eq!(home.shown(), "/h/.local/share/rvo-cli");
        assert!(matches!(
            Location::from_env(env(&[(STORE_URL_ENV, "mysql://h/db")])),
            Err(Error::Config(_))
        ));
        assert!(matches!(
            Location::from_env(env(&[])),
            Err(Error::Config(_))
        ));
    }
}
