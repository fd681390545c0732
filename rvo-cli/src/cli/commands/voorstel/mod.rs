//! `voorstel toon|lijst` (read-only tools) and `voorstel goedkeuren|afwijzen` (a person's act;
//! hidden, never tools): at a terminal without the operator's policy, a device login at the
//! identity provider with it ([`login`]). Bound by the session rule: with `KVK_SESSIE_NUMMER`
//! set, only that company's proposals exist.

pub(crate) mod afwijzen;
pub(crate) mod goedkeuren;
pub(crate) mod lijst;
pub(crate) mod login;
pub(crate) mod toon;

use std::io::BufRead;

use common::{Context, ExitStatus, Outcome, Problem, Result, codes};
use overheid_records::{Decision, Status, Verdict};

use crate::cli::approval;
use crate::cli::clock;
use crate::cli::records;

common::commands! {
    pub enum Action {
        Toon(toon::Args) => toon,
        Lijst(lijst::Args) => lijst,
        #[command(hide = true)]
        Goedkeuren(goedkeuren::Args) => goedkeuren,
        #[command(hide = true)]
        Afwijzen(afwijzen::Args) => afwijzen,
    }
}

/// The schema of a proposal id (text-safe, 160 random bits).
pub(crate) const ID_SCHEMA: &str = common::schema!({"pattern": "^vs_[a-z2-7]{32}$"});

/// What a person's decision at a terminal does: it writes one record here (no upstream), and a
/// second decision on the same proposal is refused, so it is not idempotent.
pub(crate) const DECISION: common::Annotations = common::Annotations {
    read_only: false,
    destructive: false,
    idempotent: false,
    open_world: false,
    proposes: false,
};

/// Approve or decline proposal `id`: with the operator's policy of a login, approving is a
/// device login at the identity provider (declining stays a person's act at the terminal);
/// without it, the person at this terminal reads the plan and types the first 8 characters of
/// its digest.
pub(crate) fn decide(
    ctx: &mut Context<'_>,
    id: &str,
    decision: Decision,
    browser: bool,
) -> Result<Outcome> {
    records::check_id(id, "id")?;
    if ctx.globals.dry_run {
        // The plan of a decision, and nothing decided (DRY-1); the terminal is not asked.
        ctx.gate(common::PlanSpec::of_request(&serde_json::json!({"id": id})))?;
    }
    let policy = approval::policy()?;
    match (policy.identity(), decision) {
        (Some(identity), Decision::Approve) => login::approve(ctx, id, identity, browser),
        _ if browser => Err(Problem::usage(
            "--browser hoort bij een goedkeuring met een login; op deze machine is er geen beleid dat een login vraagt",
        )
        .with_hint(format!(
            "keur goed op de terminal zonder --browser, of vraag de beheerder om {}",
            common::approval::policy::PATH
        ))
        .into()),
        _ => at_terminal(ctx, id, decision),
    }
}

/// A decision typed at this terminal: the plan as text, the first 8 characters of its digest.
fn at_terminal(ctx: &mut Context<'_>, id: &str, decision: Decision) -> Result<Outcome> {
    if !records::at_terminal() {
        return Err(Problem::new(
            ExitStatus::NoPerm,
            codes::TERMINAL_VEREIST,
            "Alleen op een terminal",
            "een voorstel goedkeuren of afwijzen is een handeling van een persoon op een terminal",
        )
        .with_hint("open rvo-cli voorstel goedkeuren ID zelf in een terminal, of gebruik de goedkeuringspagina")
        .into());
    }
    ctx.audit_attribute("overheid.voorstel_id", id.into());
    let (mut store, proposal) = records::find(ctx, id)?;
    if proposal.status != Status::Open {
        return Err(records::refused(id, proposal.status).into());
    }
    let (verb, act) = match decision {
        Decision::Approve => ("goedkeuren", "goed te keuren"),
        Decision::Decline => ("afwijzen", "af te wijzen"),
    };
    let prefix = &proposal.call.plan_digest[..8];
    let text = format!(
        "Voorstel {id} {verb}\n\n{}\nPlan-digest: {}\n\n{}\n\nTyp de eerste 8 tekens van de plan-digest ({prefix}) om {act}; Ctrl-C breekt af:\n",
        records::readable(&proposal),
        proposal.call.plan_digest,
        approval::NOT_A_LOGIN,
    );
    // Text from the record (a toelichting) is shown with control and bidi characters neutralised.
    ctx.printer
        .stderr_text(&common::render::printable(&text, true));
    let typed = read_line()?;
    if typed.trim().to_ascii_lowercase() != prefix {
        return Err(Problem::new(
            ExitStatus::PlanStale,
            codes::BEVESTIGING_ONJUIST,
            "Bevestiging onjuist",
            format!("de getypte tekens zijn niet het begin van de plan-digest; voorstel {id} is niet beslist"),
        )
        .into());
    }
    let by = records::terminal_person();
    record(ctx, &mut store, &proposal, decision, &by, None)
}

/// Records `decision` on `proposal` by `by` (with the approval token of their login), after the
/// decision's own gate; the answer is the proposal as decided.
pub(crate) fn record(
    ctx: &mut Context<'_>,
    store: &mut overheid_records::Store,
    proposal: &overheid_records::Proposal,
    decision: Decision,
    by: &overheid_records::Person,
    token: Option<&str>,
) -> Result<Outcome> {
    let id = proposal.id.as_str();
    let verb = match decision {
        Decision::Approve => "goedkeuren",
        Decision::Decline => "afwijzen",
    };
    // The person's act is this decision's confirmation: the gate passes on it.
    let spec = || {
        common::PlanSpec::of_request(
            &serde_json::json!({"id": id, "plan_digest": proposal.call.plan_digest}),
        )
        .effect(format!(
            "Legt de beslissing ({verb}) over voorstel {id} vast."
        ))
    };
    let digest = common::plan::digest(
        &ctx.name,
        &serde_json::Value::Object(spec().arguments().clone()),
    );
    let passed = ctx.gate_approved(spec(), &digest)?;
    let decided = store
        .decide(
            id,
            Some(&proposal.call.company),
            Verdict {
                decision,
                by,
                seen_digest: &proposal.call.plan_digest,
                token,
            },
            clock::now(),
        )
        .map_err(|error| match error {
            overheid_records::Error::Refused(status) => records::refused(id, status),
            overheid_records::Error::NotFound => records::unknown(id),
            other => records::problem(other),
        })?;
    ctx.audit_attribute("overheid.beslissing_methode", by.method.clone().into());
    let data = records::to_json(ctx, &decided);
    Ok(records::outcome(&passed, store, data, id))
}

/// One line from the terminal, waiting as long as the person needs; Ctrl-C aborts (exit 130,
/// nothing decided).
fn read_line() -> Result<String> {
    common::interrupt::arm();
    let read = common::interrupt::abandonable(|| {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map(|_| line)
    })?;
    match read {
        Some(Ok(line)) => Ok(line),
        Some(Err(error)) => {
            Err(Problem::io(format!("de terminal kon niet gelezen worden: {error}")).into())
        }
        None => Err(Problem::interrupted("afgebroken; er is niets beslist").into()),
    }
}
