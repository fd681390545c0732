//! Running one of the family's CLIs in integration tests and checking what it prints against
//! the profile.
//!
//! - [`Sandbox`]: a temporary `HOME` with its own audit log (and any directories the tool
//!   keeps state in), and commands of the tool that run in a clean environment.
//! - [`Run`]: the outcome of one invocation, with assertions for the profile's shapes (one
//!   compact JSON document on stdout, or exactly one error object on stderr).
//! - [`assert_valid`] and [`schema`]: validation against the published `spec/schemas/`.
//! - [`canonical`], [`sha256_hex`], [`compact_document`], [`keys`]: JSON helpers for the
//!   profile's digests and output checks.
//! - [`read_audit`]: the records of an audit log, each validated against its schema.
//! - [`CANARY`], [`CANARY_LEAKS`], [`assert_no_canary`], [`percent_encoded`]: a secret for
//!   scrubbing tests, and the check that no form of it leaked.
//! - [`check_peildatum`], [`check_kvk_nummer`]: the shared arguments behave alike in every tool.
//! - [`programs`]: the one list of the family's programs (`cargo metadata`); [`family_dir`]:
//!   where the family's other CLIs are, for tools that run them as children.
//! - [`check_discovery_budget`]: the discovery document stays small, its entries compact.
//! - [`assert_dutch_help`]: a program's `--help` has no English left.
//! - [`bash_completes`]: what bash's completion of a program offers, driven for real.

mod audit;
mod budget;
mod canary;
mod family;
mod json;
mod run;
mod sandbox;
mod schema;
mod shared_args;

pub use audit::read_audit;
pub use budget::{DISCOVERY_BUDGET, check_discovery_budget, check_discovery_within};
pub use canary::{
    CANARY, CANARY_2, CANARY_LEAKS, assert_no_canary, assert_no_form, echo_forms, percent_encoded,
};
pub use family::{family_dir, of_metadata, programs};
pub use json::{argv_of, canonical, compact_document, full_entry_words, keys, sha256_hex};
pub use run::{Run, discovery, run};
pub use sandbox::{Sandbox, cache_entries, forge_cache_entry};
pub use schema::{assert_valid, assert_valid_against, schema};
pub use shared_args::{check_kvk_nummer, check_peildatum};

/// Runs `program --help` and asserts that it is Dutch throughout: it has `Gebruik: <usage>` and
/// none of the words clap writes in English (issue 13.5, DISC-20).
pub fn assert_dutch_help(program: &str, usage: &str) {
    let out = std::process::Command::new(program)
        .arg("--help")
        .output()
        .expect("the program runs");
    assert!(out.status.success(), "{program} --help");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains(&format!("Gebruik: {usage}")), "{help}");
    let english: Vec<&str> = common::help::CLAP_ENGLISH
        .into_iter()
        .chain([
            "Usage:",
            "Options:",
            "Arguments:",
            "Print help",
            "Print version",
        ])
        .filter(|en| help.contains(en))
        .collect();
    assert!(english.is_empty(), "{english:?} in:\n{help}");
}

/// The section titles a family man page may have (`.SH`), all Dutch: clap_mangen's own are
/// English (NAME, SYNOPSIS, DESCRIPTION, OPTIONS, SUBCOMMANDS, EXTRA, VERSION, AUTHORS).
pub const DUTCH_MAN_SECTIONS: [&str; 8] = [
    "NAAM",
    "OVERZICHT",
    "BESCHRIJVING",
    "PROFIELOPTIES",
    "OPTIES",
    "OPDRACHTEN",
    "AFSLUITCODES",
    "VERSIE",
];

/// Runs `program man` and asserts that the page is Dutch where clap writes its own words: every
/// section title is one of [`DUTCH_MAN_SECTIONS`], and no usage placeholder or value list of
/// clap's is left in English (issue 29).
pub fn assert_dutch_man(program: &str) {
    let out = std::process::Command::new(program)
        .arg("man")
        .env_clear()
        .output()
        .expect("the program runs");
    assert!(out.status.success(), "{program} man");
    let page = String::from_utf8_lossy(&out.stdout);
    let titles: Vec<&str> = page
        .lines()
        .filter_map(|l| l.strip_prefix(".SH "))
        .map(|t| t.trim_matches('"'))
        .collect();
    assert!(titles.len() >= 5, "{program}: {titles:?}");
    for title in &titles {
        assert!(
            DUTCH_MAN_SECTIONS.contains(title),
            "{program} man: section {title:?} is not Dutch"
        );
    }
    let english: Vec<&str> = common::help::CLAP_ENGLISH
        .into_iter()
        .chain([
            "OPTIONS",
            "SUBCOMMAND",
            "<COMMAND>",
            "Print help",
            "Print version",
        ])
        .filter(|en| page.contains(en))
        .collect();
    assert!(english.is_empty(), "{program} man: {english:?}");
}

/// What bash completes for `words` (the last one the word being completed, the first the
/// program's name): the script of `program completions bash` is sourced, `COMP_WORDS` and
/// `COMP_CWORD` are set, and the function registered for the name is called as bash calls it;
/// the answer is `COMPREPLY` (issue 13.1, CONV-2).
pub fn bash_completes(program: &str, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let script = format!(
        r#"source <("$PROGRAM" completions bash)
COMP_WORDS=({words}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); COMPREPLY=()
f=$(complete -p "${{COMP_WORDS[0]}}" | sed -E 's/.*-F ([^ ]+).*/\1/')
"$f" "${{COMP_WORDS[0]}}" "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}""#,
        words = quoted.join(" ")
    );
    let out = std::process::Command::new("bash")
        .env_clear()
        .env("PROGRAM", program)
        .env("PATH", "/usr/bin:/bin")
        .args(["-c", &script])
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// A port on 127.0.0.1 that nothing listens on (bound, then released).
pub fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    drop(listener);
    port
}

/// `text` followed by one byte that is not UTF-8 (`0xff`): an environment value a tool must
/// refuse, never treat as unset (CONF-7).
#[cfg(unix)]
pub fn unreadable(text: &str) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStringExt;
    let mut bytes = text.as_bytes().to_vec();
    bytes.push(0xff);
    std::ffi::OsString::from_vec(bytes)
}
