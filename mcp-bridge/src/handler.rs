//! The MCP server on rmcp: both protocol eras (2026-07-28 per request, 2025-11-25 through
//! `initialize`) over either transport. rmcp does the protocol (version checks, `_meta`
//! validation, `server/discover`, `resultType`, error codes); this file maps its requests onto
//! the catalogue, the identity and the CLI runs.
//!
//! Tool calls and resource reads run the CLI on the runtime's reactor (no thread per call); a
//! cancellation (or a closed HTTP stream) kills the child's process group.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities,
    DiscoverResult, ElicitationCapability, InputRequiredResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use common::provenance::ProvenanceForm;
use common::trace::TraceContext;

use crate::approval::{self, Answer, INPUT_KEY};
use crate::bridge::{Bridge, Transport};
use crate::call::{self, Confirm, Invocation, Outcome};
use crate::catalog::META_PREFIX;
use crate::resource;
use crate::session::Session;

/// The revisions served: 2026-07-28 natively, the older ones through `initialize`.
const SUPPORTED: &[ProtocolVersion] = &[
    ProtocolVersion::V_2026_07_28,
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2025_06_18,
];

/// How long a client may keep the catalogue (discover and the lists), in milliseconds: it
/// changes only when the bridge restarts.
pub const CATALOGUE_TTL_MS: u64 = 3_600_000;

const INSTRUCTIONS: &str = "Tools van de overheid-CLI's, elk als <bron>__<opdracht>. Vraag met fields \
    alleen de velden op die je nodig hebt (dataminimalisatie): elk veld een pad vanaf een lid van \
    het outputSchema (naam, adres.plaats, adressen[0].plaats, lijst[].x), of één JSONPath-query \
    die met $ begint. De herkomst van elk resultaat staat in \
    _meta.\"nl.overheid/provenance\". Het bedrijf waarover het gaat komt uit de sessie, niet uit \
    de argumenten. Muterende tools vragen de gebruiker om akkoord (elicitation); een host zonder \
    elicitation krijgt over stdio een plan en plan_digest en herhaalt na akkoord van de \
    gebruiker met confirm=<plan_digest>.";

/// One MCP server over the shared bridge (cheap to clone: one per HTTP request).
#[derive(Clone)]
pub struct Handler {
    bridge: Arc<Bridge>,
    info: Arc<ServerConfig>,
    tools: Arc<Value>,
    templates: Arc<Value>,
}

impl Handler {
    pub fn new(bridge: Arc<Bridge>) -> Self {
        let catalog = &bridge.catalog;
        let info: ServerConfig = serde_json::from_value(json!({
            "protocolVersion": ProtocolVersion::V_2025_11_25,
            "capabilities": {"tools": {"listChanged": false}, "resources": {}},
            "serverInfo": {"name": "overheid-mcp", "title": "Overheid-CLI's", "version": env!("CARGO_PKG_VERSION")},
            "instructions": INSTRUCTIONS,
        }))
        .unwrap_or_default();
        let tools = json!({
            "tools": catalog.tools.iter().map(|t| &t.listed).collect::<Vec<_>>(),
            "ttlMs": CATALOGUE_TTL_MS,
            "cacheScope": "public",
            "resultType": "complete",
        });
        let templates = json!({
            "resourceTemplates": catalog.resources.iter().map(|r| &r.listed).collect::<Vec<_>>(),
            "ttlMs": CATALOGUE_TTL_MS,
            "cacheScope": "public",
            "resultType": "complete",
        });
        Self {
            bridge,
            info: Arc::new(info),
            tools: Arc::new(tools),
            templates: Arc::new(templates),
        }
    }

    /// The identity of this request (see [`crate::session`]).
    fn session(&self, context: &RequestContext<RoleServer>) -> Result<Option<Session>, ErrorData> {
        match self.bridge.transport {
            Transport::Http => Ok(context
                .extensions
                .get::<http::request::Parts>()
                .and_then(|parts| parts.extensions.get::<Session>())
                .cloned()),
            Transport::Stdio => match Session::from_meta(&context.meta) {
                Err(why) => Err(ErrorData::invalid_params(why, None)),
                Ok(Some(session)) => Ok(Some(session)),
                Ok(None) => Ok(self.bridge.process_session.clone()),
            },
        }
    }
}

/// Whether the request speaks 2026-07-28 (per-request `_meta`) rather than an `initialize` session.
fn modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .meta
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// The request's `_meta` key by which a client asks for the compact provenance (PROV-1).
pub const PROVENANCE_KEY: &str = "nl.overheid/provenance";

/// The provenance a call's result carries in `_meta`: full, unless the request's `_meta` asks
/// for `"compact"` under [`PROVENANCE_KEY`].
fn provenance_form(context: &RequestContext<RoleServer>) -> Result<ProvenanceForm, ErrorData> {
    match context.meta.get(PROVENANCE_KEY) {
        None => Ok(ProvenanceForm::Full),
        Some(Value::String(form)) if form == "full" => Ok(ProvenanceForm::Full),
        Some(Value::String(form)) if form == "compact" => Ok(ProvenanceForm::Compact),
        Some(other) => Err(ErrorData::invalid_params(
            format!("_meta.{PROVENANCE_KEY} moet \"full\" of \"compact\" zijn, niet {other}"),
            None,
        )),
    }
}

/// Whether the request's client declared form elicitation (an empty `elicitation` means form).
fn can_elicit(context: &RequestContext<RoleServer>) -> bool {
    modern(context)
        && context
            .meta
            .client_capabilities()
            .and_then(|caps| caps.elicitation)
            .is_some_and(|e| e.form.is_some() || e.url.is_none())
}

fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value)
        .map_err(|e| ErrorData::internal_error(format!("ongeldig resultaat: {e}"), None))
}

/// The complete result "nothing was done" (decline, cancel, refused approval).
fn not_performed(reason: &str, error: bool) -> Value {
    let data = json!({"uitgevoerd": false, "reden": reason});
    json!({
        "content": [{"type": "text", "text": data.to_string()}],
        "structuredContent": data,
        "isError": error,
        "resultType": "complete",
    })
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

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        from_json((*self.tools).clone())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        from_json(json!({
            "resources": [],
            "ttlMs": CATALOGUE_TTL_MS,
            "cacheScope": "public",
            "resultType": "complete",
        }))
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
        let session = self.session(&context)?;
        let trace = TraceContext::start(context.meta.get("traceparent").and_then(Value::as_str));
        let read = resource::read(
            &self.bridge,
            &request.uri,
            session.as_ref(),
            &trace,
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
        let session = self.session(&context)?;
        let arguments = request.arguments.clone().unwrap_or_default();
        let trace = TraceContext::start(context.meta.get("traceparent").and_then(Value::as_str));
        let mutating = self.bridge.catalog.tools[index].mutating;
        let confirm = if !mutating {
            Confirm::FromArguments
        } else if can_elicit(&context) {
            return self
                .approve(index, arguments, session, request, trace, &context)
                .await;
        } else if self.bridge.transport == Transport::Http {
            let mut needed = ClientCapabilities::default();
            needed.elicitation = Some(ElicitationCapability::default());
            return Err(ErrorData::missing_required_client_capability(needed));
        } else {
            Confirm::FromArguments
        };
        let outcome = self
            .run(index, arguments, session, confirm, trace, &context)
            .await?;
        complete(call::tool_result(outcome))
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
        arguments: Map<String, Value>,
        session: Option<Session>,
        confirm: Confirm,
        trace: TraceContext,
        context: &RequestContext<RoleServer>,
    ) -> Result<Outcome, ErrorData> {
        let invocation = Invocation {
            tool: &self.bridge.catalog.tools[index],
            arguments: &arguments,
            session: session.as_ref(),
            confirm,
            provenance: provenance_form(context)?,
        };
        call::run(&self.bridge, &invocation, &trace, context.ct.cancelled()).await
    }

    /// A mutation for a client that can elicit: propose with a sealed state, or act on the answer.
    async fn approve(
        &self,
        index: usize,
        arguments: Map<String, Value>,
        session: Option<Session>,
        request: CallToolRequestParams,
        trace: TraceContext,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tool = &self.bridge.catalog.tools[index];
        let principal = Session::principal(session.as_ref());
        let Some(state) = request.request_state.as_deref() else {
            let outcome = self
                .run(
                    index,
                    arguments.clone(),
                    session,
                    Confirm::Propose,
                    trace,
                    context,
                )
                .await?;
            let Outcome::Proposal { plan, digest } = outcome else {
                return complete(call::tool_result(outcome));
            };
            let sealed = self
                .bridge
                .approval
                .seal(&tool.name, &arguments, &principal, &digest);
            let elicitation = approval::input_request(&plan, &digest, &principal);
            let mut meta = Map::new();
            meta.insert(format!("{META_PREFIX}/plan"), plan);
            let result = json!({
                "resultType": "input_required",
                "inputRequests": {INPUT_KEY: elicitation},
                "requestState": sealed,
                "_meta": meta,
            });
            let result: InputRequiredResult = from_json(result)?;
            return Ok(CallToolResponse::InputRequired(result));
        };
        let digest = match self
            .bridge
            .approval
            .open(state, &tool.name, &arguments, &principal)
        {
            Ok(digest) => digest,
            Err(why) => {
                let reason = format!(
                    "Goedkeuring ongeldig ({why}): de staat hoort niet bij deze tool, deze argumenten \
                     en deze sessie, of is verlopen. Er is niets uitgevoerd; roep de tool opnieuw aan."
                );
                return complete(Some(not_performed(&reason, true)));
            }
        };
        let answer = approval::answer(
            request
                .input_responses
                .as_ref()
                .and_then(|responses| responses.get(INPUT_KEY)),
        );
        match answer {
            Some(Answer::Accept) => {
                let outcome = self
                    .run(
                        index,
                        arguments,
                        session,
                        Confirm::Approved(digest),
                        trace,
                        context,
                    )
                    .await?;
                complete(call::tool_result(outcome))
            }
            Some(Answer::Decline) => complete(Some(not_performed(
                "De gebruiker heeft niet ingestemd. Er is niets uitgevoerd.",
                false,
            ))),
            Some(Answer::Cancel) => complete(Some(not_performed(
                "De gebruiker heeft de goedkeuring afgebroken. Er is niets uitgevoerd.",
                false,
            ))),
            None => complete(Some(not_performed(
                "Geen antwoord op de goedkeuringsvraag. Er is niets uitgevoerd.",
                true,
            ))),
        }
    }
}
