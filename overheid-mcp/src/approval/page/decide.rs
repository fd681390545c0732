//! A decision on the page: every decision is a fresh login of the person for it alone, and an
//! approval is the access token that login brings (profile §10.3, MUT-20).
//!
//! 1. [`start`]: the POST of the decision form (a session, the origin, a CSRF token sealed for
//!    this proposal, this person and the digest shown). Nothing is decided yet: the decision,
//!    the digest, when it started, and the login's state, nonce and verifier go into a sealed
//!    cookie, and the browser goes to the provider with `prompt=login`, `max_age=0` (and the
//!    operator's `acr`) and, to approve, the proposal's authorization detail and its target.
//! 2. [`finish`]: the provider sends the browser back. The code is exchanged, the ID token
//!    verified (its `nonce`, an `auth_time` not before the decision started: [`exchange_code`]),
//!    the person must act for the proposal's company ([`proposal_of_person`]), and to approve
//!    the access token must verify for the target and carry exactly the proposal's detail
//!    ([`verify_approval`]). Then the store records the decision, with the token
//!    ([`record_decision`]), and the page shows the proposal as decided ([`show_decided`]).
//!
//! A proposal recorded before bindings were kept cannot be approved here (no detail to ask).

use std::time::Duration;

use chrono::Utc;
use common::approval::detail::Detail;
use common::approval::token;
use common::audit::{Decided, DecisionAudit};
use common::{ExitStatus, Problem, codes};
use overheid_records::{Decision, Person as Decider, Proposal, Verdict};
use serde_json::{Value, json};

use super::oidc::{self, Ask, LoggedIn, Person};
use super::{
    Asked, LOGIN_TTL, Page, Reply, cookie, csrf_purpose, failed, field, forbidden, see_other,
};
use crate::approval::request_state::Approval;

/// The cookie of a decision's login in progress.
pub(crate) const COOKIE: &str = "overheid_besluit";
/// The program named in a decision's audit record.
const PROGRAM: &str = "overheid-mcp";
/// What that cookie is sealed for.
const PURPOSE: &str = "besluit";

fn now_seconds() -> i64 {
    Utc::now().timestamp()
}

/// The decision in progress in this request's cookie, when its state is the callback's.
fn pending(approval: &Approval, asked: &Asked<'_>) -> Option<Value> {
    let sealed = cookie(asked.cookie, COOKIE)?;
    let pending: Value = serde_json::from_slice(&approval.open_for(PURPOSE, sealed)?).ok()?;
    let state = field(asked.query.as_bytes(), "state")?;
    (pending["state"].as_str() == Some(state.as_str())).then_some(pending)
}

/// Whether the callback is a decision's login (else the session's).
pub(crate) fn is_decision(approval: &Approval, asked: &Asked<'_>) -> bool {
    pending(approval, asked).is_some()
}

/// The POST of the decision form: check it, then send the person to a fresh login for it.
pub(crate) async fn start(
    page: &Page,
    approval: &Approval,
    person: &Person,
    id: &str,
    asked: &Asked<'_>,
) -> Reply {
    if person.companies.is_empty() {
        return forbidden();
    }
    if asked.origin.is_some_and(|origin| origin != page.origin) {
        return failed(403, "Geweigerd", "Dit formulier kwam niet van deze pagina.");
    }
    let (Some(decision), Some(digest), Some(token)) = (
        field(asked.form, "beslissing"),
        field(asked.form, "digest"),
        field(asked.form, "csrf"),
    ) else {
        return failed(
            400,
            "Geweigerd",
            "Het formulier is onvolledig; er is niets besloten.",
        );
    };
    let shown = approval.open_for(&csrf_purpose(id, &person.sub), &token);
    if shown.as_deref() != Some(digest.as_bytes()) {
        return failed(
            403,
            "Geweigerd",
            "Het formulier is verlopen of niet van deze pagina (CSRF); er is niets besloten. \
             Open het voorstel opnieuw.",
        );
    }
    if !matches!(decision.as_str(), "goedkeuren" | "afwijzen") {
        return failed(
            400,
            "Geweigerd",
            "Onbekende beslissing; er is niets besloten.",
        );
    }
    // The detail to approve comes from the record, never from the form.
    let proposal = match page.proposal_for(person, id).await {
        Ok(proposal) => proposal,
        Err(reply) => return reply,
    };
    if proposal.call.plan_digest != digest {
        return failed(
            409,
            "Plan gewijzigd",
            "Het plan is niet meer het plan dat u zag; er is niets besloten.",
        );
    }
    if proposal.status != overheid_records::Status::Open {
        return failed(
            409,
            "Niet meer open",
            &format!(
                "Over dit voorstel kan niet meer worden besloten (status {}).",
                proposal.status.label()
            ),
        );
    }
    let detail = match (&proposal.call.binding, decision.as_str()) {
        (Some(binding), "goedkeuren") => Some(Detail::of(id, &digest, binding)),
        (None, "goedkeuren") => {
            return failed(
                409,
                "Opnieuw voorstellen",
                "Dit voorstel is opgesteld voordat een goedkeuring aan backend en datum werd \
                 gebonden; het kan niet meer worden goedgekeurd. Laat de agent het opnieuw voorstellen.",
            );
        }
        _ => None,
    };
    let (Ok(state), Ok(nonce), Ok(verifier)) =
        (oidc::random(16), oidc::random(16), oidc::random(32))
    else {
        return failed(500, "Fout", "Er kon geen inlogpoging worden gestart.");
    };
    let ask = Ask {
        fresh: true,
        acr: page.acr.as_deref(),
        detail: detail.as_ref(),
    };
    let url = page
        .provider
        .authorization_url(&state, &nonce, &verifier, &ask);
    let pending = json!({
        "state": state, "nonce": nonce, "verifier": verifier, "id": id,
        "beslissing": decision, "digest": digest, "begonnen": now_seconds(),
    });
    let sealed = approval.seal_for(PURPOSE, pending.to_string().as_bytes(), LOGIN_TTL);
    let mut answer = see_other(&url);
    answer
        .headers
        .push(("set-cookie", page.set_cookie(COOKIE, &sealed, LOGIN_TTL)));
    answer
}

/// The provider sent the browser back from a decision's login: verify it, then decide. Its
/// steps are the module header's; a step that refuses gives the reply, and every reply after
/// the pending decision was found clears its cookie.
pub(crate) async fn finish(
    page: &Page,
    approval: &Approval,
    asked: &Asked<'_>,
    session: Option<&Person>,
) -> Reply {
    let Some(pending) = pending(approval, asked) else {
        return failed(
            400,
            "Inloggen mislukt",
            "De inlogpoging is onbekend of verlopen.",
        );
    };
    let pending = Pending::of(&pending);
    let reply = match decide(page, approval, asked, session, &pending).await {
        Ok(reply) | Err(reply) => reply,
    };
    finished(page, reply)
}

/// The decision in progress, as [`start`] sealed it.
struct Pending {
    id: String,
    digest: String,
    decision: String,
    /// When the decision started (seconds): the login must be later.
    started: i64,
    verifier: String,
    nonce: String,
}

impl Pending {
    fn of(pending: &Value) -> Self {
        let text = |name: &str| pending[name].as_str().unwrap_or_default().to_string();
        Self {
            id: text("id"),
            digest: text("digest"),
            decision: text("beslissing"),
            started: pending["begonnen"].as_i64().unwrap_or(i64::MAX),
            verifier: text("verifier"),
            nonce: text("nonce"),
        }
    }
}

/// The steps of [`finish`] after the pending decision was found.
async fn decide(
    page: &Page,
    approval: &Approval,
    asked: &Asked<'_>,
    session: Option<&Person>,
    pending: &Pending,
) -> Result<Reply, Reply> {
    let logged_in = exchange_code(page, asked, pending)?;
    let person = logged_in.person;
    let proposal = proposal_of_person(page, session, &person, &pending.id).await?;
    let (decision, token) = verify_approval(page, pending, &proposal, logged_in.access_token)?;
    let decided = record_decision(page, pending, &person, &proposal, decision, token).await?;
    Ok(show_decided(
        approval,
        &person,
        &pending.id,
        decision,
        &decided,
    ))
}

/// The code is exchanged and the ID token verified (its `nonce`), and the login is fresh: its
/// `auth_time` not before the decision started.
fn exchange_code(page: &Page, asked: &Asked<'_>, pending: &Pending) -> Result<LoggedIn, Reply> {
    let Some(code) = field(asked.query.as_bytes(), "code") else {
        let why = field(asked.query.as_bytes(), "error").unwrap_or_else(|| "geen code".into());
        return Err(failed(
            400,
            "Niet besloten",
            &format!("De login is niet voltooid ({why}); er is niets besloten."),
        ));
    };
    let provider = &page.provider;
    let claims = &page.claims;
    let logged_in = tokio::task::block_in_place(|| {
        provider.exchange(&code, &pending.verifier, &pending.nonce, claims)
    })
    .map_err(|why| failed(400, "Inloggen mislukt", &why))?;
    let auth_time = logged_in.claims.get("auth_time").and_then(Value::as_i64);
    if let Err(why) = token::fresh(auth_time, pending.started) {
        return Err(failed(
            403,
            "Geen nieuwe login",
            &format!("{why}; er is niets besloten."),
        ));
    }
    Ok(logged_in)
}

/// The person who logged in for the decision must be the one of the session, and act for the
/// proposal's company: the proposal as the store has it for them.
async fn proposal_of_person(
    page: &Page,
    session: Option<&Person>,
    person: &Person,
    id: &str,
) -> Result<Proposal, Reply> {
    if session.is_some_and(|s| s.sub != person.sub) {
        return Err(failed(
            403,
            "Geweigerd",
            "U logde in als iemand anders dan in deze sessie; er is niets besloten.",
        ));
    }
    page.proposal_for(person, id).await
}

/// To approve, the access token must verify for the target and carry exactly the proposal's
/// detail: the decision, with the token an approval records.
fn verify_approval(
    page: &Page,
    pending: &Pending,
    proposal: &Proposal,
    access_token: Option<String>,
) -> Result<(Decision, Option<String>), Reply> {
    if pending.decision != "goedkeuren" {
        return Ok((Decision::Decline, None));
    }
    let Some(binding) = &proposal.call.binding else {
        return Err(forbidden());
    };
    let detail = Detail::of(&pending.id, &pending.digest, binding);
    let Some(access_token) = access_token else {
        return Err(failed(
            403,
            "Geen goedkeuring",
            "De provider gaf geen goedkeuringstoken; er is niets besloten.",
        ));
    };
    let keys = page.provider.keys_for(&access_token);
    if let Err(why) = token::verify(&keys, &access_token, &detail, page.acr.as_deref()) {
        return Err(failed(
            403,
            "Geen goedkeuring",
            &format!("{why}; er is niets besloten."),
        ));
    }
    Ok((Decision::Approve, Some(access_token)))
}

/// The store records the decision, with the token: after the decision's audit record,
/// confirmed (AUDIT-6), and a second record of its span when the store did not record it.
async fn record_decision(
    page: &Page,
    pending: &Pending,
    person: &Person,
    proposal: &Proposal,
    decision: Decision,
    token: Option<String>,
) -> Result<Proposal, Reply> {
    let by = Decider {
        subject: person.sub.clone(),
        name: person.name.clone(),
        method: "oidc".to_string(),
    };
    let company = proposal.call.company.clone();
    // The decision's audit record first, confirmed (AUDIT-6): without it nothing is decided.
    let audit = DecisionAudit::start(PROGRAM, env!("CARGO_PKG_VERSION"));
    let what = Decided {
        decision: if decision == Decision::Approve {
            "goedkeuren"
        } else {
            "afwijzen"
        },
        proposal_id: &pending.id,
        plan_digest: &pending.digest,
        company: &company,
        person: &person.sub,
        method: "oidc",
    };
    if let Err(problem) = tokio::task::block_in_place(|| audit.write(&what, None)) {
        return Err(failed(
            503,
            "Auditlog niet beschikbaar",
            &format!("{}; er is niets besloten.", problem.title),
        ));
    }
    let (owned, seen, owner) = (pending.id.clone(), pending.digest.clone(), company.clone());
    let decided = page
        .store(move |store| {
            let verdict = Verdict {
                decision,
                by: &by,
                seen_digest: &seen,
                token: token.as_deref(),
            };
            store.decide(&owned, Some(&owner), verdict, Utc::now())
        })
        .await;
    decided.map_err(|error| {
        // The record said the decision was made; a second one of its span says it was not.
        let problem = not_decided(&error);
        let _ = tokio::task::block_in_place(|| audit.write(&what, Some(&problem)));
        refused(error)
    })
}

/// The page shows the proposal as decided.
fn show_decided(
    approval: &Approval,
    person: &Person,
    id: &str,
    decision: Decision,
    proposal: &Proposal,
) -> Reply {
    let done = match decision {
        Decision::Approve => {
            "U hebt het voorstel goedgekeurd met uw login. Een agent kan het nu indienen met het id van het voorstel."
        }
        Decision::Decline => "U hebt het voorstel afgewezen. Het wordt nooit ingediend.",
    };
    super::reply(
        200,
        &format!("Voorstel {id}"),
        &super::render::proposal(approval, person, proposal, Some(done)),
    )
}

/// Why the store did not record a decision, as the page says it.
fn refused(error: overheid_records::Error) -> Reply {
    match error {
        overheid_records::Error::NotFound => forbidden(),
        overheid_records::Error::DigestMismatch => failed(
            409,
            "Plan gewijzigd",
            "Het plan is niet meer het plan dat u zag; er is niets besloten.",
        ),
        overheid_records::Error::Refused(status) => failed(
            409,
            "Niet meer open",
            &format!(
                "Over dit voorstel kan niet meer worden besloten (status {}).",
                status.label()
            ),
        ),
        e => failed(503, "Opslag niet bereikbaar", &e.to_string()),
    }
}

/// Why the store did not record a decision, as the audit record's error (exit and code).
fn not_decided(error: &overheid_records::Error) -> Problem {
    use overheid_records::Error;
    let detail = error.to_string();
    let (exit, code, title) = match error {
        Error::NotFound => (
            ExitStatus::NotFound,
            codes::VOORSTEL_ONBEKEND,
            "Onbekend voorstel",
        ),
        Error::DigestMismatch => (
            ExitStatus::PlanStale,
            codes::VOORSTEL_GEWIJZIGD,
            "Plan komt niet overeen met het voorstel",
        ),
        Error::Refused(_) => (
            ExitStatus::DataErr,
            codes::VOORSTEL_AL_GOEDGEKEURD,
            "Niet meer open",
        ),
        Error::Unreachable(_) | Error::Busy => (
            ExitStatus::Unavailable,
            codes::OPSLAG_ONBEREIKBAAR,
            "Opslag niet bereikbaar",
        ),
        _ => (
            ExitStatus::IoErr,
            codes::OPSLAG_FOUT,
            "Opslag niet te gebruiken",
        ),
    };
    Problem::new(exit, code, title, detail)
}

/// `reply` with the decision's cookie cleared: a login is used once.
fn finished(page: &Page, mut reply: Reply) -> Reply {
    reply
        .headers
        .push(("set-cookie", page.set_cookie(COOKIE, "", Duration::ZERO)));
    reply
}
