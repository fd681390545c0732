//! Help for people (rules DISC-20, DISC-25): the utility commands (`completions`, `man`,
//! `help`), each leaf's examples and the exit-code table in `--help`, and help as it is shown:
//! wrapped to the terminal, headings in colour where colour is on, Dutch where clap would write
//! English, and the profile options in full only at the root and in `<tool> help opties`.
//!
//! The examples come from the side table ([`CommandSpec::examples`]), the
//! same list discovery publishes as `_meta.examples`; the exit codes from
//! [`crate::problem::exit::ExitStatus`], the same table discovery publishes.
//!
//! Everything here runs only when help is shown: a call that does work never builds it.

use std::io::Write as _;

use clap::builder::styling::{AnsiColor, Style, Styles};
use clap::{Arg, ArgMatches, Command};

use crate::call::tool::CommandSpec;
use crate::data::suggest;
use crate::problem::error::Problem;
use crate::problem::exit::ExitStatus;

/// The profile's utility commands: not tools, never in discovery (rule CONV-2).
pub(crate) fn utility_commands() -> [Command; 3] {
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
pub(crate) fn cache_command(info: &crate::call::tool::ToolInfo) -> Option<Command> {
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
pub(crate) fn exit_code_table(tool: &str, mutates: bool) -> String {
    let mut text = heading("Afsluitcodes");
    let only_mutations = [ExitStatus::ConfirmationRequired, ExitStatus::PlanStale];
    for status in ExitStatus::ALL
        .into_iter()
        .filter(|s| mutates || !only_mutations.contains(s))
    {
        text.push_str(&format!(
            "  {:>3}  {:<21}  {}\n",
            // The meaning starts at column EXIT_MEANING_COLUMN.
            status.code(),
            status.name(),
            status.meaning()
        ));
    }
    text.push_str(&format!(
        "\nMeer: {tool} help OPDRACHT, {tool} help opties, {tool} man, of {tool} --help --json \
         (machineleesbaar)."
    ));
    text
}

/// Where an exit code's meaning starts in [`exit_code_table`]: a wrapped meaning goes on there.
const EXIT_MEANING_COLUMN: usize = 30;

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
    let mut text = heading("Voorbeelden");
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

/// The English clap writes into help where nothing else is said: help here never shows it
/// ([`shown`] says each in Dutch through clap's own settings). For tests.
pub const CLAP_ENGLISH: [&str; 7] = [
    "[OPTIONS]",
    "[possible values: ",
    "Possible values:",
    "[default: ",
    "[aliases: ",
    "[short aliases: ",
    "[env: ",
];

/// The look of help: the headings green and bold, options cyan, as cargo shows them.
pub(crate) const STYLES: Styles = Styles::styled()
    .header(AnsiColor::Green.on_default().bold())
    .usage(AnsiColor::Green.on_default().bold())
    .literal(AnsiColor::Cyan.on_default().bold())
    .placeholder(AnsiColor::Cyan.on_default());

/// `name:` and a line break, in the style of clap's headings: the escape codes are kept where
/// colour is on and dropped with the rest of the styling where it is off ([`shown`]).
pub(crate) fn heading(name: &str) -> String {
    let style: &Style = STYLES.get_header();
    format!("{style}{name}:{style:#}\n")
}

/// The widest help is wrapped to: wider lines are harder to read.
pub(crate) const MAX_HELP_WIDTH: usize = 100;

/// How help is shown: in colour or not, and the width it is wrapped to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    pub color: bool,
    pub width: usize,
}

impl Look {
    /// `columns` (the `COLUMNS` variable) if it is a number, else the width of the terminal the
    /// help goes to (stderr when `on_stderr`), else [`MAX_HELP_WIDTH`]; never more than that.
    pub(crate) fn new(color: bool, columns: Option<&str>, on_stderr: bool) -> Self {
        let terminal = || {
            let term = match on_stderr {
                true => console::Term::stderr(),
                false => console::Term::stdout(),
            };
            term.size_checked().map(|(_, cols)| usize::from(cols))
        };
        let width = columns
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|w| *w > 0)
            .or_else(terminal)
            .unwrap_or(MAX_HELP_WIDTH)
            .min(MAX_HELP_WIDTH);
        Self { color, width }
    }
}

/// The help of `node` (`root` when it is the tool itself) as it is shown, long (`--help`) or
/// short (`-h`), rendered by clap from clap's own settings:
/// - wrapped to `look.width`, in [`STYLES`] when `look.color`, else without escape codes;
/// - below the root, the profile options hidden and named in one line (rule DISC-25);
/// - default values, value sets and variables said in Dutch in the help text of their
///   option, where clap would add them in English ([`spelled_out`]);
/// - the usage in Dutch ([`usage`]).
pub(crate) fn shown(tool: &str, node: &Command, root: bool, long: bool, look: Look) -> String {
    let mut node = node.clone();
    if !root {
        node = referring_to_profile_options(node, tool);
    }
    if let Some(after) = node.get_after_help() {
        let after = wrapped(&after.ansi().to_string(), tool, look.width);
        node = node.after_help(after);
    }
    let mut node = spelled_out(node).styles(STYLES).term_width(look.width);
    let usage = usage(&mut node);
    let mut node = node.override_usage(usage);
    let text = match long {
        true => node.render_long_help(),
        false => node.render_help(),
    };
    match look.color {
        true => text.ansi().to_string(),
        false => text.to_string(),
    }
}

/// The text below the options (examples, exit codes) wrapped to `width` before clap would wrap
/// it without indents: an example breaks between shell words and goes on after ` \` (so it can
/// still be copied), an exit code's meaning goes on at its column, other text at its indent.
fn wrapped(text: &str, tool: &str, width: usize) -> String {
    let example = format!("  {tool} ");
    let mut out: Vec<String> = Vec::new();
    for line in text.split('\n') {
        let exit_row = line.trim_start().starts_with(|c: char| c.is_ascii_digit());
        out.push(if display_width(line) <= width {
            line.to_string()
        } else if line.starts_with(&example) {
            hanging("  ", &shell_words(line.trim_start()), 4, width, " \\")
        } else if exit_row && line.len() > EXIT_MEANING_COLUMN {
            // The code and its name stay together, at their place in the table.
            let (head, meaning) = line.split_at(EXIT_MEANING_COLUMN);
            let words: Vec<&str> = meaning.split_whitespace().collect();
            match width >= EXIT_MEANING_COLUMN + 20 {
                true => hanging(head, &words, EXIT_MEANING_COLUMN, width, ""),
                false => format!(
                    "{}\n{}",
                    head.trim_end(),
                    hanging("        ", &words, 8, width, "")
                ),
            }
        } else {
            let indent = &line[..line.len() - line.trim_start().len()];
            let words: Vec<&str> = line.split_whitespace().collect();
            hanging(indent, &words, indent.len(), width, "")
        });
    }
    out.join("\n")
}

/// `words` as lines of at most `width` columns: the first after `lead`, the others after
/// `hang` spaces, each line but the last ending in `end`. A word longer than a line stands
/// alone.
fn hanging(lead: &str, words: &[&str], hang: usize, width: usize, end: &str) -> String {
    let room = width.saturating_sub(display_width(end));
    let mut lines: Vec<String> = Vec::new();
    let mut line = lead.to_string();
    let mut empty = true;
    for word in words {
        if !empty && display_width(&line) + 1 + display_width(word) > room {
            lines.push(std::mem::replace(&mut line, " ".repeat(hang)));
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    lines.push(line);
    lines.join(&format!("{end}\n"))
}

/// A command line's words as the shell splits them: spaces inside single quotes, or after a
/// backslash, do not split (the examples are quoted by [`shell_quoted`]).
fn shell_words(line: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let (mut start, mut quoted, mut escaped) = (None, false, false);
    for (at, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !quoted => escaped = true,
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if let Some(from) = start.take() {
                    words.push(&line[from..at]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(at);
    }
    if let Some(from) = start {
        words.push(&line[from..]);
    }
    words
}

/// Columns `text` takes on a terminal, escape codes not counted.
fn display_width(text: &str) -> usize {
    let plain = clap::builder::StyledStr::from(text.to_string()).to_string();
    unicode_width::UnicodeWidthStr::width(plain.as_str())
}

/// The help of the profile options, `<tool> help opties`: the root's global options in full.
fn profile_options(root: &Command) -> Command {
    let tool = root.get_name();
    Command::new(tool.to_string())
        .about(format!(
            "Deze opties neemt elk commando van {tool} aan, voor of na de naam van het commando."
        ))
        .help_template("{about-with-newline}\n{all-args}")
        .disable_help_flag(true)
        .disable_version_flag(true)
        .args(
            root.get_arguments()
                .filter(|a| a.is_global_set() && !a.is_hide_set())
                .cloned(),
        )
}

/// `cmd` with the profile options hidden (all but `--help`) and named in one line above its
/// examples: they are the same for every command, and in full at the root and in
/// `<tool> help opties`.
fn referring_to_profile_options(cmd: Command, tool: &str) -> Command {
    let named: Vec<String> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set() && !a.is_hide_set() && !own_option(a))
        .filter_map(|a| a.get_long().map(|long| format!("--{long}")))
        .take(4)
        .collect();
    if named.is_empty() {
        return cmd;
    }
    let style = STYLES.get_header();
    let line = format!(
        "{style}Profielopties:{style:#} {}, … (zie {tool} help opties)",
        named.join(", ")
    );
    let after = match cmd.get_after_help() {
        Some(after) => format!("{line}\n\n{}", after.ansi()),
        None => line,
    };
    cmd.mut_args(|arg| match arg.get_id().as_str() {
        "help" => arg.help_heading("Opties").display_order(usize::MAX),
        _ if own_option(&arg) => arg.help_heading("Opties"),
        _ if arg.is_global_set() => arg.hide(true),
        _ => arg,
    })
    .after_help(after)
}

/// A global option a command's help still shows among its own: `--help`, and `--geen-cache`
/// where the command caches (it is hidden elsewhere, rule CACHE-3).
fn own_option(arg: &Arg) -> bool {
    matches!(arg.get_id().as_str(), "help" | "geen_cache")
}

/// `cmd` with what clap would add to an option's help in English (its default, its value set,
/// its variable) hidden from clap and written into the option's own help in Dutch: inline in
/// the short help, on lines of their own in the long help, as clap places them.
fn spelled_out(cmd: Command) -> Command {
    cmd.mut_args(|arg| {
        let mut inline = Vec::new();
        if let Some(env) = arg.get_env().filter(|_| !arg.is_hide_env_set()) {
            inline.push(format!("[omgeving: {}]", env.to_string_lossy()));
        }
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        if arg.get_action().takes_values()
            && !arg.is_hide_default_value_set()
            && !defaults.is_empty()
        {
            inline.push(format!("[standaard: {}]", defaults.join(" ")));
        }
        let values: Vec<_> = match arg.is_hide_possible_values_set() {
            true => Vec::new(),
            false => arg
                .get_possible_values()
                .into_iter()
                .filter(|v| !v.is_hide_set())
                .collect(),
        };
        // Values with a text of their own are listed one a line in the long help.
        let listed = values.iter().any(|v| v.get_help().is_some());
        let names: Vec<&str> = values.iter().map(|v| v.get_name()).collect();
        let value_set =
            (!names.is_empty()).then(|| format!("[mogelijke waarden: {}]", names.join(", ")));
        if inline.is_empty() && value_set.is_none() {
            return arg;
        }
        let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
        let short: Vec<&str> = std::iter::once(help.as_str())
            .filter(|h| !h.is_empty())
            .chain(inline.iter().map(String::as_str))
            .chain(value_set.as_deref())
            .collect();
        let arg = arg
            .hide_env(true)
            .hide_default_value(true)
            .hide_possible_values(true)
            .help(short.join(" "));
        if arg.get_long_help().is_none() && !listed {
            return arg;
        }
        let mut long = arg.get_long_help().map(ToString::to_string).unwrap_or(help);
        if listed {
            let widest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
            // One line break, not a blank line: clap would indent a blank line with spaces.
            long.push_str("\nMogelijke waarden:");
            for value in &values {
                let text = value
                    .get_help()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                let name = format!("{}:", value.get_name());
                long.push_str(&format!("\n- {name:<width$} {text}", width = widest + 1));
            }
        } else {
            inline.extend(value_set);
        }
        if !inline.is_empty() {
            long.push('\n');
            long.push_str(&inline.join("\n"));
        }
        arg.long_help(long.trim_end().to_string())
    })
}

/// The usage as clap makes it, with clap's one English placeholder in Dutch. The usage is
/// made of names (the tool, its commands, value names), never of help text, so nothing a
/// person wrote is rewritten.
fn usage(cmd: &mut Command) -> String {
    let usage = cmd.render_usage().to_string();
    let usage = usage.strip_prefix("Usage:").unwrap_or(&usage).trim();
    usage.replace("[OPTIONS]", "[OPTIES]")
}

/// What a utility command prints on stdout, if one was chosen; a `help`
/// for an unknown command is a usage error with a suggestion. `dressed`
/// builds the tool's dressed tree ([`crate::run::cli::command`]), only for these.
pub(crate) fn utility(
    dressed: impl FnOnce() -> Command,
    matches: &ArgMatches,
    look: Look,
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
            Some(help_of(&dressed(), &words, look))
        }
        _ => None,
    }
}

/// The long help of the command at `words` (as `<words> --help` shows it), or of the profile
/// options for `opties`.
fn help_of(cmd: &Command, words: &[&String], look: Look) -> Result<String, Problem> {
    let tool = cmd.get_name();
    if let [word] = words
        && word.as_str() == "opties"
    {
        return Ok(shown(tool, &profile_options(cmd), true, true, look));
    }
    let mut node = cmd;
    for word in words {
        node = match node.find_subcommand(word.as_str()) {
            Some(sub) => sub,
            None => {
                let mut names: Vec<&str> = node.get_subcommands().map(Command::get_name).collect();
                if std::ptr::eq(node, cmd) {
                    names.push("opties");
                }
                let problem = Problem::usage(format!("onbekend commando: {word}"));
                let hint = match suggest::closest(word, &names) {
                    Some(name) => format!("{}; zie {tool} help", suggest::did_you_mean(name)),
                    None => format!("commando's: {}", names.join(", ")),
                };
                return Err(problem.with_hint(hint));
            }
        };
    }
    Ok(shown(tool, node, words.is_empty(), true, look))
}

/// A completion script for `shell`.
///
/// clap_complete's bash script names each command twice from the binary
/// name: once with `-` as `__` (where it records the command it saw) and once
/// with `-` as `__subcmd__` (where it completes for it). For `kvk-cli` the
/// two never meet, so nothing below the first word completes. Generated for
/// a stand-in name without `-`, both agree; only the `complete` line then
/// names the real binary.
pub(crate) fn completion_script(cmd: &Command, shell: clap_complete::Shell) -> String {
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
    let cmd = spelled_out(cmd.clone());
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
        man_commands(&spelled_out(sub.clone()), &mut path, &mut page).map_err(failed)?;
    }
    man.render_extra_section(&mut page).map_err(failed)?;
    man.render_version_section(&mut page).map_err(failed)?;
    // clap_mangen names its sections in English: the section lines (roff requests, never
    // text) in Dutch.
    const SECTIONS: [(&str, &str); 6] = [
        (".SH NAME", ".SH NAAM"),
        (".SH SYNOPSIS", ".SH OVERZICHT"),
        (".SH DESCRIPTION", ".SH BESCHRIJVING"),
        (".SH OPTIONS", ".SH OPTIES"),
        (".SH EXTRA", ".SH AFSLUITCODES"),
        (".SH VERSION", ".SH VERSIE"),
    ];
    Ok(String::from_utf8_lossy(&page)
        .lines()
        .map(|line| {
            let line = SECTIONS
                .iter()
                .find(|(en, _)| line == *en)
                .map_or(line, |(_, nl)| nl);
            format!("{line}\n")
        })
        .collect())
}

/// One command of the man page and the commands below it: a subsection per command that does
/// work, with its usage, its description and its own options (the global ones are at the top).
fn man_commands(cmd: &Command, path: &mut Vec<String>, page: &mut Vec<u8>) -> std::io::Result<()> {
    path.push(cmd.get_name().to_string());
    let subs: Vec<&Command> = cmd.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    if subs.is_empty() {
        // In Dutch what clap_mangen would add in English (a default, a value set) at every
        // depth, not only one command below the root.
        let own = spelled_out(cmd.clone()).mut_args(|arg| {
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
    fn help_is_dutch_through_clap_and_rewrites_no_help_text() {
        let cmd = crate::run::cli::tests::built();
        let look = Look {
            color: false,
            width: 80,
        };
        let root = shown("t", &cmd, true, true, look);
        for english in CLAP_ENGLISH {
            assert!(!root.contains(english), "{english} in {root}");
        }
        assert!(root.contains("Gebruik: t [OPTIES] <OPDRACHT>"), "{root}");
        // A default, and a value set with a text per value, in the option's own help.
        let zoeken = shown(
            "t",
            cmd.find_subcommand("zoeken").unwrap(),
            false,
            true,
            look,
        );
        assert!(zoeken.contains("[standaard: 10]"), "{zoeken}");
        assert!(zoeken.contains("Mogelijke waarden:\n"), "{zoeken}");
        assert!(zoeken.contains("- kort: Kort"), "{zoeken}");
        assert!(zoeken.contains("[mogelijke waarden: a, b]"), "{zoeken}");
        // Text a person wrote that looks like clap's English stays as written.
        assert!(
            zoeken.contains("zoals [default: x] in een tekst"),
            "{zoeken}"
        );
        let short = shown(
            "t",
            cmd.find_subcommand("zoeken").unwrap(),
            false,
            false,
            look,
        );
        assert!(short.contains("[mogelijke waarden: kort, lang]"), "{short}");
        for english in CLAP_ENGLISH {
            assert!(
                !zoeken.contains(english) || english == "[default: ",
                "{english}"
            );
            assert!(
                !short.contains(english) || english == "[default: ",
                "{english}"
            );
        }
    }

    #[test]
    fn below_the_root_the_profile_options_are_one_line() {
        let cmd = crate::run::cli::tests::built();
        let look = Look {
            color: false,
            width: 100,
        };
        let root = shown("t", &cmd, true, true, look);
        assert!(root.contains("--dry-run"), "{root}");
        let sub = shown(
            "t",
            cmd.find_subcommand("zoeken").unwrap(),
            false,
            true,
            look,
        );
        assert!(!sub.contains("--dry-run"), "{sub}");
        assert!(!sub.contains("--audit-log"), "{sub}");
        assert!(sub.contains("-h, --help"), "{sub}");
        assert!(
            sub.contains(
                "Profielopties: --output, --fields, --jq, --provenance, … (zie t help opties)"
            ),
            "{sub}"
        );
        let options = help_of(&cmd, &[&"opties".to_string()], look).unwrap();
        assert!(options.contains("--audit-log <PAD>"), "{options}");
        assert!(options.contains("--dry-run"), "{options}");
        assert!(!options.contains("Opdrachten"), "{options}");
    }

    #[test]
    fn examples_and_exit_codes_wrap_where_they_can_still_be_read() {
        let text = "Voorbeelden:\n  t a 'LED verlichting en meer' --toelichting 'it'\\''s x'\n\n\
                    Afsluitcodes:\n    2  USAGE                  onbekend commando of onbekende optie\n";
        let narrow = wrapped(text, "t", 36);
        assert_eq!(
            narrow,
            "Voorbeelden:\n  t a 'LED verlichting en meer' \\\n    --toelichting 'it'\\''s x'\n\n\
             Afsluitcodes:\n    2  USAGE\n        onbekend commando of\n        onbekende optie\n"
        );
        let wide = wrapped(text, "t", 60);
        assert_eq!(
            wide,
            "Voorbeelden:\n  t a 'LED verlichting en meer' --toelichting 'it'\\''s x'\n\n\
             Afsluitcodes:\n    2  USAGE                  onbekend commando of onbekende\n\
             \x20                             optie\n"
        );
        assert_eq!(wrapped(text, "t", 100), text);
    }

    #[test]
    fn help_is_wrapped_to_the_width_and_coloured_only_when_asked() {
        let cmd = crate::run::cli::tests::built();
        for width in [40, 60, 80] {
            let text = shown(
                "t",
                &cmd,
                true,
                true,
                Look {
                    color: false,
                    width,
                },
            );
            for line in text.lines() {
                assert!(line.chars().count() <= width, "{width}: {line:?}");
            }
            assert!(!text.contains('\u{1b}'));
        }
        let coloured = shown(
            "t",
            &cmd,
            true,
            true,
            Look {
                color: true,
                width: 80,
            },
        );
        let green = STYLES.get_header().render().to_string();
        assert!(
            coloured.contains(&format!("{green}Gebruik:")),
            "{coloured:?}"
        );
        assert!(
            coloured.contains(&format!("{green}Profielopties:")),
            "{coloured:?}"
        );
    }
}
