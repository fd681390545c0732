//! The store of proposals (`overheid-records`) as this tool uses it: opened from the declared
//! environment, its errors as profile problems, a proposal as it is printed, and the person at
//! the terminal.

use common::{Context, ExitStatus, Outcome, Passed, Problem, Result, codes};
use overheid_records::{Error, Location, Proposal, Status, Store};
use serde_json::{Value, json};

/// The command a proposal of this tool applies.
pub(crate) const APPLY_COMMAND: &str = "rapportage indienen";

/// Where the store is: `OVERHEID_STORE_URL` or the data directory.
pub(crate) fn location(ctx: &Context<'_>) -> Result<Location> {
    Ok(Location::from_env(|name| ctx.env(name).map(str::to_string)).map_err(problem)?)
}

/// The store from `OVERHEID_STORE_URL` or the data directory; every wait ends by the deadline.
pub(crate) fn open(ctx: &Context<'_>) -> Result<Store> {
    Ok(Store::open(&location(ctx)?, Some(ctx.deadline())).map_err(problem)?)
}

/// Checks that `id` (argument `field`) has the form of a proposal id (exit 65 otherwise), before
/// anything else is looked at.
pub(crate) fn check_id(id: &str, field: &str) -> Result<()> {
    let mut validation = common::validate::Validation::new();
    validation.check(overheid_records::is_proposal_id(id), field, || {
        format!("{id:?} is geen voorstel-id (vs_ en 32 tekens a-z, 2-7)")
    });
    Ok(validation.finish()?)
}

/// Proposal `id` of this tool and of the session's company (another company's, or another
/// tool's, reads as unknown), with the store it came from; names its company as data subject.
pub(crate) fn find(ctx: &mut Context<'_>, id: &str) -> Result<(Store, Proposal)> {
    let company = common::session::session_number(ctx)?;
    let mut store = open(ctx)?;
    let proposal = store
        .proposal(id, company.as_deref(), crate::cli::clock::now())
        .map_err(problem)?
        .filter(|p| p.call.tool == ctx.tool.name)
        .ok_or_else(|| unknown(id))?;
    ctx.subject(&proposal.call.company, "KVK_NUMMER");
    Ok((store, proposal))
}

/// The answer for an unknown proposal id, and for another company's (no oracle).
pub(crate) fn unknown(id: &str) -> Problem {
    Problem::new(
        ExitStatus::NotFound,
        codes::VOORSTEL_ONBEKEND,
        "Onbekend voorstel",
        format!("er is geen voorstel {id}"),
    )
    .with_hint("rvo-cli voorstel lijst toont de voorstellen van het bedrijf van deze sessie")
}

/// Why a proposal in `status` cannot take the step asked for.
pub(crate) fn refused(id: &str, status: Status) -> Problem {
    let (exit, code, title, detail) = match status {
        Status::Open => (
            ExitStatus::ConfirmationRequired,
            codes::VOORSTEL_NIET_GOEDGEKEURD,
            "Voorstel nog niet goedgekeurd",
            format!("voorstel {id} wacht op goedkeuring door een persoon; er is niets ingediend"),
        ),
        Status::Approved => (
            ExitStatus::DataErr,
            codes::VOORSTEL_AL_GOEDGEKEURD,
            "Voorstel al goedgekeurd",
            format!("voorstel {id} is al goedgekeurd"),
        ),
        Status::Declined => (
            ExitStatus::DataErr,
            codes::VOORSTEL_AFGEWEZEN,
            "Voorstel afgewezen",
            format!("voorstel {id} is afgewezen en wordt nooit ingediend"),
        ),
        Status::Expired => (
            ExitStatus::DataErr,
            codes::VOORSTEL_VERLOPEN,
            "Voorstel verlopen",
            format!("voorstel {id} is verlopen; er is niets ingediend"),
        ),
        Status::Filed => (
            ExitStatus::DataErr,
            codes::VOORSTEL_INGEDIEND,
            "Voorstel al ingediend",
            format!("voorstel {id} is al ingediend"),
        ),
    };
    let problem = Problem::new(exit, code, title, detail);
    match status {
        Status::Open => problem.with_hint(format!(
            "laat een persoon het goedkeuren (rvo-cli voorstel goedkeuren {id}, of de goedkeuringspagina) en herhaal dan"
        )),
        Status::Declined | Status::Expired => {
            problem.with_hint("stel zo nodig een nieuw voorstel op met rvo-cli rapportage voorstel")
        }
        _ => problem,
    }
}

/// A store error as a profile problem: unsafe directory or bad URL 78, unreachable 69, busy
/// past the deadline 124, file-system or database trouble 74.
pub(crate) fn problem(error: Error) -> Problem {
    let detail = error.to_string();
    match error {
        Error::Config(_) => Problem::config(detail).with_hint(
            "zet RVO_DATA_DIR (of XDG_DATA_HOME of HOME), of OVERHEID_STORE_URL=postgres://…",
        ),
        Error::Unsafe { .. } => Problem::config(detail).with_hint(
            "de opslag moet van uzelf zijn en door niemand anders beschreven kunnen worden",
        ),
        Error::Unreachable(_) => Problem::new(
            ExitStatus::Unavailable,
            codes::OPSLAG_ONBEREIKBAAR,
            "Opslag niet bereikbaar",
            format!("{detail}; er is niets gedaan"),
        )
        .with_hint("controleer OVERHEID_STORE_URL en of de database draait; herhaal daarna"),
        Error::Busy => Problem::timeout(detail)
            .with_hint("herhaal dezelfde opdracht (dat doet niets dubbel) of geef meer --timeout"),
        Error::Io { .. } | Error::Database(_) => Problem::new(
            ExitStatus::IoErr,
            codes::OPSLAG_FOUT,
            "Opslag niet te gebruiken",
            detail,
        ),
        Error::Corrupt(_) => Problem::new(
            ExitStatus::IoErr,
            codes::OPSLAG_BESCHADIGD,
            "Record in de opslag is beschadigd",
            detail,
        ),
        Error::NotFound => Problem::new(
            ExitStatus::NotFound,
            codes::VOORSTEL_ONBEKEND,
            "Onbekend voorstel",
            detail,
        ),
        Error::Refused(status) => refused("", status),
        Error::DigestMismatch => Problem::new(
            ExitStatus::PlanStale,
            codes::VOORSTEL_GEWIJZIGD,
            "Plan komt niet overeen met het voorstel",
            detail,
        ),
        Error::Random(_) => Problem::software(detail),
    }
}

/// A proposal as this tool prints it.
pub(crate) fn to_json(ctx: &Context<'_>, proposal: &Proposal) -> Value {
    let mut out = json!({
        "id": proposal.id,
        "status": proposal.status.label(),
        "kvk_nummer": proposal.call.company,
        "opdracht": format!("{} {}", proposal.call.tool, proposal.call.command),
        "plan_digest": proposal.call.plan_digest,
        "aangemaakt_op": proposal.created_at,
        "verloopt_op": proposal.expires_at,
    });
    if let Some(digest) = &proposal.call.concept_digest {
        out["concept_digest"] = digest.clone().into();
    }
    if let Some(binding) = &proposal.call.binding {
        for member in ["backend", "peildatum"] {
            if let Some(value) = binding.get(member) {
                out[member] = value.clone();
            }
        }
    }
    if let Some(detail) = crate::cli::approval::detail_of(proposal) {
        // What a person's login approves (RFC 9396), as the provider will show it.
        out["authorization_details"] =
            serde_json::from_str(&detail.request_parameter()).unwrap_or(Value::Null);
    }
    if let Some(by) = &proposal.proposed_by {
        out["voorgesteld_door"] = person_json(by);
        if let Some(via) = &proposal.proposed_via {
            // As declared by the caller, not verified (spec §10, "Who proposed").
            out["voorgesteld_door"]["via"] = json!(via);
        }
    }
    if let Some(decision) = &proposal.decision {
        out["beslissing"] = json!({
            "door": person_json(&decision.by),
            "op": decision.at,
            "digest": decision.digest,
            "met_login": decision.token.is_some(),
        });
        if decision.by.method == "terminal" {
            out["beslissing"]["let_op"] = crate::cli::approval::NOT_A_LOGIN.into();
        }
    }
    if let Some(key) = &proposal.filing_key {
        out["idempotentiesleutel"] = key.clone().into();
    }
    if proposal.status == Status::Open {
        let (page, command) = crate::cli::approval::where_to_approve(ctx, &proposal.id);
        if let Some(url) = page {
            out["goedkeuring_url"] = url.into();
        }
        out["goedkeuren"] = command.into();
    }
    if proposal.status == Status::Approved {
        out["indienen"] = format!("rvo-cli rapportage indienen --voorstel {}", proposal.id).into();
    }
    out["plan"] = proposal.call.plan.clone();
    out
}

/// A proposal as a person reads it at a terminal: what will be filed, for whom, where to and
/// on which date, the measures and other values of the plan one per line (never raw JSON),
/// who proposed it and until when it waits (times in Europe/Amsterdam).
pub(crate) fn readable(proposal: &Proposal) -> String {
    let plan = &proposal.call.plan;
    let mut text = String::new();
    if let Some(effect) = plan["effect"].as_str() {
        text.push_str(&format!("{effect}\n\n"));
    }
    let binding = proposal.call.binding.clone().unwrap_or(Value::Null);
    let scheme = plan["arguments"]["regeling_id"]
        .as_str()
        .unwrap_or_default();
    let scheme_name = rvo_cli::catalogue::Catalogue::embedded()
        .get(scheme)
        .map(|r| format!(" ({})", r.naam))
        .unwrap_or_default();
    text.push_str(&format!(
        "Bedrijf (KvK-nummer): {}\n",
        proposal.call.company
    ));
    text.push_str(&format!("Regeling: {scheme}{scheme_name}\n"));
    let target = binding["backend"]
        .as_str()
        .or(plan["backend"].as_str())
        .unwrap_or("lokaal");
    text.push_str(&format!(
        "Naar: {}\n",
        if target == "lokaal" {
            "de lokale proefopslag (er gaat niets naar RVO)".to_string()
        } else {
            target.to_string()
        }
    ));
    if let Some(date) = binding["peildatum"].as_str().or(plan["peildatum"].as_str()) {
        text.push_str(&format!("Peildatum: {date}\n"));
    }
    for (key, value) in plan["arguments"].as_object().into_iter().flatten() {
        if matches!(key.as_str(), "kvk_nummer" | "regeling_id") {
            continue;
        }
        text.push_str(&lines(&label(key), value, 0));
    }
    if let Some(by) = &proposal.proposed_by {
        text.push_str(&format!("Voorgesteld door: {} ({})\n", by.name, by.method));
    }
    if let Some(via) = &proposal.proposed_via {
        let named: Vec<String> = [
            via.mcp_client.as_ref().map(|c| format!("MCP-client {c}")),
            via.oauth_client
                .as_ref()
                .map(|c| format!("OAuth-client {c}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        text.push_str(&format!(
            "Via: {} (opgave van de aanroeper, niet gecontroleerd)\n",
            named.join(", ")
        ));
    }
    text.push_str(&format!(
        "Verloopt op: {}\n",
        common::calendar::dutch_display(proposal.expires_at)
    ));
    text
}

/// A plan member's name for people: `overige_maatregelen` → `Overige maatregelen`.
fn label(key: &str) -> String {
    let spaced = key.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => spaced,
    }
}

/// A value as indented lines: a list one item a line, an object one member a line.
fn lines(name: &str, value: &Value, depth: usize) -> String {
    let indent = "  ".repeat(depth);
    match value {
        Value::Array(items) if items.is_empty() => format!("{indent}{name}: (geen)\n"),
        Value::Array(items) => {
            let mut text = format!("{indent}{name}:\n");
            for item in items {
                match item {
                    Value::Object(_) | Value::Array(_) => {
                        text.push_str(&lines("-", item, depth + 1))
                    }
                    other => text.push_str(&format!("{indent}  - {}\n", scalar(other))),
                }
            }
            text
        }
        Value::Object(members) => {
            let mut text = format!("{indent}{name}:\n");
            for (key, value) in members {
                text.push_str(&lines(&label(key), value, depth + 1));
            }
            text
        }
        other => format!("{indent}{name}: {}\n", scalar(other)),
    }
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "(geen)".into(),
        Value::Bool(true) => "ja".into(),
        Value::Bool(false) => "nee".into(),
        other => other.to_string(),
    }
}

/// A person as a proposal names them.
fn person_json(person: &overheid_records::Person) -> Value {
    json!({
        "subject": person.subject,
        "naam": person.name,
        "methode": person.method,
    })
}

/// The answer of a command that read or changed proposals: local data, nothing sent anywhere.
pub(crate) fn outcome(passed: &Passed, store: &Store, data: Value, urn: &str) -> Outcome {
    let sha = common::digest::sha256_hex(data.to_string().as_bytes());
    passed
        .answer(
            data,
            "Voorstellen van rvo-cli (opslag van de familie; er is niets naar RVO verzonden)",
            common::Environment::Local,
        )
        .source_url(format!("urn:rvo-cli:voorstellen:{urn}"), "LOCAL", sha)
        .extra("opslag", store.location().kind().into())
}

/// Whether this process talks to a person: stdin and stderr are both a terminal.
#[allow(
    clippy::disallowed_methods,
    reason = "stdin, which common::output does not ask about, is where the person types"
)]
pub(crate) fn at_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && common::output::stderr_is_terminal()
}

/// The operating-system user at the terminal, as the approver: subject `unix:<uid>@<host>`,
/// name from the password database (else `uid <n>`), identified by the typed digest.
pub(crate) fn terminal_person() -> overheid_records::Person {
    os_user("terminal")
}

/// Who proposes (recorded with the proposal): the person the calling party named in
/// `OVERHEID_FOREIGN_USER` (over MCP the session's subject, AUDIT-22), else the
/// operating-system user running this program.
pub(crate) fn proposer(ctx: &Context<'_>) -> overheid_records::Person {
    match ctx
        .env(common::env::FOREIGN_USER)
        .map(str::trim)
        .filter(|user| !user.is_empty())
    {
        Some(user) => overheid_records::Person {
            subject: user.to_string(),
            name: user.to_string(),
            method: "caller".into(),
        },
        None => os_user("unix"),
    }
}

/// The program the proposal came through, as the calling party declared it in
/// `OVERHEID_FOREIGN_CLIENT` (the bridge passes the MCP client's `clientInfo` and its token's
/// OAuth client). A value that is not the bridge's form is a configuration error (78): the
/// caller set the environment wrong, and guessing what it meant would show the person text
/// nobody checked in a form nobody meant.
pub(crate) fn proposing_client(
    ctx: &Context<'_>,
) -> Result<Option<overheid_records::ProposingClient>, Problem> {
    let Some(text) = ctx.env(common::env::FOREIGN_CLIENT) else {
        return Ok(None);
    };
    overheid_records::ProposingClient::from_env(text)
        .map(Some)
        .map_err(|why| {
            Problem::config(format!(
                "{} is ongeldig: {why}",
                common::env::FOREIGN_CLIENT
            ))
        })
}

/// The operating-system user of this process: subject `unix:<uid>@<host>`, name from the
/// password database (else `uid <n>`), identified by `method`.
fn os_user(method: &str) -> overheid_records::Person {
    let uid = rustix::process::getuid().as_raw();
    let host = rustix::system::uname()
        .nodename()
        .to_string_lossy()
        .into_owned();
    let name = std::fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|passwd| {
            passwd.lines().find_map(|line| {
                let mut fields = line.split(':');
                let name = fields.next()?;
                let id = fields.nth(1)?;
                (id == uid.to_string()).then(|| name.to_string())
            })
        })
        .unwrap_or_else(|| format!("uid {uid}"));
    overheid_records::Person {
        subject: format!("unix:{uid}@{host}"),
        name,
        method: method.into(),
    }
}
