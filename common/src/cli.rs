//! Every tool's parser: the profile's global options, the tool's commands, and
//! the built clap command with the utility commands and Dutch help (DISC-20).

use crate::error::Problem;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::context::Context;
use crate::error::Result;
use crate::output::OutputFormat;
use crate::provenance::Outcome;
use crate::tool::{CommandSpec, ToolInfo};

/// A tool's commands: a clap subcommand enum that runs the chosen command
/// and knows the side-table entries of its leaves. [`crate::commands!`]
/// writes both from one list.
pub trait Commands: Subcommand + std::fmt::Debug {
    /// The entry of every leaf command, in discovery order.
    const SPECS: &'static [CommandSpec];

    /// Run the selected command.
    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome>;

    /// The entry of the command at `path`.
    fn spec(path: &[String]) -> Option<&'static CommandSpec> {
        crate::tool::find_spec(Self::SPECS, path)
    }
}

/// Declares a clap subcommand enum whose every variant is served by a module:
/// `Variant(ArgType) => module`, where `module::run(&ArgType, ctx)` runs it
/// and `module::SPECS` are its leaves' entries. Generates the enum, a `run`
/// that dispatches, a `SPECS` that joins the modules' entries in order, and
/// the [`Commands`] implementation; so a command is listed once. A command
/// group uses it for its own subcommands and is then a module like any other.
#[macro_export]
macro_rules! commands {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident($ty:ty) => $module:ident ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(clap::Subcommand, Debug)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant($ty), )+
        }

        /// The entries of these commands' leaves, in declaration order.
        $vis const SPECS: &[$crate::CommandSpec] =
            &$crate::tool::concat::<{ 0 $(+ $module::SPECS.len())+ }>(&[$($module::SPECS),+]);

        /// Run the chosen command.
        $vis fn run(
            command: &$name,
            ctx: &mut $crate::Context<'_>,
        ) -> $crate::Result<$crate::Outcome> {
            match command {
                $( $name::$variant(args) => $module::run(args, ctx), )+
            }
        }

        impl $crate::Commands for $name {
            const SPECS: &'static [$crate::CommandSpec] = SPECS;

            fn run(self, ctx: &mut $crate::Context<'_>) -> $crate::Result<$crate::Outcome> {
                run(&self, ctx)
            }
        }
    };
}

/// The parser of every tool: the global options and the tool's commands.
#[derive(Parser, Debug)]
pub struct Cli<C: Commands> {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: C,
}

/// Options every command of every tool accepts (rules OUT-*, FIELDS-*, PROV-*, DRY-*, MUT-*).
#[derive(Args, Clone, Debug, Default)]
pub struct GlobalArgs {
    /// Uitvoerformaat: json (compact), pretty of table; standaard json buiten een terminal
    #[arg(
        long,
        short = 'o',
        global = true,
        value_enum,
        value_name = "FORMAAT",
        hide_possible_values = true
    )]
    pub output: Option<OutputFormat>,

    /// Alleen deze velden: kommalijst van paden (naam,adres.plaats,lijst[].x) of één JSONPath ($...)
    #[arg(long, global = true, value_name = "VELDEN")]
    pub fields: Option<String>,

    /// jq-expressie op het resultaat (na --fields): tekst los, de rest als compacte JSON, één per regel
    #[arg(long, global = true, value_name = "EXPRESSIE")]
    pub jq: Option<String>,

    /// Omhul het resultaat met herkomstgegevens: {"data": …, "provenance": …}; =compact: alleen bron, URL, tijdstip en digest
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "VORM",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "full"
    )]
    pub provenance: Option<crate::provenance::ProvenanceForm>,

    /// Toon het plan (verzoeken, geheimen als ***) zonder iets te versturen of te wijzigen
    #[arg(long, global = true)]
    pub dry_run: bool,

    /// Voer een mutatie uit; met =DIGEST alleen als het plan die digest heeft
    #[arg(
        long,
        global = true,
        value_name = "DIGEST",
        num_args = 0..=1,
        require_equals = true
    )]
    pub confirm: Option<Option<String>>,

    /// Pad van het auditlog (JSON Lines); gaat voor de omgevingsvariabelen
    #[arg(long, global = true, value_name = "PAD")]
    pub audit_log: Option<PathBuf>,

    /// Tijdslimiet in seconden voor het hele commando
    #[arg(
        long,
        global = true,
        value_name = "SECONDEN",
        allow_negative_numbers = true
    )]
    pub timeout: Option<f64>,

    /// Geen kleur in de uitvoer (ook via NO_COLOR)
    #[arg(long, global = true)]
    pub no_color: bool,

    /// Geen waarschuwingen op stderr
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,

    /// Lees en schrijf de cache niet: haal alles opnieuw bij de bron, lees elk bestand opnieuw
    #[arg(long, global = true)]
    pub geen_cache: bool,
}

impl GlobalArgs {
    /// `--timeout` as a duration, else `default`. A value outside (0, 86400]
    /// gives `default` and the usage error, which the lifecycle raises only
    /// once the audit log is open, so the refusal is audited (AUDIT-1).
    pub fn time_limit(&self, default: Duration) -> (Duration, Option<Problem>) {
        match self.timeout {
            Some(t) if !(t > 0.0 && t.is_finite() && t <= 86_400.0) => (
                default,
                Some(Problem::usage(format!(
                    "--timeout moet tussen 0 en 86400 seconden liggen, niet {t}"
                ))),
            ),
            Some(t) => (Duration::from_secs_f64(t), None),
            None => (default, None),
        }
    }

    /// `--confirm` without a digest (`Some(None)`), with one, or absent.
    /// `--confirm=` (an empty digest, e.g. from an unset variable) is a digest
    /// that matches no plan, never a bare `--confirm`.
    pub fn confirmation(&self) -> Option<Option<&str>> {
        self.confirm.as_ref().map(Option::as_deref)
    }
}

/// The tool's clap command with the profile's utility commands, built, and
/// dressed for people: each leaf's examples (the same list discovery
/// publishes as `_meta.examples`), the exit-code table under the root help,
/// `--confirm` hidden where no command behind it mutates, `--geen-cache` where
/// none caches, positionals listed
/// in usage order (rule DISC-20).
pub fn command<C: Commands>(info: &ToolInfo) -> clap::Command {
    let cmd = parser::<C>(info, None).after_help(crate::help::exit_code_table(info.name));
    let mut cmd = in_dutch(cmd);
    cmd.build();
    crate::help::dress(&mut cmd, C::SPECS, info.cached);
    cmd
}

/// The same tree as [`command`] reads argv, neither built nor dressed: dressing
/// changes only what help shows, so a call that parses needs none of it, and
/// clap builds only the commands on the parsed path. Every invocation is a new
/// process, so building and dressing the whole tree was most of the start-up of
/// a call (`--version` of regelrecht-cli: 2.5 M instructions, 1.5 M of them clap).
pub fn parser<C: Commands>(info: &ToolInfo, words: Option<&[OsString]>) -> clap::Command {
    let cmd = Cli::<C>::command()
        .name(info.name)
        .version(info.version)
        .about(info.description)
        .long_about(info.help)
        .arg_required_else_help(true)
        .disable_help_subcommand(true)
        .disable_help_flag(true)
        .disable_version_flag(true)
        .arg(
            clap::Arg::new("help")
                .short('h')
                .long("help")
                .global(true)
                .action(clap::ArgAction::Help)
                .help("Toon deze hulp (met --json: de machineleesbare beschrijving)"),
        )
        .arg(
            clap::Arg::new("version")
                .short('V')
                .long("version")
                .action(clap::ArgAction::Version)
                .help("Toon de versie"),
        )
        .subcommands(crate::help::utility_commands())
        .subcommands(crate::help::cache_command(info));
    hyphen_values(cmd, words)
}

/// A command's option value may start with `-` (`--naam -Donald`). With `words`, only the
/// commands named among them are changed: clap parses no other, and rewriting every
/// command's arguments was the largest allocation of a call.
fn hyphen_values(cmd: clap::Command, words: Option<&[OsString]>) -> clap::Command {
    let cmd = cmd.mut_args(|arg| {
        let value_option =
            !arg.is_positional() && !arg.is_global_set() && arg.get_action().takes_values();
        if value_option {
            arg.allow_hyphen_values(true)
        } else {
            arg
        }
    });
    let named: Vec<String> = cmd
        .get_subcommands()
        .filter(|sub| {
            words.is_none_or(|words| {
                words.iter().any(|word| {
                    word.to_str().is_some_and(|word| {
                        sub.get_name() == word || sub.get_all_aliases().any(|a| a == word)
                    })
                })
            })
        })
        .map(|sub| sub.get_name().to_string())
        .collect();
    named.into_iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, |sub| hyphen_values(sub, words))
    })
}

/// Plain `--help` in Dutch: headings and template (rule DISC-20).
pub(crate) fn in_dutch(cmd: clap::Command) -> clap::Command {
    cmd.help_template(
        "{before-help}{about-with-newline}\nGebruik: {usage}\n\n{all-args}{after-help}",
    )
    .subcommand_help_heading("Opdrachten")
    .subcommand_value_name("OPDRACHT")
    .mut_args(|arg| {
        let heading = if arg.is_positional() {
            "Argumenten"
        } else if arg.is_global_set() {
            "Profielopties"
        } else {
            "Opties"
        };
        arg.help_heading(heading)
    })
    .mut_subcommands(in_dutch)
}

/// The names of the chosen subcommands, outermost first.
pub fn subcommand_path(matches: &clap::ArgMatches) -> Vec<String> {
    let mut path = Vec::new();
    let mut current = matches;
    while let Some((name, sub)) = current.subcommand() {
        path.push(name.to_string());
        current = sub;
    }
    path
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[derive(Parser)]
    struct Probe {
        #[command(flatten)]
        global: GlobalArgs,
    }

    fn confirmation(args: &[&str]) -> Option<Option<String>> {
        let probe =
            Probe::try_parse_from(std::iter::once("t").chain(args.iter().copied())).unwrap();
        probe.global.confirmation().map(|c| c.map(str::to_string))
    }

    #[test]
    fn an_empty_confirm_digest_is_a_digest_not_a_bare_confirm() {
        assert_eq!(confirmation(&[]), None);
        assert_eq!(confirmation(&["--confirm"]), Some(None));
        assert_eq!(confirmation(&["--confirm=abc"]), Some(Some("abc".into())));
        assert_eq!(confirmation(&["--confirm="]), Some(Some(String::new())));
    }

    #[test]
    fn a_negative_timeout_reaches_the_range_check() {
        let probe = Probe::try_parse_from(["t", "--timeout", "-1"]).unwrap();
        assert_eq!(probe.global.timeout, Some(-1.0));
    }

    #[derive(clap::Subcommand, Debug)]
    pub(crate) enum ProbeCommands {
        Zoeken {
            #[arg(long)]
            naam: Option<String>,
        },
        Get {
            id: String,
        },
    }

    impl Commands for ProbeCommands {
        const SPECS: &'static [CommandSpec] = &[];

        fn run(self, _: &mut Context<'_>) -> crate::Result<Outcome> {
            unreachable!("parsing only")
        }
    }

    pub(crate) fn built() -> clap::Command {
        let mut cmd = in_dutch(hyphen_values(Cli::<ProbeCommands>::command(), None));
        cmd.build();
        cmd
    }

    #[test]
    fn option_values_may_start_with_a_hyphen() {
        let matches = built()
            .try_get_matches_from(["t", "zoeken", "--naam", "-Donald"])
            .expect("a value, not a flag");
        let (_, sub) = matches.subcommand().expect("zoeken");
        assert_eq!(
            sub.get_one::<String>("naam").map(String::as_str),
            Some("-Donald")
        );
    }
}
