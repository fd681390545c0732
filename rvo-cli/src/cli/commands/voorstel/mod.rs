//! `voorstel toon|lijst` (read-only tools) and `voorstel goedkeuren|afwijzen` (a person's act at
//! a terminal; hidden, never tools). Bound by the session rule: with `KVK_SESSIE_NUMMER` set,
//! only that company's proposals exist.

pub(crate) mod afwijzen;
pub(crate) mod goedkeuren;
pub(crate) mod lijst;
pub(crate) mod toon;

use std::io::BufRead;
use std::sync::mpsc;

use common::{Context, ExitStatus, Outcome, Problem, Result, codes};
use overheid_records::{Decision, Status, Verdict};

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
pub(crate) const ID_SCHEMA: common::ArgSchema = common::ArgSchema {
    name: "id",
    schema: r#"{"pattern": "^vs_[a-z2-7]{32}$"}"#,
};

/// What a person's decision at a terminal does: it writes one record here (no upstream), and a
/// second decision on the same proposal is refused, so it is not idempotent.
pub(crate) const DECISION: common::Annotations = common::Annotations {
    read_only: false,
    destructive: false,
    idempotent: false,
    open_world: false,
    proposes: false,
};

/// Approve or decline proposal `id` as the person at this terminal: show the plan, ask for the
/// first 8 characters of its digest, record the decision with the operating-system user.
pub(crate) fn decide(ctx: &mut Context<'_>, id: &str, decision: Decision) -> Result<Outcome> {
    records::check_id(id, "id")?;
    if ctx.globals.dry_run {
        // The plan of a decision, and nothing decided (DRY-1); the terminal is not asked.
        ctx.gate(common::PlanSpec::of_request(&serde_json::json!({"id": id})))?;
    }
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
    let plan = serde_json::to_string_pretty(&proposal.call.plan).unwrap_or_default();
    let seconds = ctx
        .deadline()
        .saturating_duration_since(std::time::Instant::now())
        .as_secs();
    let text = format!(
        "Voorstel {id} {verb} voor KvK-nummer {}\nOpdracht: {} {}\nVerloopt op: {}\n\nPlan:\n{plan}\n\nPlan-digest: {}\nTyp de eerste 8 tekens van de plan-digest ({prefix}) om {act} (u heeft {seconds} s; meer met --timeout):\n",
        proposal.call.company,
        proposal.call.tool,
        proposal.call.command,
        proposal.expires_at,
        proposal.call.plan_digest,
    );
    // Text from the record (a toelichting) is shown with control and bidi characters neutralised.
    ctx.printer
        .stderr_text(&common::render::printable(&text, true));
    let typed = read_line(ctx)?;
    if typed.trim().to_ascii_lowercase() != prefix {
        return Err(Problem::new(
            ExitStatus::PlanStale,
            codes::BEVESTIGING_ONJUIST,
            "Bevestiging onjuist",
            format!("de getypte tekens zijn niet het begin van de plan-digest; voorstel {id} is niet beslist"),
        )
        .into());
    }
    // The typed characters are this decision's confirmation: the gate passes on them.
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
                by: &records::terminal_person(),
                seen_digest: &proposal.call.plan_digest,
                token: None,
            },
            clock::now(),
        )
        .map_err(|error| match error {
            overheid_records::Error::Refused(status) => records::refused(id, status),
            overheid_records::Error::NotFound => records::unknown(id),
            other => records::problem(other),
        })?;
    let data = records::to_json(ctx, &decided);
    Ok(records::outcome(&passed, &store, data, id))
}

/// One line from the terminal, waiting at most until the command's deadline.
fn read_line(ctx: &Context<'_>) -> Result<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let read = std::io::stdin().lock().read_line(&mut line).map(|_| line);
        let _ = sender.send(read);
    });
    let left = ctx
        .deadline()
        .saturating_duration_since(std::time::Instant::now());
    match receiver.recv_timeout(left) {
        Ok(Ok(line)) => Ok(line),
        Ok(Err(error)) => {
            Err(Problem::io(format!("de terminal kon niet gelezen worden: {error}")).into())
        }
        Err(_) => Err(
            Problem::timeout("er is niets getypt voor de deadline; niets beslist")
                .with_hint("geef meer tijd met --timeout, bijv. --timeout 300")
                .into(),
        ),
    }
}
