//! The MCP server on rmcp: both protocol eras (2026-07-28 per request, 2025-11-25 through
//! `initialize`) over either transport. rmcp does the protocol (version checks, `_meta`
//! validation, `server/discover`, `resultType`, error codes); this file maps its requests onto
//! the catalogue, the identity and the CLI runs.
//!
//! Tool calls and resource reads run the CLI on the runtime's reactor (no thread per call); a
//! cancellation (or a closed HTTP stream) kills the child's process group.

use overheid_records::ProposingClient;
use std::borrow::Cow;
use std::sync::Arc;

#[allow(
    deprecated,
    reason = "logging/setLevel: deprecated by 2026-07-28, still served to 2025 clients"
)]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams,
    CompleteResult, DiscoverResult, ElicitRequestParams, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, InputRequiredResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference, ServerConfig,
};
use rmcp::service::{ElicitationMode, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use common::trace::TraceContext;

use crate::calls::bridge::Bridge;
use crate::calls::call::{self, Invocation, Outcome};
use crate::calls::completions::{self, Ask};
use crate::calls::notify::{LogLevel, Notifier};
use crate::calls::resource;
use crate::calls::server_info::{SERVER_INFO_KEY, server_info};
use crate::catalog::META_PREFIX;
use crate::catalog::prompts;
use crate::identity::auth::Grant;
use crate::identity::scope::Scope;
use crate::identity::session::{self, Session};
use crate::proposals::{self, Waiting, elicit};
use crate::shape::{PROVENANCE_KEY, Shape, TEXT_KEY};
use crate::transport::Transport;

/// The revisions served: 2026-07-28 natively, the older ones through `initialize` (profile
/// WIRE-4). 2025-06-18 and 2025-03-26 take the same shapes: what they lack (`structuredContent`,
/// `outputSchema`, `title`, URL elicitation) is extra to them, and every result also carries
/// its data as text. 2024-11-05 is not offered: it is answered with the newest revision.
const SUPPORTED: &[ProtocolVersion] = &[
    ProtocolVersion::V_2026_07_28,
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_03_26,
];

/// How long a client may keep the catalogue (discover and the lists), in milliseconds: it
/// changes only when the bridge restarts.
pub(crate) const CATALOGUE_TTL_MS: u64 = 3_600_000;

const INSTRUCTIONS: &str = "Tools van de overheid-CLI's, elk als <bron>__<opdracht>. Welke tool \
    voor welke vraag: een bedrijf → kvk__basisprofiel_toon (kvk__zoek om het te vinden); de \
    tekst van een artikel → koop__regeling_artikel; of de energiebesparingsplicht geldt en welk \
    artikel → regelrecht__check_energiebesparing; welke regelingen kunnen gelden → \
    regelrecht__regelingen; een rapportage voorbereiden → regelrecht__concept, dan \
    rvo__rapportage_voorstel. Een resultaat noemt in volgende_stappen de aanroepen waartoe het \
    leidt, met de waarden die al bekend zijn. Vraag met fields \
    alleen de velden op die u nodig hebt (dataminimalisatie): elk veld een pad vanaf een lid van \
    het outputSchema (naam, adres.plaats, adressen[0].plaats, lijst[].x), of één JSONPath-query \
    die met $ begint. De herkomst van elk resultaat staat in \
    _meta.\"nl.overheid/provenance\". Het bedrijf waarover het gaat komt uit de sessie, niet uit \
    de argumenten. Een mutatie gebeurt alleen via een voorstel dat een persoon goedkeurt: leg \
    het voorstel vast (…_voorstel), geef de persoon de goedkeuringslink uit het antwoord, en voer \
    het goedgekeurde voorstel daarna uit met voorstel_id. Een model kan niet zelf goedkeuren.";

/// One MCP server over the shared bridge (cheap to clone: one per HTTP request).
#[derive(Clone)]
pub(crate) struct Handler {
    bridge: Arc<Bridge>,
    info: Arc<ServerConfig>,
    tools: Arc<Value>,
    /// The list a token that may only read sees (MCP-AUTH-8): no tool it could not call.
    reading_tools: Arc<Value>,
    templates: Arc<Value>,
    resources: Arc<Value>,
    prompts: Arc<Value>,
    /// The level a 2025-11-25 client set with `logging/setLevel` (stdio: one client per process).
    log_level: Arc<LogLevel>,
}

impl Handler {
    pub(crate) fn new(bridge: Arc<Bridge>) -> Self {
        let catalog = &bridge.catalog;
        let info: ServerConfig = serde_json::from_value(json!({
            "protocolVersion": ProtocolVersion::V_2025_11_25,
            "capabilities": {
                "tools": {"listChanged": false},
                "resources": {},
                "prompts": {"listChanged": false},
                "completions": {},
                "logging": {},
            },
            "serverInfo": server_info(),
            "instructions": INSTRUCTIONS,
        }))
        .unwrap_or_default();
        let reading_tools = json!({
            "tools": catalog
                .tools
                .iter()
                .filter(|t| Scope::for_tool(t) == Scope::Read)
                .map(|t| &t.listed)
                .collect::<Vec<_>>(),
            "ttlMs": CATALOGUE_TTL_MS,
            "cacheScope": "public",
            "resultType": "complete",
            "_meta": {SERVER_INFO_KEY: server_info()},
        });
        let tools = json!({
            "tools": catalog.tools.iter().map(|t| &t.listed).collect::<Vec<_>>(),
            "ttlMs": CATALOGUE_TTL_MS,
            "cacheScope": "public",
            "resultType": "complete",
            "_meta": {SERVER_INFO_KEY: server_info()},
        });
        let (plain, templated): (Vec<_>, Vec<_>) = catalog
            .resources
            .iter()
            .partition(|r| r.template.variables().is_empty());
        let list = |key: &str, items: Vec<&Value>| {
            json!({
                key: items,
                "ttlMs": CATALOGUE_TTL_MS,
                "cacheScope": "public",
                "resultType": "complete",
                "_meta": {SERVER_INFO_KEY: server_info()},
            })
        };
        let templates = list(
            "resourceTemplates",
            templated.iter().map(|r| &r.listed).collect(),
        );
        let resources = list("resources", plain.iter().map(|r| &r.listed).collect());
        let prompts = prompts::list(catalog);
        let prompts = list("prompts", prompts.iter().collect());
        Self {
            bridge,
            info: Arc::new(info),
            tools: Arc::new(tools),
            reading_tools: Arc::new(reading_tools),
            templates: Arc::new(templates),
            resources: Arc::new(resources),
            prompts: Arc::new(prompts),
            log_level: Arc::default(),
        }
    }

    /// Where this request's progress and log messages go: the progress token of its `_meta`,
    /// and its log level (per request in 2026-07-28, else this connection's `logging/setLevel`).
    fn notifier(&self, context: &RequestContext<RoleServer>) -> Notifier {
        let level = if modern(context) {
            LogLevel::of_request(&context.meta)
        } else {
            self.log_level.get()
        };
        Notifier::new(
            context.peer.clone(),
            context.meta.get_progress_token(),
            level,
            self.bridge.timeout,
        )
    }

    /// The session-bound argument names of the catalogue (`kvk_nummer`).
    fn session_arguments(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .bridge
            .catalog
            .sources
            .iter()
            .flat_map(|source| &source.session_vars)
            .map(|(argument, _)| argument.as_str())
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The identity of this request (see [`crate::identity::session`]). A key of the bridge's `_meta`
    /// namespace that it does not know (a misspelled `nl.overheid/sessie`) is refused, never
    /// ignored.
    ///
    /// Over HTTP the identity is the verified token's; a call names one of its companies in
    /// `_meta["nl.overheid/sessie"]` (an intermediary's token lists several), and a company the
    /// token does not list is [`Refused::NotYours`]. Over stdio it is the `_meta` identity the
    /// host sets, else the process's own.
    fn session(&self, context: &RequestContext<RoleServer>) -> Result<Option<Session>, Refused> {
        if let Some(unknown) = context.meta.keys().find(|key| {
            key.starts_with(META_NAMESPACE) && !REQUEST_META_KEYS.contains(&key.as_str())
        }) {
            return Err(Refused::Malformed(ErrorData::invalid_params(
                format!(
                    "_meta.{unknown} is onbekend; bekend: {}",
                    REQUEST_META_KEYS.join(", ")
                ),
                None,
            )));
        }
        let named = Session::from_meta(&context.meta, &self.session_arguments())
            .map_err(|why| Refused::Malformed(ErrorData::invalid_params(why, None)))?;
        match self.bridge.transport {
            Transport::Http => match grant(context) {
                Some(grant) => grant
                    .session(named)
                    .map(Some)
                    .map_err(|_| Refused::NotYours),
                // `--insecure-no-auth`: no identity at all.
                None => Ok(None),
            },
            Transport::Stdio => match (named, self.bridge.process_session.clone()) {
                // The process is pinned to a company (`KVK_SESSIE_NUMMER` of whoever started the
                // server): a host's `_meta` may name that one, never replace it.
                (Some(named), Some(pinned))
                    if named
                        .values
                        .iter()
                        .any(|(k, v)| pinned.values.get(k).is_some_and(|own| own != v)) =>
                {
                    Err(Refused::Malformed(ErrorData::invalid_params(
                        format!(
                            "_meta.{} noemt een ander bedrijf (kvk_nummer) dan het bedrijf waaraan \
                             deze server vastligt (KVK_SESSIE_NUMMER van het proces); dat wordt \
                             niet vervangen",
                            session::META_KEY
                        ),
                        None,
                    )))
                }
                (named, pinned) => Ok(named.or(pinned)),
            },
        }
    }
}

/// Why a request gets no identity.
enum Refused {
    /// The `_meta` identity is malformed: -32602.
    Malformed(ErrorData),
    /// The call names a company its token does not list: refused as the program refuses
    /// another company (77), the same for every number.
    NotYours,
}

impl Refused {
    /// The refusal as a JSON-RPC error, for a request that has no tool result to carry it
    /// (a resource read, a completion).
    fn error(self, trace: &TraceContext) -> ErrorData {
        match self {
            Refused::Malformed(error) => error,
            Refused::NotYours => {
                let error = Session::not_yours(trace);
                let message = error["detail"].as_str().unwrap_or_default().to_string();
                ErrorData::invalid_params(message, Some(error))
            }
        }
    }
}

/// The verified token of an HTTP request (none over stdio or with `--insecure-no-auth`).
fn grant(context: &RequestContext<RoleServer>) -> Option<&Grant> {
    context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Grant>())
}

/// Refuse a call whose token lacks `scope`. The HTTP layer answers such a call with 403 and a
/// step-up challenge before it gets here; this holds the rule for any message that got past it.
fn permitted(context: &RequestContext<RoleServer>, scope: Scope) -> Result<(), ErrorData> {
    match grant(context) {
        Some(grant) if !grant.allows(scope) => Err(ErrorData::invalid_request(
            format!("Deze aanroep vereist scope {}", scope.name()),
            Some(json!({"error": "insufficient_scope", "scope": scope.name()})),
        )),
        _ => Ok(()),
    }
}

/// Whether the request speaks 2026-07-28 (per-request `_meta`) rather than an `initialize` session.
fn modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .meta
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// The bridge's own namespace of `_meta` keys.
const META_NAMESPACE: &str = "nl.overheid/";

/// The keys of that namespace a request may carry.
const REQUEST_META_KEYS: &[&str] = &[session::META_KEY, PROVENANCE_KEY, TEXT_KEY];

/// The protocol revision of the request: its own `_meta` in 2026-07-28; before, the one the
/// client asked for in `initialize` (stdio) or, over HTTP, its `MCP-Protocol-Version` header
/// (without one: 2025-03-26, as the transport says).
fn revision(context: &RequestContext<RoleServer>) -> Option<String> {
    if let Some(version) = context.meta.protocol_version() {
        return Some(version.as_str().to_string());
    }
    if let Some(info) = context.peer.peer_info() {
        return Some(info.protocol_version.as_str().to_string());
    }
    context
        .extensions
        .get::<http::request::Parts>()
        .map(|parts| {
            parts
                .headers
                .get("mcp-protocol-version")
                .and_then(|v| v.to_str().ok())
                .unwrap_or(ProtocolVersion::V_2025_03_26.as_str())
                .to_string()
        })
}

/// How the call's success is sent ([`Shape`]): what its `_meta` asks for, in its revision.
fn shape(context: &RequestContext<RoleServer>) -> Result<Shape, ErrorData> {
    Shape::asked(&context.meta, revision(context).as_deref())
}

/// The program the request came from, as its client declared it: `clientInfo` (per request in
/// 2026-07-28, from `initialize` before) and, over HTTP, the OAuth client its token was issued
/// to. Cleaned and bounded ([`ProposingClient::declared`]); a proposal shows it, unverified.
fn declared_client(context: &RequestContext<RoleServer>) -> Option<ProposingClient> {
    let info = if modern(context) {
        context.meta.client_info()
    } else {
        context
            .peer
            .peer_info()
            .map(|init| init.client_info.clone())
    };
    let mcp = info.map(|info| format!("{} {}", info.name, info.version));
    let oauth = grant(context).and_then(|grant| grant.client.as_deref());
    ProposingClient::declared(mcp.as_deref(), oauth)
}

/// Whether the request's client declared URL-mode elicitation: per request in 2026-07-28, in
/// `initialize` before (known over stdio; a stateless HTTP server does not keep it).
fn can_elicit_url(context: &RequestContext<RoleServer>) -> bool {
    if modern(context) {
        context
            .meta
            .client_capabilities()
            .and_then(|caps| caps.elicitation)
            .is_some_and(|e| e.url.is_some())
    } else {
        context
            .peer
            .supported_elicitation_modes()
            .contains(&ElicitationMode::Url)
    }
}

fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value)
        .map_err(|e| ErrorData::internal_error(format!("ongeldig resultaat: {e}"), None))
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        (*self.info).clone()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(SUPPORTED)
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let mut result = DiscoverResult::from_server_info(SUPPORTED.to_vec(), self.get_info());
        result.ttl_ms = CATALOGUE_TTL_MS;
        result.cache_scope = CacheScope::Public;
        Ok(result)
    }

    /// Over HTTP a token sees the tools its scopes let it call (MCP-AUTH-8): a token that may
    /// only read lists no tool that files, which would always answer 403.
    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        match grant(&context) {
            Some(grant) if !grant.allows(Scope::File) => from_json((*self.reading_tools).clone()),
            _ => from_json((*self.tools).clone()),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        from_json((*self.resources).clone())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        from_json((*self.prompts).clone())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let arguments = request.arguments.clone().unwrap_or_default();
        match prompts::get(&self.bridge.catalog, &request.name, &arguments) {
            Ok(mut result) => {
                result["resultType"] = json!("complete");
                result["_meta"] = json!({SERVER_INFO_KEY: server_info()});
                Ok(GetPromptResponse::Complete(from_json::<GetPromptResult>(
                    result,
                )?))
            }
            Err(refused) => Err(ErrorData::invalid_params(
                prompts::refusal(&request.name, &refused),
                Some(json!({"name": request.name})),
            )),
        }
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let name = request.argument.name.as_str();
        // An unknown prompt or template gets no values rather than an error: completion is
        // help while typing, and an empty list shows nothing wrong in a host's field.
        let known = match &request.r#ref {
            Reference::Prompt(prompt) => {
                prompts::argument_names(&self.bridge.catalog, &prompt.name)
                    .is_some_and(|names| names.contains(&name))
            }
            Reference::Resource(template) => self.bridge.catalog.resources.iter().any(|r| {
                r.listed["uriTemplate"] == template.uri.as_str()
                    && r.template.variables().contains(&name)
            }),
            _ => false,
        };
        permitted(&context, Scope::Read)?;
        let session = self.session(&context).map_err(|refused| {
            refused.error(&TraceContext::start(
                context.meta.get("traceparent").and_then(Value::as_str),
            ))
        })?;
        let context_arguments = request
            .context
            .as_ref()
            .and_then(|c| c.arguments.clone())
            .unwrap_or_default();
        let completion = if known {
            let ask = Ask {
                name,
                typed: &request.argument.value,
                context: &context_arguments,
            };
            completions::complete(&self.bridge, &ask, session.as_ref()).await
        } else {
            json!({"values": [], "total": 0, "hasMore": false})
        };
        from_json(json!({
            "completion": completion,
            "resultType": "complete",
            "_meta": {SERVER_INFO_KEY: server_info()},
        }))
    }

    #[allow(
        deprecated,
        reason = "logging/setLevel: deprecated by 2026-07-28, still served to 2025 clients"
    )]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // Over HTTP nothing outlasts a request: the level is asked per request there.
        if self.bridge.transport == Transport::Stdio {
            self.log_level.set(request.level);
        }
        Ok(())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        from_json((*self.templates).clone())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        permitted(&context, Scope::Read)?;
        let trace = TraceContext::start(context.meta.get("traceparent").and_then(Value::as_str));
        let session = self
            .session(&context)
            .map_err(|refused| refused.error(&trace))?;
        let notifier = self.notifier(&context);
        let read = resource::read(
            &self.bridge,
            &request.uri,
            session.as_ref(),
            &trace,
            &notifier,
            context.ct.cancelled(),
        )
        .await?;
        match read {
            Some(result) => Ok(ReadResourceResponse::Complete(from_json::<
                ReadResourceResult,
            >(result)?)),
            None => Err(ErrorData::internal_error("geannuleerd", None)),
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(index) = self.bridge.catalog.index(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!("Onbekende tool: {}", request.name),
                Some(json!({"name": request.name})),
            ));
        };
        permitted(&context, Scope::for_tool(&self.bridge.catalog.tools[index]))?;
        let trace = TraceContext::start(context.meta.get("traceparent").and_then(Value::as_str));
        let session = match self.session(&context) {
            Ok(session) => session,
            Err(Refused::Malformed(error)) => return Err(error),
            Err(Refused::NotYours) => {
                return complete(call::tool_result(
                    Outcome::Failed {
                        error: Session::not_yours(&trace),
                        plan: None,
                    },
                    Shape::default(),
                ));
            }
        };
        let shape = shape(&context)?;
        let arguments = request.arguments.clone().unwrap_or_default();
        let tool = &self.bridge.catalog.tools[index];
        // A read-only tool is answered as it is, unless its result may be an open proposal (its
        // outputSchema allows the members the bridge adds): then it says where the person approves.
        let open_schema = tool.listed["outputSchema"]["additionalProperties"] != false;
        if !tool.mutating && !open_schema {
            let outcome = self
                .run(index, &arguments, session, trace, &context, shape)
                .await?;
            return complete(call::tool_result(outcome, shape));
        }
        if tool.mutating && arguments.contains_key(proposals::CONFIRM) {
            return complete(Some(proposals::confirm_refused()));
        }
        self.mutate(index, arguments, session, request, trace, &context)
            .await
    }
}

/// The `_meta` with a successful outcome's provenance, where the call asked for one.
fn provenance_meta(outcome: &Outcome, shape: Shape) -> Option<Value> {
    match outcome {
        Outcome::Data { provenance, .. } if shape.provenance.is_some() => {
            Some(json!({ format!("{META_PREFIX}/provenance"): provenance }))
        }
        _ => None,
    }
}

/// A finished call as rmcp's result (`None`: cancelled, which rmcp does not answer).
fn complete(result: Option<Value>) -> Result<CallToolResponse, ErrorData> {
    match result {
        Some(result) => Ok(CallToolResponse::Complete(from_json::<CallToolResult>(
            result,
        )?)),
        None => Err(ErrorData::internal_error("geannuleerd", None)),
    }
}

impl Handler {
    async fn run(
        &self,
        index: usize,
        arguments: &Map<String, Value>,
        session: Option<Session>,
        trace: TraceContext,
        context: &RequestContext<RoleServer>,
        shape: Shape,
    ) -> Result<Outcome, ErrorData> {
        let notifier = self.notifier(context);
        let client = declared_client(context);
        let invocation = Invocation {
            tool: &self.bridge.catalog.tools[index],
            arguments,
            session: session.as_ref(),
            client: client.as_ref(),
            provenance: shape.cli_provenance(),
            notifier: Some(&notifier),
        };
        call::run(&self.bridge, &invocation, &trace, context.ct.cancelled()).await
    }

    /// A mutating tool, or one whose result may be a proposal: run it (the program decides; the
    /// bridge never confirms), and when a proposal waits for a person, tell the client where the
    /// person approves it.
    async fn mutate(
        &self,
        index: usize,
        arguments: Map<String, Value>,
        session: Option<Session>,
        request: CallToolRequestParams,
        trace: TraceContext,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let shape = shape(context)?;
        let tool = &self.bridge.catalog.tools[index];
        let principal = Session::principal(session.as_ref());
        // A retry of a URL elicitation round: the state must be ours, for this call; it approves
        // nothing, the call simply runs again.
        let retried = match request.request_state.as_deref() {
            None => false,
            Some(state) => match self
                .bridge
                .approval
                .open(state, &tool.name, &arguments, &principal)
            {
                Ok(_) => true,
                Err(why) => {
                    let reason = format!(
                        "De staat van deze aanvraag is ongeldig ({why}): hij hoort niet bij deze \
                         tool, deze argumenten en deze sessie, of is verlopen. Er is niets \
                         uitgevoerd; roep de tool opnieuw aan zonder requestState."
                    );
                    return complete(Some(proposals::not_performed(&reason, true)));
                }
            },
        };
        let outcome = self
            .run(
                index,
                &arguments,
                session.clone(),
                trace.clone(),
                context,
                shape,
            )
            .await?;
        let Some(waiting) = self.waiting(index, &arguments, &outcome) else {
            return complete(call::tool_result(outcome, shape));
        };
        let meta = provenance_meta(&outcome, shape);
        let offer = waiting.url.is_some() && !retried;
        if offer && modern(context) && can_elicit_url(context) {
            let state = self
                .bridge
                .approval
                .seal(&tool.name, &arguments, &principal, &waiting.id);
            if let Some(result) = elicit::input_required(&waiting, &state, meta.clone()) {
                return Ok(CallToolResponse::InputRequired(from_json::<
                    InputRequiredResult,
                >(result)?));
            }
        }
        if offer
            && !modern(context)
            && self.bridge.transport == Transport::Stdio
            && can_elicit_url(context)
            && let Some(params) = elicit::params(&waiting)
        {
            let params: ElicitRequestParams = from_json(params)?;
            // The answer only says whether the person went to the page; then the call runs again.
            let asked = context
                .peer
                .create_elicitation_with_timeout(params, Some(self.bridge.timeout))
                .await;
            if asked.is_ok() {
                let again = self
                    .run(index, &arguments, session, trace, context, shape)
                    .await?;
                return match self.waiting(index, &arguments, &again) {
                    Some(still) => complete(Some(still.result(meta, shape))),
                    None => complete(call::tool_result(again, shape)),
                };
            }
        } else if offer
            && !modern(context)
            && self.bridge.transport == Transport::Http
            && tool.proposal_argument.is_some()
            && let Some(error) = elicit::required_error(&waiting)
        {
            return Err(error);
        }
        complete(Some(waiting.result(meta, shape)))
    }

    /// The proposal a mutating call left waiting for a person, if any: a recorded proposal that
    /// is still open, or a refusal to apply one that no person approved yet.
    fn waiting(
        &self,
        index: usize,
        arguments: &Map<String, Value>,
        outcome: &Outcome,
    ) -> Option<Waiting> {
        let catalog = &self.bridge.catalog;
        let tool = &catalog.tools[index];
        let source = &catalog.sources[tool.source];
        let appliers: Vec<&str> = catalog
            .tools
            .iter()
            .filter(|t| t.source == tool.source && t.proposal_argument.is_some())
            .map(|t| t.name.as_str())
            .collect();
        let apply_tool = match appliers[..] {
            [one] => Some(one.to_string()),
            _ => None,
        };
        let at = &self.bridge.approval.at;
        match outcome {
            Outcome::Data { data, .. } => {
                let (id, status) = proposals::id_and_status(data)?;
                if status != proposals::OPEN {
                    return None;
                }
                let own = data.as_object().cloned().unwrap_or_default();
                Waiting::new(id, status, at, &source.program_name, apply_tool, own)
            }
            Outcome::Failed { error, .. }
                if tool.proposal_argument.is_some()
                    && error["code"].as_str() == Some(proposals::WAITING_CODE) =>
            {
                let id = arguments.get(proposals::PROPOSAL_ARGUMENT)?.as_str()?;
                Waiting::new(
                    id,
                    proposals::OPEN,
                    at,
                    &source.program_name,
                    apply_tool,
                    Map::new(),
                )
            }
            _ => None,
        }
    }
}
