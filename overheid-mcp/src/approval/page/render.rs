//! A proposal as the page shows it, from its record alone (its plan and binding, and the
//! concept it carries): no tool's arguments are known here. The plan says which of its members
//! are the caller's free text (`vrije_tekst`) and what the person must know first (`let_op`);
//! the binding's members are the approval's facts (profile §10.3); a concept is the family's
//! concept document (regelrecht-cli's `concept`), its values with their sources.
//!
//! First what a person needs to decide, with the buttons right after it so they are on the
//! first screen (1280×800 and a phone's 390×844): what will be filed, for which company (its
//! name when the person's login names it), under which scheme (its name, from the plan), where
//! to and on which date, the measures, who proposed it, until when it waits. Then the agent's
//! own words, quoted and labelled as the agent's, never styled as the page's; then every value
//! of the plan and of the concept with its source and the article of law it rests on. Times are
//! in Europe/Amsterdam.

use chrono::{DateTime, Utc};
use common::plan::{CALLER_TEXT, NOTICE};
use overheid_records::{Proposal, Status};
use serde_json::{Map, Value};

use super::oidc::Person;
use super::{PATH, SESSION_TTL, csrf_purpose, html};
use crate::approval::request_state::Approval;

/// A status in Dutch, as a sentence part.
fn status(proposal: &Proposal) -> &'static str {
    match proposal.status {
        Status::Open => "wacht op uw beslissing",
        Status::Approved => "goedgekeurd",
        Status::Declined => "afgewezen",
        Status::Expired => "verlopen",
        Status::Filed => "ingediend",
    }
}

fn when(instant: DateTime<Utc>) -> String {
    html::text(&common::calendar::dutch_display(instant))
}

/// The plan's member `name`, then the binding's.
fn member<'a>(proposal: &'a Proposal, name: &str) -> Option<&'a Value> {
    let plan = &proposal.call.plan;
    plan["arguments"]
        .get(name)
        .or_else(|| plan.get(name))
        .or_else(|| proposal.call.binding.as_ref()?.get(name))
        .filter(|v| !v.is_null())
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "—".to_string(), |v| html::value(v, 1))
}

/// The company: its name when the person's login names it, beside the number.
fn company(person: &Person, number: &str) -> String {
    match person.company_names.get(number) {
        Some(name) => format!("{} (KvK {})", html::text(name), html::text(number)),
        None => format!("KvK {}", html::text(number)),
    }
}

/// Where the filing goes, in words.
fn target(proposal: &Proposal) -> String {
    match member(proposal, "backend").and_then(Value::as_str) {
        Some("lokaal") | None => "de lokale proefopslag (er gaat niets naar RVO)".to_string(),
        Some("http") => "de backend van de organisatie".to_string(),
        Some(url) => html::text(url),
    }
}

/// Who proposed it, as recorded, and the program it came through as that program declared it
/// (labelled: nothing in the store is verified; the person's login is what counts).
fn proposer(proposal: &Proposal) -> String {
    let who = match &proposal.proposed_by {
        Some(by) if by.method == "caller" => {
            format!("een agent, namens {} (over MCP)", html::text(&by.name))
        }
        Some(by) => format!("{} (gebruiker op de machine)", html::text(&by.name)),
        None => "onbekend".to_string(),
    };
    let Some(via) = &proposal.proposed_via else {
        return who;
    };
    let named: Vec<String> = [
        via.mcp_client
            .as_ref()
            .map(|c| format!("MCP-client <q>{}</q>", html::text(c))),
        via.oauth_client
            .as_ref()
            .map(|c| format!("OAuth-client <q>{}</q>", html::text(c))),
    ]
    .into_iter()
    .flatten()
    .collect();
    format!(
        "{who}<br>via {} <small>(opgave van de aanroeper, niet gecontroleerd)</small>",
        named.join(", ")
    )
}

/// The plan's members the tool marked as the caller's free text (`vrije_tekst`: JSON pointers).
fn caller_pointers(plan: &Value) -> Vec<&str> {
    plan[CALLER_TEXT]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// A member's name as a label: `overige_maatregelen` → "Overige maatregelen".
fn label(name: &str) -> String {
    let spaced = name.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The agent's own words in the plan (the members it marks as the caller's free text), quoted
/// and labelled, never styled as the page's own.
fn agent_words(proposal: &Proposal) -> String {
    let plan = &proposal.call.plan;
    let mut quoted = String::new();
    for pointer in caller_pointers(plan) {
        let name = pointer.rsplit('/').next().unwrap_or(pointer);
        let caption = format!(
            "{}, geschreven door de agent (niet door deze pagina of een persoon gecontroleerd):",
            html::text(&label(name))
        );
        let body = match plan.pointer(pointer) {
            Some(Value::String(text)) if !text.is_empty() => html::text(text),
            Some(Value::Array(items)) if !items.is_empty() => {
                let items: String = items
                    .iter()
                    .map(|item| match item {
                        Value::String(text) => format!("<li>{}</li>", html::text(text)),
                        other => format!("<li>{}</li>", html::value(other, 1)),
                    })
                    .collect();
                format!("<ul>{items}</ul>")
            }
            Some(Value::Null | Value::String(_) | Value::Array(_)) | None => continue,
            Some(other) => html::value(other, 1),
        };
        quoted.push_str(&format!(
            "<figure class=\"agent\"><figcaption>{caption}</figcaption><blockquote>{body}</blockquote></figure>"
        ));
    }
    quoted
}

/// The concept's values and outcomes, each with its source and article, when the proposal
/// carries a concept.
fn concept(proposal: &Proposal) -> String {
    let concept = &proposal.call.input["concept"];
    if !concept.is_object() {
        return String::new();
    }
    let fields: String = concept["velden"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|field| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                html::text(field["naam"].as_str().unwrap_or_default()),
                html::value(&field["waarde"], 1),
                html::text(field["bron"].as_str().unwrap_or("—")),
            )
        })
        .collect();
    let outcomes: String = concept["uitkomsten"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|outcome| {
            let basis = html::value(&outcome["wettelijke_grondslag"], 1);
            format!(
                "<tr><td>{}</td><td>{}</td><td>{} {}</td></tr>",
                html::text(outcome["uitvoer"].as_str().unwrap_or_default()),
                html::value(&outcome["waarde"], 1),
                html::text(outcome["artikel"].as_str().unwrap_or("—")),
                basis,
            )
        })
        .collect();
    format!(
        "<h2>Waarden uit het concept</h2><table><thead><tr><th scope=\"col\">Gegeven</th>\
         <th scope=\"col\">Waarde</th><th scope=\"col\">Bron</th></tr></thead><tbody>{fields}</tbody></table>\
         <h2>Uitkomsten en wetsartikelen</h2><table><thead><tr><th scope=\"col\">Uitkomst</th>\
         <th scope=\"col\">Waarde</th><th scope=\"col\">Artikel</th></tr></thead><tbody>{outcomes}</tbody></table>"
    )
}

/// The binding's members (the authorization detail of an approval, profile §10.3): the page
/// shows them as the facts of the approval, each in its own row.
const BOUND: &[&str] = &["kvk_nummer", "regeling_id", "backend", "peildatum"];

/// Whether an argument is short enough for the summary: a text, or a list of texts.
fn short(value: &Value) -> bool {
    match value {
        Value::String(_) | Value::Number(_) | Value::Bool(_) => true,
        Value::Array(items) => items.iter().all(|item| item.is_string()),
        _ => false,
    }
}

/// The plan's short arguments that are neither bound nor the caller's words, as summary rows.
fn summary(proposal: &Proposal) -> String {
    let plan = &proposal.call.plan;
    let quoted = caller_pointers(plan);
    plan["arguments"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(key, value)| {
            !BOUND.contains(&key.as_str())
                && !quoted.contains(&format!("/arguments/{key}").as_str())
                && short(value)
        })
        .map(|(key, value)| {
            format!(
                "<dt>{}</dt><dd>{}</dd>",
                html::text(&label(key)),
                html::value(value, 1)
            )
        })
        .collect()
}

/// The plan's other arguments (all but the bound ones, the summary's and the agent's words).
fn details(proposal: &Proposal) -> String {
    let plan = &proposal.call.plan;
    let mut arguments = plan["arguments"].clone();
    // The agent's words are quoted above: taken out here, wherever they are nested.
    for pointer in caller_pointers(plan) {
        let Some(inner) = pointer.strip_prefix("/arguments") else {
            continue;
        };
        let (parent, name) = inner.rsplit_once('/').unwrap_or(("", inner));
        if let Some(Value::Object(members)) = arguments.pointer_mut(parent) {
            members.remove(name);
        }
    }
    let mut rest = Map::new();
    for (key, value) in arguments.as_object().into_iter().flatten() {
        if !BOUND.contains(&key.as_str()) && !short(value) {
            rest.insert(key.clone(), value.clone());
        }
    }
    if rest.is_empty() {
        String::new()
    } else {
        format!(
            "<h2>Verdere gegevens die worden ingediend</h2>{}",
            html::value(&Value::Object(rest), 1)
        )
    }
}

/// The decision form while the proposal is open, else who decided.
fn decision(approval: &Approval, person: &Person, proposal: &Proposal) -> String {
    if let Some(decided) = &proposal.decision {
        let how = if decided.token.is_some() {
            "met een login bij de identiteitsprovider"
        } else if decided.by.method == "terminal" {
            "op een terminal (geen login)"
        } else {
            "na inloggen"
        };
        return format!(
            "<p>Besloten door {} op {}, {how}.</p>",
            html::text(&decided.by.name),
            when(decided.at),
        );
    }
    if proposal.status != Status::Open {
        return String::new();
    }
    let token = approval.seal_for(
        &csrf_purpose(&proposal.id, &person.sub),
        proposal.call.plan_digest.as_bytes(),
        SESSION_TTL,
    );
    format!(
        "<form method=\"post\" action=\"{PATH}/{id}\"><input type=\"hidden\" name=\"csrf\" value=\"{token}\">\
         <input type=\"hidden\" name=\"digest\" value=\"{digest}\">\
         <p>Beslis als {name}. U logt daarvoor opnieuw in; goedkeuren betekent dat precies dit \
         plan, naar deze bestemming en op deze datum, één keer mag worden ingediend.</p>\
         <button class=\"ja\" type=\"submit\" name=\"beslissing\" value=\"goedkeuren\">Goedkeuren</button>\
         <button type=\"submit\" name=\"beslissing\" value=\"afwijzen\">Afwijzen</button></form>",
        id = html::text(&proposal.id),
        token = html::text(&token),
        digest = html::text(&proposal.call.plan_digest),
        name = html::text(&person.name),
    )
}

/// What the tool says the person must know before deciding (the plan's `let_op` sentences,
/// e.g. that a report of the same round was filed before), above the facts.
fn notices(plan: &Value) -> String {
    plan[NOTICE]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|sentence| {
            format!(
                "<p class=\"melding\" role=\"alert\">Let op: {}</p>",
                html::text(sentence)
            )
        })
        .collect()
}

/// The proposal's page.
pub(crate) fn proposal(
    approval: &Approval,
    person: &Person,
    proposal: &Proposal,
    notice: Option<&str>,
) -> String {
    let plan = &proposal.call.plan;
    let notice = notice
        .map(|n| format!("<p class=\"melding\" role=\"status\">{}</p>", html::text(n)))
        .unwrap_or_default();
    let scheme_id = member(proposal, "regeling_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let scheme = match plan.get("regeling_naam").and_then(Value::as_str) {
        Some(name) => format!("{} ({})", html::text(name), html::text(scheme_id)),
        None => html::text(scheme_id),
    };
    format!(
        "<h1>Voorstel: {effect}</h1>{notice}{filed}<dl class=\"kern\">\
         <dt>Bedrijf</dt><dd>{company}</dd>\
         <dt>Regeling</dt><dd>{scheme}</dd>\
         <dt>Naar</dt><dd>{target}</dd>\
         <dt>Peildatum</dt><dd>{date}</dd>\
         {summary}\
         <dt>Voorgesteld door</dt><dd>{proposer}</dd>\
         <dt>Status</dt><dd>{status}; verloopt {expires}</dd></dl>\
         {decision}{agent}{details}{concept}\
         <h2>Controle</h2><dl><dt>Opdracht</dt><dd>{tool} {command}</dd>\
         <dt>Voorstel</dt><dd><code>{id}</code>, opgesteld {created}</dd>\
         <dt>Plan-digest</dt><dd><code>{digest}</code></dd></dl>\
         <p><a href=\"{PATH}\">Alle open voorstellen</a></p>",
        effect = html::text(plan["effect"].as_str().unwrap_or("een wijziging")),
        filed = notices(plan),
        company = company(person, &proposal.call.company),
        target = target(proposal),
        date = shown(member(proposal, "peildatum")),
        summary = summary(proposal),
        proposer = proposer(proposal),
        status = status(proposal),
        expires = when(proposal.expires_at),
        decision = decision(approval, person, proposal),
        agent = agent_words(proposal),
        details = details(proposal),
        concept = concept(proposal),
        tool = html::text(&proposal.call.tool),
        command = html::text(&proposal.call.command),
        id = html::text(&proposal.id),
        created = when(proposal.created_at),
        digest = html::text(&proposal.call.plan_digest),
    )
}
