//! `rapportage indienen`: file a report, exactly once, as a confirmed mutation.
//!
//! Order: validate and canonicalise the report (exit 65, all errors at once) → session rule
//! (exit 77) → configuration (exit 78) → look up the report's key: a completed key is replayed
//! whatever the date or the catalogue now say → the scheme's state (exists, accepts reports, open
//! on the peildatum; exit 65) → the plan gate (dry run 0, no `--confirm` 80, wrong digest 81) →
//! file under the plan digest as idempotency key (local store, or `POST` with
//! `Idempotency-Key`). A repeat returns the first result with `replayed: true`.
//!
//! The local store files in two phases: the record is prepared (written and synced, lock held)
//! here, and committed by `common` after the audit record is appended, so a crash can leave an
//! audit record without its report but never a report without its audit record.

use common::args::{KvkNummer, Peildatum, is_kvk_nummer};
use common::validate::{Validation, is_digits};
use common::{
    Annotations, ArgSchema, CommandSpec, Context, Outcome, PlanSpec, Problem, Result, session,
};
use rvo_cli::backend_types::RapportageOntvangst;
use rvo_cli::catalogue::Catalogue;
use rvo_cli::filing::{
    Backend as ResultBackend, FieldError, FilingInput, ValidFiling, build_result, canonicalise,
    check_scheme, idempotency_key, split_maatregelen, validate,
};
use rvo_cli::reference::is_path_safe;
use rvo_cli::store::Prepared;

use crate::cli::backend::http::{Call, error_for, parse};
use crate::cli::backend::{Backend, store_error, to_json};
use crate::cli::clock;
use crate::cli::concept;

/// Dien een rapportage in (muterend: alleen na akkoord op het plan)
///
/// Zonder --confirm wordt niets ingediend: het plan staat op stdout (exit 80). Met
/// --confirm=<plan_digest> alleen als het plan nog klopt (anders exit 81). De plan-digest is de
/// idempotentiesleutel: dezelfde rapportage opnieuw indienen geeft het eerste resultaat terug met
/// "replayed": true. Standaard lokaal (er gaat niets naar RVO); met RVO_API_BASE naar een
/// backend. Gebonden aan KVK_SESSIE_NUMMER. De --peildatum bepaalt alleen op welke datum de
/// openstelling van de regeling wordt getoetst; hij hoort niet bij de rapportage en telt dus niet
/// mee in de digest.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// KvK-nummer (8 cijfers) van het bedrijf dat rapporteert; standaard KVK_SESSIE_NUMMER
    pub kvk_nummer: Option<String>,
    /// Id van de regeling, bijv. EBR-2027; alleen regelingen met indienbaar_via_cli (met --concept: uit het concept)
    pub regeling_id: Option<String>,
    /// Getroffen maatregelen, komma-gescheiden; volgorde en dubbelingen tellen niet (zonder --concept)
    pub maatregelen: Option<String>,
    /// Toelichting bij de rapportage (vrije tekst, maximaal 2000 tekens)
    #[arg(long, value_name = "TEKST")]
    pub toelichting: Option<String>,
    /// Dien een concept-aanvraag in (JSON van regelrecht-cli concept), of '-' voor stdin; wordt eerst opnieuw getoetst
    #[arg(long, value_name = "BESTAND")]
    pub concept: Option<String>,
    /// Getroffen maatregel van de erkende lijst, op code of naam (hoofdletters tellen niet); herhaalbaar, met --concept
    #[arg(long, value_name = "CODE|NAAM")]
    pub maatregel: Vec<String>,
    /// Andere getroffen maatregel met een terugverdientijd van ten hoogste vijf jaar (vrije tekst, art. 5.15a lid 1 onder d); herhaalbaar, met --concept
    #[arg(long, value_name = "TEKST")]
    pub overige_maatregel: Vec<String>,
    /// Kalenderjaar waarover het energiegebruik is gemeten (JJJJ), met --concept
    #[arg(long, value_name = "JJJJ")]
    pub kalenderjaar: Option<String>,
    #[command(flatten)]
    pub peildatum: Peildatum,
}

/// The positionals as meant: a first one that is not all digits is the scheme id, so
/// `indienen EBR-2027 "LED"` with `KVK_SESSIE_NUMMER` set takes the number from the session.
fn positionals(args: &Args) -> (Option<String>, Option<String>, Option<String>) {
    let first = args.kvk_nummer.clone();
    let looks_like_number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    match first {
        Some(text) if !looks_like_number(&text) && args.maatregelen.is_none() => {
            (None, Some(text), args.regeling_id.clone())
        }
        first => (first, args.regeling_id.clone(), args.maatregelen.clone()),
    }
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
    args: &[
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
    ],
}];

pub fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let catalogue = Catalogue::embedded();
    let mut validation = Validation::new();
    let date = args.peildatum.date(clock::today(ctx), &mut validation);
    let (kvk_argument, regeling_argument, maatregelen_argument) = positionals(args);
    // The options' own patterns first, so a bad value is 65 whatever else is given.
    let mut patterns = Validation::new();
    if let Some(year) = &args.kalenderjaar {
        patterns.check(is_digits(year, 4), "kalenderjaar", || {
            format!("{year:?} is geen kalenderjaar (JJJJ)")
        });
    }
    patterns.finish()?;
    let from_concept = match &args.concept {
        Some(source) => Some(concept::file_concept(ctx, args, source)?),
        None => {
            let concept_only = !args.maatregel.is_empty()
                || !args.overige_maatregel.is_empty()
                || args.kalenderjaar.is_some();
            if concept_only {
                return Err(Problem::usage(
                    "--maatregel, --overige-maatregel en --kalenderjaar horen bij --concept",
                )
                .with_hint("stel eerst een concept op met regelrecht-cli concept REGELING")
                .into());
            }
            None
        }
    };
    if let Some(filed) = &from_concept {
        let differs = |given: &Option<String>, own: &str, upper: bool| {
            given.as_deref().is_some_and(|g| {
                if upper {
                    !g.trim().eq_ignore_ascii_case(own)
                } else {
                    g != own
                }
            })
        };
        validation.check(
            !differs(&kvk_argument, &filed.kvk_nummer, false),
            "kvk_nummer",
            || format!("het concept is van KvK-nummer {}", filed.kvk_nummer),
        );
        validation.check(
            !differs(&regeling_argument, &filed.regeling_id, true),
            "regeling_id",
            || format!("het concept leidt tot regeling {}", filed.regeling_id),
        );
        validation.check(maatregelen_argument.is_none(), "maatregelen", || {
            "met --concept gaan maatregelen met --maatregel en --overige-maatregel".to_string()
        });
    }
    let kvk_nummer = match &from_concept {
        Some(filed) => filed.kvk_nummer.clone(),
        None => session::kvk_number(ctx, kvk_argument.as_deref())?,
    };
    if from_concept.is_none() && (regeling_argument.is_none() || maatregelen_argument.is_none()) {
        return Err(
            Problem::usage("geef REGELING_ID en MAATREGELEN, of --concept BESTAND")
                .with_hint("rvo-cli rapportage indienen [KVK_NUMMER] REGELING_ID MAATREGELEN")
                .into(),
        );
    }
    if is_kvk_nummer(&kvk_nummer) {
        ctx.subject(&kvk_nummer, "KVK_NUMMER");
    }
    let input = match &from_concept {
        Some(filed) => FilingInput {
            kvk_nummer,
            regeling_id: filed.regeling_id.clone(),
            maatregelen: filed.maatregelen.clone(),
            toelichting: args.toelichting.clone(),
            inhoud: Some(filed.inhoud.clone()),
        },
        None => FilingInput {
            kvk_nummer,
            regeling_id: regeling_argument.clone().unwrap_or_default(),
            maatregelen: split_maatregelen(maatregelen_argument.as_deref().unwrap_or_default()),
            toelichting: args.toelichting.clone(),
            inhoud: None,
        },
    };
    let invalid = |validation: &mut Validation, errors: Vec<FieldError>| {
        for error in errors {
            validation.push(error.pointer.trim_start_matches('/'), error.detail);
        }
    };
    let aanvraag = canonicalise(&input);
    if aanvraag.is_err() {
        // Every error at once, the scheme's state included.
        if let Err(errors) = validate(catalogue, &input, date) {
            invalid(&mut validation, errors);
        }
    }
    validation.finish()?;
    // Its errors are in `validation` already, so this is `Ok`; the error is mapped all the same.
    let aanvraag = aanvraag.map_err(|errors| {
        Problem::invalid(
            errors
                .into_iter()
                .map(|e| common::FieldError::new(e.pointer.trim_start_matches('/'), e.detail))
                .collect(),
        )
    })?;
    session::enforce(ctx, &aanvraag.kvk_nummer)?;
    let backend = Backend::from_env(ctx)?;
    let key = idempotency_key(&aanvraag).map_err(|e| Problem::software(e.to_string()))?;

    // A completed key returns its first result whatever the date or the catalogue now say
    // (MUT-9): look it up before any check whose outcome can change between a filing and its
    // retry. The HTTP backend can only be asked by filing, so there the backend judges the
    // scheme's state after its own key lookup (spec/rvo-backend.md).
    let completed = match &backend {
        Backend::Lokaal(store) => store.lookup(&key, &aanvraag).map_err(store_error)?,
        Backend::Http(_) => None,
    };
    let regeling = match (&completed, &backend) {
        (None, Backend::Lokaal(_)) => match check_scheme(catalogue, &aanvraag.regeling_id, date) {
            Ok(regeling) => Some(regeling),
            Err(errors) => {
                let mut validation = Validation::new();
                invalid(&mut validation, errors);
                validation.finish()?;
                None
            }
        },
        _ => catalogue.get(&aanvraag.regeling_id).ok(),
    };

    let arguments = to_json(&aanvraag)?;
    let where_to = match &backend {
        Backend::Lokaal(_) => "lokaal, er gaat niets naar RVO",
        Backend::Http(_) => "via de backend van RVO_API_BASE",
    };
    let mut plan = PlanSpec::new(arguments)
        .effect(format!(
            "Dient een rapportage in voor {} namens {} ({where_to}).",
            aanvraag.regeling_id, aanvraag.kvk_nummer
        ))
        .extra("backend", backend.name().into())
        .extra("peildatum", date.to_string().into());
    if completed.is_some() {
        plan = plan.extra("al_ingediend", true.into());
    }
    if let Backend::Http(http) = &backend {
        plan = plan.request(http.file_request(&aanvraag, &key)?);
    }
    let mut passed = ctx.gate(plan)?;
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
    Ok(match pending {
        // The report becomes visible only after its audit record is written (MUT-13); if the
        // audit append fails, the pending filing is dropped and nothing is filed.
        Some(pending) => outcome.commit_after_audit(move || pending.commit().map_err(store_error)),
        None => outcome,
    })
}
