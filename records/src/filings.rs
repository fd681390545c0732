//! Filings, exactly once: a unique key on the idempotency key, and (for an applied proposal)
//! the conditional change approved → filed, in one transaction.
//!
//! [`Store::begin_filing`] is the first phase: in a write transaction it inserts the filing
//! (`ON CONFLICT DO NOTHING`: a key filed before, or being filed by a concurrent writer, gives
//! the first filing back once that writer commits) and moves the proposal. The transaction
//! stays open in the returned [`PendingFiling`] until [`PendingFiling::commit`]: in between
//! the caller makes durable what must exist before the filing does (the CLI: its audit
//! record). Dropping it, or the process dying, rolls everything back: nothing was filed.

use chrono::{DateTime, Utc};

use crate::model::{Apply, Filing, from_millis, to_millis};
use crate::proposals::proposal_filed;
use crate::sql::{Conn, Param, Row};
use crate::{Error, Store};

const COLUMNS: &str = "idempotency_key, reference, company, tool, request_sha256, request, \
     result, filed_at, proposal_id";

/// A stored filing that cannot be read: its key and what is wrong (never its values).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damaged {
    pub key: String,
    pub detail: String,
}

/// The first phase of a filing.
#[must_use = "a pending filing files nothing until it is committed"]
pub enum Begun {
    /// The key was filed before: that filing (the caller compares its `request_sha256`).
    /// When applying a proposal still approved, it is now marked filed under that key.
    Filed(Filing, Store),
    /// A new filing, written but not committed.
    Pending(PendingFiling),
}

/// A filing inside an open transaction, waiting to be committed.
#[must_use = "a pending filing files nothing until it is committed"]
pub struct PendingFiling {
    store: Store,
    filing: Filing,
}

impl PendingFiling {
    /// The filing as it will be once committed.
    pub fn filing(&self) -> &Filing {
        &self.filing
    }

    /// Commits: the filing (and the proposal's change to filed) become visible together.
    /// Dropping a pending filing instead closes its connection, which rolls it back.
    pub fn commit(mut self) -> Result<Store, Error> {
        self.store.conn.commit()?;
        Ok(self.store)
    }
}

impl Store {
    /// The filing under `key`, if any. A committed filing never changes, so a caller may look
    /// here before any check whose outcome can change between a filing and its retry.
    pub fn filing(&mut self, key: &str) -> Result<Option<Filing>, Error> {
        let rows = self.conn.query(
            &format!("SELECT {COLUMNS} FROM overheid_filings WHERE idempotency_key = $1"),
            &[Param::Text(key)],
        )?;
        rows.first().map(filing).transpose()
    }

    /// The filing with `reference`; with `company`, only if it is that company's. Another
    /// company's filing reads as unknown before any of it is parsed, so a damaged record of
    /// another company answers as no record at all (no existence oracle).
    pub fn filing_by_reference(
        &mut self,
        reference: &str,
        company: Option<&str>,
    ) -> Result<Option<Filing>, Error> {
        let rows = self.conn.query(
            &format!("SELECT {COLUMNS} FROM overheid_filings WHERE reference = $1"),
            &[Param::Text(reference)],
        )?;
        match rows.first() {
            Some(row) if company.is_none_or(|c| row[2].text().ok() == Some(c)) => {
                filing(row).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// The company of the filing with `reference`, if there is one and its company is readable:
    /// what an audit record names as the data subject before deciding whether to show it.
    pub fn filing_company(&mut self, reference: &str) -> Result<Option<String>, Error> {
        let rows = self.conn.query(
            "SELECT company FROM overheid_filings WHERE reference = $1",
            &[Param::Text(reference)],
        )?;
        Ok(rows
            .first()
            .and_then(|row| row[0].text().ok().map(str::to_string)))
    }

    /// The filings of `company` (all without one), oldest first, and the keys of the records
    /// that cannot be read, each with what is wrong (they are left out, the rest stays
    /// readable).
    pub fn filings(&mut self, company: Option<&str>) -> Result<(Vec<Filing>, Vec<Damaged>), Error> {
        let rows = match company {
            Some(company) => self.conn.query(
                &format!(
                    "SELECT {COLUMNS} FROM overheid_filings WHERE company = $1 \
                     ORDER BY filed_at, reference"
                ),
                &[Param::Text(company)],
            )?,
            None => self.conn.query(
                &format!("SELECT {COLUMNS} FROM overheid_filings ORDER BY filed_at, reference"),
                &[],
            )?,
        };
        let mut sound = Vec::with_capacity(rows.len());
        let mut damaged = Vec::new();
        for row in &rows {
            match parse(row) {
                Ok(filing) => sound.push(filing),
                Err(error) => damaged.push(Damaged {
                    key: row[0].text().unwrap_or("?").to_string(),
                    detail: match error {
                        Error::Corrupt(detail) => detail,
                        other => other.to_string(),
                    },
                }),
            }
        }
        Ok((sound, damaged))
    }

    /// The first phase of filing: `make` builds the new filing (called again, for a new
    /// reference number, when its reference is taken). With `apply`, the proposal must be
    /// approved for that plan digest and unexpired; it becomes filed in the same transaction,
    /// else [`Error::Refused`] with its status (or [`Error::DigestMismatch`]) and nothing is
    /// written. A key filed before gives that filing back ([`Begun::Filed`]).
    pub fn begin_filing(
        mut self,
        apply: Option<Apply<'_>>,
        now: DateTime<Utc>,
        mut make: impl FnMut() -> Result<Filing, Error>,
    ) -> Result<Begun, Error> {
        self.conn.begin()?;
        match begin(&mut self.conn, apply, now, &mut make) {
            Ok(Outcome::New(filing)) => Ok(Begun::Pending(PendingFiling {
                store: self,
                filing,
            })),
            Ok(Outcome::Existing(filing)) => {
                // Commits what `begin` did for the proposal, if anything.
                self.conn.commit()?;
                Ok(Begun::Filed(filing, self))
            }
            Err(error) => {
                self.conn.rollback();
                Err(error)
            }
        }
    }
}

enum Outcome {
    New(Filing),
    Existing(Filing),
}

/// The most reference numbers tried for one filing (a collision is already unlikely once).
const REFERENCE_TRIES: usize = 8;

fn begin(
    conn: &mut Conn,
    apply: Option<Apply<'_>>,
    now: DateTime<Utc>,
    make: &mut dyn FnMut() -> Result<Filing, Error>,
) -> Result<Outcome, Error> {
    for _ in 0..REFERENCE_TRIES {
        let new = make()?;
        let request = new.request.to_string();
        let result = new.result.to_string();
        // Inserted unless the key was filed (or is being filed) before, or the reference is
        // another filing's: one statement for both checks.
        let inserted = conn.execute(
            "INSERT INTO overheid_filings (idempotency_key, reference, company, tool, \
             request_sha256, request, result, filed_at, proposal_id) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 WHERE NOT EXISTS \
             (SELECT 1 FROM overheid_filings WHERE reference = $2 AND idempotency_key <> $1) \
             ON CONFLICT (idempotency_key) DO NOTHING",
            &[
                Param::Text(&new.key),
                Param::Text(&new.reference),
                Param::Text(&new.company),
                Param::Text(&new.tool),
                Param::Text(&new.request_sha256),
                Param::Text(&request),
                Param::Text(&result),
                Param::Int(to_millis(new.filed_at)),
                Param::OptText(apply.map(|a| a.proposal_id)),
            ],
        )?;
        if inserted == 0 {
            let rows = conn.query(
                &format!("SELECT {COLUMNS} FROM overheid_filings WHERE idempotency_key = $1"),
                &[Param::Text(&new.key)],
            )?;
            // No filing under the key: the reference was taken; another one is made.
            let Some(row) = rows.first() else {
                continue;
            };
            let existing = filing(row)?;
            if let Some(apply) = apply {
                let digest = existing.result_digest();
                proposal_filed(conn, apply, &existing.key, Some(&digest), now)?;
            }
            return Ok(Outcome::Existing(existing));
        }
        if let Some(apply) = apply {
            proposal_filed(conn, apply, &new.key, Some(&new.result_digest()), now)?;
        }
        return Ok(Outcome::New(Filing {
            proposal_id: apply.map(|a| a.proposal_id.to_string()),
            ..new
        }));
    }
    Err(Error::Database(
        "geen vrij referentienummer gevonden".into(),
    ))
}

/// A row of [`COLUMNS`] as a filing; a damaged one is [`Error::Corrupt`] naming its key.
fn filing(row: &Row) -> Result<Filing, Error> {
    parse(row).map_err(|error| match error {
        Error::Corrupt(detail) => {
            Error::Corrupt(format!("filing {}: {detail}", row[0].text().unwrap_or("?")))
        }
        other => other,
    })
}

fn parse(row: &Row) -> Result<Filing, Error> {
    let json = |index: usize| -> Result<serde_json::Value, Error> {
        serde_json::from_str(row[index].text()?)
            .map_err(|_| Error::Corrupt("geen geldige JSON in een filing".into()))
    };
    Ok(Filing {
        key: row[0].text()?.into(),
        reference: row[1].text()?.into(),
        company: row[2].text()?.into(),
        tool: row[3].text()?.into(),
        request_sha256: row[4].text()?.into(),
        request: json(5)?,
        result: json(6)?,
        filed_at: from_millis(row[7].int()?)?,
        proposal_id: row[8].opt_text()?.map(str::to_string),
    })
}
