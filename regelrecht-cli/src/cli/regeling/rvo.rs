//! The RVO catalogue's schemes for one company (issue 40 item 5): which may apply, and why.
//!
//! The catalogue is rvo-cli's (`rvo-cli regeling lijst`: its schemes, their status on the day,
//! deadlines and target groups): it is run as a child through its profile like every source
//! (discovery first, then one call with `--fields` and `--provenance`), so the catalogue and
//! the status of a scheme have one home. What this tool adds is `rvo.json`: per scheme the rule
//! on registration data, and what it further depends on that no registration says. The answer
//! is "mogelijk van toepassing" at most, never an entitlement or a duty.

use std::collections::BTreeMap;

use common::Context;
use common::Result;
use common::child::ChildFailure;
use serde_json::{Value, json};

use super::applicability::{self, UNKNOWN};
use super::definition::{Catalogue, CatalogueCommand};
use super::sourcing::{self, Sourced};
use crate::cli::next_steps::{self, Arg};

/// The members of a scheme asked of the catalogue.
const FIELDS: [&str; 8] = [
    "regelingen[].id",
    "regelingen[].naam",
    "regelingen[].soort",
    "regelingen[].status",
    "regelingen[].deadline",
    "regelingen[].doelgroep",
    "regelingen[].url",
    "peildatum",
];

/// The catalogue as rvo-cli gave it: its schemes and the provenance of its answer.
pub(crate) struct Listed {
    pub schemes: Vec<Value>,
    pub provenance: Value,
}

/// The call that lists the catalogue, for the plan (DRY-6).
pub(crate) fn planned(command: &CatalogueCommand) -> Value {
    json!({
        "bron": "rvo-catalogus",
        "programma": command.programma,
        "commando": command.commando,
        "fields": FIELDS,
        "toestemming_nodig": false,
        "wordt_opgevraagd": true,
    })
}

/// The catalogue's schemes from `command`, or why they could not be listed.
pub(crate) fn list(
    ctx: &Context<'_>,
    command: &CatalogueCommand,
) -> Result<std::result::Result<Listed, ChildFailure>> {
    let naam = "RVO-regelingencatalogus";
    if let Err(failure) = sourcing::usable(ctx, naam, &command.programma, &command.commando, false)?
    {
        return Ok(Err(failure));
    }
    let envelope =
        match sourcing::envelope(ctx, &command.programma, command.commando.clone(), &FIELDS)? {
            Ok(envelope) => envelope,
            Err(failure) => return Ok(Err(failure)),
        };
    let Some(schemes) = envelope["data"]["regelingen"].as_array() else {
        return Ok(Err(ChildFailure {
            exit_code: 76,
            code: common::codes::VELD_ONTBREEKT.name.into(),
            detail: format!("{} gaf geen regelingen", command.programma),
        }));
    };
    Ok(Ok(Listed {
        schemes: schemes.clone(),
        provenance: envelope["provenance"].clone(),
    }))
}

/// One entry per scheme of the catalogue, in its order: what rvo-cli says of it, the outcome on
/// registration data `data` by the rule of `rvo.json` (a scheme without a rule is `onbekend`),
/// why, what it further depends on, and the concept that computes it when there is one.
pub(crate) fn verdicts(
    catalogue: &Catalogue,
    listed: &Listed,
    data: &BTreeMap<String, Sourced>,
    kvk: &str,
) -> Vec<Value> {
    let provenance = json!({
        "bron": listed.provenance["source"],
        "bron_url": listed.provenance["source_url"],
        "opgehaald_op": listed.provenance["retrieved_at"],
        "herkomst_sha256": listed.provenance["response_sha256"],
    });
    listed
        .schemes
        .iter()
        .map(|scheme| {
            let id = scheme["id"].as_str().unwrap_or_default();
            let mut entry = json!({
                "regeling_id": id,
                "naam": scheme["naam"],
                "soort": scheme["soort"],
                "status": scheme["status"],
                "deadline": scheme["deadline"],
                "url": scheme["url"],
                "doelgroep": scheme["doelgroep"],
                "catalogus": provenance,
            });
            match catalogue.rvo.get(id) {
                None => {
                    entry["uitkomst"] = UNKNOWN.into();
                    entry["waarom"] =
                        "voor deze regeling is geen regel op registratiegegevens bekend; zie de doelgroep"
                            .into();
                    entry["hangt_af_van"] = json!([]);
                }
                Some(rule) => {
                    let verdict = applicability::judge(&rule.toepasselijkheid, data);
                    entry["uitkomst"] = verdict.uitkomst.into();
                    entry["waarom"] = rule.toepasselijkheid.omschrijving.clone().into();
                    entry["regel"] = json!(rule.toepasselijkheid.alle);
                    entry["gebruikte_gegevens"] = verdict.used.into();
                    entry["ontbreekt"] = verdict.missing.into();
                    entry["hangt_af_van"] = rule.hangt_af_van.clone().into();
                    if let Some(concept) = &rule.concept {
                        entry["volgende_stappen"] = json!([next_steps::step(
                            "de concept-aanvraag die uitrekent of het geldt",
                            "regelrecht-cli",
                            &["concept"],
                            &[
                                Arg::Positional("regeling", concept.clone()),
                                Arg::Positional("kvk_nummer", kvk.to_string()),
                            ],
                        )]);
                    }
                }
            }
            entry
        })
        .collect()
}

/// The data kinds the rules of `rvo.json` read.
pub(crate) fn wanted(catalogue: &Catalogue) -> impl Iterator<Item = &str> {
    catalogue
        .rvo
        .values()
        .flat_map(|rule| &rule.toepasselijkheid.alle)
        .map(|condition| condition.gegeven.as_str())
}
