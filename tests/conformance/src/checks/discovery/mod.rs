//! Discovery checks (DISC-*, RES-*, CONF-3/4/8, CONV-1/2): the catalogue; the checks live in
//! `document` (the document as a whole), `entries` (tool entries and their schemas) and `surface`
//! (global options, environment, help, resources, completions).

mod document;
mod entries;
mod surface;

use super::{Check, Level};

pub(super) fn checks() -> Vec<Check> {
    CHECKS.into()
}

/// The discovery checks, in the catalogue's order (the report's and `--list-rules`'): a table,
/// not a flow.
const CHECKS: [Check; 18] = [
    Check {
        id: "discovery-document",
        rules: &["DISC-1"],
        level: Level::Must,
        title: "--help --json: één JSON-document, exit 0, geldig volgens discovery.schema.json",
        run: document::document,
    },
    Check {
        id: "discovery-offline",
        rules: &["DISC-2", "CONF-9"],
        level: Level::Must,
        title: "discovery werkt met een lege omgeving, zonder verkeer en zonder auditregel",
        run: document::offline,
    },
    Check {
        id: "discovery-stable",
        rules: &["DISC-7"],
        level: Level::Must,
        title: "discovery is bij elke aanroep gelijk",
        run: document::stable,
    },
    Check {
        id: "discovery-identity",
        rules: &["DISC-4", "CONV-1"],
        level: Level::Must,
        title: "name en version gelijk aan --version (\"<name> <version>\")",
        run: document::identity,
    },
    Check {
        id: "exit-code-table",
        rules: &["DISC-5"],
        level: Level::Must,
        title: "exit_codes is precies de tabel van het profiel",
        run: document::exit_code_table,
    },
    Check {
        id: "tool-names",
        rules: &["DISC-6", "DISC-13"],
        level: Level::Must,
        title: "toolnamen uniek, geldig en gelijk aan _meta.argv met _",
        run: entries::tool_names,
    },
    Check {
        id: "tool-annotations",
        rules: &["DISC-11"],
        level: Level::Must,
        title: "alle vier annotaties expliciet; readOnlyHint sluit destructiveHint uit",
        run: entries::annotations,
    },
    Check {
        id: "input-schema",
        rules: &["DISC-8", "DISC-9"],
        level: Level::Must,
        title: "inputSchema is JSON Schema 2020-12, object, snake_case, vlag = --<eigenschap>",
        run: entries::input_schema,
    },
    Check {
        id: "input-closed",
        rules: &["DISC-9"],
        level: Level::Should,
        title: "inputSchema zet additionalProperties: false",
        run: entries::input_closed,
    },
    Check {
        id: "input-mapping",
        rules: &["DISC-14"],
        level: Level::Must,
        title: "elke eigenschap precies één keer in _meta.positional of _meta.flags",
        run: entries::input_mapping,
    },
    Check {
        id: "output-schema",
        rules: &["DISC-10"],
        level: Level::Must,
        title: "outputSchema is JSON Schema 2020-12 met object als wortel",
        run: entries::output_schema,
    },
    Check {
        id: "command-discovery",
        rules: &["DISC-17"],
        level: Level::Must,
        title: "<opdracht> --help --json geeft hetzelfde tool-object, geldig volgens tool.schema.json",
        run: entries::command_discovery,
    },
    Check {
        id: "global-options",
        rules: &["DISC-18"],
        level: Level::Must,
        title: "global_options noemt de negen profielopties",
        run: surface::global_options,
    },
    Check {
        id: "env-declaration",
        rules: &["DISC-19", "CONF-3", "CONF-4", "CONF-8"],
        level: Level::Must,
        title: "env: soorten, geheimen zonder standaardwaarde, de profielvariabelen",
        run: surface::env_declaration,
    },
    Check {
        id: "plain-help",
        rules: &["DISC-20"],
        level: Level::Must,
        title: "--help zonder --json geeft tekst voor mensen, exit 0",
        run: surface::plain_help,
    },
    Check {
        id: "examples-declared",
        rules: &["DISC-16"],
        level: Level::Must,
        title: "elk tool-object heeft voorbeelden die met _meta.argv beginnen en te lezen zijn",
        run: entries::examples_declared,
    },
    Check {
        id: "resources",
        rules: &["RES-1", "RES-2", "RES-3", "RES-4"],
        level: Level::Must,
        title: "resources verwijzen naar een alleen-lezen tool met passende variabelen",
        run: surface::resources,
    },
    Check {
        id: "completions",
        rules: &["CONV-2"],
        level: Level::Must,
        title: "completions bash geeft een script, exit 0, geen auditregel",
        run: surface::completions,
    },
];
