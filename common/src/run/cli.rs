//! Every tool's parser: the profile's global options, the tool's commands, and
//! the built clap command with the utility commands and Dutch help (DISC-20).

use std::ffi::OsString;

use clap::{Args, Parser, Subcommand};

use crate::call::context::Context;
pub(crate) use crate::call::globals::GlobalArgs;
use crate::call::provenance::Outcome;
use crate::call::tool::{CommandSpec, ToolInfo};
use crate::problem::error::Result;

/// A tool's commands: a clap subcommand enum that runs the chosen command
/// and knows the side-table entries of its leaves. [`crate::commands!`]
/// writes both from one list.
pub trait Commands: Subcommand + std::fmt::Debug {
    /// The entry of every leaf command, in discovery order.
    const SPECS: &'static [CommandSpec];

    /// Where these commands' names sit in their entries' paths: 0 for a tool's own commands,
    /// 1 for a group's. [`crate::commands!`] computes it at compile time
    /// ([`crate::call::tool::commands_level`]), so an entry whose path does not name its command
    /// the way clap names it does not compile; a hand-written implementation claims 0.
    const LEVEL: usize = 0;

    /// Run the selected command.
    fn run(self, ctx: &mut Context<'_>) -> Result<Outcome>;

    /// The entry of the command at `path`.
    fn spec(path: &[String]) -> Option<&'static CommandSpec> {
        crate::call::tool::find_spec(Self::SPECS, path)
    }

    /// [`Subcommand::augment_subcommands`] for only the commands one of `words` names (by
    /// name; an alias is not seen): building a command's arguments is the cost of a parser,
    /// and a call uses one command. [`crate::commands!`] writes it; the default adds all.
    fn augment_named(cmd: clap::Command, words: &[&str]) -> clap::Command {
        let _ = words;
        Self::augment_subcommands(cmd)
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

        // A free constant is always evaluated, an associated one only where used.
        const _: usize = <$name as $crate::Commands>::LEVEL;

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
            const LEVEL: usize = $crate::tool::commands_level(&[
                $( (stringify!($variant), $module::SPECS) ),+
            ]);

            fn run(self, ctx: &mut $crate::Context<'_>) -> $crate::Result<$crate::Outcome> {
                run(&self, ctx)
            }

            fn augment_named(cmd: clap::Command, words: &[&str]) -> clap::Command {
                let mut cmd = cmd;
                $(
                    {
                        // The one command, derived as the enum derives it.
                        #[derive(clap::Subcommand)]
                        #[allow(dead_code, reason = "only its parser is used")]
                        enum One {
                            $(#[$vmeta])* $variant($ty),
                        }
                        if words.iter().any(|word| {
                            <One as clap::Subcommand>::has_subcommand(word)
                        }) {
                            cmd = <One as clap::Subcommand>::augment_subcommands(cmd);
                        }
                    }
                )+
                cmd
            }
        }
    };
}

/// The parser of every tool: the global options and the tool's commands.
#[derive(Parser, Debug)]
pub(crate) struct Cli<C: Commands> {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: C,
}

/// The tool's clap command with the profile's utility commands, built, and
/// dressed for people: each leaf's examples (the same list discovery
/// publishes as `_meta.examples`), the exit-code table under the root help,
/// `--confirm` hidden where no command behind it mutates, `--geen-cache` where
/// none caches, positionals listed
/// in usage order (rule DISC-20).
pub(crate) fn command<C: Commands>(info: &ToolInfo) -> clap::Command {
    let mutates = C::SPECS.iter().any(CommandSpec::is_mutating);
    let cmd =
        parser::<C>(info, None).after_help(crate::run::help::exit_code_table(info.name, mutates));
    let mut cmd = in_dutch(cmd);
    cmd.build();
    crate::run::help::dress(&mut cmd, C::SPECS, info.cached);
    cmd
}

/// The tree that reads argv, neither built nor dressed: dressing changes only what help shows,
/// so a call that parses needs none of it, and clap builds only the commands on the parsed
/// path. With `words` (the call's argv), a top-level command that no word names is left out,
/// its arguments never made ([`Commands::augment_named`]): making every command's arguments,
/// and then copying every global option into each command, was most of the parser's cost.
/// A word that names a command keeps it, so a call that parses with this tree parses the
/// same with the whole one; a call that does not (an error, or a command named by an alias)
/// is parsed again with the whole tree ([`command`]), which gives the error and its
/// suggestions. Every invocation is a new process, so this is start-up latency (`--version`
/// of regelrecht-cli was 2.5 M instructions, 1.5 M of them clap).
pub(crate) fn parser<C: Commands>(info: &ToolInfo, words: Option<&[OsString]>) -> clap::Command {
    let wanted = |sub: &clap::Command| words.is_none_or(|words| named(sub, words));
    // The tool's commands, moved out of the tree the derive builds for them.
    let tree = match words {
        Some(words) => {
            let words: Vec<&str> = words.iter().filter_map(|word| word.to_str()).collect();
            C::augment_named(clap::Command::new(info.name), &words)
        }
        None => C::augment_subcommands(clap::Command::new(info.name)),
    };
    let mut commands = Vec::new();
    let _ = tree.mut_subcommands(|sub| {
        if wanted(&sub) {
            commands.push(sub);
        }
        clap::Command::new("")
    });
    // What `#[derive(Parser)]` makes of `Cli`: the global options and a required command.
    let cmd = GlobalArgs::augment_args(clap::Command::new(info.name))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .version(crate::call::tool::shown_version(info.version))
        .about(info.description)
        .long_about(format!(
            "{}\n\n{}",
            info.help,
            crate::call::tool::FAMILY_ROUTES
        ))
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
        .subcommands(commands)
        .subcommands(
            crate::run::help::utility_commands()
                .into_iter()
                .filter(wanted),
        )
        .subcommands(crate::run::help::cache_command(info).filter(wanted));
    hyphen_values(cmd, words)
}

/// Whether one of `words` is the command's name or one of its aliases (hidden ones too).
fn named(cmd: &clap::Command, words: &[OsString]) -> bool {
    words
        .iter()
        .filter_map(|word| word.to_str())
        .any(|word| cmd.get_name() == word || cmd.get_all_aliases().any(|alias| alias == word))
}

/// A command's option value may start with `-` (`--naam -Donald`): every option that takes a
/// value, but not a positional (an unknown option stays an error) nor a global option
/// (`--fields --dry-run` lacks a value). With `words`, only in the commands named among them:
/// clap parses no other, and rewriting every command's arguments costs an allocation each.
/// A command without such an option (the root: its options are global) is left as it is:
/// `mut_args` moves every argument into a new vector, some 17 KB for the global options.
fn hyphen_values(cmd: clap::Command, words: Option<&[OsString]>) -> clap::Command {
    let value_option = |arg: &clap::Arg| {
        !arg.is_positional() && !arg.is_global_set() && arg.get_action().takes_values()
    };
    let cmd = if cmd.get_arguments().any(value_option) {
        cmd.mut_args(|arg| {
            if value_option(&arg) {
                arg.allow_hyphen_values(true)
            } else {
                arg
            }
        })
    } else {
        cmd
    };
    cmd.mut_subcommands(|sub| {
        if words.is_none_or(|words| named(&sub, words)) {
            hyphen_values(sub, words)
        } else {
            sub
        }
    })
}

/// Plain `--help` in Dutch: headings and template (rule DISC-20).
pub(crate) fn in_dutch(cmd: clap::Command) -> clap::Command {
    let style = crate::run::help::STYLES.get_header();
    let template = format!(
        "{{before-help}}{{about-with-newline}}\n{style}Gebruik:{style:#} {{usage}}\n\n\
         {{all-args}}{{after-help}}"
    );
    in_dutch_with(cmd, &template)
}

fn in_dutch_with(cmd: clap::Command, template: &str) -> clap::Command {
    cmd.help_template(template.to_string())
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
        .mut_subcommands(|sub| in_dutch_with(sub, template))
}

/// The names of the chosen subcommands, outermost first.
pub(crate) fn subcommand_path(matches: &clap::ArgMatches) -> Vec<String> {
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
    use clap::error::ErrorKind;
    use clap::{CommandFactory, FromArgMatches};

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
            /// Naam, zoals [default: x] in een tekst
            #[arg(long)]
            naam: Option<String>,
            /// Per pagina
            #[arg(long, default_value_t = 10)]
            per_pagina: u32,
            /// Vorm
            #[arg(long, value_enum)]
            vorm: Option<ProbeForm>,
            /// Letter
            #[arg(long)]
            letter: Option<ProbeLetter>,
        },
        #[command(alias = "oud")]
        Get { id: String },
    }

    /// Values with a text each.
    #[derive(clap::ValueEnum, Clone, Debug)]
    pub(crate) enum ProbeForm {
        /// Kort
        Kort,
        /// Lang en uitgebreid
        Lang,
    }

    /// Values without a text.
    #[derive(clap::ValueEnum, Clone, Debug)]
    pub(crate) enum ProbeLetter {
        A,
        B,
    }

    impl Commands for ProbeCommands {
        const SPECS: &'static [CommandSpec] = &[];

        fn run(self, _: &mut Context<'_>) -> crate::problem::error::Result<Outcome> {
            unreachable!("parsing only")
        }
    }

    pub(crate) fn built() -> clap::Command {
        let mut cmd = in_dutch(hyphen_values(
            Cli::<ProbeCommands>::command().name("t"),
            None,
        ));
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

    static PROBE: ToolInfo = ToolInfo {
        cached: &[&["get"]],
        children: &[],
        ..crate::call::tool::PROBE_TOOL
    };

    /// The parse of `words` by the tree of a call (`parser` with argv) and by the whole tree:
    /// the parsed tool (its Debug form) or the kind of error.
    fn both(words: &[&str]) -> [Result<String, ErrorKind>; 2] {
        let words: Vec<OsString> = words.iter().map(OsString::from).collect();
        let read = |mut cmd: clap::Command| {
            cmd.try_get_matches_from_mut(&words)
                .map(|m| match Cli::<ProbeCommands>::from_arg_matches(&m) {
                    Ok(tool) => format!("{tool:?}"),
                    // A utility command: its path and what was given.
                    Err(_) => format!("{:?} {:?}", subcommand_path(&m), given(&m)),
                })
                .map_err(|e| e.kind())
        };
        [
            read(parser::<ProbeCommands>(&PROBE, Some(&words))),
            read(command::<ProbeCommands>(&PROBE)),
        ]
    }

    /// Every argument given in `matches` and in its subcommands, with its raw values.
    fn given(matches: &clap::ArgMatches) -> Vec<(String, Vec<String>)> {
        let mut given: Vec<(String, Vec<String>)> = matches
            .ids()
            .filter(|id| {
                matches.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine)
            })
            .map(|id| {
                let values = matches.get_raw(id.as_str()).into_iter().flatten();
                let values = values.map(|v| v.to_string_lossy().into_owned()).collect();
                (id.to_string(), values)
            })
            .collect();
        if let Some((_, sub)) = matches.subcommand() {
            given.extend(self::given(sub));
        }
        given
    }

    #[test]
    fn the_tree_of_a_call_parses_as_the_whole_tree() {
        for words in [
            &["t", "zoeken", "--naam", "x"][..],
            &["t", "zoeken", "--naam", "-Donald"],
            &["t", "zoeken", "--naam", "get"],
            &["t", "--output", "json", "get", "1", "--dry-run"],
            &["t", "get", "1", "--fields", "a,b", "--timeout", "-1"],
            &["t", "--fields", "--dry-run", "get", "1"],
            &["t", "zoeken", "--onbekend"],
            &["t", "get"],
            &["t", "onbekend"],
            &["t", "zoeke"],
            &["t"],
            &["t", "--version"],
            &["t", "cache", "leeg", "--dry-run"],
            &["t", "completions", "bash"],
            &["t", "help", "get"],
            &["t", "oud", "1"],
        ] {
            // An error is shown from the whole tree (`app::run` parses again), except the
            // version, which is shown from the tree of the call.
            match both(words) {
                [Ok(call), Ok(whole)] => assert_eq!(call, whole, "{words:?}"),
                [Err(call), Err(whole)] => assert!(
                    call != ErrorKind::DisplayVersion || whole == call,
                    "{words:?}: {call:?}, {whole:?}"
                ),
                [call, whole] => panic!("{words:?}: {call:?} but the whole tree {whole:?}"),
            }
        }
    }

    #[test]
    fn the_tree_of_a_call_holds_only_the_commands_it_names() {
        let words: Vec<OsString> = ["t", "get", "zoeken", "--naam", "cache"]
            .iter()
            .map(OsString::from)
            .collect();
        let cmd = parser::<ProbeCommands>(&PROBE, Some(&words));
        let names: Vec<&str> = cmd.get_subcommands().map(clap::Command::get_name).collect();
        assert_eq!(names, ["zoeken", "get", "cache"]);
        let whole = parser::<ProbeCommands>(&PROBE, None);
        let names: Vec<&str> = whole
            .get_subcommands()
            .map(clap::Command::get_name)
            .collect();
        assert_eq!(
            names,
            ["zoeken", "get", "completions", "man", "help", "cache"]
        );
    }
}
