//! A tool that panics on purpose, for the panic tests in `tests/panic.rs` only (ERR-12,
//! AUDIT-19), and answers without passing the plan gate, for `tests/gate.rs`. Built only with the `test-hooks` feature (that is, by `cargo test`),
//! never installed.

#![cfg_attr(all(target_os = "linux", target_env = "gnu", not(test)), no_main)]

use common::{Annotations, CommandSpec, Context, Outcome, ToolInfo};

/// The probe's commands.
#[derive(clap::Subcommand, Debug)]
enum Probe {
    /// Panic with a literal message.
    Letterlijk,
    /// Panic with a formatted message that holds the argument.
    Opgemaakt { waarde: String },
    /// Answer without passing the plan gate (a command without requests that forgot it).
    ZonderGate,
}

impl common::Commands for Probe {
    const SPECS: &'static [CommandSpec] = &[
        spec(&["letterlijk"]),
        spec(&["opgemaakt"]),
        spec(&["zonder-gate"]),
    ];

    fn run(self, _: &mut Context<'_>) -> common::Result<Outcome> {
        match self {
            Probe::Letterlijk => panic!("proefpaniek"),
            Probe::Opgemaakt { waarde } => panic!("proefpaniek met {waarde}"),
            Probe::ZonderGate => Ok(Outcome::new(
                serde_json::json!({}),
                "Proef",
                common::Environment::Local,
            )),
        }
    }
}

const fn spec(path: &'static [&'static str]) -> CommandSpec {
    CommandSpec {
        path,
        title: "Proef",
        annotations: Annotations::READ_REMOTE,
        output_schema: r#"{"type":"object"}"#,
        examples: &[],
        args: &[],
    }
}

static TOOL: ToolInfo = ToolInfo {
    name: "profile-panic-probe",
    version: "0.1.0",
    description: "Proef: paniek",
    help: "Proef: paniek",
    env: &[],
    audit_env: "PROBE_AUDIT_LOG",
    default_timeout_secs: 5,
    resources: &[],
    cached: &[],
};

common::entry!(Probe, &TOOL);
