//! `completion/complete`: values for the arguments of prompts and the variables of resource
//! templates, taken from what the family's own tools list, never made up by the bridge.
//!
//! | argument | from |
//! |---|---|
//! | `law_id` | regelrecht-cli `wet_lijst`: `wetten[].law_id` |
//! | `bwb_id` | `wet_lijst`: `wetten[].bwb_id`, and rvo-cli `regeling_lijst`: `regelingen[].wettelijke_grondslag[].bwb_id` |
//! | `artikel` | with `bwb_id` (or `law_id`) in the context: that law's articles (`wet_toon`, `artikelen[].nummer`) and the articles the scheme catalogue cites for it |
//! | `regeling_id` | `regeling_lijst`: `regelingen[].id` |
//! | `maatregel`, `maatregelen` | the measure codes of the Erkende Maatregelenlijst (`wet_toon` of [`EML_LAW_ID`]) |
//! | `trefwoord` | `regeling_lijst`: `regelingen[].trefwoorden[]` |
//! | `id`, `referentienummer` | the session's own proposals (`voorstel_lijst`) and reports (`rapportage_lijst`) |
//! | anything else | the `enum` of a tool property of that name (`status`) |
//!
//! Those lists are local data of the CLIs (built-in laws, the embedded catalogue, the proposal
//! store), read by running the tool once and kept for [`PUBLIC_TTL`] (the session's own lists
//! for [`PRIVATE_TTL`], per principal), at most [`crate::calls::list_cache::MAX_ENTRIES`] lists
//! ([`crate::calls::list_cache`]): a keystroke costs no
//! child process and no upstream request once a list is known. An answer holds at most 100
//! values (MCP's limit) with `total` and `hasMore`.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use common::provenance::ProvenanceForm;
use common::trace::TraceContext;

use crate::calls::bridge::Bridge;
use crate::calls::call::{self, Invocation, Outcome};
use crate::calls::list_cache::{PRIVATE_TTL, PUBLIC_TTL};
use crate::identity::session::Session;

/// The most values one answer carries (MCP's `CompletionInfo` limit).
pub(crate) const MAX_VALUES: usize = 100;
/// The law id of the Erkende Maatregelenlijst energiebesparing in regelrecht-cli.
pub(crate) const EML_LAW_ID: &str = "erkende_maatregelenlijst_energiebesparing";

/// What a completion asks: the argument's name, what has been typed, and the other arguments
/// already given (`context.arguments`).
pub(crate) struct Ask<'a> {
    pub name: &'a str,
    pub typed: &'a str,
    pub context: &'a HashMap<String, String>,
}

/// The completion (`{values, total, hasMore}`) for `ask`.
pub(crate) async fn complete(bridge: &Bridge, ask: &Ask<'_>, session: Option<&Session>) -> Value {
    let (keep, typed) = match ask.name {
        // A comma-separated list: complete its last member.
        "maatregelen" => match ask.typed.rsplit_once(',') {
            Some((before, last)) => (format!("{before},"), last.trim_start()),
            None => (String::new(), ask.typed),
        },
        _ => (String::new(), ask.typed),
    };
    let candidates = candidates(bridge, ask, session).await;
    let wanted = typed.to_lowercase();
    let mut values: Vec<String> = Vec::new();
    for value in candidates {
        if value.to_lowercase().starts_with(&wanted) && !values.contains(&value) {
            values.push(value);
        }
    }
    values.sort();
    let total = values.len();
    values.truncate(MAX_VALUES);
    let values: Vec<String> = values.into_iter().map(|v| format!("{keep}{v}")).collect();
    json!({"values": values, "total": total, "hasMore": total > MAX_VALUES})
}

/// Every value the argument may take, unfiltered.
async fn candidates(bridge: &Bridge, ask: &Ask<'_>, session: Option<&Session>) -> Vec<String> {
    let wetten = || list(bridge, "regelrecht-cli", "wet_lijst", json!({}), None);
    // Every member of each scheme (the list prints a short row unless asked for all, CONV-9).
    let regelingen = || {
        list(
            bridge,
            "rvo-cli",
            "regeling_lijst",
            json!({"lang": true}),
            None,
        )
    };
    match ask.name {
        "law_id" => pick(&*wetten().await, "wetten[].law_id"),
        "bwb_id" => {
            let mut all = pick(&*wetten().await, "wetten[].bwb_id");
            all.extend(pick(
                &*regelingen().await,
                "regelingen[].wettelijke_grondslag[].bwb_id",
            ));
            all
        }
        "artikel" => articles(bridge, ask.context).await,
        "regeling_id" => pick(&*regelingen().await, "regelingen[].id"),
        "trefwoord" => pick(&*regelingen().await, "regelingen[].trefwoorden[]"),
        "maatregel" | "maatregelen" => {
            let eml = json!({"law_id": EML_LAW_ID, "fields": ["artikelen[].nummer"]});
            let data = list(bridge, "regelrecht-cli", "wet_toon", eml, None).await;
            pick(&data, "artikelen[].nummer")
        }
        "id" if session.is_some() => {
            let data = list(bridge, "rvo-cli", "voorstel_lijst", json!({}), session).await;
            pick(&data, "voorstellen[].id")
        }
        "referentienummer" if session.is_some() => {
            let data = list(bridge, "rvo-cli", "rapportage_lijst", json!({}), session).await;
            pick(&data, "rapportages[].referentienummer")
        }
        name => enumerated(bridge, name),
    }
}

/// The articles of the law in the context: by `bwb_id` (the built-in law with that id, and the
/// articles the scheme catalogue cites) or by `law_id`.
async fn articles(bridge: &Bridge, context: &HashMap<String, String>) -> Vec<String> {
    let mut law_ids = Vec::new();
    let mut all = Vec::new();
    if let Some(bwb_id) = context.get("bwb_id") {
        let wetten = list(bridge, "regelrecht-cli", "wet_lijst", json!({}), None).await;
        for wet in wetten["wetten"].as_array().into_iter().flatten() {
            if wet["bwb_id"] == bwb_id.as_str()
                && let Some(id) = wet["law_id"].as_str()
            {
                law_ids.push(id.to_string());
            }
        }
        let regelingen = list(
            bridge,
            "rvo-cli",
            "regeling_lijst",
            json!({"lang": true}),
            None,
        )
        .await;
        for regeling in regelingen["regelingen"].as_array().into_iter().flatten() {
            for basis in regeling["wettelijke_grondslag"]
                .as_array()
                .into_iter()
                .flatten()
            {
                if basis["bwb_id"] == bwb_id.as_str()
                    && let Some(artikel) = basis["artikel"].as_str()
                {
                    all.push(artikel.to_string());
                }
            }
        }
    }
    if let Some(law_id) = context.get("law_id") {
        law_ids.push(law_id.clone());
    }
    for law_id in law_ids {
        let arguments = json!({"law_id": law_id, "fields": ["artikelen[].nummer"]});
        let data = list(bridge, "regelrecht-cli", "wet_toon", arguments, None).await;
        all.extend(pick(&data, "artikelen[].nummer"));
    }
    all
}

/// The `enum` of the first tool property called `name`.
fn enumerated(bridge: &Bridge, name: &str) -> Vec<String> {
    bridge
        .catalog
        .tools
        .iter()
        .find_map(|tool| tool.listed["inputSchema"]["properties"][name]["enum"].as_array())
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// The data of `tool` of `program` called with `arguments` (as the session when given): kept,
/// or read now. `Null` when the tool is not loaded or did not answer with data.
async fn list(
    bridge: &Bridge,
    program: &str,
    tool: &str,
    arguments: Value,
    session: Option<&Session>,
) -> Arc<Value> {
    let Some(index) = bridge.catalog.find(program, tool) else {
        return Arc::new(Value::Null);
    };
    let key = format!(
        "{index} {arguments} {}",
        session.map_or_else(String::new, |s| Session::principal(Some(s)))
    );
    let ttl = if session.is_some() {
        PRIVATE_TTL
    } else {
        PUBLIC_TTL
    };
    let read = || async {
        let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap_or_default();
        let invocation = Invocation {
            tool: &bridge.catalog.tools[index],
            arguments: &arguments,
            session,
            client: None,
            provenance: ProvenanceForm::Compact,
            notifier: None,
        };
        let trace = TraceContext::start(None);
        match call::run(bridge, &invocation, &trace, std::future::pending()).await {
            Ok(Outcome::Data { data, .. }) => Some(data),
            // A failure is not kept: the next keystroke tries again.
            _ => None,
        }
    };
    bridge.completions.get_or_read(key, ttl, read).await
}

/// The text values at `path` (`a[].b`: member `b` of every element of array `a`).
fn pick(data: &Value, path: &str) -> Vec<String> {
    let mut found = vec![data];
    for step in path.split('.') {
        let (name, each) = match step.strip_suffix("[]") {
            Some(name) => (name, true),
            None => (step, false),
        };
        found = found
            .into_iter()
            .filter_map(|value| value.get(name))
            .flat_map(|value| match (each, value.as_array()) {
                (true, Some(items)) => items.iter().collect(),
                (true, None) => Vec::new(),
                (false, _) => vec![value],
            })
            .collect();
    }
    found
        .into_iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_text_values_along_a_path() {
        let data = json!({"regelingen": [
            {"id": "EBR-2027", "wettelijke_grondslag": [{"bwb_id": "BWBR0041330"}, {"bwb_id": null}]},
            {"id": "SDE", "wettelijke_grondslag": []},
            {"id": 3}
        ]});
        assert_eq!(pick(&data, "regelingen[].id"), ["EBR-2027", "SDE"]);
        assert_eq!(
            pick(&data, "regelingen[].wettelijke_grondslag[].bwb_id"),
            ["BWBR0041330"]
        );
        assert!(pick(&data, "regelingen.id").is_empty());
        assert!(pick(&Value::Null, "wetten[].law_id").is_empty());
    }
}
