//! The program around its tool entries (DISC-18..20, CONF-3, CONF-4, CONF-8, RES-1..4, CONV-2): global
//! options, environment variables, plain help, resources and shell completions.

use crate::checks::not_exit_0;
use serde_json::Value;

use crate::checks::{Evidence, NO_DISCOVERY, Verdict, judge, judge_probes};
use crate::probe::Kind;
use crate::session::Session;

/// The options every command must accept (§3.3).
pub(super) const PROFILE_OPTIONS: [&str; 9] = [
    "--output",
    "--fields",
    "--provenance",
    "--dry-run",
    "--confirm",
    "--timeout",
    "--audit-log",
    "--no-color",
    "--quiet",
];

pub(super) fn global_options(session: &Session) -> Verdict {
    let Some(document) = &session.discovery else {
        return Verdict::Skip(NO_DISCOVERY.into());
    };
    let missing: Vec<&str> = PROFILE_OPTIONS
        .into_iter()
        .filter(|o| !crate::model::has_global_option(document, o))
        .collect();
    let failures = if missing.is_empty() {
        Vec::new()
    } else {
        vec![Evidence::about(
            "global_options",
            format!("ontbreekt: {}", missing.join(", ")),
        )]
    };
    judge(failures, 1, "")
}

pub(super) fn env_declaration(session: &Session) -> Verdict {
    let Some(document) = &session.discovery else {
        return Verdict::Skip(NO_DISCOVERY.into());
    };
    let Some(env) = document.get("env").and_then(Value::as_array) else {
        return Verdict::Fail(vec![Evidence::about("env", "env ontbreekt")]);
    };
    let mut failures = Vec::new();
    let declared = crate::model::declared_env(document);
    let names: Vec<&str> = declared.iter().map(|(name, _)| name.as_str()).collect();
    for entry in env {
        let name = entry.get("name").and_then(Value::as_str).unwrap_or("?");
        let kind = entry.get("kind").and_then(Value::as_str);
        let secret = entry.get("secret").and_then(Value::as_bool);
        if !matches!(kind, Some("base_url" | "secret" | "path" | "setting")) {
            failures.push(Evidence::about(
                format!("env {name}"),
                format!("kind {kind:?} is niet base_url|secret|path|setting"),
            ));
        }
        if secret != Some(kind == Some("secret")) {
            failures.push(Evidence::about(
                format!("env {name}"),
                "secret moet true zijn precies bij kind secret",
            ));
        }
        if kind == Some("secret") && entry.get("default").is_some() {
            failures.push(Evidence::about(
                format!("env {name}"),
                "een geheim heeft geen default",
            ));
        }
    }
    if let Some(kinds) = document.get("profile_env").and_then(Value::as_object) {
        for (kind, names) in kinds {
            if !matches!(kind.as_str(), "base_url" | "secret" | "path" | "setting") {
                failures.push(Evidence::about(
                    "profile_env",
                    format!("kind {kind:?} is niet base_url|secret|path|setting"),
                ));
            }
            if !names
                .as_array()
                .is_some_and(|n| n.iter().all(Value::is_string))
            {
                failures.push(Evidence::about(
                    format!("profile_env {kind}"),
                    "geen lijst van namen",
                ));
            }
        }
    }
    let program = session.program_name();
    let tool_var = format!(
        "{}_AUDIT_LOG",
        program
            .strip_suffix("-cli")
            .unwrap_or(&program)
            .to_uppercase()
            .replace('-', "_")
    );
    for required in [
        tool_var.as_str(),
        "OVERHEID_AUDIT_LOG",
        "XDG_STATE_HOME",
        "OVERHEID_PROCESSING_ACTIVITY_ID",
        "OVERHEID_MAX_RESPONSE_BYTES",
        "TRACEPARENT",
        "NO_COLOR",
    ] {
        if !names.contains(&required) {
            failures.push(Evidence::about(
                "env",
                format!("profielvariabele {required} is niet gedeclareerd"),
            ));
        }
    }
    judge(failures, 1, "")
}

pub(super) fn plain_help(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| *k == Kind::Help),
        "--help niet aangeroepen",
        |probe| {
            if let Some(why) = not_exit_0(&probe.outcome) {
                return Some(why);
            }
            if probe.outcome.stdout.trim().is_empty() {
                return Some("geen helptekst op stdout".into());
            }
            probe
                .stdout_json()
                .is_some()
                .then(|| "--help zonder --json gaf JSON".into())
        },
    )
}

fn template_variables(template: &str) -> Vec<String> {
    template
        .split('{')
        .skip(1)
        .filter_map(|part| part.split_once('}').map(|(name, _)| name.to_string()))
        .collect()
}

pub(super) fn resources(session: &Session) -> Verdict {
    let Some(document) = &session.discovery else {
        return Verdict::Skip(NO_DISCOVERY.into());
    };
    let Some(list) = document.get("resources").and_then(Value::as_array) else {
        return Verdict::Skip("het document heeft geen resources".into());
    };
    let mut failures = Vec::new();
    for resource in list {
        let template = resource
            .get("uriTemplate")
            .and_then(Value::as_str)
            .unwrap_or("");
        let subject = format!("resource {template}");
        if template.starts_with("http://") || template.starts_with("https://") {
            failures.push(Evidence::about(
                &subject,
                "uriTemplate gebruikt http(s); een eigen schema is vereist",
            ));
        }
        if resource.get("mimeType").and_then(Value::as_str) != Some("application/json") {
            failures.push(Evidence::about(
                &subject,
                "mimeType is niet application/json",
            ));
        }
        let tool = resource
            .get("_meta")
            .and_then(|m| m.get("tool"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let Some(entry) = session.entries.iter().find(|e| e.name == tool) else {
            failures.push(Evidence::about(
                &subject,
                format!("_meta.tool {tool:?} is geen tool in dit document"),
            ));
            continue;
        };
        if !entry.read_only {
            failures.push(Evidence::about(
                &subject,
                format!("tool {tool} is niet alleen-lezen"),
            ));
        }
        let variables = template_variables(template);
        for variable in &variables {
            if entry.property(variable).is_none() {
                failures.push(Evidence::about(
                    &subject,
                    format!("variabele {variable} is geen eigenschap van {tool}"),
                ));
            }
        }
        for required in entry.required() {
            if !variables.contains(&required) {
                failures.push(Evidence::about(
                    &subject,
                    format!("verplichte eigenschap {required} is geen variabele"),
                ));
            }
        }
    }
    judge(failures, list.len(), "lege resources")
}

pub(super) fn completions(session: &Session) -> Verdict {
    judge_probes(
        session.probes_where(|k| *k == Kind::Completions),
        "niet aangeroepen",
        |probe| {
            if let Some(why) = not_exit_0(&probe.outcome) {
                return Some(why);
            }
            if probe.outcome.stdout.trim().is_empty() {
                return Some("geen script op stdout".into());
            }
            probe
                .audit
                .is_some()
                .then(|| "completions schreef een auditregel".into())
        },
    )
}
