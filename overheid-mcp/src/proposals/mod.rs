//! A mutation over MCP happens only through a proposal that a person approved.
//!
//! Nothing a model sends approves anything, in any protocol era, over either transport:
//! - `confirm` is never offered, and a call that sends it is refused before anything runs;
//! - the bridge never runs a program with `--confirm`: a mutating tool called with its own
//!   arguments is a dry run whose plan comes back as "nothing was done";
//! - a tool that records a proposal runs like any tool; its result (`voorstel_id`, `status`)
//!   says whether a person still has to decide;
//! - a mutating tool whose `inputSchema` has [`PROPOSAL_ARGUMENT`] applies a proposal: it is
//!   offered with that argument only, and the program applies the proposal only when its record
//!   says a person approved it. Approving is a person's act outside MCP: on the approval page after
//!   a login, or at a terminal after typing the digest. A link alone approves nothing.
//!
//! When a proposal waits for a person, [`Waiting`] is what the bridge says about it: the id, the
//! link to the approval page (or the terminal command when there is no page) and a plain
//! instruction; [`elicit`] offers the link as URL-mode elicitation where the client declared it.

pub(crate) mod elicit;

use serde_json::{Map, Value, json};

use crate::shape::Shape;

/// The argument of a tool that applies a proposal, as the bridge lists it: the proposal's id.
pub(crate) const PROPOSAL_ARGUMENT: &str = "voorstel_id";

/// The names a program may give that argument in discovery (rvo-cli: `voorstel`, `--voorstel`).
const PROGRAM_ARGUMENTS: &[&str] = &[PROPOSAL_ARGUMENT, "voorstel"];

/// The members that name a proposal's id in a program's data about it.
const ID_MEMBERS: &[&str] = &[PROPOSAL_ARGUMENT, "id"];

/// The error code of a program asked to apply a proposal that no person has approved yet.
pub(crate) const WAITING_CODE: &str = "VOORSTEL_NIET_GOEDGEKEURD";

/// The status of a proposal that waits for a person.
pub(crate) const OPEN: &str = "open";

/// The name of the argument a model might send to approve by itself; refused.
pub(crate) const CONFIRM: &str = "confirm";

/// Keep only the proposal id in a mutating tool's input schema, listed as [`PROPOSAL_ARGUMENT`]
/// and required, when the tool has such an argument. Returns the program's own name for it
/// (the tool applies proposals), which the call passes it by.
pub(crate) fn only_the_proposal_argument(schema: &mut Map<String, Value>) -> Option<String> {
    let properties = schema.get("properties")?;
    let (name, argument) = PROGRAM_ARGUMENTS
        .iter()
        .find_map(|name| Some((name.to_string(), properties.get(*name)?.clone())))?;
    schema.insert("properties".into(), json!({ PROPOSAL_ARGUMENT: argument }));
    schema.insert("required".into(), json!([PROPOSAL_ARGUMENT]));
    schema.insert("additionalProperties".into(), Value::Bool(false));
    for keyword in [
        "oneOf",
        "anyOf",
        "allOf",
        "dependentRequired",
        "if",
        "then",
        "else",
    ] {
        schema.remove(keyword);
    }
    Some(name)
}

/// The id and status of a proposal in a program's data about it (`None`: not a proposal).
pub(crate) fn id_and_status(data: &Value) -> Option<(&str, &str)> {
    let id = ID_MEMBERS
        .iter()
        .find_map(|member| data.get(*member)?.as_str())
        .filter(|id| is_proposal_id(id))?;
    Some((id, data.get("status")?.as_str()?))
}

/// Whether `id` can be a proposal id: text-safe, as long as 128 random bits or longer. Checked
/// before an id is put in a link or handed to a program.
pub(crate) fn is_proposal_id(id: &str) -> bool {
    (16..=128).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What a mutating tool answers when it did nothing (one shape, so that every mutating tool
/// lists it once): either a proposal waits for a person (its id, status, where and how to
/// approve it, what to do next) or the reason (`reden`).
fn not_performed_schema() -> Value {
    json!({
        "properties": {
            "uitgevoerd": {"const": false},
            "voorstel_id": {"type": "string"},
            "status": {"type": "string"},
            "goedkeuring_url": {"type": "string"},
            "goedkeuring_opdracht": {"type": "string"},
            "instructie": {"type": "string"},
            "reden": {"type": "string"}
        },
        "required": ["uitgevoerd"]
    })
}

/// `outputSchema` of a mutating tool: its own result, or "nothing was done" (a proposal waits for
/// a person, or the reason). The root says `"type": "object"` once for both branches. `$schema` and `$defs` stay at the root so `#/$defs/…` references keep resolving.
pub(crate) fn output_schema(output: &Value) -> Value {
    let mut own = output.clone();
    let mut root = Map::new();
    if let Some(own) = own.as_object_mut() {
        for key in ["$schema", "$defs", "definitions", "$id"] {
            if let Some(value) = own.remove(key) {
                root.insert(key.into(), value);
            }
        }
    }
    if let Some(own) = own.as_object_mut()
        && own.get("type") == Some(&json!("object"))
    {
        own.remove("type");
    }
    root.insert("type".into(), "object".into());
    root.insert("anyOf".into(), json!([own, not_performed_schema()]));
    Value::Object(root)
}

/// The complete result "nothing was done", with the reason.
pub(crate) fn not_performed(reason: &str, error: bool) -> Value {
    let data = json!({"uitgevoerd": false, "reden": reason});
    json!({
        "content": [{"type": "text", "text": data.to_string()}],
        "structuredContent": data,
        "isError": error,
        "resultType": "complete",
    })
}

/// The result of a call that sent `confirm`: refused, nothing ran.
pub(crate) fn confirm_refused() -> Value {
    not_performed(
        "Het argument confirm wordt over MCP niet aangenomen: een model kan niet zelf goedkeuren. \
         Er is niets uitgevoerd. Leg een voorstel vast; een persoon keurt het goed op de \
         goedkeuringspagina of in een terminal, daarna voert u het uit met voorstel_id.",
        true,
    )
}

/// The reason in the result of a mutating tool's dry run (a call with its own arguments).
pub(crate) const DRY_RUN_ONLY: &str = "Er is niets uitgevoerd: over MCP voert de brug een muterende \
    opdracht alleen uit via een voorstel dat een persoon heeft goedgekeurd. Het plan staat in \
    _meta.\"nl.overheid/plan\".";

/// Where a person approves: the organisation's approval page, the terminal, or (a remote client
/// of a bridge without a page) somewhere this server cannot name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ApprovalAt {
    /// The page's base URL (`…/voorstellen`); a proposal's link is `<base>/<id>`.
    Page(String),
    /// No page, a local host (stdio): the person runs the program's own command at a terminal.
    Terminal,
    /// No page, a remote client (HTTP): never told to run a terminal command, which would run
    /// on a machine that is not the person's (profile §10.3).
    Unnamed,
}

/// A proposal that waits for a person, and how to tell them.
#[derive(Clone, Debug)]
pub(crate) struct Waiting {
    pub id: String,
    pub status: String,
    /// The link to the approval page, if there is one.
    pub url: Option<String>,
    /// The terminal command, when there is no page.
    pub command: Option<String>,
    /// The tool that applies it once approved (when the source has exactly one).
    pub apply_tool: Option<String>,
    /// The program's own data about the proposal (the plan, digest and expiry), if it gave it.
    pub data: Map<String, Value>,
}

impl Waiting {
    /// A proposal `id` of the program `program_name`, with its link or command.
    pub(crate) fn new(
        id: &str,
        status: &str,
        at: &ApprovalAt,
        program_name: &str,
        apply_tool: Option<String>,
        data: Map<String, Value>,
    ) -> Option<Self> {
        if !is_proposal_id(id) {
            return None;
        }
        let (url, command) = match at {
            ApprovalAt::Page(base) => (Some(format!("{}/{id}", base.trim_end_matches('/'))), None),
            ApprovalAt::Terminal => (
                None,
                Some(format!("{program_name} voorstel goedkeuren {id}")),
            ),
            ApprovalAt::Unnamed => (None, None),
        };
        Some(Self {
            id: id.to_string(),
            status: status.to_string(),
            url,
            command,
            apply_tool,
            data,
        })
    }

    /// The plain instruction: give the link to the person; apply by id afterwards.
    pub(crate) fn instruction(&self) -> String {
        let id = &self.id;
        let how = match (&self.url, &self.command) {
            (Some(url), _) => format!(
                "Geef deze link aan de persoon die namens het bedrijf beslist: {url} . Die logt \
                 daar in, ziet wat er wordt ingediend en kiest Goedkeuren of Afwijzen; de link \
                 alleen keurt niets goed."
            ),
            (None, Some(command)) => format!(
                "Vraag de persoon die namens het bedrijf beslist om in een eigen terminal \
                 `{command}` uit te voeren; die toont het plan en vraagt om de eerste tekens van \
                 de digest."
            ),
            (None, None) => "Een persoon die namens het bedrijf beslist moet het voorstel \
                             goedkeuren op de goedkeuringspagina van de organisatie; deze server \
                             noemt er geen."
                .to_string(),
        };
        let then = match &self.apply_tool {
            Some(tool) => format!(" Voer het daarna uit met {tool} en voorstel_id=\"{id}\"."),
            None => format!(" Voer het daarna uit met voorstel_id=\"{id}\"."),
        };
        // A second report of a round (rvo-cli's plan member `eerder_ingediend`, issue 40 item 7)
        // is said where every host shows it, before anyone approves.
        let earlier: Vec<&str> = self.data.get("plan").map_or(Vec::new(), |plan| {
            plan["eerder_ingediend"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|filed| filed["referentienummer"].as_str())
                .collect()
        });
        let second = if earlier.is_empty() {
            String::new()
        } else {
            format!(
                " Let op: voor deze regeling is al een rapportage ingediend ({}); dit voorstel dient \
                 een tweede in.",
                earlier.join(", ")
            )
        };
        format!(
            "Voorstel {id} wacht op goedkeuring door een persoon; er is niets ingediend.{second} \
             {how}{then}"
        )
    }

    /// The structured answer: the program's data about the proposal, and the link and instruction.
    pub(crate) fn structured(&self) -> Value {
        let mut data = self.data.clone();
        data.insert("uitgevoerd".into(), Value::Bool(false));
        data.insert("voorstel_id".into(), self.id.clone().into());
        data.insert("status".into(), self.status.clone().into());
        // Where to approve is the bridge's to say: the program's own link and terminal command
        // (`goedkeuren`) are replaced by the bridge's.
        data.remove("goedkeuring_url");
        data.remove("goedkeuren");
        if let Some(url) = &self.url {
            data.insert("goedkeuring_url".into(), url.clone().into());
        }
        if let Some(command) = &self.command {
            data.insert("goedkeuring_opdracht".into(), command.clone().into());
        }
        data.insert("instructie".into(), self.instruction().into());
        Value::Object(data)
    }

    /// The complete result: the structured answer, and the instruction as text for a host that
    /// shows a model only `content` (in the short form the answer, which holds the instruction,
    /// only once: [`Shape`]).
    pub(crate) fn result(&self, meta: Option<Value>, shape: Shape) -> Value {
        let mut result = json!({
            "content": [{"type": "text", "text": shape.text(true, self.instruction())}],
            "structuredContent": self.structured(),
            "isError": false,
            "resultType": "complete",
        });
        if let Some(meta) = meta {
            result["_meta"] = meta;
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_that_applies_a_proposal_takes_only_its_id() {
        let mut schema = json!({"type": "object", "properties": {
            "regeling_id": {"type": "string"}, "voorstel_id": {"type": "string"}},
            "required": ["regeling_id"]});
        assert_eq!(
            only_the_proposal_argument(schema.as_object_mut().unwrap()).as_deref(),
            Some("voorstel_id")
        );
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {"voorstel_id": {"type": "string"}},
                   "required": ["voorstel_id"], "additionalProperties": false})
        );
        // rvo-cli's name for it, listed under the bridge's.
        let mut rvo = json!({"type": "object", "properties": {
            "kvk_nummer": {"type": "string"}, "voorstel": {"type": "string", "pattern": "^vs_"}}});
        assert_eq!(
            only_the_proposal_argument(rvo.as_object_mut().unwrap()).as_deref(),
            Some("voorstel")
        );
        assert_eq!(
            rvo["properties"],
            json!({"voorstel_id": {"type": "string", "pattern": "^vs_"}})
        );
        let mut other = json!({"type": "object", "properties": {"id": {}}});
        assert!(only_the_proposal_argument(other.as_object_mut().unwrap()).is_none());
        let id = "vs_abcdefghijklmnopqrstuvwxyz234567";
        assert_eq!(
            id_and_status(&json!({"id": id, "status": "open"})),
            Some((id, "open"))
        );
        assert_eq!(
            id_and_status(&json!({"id": "KVK-1", "status": "open"})),
            None
        );
    }

    #[test]
    fn the_link_is_checked_and_the_instruction_names_it() {
        let at = ApprovalAt::Page("https://mcp.example.nl/voorstellen/".into());
        let id = "AbCdEfGhIjKlMnOpQrStUv";
        let waiting =
            Waiting::new(id, OPEN, &at, "rvo-cli", Some("rvo__x".into()), Map::new()).unwrap();
        let url = format!("https://mcp.example.nl/voorstellen/{id}");
        assert_eq!(waiting.url.as_deref(), Some(url.as_str()));
        let text = waiting.instruction();
        assert!(
            text.contains(&url) && text.contains("rvo__x") && text.contains(id),
            "{text}"
        );
        assert!(!text.contains("Let op"), "{text}");
        // A second report of a round names the first in the text every host shows.
        let mut data = Map::new();
        data.insert(
            "plan".into(),
            json!({"eerder_ingediend": [{"referentienummer": "RVO-EBR-2027-X1"}]}),
        );
        let second = Waiting::new(id, OPEN, &at, "rvo-cli", None, data).unwrap();
        assert!(
            second
                .instruction()
                .contains("al een rapportage ingediend (RVO-EBR-2027-X1)"),
            "{}",
            second.instruction()
        );
        let structured = waiting.structured();
        assert_eq!(structured["goedkeuring_url"], url);
        assert!(jsonschema::is_valid(&not_performed_schema(), &structured));
        let terminal =
            Waiting::new(id, OPEN, &ApprovalAt::Terminal, "rvo-cli", None, Map::new()).unwrap();
        assert_eq!(
            terminal.command.as_deref(),
            Some(format!("rvo-cli voorstel goedkeuren {id}").as_str())
        );
        // A remote client is never told to run a terminal command, not even the program's own.
        let mut data = Map::new();
        data.insert(
            "goedkeuren".into(),
            format!("rvo-cli voorstel goedkeuren {id}").into(),
        );
        let remote = Waiting::new(id, OPEN, &ApprovalAt::Unnamed, "rvo-cli", None, data).unwrap();
        let answer = remote.result(None, Shape::default()).to_string();
        assert!(!answer.contains("rvo-cli voorstel goedkeuren"), "{answer}");
        assert!(answer.contains("goedkeuringspagina"), "{answer}");
        for bad in ["kort", "../../mcp?x=AbCdEfGhIjKlMnOp", "AbCdEfGhIjKlMnOp/x"] {
            assert!(Waiting::new(bad, OPEN, &at, "rvo-cli", None, Map::new()).is_none());
        }
    }
}
