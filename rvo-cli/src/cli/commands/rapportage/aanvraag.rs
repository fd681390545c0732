//! What `rapportage indienen` and `rapportage voorstel` share: the report's arguments,
//! recording a planned filing as a proposal ([`propose`]), and planning a filing from them
//! ([`plan`], one function a step: the options' patterns ([`check_patterns`]) → re-check the
//! concept ([`recheck_concept`]) → the filing's input ([`filing_input`]) → validate and
//! canonicalise, all errors at once ([`validate_and_canonicalise`]) → session rule →
//! configuration ([`configuration`]) → a completed key → the scheme's state ([`scheme_state`])
//! → the plan ([`Planned`])).
//! Applying a proposal plans again from the input it recorded ([`StoredInput`]), so the same
//! checks run before the approval and after it.

use chrono::NaiveDate;
use common::args::{KvkNummer, Peildatum, is_kvk_nummer};
use common::http::Request;
use common::plan::Plan;
use common::validate::{Validation, is_digits};
use common::{Context, PlanSpec, Problem, Result, session};
use overheid_records::{DEFAULT_TTL, NewProposal, Proposal, ProposedCall, Store};
use rvo_cli::backend_types::{FieldError, RapportageAanvraag};
use rvo_cli::catalogue::{Catalogue, Regeling};
use rvo_cli::filing::{
    FilingInput, FilingResult, canonicalise, check_scheme, idempotency_key, split_maatregelen,
    validate,
};
use rvo_cli::inhoud::{FromConcept, InhoudInput};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cli::backend::Backend;
use crate::cli::clock;
use crate::cli::commands::regeling::REGELING_ID_SCHEMA;
use crate::cli::concept;
use crate::cli::records;
use crate::cli::tool::TOOL;

common::arguments! {
    /// The report's arguments (shared by `indienen` and `voorstel`), with their published
    /// schemas; serialised, the input a proposal records ([`StoredInput`]).
    #[derive(clap::Args, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
    pub(crate) struct FilingArgs {
        /// Het rapporterende bedrijf; standaard KVK_SESSIE_NUMMER
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub kvk_nummer: Option<String> => (KvkNummer::SCHEMA.schema),
        /// Regeling met indienbaar_via_cli, bijv. EBR-2027 (met --concept: uit het concept)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub regeling_id: Option<String> => (REGELING_ID_SCHEMA),
        /// Getroffen maatregelen, komma-gescheiden (zonder --concept)
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub maatregelen: Option<String> => {
            "minLength": 1, "examples": ["LED-verlichting,Isolatie dak"]
        },
        /// Vrije tekst, ten hoogste 2000 tekens
        #[arg(long, value_name = "TEKST")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub toelichting: Option<String> => {"maxLength": 2000},
        /// Dien een concept-aanvraag in (JSON van regelrecht-cli concept), of '-' voor stdin; wordt eerst opnieuw getoetst
        #[arg(long, value_name = "BESTAND")]
        #[serde(skip)]
        pub concept: Option<String> => path_or_stdin_json_object,
        /// Maatregel van de erkende lijst (code of naam); herhaalbaar, met --concept
        #[arg(long, value_name = "CODE|NAAM")]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub maatregel: Vec<String> => {
            "type": "array", "items": {"type": "string", "minLength": 1},
            "examples": [["GF4", "LED-verlichting"]]
        },
        /// Andere maatregel, terugverdiend in ten hoogste vijf jaar (art. 5.15a lid 1 onder d); herhaalbaar, met --concept
        #[arg(long, value_name = "TEKST")]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub overige_maatregel: Vec<String> => {
            "type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 200}
        },
        /// Jaar van het gemeten energiegebruik, met --concept
        #[arg(long, value_name = "JJJJ")]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub kalenderjaar: Option<String> => {"pattern": "^[0-9]{4}$", "examples": ["2025"]},
        #[command(flatten)]
        #[serde(flatten, skip_serializing_if = "no_peildatum")]
        pub peildatum: Peildatum => flatten,
    }
}

/// Whether no `--peildatum` was given: a recorded input then has no `peildatum` member.
fn no_peildatum(peildatum: &Peildatum) -> bool {
    !peildatum.is_given()
}

impl FilingArgs {
    /// Whether any of the report's arguments was given.
    pub(crate) fn any_given(&self) -> bool {
        *self != Self::default()
    }

    /// Where the concept comes from, as given on the command line.
    pub(crate) fn concept_input(&self) -> ConceptInput<'_> {
        match &self.concept {
            Some(source) => ConceptInput::Path(source),
            None => ConceptInput::Absent,
        }
    }
}

/// The concept of a filing: none, a file (or `-`), or the document itself (a recorded proposal).
pub(crate) enum ConceptInput<'a> {
    Absent,
    Path(&'a str),
    Value(Value),
}

/// The input a proposal records: the report's arguments as meant (positionals resolved, the
/// company's number always given), serialised, with the concept as a document rather than a
/// path: enough to plan the same filing again.
///
/// Forward compatible in a store shared by replicas of different releases (a rolling upgrade):
/// a member this release does not know is kept (`rest`) rather than refused, and `versie` says
/// which format wrote it; only a newer *major* format ([`STORED_INPUT_MAJOR`]) is refused.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct StoredInput {
    /// The format of this record: `<major>.<minor>`; absent in records from before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versie: Option<String>,
    #[serde(flatten)]
    pub args: FilingArgs,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concept: Option<Value>,
    /// Members of a newer minor format, kept as they were.
    #[serde(flatten)]
    pub rest: serde_json::Map<String, Value>,
}

/// The major format of [`StoredInput`] this release writes and reads; a record of a higher
/// major is refused (its meaning may have changed), a higher minor is read.
pub(crate) const STORED_INPUT_MAJOR: u32 = 1;
/// The format this release writes.
const STORED_INPUT_VERSION: &str = "1.0";

impl StoredInput {
    /// A proposal's recorded input, if it is one: it names the company (the plan resolved it).
    /// `rest` keeps only the members this release does not know (serde gives a flattened map
    /// every member when the arguments, which flatten `Peildatum`, are read as a map too).
    pub(crate) fn read(record: &Value) -> Option<Self> {
        let mut input = Self::deserialize(record).ok()?;
        input
            .rest
            .retain(|member, _| !FilingArgs::SCHEMAS.iter().any(|arg| arg.name == member));
        input.args.kvk_nummer.is_some().then_some(input)
    }

    /// Whether this release can apply a record of this format: its major is not newer.
    pub(crate) fn readable(&self) -> bool {
        self.versie
            .as_deref()
            .and_then(|v| v.split('.').next()?.parse::<u32>().ok())
            .is_none_or(|major| major <= STORED_INPUT_MAJOR)
    }

    /// The arguments and the concept to plan this input again.
    pub(crate) fn to_args(&self) -> (FilingArgs, ConceptInput<'static>) {
        let concept = match &self.concept {
            Some(value) => ConceptInput::Value(value.clone()),
            None => ConceptInput::Absent,
        };
        (self.args.clone(), concept)
    }
}

/// A planned filing: everything the gate and the filing need.
pub(crate) struct Planned {
    pub aanvraag: RapportageAanvraag,
    /// The idempotency key: the plan digest of `rapportage indienen`.
    pub key: String,
    pub backend: Backend,
    /// The first result, when the key was filed before (MUT-9).
    pub completed: Option<FilingResult>,
    pub regeling: Option<&'static Regeling>,
    pub date: NaiveDate,
    /// The request to the HTTP backend.
    pub request: Option<Request>,
    /// The concept's digest, when filed from a concept.
    pub concept_digest: Option<String>,
    /// The company's reports of this scheme filed before under another key.
    pub filed_in_round: Vec<serde_json::Value>,
    /// The input as a proposal records it.
    pub input: StoredInput,
}

impl Planned {
    /// What an approval of this filing is bound to besides the plan: the company, the scheme,
    /// the target (`lokaal` or the backend's base URL) and the peildatum.
    pub(crate) fn binding(&self) -> Value {
        serde_json::json!({
            "kvk_nummer": self.aanvraag.kvk_nummer,
            "regeling_id": self.aanvraag.regeling_id,
            "backend": self.backend.target(),
            "peildatum": self.date.to_string(),
        })
    }

    /// The plan of filing this report (`rapportage indienen`'s arguments and effect).
    pub(crate) fn spec(&self) -> Result<PlanSpec> {
        let where_to = match &self.backend {
            Backend::Lokaal(_) => "lokaal, er gaat niets naar RVO",
            Backend::Http(_) => "via de backend van RVO_API_BASE",
        };
        let mut plan = PlanSpec::of_request(&self.aanvraag)
            .effect(format!(
                "Dient een rapportage in voor {} namens {} ({where_to}).",
                self.aanvraag.regeling_id, self.aanvraag.kvk_nummer
            ))
            .extra("backend", self.backend.name().into())
            .extra("peildatum", self.date.to_string().into())
            // What the agent wrote itself: the person sees it quoted as the agent's words.
            .caller_text("/arguments/toelichting")
            .caller_text("/arguments/inhoud/overige_maatregelen");
        // The scheme by name, for the person who approves (the page shows the plan).
        if let Some(regeling) = self.regeling {
            plan = plan.extra("regeling_naam", regeling.naam.clone().into());
        }
        if self.completed.is_some() {
            plan = plan.extra("al_ingediend", true.into());
        }
        // Another report of this round was filed already: the person sees it before approving.
        if !self.filed_in_round.is_empty() {
            let earlier: Vec<String> = self
                .filed_in_round
                .iter()
                .map(|filed| {
                    let text = |name: &str| filed[name].as_str().unwrap_or("?").to_string();
                    format!("{} op {}", text("referentienummer"), text("ingediend_op"))
                })
                .collect();
            plan = plan
                .extra("eerder_ingediend", self.filed_in_round.clone().into())
                .notice(format!(
                    "Voor deze regeling is al een rapportage ingediend ({}). Dit voorstel dient een tweede in.",
                    earlier.join(", ")
                ));
        }
        if let Some(request) = &self.request {
            plan = plan.request(request.clone());
        }
        Ok(plan)
    }
}

/// The positionals as meant: a first one that is not all digits is the scheme id, so
/// `indienen EBR-2027 "LED"` with `KVK_SESSIE_NUMMER` set takes the number from the session.
fn positionals(args: &FilingArgs) -> (Option<String>, Option<String>, Option<String>) {
    let first = args.kvk_nummer.clone();
    let looks_like_number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    match first {
        Some(text) if !looks_like_number(&text) && args.maatregelen.is_none() => {
            (None, Some(text), args.regeling_id.clone())
        }
        first => (first, args.regeling_id.clone(), args.maatregelen.clone()),
    }
}

/// Plans the filing of `args` (with `concept`): every check before the gate. A `store` this
/// call opened already is the local sandbox's (taken out of the option; left for the caller
/// with the HTTP backend), so a process opens the store once.
pub(crate) fn plan(
    ctx: &mut Context<'_>,
    args: &FilingArgs,
    concept: ConceptInput<'_>,
    store: &mut Option<Store>,
) -> Result<Planned> {
    plan_approved(ctx, args, concept, store, None)
}

/// The positionals as meant (see [`positionals`]): the company's number, the scheme and the
/// measures as given.
struct Given {
    kvk_nummer: Option<String>,
    regeling_id: Option<String>,
    maatregelen: Option<String>,
}

/// [`plan`] of an approved proposal's filing: with the person's approval `token` (when the
/// decision has one), which an HTTP backend's request carries (contract 2.0). Its steps are the
/// module header's.
pub(crate) fn plan_approved(
    ctx: &mut Context<'_>,
    args: &FilingArgs,
    concept: ConceptInput<'_>,
    store: &mut Option<Store>,
    token: Option<String>,
) -> Result<Planned> {
    let catalogue = Catalogue::embedded();
    let mut validation = Validation::new();
    let date = args.peildatum.date(clock::today(ctx), &mut validation);
    let (kvk_nummer, regeling_id, maatregelen) = positionals(args);
    let given = Given {
        kvk_nummer,
        regeling_id,
        maatregelen,
    };
    check_patterns(args)?;
    let concept = read_concept(concept)?;
    let from_concept = recheck_concept(ctx, args, concept.as_ref(), &given, &mut validation)?;
    let input = filing_input(ctx, args, &given, from_concept.as_ref())?;
    let aanvraag = validate_and_canonicalise(catalogue, &input, date, validation)?;
    session::enforce(ctx, &aanvraag.kvk_nummer)?;
    let mut backend = configuration(ctx, store, token)?;
    let key = idempotency_key(&aanvraag).map_err(|e| Problem::software(e.to_string()))?;
    // A completed key returns its first result whatever the date or the catalogue now say
    // (MUT-9): look it up before any check whose outcome can change between a filing and its
    // retry. The HTTP backend can only be asked by filing, so there the backend judges the
    // scheme's state after its own key lookup (spec/rvo-backend.md).
    let completed = backend.completed(&key, &aanvraag)?;
    let filed_in_round = backend.filed_in_round(&key, &aanvraag)?;
    let regeling = scheme_state(catalogue, &aanvraag, date, completed.is_some(), &backend)?;
    let request = match &backend {
        Backend::Http(http) => Some(http.file_request(&aanvraag, &key)?),
        Backend::Lokaal(_) => None,
    };
    let concept_digest = concept
        .as_ref()
        .and_then(|c| c["concept_digest"].as_str())
        .map(str::to_string);
    let input = StoredInput::of_plan(args, given, &aanvraag, concept);
    Ok(Planned {
        aanvraag,
        key,
        backend,
        completed,
        regeling,
        date,
        request,
        concept_digest,
        filed_in_round,
        input,
    })
}

/// The options' own patterns first, so a bad value is 65 whatever else is given.
fn check_patterns(args: &FilingArgs) -> Result<()> {
    let mut patterns = Validation::new();
    if let Some(year) = &args.kalenderjaar {
        patterns.check(is_digits(year, 4), "kalenderjaar", || {
            format!("{year:?} is geen kalenderjaar (JJJJ)")
        });
    }
    patterns.finish()?;
    Ok(())
}

/// The concept as a document: read from its file (or stdin), or as a proposal recorded it.
fn read_concept(concept: ConceptInput<'_>) -> Result<Option<Value>> {
    Ok(match concept {
        ConceptInput::Absent => None,
        ConceptInput::Path(source) => Some(
            common::input::read_json(source, concept::MAX_CONCEPT_BYTES).map_err(|detail| {
                Problem::invalid(vec![common::FieldError::new("concept", detail)])
            })?,
        ),
        ConceptInput::Value(value) => Some(value),
    })
}

/// Re-checks the concept (with the options that complete it) and what was given beside it,
/// which must agree with it (into `validation`); without a concept, its options are a usage
/// error.
fn recheck_concept(
    ctx: &mut Context<'_>,
    args: &FilingArgs,
    concept: Option<&Value>,
    given: &Given,
    validation: &mut Validation,
) -> Result<Option<FromConcept>> {
    let Some(concept) = concept else {
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
        return Ok(None);
    };
    let input = InhoudInput {
        concept,
        maatregelen: &args.maatregel,
        overige: &args.overige_maatregel,
        kalenderjaar: args.kalenderjaar.as_deref(),
    };
    let filed = concept::file_concept(ctx, &input)?;
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
        !differs(&given.kvk_nummer, &filed.kvk_nummer, false),
        "kvk_nummer",
        || format!("het concept is van KvK-nummer {}", filed.kvk_nummer),
    );
    validation.check(
        !differs(&given.regeling_id, &filed.regeling_id, true),
        "regeling_id",
        || format!("het concept leidt tot regeling {}", filed.regeling_id),
    );
    validation.check(given.maatregelen.is_none(), "maatregelen", || {
        "met --concept gaan maatregelen met --maatregel en --overige-maatregel".to_string()
    });
    Ok(Some(filed))
}

/// The filing's input, from the concept or from the positionals: the company's number from the
/// concept or the session, the call's subject when it is one.
fn filing_input(
    ctx: &mut Context<'_>,
    args: &FilingArgs,
    given: &Given,
    from_concept: Option<&FromConcept>,
) -> Result<FilingInput> {
    let kvk_nummer = match from_concept {
        Some(filed) => filed.kvk_nummer.clone(),
        None => session::kvk_number(ctx, given.kvk_nummer.as_deref())?,
    };
    if from_concept.is_none() && (given.regeling_id.is_none() || given.maatregelen.is_none()) {
        return Err(
            Problem::usage("geef REGELING_ID en MAATREGELEN, of --concept BESTAND")
                .with_hint("rvo-cli rapportage indienen [KVK_NUMMER] REGELING_ID MAATREGELEN")
                .into(),
        );
    }
    if is_kvk_nummer(&kvk_nummer) {
        ctx.subject(&kvk_nummer, "KVK_NUMMER");
    }
    Ok(match from_concept {
        Some(filed) => FilingInput {
            kvk_nummer,
            regeling_id: filed.regeling_id.clone(),
            maatregelen: filed.maatregelen.clone(),
            toelichting: args.toelichting.clone(),
            inhoud: Some(filed.inhoud.clone()),
        },
        None => FilingInput {
            kvk_nummer,
            regeling_id: given.regeling_id.clone().unwrap_or_default(),
            maatregelen: split_maatregelen(given.maatregelen.as_deref().unwrap_or_default()),
            toelichting: args.toelichting.clone(),
            inhoud: None,
        },
    })
}

/// The backend's field errors into `validation`, as its fields.
fn push_field_errors(validation: &mut Validation, errors: Vec<FieldError>) {
    for error in errors {
        validation.push(error.pointer.trim_start_matches('/'), error.detail);
    }
}

/// Validates and canonicalises the input: every error at once (those already in `validation`,
/// the scheme's state included).
fn validate_and_canonicalise(
    catalogue: &Catalogue,
    input: &FilingInput,
    date: NaiveDate,
    mut validation: Validation,
) -> Result<RapportageAanvraag> {
    let aanvraag = canonicalise(input);
    if aanvraag.is_err() {
        // Every error at once, the scheme's state included.
        if let Err(errors) = validate(catalogue, input, date) {
            push_field_errors(&mut validation, errors);
        }
    }
    validation.finish()?;
    // Its errors are in `validation` already, so this is `Ok`; the error is mapped all the same.
    aanvraag.map_err(|errors| {
        Problem::invalid(
            errors
                .into_iter()
                .map(|e| common::FieldError::new(e.pointer.trim_start_matches('/'), e.detail))
                .collect(),
        )
        .into()
    })
}

/// The backend the configuration names: the local sandbox adopts a `store` this call opened
/// already; an HTTP backend's request carries the approval `token`.
fn configuration(
    ctx: &mut Context<'_>,
    store: &mut Option<Store>,
    token: Option<String>,
) -> Result<Backend> {
    let mut backend = Backend::from_env(ctx)?;
    match &mut backend {
        Backend::Lokaal(local) => {
            if let Some(opened) = store.take() {
                local.adopt(opened);
            }
        }
        Backend::Http(http) => {
            if let Some(token) = token {
                http.with_approval(token);
            }
        }
    }
    Ok(backend)
}

/// The scheme's state on `date`, checked here only for a new filing in the local sandbox (the
/// HTTP backend judges it itself); the scheme, when the catalogue has it.
fn scheme_state(
    catalogue: &'static Catalogue,
    aanvraag: &RapportageAanvraag,
    date: NaiveDate,
    completed: bool,
    backend: &Backend,
) -> Result<Option<&'static Regeling>> {
    Ok(match (completed, backend) {
        (false, Backend::Lokaal(_)) => match check_scheme(catalogue, &aanvraag.regeling_id, date) {
            Ok(regeling) => Some(regeling),
            Err(errors) => {
                let mut validation = Validation::new();
                push_field_errors(&mut validation, errors);
                validation.finish()?;
                None
            }
        },
        _ => catalogue.get(&aanvraag.regeling_id).ok(),
    })
}

impl StoredInput {
    /// The input a proposal of this plan records: the arguments as meant, the company's number
    /// resolved, the concept as a document.
    fn of_plan(
        args: &FilingArgs,
        given: Given,
        aanvraag: &RapportageAanvraag,
        concept: Option<Value>,
    ) -> Self {
        Self {
            versie: Some(STORED_INPUT_VERSION.to_string()),
            args: FilingArgs {
                kvk_nummer: Some(aanvraag.kvk_nummer.clone()),
                regeling_id: given.regeling_id,
                maatregelen: given.maatregelen,
                concept: None,
                ..args.clone()
            },
            concept,
            rest: serde_json::Map::new(),
        }
    }
}

/// Records the planned filing as a proposal (or finds the live one of the same plan and
/// binding): the store it is in, the proposal, and whether it is new. Sends nothing.
pub(crate) fn propose(
    ctx: &mut Context<'_>,
    planned: &mut Planned,
) -> Result<(Store, Proposal, bool)> {
    let command = format!("{} {}", TOOL.name, records::APPLY_COMMAND);
    let plan = Plan::build(TOOL.name, &command, true, false, planned.spec()?);
    let new = NewProposal {
        call: ProposedCall {
            company: planned.aanvraag.kvk_nummer.clone(),
            tool: TOOL.name.into(),
            command: records::APPLY_COMMAND.into(),
            input: serde_json::to_value(&planned.input)
                .map_err(|e| common::Problem::software(e.to_string()))?,
            plan: plan.json,
            plan_digest: plan.digest,
            concept_digest: planned.concept_digest.clone(),
            binding: Some(planned.binding()),
        },
        ttl: DEFAULT_TTL,
        proposed_by: records::proposer(ctx),
        proposed_via: records::proposing_client(ctx)?,
    };
    // The local sandbox's store is the proposals' store: the one connection of this call.
    let mut store = match &mut planned.backend {
        Backend::Lokaal(local) => local.take()?,
        Backend::Http(_) => records::open(ctx)?,
    };
    let (proposal, is_new) = store
        .propose(&new, clock::now())
        .map_err(records::problem)?;
    rvo_cli::hook::pause(rvo_cli::hook::Phase::Proposed);
    ctx.audit_attribute("overheid.voorstel_id", proposal.id.clone().into());
    Ok((store, proposal, is_new))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The recorded input is [`FilingArgs`] serialised (with the concept as a document, never its
    /// path) beside its format: every member of a full record is read into the arguments and
    /// written back as it was, one this release does not know included.
    #[test]
    fn a_recorded_input_is_the_serialised_arguments_with_its_format() {
        let record = json!({
            "versie": "1.3", "kvk_nummer": "68750110", "regeling_id": "EBR-2027",
            "maatregelen": "LED", "toelichting": "t", "concept": {"jaar": 2025, "f": 1.5},
            "maatregel": ["GF4"], "overige_maatregel": ["zon"], "kalenderjaar": "2025",
            "peildatum": "2027-01-01", "een_nieuw_gegeven": {"van": "later"}
        });
        let input = StoredInput::read(&record).unwrap();
        assert_eq!(input.args.maatregel, ["GF4"]);
        assert_eq!(
            input.args.peildatum.peildatum.as_deref(),
            Some("2027-01-01")
        );
        assert_eq!(input.args.concept, None);
        assert_eq!(input.rest.keys().collect::<Vec<_>>(), ["een_nieuw_gegeven"]);
        assert_eq!(serde_json::to_value(&input).unwrap(), record);
        // Without the company's number it is no recorded input.
        let mut nameless = record;
        nameless.as_object_mut().unwrap().remove("kvk_nummer");
        assert!(StoredInput::read(&nameless).is_none());
    }

    /// What was not given is not recorded (no `null`, no empty list), as before the record was
    /// the arguments serialised; a concept's path is not recorded.
    #[test]
    fn a_recorded_input_leaves_out_what_was_not_given() {
        let args = FilingArgs {
            kvk_nummer: Some("68750110".into()),
            regeling_id: Some("EBR-2027".into()),
            maatregelen: Some("LED".into()),
            concept: Some("concept.json".into()),
            ..FilingArgs::default()
        };
        let input = StoredInput {
            versie: Some(STORED_INPUT_VERSION.into()),
            args,
            concept: None,
            rest: serde_json::Map::new(),
        };
        assert_eq!(
            serde_json::to_value(&input).unwrap(),
            json!({"versie": "1.0", "kvk_nummer": "68750110", "regeling_id": "EBR-2027",
                   "maatregelen": "LED"})
        );
    }

    /// Every argument of the report has its published schema, declared on its field.
    #[test]
    fn the_reports_schemas_are_its_fields() {
        let names: Vec<_> = FilingArgs::SCHEMAS.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            [
                "kvk_nummer",
                "regeling_id",
                "maatregelen",
                "toelichting",
                "concept",
                "maatregel",
                "overige_maatregel",
                "kalenderjaar",
                "peildatum"
            ]
        );
    }
}
