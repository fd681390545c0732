//! The HTTP backend of `spec/rvo-backend.md`: the requests rvo-cli makes and how it reads the
//! answers. Statuses map to exit codes as the profile says (`common`'s shared mapping), with the
//! contract's own meaning of 422 on filing and 409 on top; a success with another shape is 76.

use common::source::{Source, SourceSpec};
use common::{
    Context, Environment, Error, ExitStatus, FieldError, Problem, Request, Response, Result,
};
use rvo_cli::backend_types::{
    API_BASE_ENV, API_TOKEN_ENV, APPROVAL_REQUIRED_TYPE, AUTHORIZATION_HEADER,
    IDEMPOTENCY_KEY_HEADER, RapportageAanvraag, SERVICE_HEADER, bearer, rapportage_url,
    rapportages_url,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

const ACCEPT: &str = "application/json, application/problem+json";

/// The contract backend as a source: only when `RVO_API_BASE` is set, and never production (no
/// endpoint of this contract is a documented production service of RVO).
const SOURCE: SourceSpec = SourceSpec {
    var: API_BASE_ENV,
    default: None,
    production: None,
};

/// A configured HTTP backend: base URL, the service credential if any, and a person's approval
/// token when this call applies an approved proposal.
pub(crate) struct HttpBackend {
    base: String,
    token: Option<String>,
    approval: Option<String>,
    environment: Environment,
}

impl HttpBackend {
    /// Checks `RVO_API_BASE` (`common::source`: https, or http to a loopback host; else exit
    /// 78) and reads the token.
    pub(crate) fn from_env(ctx: &Context<'_>) -> Result<Self> {
        let source = Source::from_env(ctx, SOURCE)?;
        Ok(HttpBackend {
            base: source.base,
            token: ctx.env(API_TOKEN_ENV).map(str::to_string),
            approval: None,
            environment: source.environment,
        })
    }

    /// The base URL (without a trailing `/`): the target an approval is bound to.
    pub(crate) fn base(&self) -> &str {
        &self.base
    }

    /// Files with the person's approval token `token` (contract 2.0): it becomes the
    /// `Authorization`, and the service credential moves to its own header.
    pub(crate) fn with_approval(&mut self, token: String) {
        common::secrets::hold(&token);
        self.approval = Some(token);
    }

    /// `local` for a loopback backend (a fake), `test` otherwise.
    pub(crate) fn environment(&self) -> Environment {
        self.environment
    }

    fn with_headers(&self, request: Request) -> Request {
        let request = request.header("Accept", ACCEPT);
        match (&self.approval, &self.token) {
            (Some(approval), Some(token)) => request
                .secret_header(AUTHORIZATION_HEADER, bearer(approval))
                .secret_header(SERVICE_HEADER, token.clone()),
            (Some(approval), None) => request.secret_header(AUTHORIZATION_HEADER, bearer(approval)),
            (None, Some(token)) => request.secret_header(AUTHORIZATION_HEADER, bearer(token)),
            (None, None) => request,
        }
    }

    /// `POST {base}/rapportages` with the plan digest as `Idempotency-Key`.
    pub(crate) fn file_request(&self, aanvraag: &RapportageAanvraag, key: &str) -> Result<Request> {
        let body = serde_json::to_value(aanvraag).map_err(|e| Problem::software(e.to_string()))?;
        Ok(self.with_headers(
            Request::post(rapportages_url(&self.base), body).header(IDEMPOTENCY_KEY_HEADER, key),
        ))
    }

    /// `GET {base}/rapportages/{referentienummer}` (the number is path-safe, checked before).
    pub(crate) fn get_request(&self, referentienummer: &str) -> Request {
        self.with_headers(Request::get(rapportage_url(&self.base, referentienummer)))
    }

    /// `GET {base}/rapportages?kvk_nummer=…`.
    pub(crate) fn list_request(&self, kvk_nummer: &str) -> Request {
        self.with_headers(
            Request::get(rapportages_url(&self.base))
                .query(&[("kvk_nummer", kvk_nummer.to_string())]),
        )
    }
}

/// The body of a success answer as `T`; another shape is exit 76.
pub(crate) fn parse<T: DeserializeOwned>(response: &Response) -> Result<T> {
    let value = serde_json::from_slice(&response.body).map_err(|e| {
        Problem::protocol(format!(
            "het antwoord van de backend (HTTP {}) past niet bij spec/rvo-backend.md: {e}",
            response.status
        ))
        .with_status(response.status)
    })?;
    Ok(value)
}

/// What a call was doing: decides what a 404 and a 422 mean.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Call {
    /// `POST /rapportages`: a 422 is a reused idempotency key; a 404 means the collection is
    /// not where `RVO_API_BASE` says (exit 69).
    File,
    /// `GET /rapportages/{ref}`: names one report, so a 404 means it does not exist (exit 66).
    Get,
    /// `GET /rapportages?kvk_nummer=`: a 404 means the collection is missing (exit 69); no
    /// reports is an empty list, never a 404.
    List,
}

impl Call {
    /// Whether the request named one thing (a 404 is then "not found", else "unavailable").
    fn addressed(self) -> bool {
        matches!(self, Call::Get)
    }
}

/// The profile error for an answer that is not a success of the contract: the shared mapping of
/// `common` (`Response::status_error`), with two refinements of the contract on top: a 422 on
/// filing is `IDEMPOTENTIE_CONFLICT` (exit 65) and a 409 (still in progress) is exit 75 with
/// `retry_after`. The backend's `detail` and, for exit 65, its `errors` are kept.
pub(crate) fn error_for(response: &Response, call: Call) -> Error {
    let status = response.status;
    let problem = BackendProblem::read(&response.body);
    let detail = problem
        .as_ref()
        .and_then(|p| p.detail.clone())
        .unwrap_or_else(|| format!("de backend antwoordde met HTTP {status}"));
    let approval_required = problem
        .as_ref()
        .and_then(|p| p.kind.as_deref())
        .is_some_and(|kind| kind.ends_with(APPROVAL_REQUIRED_TYPE));
    let errors = problem.map(|p| p.errors).unwrap_or_default();
    let error = match status {
        403 if approval_required && call == Call::File => Problem::new(
            ExitStatus::NoPerm,
            common::codes::GOEDKEURING_VEREIST,
            "Goedkeuring door een persoon vereist",
            format!("de backend dient alleen in met de goedkeuring van een persoon (een token van diens login): {detail}; er is niets ingediend"),
        )
        .with_hint(
            "stel een voorstel op (rvo-cli rapportage voorstel) en laat een persoon het goedkeuren met een login (rvo-cli voorstel goedkeuren ID of de goedkeuringspagina); dien het daarna in met --voorstel ID",
        )
        .with_status(status),
        422 if call == Call::File => Problem::new(
            ExitStatus::DataErr,
            common::codes::IDEMPOTENTIE_CONFLICT,
            "Plan-digest al gebruikt voor een andere rapportage",
            detail,
        )
        .with_hint("er is niets ingediend; controleer de argumenten en vraag een nieuw plan op")
        .with_status(status),
        409 => {
            let wait = response.retry_after().unwrap_or(1).max(1);
            Problem::temporary(
                format!("dezelfde rapportage wordt nog verwerkt: {detail}"),
                Some(wait),
            )
            .with_hint(retry_hint(wait))
            .with_status(status)
        }
        _ => {
            let error = response.status_error(detail, call.addressed());
            match (error.exit, status) {
                (ExitStatus::NoPerm, _) => error.with_hint(format!(
                    "controleer {API_TOKEN_ENV}; het token moet voor dit KvK-nummer mogen handelen"
                )),
                (ExitStatus::TempFail, _) => {
                    let wait = response.retry_after().unwrap_or(1);
                    error.with_hint(retry_hint(wait))
                }
                (ExitStatus::Unavailable, 404 | 410) => error.with_hint(format!(
                    "de backend kent dit pad niet; controleer {API_BASE_ENV}"
                )),
                _ => error,
            }
        }
    };
    with_errors(error.into(), errors)
}

/// What rvo-cli keeps of a problem body (RFC 9457: every member is optional, `type` defaults to
/// `about:blank`): its `detail` (else its `title`) and the well-formed entries of `errors`.
/// Members of another type are ignored one by one, so one odd member never costs the others.
struct BackendProblem {
    /// The problem `type`.
    kind: Option<String>,
    detail: Option<String>,
    errors: Vec<FieldError>,
}

impl BackendProblem {
    /// `None` when the body is not a JSON object.
    fn read(body: &[u8]) -> Option<Self> {
        let value: Value = serde_json::from_slice(body).ok()?;
        let object = value.as_object()?;
        let text = |name: &str| object.get(name).and_then(Value::as_str).map(str::to_string);
        let errors = object
            .get("errors")
            .and_then(Value::as_array)
            .map(|entries| {
                entries
                    .iter()
                    .filter_map(|entry| {
                        Some(FieldError {
                            pointer: entry.get("pointer")?.as_str()?.to_string(),
                            detail: entry.get("detail")?.as_str()?.to_string(),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(BackendProblem {
            kind: text("type"),
            detail: text("detail").or_else(|| text("title")),
            errors,
        })
    }
}

fn retry_hint(wait: u64) -> String {
    format!("probeer het over {wait} seconden opnieuw met hetzelfde commando; dat is veilig")
}

fn with_errors(mut error: Error, errors: Vec<FieldError>) -> Error {
    if let Error::Problem(problem) = &mut error
        && problem.exit == ExitStatus::DataErr
    {
        problem.errors = errors;
    }
    error
}
