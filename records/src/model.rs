//! The records: proposals with their approval and history, and filings.
//!
//! A proposal holds the input a person is asked to approve and digests, never a provider's
//! answer: an approval record must not become a store of personal data. A filing holds the
//! request and its result, keyed by the idempotency key (the plan digest); a filing applied
//! through a proposal names it, and the proposal names the filing's key.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;
use serde_json::Value;

/// How long a proposal waits for a person by default: 7 days.
pub const DEFAULT_TTL: Duration = Duration::days(7);

/// Where a proposal is in its life: open → approved | declined | expired; approved → filed
/// (or expired).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Recorded, waiting for a person.
    Open,
    /// A person approved it; it may be applied once.
    Approved,
    /// A person declined it; it is never applied.
    Declined,
    /// Its time ran out before it was applied.
    Expired,
    /// It was applied: the filing exists.
    Filed,
}

impl Status {
    /// Every status, in the order of a proposal's life.
    pub const ALL: [Status; 5] = [
        Status::Open,
        Status::Approved,
        Status::Declined,
        Status::Expired,
        Status::Filed,
    ];

    /// The name as stored and printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Approved => "approved",
            Status::Declined => "declined",
            Status::Expired => "expired",
            Status::Filed => "filed",
        }
    }

    /// The status with this name.
    pub fn parse(name: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == name)
    }

    /// The name as people read it, in Dutch: what the tools print (the store keeps
    /// [`Status::as_str`]).
    pub fn label(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Approved => "goedgekeurd",
            Status::Declined => "afgewezen",
            Status::Expired => "verlopen",
            Status::Filed => "ingediend",
        }
    }

    /// The status with this Dutch name ([`Status::label`]).
    pub fn from_label(label: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.label() == label)
    }

    /// Whether a proposal in this status can still change by the passing of time.
    pub fn is_live(self) -> bool {
        matches!(self, Status::Open | Status::Approved)
    }
}

/// Who proposed or decided: the person's subject and name from their login, or at a terminal
/// the operating-system user, and how they were identified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Person {
    /// A stable identifier: the login's `sub`, or `unix:<uid>@<host>` for the operating-system
    /// user.
    pub subject: String,
    /// The name shown to people.
    pub name: String,
    /// How the person was identified. Deciding: `terminal` (typed the digest) or `oidc`
    /// (logged in). Proposing: `unix` (the operating-system user running the CLI) or `caller`
    /// (the person the calling party named: over MCP the session's subject).
    pub method: String,
}

/// The program a proposal came through, as the calling party declared it: over MCP the client's
/// own `clientInfo` and the OAuth client of its access token, passed by the bridge in
/// `OVERHEID_FOREIGN_CLIENT`. Shown to the person who decides, labelled as not verified: the
/// proposer's process (or anyone who writes the store) can say anything here, so it grants
/// nothing and only helps the person recognise the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProposingClient {
    /// The MCP client as it named itself: `clientInfo.name`, a space and its `version`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcp_client: Option<String>,
    /// The `client_id` (or `azp`) of the access token the call came with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oauth_client: Option<String>,
}

impl ProposingClient {
    /// The most characters a member keeps.
    pub const MAX_CHARS: usize = 100;

    /// A client from what the caller declared: each member trimmed, cut to [`Self::MAX_CHARS`]
    /// and without control characters; `None` when nothing is left.
    pub fn declared(mcp_client: Option<&str>, oauth_client: Option<&str>) -> Option<Self> {
        fn clean(text: Option<&str>) -> Option<String> {
            let kept: String = text?
                .chars()
                .filter(|c| !c.is_control())
                .take(ProposingClient::MAX_CHARS)
                .collect();
            let kept = kept.trim();
            (!kept.is_empty()).then(|| kept.to_string())
        }
        let client = Self {
            mcp_client: clean(mcp_client),
            oauth_client: clean(oauth_client),
        };
        (client.mcp_client.is_some() || client.oauth_client.is_some()).then_some(client)
    }

    /// The client as `OVERHEID_FOREIGN_CLIENT` carries it: compact JSON.
    pub fn to_env(&self) -> String {
        serde_json::to_string(self).expect("two optional texts serialize")
    }

    /// The client `OVERHEID_FOREIGN_CLIENT` names. `Err` says what is wrong with a value that is
    /// not the JSON [`Self::to_env`] writes, or whose members break [`Self::declared`]'s bounds.
    pub fn from_env(text: &str) -> Result<Self, String> {
        let client: Self = serde_json::from_str(text)
            .map_err(|e| format!("geen JSON-object met mcp_client en/of oauth_client ({e})"))?;
        let declared = Self::declared(client.mcp_client.as_deref(), client.oauth_client.as_deref());
        match declared {
            Some(clean) if clean == client => Ok(client),
            Some(_) => Err(format!(
                "een lid is langer dan {} tekens, heeft witruimte aan een rand of een stuurteken",
                Self::MAX_CHARS
            )),
            None => Err("noemt geen client".to_string()),
        }
    }
}

/// A person's decision on an open proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// open → approved.
    Approve,
    /// open → declined.
    Decline,
}

/// The approval (or refusal) of a proposal: who, when, the digest they saw and, when their
/// login produced one, their approval token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Approval {
    pub by: Person,
    pub at: DateTime<Utc>,
    /// The plan digest shown to the person.
    pub digest: String,
    /// The person's approval token: an access token of their login at the identity provider,
    /// bound to this proposal (RFC 9396 authorization details). A bearer credential: kept with
    /// the decision to be sent with the filing, never serialised, printed or logged.
    #[serde(skip)]
    pub token: Option<String>,
}

/// A person's decision as the store records it.
#[derive(Debug, Clone, Copy)]
pub struct Verdict<'a> {
    pub decision: Decision,
    /// Who decided, and how they were identified.
    pub by: &'a Person,
    /// The plan digest the person saw; it must be the proposal's.
    pub seen_digest: &'a str,
    /// The approval token of the person's login, when there was one (see [`Approval::token`]).
    pub token: Option<&'a str>,
}

/// What a proposal proposes: the call that applies it and the plan a person decides on. A
/// [`NewProposal`] records it and a [`Proposal`] reads it back, its members in the proposal's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProposedCall {
    /// The company (KvK number) the proposal is for.
    pub company: String,
    /// The tool that applies it, e.g. `rvo-cli`.
    pub tool: String,
    /// The command that applies it, e.g. `rapportage indienen`.
    pub command: String,
    /// The normalised input: everything needed to run the command again.
    pub input: Value,
    /// The plan (dry run) as the person will see it.
    pub plan: Value,
    /// The plan's digest.
    pub plan_digest: String,
    /// The concept's digest, when the input is a concept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concept_digest: Option<String>,
    /// What an approval is bound to besides the plan: the members of the authorization detail
    /// a person's approval token must carry (RFC 9396), but its `type`, the proposal's id and
    /// the plan digest. For rvo-cli: the company, the scheme, the backend (its base URL, or
    /// `lokaal`) and the peildatum. The same plan with another binding is another proposal.
    /// Absent in proposals recorded before it was kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binding: Option<Value>,
}

/// A proposal to record.
#[derive(Debug, Clone)]
pub struct NewProposal {
    /// What it proposes.
    pub call: ProposedCall,
    /// How long it waits for a person ([`DEFAULT_TTL`]).
    pub ttl: Duration,
    /// Who proposed it: the operating-system user at the CLI, or the person the caller named
    /// (over MCP the session's subject). Recorded with the proposal's first event.
    pub proposed_by: Person,
    /// The program it came through, as declared ([`ProposingClient`]).
    pub proposed_via: Option<ProposingClient>,
}

/// A recorded proposal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proposal {
    /// Unguessable id (`vs_` and 32 base32 characters: 160 random bits).
    pub id: String,
    /// What it proposes; its members stand in the proposal's.
    #[serde(flatten)]
    pub call: ProposedCall,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// Who proposed it (absent in proposals recorded before this was kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposed_by: Option<Person>,
    /// The program it came through, as declared (absent when nothing was declared, and in
    /// proposals recorded before this was kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposed_via: Option<ProposingClient>,
    /// The status as of the moment it was read: a live proposal past its expiry reads as
    /// `expired` even before that change is recorded.
    pub status: Status,
    /// The decision, once a person made one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Approval>,
    /// The idempotency key of the filing that applied it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filing_key: Option<String>,
    /// SHA-256 of the filing's result (never the result itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_digest: Option<String>,
}

/// One status change of a proposal, appended and never changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    /// 1, 2, 3, … per proposal.
    pub seq: i64,
    pub at: DateTime<Utc>,
    /// The status it changed to.
    pub status: Status,
    /// Who made the change, when a person did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<Person>,
    /// The digest involved: the plan digest approved or declined, the filing key when filed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// A filing, to record or as recorded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Filing {
    /// The idempotency key (the plan digest); unique in the store.
    pub key: String,
    /// The filing's reference number; unique in the store.
    pub reference: String,
    pub company: String,
    pub tool: String,
    /// SHA-256 of the canonical request, to tell a key reused for another request.
    pub request_sha256: String,
    /// The request as filed.
    pub request: Value,
    /// The result returned at the first filing.
    pub result: Value,
    pub filed_at: DateTime<Utc>,
    /// The proposal it applied, if any (set by [`crate::Store::begin_filing`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposal_id: Option<String>,
}

impl Filing {
    /// SHA-256 of the canonical JSON of the result as first returned: what a proposal keeps of
    /// it (never the result itself).
    pub fn result_digest(&self) -> String {
        common::digest::canonical_sha256(&self.result)
    }
}

/// Applying an approved proposal: which one, and the plan digest the plan has now (it must be
/// the approved one).
#[derive(Debug, Clone, Copy)]
pub struct Apply<'a> {
    pub proposal_id: &'a str,
    pub plan_digest: &'a str,
}

/// Milliseconds since the epoch, as stored.
pub(crate) fn to_millis(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

/// The instant of stored milliseconds.
pub(crate) fn from_millis(millis: i64) -> Result<DateTime<Utc>, crate::Error> {
    DateTime::from_timestamp_millis(millis)
        .ok_or_else(|| crate::Error::Corrupt(format!("tijdstip {millis} buiten bereik")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A proposal is written as before [`ProposedCall`] took its members: one flat object, in
    /// the same order.
    #[test]
    fn a_proposal_keeps_its_members_flat_and_in_order() {
        let at = DateTime::from_timestamp_millis(1_796_036_400_000).unwrap();
        let proposal = Proposal {
            id: "vs_x".into(),
            call: ProposedCall {
                company: "68750110".into(),
                tool: "rvo-cli".into(),
                command: "rapportage indienen".into(),
                input: json!({"maatregelen": ["LED"]}),
                plan: json!({"plan_digest": "ab"}),
                plan_digest: "ab".into(),
                concept_digest: Some("ef".into()),
                binding: None,
            },
            created_at: at,
            expires_at: at,
            proposed_by: None,
            proposed_via: None,
            status: Status::Open,
            decision: None,
            filing_key: None,
            result_digest: Some("cd".into()),
        };
        assert_eq!(
            serde_json::to_string(&proposal).unwrap(),
            r#"{"id":"vs_x","company":"68750110","tool":"rvo-cli","command":"rapportage indienen","input":{"maatregelen":["LED"]},"plan":{"plan_digest":"ab"},"plan_digest":"ab","concept_digest":"ef","created_at":"2026-11-30T11:00:00Z","expires_at":"2026-11-30T11:00:00Z","status":"open","result_digest":"cd"}"#
        );
    }

    /// What a caller declares is cleaned at the bridge (control characters out, cut, trimmed)
    /// and checked again where the CLI reads it: only the bridge's own form passes.
    #[test]
    fn a_declared_client_is_bounded_and_only_its_clean_form_is_read() {
        let long = "x".repeat(300);
        let client =
            ProposingClient::declared(Some(" claude\u{1b}[31m-code 2.1\n"), Some(&long)).unwrap();
        assert_eq!(client.mcp_client.as_deref(), Some("claude[31m-code 2.1"));
        assert_eq!(client.oauth_client.as_ref().unwrap().chars().count(), 100);
        assert_eq!(ProposingClient::from_env(&client.to_env()), Ok(client));
        assert_eq!(ProposingClient::declared(Some("  "), None), None);
        for bad in [
            r#"{"mcp_client":"a\u001b"}"#,
            &format!(r#"{{"oauth_client":"{long}"}}"#),
            r#"{"mcp_client":" a"}"#,
            r#"{}"#,
            r#"{"mcp_client":"a","naam":"b"}"#,
            "claude-code",
        ] {
            assert!(ProposingClient::from_env(bad).is_err(), "{bad}");
        }
    }
}
