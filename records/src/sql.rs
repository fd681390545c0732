//! One connection, SQLite or PostgreSQL, behind the few calls the store makes: statements
//! with positional parameters (`$1`, `$2`, … in the text; rewritten to `?1`, `?2`, … for
//! SQLite), rows of text and integers, and explicit transactions. Every table and statement
//! is written once, in the SQL both databases understand.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::Error;
use crate::location::{DATABASE_FILE, safe_dir, safe_file};

/// A parameter of a statement.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Param<'a> {
    Text(&'a str),
    OptText(Option<&'a str>),
    Int(i64),
}

/// A value of a row.
#[derive(Debug, Clone)]
pub(crate) enum Cell {
    Text(String),
    Int(i64),
    Null,
}

/// A row: its cells in the order of the select list.
pub(crate) type Row = Vec<Cell>;

/// The schema version this code writes and reads: the number of [`MIGRATIONS`] applied.
pub(crate) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// From this version on a store is of a newer major format that this code must not touch: a
/// later release that changes the tables incompatibly numbers its schema from here, so every
/// release since migrations were numbered refuses it with a clear error instead of misreading
/// it. Below it every version only adds (columns, tables, indexes), which an older reader
/// ignores: during a rolling upgrade an older replica reads what a newer one wrote.
const NEXT_MAJOR: i64 = 1000;

/// The schema's migrations, in order: migration `n` (from 1) takes a store from version `n - 1`
/// to `n`, in one transaction with the new version number. A released migration is never
/// changed, only followed by a new one (`records/tests/store.rs` upgrades a store made with
/// the first to the last). SQL both databases run; times are milliseconds since the epoch.
const MIGRATIONS: &[&[&str]] = &[
    // 1: proposals, their history, filings.
    &[
        "CREATE TABLE IF NOT EXISTS overheid_proposals (
            id TEXT PRIMARY KEY,
            company TEXT NOT NULL,
            tool TEXT NOT NULL,
            command TEXT NOT NULL,
            input TEXT NOT NULL,
            plan TEXT NOT NULL,
            plan_digest TEXT NOT NULL,
            concept_digest TEXT,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('open', 'approved', 'declined', 'expired', 'filed')),
            decided_by_subject TEXT,
            decided_by_name TEXT,
            decided_by_method TEXT,
            decided_at BIGINT,
            decided_digest TEXT,
            filing_key TEXT,
            result_digest TEXT
        )",
        // One live proposal per company, command and plan: proposing the same input again gives it back.
        "CREATE UNIQUE INDEX IF NOT EXISTS overheid_proposals_live
            ON overheid_proposals (company, tool, command, plan_digest)
            WHERE status IN ('open', 'approved')",
        "CREATE INDEX IF NOT EXISTS overheid_proposals_company
            ON overheid_proposals (company, created_at)",
        "CREATE TABLE IF NOT EXISTS overheid_proposal_events (
            proposal_id TEXT NOT NULL REFERENCES overheid_proposals (id),
            seq BIGINT NOT NULL,
            at BIGINT NOT NULL,
            status TEXT NOT NULL,
            by_subject TEXT,
            by_name TEXT,
            by_method TEXT,
            digest TEXT,
            PRIMARY KEY (proposal_id, seq)
        )",
        "CREATE TABLE IF NOT EXISTS overheid_filings (
            idempotency_key TEXT PRIMARY KEY,
            reference TEXT NOT NULL UNIQUE,
            company TEXT NOT NULL,
            tool TEXT NOT NULL,
            request_sha256 TEXT NOT NULL,
            request TEXT NOT NULL,
            result TEXT NOT NULL,
            filed_at BIGINT NOT NULL,
            proposal_id TEXT
        )",
        "CREATE INDEX IF NOT EXISTS overheid_filings_company
            ON overheid_filings (company, filed_at)",
    ],
    // 2: what an approval is bound to (the target and date beside the plan: `binding`, the
    // canonical JSON of the authorization detail without its proposal id) and the person's
    // approval token (a bearer credential, kept with the decision). One live proposal per
    // company, command, plan and binding: the same plan for another backend or date is another
    // proposal, approved on its own.
    &[
        "ALTER TABLE overheid_proposals ADD COLUMN binding TEXT",
        "ALTER TABLE overheid_proposals ADD COLUMN decided_token TEXT",
        "DROP INDEX overheid_proposals_live",
        "CREATE UNIQUE INDEX overheid_proposals_live_bound
            ON overheid_proposals (company, tool, command, plan_digest, COALESCE(binding, ''))
            WHERE status IN ('open', 'approved')",
    ],
    // 3: the program a proposal came through, as its caller declared it (`ProposingClient`'s
    // JSON; shown to the person who decides, labelled as not verified).
    &["ALTER TABLE overheid_proposals ADD COLUMN proposed_via TEXT"],
];

/// How a PostgreSQL store says its version: the comment on `overheid_filings`, then the number.
#[cfg(feature = "postgres")]
const VERSION_COMMENT: &str = "overheid-records schema ";

/// A store of a newer major format than this code knows ([`NEXT_MAJOR`]): refused, unread.
fn too_new(version: i64) -> Error {
    Error::Config(format!(
        "de opslag heeft schemaversie {version}, van een nieuwere uitgave die deze versie niet \
         kan lezen (tot {}); werk rvo-cli en overheid-mcp bij",
        NEXT_MAJOR - 1
    ))
}

/// How a write transaction's commit is made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Durability {
    /// Synced before the commit returns (SQLite `synchronous=FULL`, PostgreSQL's default
    /// `synchronous_commit`): the commit survives a crash of the process and of the machine.
    Synced,
    /// Handed to the operating system (SQLite: written into the WAL, `synchronous=NORMAL`;
    /// PostgreSQL: `synchronous_commit = off`) and synced by the next synced commit or
    /// checkpoint, whose sync of the log covers everything before it. It survives a crash of
    /// the process; a crash of the machine (power loss) may lose it, whole and with the commits
    /// after it that were not synced either, never partly: the database stays consistent. For
    /// a record whose loss is safe only.
    Deferred,
}

/// An open connection.
pub(crate) enum Conn {
    Sqlite(rusqlite::Connection),
    #[cfg(feature = "postgres")]
    Postgres(Box<postgres::Client>),
}

/// The time left until `deadline` (at least 1 ms), or a generous default without one.
fn left(deadline: Option<Instant>) -> Duration {
    match deadline {
        Some(deadline) => deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1)),
        None => Duration::from_secs(60),
    }
}

/// The longest pause between two attempts to switch a new store to WAL.
const WAL_RETRY_MAX: Duration = Duration::from_millis(16);

/// Switches the store to WAL mode (a no-op once it is). On a new store the switch upgrades the
/// pragma's read transaction to a write transaction, and SQLite calls no busy handler for such an
/// upgrade (waiting could deadlock two upgraders): while another process reads or writes the
/// same new store, as when several filings start at once, it fails at once with `SQLITE_BUSY`.
/// It is tried again, 1 ms apart and doubling up to [`WAL_RETRY_MAX`], until the deadline.
fn to_wal(conn: &rusqlite::Connection, deadline: Option<Instant>) -> Result<(), Error> {
    let until = Instant::now() + left(deadline);
    let mut pause = Duration::from_millis(1);
    loop {
        let error = match conn.query_row("PRAGMA journal_mode=WAL", [], |_| Ok(())) {
            Ok(()) => return Ok(()),
            Err(error) => Error::from(error),
        };
        if !matches!(error, Error::Busy) || Instant::now() + pause >= until {
            return Err(error);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(WAL_RETRY_MAX);
    }
}

impl Conn {
    /// Opens (creating if needed) the SQLite store in `dir`.
    pub(crate) fn sqlite(dir: &Path, deadline: Option<Instant>) -> Result<Conn, Error> {
        use rusqlite::OpenFlags;
        safe_dir(dir)?;
        let path = dir.join(DATABASE_FILE);
        safe_file(&path)?;
        let conn = rusqlite::Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_NOFOLLOW
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| Error::Database(e.to_string()))?;
        conn.busy_timeout(left(deadline))?;
        // Every CLI call is a process with one connection: by default its close would
        // checkpoint the WAL into the database and delete the WAL and its index, so the next
        // process creates them again, and each call paid four fsyncs more than its commit (the
        // new WAL, its directory, the checkpoint of WAL and database). The WAL stays instead
        // (as durable: each commit is synced into it), and a commit checkpoints it once it
        // holds 1,000 pages (SQLite's automatic checkpoint); after that it is cut back to
        // `journal_size_limit`.
        conn.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )?;
        // Per connection, so on every open (no I/O): FULL, a commit survives a power loss.
        conn.execute_batch("PRAGMA synchronous=FULL")?;
        conn.query_row("PRAGMA journal_size_limit=4194304", [], |_| Ok(()))?;
        let mut conn = Conn::Sqlite(conn);
        let version = conn.sqlite_version()?;
        if version >= NEXT_MAJOR {
            return Err(too_new(version));
        }
        if version < SCHEMA_VERSION {
            conn.migrate_sqlite(deadline)?;
        }
        Ok(conn)
    }

    /// The schema version of a SQLite store (`PRAGMA user_version`; 0 when new).
    fn sqlite_version(&mut self) -> Result<i64, Error> {
        let version = self.query("PRAGMA user_version", &[])?;
        Ok(match version.first().and_then(|r| r.first()) {
            Some(Cell::Int(v)) => *v,
            _ => 0,
        })
    }

    /// Brings a SQLite store to [`SCHEMA_VERSION`]: WAL first, then the migrations it lacks, under
    /// the write lock (a second process that waited for it finds the store migrated).
    fn migrate_sqlite(&mut self, deadline: Option<Instant>) -> Result<(), Error> {
        {
            let Conn::Sqlite(conn) = self else {
                unreachable!("migrate_sqlite on SQLite only")
            };
            // WAL (kept in the file): readers never wait for the writer.
            to_wal(conn, deadline)?;
        }
        self.batch("BEGIN IMMEDIATE")?;
        let migrated = self.sqlite_version().and_then(|from| {
            if from >= NEXT_MAJOR {
                return Err(too_new(from));
            }
            self.run_migrations(from)?;
            self.batch(&format!("PRAGMA user_version={SCHEMA_VERSION}"))
        });
        match migrated {
            Ok(()) => self.commit(),
            Err(error) => {
                self.rollback();
                Err(error)
            }
        }
    }

    /// Runs the migrations after version `from`, in the transaction begun.
    fn run_migrations(&mut self, from: i64) -> Result<(), Error> {
        let done = usize::try_from(from).unwrap_or(0);
        for statement in MIGRATIONS.iter().skip(done).flat_map(|m| m.iter()) {
            self.batch(statement)?;
        }
        Ok(())
    }

    /// Connects to the shared PostgreSQL store and creates its tables once.
    #[cfg(feature = "postgres")]
    pub(crate) fn postgres(url: &str, deadline: Option<Instant>) -> Result<Conn, Error> {
        use std::str::FromStr;
        let mut config = postgres::Config::from_str(url).map_err(|_| {
            // The parser's message may quote the URL, password included: not repeated.
            Error::Config(format!(
                "{} is geen geldige PostgreSQL-URL",
                crate::location::STORE_URL_ENV
            ))
        })?;
        config.connect_timeout(left(deadline));
        // The URL may name the connections (an operator telling its replicas apart).
        if config.get_application_name().is_none() {
            config.application_name("overheid-records");
        }
        // Every lock and statement waits no longer than the deadline: set in the startup
        // message, so it costs no round trip of its own.
        let millis = left(deadline).as_millis();
        let options = format!(
            "{} -c lock_timeout={millis} -c statement_timeout={millis}",
            config.get_options().unwrap_or_default()
        );
        config.options(options.trim_start());
        let untrusted = common::tls::UntrustedIssuer::default();
        let client = match transport_security(&mut config)? {
            postgres::config::SslMode::Require => {
                let (tls, issuer) = common::tls::client_config().map_err(|problem| {
                    Error::Config(format!("TLS kon niet worden opgezet: {}", problem.detail))
                })?;
                let client = config.connect(tokio_postgres_rustls::MakeRustlsConnect::new(tls));
                if client.is_err() {
                    let named = issuer.lock().map(|mut i| i.take()).unwrap_or_default();
                    *untrusted
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = named;
                }
                client
            }
            // `prefer` (the default) and `disable`, on this machine only: plain TCP. A `prefer`
            // that tried TLS would refuse a local server whose certificate is not trusted here.
            _ => config.connect(postgres::NoTls),
        }
        .map_err(|e| Error::Unreachable(connect_problem(&e, &untrusted)))?;
        let mut conn = Conn::Postgres(Box::new(client));
        // A lookup of one name by the catalog's indexes (the first query of a new backend: the
        // `pg_tables` view cost a fresh backend 6 ms of catalog loading), with the version in
        // the table's comment. Only a store that lacks migrations takes the lock.
        let version = conn.postgres_version()?;
        if version >= NEXT_MAJOR {
            return Err(too_new(version));
        }
        if version < SCHEMA_VERSION {
            conn.batch("BEGIN")?;
            // One migrator at a time (CREATE … IF NOT EXISTS races in PostgreSQL); the version
            // is read again under the lock.
            let migrated = conn
                .query("SELECT CAST(pg_advisory_xact_lock(7318204) AS TEXT)", &[])
                .and_then(|_| conn.postgres_version())
                .and_then(|from| {
                    if from >= NEXT_MAJOR {
                        return Err(too_new(from));
                    }
                    // Another migrator finished while this one waited: nothing to change, and
                    // no DDL of its own (a COMMENT ON here, beside the first migrator's and the
                    // stores already in use, was the victim of a deadlock under 8 concurrent
                    // opens of a new database).
                    if from >= SCHEMA_VERSION {
                        return Ok(());
                    }
                    conn.run_migrations(from)?;
                    conn.batch(&format!(
                        "COMMENT ON TABLE overheid_filings IS '{VERSION_COMMENT}{SCHEMA_VERSION}'"
                    ))
                });
            match migrated {
                Ok(()) => conn.batch("COMMIT")?,
                Err(error) => {
                    let _ = conn.batch("ROLLBACK");
                    return Err(error);
                }
            }
        }
        Ok(conn)
    }

    /// The schema version of a PostgreSQL store, in one round trip: the comment on the filings
    /// table (`overheid-records schema N`); tables without one were made before versions were
    /// kept (version 1); no tables, version 0.
    #[cfg(feature = "postgres")]
    fn postgres_version(&mut self) -> Result<i64, Error> {
        // Both from the catalog tables under this statement's snapshot: `to_regclass` reads the
        // backend's catalog cache, which can be older or newer than the snapshot that reads the
        // comment, so a migrator that waited for another saw its tables without its comment
        // (version 1) or its comment without its tables, and ran a migration again.
        let rows = self.query(
            "SELECT CAST(c.oid AS TEXT), d.description \
             FROM pg_catalog.pg_class c \
             JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
             LEFT JOIN pg_catalog.pg_description d ON d.objoid = c.oid \
             AND d.classoid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objsubid = 0 \
             WHERE c.relname = 'overheid_filings' AND n.nspname = current_schema()",
            &[],
        )?;
        Ok(match rows.first().map(Vec::as_slice) {
            Some([Cell::Text(_), Cell::Text(comment)]) => comment
                .strip_prefix(VERSION_COMMENT)
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or(1),
            Some([Cell::Text(_), _]) => 1,
            _ => 0,
        })
    }

    /// Whether the connection is still open.
    pub(crate) fn is_open(&self) -> bool {
        match self {
            Conn::Sqlite(_) => true,
            #[cfg(feature = "postgres")]
            Conn::Postgres(client) => !client.is_closed(),
        }
    }

    /// Begins a write transaction (SQLite: takes the write lock now, waiting by the busy
    /// timeout; PostgreSQL: row locks come with the statements).
    pub(crate) fn begin(&mut self) -> Result<(), Error> {
        match self {
            Conn::Sqlite(_) => self.batch("BEGIN IMMEDIATE"),
            #[cfg(feature = "postgres")]
            Conn::Postgres(_) => self.batch("BEGIN"),
        }
    }

    pub(crate) fn commit(&mut self) -> Result<(), Error> {
        self.batch("COMMIT")
    }

    /// Rolls back, ignoring a failure (the transaction ends with the connection anyway).
    pub(crate) fn rollback(&mut self) {
        let _ = self.batch("ROLLBACK");
    }

    /// Runs `work` in a write transaction: committed when it returns `Ok`, else rolled back.
    /// The commit is synced ([`Durability::Synced`]).
    pub(crate) fn transaction<T>(
        &mut self,
        work: impl FnOnce(&mut Conn) -> Result<T, Error>,
    ) -> Result<T, Error> {
        self.transaction_with(Durability::Synced, work)
    }

    /// [`Conn::transaction`] whose commit is made durable as `durability` says.
    pub(crate) fn transaction_with<T>(
        &mut self,
        durability: Durability,
        work: impl FnOnce(&mut Conn) -> Result<T, Error>,
    ) -> Result<T, Error> {
        if durability == Durability::Synced {
            return self.run_transaction(work);
        }
        match self {
            // Per connection and only outside a transaction; no I/O. Set back to FULL
            // whatever happened, so no other commit of this connection is ever deferred.
            Conn::Sqlite(_) => {
                self.batch("PRAGMA synchronous=NORMAL")?;
                let done = self.run_transaction(work);
                if done.is_err() {
                    // A failed commit leaves its transaction open (no-op otherwise).
                    self.rollback();
                }
                // A connection that could not be set back fails as a whole (a pool drops it).
                self.batch("PRAGMA synchronous=FULL")
                    .map_err(|error| Error::Database(format!("synchronous=FULL: {error}")))?;
                done
            }
            // `SET LOCAL` ends with the transaction; sent with the BEGIN (one round trip).
            #[cfg(feature = "postgres")]
            Conn::Postgres(_) => {
                self.batch("BEGIN; SET LOCAL synchronous_commit = off")?;
                self.finish_transaction(work)
            }
        }
    }

    fn run_transaction<T>(
        &mut self,
        work: impl FnOnce(&mut Conn) -> Result<T, Error>,
    ) -> Result<T, Error> {
        self.begin()?;
        self.finish_transaction(work)
    }

    /// Runs `work` in the transaction begun: commits on `Ok`, else rolls back.
    fn finish_transaction<T>(
        &mut self,
        work: impl FnOnce(&mut Conn) -> Result<T, Error>,
    ) -> Result<T, Error> {
        match work(self) {
            Ok(value) => {
                self.commit()?;
                Ok(value)
            }
            Err(error) => {
                self.rollback();
                Err(error)
            }
        }
    }

    fn batch(&mut self, sql: &str) -> Result<(), Error> {
        match self {
            Conn::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            #[cfg(feature = "postgres")]
            Conn::Postgres(client) => Ok(client.batch_execute(sql)?),
        }
    }

    /// Runs a statement; the number of rows it changed.
    pub(crate) fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64, Error> {
        match self {
            Conn::Sqlite(conn) => {
                let mut statement = conn.prepare_cached(&sqlite_sql(sql))?;
                bind_sqlite(&mut statement, params)?;
                Ok(statement.raw_execute()? as u64)
            }
            #[cfg(feature = "postgres")]
            Conn::Postgres(client) => {
                use postgres::fallible_iterator::FallibleIterator;
                let mut rows = client.query_typed_raw(sql, pg_params(params))?;
                while rows.next()?.is_some() {}
                Ok(rows.rows_affected().unwrap_or(0))
            }
        }
    }

    /// Runs a query; its rows.
    pub(crate) fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, Error> {
        match self {
            Conn::Sqlite(conn) => {
                let mut statement = conn.prepare_cached(&sqlite_sql(sql))?;
                bind_sqlite(&mut statement, params)?;
                let width = statement.column_count();
                let mut rows = statement.raw_query();
                let mut out = Vec::new();
                while let Some(row) = rows.next()? {
                    let mut cells = Vec::with_capacity(width);
                    for index in 0..width {
                        use rusqlite::types::ValueRef;
                        cells.push(match row.get_ref(index)? {
                            ValueRef::Null => Cell::Null,
                            ValueRef::Integer(i) => Cell::Int(i),
                            ValueRef::Text(t) => Cell::Text(String::from_utf8_lossy(t).into()),
                            ValueRef::Real(_) | ValueRef::Blob(_) => {
                                return Err(Error::Corrupt("onverwacht kolomtype".into()));
                            }
                        });
                    }
                    out.push(cells);
                }
                Ok(out)
            }
            #[cfg(feature = "postgres")]
            Conn::Postgres(client) => {
                use postgres::types::Type;
                let rows = client.query_typed(sql, &pg_params(params))?;
                rows.iter()
                    .map(|row| {
                        (0..row.len())
                            .map(|index| {
                                let kind = row.columns()[index].type_();
                                Ok(if *kind == Type::INT8 {
                                    row.try_get::<_, Option<i64>>(index)?
                                        .map_or(Cell::Null, Cell::Int)
                                } else {
                                    row.try_get::<_, Option<String>>(index)?
                                        .map_or(Cell::Null, Cell::Text)
                                })
                            })
                            .collect::<Result<Row, Error>>()
                    })
                    .collect()
            }
        }
    }
}

/// `$N` → `?N`: SQLite numbers its parameters explicitly that way.
fn sqlite_sql(sql: &str) -> String {
    sql.replace('$', "?")
}

fn bind_sqlite(
    statement: &mut rusqlite::CachedStatement<'_>,
    params: &[Param<'_>],
) -> Result<(), Error> {
    for (index, param) in params.iter().enumerate() {
        let at = index + 1;
        match *param {
            Param::Text(text) => statement.raw_bind_parameter(at, text)?,
            Param::OptText(text) => statement.raw_bind_parameter(at, text)?,
            Param::Int(value) => statement.raw_bind_parameter(at, value)?,
        }
    }
    Ok(())
}

/// The parameters with their types: a statement sent with its types is parsed, bound and run
/// in one round trip (`query_typed`), where an untyped one is first prepared in another.
#[cfg(feature = "postgres")]
fn pg_params<'a>(
    params: &'a [Param<'a>],
) -> Vec<(
    &'a (dyn postgres::types::ToSql + Sync),
    postgres::types::Type,
)> {
    use postgres::types::Type;
    params
        .iter()
        .map(|param| -> (&'a (dyn postgres::types::ToSql + Sync), Type) {
            match param {
                Param::Text(text) => (text, Type::TEXT),
                Param::OptText(text) => (text, Type::TEXT),
                Param::Int(value) => (value, Type::INT8),
            }
        })
        .collect()
}

/// How the connection is secured, as the profile asks of every source (the NET rules: https,
/// or http to loopback): a database on another machine is reached over TLS only (`require`),
/// whatever `sslmode` says but `disable`, which is refused there. A database on this machine
/// (loopback, or a Unix socket) keeps the URL's `sslmode`: TLS with `require`, plain TCP with
/// `prefer` (the default) or `disable`. TLS is `common::tls`'s one configuration: the server's
/// certificate verified, chain and host name (as libpq's `verify-full`), against the system's
/// roots or `SSL_CERT_FILE`.
#[cfg(feature = "postgres")]
fn transport_security(config: &mut postgres::Config) -> Result<postgres::config::SslMode, Error> {
    use postgres::config::{Host, SslMode};
    let local = |host: &Host| match host {
        Host::Unix(_) => true,
        // As an http URL: the url crate reads the host of a `postgres:` URL as opaque text.
        Host::Tcp(name) if name.contains(':') => url::Url::parse(&format!("http://[{name}]/"))
            .is_ok_and(|url| common::http::is_loopback(&url)),
        Host::Tcp(name) => url::Url::parse(&format!("http://{name}/"))
            .is_ok_and(|url| common::http::is_loopback(&url)),
    };
    let remote = config.get_hosts().iter().any(|host| !local(host))
        || config.get_hostaddrs().iter().any(|ip| !ip.is_loopback());
    if remote {
        if config.get_ssl_mode() == SslMode::Disable {
            return Err(Error::Config(format!(
                "{} zegt sslmode=disable voor een database op een andere machine: de verbinding \
                 (met het wachtwoord en de voorstellen) zou onversleuteld over het netwerk gaan; \
                 laat sslmode weg of zet sslmode=require",
                crate::location::STORE_URL_ENV
            )));
        }
        config.ssl_mode(SslMode::Require);
    }
    Ok(config.get_ssl_mode())
}

/// Why a connection failed, in words that never include the URL. A server certificate that no
/// trusted root vouches for names its issuer and how to add that CA (NET-12).
#[cfg(feature = "postgres")]
fn connect_problem(error: &postgres::Error, untrusted: &common::tls::UntrustedIssuer) -> String {
    use std::error::Error as _;
    let issuer = untrusted
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some(issuer) = issuer {
        return format!(
            "het certificaat van de database is niet vertrouwd (uitgegeven door {issuer}); zet \
             SSL_CERT_FILE op een PEM-bundel met de systeemcertificaten plus dat CA-certificaat"
        );
    }
    match error.as_db_error() {
        Some(db) => db.message().to_string(),
        None => match error.source() {
            Some(source) => source.to_string(),
            None => error.to_string(),
        },
    }
}

impl Cell {
    pub(crate) fn text(&self) -> Result<&str, Error> {
        match self {
            Cell::Text(text) => Ok(text),
            _ => Err(Error::Corrupt("tekst verwacht".into())),
        }
    }

    pub(crate) fn opt_text(&self) -> Result<Option<&str>, Error> {
        match self {
            Cell::Null => Ok(None),
            other => other.text().map(Some),
        }
    }

    pub(crate) fn int(&self) -> Result<i64, Error> {
        match self {
            Cell::Int(value) => Ok(*value),
            _ => Err(Error::Corrupt("getal verwacht".into())),
        }
    }

    pub(crate) fn opt_int(&self) -> Result<Option<i64>, Error> {
        match self {
            Cell::Null => Ok(None),
            other => other.int().map(Some),
        }
    }
}

#[cfg(all(test, feature = "postgres"))]
mod transport_tests {
    use std::str::FromStr;

    use postgres::config::SslMode;

    use super::transport_security;

    fn secured(url: &str) -> Result<SslMode, String> {
        let mut config = postgres::Config::from_str(url).expect("a URL");
        transport_security(&mut config).map_err(|e| e.to_string())
    }

    #[test]
    fn a_database_on_another_machine_is_reached_over_tls_only() {
        for url in [
            "postgres://u:p@db.example.invalid/records",
            "postgres://u:p@db.example.invalid/records?sslmode=prefer",
            "postgres://u:p@10.1.2.3:5432/records",
            "postgres://u:p@localhost,db.example.invalid/records",
        ] {
            assert_eq!(secured(url), Ok(SslMode::Require), "{url}");
        }
        let refused = secured("postgres://u:geheim@db.example.invalid/records?sslmode=disable")
            .expect_err("plain text to another machine");
        assert!(refused.contains("sslmode=disable"), "{refused}");
        assert!(!refused.contains("geheim"), "{refused}");
    }

    #[test]
    fn a_database_on_this_machine_keeps_its_sslmode() {
        for (url, mode) in [
            (
                "postgres://u:p@127.0.0.1:5432/records?sslmode=disable",
                SslMode::Disable,
            ),
            ("postgres://u:p@localhost/records", SslMode::Prefer),
            (
                "postgres://u:p@[::1]:5432/records?sslmode=require",
                SslMode::Require,
            ),
            (
                "postgresql:///records?host=/run/postgresql&sslmode=disable",
                SslMode::Disable,
            ),
        ] {
            assert_eq!(secured(url), Ok(mode), "{url}");
        }
    }
}

#[cfg(test)]
mod durability_tests {
    use super::{Cell, Conn, Durability, Error};

    fn synchronous(conn: &mut Conn) -> i64 {
        match conn.query("PRAGMA synchronous", &[]).expect("pragma")[0][0] {
            Cell::Int(level) => level,
            ref other => panic!("synchronous as {other:?}"),
        }
    }

    /// Only the deferred transaction runs at NORMAL: every other commit of the connection,
    /// also after a deferred one that failed, is synced (FULL, 2).
    #[test]
    fn only_a_deferred_transaction_is_not_synced() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut conn = Conn::sqlite(&dir.path().join("data"), None).expect("store");
        assert_eq!(synchronous(&mut conn), 2, "a connection opens at FULL");
        let inside = conn
            .transaction_with(Durability::Deferred, |conn| Ok(synchronous(conn)))
            .expect("deferred");
        assert_eq!(inside, 1, "NORMAL inside the deferred transaction");
        assert_eq!(synchronous(&mut conn), 2, "FULL again after it");
        let failed = conn.transaction_with(Durability::Deferred, |conn| {
            conn.execute(
                "INSERT INTO overheid_filings (idempotency_key, reference, company, tool, \
                 request_sha256, request, result, filed_at) \
                 VALUES ('k', 'r', 'c', 't', 's', '{}', '{}', 0)",
                &[],
            )?;
            Err::<(), _>(Error::NotFound)
        });
        assert!(matches!(failed, Err(Error::NotFound)), "{:?}", failed.err());
        assert_eq!(synchronous(&mut conn), 2, "FULL again after a failed one");
        let rows = conn
            .query("SELECT count(*) FROM overheid_filings", &[])
            .expect("count");
        assert!(matches!(rows[0][0], Cell::Int(0)), "rolled back");
        let synced = conn
            .transaction(|conn| Ok(synchronous(conn)))
            .expect("synced");
        assert_eq!(synced, 2, "a synced transaction runs at FULL");
    }

    /// On PostgreSQL the deferred transaction alone runs with `synchronous_commit = off`
    /// (`SET LOCAL`, ended with it); the connection's other commits keep the server's setting.
    #[cfg(feature = "postgres")]
    #[test]
    fn postgres_only_a_deferred_transaction_is_not_synced() {
        let Some(url) = test_support::postgres::url() else {
            return;
        };
        let mut conn = Conn::postgres(&url, None).expect("store");
        let setting = |conn: &mut Conn| match &conn
            .query("SELECT current_setting('synchronous_commit')", &[])
            .expect("setting")[0][0]
        {
            Cell::Text(text) => text.clone(),
            other => panic!("setting as {other:?}"),
        };
        let before = setting(&mut conn);
        assert_ne!(before, "off", "the server's setting syncs");
        let inside = conn
            .transaction_with(Durability::Deferred, |conn| Ok(setting(conn)))
            .expect("deferred");
        assert_eq!(inside, "off");
        assert_eq!(setting(&mut conn), before, "the server's setting after it");
        let failed = conn.transaction_with(Durability::Deferred, |_| Err::<(), _>(Error::NotFound));
        assert!(matches!(failed, Err(Error::NotFound)));
        assert_eq!(setting(&mut conn), before, "and after a failed one");
    }
}
