//! Proposals: record, read, decide. Every status change is one conditional update
//! (`… WHERE id = $1 AND status = 'open'`) and one appended event, in one transaction; an
//! update that changed no row changed nothing, and the caller learns the status that stood
//! in the way.

use chrono::{DateTime, Utc};

use crate::model::{
    Apply, Approval, Decision, Event, NewProposal, Person, Proposal, ProposedCall, ProposingClient,
    Status, Verdict, from_millis, to_millis,
};
use crate::sql::{Cell, Conn, Durability, Param, Row};
use crate::{Error, Store, id};

/// The proposal's columns and its proposer (the person of its first event, `open`).
const SELECT: &str = "SELECT p.id, p.company, p.tool, p.command, p.input, p.plan, p.plan_digest, \
     p.concept_digest, p.created_at, p.expires_at, p.status, p.decided_by_subject, \
     p.decided_by_name, p.decided_by_method, p.decided_at, p.decided_digest, p.filing_key, \
     p.result_digest, e.by_subject, e.by_name, e.by_method, p.binding, p.decided_token, \
     p.proposed_via FROM overheid_proposals p LEFT JOIN overheid_proposal_events e \
     ON e.proposal_id = p.id AND e.seq = 1";

impl Store {
    /// Records `new`, or gives back the live (open or approved, unexpired) proposal of the same
    /// company, tool, command and plan digest. The flag says whether it is new. Proposals of
    /// that plan whose time ran out are marked expired first.
    pub fn propose(
        &mut self,
        new: &NewProposal,
        now: DateTime<Utc>,
    ) -> Result<(Proposal, bool), Error> {
        let input = new.call.input.to_string();
        let plan = new.call.plan.to_string();
        // Canonical, so the same binding is the same text (the live-proposal index compares it).
        let binding = new
            .call
            .binding
            .as_ref()
            .map(common::digest::canonical_json);
        let via = new.proposed_via.as_ref().map(ProposingClient::to_env);
        let expires = now + new.ttl;
        let id = id::new_id()?;
        // Not synced: a proposal lost with the machine is safe to lose. It grants nothing
        // until a person approves it, an approval's synced commit makes it durable first (one
        // log, synced up to the approval), and an unknown id is answered as such and proposed
        // again (spec: "Durability").
        self.conn.transaction_with(Durability::Deferred, |conn| {
            let stale = conn.query(
                "SELECT id FROM overheid_proposals WHERE company = $1 AND tool = $2 \
                 AND command = $3 AND plan_digest = $4 AND status IN ('open', 'approved') \
                 AND expires_at <= $5 AND binding IS NOT DISTINCT FROM $6",
                &[
                    Param::Text(&new.call.company),
                    Param::Text(&new.call.tool),
                    Param::Text(&new.call.command),
                    Param::Text(&new.call.plan_digest),
                    Param::Int(to_millis(now)),
                    Param::OptText(binding.as_deref()),
                ],
            )?;
            for row in stale {
                expire(conn, row[0].text()?, now)?;
            }
            let inserted = conn.execute(
                "INSERT INTO overheid_proposals (id, company, tool, command, input, plan, \
                 plan_digest, concept_digest, created_at, expires_at, status, binding, \
                 proposed_via) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', $11, $12) \
                 ON CONFLICT DO NOTHING",
                &[
                    Param::Text(&id),
                    Param::Text(&new.call.company),
                    Param::Text(&new.call.tool),
                    Param::Text(&new.call.command),
                    Param::Text(&input),
                    Param::Text(&plan),
                    Param::Text(&new.call.plan_digest),
                    Param::OptText(new.call.concept_digest.as_deref()),
                    Param::Int(to_millis(now)),
                    Param::Int(to_millis(expires)),
                    Param::OptText(binding.as_deref()),
                    Param::OptText(via.as_deref()),
                ],
            )?;
            if inserted == 1 {
                append_event(
                    conn,
                    &id,
                    now,
                    Status::Open,
                    Some(&new.proposed_by),
                    Some(&new.call.plan_digest),
                )?;
            }
            let rows = conn.query(
                &format!(
                    "{SELECT} WHERE p.company = $1 AND p.tool = $2 AND p.command = $3 \
                     AND p.plan_digest = $4 AND p.status IN ('open', 'approved') \
                     AND p.binding IS NOT DISTINCT FROM $5"
                ),
                &[
                    Param::Text(&new.call.company),
                    Param::Text(&new.call.tool),
                    Param::Text(&new.call.command),
                    Param::Text(&new.call.plan_digest),
                    Param::OptText(binding.as_deref()),
                ],
            )?;
            let row = rows.first().ok_or(Error::NotFound)?;
            Ok((proposal(row, now)?, inserted == 1))
        })
    }

    /// The proposal `id`; with `company`, only if it is that company's (another company's id
    /// reads as unknown). A malformed id is unknown without asking the database.
    pub fn proposal(
        &mut self,
        id: &str,
        company: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Option<Proposal>, Error> {
        if !id::is_well_formed(id) {
            return Ok(None);
        }
        let rows = self
            .conn
            .query(&format!("{SELECT} WHERE p.id = $1"), &[Param::Text(id)])?;
        // Another company's proposal is unknown before any of it is parsed: a damaged record
        // of another company answers as no record at all (no existence oracle).
        match rows.first() {
            Some(row) if company.is_none_or(|c| row[1].text().ok() == Some(c)) => {
                proposal(row, now).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// The proposals of `company` (all companies without one), optionally only those with
    /// `status` as of `now`; newest first.
    pub fn proposals(
        &mut self,
        company: Option<&str>,
        status: Option<Status>,
        now: DateTime<Utc>,
    ) -> Result<Vec<Proposal>, Error> {
        let rows = match company {
            Some(company) => self.conn.query(
                &format!("{SELECT} WHERE p.company = $1 ORDER BY p.created_at DESC, p.id"),
                &[Param::Text(company)],
            )?,
            None => self
                .conn
                .query(&format!("{SELECT} ORDER BY p.created_at DESC, p.id"), &[])?,
        };
        rows.iter()
            .map(|row| proposal(row, now))
            .filter(|p| match (p, status) {
                (Ok(p), Some(status)) => p.status == status,
                _ => true,
            })
            .collect()
    }

    /// A person's decision on the open proposal `id` of `company` (any company without one):
    /// open → approved or declined, recorded with who, when, the digest they saw and their
    /// approval token. A digest other than the plan's is [`Error::DigestMismatch`]; a proposal
    /// no longer open is [`Error::Refused`] with its status (its expiry is recorded then); an
    /// unknown one (or another company's) [`Error::NotFound`].
    pub fn decide(
        &mut self,
        id: &str,
        company: Option<&str>,
        verdict: Verdict<'_>,
        now: DateTime<Utc>,
    ) -> Result<Proposal, Error> {
        let Verdict {
            decision,
            by,
            seen_digest,
            token,
        } = verdict;
        let current = self.proposal(id, company, now)?.ok_or(Error::NotFound)?;
        if current.call.plan_digest != seen_digest {
            return Err(Error::DigestMismatch);
        }
        let to = match decision {
            Decision::Approve => Status::Approved,
            Decision::Decline => Status::Declined,
        };
        self.conn
            .transaction(|conn| {
                let changed = conn.execute(
                    "UPDATE overheid_proposals SET status = $2, decided_by_subject = $3, \
                 decided_by_name = $4, decided_by_method = $5, decided_at = $6, \
                 decided_digest = $7, decided_token = $8 WHERE id = $1 AND status = 'open' \
                 AND expires_at > $6 AND plan_digest = $7",
                    &[
                        Param::Text(id),
                        Param::Text(to.as_str()),
                        Param::Text(&by.subject),
                        Param::Text(&by.name),
                        Param::Text(&by.method),
                        Param::Int(to_millis(now)),
                        Param::Text(seen_digest),
                        Param::OptText(token),
                    ],
                )?;
                if changed == 1 {
                    append_event(conn, id, now, to, Some(by), Some(seen_digest))?;
                    return Ok(());
                }
                Err(Error::Refused(refusal(conn, id, now)?))
            })
            .or_else(|error| match error {
                // The expiry found on the way is recorded, outside the refused transaction.
                Error::Refused(Status::Expired) => {
                    self.conn.transaction(|conn| expire(conn, id, now))?;
                    Err(error)
                }
                other => Err(other),
            })?;
        self.proposal(id, None, now)?.ok_or(Error::NotFound)
    }

    /// Marks the approved proposal filed after its filing happened elsewhere (a backend that
    /// keeps its own idempotency): approved → filed with the filing's key and the digest of
    /// its result (never the result). Already filed under the same key: nothing changes (a
    /// retry). Else [`Error::Refused`] with the status, or [`Error::DigestMismatch`].
    pub fn mark_filed(
        &mut self,
        apply: Apply<'_>,
        filing_key: &str,
        result_digest: &str,
        now: DateTime<Utc>,
    ) -> Result<Proposal, Error> {
        self.conn.transaction(|conn| {
            proposal_filed(conn, apply, filing_key, Some(result_digest), now)
        })?;
        self.proposal(apply.proposal_id, None, now)?
            .ok_or(Error::NotFound)
    }

    /// The history of proposal `id`, oldest first.
    pub fn events(&mut self, id: &str) -> Result<Vec<Event>, Error> {
        let rows = self.conn.query(
            "SELECT seq, at, status, by_subject, by_name, by_method, digest \
             FROM overheid_proposal_events WHERE proposal_id = $1 ORDER BY seq",
            &[Param::Text(id)],
        )?;
        rows.iter()
            .map(|row| {
                Ok(Event {
                    seq: row[0].int()?,
                    at: from_millis(row[1].int()?)?,
                    status: status(&row[2])?,
                    by: person(&row[3], &row[4], &row[5])?,
                    digest: row[6].opt_text()?.map(str::to_string),
                })
            })
            .collect()
    }
}

/// The status that stops a transition of `id` now: filed, declined, expired (also an open or
/// approved one past its time), or the live status it has.
pub(crate) fn refusal(conn: &mut Conn, id: &str, now: DateTime<Utc>) -> Result<Status, Error> {
    let rows = conn.query(
        "SELECT status, expires_at FROM overheid_proposals WHERE id = $1",
        &[Param::Text(id)],
    )?;
    let row = rows.first().ok_or(Error::NotFound)?;
    let stored = status(&row[0])?;
    Ok(if stored.is_live() && row[1].int()? <= to_millis(now) {
        Status::Expired
    } else {
        stored
    })
}

/// Records that the live proposal `id` expired (nothing when it is no longer live).
pub(crate) fn expire(conn: &mut Conn, id: &str, now: DateTime<Utc>) -> Result<(), Error> {
    let changed = conn.execute(
        "UPDATE overheid_proposals SET status = 'expired' \
         WHERE id = $1 AND status IN ('open', 'approved') AND expires_at <= $2",
        &[Param::Text(id), Param::Int(to_millis(now))],
    )?;
    if changed == 1 {
        append_event(conn, id, now, Status::Expired, None, None)?;
    }
    Ok(())
}

/// approved → filed for `apply`, under the filing `key`: one conditional update and its event.
/// A proposal filed under that very key already is left as it is (a retry).
pub(crate) fn proposal_filed(
    conn: &mut Conn,
    apply: Apply<'_>,
    key: &str,
    result_digest: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), Error> {
    let changed = conn.execute(
        "UPDATE overheid_proposals SET status = 'filed', filing_key = $2, result_digest = $3 \
         WHERE id = $1 AND status = 'approved' AND plan_digest = $4 AND decided_digest = $4 \
         AND expires_at > $5",
        &[
            Param::Text(apply.proposal_id),
            Param::Text(key),
            Param::OptText(result_digest),
            Param::Text(apply.plan_digest),
            Param::Int(to_millis(now)),
        ],
    )?;
    if changed == 1 {
        return append_event(conn, apply.proposal_id, now, Status::Filed, None, Some(key));
    }
    let rows = conn.query(
        "SELECT status, filing_key, plan_digest FROM overheid_proposals WHERE id = $1",
        &[Param::Text(apply.proposal_id)],
    )?;
    let row = rows.first().ok_or(Error::NotFound)?;
    let status = refusal(conn, apply.proposal_id, now)?;
    if status == Status::Filed && row[1].opt_text()? == Some(key) {
        return Ok(());
    }
    if status == Status::Approved && row[2].text()? != apply.plan_digest {
        return Err(Error::DigestMismatch);
    }
    Err(Error::Refused(status))
}

/// Appends the next event of proposal `id`. Called only after a conditional update changed
/// its row in the same transaction, so no other writer appends to it meanwhile.
pub(crate) fn append_event(
    conn: &mut Conn,
    id: &str,
    at: DateTime<Utc>,
    to: Status,
    by: Option<&Person>,
    digest: Option<&str>,
) -> Result<(), Error> {
    // The next number and the insert in one statement (one round trip).
    conn.execute(
        "INSERT INTO overheid_proposal_events \
         (proposal_id, seq, at, status, by_subject, by_name, by_method, digest) \
         SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7 \
         FROM overheid_proposal_events WHERE proposal_id = $1",
        &[
            Param::Text(id),
            Param::Int(to_millis(at)),
            Param::Text(to.as_str()),
            Param::OptText(by.map(|p| p.subject.as_str())),
            Param::OptText(by.map(|p| p.name.as_str())),
            Param::OptText(by.map(|p| p.method.as_str())),
            Param::OptText(digest),
        ],
    )?;
    Ok(())
}

fn status(cell: &Cell) -> Result<Status, Error> {
    let name = cell.text()?;
    Status::parse(name).ok_or_else(|| Error::Corrupt(format!("onbekende status {name:?}")))
}

fn person(subject: &Cell, name: &Cell, method: &Cell) -> Result<Option<Person>, Error> {
    Ok(
        match (subject.opt_text()?, name.opt_text()?, method.opt_text()?) {
            (Some(subject), Some(name), Some(method)) => Some(Person {
                subject: subject.into(),
                name: name.into(),
                method: method.into(),
            }),
            _ => None,
        },
    )
}

fn json(cell: &Cell) -> Result<serde_json::Value, Error> {
    serde_json::from_str(cell.text()?).map_err(|_| Error::Corrupt("geen geldige JSON".into()))
}

/// A row of [`SELECT`] as a proposal, with its status as of `now`.
fn proposal(row: &Row, now: DateTime<Utc>) -> Result<Proposal, Error> {
    let expires_at = from_millis(row[9].int()?)?;
    let stored = status(&row[10])?;
    let decision = match (person(&row[11], &row[12], &row[13])?, row[14].opt_int()?) {
        (Some(by), Some(at)) => Some(Approval {
            by,
            at: from_millis(at)?,
            digest: row[15].text()?.to_string(),
            token: row[22].opt_text()?.map(str::to_string),
        }),
        _ => None,
    };
    Ok(Proposal {
        id: row[0].text()?.into(),
        call: ProposedCall {
            company: row[1].text()?.into(),
            tool: row[2].text()?.into(),
            command: row[3].text()?.into(),
            input: json(&row[4])?,
            plan: json(&row[5])?,
            plan_digest: row[6].text()?.into(),
            concept_digest: row[7].opt_text()?.map(str::to_string),
            binding: match row[21].opt_text()? {
                Some(text) => Some(
                    serde_json::from_str(text)
                        .map_err(|_| Error::Corrupt("binding is geen geldige JSON".into()))?,
                ),
                None => None,
            },
        },
        created_at: from_millis(row[8].int()?)?,
        expires_at,
        proposed_by: person(&row[18], &row[19], &row[20])?,
        proposed_via: match row[23].opt_text()? {
            Some(text) => Some(
                ProposingClient::from_env(text)
                    .map_err(|why| Error::Corrupt(format!("proposed_via: {why}")))?,
            ),
            None => None,
        },
        status: if stored.is_live() && expires_at <= now {
            Status::Expired
        } else {
            stored
        },
        decision,
        filing_key: row[16].opt_text()?.map(str::to_string),
        result_digest: row[17].opt_text()?.map(str::to_string),
    })
}
