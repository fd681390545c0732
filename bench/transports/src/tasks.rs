//! The scripted tasks: what an agent asks, the calls it makes, and the right answers.
//!
//! A task is a list of questions. Each question is answered from one call (a command of one
//! CLI, or the same command as an MCP tool), with the `--fields` an agent would ask for that
//! question and the jq expression that extracts the answer from the full data. Questions that
//! share a call are follow-ups: a variant with the full answer in context (or in a file) does
//! not call again; a variant that trims with `--fields` does. The answers are constants of
//! the fakes' data, so every variant is judged against the same truth.

/// One call: a CLI command and the same command as an MCP tool.
pub(crate) struct Call {
    /// Program name (`kvk-cli`).
    pub program: &'static str,
    /// The argv after the program name.
    pub argv: &'static [&'static str],
    /// The MCP tool name (`kvk__basisprofiel_toon`).
    pub tool: &'static str,
    /// The MCP arguments, as JSON text.
    pub arguments: &'static str,
    /// Applies the proposal the call before recorded, once a person approved it at a terminal
    /// (not timed): the CLI gets the id after `argv`, the tool gets it as `voorstel_id`.
    pub applies: bool,
}

/// One question of a task.
pub(crate) struct Question {
    /// Index into [`Task::calls`].
    pub call: usize,
    /// `--fields` for this question (none: the variant with fields sends the full call).
    pub fields: Option<&'static str>,
    /// jq on the full data that gives the answer as a JSON array.
    pub jq: &'static str,
    /// jq that gives the same answer from the `--fields` projection, when `jq` does not.
    pub jq_fields: Option<&'static str>,
    /// The right answer (JSON text).
    pub expected: &'static str,
}

pub(crate) struct Task {
    pub id: &'static str,
    pub prompt: &'static str,
    pub calls: &'static [Call],
    pub questions: &'static [Question],
}

const DONALD: Call = Call {
    program: "kvk-cli",
    argv: &["basisprofiel", "toon", "68750110"],
    tool: "kvk__basisprofiel_toon",
    arguments: r#"{"kvk_nummer": "68750110"}"#,
    applies: false,
};

const fn profile(argv: &'static [&'static str], arguments: &'static str) -> Call {
    Call {
        program: "kvk-cli",
        argv,
        tool: "kvk__basisprofiel_toon",
        arguments,
        applies: false,
    }
}

const fn employees(call: usize, expected: &'static str) -> Question {
    Question {
        call,
        fields: Some("naam,totaalWerkzamePersonen"),
        jq: "[.naam, .totaalWerkzamePersonen]",
        jq_fields: None,
        expected,
    }
}

const PROPOSAL: &[&str] = &[
    "rapportage",
    "voorstel",
    "68750110",
    "EBR-2027",
    "LED-verlichting",
    "--peildatum",
    "2026-12-01",
];
const PROPOSAL_ARGUMENTS: &str = r#"{"kvk_nummer": "68750110", "regeling_id": "EBR-2027", "maatregelen": "LED-verlichting", "peildatum": "2026-12-01"}"#;

pub(crate) const TASKS: &[Task] = &[
    Task {
        id: "bedrijf",
        prompt: "Naam en hoofdactiviteit van 68750110; dan: hoeveel werkzame personen, en in welke plaats zit de hoofdvestiging?",
        calls: &[DONALD],
        questions: &[
            Question {
                call: 0,
                fields: Some("naam,sbiActiviteiten"),
                jq: r#"[.naam, (.sbiActiviteiten[] | select(.indHoofdactiviteit == "Ja") | .sbiOmschrijving)]"#,
                jq_fields: None,
                expected: r#"["Test BV Donald", "Teelt van appels en peren"]"#,
            },
            Question {
                call: 0,
                fields: Some("totaalWerkzamePersonen"),
                jq: "[.totaalWerkzamePersonen]",
                jq_fields: None,
                expected: "[1]",
            },
            Question {
                call: 0,
                fields: Some("_embedded.hoofdvestiging.adressen[0].plaats"),
                jq: "[._embedded.hoofdvestiging.adressen[0].plaats]",
                jq_fields: None,
                expected: r#"["Rommeldam"]"#,
            },
        ],
    },
    Task {
        id: "energieplicht",
        prompt: "Geldt de energiebesparingsplicht (60 000 kWh, 30 000 m3), en welk artikel zegt dat?",
        calls: &[Call {
            program: "regelrecht-cli",
            argv: &[
                "check",
                "energiebesparing",
                "68750110",
                "--elektriciteit-kwh",
                "60000",
                "--gas-m3",
                "30000",
                "--peildatum",
                "2026-12-01",
            ],
            tool: "regelrecht__check_energiebesparing",
            arguments: r#"{"kvk_nummer": "68750110", "elektriciteit_kwh": 60000, "gas_m3": 30000, "peildatum": "2026-12-01"}"#,
            applies: false,
        }],
        questions: &[Question {
            call: 0,
            fields: Some("heeft_energiebesparingsplicht,wettelijke_grondslag"),
            jq: r#"[.heeft_energiebesparingsplicht, (.wettelijke_grondslag[] | select(.uitvoer == "heeft_energiebesparingsplicht") | .artikel)]"#,
            jq_fields: None,
            expected: r#"[true, "5.15"]"#,
        }],
    },
    Task {
        id: "artikel",
        prompt: "Laat artikel 5.15a van het Bal zien.",
        calls: &[Call {
            program: "koop-cli",
            argv: &[
                "regeling",
                "artikel",
                "BWBR0041330",
                "5.15a",
                "--peildatum",
                "2026-12-01",
            ],
            tool: "koop__regeling_artikel",
            arguments: r#"{"bwb_id": "BWBR0041330", "artikel": "5.15a", "peildatum": "2026-12-01"}"#,
            applies: false,
        }],
        questions: &[Question {
            call: 0,
            fields: Some("artikel.tekst"),
            jq: "[.artikel.tekst[0:31]]",
            jq_fields: None,
            expected: r#"["1. Als artikel 5.15, eerste lid"]"#,
        }],
    },
    Task {
        id: "rapportage",
        prompt: "Dien de rapportage in: een voorstel, dat een persoon goedkeurt, dan indienen.",
        calls: &[
            Call {
                program: "rvo-cli",
                argv: PROPOSAL,
                tool: "rvo__rapportage_voorstel",
                arguments: PROPOSAL_ARGUMENTS,
                applies: false,
            },
            Call {
                program: "rvo-cli",
                argv: &["rapportage", "indienen", "--voorstel"],
                tool: "rvo__rapportage_indienen",
                arguments: "{}",
                applies: true,
            },
        ],
        questions: &[
            Question {
                call: 0,
                fields: None,
                jq: "[.plan.effect]",
                jq_fields: None,
                expected: r#"["Dient een rapportage in voor EBR-2027 namens 68750110 (lokaal, er gaat niets naar RVO)."]"#,
            },
            Question {
                call: 1,
                fields: Some("status,referentienummer"),
                jq: r#"[.status, (.referentienummer | startswith("RVO-EBR-2027-"))]"#,
                jq_fields: None,
                expected: r#"["ONTVANGEN", true]"#,
            },
        ],
    },
    Task {
        id: "open-regelingen",
        prompt: "Welke regelingen zijn nu open?",
        calls: &[Call {
            program: "rvo-cli",
            argv: &["regeling", "lijst", "--peildatum", "2026-12-01"],
            tool: "rvo__regeling_lijst",
            arguments: r#"{"peildatum": "2026-12-01"}"#,
            applies: false,
        }],
        questions: &[Question {
            call: 0,
            fields: Some("$.regelingen[?(@.status=='open')].id"),
            jq: r#"[.regelingen[] | select(.status == "open") | .id]"#,
            jq_fields: Some("[.regelingen[].id]"),
            expected: r#"["EBR-2027", "ONDERZOEKSPLICHT-2027", "EIA-2026", "MIA-VAMIL-2026", "ISDE-2026"]"#,
        }],
    },
    Task {
        id: "drie-bedrijven",
        prompt: "Vergelijk het aantal werkzame personen van 68750110, 69599084 en 69599068.",
        calls: &[
            DONALD,
            profile(
                &["basisprofiel", "toon", "69599084"],
                r#"{"kvk_nummer": "69599084"}"#,
            ),
            profile(
                &["basisprofiel", "toon", "69599068"],
                r#"{"kvk_nummer": "69599068"}"#,
            ),
        ],
        questions: &[
            employees(0, r#"["Test BV Donald", 1]"#),
            employees(1, r#"["Test EMZ Dagobert", 3]"#),
            employees(2, r#"["Test Stichting Bolderbast", 0]"#),
        ],
    },
    Task {
        id: "vestigingen",
        prompt: "Hoeveel vestigingen heeft 68750110?",
        calls: &[Call {
            program: "kvk-cli",
            argv: &["basisprofiel", "vestigingen", "68750110"],
            tool: "kvk__basisprofiel_vestigingen",
            arguments: r#"{"kvk_nummer": "68750110"}"#,
            applies: false,
        }],
        questions: &[Question {
            call: 0,
            fields: Some("totaalAantalVestigingen"),
            jq: "[.totaalAantalVestigingen]",
            jq_fields: None,
            expected: "[2]",
        }],
    },
    Task {
        id: "wet-zoeken",
        prompt: "Zoek de regeling over activiteiten in de leefomgeving en noem haar BWB-id en geldigheid.",
        calls: &[
            Call {
                program: "koop-cli",
                argv: &[
                    "regeling",
                    "zoek",
                    "activiteiten leefomgeving",
                    "--peildatum",
                    "2026-12-01",
                ],
                tool: "koop__regeling_zoek",
                arguments: r#"{"trefwoord": "activiteiten leefomgeving", "peildatum": "2026-12-01"}"#,
                applies: false,
            },
            Call {
                program: "koop-cli",
                argv: &["regeling", "versies", "BWBR0041330"],
                tool: "koop__regeling_versies",
                arguments: r#"{"bwb_id": "BWBR0041330"}"#,
                applies: false,
            },
        ],
        questions: &[
            Question {
                call: 0,
                fields: Some("resultaten[0].bwb_id"),
                jq: "[.resultaten[0].bwb_id]",
                jq_fields: None,
                expected: r#"["BWBR0041330"]"#,
            },
            Question {
                call: 1,
                fields: Some("versies"),
                jq: "[.versies[-1].geldig_vanaf, .versies[-1].geldig_tot]",
                jq_fields: None,
                expected: r#"["2026-01-01", null]"#,
            },
        ],
    },
];

/// The answers that make the energy concept of 68750110 complete.
const CONCEPT_ARGV: &[&str] = &[
    "concept",
    "informatieplicht-energiebesparing",
    "68750110",
    "--peildatum",
    "2026-12-01",
    "--opgave",
    "elektriciteitsverbruik_kwh=250.000",
    "--opgave",
    "aardgasverbruik_m3=31.000",
    "--opgave",
    "betreft_gebruiksfunctie_bbl=nee",
    "--opgave",
    "alleen_hernieuwbare_energie_op_locatie=nee",
    "--opgave",
    "is_activiteit_artikel_3_3a_lid_1_onder_a=nee",
    "--opgave",
    "is_activiteit_artikel_3_3a_lid_1_onder_b=nee",
    "--opgave",
    "heeft_koelinstallatie=nee",
    "--opgave",
    "heeft_afzuiginstallatie=ja",
];
const CONCEPT_ARGUMENTS: &str = r#"{"regeling": "informatieplicht-energiebesparing", "kvk_nummer": "68750110", "peildatum": "2026-12-01", "opgave": ["elektriciteitsverbruik_kwh=250.000", "aardgasverbruik_m3=31.000", "betreft_gebruiksfunctie_bbl=nee", "alleen_hernieuwbare_energie_op_locatie=nee", "is_activiteit_artikel_3_3a_lid_1_onder_a=nee", "is_activiteit_artikel_3_3a_lid_1_onder_b=nee", "heeft_koelinstallatie=nee", "heeft_afzuiginstallatie=ja"]}"#;

/// The five tasks of issue 40's agent walk-through, each with the `fields` an agent asks for,
/// the same over the CLI and over MCP (`bench-transports --tasks walkthrough`).
pub(crate) const WALKTHROUGH: &[Task] = &[
    Task {
        id: "profiel",
        prompt: "Bedrijfsprofiel van 68750110: naam, werkzame personen, rechtsvorm en plaatsen.",
        calls: &[DONALD],
        questions: &[Question {
            call: 0,
            fields: Some(
                "naam,totaalWerkzamePersonen,_embedded.eigenaar.rechtsvorm,_embedded.hoofdvestiging.adressen[].plaats",
            ),
            jq: "[.naam, .totaalWerkzamePersonen, ._embedded.eigenaar.rechtsvorm, [._embedded.hoofdvestiging.adressen[].plaats]]",
            jq_fields: None,
            expected: r#"["Test BV Donald", 1, "Besloten vennootschap", ["Rommeldam", "Lollum"]]"#,
        }],
    },
    Task {
        id: "energieplicht",
        prompt: "Geldt de energiebesparingsplicht (60 000 kWh, 30 000 m3), en welk artikel zegt dat?",
        calls: &[Call {
            program: "regelrecht-cli",
            argv: &[
                "check",
                "energiebesparing",
                "68750110",
                "--elektriciteit-kwh",
                "60000",
                "--gas-m3",
                "30000",
                "--peildatum",
                "2026-12-01",
            ],
            tool: "regelrecht__check_energiebesparing",
            arguments: r#"{"kvk_nummer": "68750110", "elektriciteit_kwh": 60000, "gas_m3": 30000, "peildatum": "2026-12-01"}"#,
            applies: false,
        }],
        questions: &[Question {
            call: 0,
            fields: Some("heeft_energiebesparingsplicht,wettelijke_grondslag"),
            jq: r#"[.heeft_energiebesparingsplicht, (.wettelijke_grondslag[] | select(.uitvoer == "heeft_energiebesparingsplicht") | .artikel)]"#,
            jq_fields: None,
            expected: r#"[true, "5.15"]"#,
        }],
    },
    Task {
        id: "artikeltekst",
        prompt: "De tekst van artikel 5.15 van het Bal.",
        calls: &[Call {
            program: "koop-cli",
            argv: &[
                "regeling",
                "artikel",
                "BWBR0041330",
                "5.15",
                "--peildatum",
                "2026-12-01",
            ],
            tool: "koop__regeling_artikel",
            arguments: r#"{"bwb_id": "BWBR0041330", "artikel": "5.15", "peildatum": "2026-12-01"}"#,
            applies: false,
        }],
        questions: &[Question {
            call: 0,
            fields: Some("artikel.tekst"),
            jq: "[.artikel.tekst[0:40]]",
            jq_fields: None,
            expected: r#"["1. Alle maatregelen ter verduurzaming va"]"#,
        }],
    },
    Task {
        id: "aanvraag",
        prompt: "Bereid de rapportage voor: een volledig concept, dan een voorstel dat een persoon goedkeurt.",
        calls: &[
            Call {
                program: "regelrecht-cli",
                argv: CONCEPT_ARGV,
                tool: "regelrecht__concept",
                arguments: CONCEPT_ARGUMENTS,
                applies: false,
            },
            Call {
                program: "rvo-cli",
                argv: PROPOSAL,
                tool: "rvo__rapportage_voorstel",
                arguments: PROPOSAL_ARGUMENTS,
                applies: false,
            },
        ],
        questions: &[
            Question {
                call: 0,
                fields: Some("status,niet_opgehaald"),
                jq: "[.status, (.niet_opgehaald | length)]",
                jq_fields: None,
                expected: r#"["compleet", 0]"#,
            },
            Question {
                call: 1,
                fields: Some("id,status"),
                jq: "[.status, (.id | startswith(\"vs_\"))]",
                jq_fields: None,
                expected: r#"["open", true]"#,
            },
        ],
    },
    Task {
        id: "regelingen",
        prompt: "Welke regelingen kunnen op 68750110 van toepassing zijn?",
        calls: &[Call {
            program: "regelrecht-cli",
            argv: &["regelingen", "68750110"],
            tool: "regelrecht__regelingen",
            arguments: r#"{"kvk_nummer": "68750110"}"#,
            applies: false,
        }],
        questions: &[Question {
            call: 0,
            fields: Some("regelingen[].id,regelingen[].uitkomst"),
            jq: r#"[.regelingen[] | select(.uitkomst == "mogelijk van toepassing") | .id]"#,
            jq_fields: None,
            expected: r#"["informatieplicht-energiebesparing"]"#,
        }],
    },
];

/// The task list called `name`: `standaard` (the eight tasks of issue 17) or `walkthrough`
/// (issue 40's five).
pub(crate) fn set(name: &str) -> Option<&'static [Task]> {
    match name {
        "standaard" => Some(TASKS),
        "walkthrough" => Some(WALKTHROUGH),
        _ => None,
    }
}
