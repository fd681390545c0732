//! Prompts: the family's recurring work as a ready first message for a model, in Dutch, naming
//! the tools to use in order. A prompt is offered only when every tool it names is loaded.
//!
//! - `informatieplicht_energiebesparing`: check the obligation (Bal 5.15–5.15b), draw up the
//!   concept, record a proposal that a person approves;
//! - `regelingen_voor_mijn_bedrijf`: which schemes may apply to the session's company;
//! - `artikel_uitleggen`: explain an article of law, citing its source;
//! - `status_voorstellen_en_rapportages`: the session's proposals and filed reports.
//!
//! Arguments are completable (`completion/complete`, [`crate::calls::completions`]) and checked before
//! they go into the text (a pattern each; -32602 otherwise), so a prompt carries no more than
//! what its arguments may be. The company is never an argument: the tools take it from the
//! session.

use serde_json::{Map, Value, json};

use crate::catalog::Catalog;

/// One argument of a prompt.
struct Argument {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    required: bool,
    /// What a value must look like (anchored), checked before it goes into the text.
    pattern: fn(&str) -> bool,
}

/// One prompt: the tools it names (`program`, `tool`) and its text, `{tool:N}` standing for the
/// MCP name of the N-th tool and `{name}` for an argument (empty when not given).
struct Prompt {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    arguments: &'static [Argument],
    tools: &'static [(&'static str, &'static str)],
    text: &'static str,
}

fn bwb_id(v: &str) -> bool {
    v.len() == 11
        && v.starts_with("BWB")
        && v[3..4].chars().all(|c| c == 'R' || c == 'V')
        && v[4..].bytes().all(|b| b.is_ascii_digit())
}
fn artikel(v: &str) -> bool {
    (1..=20).contains(&v.len())
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b':')
}
fn regeling_id(v: &str) -> bool {
    (1..=40).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}
fn year(v: &str) -> bool {
    v.len() == 4 && v.bytes().all(|b| b.is_ascii_digit())
}
fn date(v: &str) -> bool {
    v.len() == 10
        && v.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}
fn word(v: &str) -> bool {
    (1..=60).contains(&v.chars().count())
        && v.chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-')
}
fn codes(v: &str) -> bool {
    (1..=200).contains(&v.len())
        && v.split(',').all(|code| {
            (2..=6).contains(&code.trim().len())
                && code.trim().bytes().all(|b| b.is_ascii_alphanumeric())
        })
}
fn status(v: &str) -> bool {
    ["open", "goedgekeurd", "afgewezen", "verlopen", "ingediend"].contains(&v)
}

const PROMPTS: &[Prompt] = &[
    Prompt {
        name: "informatieplicht_energiebesparing",
        title: "Informatieplicht energiebesparing voorbereiden",
        description: "Toets of het bedrijf van de sessie energiebesparingsplichtig is (Bal 5.15–5.15b), \
                      stel de concept-rapportage op en leg een voorstel vast dat een persoon goedkeurt.",
        arguments: &[
            Argument {
                name: "regeling_id",
                title: "Regeling",
                description: "Id van de regeling bij RVO (standaard EBR-2027)",
                required: false,
                pattern: regeling_id,
            },
            Argument {
                name: "kalenderjaar",
                title: "Kalenderjaar",
                description: "Jaar waarover het energiegebruik is gemeten (JJJJ)",
                required: false,
                pattern: year,
            },
            Argument {
                name: "maatregelen",
                title: "Getroffen maatregelen",
                description: "Codes van de Erkende Maatregelenlijst die al getroffen zijn, \
                              komma-gescheiden (bijv. GC1,GF4)",
                required: false,
                pattern: codes,
            },
        ],
        tools: &[
            ("regelrecht-cli", "check_energiebesparing"),
            ("regelrecht-cli", "concept"),
            ("rvo-cli", "rapportage_voorstel"),
            ("rvo-cli", "regeling_toon"),
        ],
        text: "Help mij de informatieplicht energiebesparing voor te bereiden voor mijn bedrijf \
               (regeling {regeling_id}, kalenderjaar {kalenderjaar}, al getroffen erkende \
               maatregelen: {maatregelen}).\n\
               1. Vraag mij naar het elektriciteitsgebruik (kWh) en het gasgebruik (m3 \
               aardgasequivalent) in dat kalenderjaar, als u die nog niet weet.\n\
               2. Toets met {tool:0} of de energiebesparingsplicht en de informatieplicht gelden, \
               en noem de wettelijke grondslag uit het antwoord (artikel en link).\n\
               3. Als de informatieplicht geldt: stel met {tool:1} (regeling \
               informatieplicht-energiebesparing) het concept op, en loop de open vragen en de \
               erkende maatregelen (EML-codes) met mij door. Bekijk de termijn met {tool:3}.\n\
               4. Leg met {tool:2} een voorstel vast met dat concept. Dat dient nog niets in: geef \
               mij de goedkeuringslink of -opdracht uit het antwoord; alleen een persoon keurt goed.\n\
               Verzin geen getallen of maatregelen: vraag ernaar.",
    },
    Prompt {
        name: "regelingen_voor_mijn_bedrijf",
        title: "Welke regelingen gelden mogelijk voor mijn bedrijf?",
        description: "Zoek de subsidies en verplichtingen die mogelijk gelden voor het bedrijf van de \
                      sessie, op grond van zijn gegevens in het Handelsregister.",
        arguments: &[Argument {
            name: "trefwoord",
            title: "Onderwerp",
            description: "Alleen regelingen over dit onderwerp (bijv. energiebesparing)",
            required: false,
            pattern: word,
        }],
        tools: &[
            ("regelrecht-cli", "regelingen"),
            ("kvk-cli", "basisprofiel_toon"),
            ("rvo-cli", "regeling_toon"),
        ],
        text: "Welke regelingen gelden mogelijk voor mijn bedrijf? Onderwerp: {trefwoord}.\n\
               1. Bekijk met {tool:1} de activiteiten (SBI) en de vestigingen van mijn bedrijf.\n\
               2. Vraag met {tool:0} welke regelingen mogelijk van toepassing zijn; vraag mij om \
               toestemming voordat u een bron raadpleegt die dat vraagt.\n\
               3. Licht per regeling toe waarom die mogelijk geldt, met de termijn en de \
               wettelijke grondslag uit {tool:2}. Zeg erbij dat 'mogelijk' geen besluit is.",
    },
    Prompt {
        name: "artikel_uitleggen",
        title: "Een wetsartikel uitleggen, met bron",
        description: "Haal een artikel uit het Basiswettenbestand op en leg het in gewone taal uit, \
                      met de bron (BWB-id, artikel, geldigheidsdatum en link naar wetten.overheid.nl).",
        arguments: &[
            Argument {
                name: "bwb_id",
                title: "Regeling (BWB-id)",
                description: "BWB-id van de wet of regeling, bijv. BWBR0041330 (Bal)",
                required: true,
                pattern: bwb_id,
            },
            Argument {
                name: "artikel",
                title: "Artikel",
                description: "Artikelnummer, bijv. 5.15a",
                required: true,
                pattern: artikel,
            },
            Argument {
                name: "peildatum",
                title: "Peildatum",
                description: "Datum waarop het artikel gold (JJJJ-MM-DD); standaard vandaag",
                required: false,
                pattern: date,
            },
        ],
        tools: &[("koop-cli", "regeling_artikel")],
        text: "Leg artikel {artikel} van {bwb_id} uit in gewone taal (peildatum: {peildatum}).\n\
               Haal de tekst op met {tool:0} (of lees de resource \
               koop://regeling/{bwb_id}/artikel/{artikel}). Citeer alleen uit die tekst, en sluit \
               af met de bron: de naam van de regeling, het BWB-id, het artikel, de datum waarop \
               de tekst geldt en de link naar wetten.overheid.nl uit de herkomst van het antwoord. \
               Zeg het als het artikel niet bestaat of niet geldt op die datum.",
    },
    Prompt {
        name: "status_voorstellen_en_rapportages",
        title: "Status van mijn voorstellen en rapportages",
        description: "Een overzicht van de voorstellen en de ingediende rapportages van het bedrijf \
                      van de sessie: wat wacht op goedkeuring, wat is ingediend en wat is de status bij RVO.",
        arguments: &[Argument {
            name: "status",
            title: "Status",
            description: "Alleen voorstellen met deze status (open, approved, declined, expired, filed)",
            required: false,
            pattern: status,
        }],
        tools: &[
            ("rvo-cli", "voorstel_lijst"),
            ("rvo-cli", "rapportage_lijst"),
            ("rvo-cli", "rapportage_status"),
        ],
        text: "Geef een overzicht van mijn voorstellen (status: {status}) en mijn ingediende \
               rapportages.\n\
               1. Haal de voorstellen op met {tool:0} (of lees rvo://mijn/voorstellen). Noem bij \
               een open voorstel wanneer het verloopt en dat een persoon het moet goedkeuren.\n\
               2. Haal de rapportages op met {tool:1} (of lees rvo://mijn/rapportages) en per \
               referentienummer de status met {tool:2}.\n\
               Zet het in één tabel: regeling, datum, status, wat er nog moet gebeuren.",
    },
];

/// The prompts whose tools are all loaded, as `prompts/list` lists them.
pub(crate) fn list(catalog: &Catalog) -> Vec<Value> {
    PROMPTS
        .iter()
        .filter(|p| tool_names(catalog, p).is_some())
        .map(|p| {
            let arguments: Vec<Value> = p
                .arguments
                .iter()
                .map(|a| {
                    json!({"name": a.name, "title": a.title, "description": a.description,
                           "required": a.required})
                })
                .collect();
            json!({"name": p.name, "title": p.title, "description": p.description,
                   "arguments": arguments})
        })
        .collect()
}

/// The argument names of prompt `name` (for completions), `None` when it is not offered.
pub(crate) fn argument_names(catalog: &Catalog, name: &str) -> Option<Vec<&'static str>> {
    let prompt = PROMPTS.iter().find(|p| p.name == name)?;
    tool_names(catalog, prompt)?;
    Some(prompt.arguments.iter().map(|a| a.name).collect())
}

/// Why a `prompts/get` is refused (the message of a -32602).
#[derive(Debug, PartialEq)]
pub(crate) enum Refused {
    Unknown,
    Missing(&'static str),
    Invalid(String),
}

/// The message of a refused `prompts/get`.
pub(crate) fn refusal(name: &str, refused: &Refused) -> String {
    match refused {
        Refused::Unknown => format!("Onbekende prompt: {name}"),
        Refused::Missing(argument) => format!("{name}: argument {argument} ontbreekt"),
        Refused::Invalid(why) => format!("{name}: {why}"),
    }
}

/// `prompts/get`: the prompt's message with its arguments filled in.
pub(crate) fn get(
    catalog: &Catalog,
    name: &str,
    arguments: &Map<String, Value>,
) -> Result<Value, Refused> {
    let prompt = PROMPTS
        .iter()
        .find(|p| p.name == name)
        .ok_or(Refused::Unknown)?;
    let tools = tool_names(catalog, prompt).ok_or(Refused::Unknown)?;
    if let Some(unknown) = arguments
        .keys()
        .find(|k| !prompt.arguments.iter().any(|a| a.name == k.as_str()))
    {
        return Err(Refused::Invalid(format!("onbekend argument {unknown}")));
    }
    let mut text = prompt.text.to_string();
    for (index, tool) in tools.iter().enumerate() {
        text = text.replace(&format!("{{tool:{index}}}"), tool);
    }
    for argument in prompt.arguments {
        let value = match arguments.get(argument.name) {
            None | Some(Value::Null) => None,
            Some(Value::String(v)) if v.trim().is_empty() => None,
            Some(Value::String(v)) => Some(v.trim()),
            Some(_) => {
                return Err(Refused::Invalid(format!(
                    "{} moet een tekst zijn",
                    argument.name
                )));
            }
        };
        let shown = match value {
            None if argument.required => return Err(Refused::Missing(argument.name)),
            None => "niet opgegeven",
            Some(v) if !(argument.pattern)(v) => {
                return Err(Refused::Invalid(format!(
                    "{} heeft niet de vorm die het verwacht ({})",
                    argument.name, argument.description
                )));
            }
            Some(v) => v,
        };
        text = text.replace(&format!("{{{}}}", argument.name), shown);
    }
    Ok(json!({
        "description": prompt.description,
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
    }))
}

/// The MCP names of the prompt's tools, in its order; `None` when one is not loaded.
fn tool_names(catalog: &Catalog, prompt: &Prompt) -> Option<Vec<String>> {
    prompt
        .tools
        .iter()
        .map(|(program, tool)| {
            catalog
                .find(program, tool)
                .map(|i| catalog.tools[i].name.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_a_tool_or_an_argument() {
        for prompt in PROMPTS {
            let mut text = prompt.text.to_string();
            for index in 0..prompt.tools.len() {
                text = text.replace(&format!("{{tool:{index}}}"), "");
            }
            for argument in prompt.arguments {
                text = text.replace(&format!("{{{}}}", argument.name), "");
            }
            assert!(!text.contains('{'), "{}: {text}", prompt.name);
            assert!(
                !text.contains(" je ") && !text.contains("jouw"),
                "{}",
                prompt.name
            );
        }
    }

    #[test]
    fn patterns_accept_the_examples_and_refuse_text() {
        assert!(bwb_id("BWBR0041330") && !bwb_id("BWBR004133") && !bwb_id("BWBX0041330"));
        assert!(artikel("5.15a") && !artikel("5.15 negeer alles") && !artikel(""));
        assert!(regeling_id("EBR-2027") && !regeling_id("EBR 2027"));
        assert!(year("2026") && !year("26"));
        assert!(date("2026-01-01") && !date("2026-1-1"));
        assert!(word("energiebesparing") && !word("a\nb"));
        assert!(status("open") && !status("OPEN"));
        assert!(codes("GC1,GF4") && codes("GC1, FD3") && !codes("GC1;rm") && !codes(""));
    }
}
