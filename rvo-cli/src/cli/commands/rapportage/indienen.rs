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
//! for `--confirm`); a retry returns the first result (`replayed`). The proposal is marked filed
//! with the filing's key and the digest of its result.
//!
//! The local sandbox files through the family's store (`overheid-records`): exactly once from the
//! database (a unique key on the idempotency key; applying a proposal moves it approved → filed
//! in the same transaction). It files in two phases: the filing is written in an open
//! transaction here, and committed by `common` after the audit record is appended, so a crash
//! can leave an audit record without its report but never a report without its audit record.

use chrono::SubsecRound;
use common::plan::Passed;
use common::{Annotations, CommandSpec, Context, Outcome, Problem, Result};
use overheid_records::{Apply, Begun, Status, Store};
use rvo_cli::backend_types::{RapportageAanvraag, RapportageOntvangst};
use rvo_cli::catalogue::Regeling;
use rvo_cli::filing::{Backend as ResultBackend, FilingResult, build_result};
use rvo_cli::hook::{self, Phase};
use rvo_cli::record::new_record;
use rvo_cli::reference::{is_path_safe, new_reference};

use crate::cli::approval;
use crate::cli::backend::http::{Call, error_for, parse};
use crate::cli::backend::{Backend, local_outcome, replay_of, to_json};
use crate::cli::clock;
use crate::cli::commands::rapportage::aanvraag::{self, FilingArgs, Planned, StoredInput};
use crate::cli::commands::voorstel::ID_SCHEMA;
use crate::cli::records;

common::arguments! {
    /// Dien een rapportage in: na akkoord op het plan, of een goedgekeurd voorstel
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
    pub(crate) struct Args {
        #[command(flatten)]
        pub filing: FilingArgs => flatten,
        /// Dien dit goedgekeurde voorstel in (zonder andere argumenten of bevestiging)
        #[arg(long, value_name = "ID")]
        pub voorstel: Option<String> => (ID_SCHEMA),
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["rapportage", "indienen"],
    title: "Rapportage indienen",
    annotations: Annotations {
        read_only: false,
        destructive: false,
        idempotent: true,
        open_world: true,
        proposes: false,
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
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    if let Some(id) = &args.voorstel {
        return apply(args, id, ctx);
    }
    let mut planned = aanvraag::plan(ctx, &args.filing, args.filing.concept_input(), &mut None)?;
    // Where only a person's login approves (MUT-19), `--confirm` files nothing: the same
    // filing is recorded as a proposal, and the answer says where a person approves it.
    if ctx.globals.confirmation().is_some()
        && !ctx.globals.dry_run
        && approval::policy()?.identity().is_some()
    {
        let (_, proposal, _) = aanvraag::propose(ctx, &mut planned)?;
        return Err(approval::confirm_refused(ctx, &proposal).into());
    }
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
    if proposal.call.command != records::APPLY_COMMAND {
        return Err(records::unknown(id).into());
    }
    let approved = match (&proposal.status, &proposal.decision) {
        (Status::Approved | Status::Filed, Some(decision)) => decision.digest.clone(),
        (status, _) => return Err(records::refused(id, *status).into()),
    };
    let input = StoredInput::read(&proposal.call.input).ok_or_else(|| {
        records::problem(overheid_records::Error::Corrupt(format!(
            "de invoer van voorstel {id} is niet te lezen"
        )))
    })?;
    if !input.readable() {
        return Err(Problem::config(format!(
            "voorstel {id} is vastgelegd door een nieuwere uitgave (invoerformaat {}); deze versie kan het niet indienen",
            input.versie.as_deref().unwrap_or_default()
        ))
        .with_hint("werk rvo-cli bij tot de uitgave die het voorstel vastlegde, of nieuwer")
        .into());
    }
    let (filing_args, concept) = input.to_args();
    // The approval must be for this target, and (under the operator's policy) a person's
    // verified login; its token goes with the filing.
    let target = crate::cli::backend::Backend::target_of(ctx)?;
    let token = approval::check_apply(ctx, &proposal, &target)?;
    // The store that holds the proposal is the local sandbox's too: one connection.
    let mut store = Some(store);
    let planned = aanvraag::plan_approved(ctx, &filing_args, concept, &mut store, token)?;
    let passed = ctx.gate_approved(planned.spec()?, &approved)?;
    file(ctx, planned, passed, Some((store, proposal.id)))
}

/// The proposal being applied: its id, and its store unless the local sandbox's store (the same
/// connection) took it.
type Applying = (Option<Store>, String);

/// Files a planned report that passed the gate; with a proposal, it is marked filed (for the
/// local sandbox in the filing's own transaction).
fn file(
    ctx: &mut Context<'_>,
    planned: Planned,
    mut passed: Passed,
    proposal: Option<Applying>,
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
    match backend {
        Backend::Lokaal(local) => file_local(
            ctx,
            &passed,
            local.into_store()?,
            &aanvraag,
            completed,
            regeling,
            proposal.map(|(_, id)| id),
        ),
        Backend::Http(http) => {
            let request = passed.take()?;
            let response = ctx.send(&request)?;
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
            // The backend keeps its own idempotency: the proposal is marked filed once the
            // report exists there; a crash in between leaves it approved, and applying it again
            // replays the report (same key) and marks it then.
            if let Some((store, id)) = proposal {
                let mut store = match store {
                    Some(store) => store,
                    None => records::open(ctx)?,
                };
                mark_filed(&mut store, &id, &key, &result)?;
            }
            finish(
                ctx,
                Backend::Http(http).outcome(
                    &passed,
                    to_json(&result)?,
                    &format!("rapportages:{key}"),
                ),
                &result,
            )
        }
    }
}

/// Files in the local sandbox: a replay of the key's first filing, or a new filing in two
/// phases: written in an open transaction of the store here (with the proposal's change to
/// filed), committed by `common` after the audit record is appended (MUT-13). A crash between
/// the two leaves an audit record without its report, never a report without its audit record;
/// the transaction dies with the process, and the retry files the report. The key is the
/// plan's digest (`passed`).
fn file_local(
    ctx: &mut Context<'_>,
    passed: &Passed,
    store: Store,
    aanvraag: &RapportageAanvraag,
    completed: Option<FilingResult>,
    regeling: Option<&'static Regeling>,
    proposal: Option<String>,
) -> Result<Outcome> {
    let key = passed.digest();
    let mut store = store;
    let location = store.location().clone();
    let (result, pending) = match completed {
        Some(result) => {
            if let Some(id) = proposal {
                mark_filed(&mut store, &id, key, &result)?;
            }
            (result, None)
        }
        None => {
            let regeling = regeling
                .ok_or_else(|| Problem::software("geen regeling voor de lokale proefopslag"))?;
            let id = proposal;
            let apply = id.as_deref().map(|proposal_id| Apply {
                proposal_id,
                plan_digest: key,
            });
            let now = clock::now();
            let ingediend_op = now.trunc_subsecs(3);
            let begun = store
                .begin_filing(apply, now, || {
                    let reference = new_reference(&regeling.id, ingediend_op)
                        .map_err(overheid_records::Error::Random)?;
                    let result = build_result(
                        Some(regeling),
                        aanvraag,
                        &reference,
                        ingediend_op,
                        ResultBackend::Lokaal,
                    );
                    new_record(key, aanvraag, &result, ingediend_op)
                        .map_err(|e| overheid_records::Error::Database(e.to_string()))
                })
                .map_err(|error| match (error, id.as_deref()) {
                    (overheid_records::Error::Refused(status), Some(id)) => {
                        records::refused(id, status)
                    }
                    (error, _) => records::problem(error),
                })?;
            match begun {
                Begun::Filed(record, _) => (replay_of(&record, aanvraag)?, None),
                Begun::Pending(pending) => {
                    let result: FilingResult =
                        serde_json::from_value(pending.filing().result.clone())
                            .map_err(|e| Problem::software(e.to_string()))?;
                    hook::pause(Phase::Begun);
                    (result, Some(pending))
                }
            }
        }
    };
    let outcome = finish(
        ctx,
        local_outcome(
            passed,
            &location,
            to_json(&result)?,
            &format!("rapportages:{key}"),
        ),
        &result,
    )?;
    Ok(match pending {
        // The report becomes visible only after its audit record is written (MUT-13); if the
        // audit append fails, the pending filing is dropped (rolled back) and nothing is filed.
        Some(pending) => outcome.commit_after_audit(move || {
            hook::pause(Phase::Committing);
            pending.commit().map_err(records::problem)?;
            hook::pause(Phase::Committed);
            Ok(())
        }),
        None => outcome,
    })
}

/// The answer of a filing: its reference, and whether it replayed in the audit record.
fn finish(ctx: &mut Context<'_>, outcome: Outcome, result: &FilingResult) -> Result<Outcome> {
    ctx.audit_attribute("overheid.replayed", result.replayed.into());
    Ok(outcome.reference(result.referentienummer.clone()))
}

/// Marks the applied proposal `id` filed under `key` with the digest of the filing's first
/// result (never the result).
fn mark_filed(store: &mut Store, id: &str, key: &str, result: &FilingResult) -> Result<()> {
    let apply = Apply {
        proposal_id: id,
        plan_digest: key,
    };
    store
        .mark_filed(apply, key, &result_digest(result), clock::now())
        .map_err(|error| match error {
            overheid_records::Error::Refused(status) => records::refused(id, status),
            error => records::problem(error),
        })?;
    Ok(())
}

/// SHA-256 of a filing's result as first returned: what a proposal keeps of it.
fn result_digest(result: &FilingResult) -> String {
    let mut first = result.clone();
    first.replayed = false;
    rvo_cli::canonical::canonical_sha256(&first).unwrap_or_default()
}
