//! `rapportage indienen`: file a report, exactly once, as a confirmed mutation.
//!
//! Order: validate and canonicalise the report (exit 65, all errors at once) → session rule
//! (exit 77) → configuration (exit 78) → look up the report's key: a completed key is replayed
//! whatever the date or the catalogue now say → the scheme's state (exists, accepts reports, open
//! on the peildatum; exit 65) → the plan gate (dry run 0, no `--confirm` 80, wrong digest 81) →
//! file under the plan digest as idempotency key (local store, or `POST` with
//! `Idempotency-Key`). A repeat returns the first result with `replayed: true`.
//!
//! With `--voorstel ID` it applies a recorded proposal instead: only an approved, unexpired one
//! (else a registered refusal and nothing sent), planned again from the input the person
//! approved, and filed only if the plan still has the approved digest (the approval stands in
//! for `--confirm`); a retry returns the first result (`replayed`). The proposal is then marked
//! filed with the filing's key and the digest of its result.
//!
//! The local store files in two phases: the record is prepared (written and synced, lock held)
//! here, and committed by `common` after the audit record is appended, so a crash can leave an
//! audit record without its report but never a report without its audit record.

use common::plan::Passed;
use common::{Annotations, ArgSchema, CommandSpec, Context, Outcome, Problem, Result};
use overheid_records::{Apply, Status, Store};
use rvo_cli::backend_types::RapportageOntvangst;
use rvo_cli::filing::{Backend as ResultBackend, ValidFiling, build_result};
use rvo_cli::reference::is_path_safe;
use rvo_cli::store::Prepared;

use crate::cli::backend::http::{Call, error_for, parse};
use crate::cli::backend::{Backend, store_error, to_json};
use crate::cli::clock;
use crate::cli::commands::rapportage::aanvraag::{self, FilingArgs, Planned, StoredInput};
use crate::cli::records;
use common::args::{KvkNummer, Peildatum};

/// Dien een rapportage in (muterend: alleen na akkoord op het plan, of een goedgekeurd voorstel met --voorstel)
///
/// Zonder --confirm wordt niets ingediend: het plan staat op stdout (exit 80). Met
/// --confirm=<plan_digest> alleen als het plan nog klopt (anders exit 81). De plan-digest is de
/// idempotentiesleutel: dezelfde rapportage opnieuw indienen geeft het eerste resultaat terug met
/// "replayed": true. Standaard lokaal (er gaat niets naar RVO); met RVO_API_BASE naar een
/// backend. Gebonden aan KVK_SESSIE_NUMMER. De --peildatum bepaalt alleen op welke datum de
/// openstelling van de regeling wordt getoetst; hij hoort niet bij de rapportage en telt dus niet
/// mee in de digest. Met --voorstel ID wordt een door een persoon goedgekeurd voorstel ingediend
/// (rvo-cli rapportage voorstel), alleen als het plan nog het goedgekeurde is; zonder --confirm.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub filing: FilingArgs,
    /// Dien het goedgekeurde voorstel met dit id in (zonder andere argumenten; geen bevestiging nodig)
    #[arg(long, value_name = "ID")]
    pub voorstel: Option<String>,
}

pub const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["rapportage", "indienen"],
    title: "Rapportage indienen",
    annotations: Annotations {
        read_only: false,
        destructive: false,
        idempotent: true,
        open_world: true,
    },
    output_schema: include_str!("../../../../schemas/rapportage-indienen.json"),
    examples: &[
        &[
            "rapportage",
            "indienen",
            "68750110",
            "EBR-2027",
            "LED-verlichting,Isolatie dak",
        ],
        &[
            "rapportage",
            "indienen",
            "68750110",
            "EBR-2027",
            "warmtepomp, led-verlichting",
            "--toelichting",
            "Locatie Utrecht",
        ],
    ],
    args: ARGS,
}];

/// The argument schemas: the report's (shared with `rapportage voorstel`), then `--voorstel`.
pub const ARGS: &[ArgSchema] = &[
    KvkNummer::SCHEMA,
    ArgSchema {
        name: "regeling_id",
        schema: r#"{"pattern": "^\\s*[A-Za-z0-9-]{1,40}\\s*$", "examples": ["EBR-2027"]}"#,
    },
    ArgSchema {
        name: "maatregelen",
        schema: r#"{"minLength": 1, "examples": ["LED-verlichting,Isolatie dak"]}"#,
    },
    ArgSchema {
        name: "toelichting",
        schema: r#"{"maxLength": 2000}"#,
    },
    Peildatum::SCHEMA,
    ArgSchema::path_or_stdin_json_object("concept"),
    ArgSchema {
        name: "maatregel",
        schema: r#"{"type": "array", "items": {"type": "string", "minLength": 1}, "examples": [["GF4", "LED-verlichting"]]}"#,
    },
    ArgSchema {
        name: "overige_maatregel",
        schema: r#"{"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200}}"#,
    },
    ArgSchema {
        name: "kalenderjaar",
        schema: r#"{"pattern": "^[0-9]{4}$", "examples": ["2025"]}"#,
    },
    ArgSchema {
        name: "voorstel",
        schema: r#"{"pattern": "^vs_[a-z2-7]{32}$"}"#,
    },
];

pub fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    if let Some(id) = &args.voorstel {
        return apply(args, id, ctx);
    }
    let planned = aanvraag::plan(ctx, &args.filing, args.filing.concept_input())?;
    let passed = ctx.gate(planned.spec()?)?;
    file(ctx, planned, passed, None)
}

/// `--voorstel ID`: apply an approved proposal of this session's company.
fn apply(args: &Args, id: &str, ctx: &mut Context<'_>) -> Result<Outcome> {
    let id = id.trim();
    records::check_id(id, "voorstel")?;
    if args.filing.any_given() || args.filing.peildatum.is_given() {
        return Err(Problem::usage("met --voorstel horen geen andere argumenten")
            .with_hint("het voorstel bevat de rapportage al: rvo-cli rapportage indienen --voorstel ID")
            .into());
    }
    if ctx.globals.confirmation().is_some() {
        return Err(Problem::usage("--voorstel en --confirm gaan niet samen")
            .with_hint("een goedgekeurd voorstel is de bevestiging; laat --confirm weg")
            .into());
    }
    ctx.audit_attribute("overheid.voorstel_id", id.into());
    let (store, proposal) = records::find(ctx, id)?;
    if proposal.command != records::APPLY_COMMAND {
        return Err(records::unknown(id).into());
    }
    let approved = match (&proposal.status, &proposal.decision) {
        (Status::Approved | Status::Filed, Some(decision)) => decision.digest.clone(),
        (status, _) => return Err(records::refused(id, *status).into()),
    };
    let input: StoredInput = serde_json::from_value(proposal.input.clone()).map_err(|_| {
        records::problem(overheid_records::Error::Corrupt(format!(
            "de invoer van voorstel {id} is niet te lezen"
        )))
    })?;
    let (filing_args, concept) = input.to_args();
    let planned = aanvraag::plan(ctx, &filing_args, concept)?;
    let passed = ctx.gate_approved(planned.spec()?, &approved)?;
    file(ctx, planned, passed, Some((store, proposal.id)))
}

/// Files a planned report that passed the gate; with a proposal, marks it filed afterwards.
fn file(
    ctx: &mut Context<'_>,
    planned: Planned,
    mut passed: Passed,
    proposal: Option<(Store, String)>,
) -> Result<Outcome> {
    let Planned {
        aanvraag,
        key,
        backend,
        completed,
        regeling,
        ..
    } = planned;
    if passed.digest() != key {
        return Err(Problem::software("plan-digest wijkt af van de idempotentiesleutel").into());
    }
    let request = match &backend {
        Backend::Http(_) => Some(passed.take()?),
        Backend::Lokaal(_) => None,
    };
    let (result, pending) = match (&backend, &request, completed, regeling) {
        (Backend::Lokaal(_), _, Some(result), _) => (result, None),
        (Backend::Lokaal(store), _, None, Some(regeling)) => {
            let filing = ValidFiling { regeling, aanvraag };
            match store
                .prepare(&key, &filing, clock::now())
                .map_err(store_error)?
            {
                Prepared::Replay(result) => (result, None),
                Prepared::Pending(pending) => (pending.result().clone(), Some(pending)),
            }
        }
        (Backend::Http(_), Some(request), _, regeling) => {
            let response = ctx.send(request)?;
            if !matches!(response.status, 200 | 201) {
                return Err(error_for(&response, Call::File));
            }
            let receipt: RapportageOntvangst = parse(&response)?;
            if !is_path_safe(&receipt.referentienummer) {
                return Err(Problem::protocol(format!(
                    "de backend gaf een onbruikbaar referentienummer: {:?}",
                    receipt.referentienummer
                ))
                .with_status(response.status)
                .into());
            }
            let mut result = build_result(
                regeling,
                &aanvraag,
                &receipt.referentienummer,
                receipt.ontvangen_op,
                ResultBackend::Http,
            );
            result.status = receipt.status;
            result.replayed = response.status == 200;
            (result, None)
        }
        _ => return Err(Problem::software("geen regeling of verzoek voor de backend").into()),
    };
    ctx.audit_attribute("overheid.replayed", result.replayed.into());
    let data = to_json(&result)?;
    let outcome = backend
        .outcome(data, &format!("rapportages:{key}"))
        .reference(result.referentienummer.clone());
    // The proposal is marked filed once the report exists: a crash in between leaves it
    // approved, and applying it again replays the report (same key) and marks it then.
    let mark = proposal.map(|(mut store, id)| {
        let result_digest = result_digest(&result);
        let key = key.clone();
        move || -> std::result::Result<(), Problem> {
            let apply = Apply {
                proposal_id: &id,
                plan_digest: &key,
            };
            store
                .mark_filed(apply, &key, &result_digest, clock::now())
                .map(drop)
                .map_err(records::problem)
        }
    });
    Ok(match pending {
        // The report becomes visible only after its audit record is written (MUT-13); if the
        // audit append fails, the pending filing is dropped and nothing is filed.
        Some(pending) => outcome.commit_after_audit(move || {
            pending.commit().map_err(store_error)?;
            mark.map_or(Ok(()), |mut mark| mark())
        }),
        None => {
            if let Some(mut mark) = mark {
                mark()?;
            }
            outcome
        }
    })
}

/// SHA-256 of a filing's result as first returned: what a proposal keeps of it.
fn result_digest(result: &rvo_cli::filing::FilingResult) -> String {
    let mut first = result.clone();
    first.replayed = false;
    rvo_cli::canonical::canonical_sha256(&first).unwrap_or_default()
}
