//! `rapportage status REFERENTIENUMMER`: one filed report, read back from the backend.
//!
//! With `KVK_SESSIE_NUMMER` set, a report of another company is answered exactly as a reference
//! that does not exist (exit 66, same detail and hint): neither the exit code nor the text tells
//! the caller that the reference exists or whose it is. The audit record still names the report's
//! KvK number as data subject and marks the refusal (`overheid.session_refused`). Its KvK number is
//! only known once the report is read, so for the HTTP backend the refusal follows the `GET`; to
//! keep the two alike there, the backend's 404 for one report gets the same error too.

use common::validate::Validation;
use common::{Annotations, CommandSpec, Context, Outcome, PlanSpec, Problem, Result, session};
use rvo_cli::backend_types::RapportageRecord;
use rvo_cli::reference::{is_path_safe, is_well_formed};

use crate::cli::backend::http::{Call, error_for, parse};
use crate::cli::backend::{Backend, Overzicht, damaged, to_json};
use crate::cli::records;

common::arguments! {
    /// Status van één ingediende rapportage van het bedrijf
    ///
    /// Een rapportage van een ander bedrijf dan KVK_SESSIE_NUMMER wordt behandeld als onbekend (exit 66).
    #[derive(clap::Args, serde::Serialize, Debug)]
    pub(crate) struct Args {
        /// Uit de ontvangstbevestiging, bijv. RVO-EBR-2027-1KC7Q3M9Z-7XK2MD
        pub referentienummer: String => {
            "pattern": "^\\s*[A-Za-z0-9-]{1,80}\\s*$", "examples": ["RVO-EBR-2027-1KC7Q3M9Z-7XK2MD"]
        },
    }
}

pub(crate) const SPECS: &[CommandSpec] = &[CommandSpec {
    path: &["rapportage", "status"],
    title: "Status van een rapportage",
    annotations: Annotations::READ_REMOTE,
    output_schema: include_str!("../../../../schemas/rapportage-status.json"),
    examples: &[&["rapportage", "status", "RVO-EBR-2027-1KC7Q3M9Z-7XK2MD"]],
    args: Args::SCHEMAS,
}];

pub(crate) fn run(args: &Args, ctx: &mut Context<'_>) -> Result<Outcome> {
    let referentienummer = args.referentienummer.trim();
    let mut validation = Validation::new();
    validation.check(is_path_safe(referentienummer), "referentienummer", || {
        format!(
            "referentienummer {referentienummer:?} mag alleen letters, cijfers en '-' bevatten (1 tot 80 tekens)"
        )
    });
    validation.finish()?;
    let session = session::session_number(ctx)?;
    let mut backend = Backend::from_env(ctx)?;
    let mut plan = PlanSpec::of(args)
        .set("referentienummer", referentienummer)
        .extra("backend", backend.name().into());
    if let Backend::Http(http) = &backend {
        plan = plan.request(http.get_request(referentienummer));
    }
    let mut passed = ctx.gate(plan)?;

    let where_from = match &backend {
        Backend::Lokaal(local) => format!("lokale opslag {}", local.location().shown()),
        Backend::Http(_) => "backend van RVO_API_BASE".to_string(),
    };
    let not_found = || {
        Problem::not_found(format!(
            "er is geen rapportage met referentienummer {referentienummer} ({where_from})"
        ))
        .with_hint("rapportage lijst KVK_NUMMER toont de referentienummers van een bedrijf")
    };
    let overzicht = match &mut backend {
        Backend::Lokaal(local) => {
            let store = match local.existing()? {
                Some(store) if is_well_formed(referentienummer) => store,
                _ => return Err(not_found().into()),
            };
            // Another company's report is unknown before any of it is read: its record, sound
            // or damaged, answers as no record at all (no existence oracle). The audit record
            // still names the subject asked about.
            let company = store
                .filing_company(referentienummer)
                .map_err(records::problem)?;
            if let Some(session) = &session
                && company.as_deref() != Some(session.as_str())
            {
                if let Some(company) = &company {
                    ctx.subject(company, "KVK_NUMMER");
                    ctx.audit_attribute("overheid.session_refused", true.into());
                }
                return Err(not_found().into());
            }
            let record = store
                .filing_by_reference(referentienummer, session.as_deref())
                .map_err(records::problem)?
                .ok_or_else(not_found)?;
            let result = rvo_cli::record::read(&record).map_err(|p| damaged(&record.key, &p))?;
            Overzicht::from_local(result)
        }
        Backend::Http(_) => {
            let response = ctx.send(&passed.take()?)?;
            if response.status == 404 {
                return Err(not_found().with_status(response.status).into());
            }
            if response.status != 200 {
                return Err(error_for(&response, Call::Get));
            }
            let record: RapportageRecord = parse(&response)?;
            if record.referentienummer != referentienummer {
                return Err(Problem::protocol(format!(
                    "de backend gaf rapportage {} terug in plaats van {referentienummer}",
                    record.referentienummer
                ))
                .with_status(response.status)
                .into());
            }
            Overzicht::from_http(record)
        }
    };
    ctx.subject(&overzicht.aanvraag.kvk_nummer, "KVK_NUMMER");
    if session.is_some_and(|number| number != overzicht.aanvraag.kvk_nummer) {
        ctx.audit_attribute("overheid.session_refused", true.into());
        let refusal = not_found();
        return Err(match &backend {
            Backend::Lokaal(_) => refusal.into(),
            Backend::Http(_) => refusal.with_status(404).into(),
        });
    }
    let data = to_json(&overzicht)?;
    Ok(backend.outcome(&passed, data, &format!("rapportage:{referentienummer}")))
}
