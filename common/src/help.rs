//! Help for people (rule DISC-20): the utility commands (`completions`, `man`,
//! `help`), each leaf's examples and the exit-code table in `--help`, and
//! clap's English fragments in Dutch.
//!
//! The examples come from the side table ([`CommandSpec::examples`]), the
//! same list discovery publishes as `_meta.examples`; the exit codes from
//! [`crate::exit::ExitStatus`], the same table discovery publishes.

use std::io::Write as _;

use clap::{Arg, ArgMatches, Command};

use crate::error::Problem;
use crate::exit::ExitStatus;
use crate::suggest;
use crate::tool::CommandSpec;

/// The profile's utility commands: not tools, never in discovery (rule CONV-2).
pub fn utility_commands() -> [Command; 3] {
    [
        Command::new("completions")
            .about("Schrijf een shell-completionscript naar stdout (bash, zsh, fish, …)")
            .arg(
                Arg::new("shell")
                    .required(true)
                    .value_name("SHELL")
                    .value_parser(clap::value_parser!(clap_complete::Shell)),
            ),
        Command::new("man").about("Schrijf de handleiding (man-pagina in roff) naar stdout"),
        Command::new("help")
            .about("Toon de hulp van de tool of van een commando")
            .arg(
                Arg::new("commando")
                    .value_name("OPDRACHT")
                    .num_args(0..)
                    .action(clap::ArgAction::Append),
            ),
    ]
}

/// `cache leeg`, the utility command of a tool with cached commands (rule CACHE-4).
pub fn cache_command(info: &crate::tool::ToolInfo) -> Option<Command> {
    (!info.cached.is_empty()).then(|| {
        Command::new("cache")
            .about("Beheer de cache (antwoorden die nooit veranderen, voorbereide wetten)")
            .subcommand_required(true)
            .subcommand(
                Command::new("leeg")
                    .about("Verwijder alle items uit de cache en meld hoeveel (en hoeveel bytes)"),
            )
    })
}

/// The exit-code table as the root help shows it. A tool none of whose commands mutates leaves
/// out the two codes that only a mutation gives (80, 81), which would name a `--confirm` its
/// help does not show.
pub fn exit_code_table(tool: &str, mutates: bool) -> String {
    let mut text = String::from("Afsluitcodes:\n");
    let only_mutations = [ExitStatus::ConfirmationRequired, ExitStatus::PlanStale];
    for status in ExitStatus::ALL
        .into_iter()
        .filter(|s| mutates || !only_mutations.contains(s))
    {
        text.push_str(&format!(
            "  {:>3}  {:<21}  {}\n",
            status.code(),
            status.name(),
            status.meaning()
        ));
    }
    text.push_str(&format!(
        "\nMeer: {tool} help OPDRACHT, {tool} man, of {tool} --help --json (machineleesbaar)."
    ));
    text
}

/// Dress the built tree: examples on every leaf, `--confirm` hidden below
/// nodes whose commands are all read-only, `--geen-cache` below nodes where
/// no command is `cached`, positionals in usage order.
pub(crate) fn dress(cmd: &mut Command, specs: &[CommandSpec], cached: &[&[&str]]) {
    let tool = cmd.get_name().to_string();
    dress_node(cmd, &tool, &mut Vec::new(), specs, cached);
}

fn dress_node(
    cmd: &mut Command,
    tool: &str,
    path: &mut Vec<String>,
    specs: &[CommandSpec],
    cached: &[&[&str]],
) {
    let under: Vec<&CommandSpec> = specs
        .iter()
        .filter(|s| {
            s.path.len() >= path.len() && s.path.iter().zip(path.iter()).all(|(a, b)| a == b)
        })
        .collect();
    let read_only = !under.is_empty() && under.iter().all(|s| !s.is_mutating());
    let uncached = !under.iter().any(|s| cached.contains(&s.path));
    let mut node = std::mem::take(cmd).mut_args(|arg| {
        let arg = match arg.get_index() {
            Some(index) if arg.is_positional() => arg.display_order(index),
            _ => arg,
        };
        if (read_only && arg.get_id() == "confirm") || (uncached && arg.get_id() == "geen_cache") {
            arg.hide(true)
        } else {
            arg
        }
    });
    if let Some(spec) = under
        .iter()
        .find(|s| s.path.len() == path.len() && !path.is_empty())
    {
        node = node.after_help(examples(tool, spec));
    }
    *cmd = node;
    for sub in cmd.get_subcommands_mut() {
        path.push(sub.get_name().to_string());
        dress_node(sub, tool, path, specs, cached);
        path.pop();
    }
}

/// "Voorbeelden:" with one shell-quoted command line per example.
fn examples(tool: &str, spec: &CommandSpec) -> String {
    let mut text = String::from("Voorbeelden:\n");
    for example in spec.examples {
        let words: Vec<String> = example.iter().map(|w| shell_quoted(w)).collect();
        text.push_str(&format!("  {tool} {}\n", words.join(" ")));
    }
    text.trim_end().to_string()
}

/// A word as a POSIX shell reads it back: bare when safe, else in single quotes.
fn shell_quoted(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || "-_./:=,@%+".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// clap's English fragments in rendered help, in Dutch.
pub fn dutch(text: &str) -> String {
    CLAP_ENGLISH
        .iter()
        .fold(text.to_string(), |text, (en, nl)| text.replace(en, nl))
}

/// The fragments clap writes in English into rendered help, with their Dutch.
pub const CLAP_ENGLISH: [(&str, &str); 7] = [
    ("[OPTIONS]", "[OPTIES]"),
    ("[possible values: ", "[mogelijke waarden: "),
    ("Possible values:\n", "Mogelijke waarden:\n"),
    ("[default: ", "[standaard: "),
    ("[aliases: ", "[aliassen: "),
    ("[short aliases: ", "[korte aliassen: "),
    ("[env: ", "[omgeving: "),
];

/// What a utility command prints on stdout, if one was chosen; a `help`
/// for an unknown command is a usage error with a suggestion. `dressed`
/// builds the tool's dressed tree ([`crate::cli::command`]), only for these.
pub fn utility(
    dressed: impl FnOnce() -> Command,
    matches: &ArgMatches,
) -> Option<Result<String, Problem>> {
    let (name, sub) = matches.subcommand()?;
    match name {
        "completions" => {
            let shell = *sub.get_one::<clap_complete::Shell>("shell")?;
            Some(Ok(completion_script(&dressed(), shell)))
        }
        "man" => Some(man_page(&dressed())),
        "help" => {
            let words: Vec<&String> = sub.get_many("commando").into_iter().flatten().collect();
            Some(help_of(&dressed(), &words))
        }
        _ => None,
    }
}

/// The long help of the command at `words`, in Dutch.
fn help_of(cmd: &Command, words: &[&String]) -> Result<String, Problem> {
    let mut node = cmd;
    for word in words {
        node = match node.find_subcommand(word.as_str()) {
            Some(sub) => sub,
            None => {
                let names: Vec<&str> = node.get_subcommands().map(Command::get_name).collect();
                let problem = Problem::usage(format!("onbekend commando: {word}"));
                let hint = match suggest::closest(word, &names) {
                    Some(name) => format!(
                        "{}; zie {} help",
                        suggest::did_you_mean(name),
                        cmd.get_name()
                    ),
                    None => format!("commando's: {}", names.join(", ")),
                };
                return Err(problem.with_hint(hint));
            }
        };
    }
    // Exactly what `<words> --help` prints: let clap render it.
    let argv = std::iter::once(cmd.get_name())
        .chain(words.iter().map(|w| w.as_str()))
        .chain(["--help"]);
    match cmd.clone().try_get_matches_from(argv) {
        Err(err) if err.kind() == clap::error::ErrorKind::DisplayHelp => {
            Ok(dutch(&err.render().to_string()))
        }
        _ => Ok(dutch(&node.clone().render_long_help().to_string())),
    }
}

/// A completion script for `shell`.
///
/// clap_complete's bash script names each command twice from the binary
/// name: once with `-` as `__` (where it records the command it saw) and once
/// with `-` as `__subcmd__` (where it completes for it). For `kvk-cli` the
/// two never meet, so nothing below the first word completes. Generated for
/// a stand-in name without `-`, both agree; only the `complete` line then
/// names the real binary.
pub fn completion_script(cmd: &Command, shell: clap_complete::Shell) -> String {
    let name = cmd.get_name().to_string();
    let stand_in = match shell {
        clap_complete::Shell::Bash => name.replace('-', "_"),
        _ => name.clone(),
    };
    // The tree is built: its subcommands already carry bin names.
    let mut cmd = without_hidden(cmd);
    rename(&mut cmd, &stand_in);
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, &stand_in, &mut script);
    let script = String::from_utf8_lossy(&script).into_owned();
    if stand_in == name {
        return script;
    }
    let suffix = format!(" {stand_in}");
    script
        .lines()
        .map(|line| match line.strip_suffix(&suffix) {
            Some(head) if line.trim_start().starts_with("complete -F ") => {
                format!("{head} {name}\n")
            }
            _ => format!("{line}\n"),
        })
        .collect()
}

/// A copy of the built tree `cmd` without hidden options and commands, so retired spellings
/// kept as hidden aliases (CONV-5) are not offered: clap_complete's bash and fish scripts list
/// hidden options too. Hidden command aliases are left out by taking only visible ones.
fn without_hidden(cmd: &Command) -> Command {
    let mut fresh = Command::new(cmd.get_name().to_string())
        .disable_help_flag(true)
        .disable_version_flag(true)
        .disable_help_subcommand(true)
        .args(cmd.get_arguments().filter(|a| !a.is_hide_set()).cloned())
        .subcommands(
            cmd.get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(without_hidden),
        );
    if let Some(about) = cmd.get_about() {
        fresh = fresh.about(about.clone());
    }
    if let Some(version) = cmd.get_version() {
        fresh = fresh.version(version.to_string());
    }
    for alias in cmd.get_visible_aliases() {
        fresh = fresh.visible_alias(alias.to_string());
    }
    if cmd.is_subcommand_required_set() {
        fresh = fresh.subcommand_required(true);
    }
    fresh
}

/// `bin_name` for `cmd` and the matching names for everything below it.
fn rename(cmd: &mut Command, bin_name: &str) {
    cmd.set_bin_name(bin_name);
    for sub in cmd.get_subcommands_mut() {
        let name = format!("{bin_name} {}", sub.get_name());
        rename(sub, &name);
    }
}

/// The tool's man page (roff), with Dutch section names: one page that holds every command
/// (its usage, description and own options), so it refers to no other page that the tool
/// cannot write. Global options are described once, at the top.
fn man_page(cmd: &Command) -> Result<String, Problem> {
    let failed =
        |e: std::io::Error| Problem::io(format!("man-pagina kon niet worden gemaakt: {e}"));
    let man = clap_mangen::Man::new(cmd.clone());
    let mut page = Vec::new();
    man.render_title(&mut page).map_err(failed)?;
    man.render_name_section(&mut page).map_err(failed)?;
    man.render_synopsis_section(&mut page).map_err(failed)?;
    man.render_description_section(&mut page).map_err(failed)?;
    man.render_options_section(&mut page).map_err(failed)?;
    page.extend_from_slice(b".SH OPDRACHTEN\n");
    let mut path = vec![cmd.get_name().to_string()];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        man_commands(sub, &mut path, &mut page).map_err(failed)?;
    }
    man.render_extra_section(&mut page).map_err(failed)?;
    man.render_version_section(&mut page).map_err(failed)?;
    const SECTIONS: [(&str, &str); 7] = [
        (".SH NAME", ".SH NAAM"),
        (".SH SYNOPSIS", ".SH OVERZICHT"),
        (".SH DESCRIPTION", ".SH BESCHRIJVING"),
        (".SH OPTIONS", ".SH OPTIES"),
        (".SH EXTRA", ".SH AFSLUITCODES"),
        (".SH VERSION", ".SH VERSIE"),
        ("\\fIPossible values:\\fR", "\\fIMogelijke waarden:\\fR"),
    ];
    let page = String::from_utf8_lossy(&page);
    let page = SECTIONS
        .iter()
        .fold(page.into_owned(), |page, (en, nl)| page.replace(en, nl));
    Ok(dutch(&page).replace("May also be specified with the", "Ook te zetten met de"))
}

/// One command of the man page and the commands below it: a subsection per command that does
/// work, with its usage, its description and its own options (the global ones are at the top).
fn man_commands(cmd: &Command, path: &mut Vec<String>, page: &mut Vec<u8>) -> std::io::Result<()> {
    path.push(cmd.get_name().to_string());
    let subs: Vec<&Command> = cmd.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    if subs.is_empty() {
        let own = cmd.clone().mut_args(|arg| {
            if arg.is_global_set() {
                arg.hide(true)
            } else {
                arg
            }
        });
        let words = path.join(" ");
        writeln!(page, ".SS \"{}\"", words.replace('-', "\\-"))?;
        let man = clap_mangen::Man::new(own.clone().bin_name(words));
        let mut block = Vec::new();
        man.render_synopsis_section(&mut block)?;
        man.render_description_section(&mut block)?;
        if own.get_arguments().any(|a| !a.is_hide_set()) {
            man.render_options_section(&mut block)?;
        }
        // The command's parts as paragraphs of its subsection, not sections of the page.
        let block = String::from_utf8_lossy(&block)
            .lines()
            .filter(|line| !line.starts_with(".TH "))
            .map(|line| match line.starts_with(".SH ") {
                true => ".PP\n".to_string(),
                false => format!("{line}\n"),
            })
            .collect::<String>();
        page.extend_from_slice(block.as_bytes());
    }
    for sub in subs {
        man_commands(sub, path, page)?;
    }
    path.pop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_quoted_for_the_shell() {
        assert_eq!(shell_quoted("68750110"), "68750110");
        assert_eq!(shell_quoted("LED verlichting"), "'LED verlichting'");
        assert_eq!(shell_quoted("it's"), r"'it'\''s'");
        assert_eq!(shell_quoted(""), "''");
    }

    #[test]
    fn clap_english_is_dutch() {
        assert_eq!(
            dutch("Gebruik: t [OPTIONS] [default: 1] [possible values: a, b]"),
            "Gebruik: t [OPTIES] [standaard: 1] [mogelijke waarden: a, b]"
        );
        assert_eq!(
            dutch("      Possible values:\n      - a: een"),
            "      Mogelijke waarden:\n      - a: een"
        );
    }
}
