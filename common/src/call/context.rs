//! What a running command can see and do: configuration, the gate, the network;
//! and what it leaves behind for its audit record (assembled in [`crate::call::audit::record`]).

use std::time::Instant;

use serde_json::Value;

use crate::call::audit::AuditAttributes;
use crate::call::globals::GlobalArgs;
use crate::call::plan::{Checked, Passed, Plan, PlanSpec};
use crate::call::provenance::Exchange;
use crate::call::tool::{CommandSpec, ToolInfo};
use crate::net::http::{ClientConfig, DEFAULT_MAX_RESPONSE_BYTES, HttpClient, Request, Response};
use crate::print::output::Printer;
use crate::problem::error::{Error, Halt, Problem, Result};
use crate::problem::exit::ExitStatus;
use crate::process::env::{Env, FOREIGN_PROCESSOR, FOREIGN_USER, MAX_RESPONSE_BYTES};
use crate::process::trace::TraceContext;

/// The context of one invocation.
pub struct Context<'a> {
    pub tool: &'static ToolInfo,
    pub spec: &'static CommandSpec,
    /// The full command name, e.g. `kvk-cli basisprofiel toon`.
    pub name: String,
    pub globals: &'a GlobalArgs,
    pub trace: TraceContext,
    pub printer: Printer,
    env: &'a Env,
    deadline: Instant,
    /// The client, and whether it loaded the TLS root store.
    client: Option<(HttpClient, bool)>,
    pub(crate) audit: AuditAttributes,
    pub(crate) exchanges: Vec<Exchange>,
    pub(crate) plan_digest: Option<String>,
    /// The response cache of this invocation, untouched until [`Context::send_cached`].
    cache: crate::net::cache::Session,
    /// `--fields`, parsed and checked against the output schema (or the plan's) before the
    /// command runs.
    pub(crate) selection: Option<crate::data::fields::Selection>,
}

impl<'a> Context<'a> {
    pub(crate) fn new(
        tool: &'static ToolInfo,
        spec: &'static CommandSpec,
        globals: &'a GlobalArgs,
        env: &'a Env,
        trace: TraceContext,
        printer: Printer,
        deadline: Instant,
    ) -> Self {
        Self {
            tool,
            spec,
            name: format!("{} {}", tool.name, spec.path.join(" ")),
            globals,
            trace,
            printer,
            env,
            deadline,
            client: None,
            audit: AuditAttributes::default(),
            exchanges: Vec::new(),
            plan_digest: None,
            cache: crate::net::cache::Session::default(),
            selection: None,
        }
    }

    /// A declared environment variable (the only way commands read the environment).
    pub fn env(&self, name: &str) -> Option<&str> {
        self.env.get(name)
    }

    /// Whether a JSON Lines result prints as lines (OUT-3): not with `--jq`, `--provenance` or
    /// `--output table`, which print one document.
    pub(crate) fn prints_lines(&self) -> bool {
        self.globals.jq.is_none()
            && self.globals.provenance.is_none()
            && self.printer.format != crate::print::output::OutputFormat::Table
    }

    /// Where a command collects the lines of a JSON Lines result (see [`crate::print::lines`]):
    /// spooled, rendered as they come, when they will be printed as lines and stdout is not a
    /// terminal (where a pager would need them whole); else kept as values, also (with a
    /// warning) when no temporary file can be made. The output schema describes each line's
    /// member `selected` (a batch line's `resultaat`): `--fields` selects there, line by line,
    /// and leaves a line without it (an error line) as it is. Call it after the gate: under
    /// `--dry-run` the selection was checked against the plan, which the gate prints instead.
    pub fn json_lines(&self, selected: &'static str) -> crate::print::lines::JsonLines {
        let selection =
            self.selection
                .clone()
                .map(|selection| crate::print::lines::LineSelection {
                    selection,
                    member: selected,
                    deadline: self.deadline,
                });
        if self.prints_lines() && !crate::print::output::stdout_is_terminal() {
            match crate::print::lines::JsonLines::spooled(self.printer, selection.clone()) {
                Ok(lines) => return lines,
                Err(problem) => self.printer.warn(&format!(
                    "{}; de regels blijven tot het einde in het geheugen",
                    problem.detail
                )),
            }
        }
        crate::print::lines::JsonLines::in_memory(selection)
    }

    /// A data subject this call concerns, for the audit record (AUDIT-14).
    /// May be called more than once: a call that concerns several distinct
    /// subjects gets one child record per subject (AUDIT-14); naming the same
    /// subject again changes nothing.
    pub fn subject(&mut self, id: &str, id_type: &'static str) {
        self.audit.add_subject(id, id_type);
    }

    /// The data subject as the answer names it, replacing the identifiers named before it was
    /// known: an establishment's subject is the company it belongs to (SEC-7, AUDIT-14).
    pub fn subject_found(&mut self, id: &str, id_type: &'static str) {
        self.audit.replace_subjects(id, id_type);
    }

    /// An extra audit attribute (never secrets, never response data).
    pub fn audit_attribute(&mut self, key: &str, value: Value) {
        self.audit.extra.insert(key.to_string(), value);
    }

    /// What this invocation left behind for its audit records ([`crate::call::audit::record`]).
    pub(crate) fn audit_call(&self) -> crate::call::audit::record::Call<'_> {
        crate::call::audit::record::Call {
            trace: &self.trace,
            name: &self.name,
            tool: self.tool,
            attributes: &self.audit,
            foreign_processor: self.env(FOREIGN_PROCESSOR),
            foreign_user: self.env(FOREIGN_USER).filter(|user| !user.is_empty()),
            dry_run: self.globals.dry_run,
            plan_digest: self.plan_digest.as_deref(),
            cache: self.cache.used,
        }
    }

    /// The client the command used, if it has the TLS roots when `needs_tls`
    /// (bounds are the caller's to set, [`HttpClient::bounded`]).
    pub(crate) fn used_client(&self, needs_tls: bool) -> Option<HttpClient> {
        match &self.client {
            Some((client, tls)) if *tls || !needs_tls => {
                Some(client.bounded(self.deadline, DEFAULT_MAX_RESPONSE_BYTES))
            }
            _ => None,
        }
    }

    /// The command's deadline (`--timeout`): every local wait ends by it (exit 124).
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Today's date in the Netherlands, the default peildatum (rule DISC-24).
    pub fn today(&self) -> chrono::NaiveDate {
        crate::data::calendar::dutch_date(chrono::Utc::now())
    }

    /// Pass the plan gate: checks the requests (URLs, headers) and the client's
    /// settings as the real call would (exit 78), then stops for
    /// `--dry-run` (exit 0 with the plan) or for a mutation without a valid
    /// `--confirm` (exit 80 / 81). When the command may go on it gets the checked
    /// requests back ([`Passed`]): the only ones [`Context::send`] sends.
    pub fn gate(&mut self, spec: PlanSpec) -> Result<Passed> {
        self.pass_gate(spec, None)
    }

    /// The gate of a mutation a person confirmed by other means than `--confirm` (MUT-15,
    /// MUT-16): an approved proposal, or the start of the digest typed at a terminal. As
    /// [`Context::gate`], but `approved_digest` stands in for `--confirm`: the plan of now must
    /// have it; otherwise the call stops with exit 81 (`VOORSTEL_GEWIJZIGD`) and nothing is sent.
    pub fn gate_approved(&mut self, spec: PlanSpec, approved_digest: &str) -> Result<Passed> {
        self.pass_gate(spec, Some(approved_digest))
    }

    fn pass_gate(&mut self, mut spec: PlanSpec, approved: Option<&str>) -> Result<Passed> {
        spec.check()?;
        if !spec.requests.is_empty() {
            self.client_config()?;
        }
        if self.tool.caches(self.spec) {
            // The cache's variables are configuration like any other (CONF-7): checked here,
            // before any request and in a dry run; the directory is not touched.
            crate::net::cache::Settings::from_env(self.env)?;
        }
        let requests = std::mem::take(&mut spec.requests);
        for request in &requests {
            request.check()?;
        }
        // Show what the client adds, so the plan describes the real request.
        spec.requests = requests
            .iter()
            .map(|request| self.as_sent(request.clone()))
            .collect();
        let mutating = self.spec.is_mutating();
        let dry_run = self.globals.dry_run;
        let plan = Plan::build(self.tool.name, &self.name, mutating, dry_run, spec);
        self.plan_digest = Some(plan.digest.clone());
        if dry_run {
            return Err(Error::Halt(Box::new(Halt::DryRun(plan.json))));
        }
        if mutating {
            // From here a change may be made: Ctrl-C is recorded, never silent (EXIT-11).
            crate::call::interrupt::arm();
        }
        // The operator's policy (MUT-19), read by a mutation only: a file that cannot be
        // trusted refuses every mutation (78), proposals included; one that asks for a login
        // refuses `--confirm` below.
        let login_required = mutating && crate::approval::policy::current()?.identity().is_some();
        // A proposal's confirmation is the person's later approval of it (MUT-18).
        if !mutating || self.spec.annotations.proposes {
            return Ok(Passed::new(plan.digest, requests));
        }
        self.confirmed(plan, requests, approved, login_required)
    }

    /// A mutation passes with the person's confirmation: the approved digest (a proposal's
    /// approval), else `--confirm` with the plan's digest, unless the operator's policy asks
    /// for a login; otherwise it is refused with the plan, and nothing is sent.
    fn confirmed(
        &self,
        plan: Plan,
        requests: Vec<Request>,
        approved: Option<&str>,
        login_required: bool,
    ) -> Result<Passed> {
        let refuse = |plan: Plan, problem: Problem| {
            Err(Error::Halt(Box::new(Halt::Refused(plan.json, problem))))
        };
        if let Some(approved) = approved {
            if plan.digest == approved {
                return Ok(Passed::new(plan.digest, requests));
            }
            let err = Problem::new(
                ExitStatus::PlanStale,
                crate::problem::codes::VOORSTEL_GEWIJZIGD,
                "Plan gewijzigd sinds de goedkeuring",
                format!(
                    "het plan van nu (digest {}) is niet het goedgekeurde plan (digest {approved}); er is niets verzonden",
                    plan.digest
                ),
            )
            .with_hint("stel een nieuw voorstel op en laat dat goedkeuren");
            return refuse(plan, err);
        }
        match self.globals.confirmation() {
            None if login_required => {
                let err = Problem::new(
                    ExitStatus::ConfirmationRequired,
                    crate::problem::codes::BEVESTIGING_VEREIST,
                    "Goedkeuring door een persoon vereist",
                    format!("{} wijzigt gegevens en is niet uitgevoerd", self.name),
                )
                .with_hint(format!(
                    "op deze machine keurt alleen een persoon met een login goed (beleid {}): stel een voorstel op en laat een persoon het goedkeuren",
                    crate::approval::policy::PATH
                ));
                refuse(plan, err)
            }
            None => {
                let err = Problem::new(
                    ExitStatus::ConfirmationRequired,
                    crate::problem::codes::BEVESTIGING_VEREIST,
                    "Bevestiging vereist",
                    format!("{} wijzigt gegevens en is niet uitgevoerd", self.name),
                )
                .with_hint(format!(
                    "controleer het plan op stdout en herhaal met --confirm={}",
                    plan.digest
                ));
                refuse(plan, err)
            }
            Some(_) if login_required => Err(Problem::new(
                ExitStatus::NoPerm,
                crate::problem::codes::GOEDKEURING_VEREIST,
                "Goedkeuring door een persoon vereist",
                format!(
                    "op deze machine keurt alleen een persoon met een login een wijziging goed (beleid {}); --confirm is niet toegestaan en er is niets gedaan",
                    crate::approval::policy::PATH
                ),
            )
            .with_hint("stel een voorstel op en laat een persoon het goedkeuren")
            .into()),
            Some(Some(digest)) if !digest.trim().eq_ignore_ascii_case(&plan.digest) => {
                let err = Problem::new(
                    ExitStatus::PlanStale,
                    crate::problem::codes::PLAN_VERLOPEN,
                    "Plan komt niet overeen",
                    format!(
                        "--confirm={digest} hoort niet bij het plan van deze argumenten (digest {})",
                        plan.digest
                    ),
                )
                .with_hint("controleer het plan op stdout en bevestig met de digest daarvan");
                refuse(plan, err)
            }
            Some(_) => Ok(Passed::new(plan.digest, requests)),
        }
    }

    /// Send a request the gate checked through the one client; the exchange is recorded for
    /// provenance and audit.
    pub fn send(&mut self, request: &Checked) -> Result<Response> {
        if self.globals.dry_run {
            return Err(Problem::software("verzoek tijdens --dry-run (gate overgeslagen)").into());
        }
        self.audit.url = Some(request.url.clone());
        let needs_tls = request.url.starts_with("https:");
        if !matches!(&self.client, Some((_, tls)) if *tls || !needs_tls) {
            self.client = Some((self.build_client(needs_tls)?, needs_tls));
        }
        let scope = crate::net::http::redirect_scope(&request.url, self.base_urls());
        let sent = self.as_sent(Request::clone(request));
        let (client, _) = self.client.as_ref().expect("client was just built");
        let waiting = crate::print::spinner::Spinner::start(
            crate::print::spinner::waiting_for(&request.url),
            self.printer.quiet,
        );
        // Ctrl-C, before or during the wait, ends it (EXIT-11).
        let response = if crate::call::interrupt::interrupted() {
            Ok(None)
        } else {
            client.send_until(&sent, &scope, crate::call::interrupt::pressed())
        };
        drop(waiting);
        let Some(response) = response? else {
            return Err(self.interrupted_send(request).into());
        };
        // Hashing a large body costs time; only provenance needs it.
        let sha256 = self.globals.provenance.is_some().then(|| response.sha256());
        self.record_exchange(&response, sha256);
        Ok(response)
    }

    /// Ctrl-C while `request` was on its way (EXIT-11). A change may have reached the source:
    /// its outcome is unknown, and the record and the message say so, never "not done".
    fn interrupted_send(&mut self, request: &Request) -> Problem {
        let host = crate::print::spinner::source_name(&request.url);
        if !self.spec.is_mutating() || request.method == "GET" {
            return Problem::interrupted(format!("onderbroken tijdens het wachten op {host}"));
        }
        self.audit_attribute("overheid.outcome_unknown", true.into());
        let problem = Problem::interrupted(format!(
            "onderbroken terwijl {host} de wijziging verwerkte: de uitkomst is onbekend"
        ));
        if request.is_idempotent() {
            problem.with_hint(
                "herhaal precies hetzelfde commando (met dezelfde --confirm): het verzoek draagt een \
                 idempotentiesleutel, dus de wijziging gebeurt hooguit één keer en de herhaling geeft de uitkomst",
            )
        } else {
            problem.with_hint("controleer bij de bron of de wijziging is doorgevoerd voordat u het opnieuw probeert")
        }
    }

    /// An answer as provenance and the audit record describe it (the last one is the data's).
    fn record_exchange(&mut self, response: &Response, sha256: Option<String>) {
        self.audit.url = Some(response.url.clone());
        self.audit.http_status = Some(response.status);
        self.audit.body_size = Some(response.body.len());
        self.exchanges.push(Exchange {
            method: response.method,
            url: response.url.clone(),
            status: response.status,
            sha256,
            cache: None,
        });
    }

    /// The family cache's settings, for what a cached command keeps beside answers and forms
    /// (an identity provider's keys); `None` when the command does not cache, under
    /// `--geen-cache`, or when the cache is off, has no place, or is not valid.
    pub fn cache_settings(&self) -> Option<crate::net::cache::Settings> {
        if !self.tool.caches(self.spec) || self.globals.geen_cache {
            return None;
        }
        crate::net::cache::Settings::from_env(self.env)
            .ok()
            .flatten()
    }

    /// Where this command keeps prepared forms of the local files it parses (CACHE-5), labelled
    /// `label` (what the form is; the tool's version is added). `None` when the command does not
    /// cache, under `--geen-cache` or `--dry-run`, or when the cache is off or has no place.
    pub fn prepared_forms(&self, label: &str) -> Option<crate::net::cache::PreparedForms> {
        if !self.tool.caches(self.spec) || self.globals.geen_cache || self.globals.dry_run {
            return None;
        }
        let settings = crate::net::cache::Settings::from_env(self.env).ok()??;
        let label = format!("{label}\n{} {}", self.tool.name, self.tool.version);
        Some(crate::net::cache::PreparedForms::new(settings, label))
    }

    /// Send a GET whose answer never changes at its URL (a BWB toestand; rule CACHE-1): read from
    /// the response cache when it holds a sound entry, else sent as [`Context::send`] does and
    /// stored once the command has succeeded (a 2xx answered by the URL itself, not by a redirect).
    /// With `--geen-cache`, `OVERHEID_CACHE_MAX_BYTES=0` or an unusable cache directory (a warning,
    /// once) it is only sent. Only for the commands in [`ToolInfo::cached`].
    pub fn send_cached(&mut self, request: &Checked) -> Result<Response> {
        if !self.tool.caches(self.spec) || request.method != "GET" || self.globals.dry_run {
            return Err(Problem::software(format!(
                "{}: {} {} hoort niet in de cache",
                self.name, request.method, request.url
            ))
            .into());
        }
        let store = if self.globals.geen_cache {
            None
        } else {
            match self.cache.store(self.env) {
                Ok(store) => store,
                Err(warning) => {
                    self.printer.warn(&warning);
                    None
                }
            }
        };
        let Some(store) = store else {
            let response = self.send(request)?;
            self.mark_cache(crate::net::cache::Use::Off);
            return Ok(response);
        };
        let max_body = self.client_config()?.max_body;
        let key = crate::net::cache::key(request);
        let entry = match store.get(&key, max_body) {
            Ok(entry) => entry,
            Err(warning) => {
                // An entry someone else could have written (CACHE-6): neither read nor replaced.
                self.printer.warn(&warning);
                let response = self.send(request)?;
                self.mark_cache(crate::net::cache::Use::Off);
                return Ok(response);
            }
        };
        if let Some(entry) = entry
            && (200..300).contains(&entry.status)
        {
            let response = Response::stored(request.url.clone(), entry.status, entry.body);
            self.record_exchange(&response, Some(entry.sha256));
            self.mark_cache(crate::net::cache::Use::Hit);
            return Ok(response);
        }
        let response = self.send(request)?;
        self.mark_cache(crate::net::cache::Use::Miss);
        if (200..300).contains(&response.status) && response.url == request.url {
            match store.put(&key, response.status, &response.body) {
                Ok(Some(pending)) => self.cache.hold(pending),
                Ok(None) => {}
                Err(e) => self.printer.warn(&format!(
                    "antwoord niet in de cache in {} gezet: {e}",
                    store.dir().display()
                )),
            }
        }
        Ok(response)
    }

    /// How the last exchange and so the call's cacheable answer was obtained.
    fn mark_cache(&mut self, used: crate::net::cache::Use) {
        if let Some(last) = self.exchanges.last_mut() {
            last.cache = Some(used);
        }
        self.cache.used = Some(used);
    }

    /// Whether the call's cacheable answer came from the cache (`None`: it made no such request).
    pub fn cache_use(&self) -> Option<crate::net::cache::Use> {
        self.cache.used
    }

    /// After the command succeeded: put its new cache entries in place (a failure is a warning).
    pub(crate) fn commit_cache(&mut self) {
        if let Err(warning) = self.cache.commit() {
            self.printer.warn(&warning);
        }
    }

    /// The configured base URLs (declared `base_url` variables, or their defaults).
    fn base_urls(&self) -> impl Iterator<Item = &str> {
        self.tool
            .env
            .iter()
            .filter(|var| var.kind == crate::process::env::EnvKind::BaseUrl)
            .filter_map(|var| self.env.get(var.name).or(var.default))
    }

    /// `request` with the headers the client adds (what is sent, and what the plan shows).
    fn as_sent(&self, request: Request) -> Request {
        request.with_client_headers(&self.user_agent(), &self.trace.traceparent())
    }

    fn user_agent(&self) -> String {
        format!(
            "{}/{} (overheid-cli profiel {})",
            self.tool.name,
            self.tool.version,
            crate::PROFILE_VERSION
        )
    }

    fn build_client(&self, needs_tls: bool) -> Result<HttpClient> {
        HttpClient::new(&self.client_config()?, needs_tls)
    }

    /// The client's settings, checked: what a dry run checks too (rule DRY-4).
    fn client_config(&self) -> Result<ClientConfig<'_>> {
        crate::net::http::check_proxy(self.env("HTTPS_PROXY"))?;
        let max_body = match self.env(MAX_RESPONSE_BYTES) {
            Some(v) => v.parse().map_err(|_| {
                Problem::config(format!(
                    "{MAX_RESPONSE_BYTES} is geen geheel aantal bytes: {v:?}"
                ))
            })?,
            None => DEFAULT_MAX_RESPONSE_BYTES,
        };
        let config = ClientConfig {
            deadline: self.deadline,
            max_body,
            proxy: self.env("HTTPS_PROXY"),
        };
        Ok(config)
    }
}
