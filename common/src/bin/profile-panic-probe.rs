//! A tool that panics on purpose, for the panic tests in `tests/panic.rs` only (ERR-12,
//! AUDIT-19). Built only with the `test-hooks` feature (that is, by `cargo test`), never
//! installed.

use common::{Annotations, CommandSpec, Context, Outcome, ToolInfo};

common::commands! {
    /// The probe's commands.
    enum Probe {
        /// Panic with a literal message.
        Letterlijk(letterlijk::Args) => letterlijk,
        /// Panic with a formatted message that holds the argument.
        Opgemaakt(opgemaakt::Args) => opgemaakt,
    }
}

/// `letterlijk`: panics with a literal message.
mod letterlijk {
    use super::*;

    #[derive(clap::Args, Debug)]
    pub(crate) struct Args;

    pub(crate) const SPECS: &[CommandSpec] = &[spec(&["letterlijk"], &[&["letterlijk"]])];

    pub(crate) fn run(_: &Args, _: &mut Context<'_>) -> common::Result<Outcome> {
        panic!("proefpaniek")
    }
}

/// `opgemaakt WAARDE`: panics with a formatted message that holds the argument.
mod opgemaakt {
    use super::*;

    #[derive(clap::Args, Debug)]
    pub(crate) struct Args {
        waarde: String,
    }

    pub(crate) const SPECS: &[CommandSpec] = &[spec(&["opgemaakt"], &[&["opgemaakt", "x"]])];

    pub(crate) fn run(args: &Args, _: &mut Context<'_>) -> common::Result<Outcome> {
        panic!("proefpaniek met {}", args.waarde)
    }
}

/// `zonder-gate`: answers without passing the plan gate.
const fn spec(
    path: &'static [&'static str],
    examples: &'static [&'static [&'static str]],
) -> CommandSpec {
    CommandSpec {
        path,
        title: "Proef",
        annotations: Annotations::READ_REMOTE,
        output_schema: r#"{"type":"object"}"#,
        examples,
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
    children: &[],
};

common::entry!(Probe, &TOOL);
