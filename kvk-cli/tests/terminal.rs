//! People in a terminal (issue 13): completions driven through real shells,
//! "did you mean", help that teaches, problems as text on a real
//! pseudo-terminal (`script` from util-linux), `--jq`, and the spinner.
//! Pipes keep the JSON contract; these tests check both sides.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use test_support::FakeServer;

const TOOL: &str = env!("CARGO_BIN_EXE_kvk-cli");

/// Whether `program` runs here; a test that needs it skips visibly (`test_support::skip`).
/// CI installs bash, zsh, fish and util-linux (`.ci/run`) and allows no skip.
fn available(program: &str) -> bool {
    test_support::skip::program(program)
}

/// `kvk-cli` in a clean environment pointing at `base` with a key.
fn tool(home: &Path, base: &str) -> Command {
    let mut cmd = Command::new(TOOL);
    cmd.env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .env("KVK_AUDIT_LOG", home.join("audit.jsonl"))
        .env("KVK_API_BASE", base)
        .env("KVK_API_KEY", "sleutel-terminal")
        .stdin(Stdio::null());
    cmd
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(mut cmd: Command, args: &[&str]) -> Out {
    let out = cmd.args(args).output().expect("kvk-cli runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `kvk-cli ARGS` (a shell line after the tool's path) on a pseudo-terminal:
/// stdin, stdout and stderr are the terminal unless the line redirects them.
/// Returns everything the terminal showed and the exit code.
fn on_terminal(home: &Path, base: &str, line: &str, env: &[(&str, &str)]) -> (String, i32) {
    let mut cmd = Command::new("script");
    cmd.env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .env("SHELL", "/bin/sh")
        .env("TERM", "xterm-256color")
        .env("KVK_AUDIT_LOG", home.join("audit.jsonl"))
        .env("KVK_API_BASE", base)
        .env("KVK_API_KEY", "sleutel-terminal")
        .envs(env.iter().copied())
        .args(["-qec", &format!("{TOOL} {line}"), "/dev/null"])
        .stdin(Stdio::null());
    let out = cmd.output().expect("script runs");
    (
        String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"),
        out.status.code().unwrap_or(-1),
    )
}

fn home() -> tempfile::TempDir {
    tempfile::tempdir().expect("temporary home")
}

fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

// ---- 1. completions -------------------------------------------------------

fn bash_completes(words: &[&str]) -> Vec<String> {
    test_support::cli::bash_completes(TOOL, words)
}

#[test]
fn bash_completes_commands_options_and_values_at_every_depth() {
    if !available("bash") {
        return;
    }
    assert_eq!(bash_completes(&["kvk-cli", "basis"]), ["basisprofiel"]);
    let depth2 = bash_completes(&["kvk-cli", "basisprofiel", ""]);
    for sub in ["toon", "eigenaar", "hoofdvestiging", "vestigingen"] {
        assert!(depth2.contains(&sub.to_string()), "{depth2:?}");
    }
    let depth3 = bash_completes(&["kvk-cli", "basisprofiel", "hoofdvestiging", "--g"]);
    assert_eq!(depth3, ["--geo", "--geen-pager"]);
    assert_eq!(
        bash_completes(&["kvk-cli", "basisprofiel", "toon", "--out"]),
        ["--output"]
    );
    for words in [
        &["kvk-cli", "--output", ""][..],
        &["kvk-cli", "zoek", "--output", ""],
        &["kvk-cli", "basisprofiel", "toon", "--output", ""],
    ] {
        assert_eq!(
            bash_completes(words),
            ["json", "pretty", "table"],
            "{words:?}"
        );
    }
}

#[test]
fn fish_completes_below_the_first_word() {
    if !available("fish") {
        return;
    }
    let script = r#"source ("$TOOL" completions fish | psub)
complete -C "kvk-cli basisprofiel "
echo ---
complete -C "kvk-cli basisprofiel toon --output ""#;
    let out = Command::new("fish")
        .env_clear()
        .env("TOOL", TOOL)
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", home().path())
        .args(["-c", script])
        .output()
        .expect("fish runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let (subs, values) = text.split_once("---").expect("two answers");
    assert!(
        subs.lines().any(|l| l.starts_with("hoofdvestiging\t")),
        "{text}"
    );
    let values: Vec<&str> = values
        .lines()
        .filter_map(|l| l.split('\t').next())
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(values, ["json", "pretty", "table"], "{text}");
}

#[test]
fn zsh_and_fish_scripts_parse() {
    for (shell, flag) in [("zsh", "-n"), ("fish", "--no-execute")] {
        if !available(shell) {
            continue;
        }
        let home = home();
        let script = run(
            tool(home.path(), "http://127.0.0.1:9"),
            &["completions", shell],
        );
        assert_eq!(script.code, 0);
        let file = home.path().join(format!("kvk-cli.{shell}"));
        std::fs::write(&file, &script.stdout).unwrap();
        let status = Command::new(shell)
            .arg(flag)
            .arg(&file)
            .env("HOME", home.path())
            .status()
            .expect("shell runs");
        assert!(status.success(), "{shell} {flag} refused the script");
    }
}

// ---- 2. did you mean, help, bare tool ------------------------------------

#[test]
fn unknown_words_get_the_closest_valid_one_in_the_hint() {
    let home = home();
    for (args, suggestion) in [
        (&["basisprofile", "toon", "68750110"][..], "'basisprofiel'"),
        (&["zoek", "--feilds", "naam"], "'--fields'"),
        (&["zoek", "--output", "tabel"], "'table'"),
        (&["--help", "--jsn"], "'--json'"),
        (&["help", "basisprofil"], "'basisprofiel'"),
        // A name without its option: zoek takes no bare word.
        (&["zoek", "Donald"], "'--naam Donald'"),
        (&["zoek", "Test BV"], "'--naam \"Test BV\"'"),
    ] {
        let out = run(tool(home.path(), "http://127.0.0.1:9"), args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
        let problem = json(&out.stderr);
        let hint = problem["hint"].as_str().unwrap_or_default();
        assert!(
            hint.contains(&format!("bedoelt u {suggestion}?")),
            "{args:?}: {problem}"
        );
    }
}

#[test]
fn a_suggestion_is_a_visible_word_never_a_retired_one_or_what_was_typed() {
    let home = home();
    for (args, meant, never) in [
        // `zoeken` is the retired spelling of `zoek`, kept as a hidden alias.
        (&["zeok", "--naam", "x"][..], Some("'zoek'"), "'zoeken'"),
        (
            &["basisprofiel", "gett", "68750110"],
            Some("'toon'"),
            "'get'",
        ),
        (&["--json"], None, "'--json'"),
    ] {
        let out = run(tool(home.path(), "http://127.0.0.1:9"), args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        let problem = json(&out.stderr);
        let hint = problem["hint"].as_str().unwrap_or_default();
        assert!(!hint.contains(never), "{args:?}: {problem}");
        match meant {
            Some(meant) => assert!(
                hint.contains(&format!("bedoelt u {meant}?")),
                "{args:?}: {problem}"
            ),
            None => assert!(!hint.contains("bedoelt u"), "{args:?}: {problem}"),
        }
    }
}

#[test]
fn a_bare_tool_shows_its_help_on_stderr_with_exit_2() {
    let home = home();
    let out = run(tool(home.path(), "http://127.0.0.1:9"), &[]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("Gebruik: kvk-cli [OPTIES] <OPDRACHT>"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("basisprofiel"), "{}", out.stderr);
}

#[test]
fn help_command_works_like_clap_and_every_help_shows_its_examples() {
    let home = home();
    let discovery = json(&run(tool(home.path(), "x"), &["--help", "--json"]).stdout);
    for entry in discovery["tools"].as_array().expect("tools") {
        let argv: Vec<&str> = entry["_meta"]["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        let mut args = vec!["help"];
        args.extend(&argv);
        let via_help = run(tool(home.path(), "x"), &args);
        assert_eq!(via_help.code, 0, "{args:?}: {}", via_help.stderr);
        let mut flag = argv.clone();
        flag.push("--help");
        let via_flag = run(tool(home.path(), "x"), &flag);
        assert_eq!(via_help.stdout, via_flag.stdout, "{argv:?}");
        assert!(via_help.stdout.contains("Voorbeelden:"), "{argv:?}");
        // The examples are in the command's full entry (DISC-17).
        let mut json = argv.clone();
        json.extend(["--help", "--json"]);
        let full: serde_json::Value =
            serde_json::from_str(&run(tool(home.path(), "x"), &json).stdout).expect("JSON");
        for example in full["_meta"]["examples"].as_array().expect("examples") {
            let words: Vec<String> = example
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_str().unwrap())
                .map(|w| {
                    if w.contains(' ') {
                        format!("'{w}'")
                    } else {
                        w.to_string()
                    }
                })
                .collect();
            let line = format!("kvk-cli {}", words.join(" "));
            assert!(
                via_help.stdout.contains(&line),
                "{line} missing:\n{}",
                via_help.stdout
            );
        }
        // Read-only commands: nothing to confirm (rule DISC-20).
        assert!(!via_help.stdout.contains("--confirm"), "{argv:?}");
        // Dutch throughout.
        for english in ["[OPTIONS]", "[possible values", "[default:", "Usage:"] {
            assert!(!via_help.stdout.contains(english), "{english} in {argv:?}");
        }
    }
    let root = run(tool(home.path(), "x"), &["help"]);
    assert_eq!(root.code, 0);
    assert!(root.stdout.contains("Afsluitcodes:"), "{}", root.stdout);
    assert!(root.stdout.contains("124  TIMEOUT"), "{}", root.stdout);
}

#[test]
fn man_prints_a_roff_page_outside_discovery() {
    let home = home();
    let page = run(tool(home.path(), "x"), &["man"]);
    assert_eq!(page.code, 0, "{}", page.stderr);
    assert!(
        page.stdout.starts_with(".ie") || page.stdout.contains(".TH kvk-cli"),
        "{}",
        &page.stdout[..200]
    );
    for section in [
        ".SH NAAM",
        ".SH OVERZICHT",
        ".SH OPTIES",
        ".SH OPDRACHTEN",
        ".SS \"kvk\\-cli basisprofiel toon\"",
        "\\fB\\-\\-geo\\fR",
        "Mogelijke waarden:",
    ] {
        assert!(page.stdout.contains(section), "{section}");
    }
    // One page holds every command: no reference to a page the tool cannot write, no English.
    assert!(
        !page.stdout.contains("kvk\\-cli\\-"),
        "a dangling reference"
    );
    assert!(!page.stdout.contains("Possible values"));
    let discovery = run(tool(home.path(), "x"), &["--help", "--json"]).stdout;
    for utility in ["\"man", "\"help", "\"completions"] {
        assert!(
            !discovery.contains(&format!("{utility}\"")),
            "{utility} in discovery"
        );
    }
}

// ---- 3. problems for people ---------------------------------------------

#[test]
fn on_a_terminal_a_problem_is_text_with_colour_unless_refused() {
    if !available("script") {
        return;
    }
    let home = home();
    let (shown, code) = on_terminal(home.path(), "http://127.0.0.1:9", "basisprofile toon", &[]);
    assert_eq!(code, 2, "{shown}");
    assert!(!shown.contains("{\"type\""), "{shown}");
    assert!(shown.contains("\x1b["), "colour on a terminal: {shown:?}");
    let plain = strip_ansi(&shown);
    for part in [
        "fout: Ongeldig gebruik",
        "onbekend commando: basisprofile",
        "hint: bedoelt u 'basisprofiel'?",
        "afsluitcode 2 (USAGE)",
    ] {
        assert!(plain.contains(part), "{part} missing: {plain}");
    }
    for refusal in [&[("NO_COLOR", "1")][..], &[("TERM", "dumb")]] {
        let (shown, _) = on_terminal(
            home.path(),
            "http://127.0.0.1:9",
            "basisprofile toon",
            refusal,
        );
        assert!(!shown.contains('\x1b'), "{refusal:?}: {shown:?}");
        assert!(shown.contains("fout: Ongeldig gebruik"), "{shown}");
    }
    let (shown, _) = on_terminal(
        home.path(),
        "http://127.0.0.1:9",
        "basisprofile toon --no-color",
        &[],
    );
    assert!(!shown.contains('\x1b'), "{shown:?}");
    // Data piped on, the person still reads the error.
    let (shown, _) = on_terminal(
        home.path(),
        "http://127.0.0.1:9",
        "zoek --naam x > /dev/null",
        &[],
    );
    assert!(
        strip_ansi(&shown).contains("fout: Bron niet bereikbaar"),
        "{shown}"
    );
    // `--output json` asks for the machine form, terminal or not.
    let (shown, code) = on_terminal(
        home.path(),
        "http://127.0.0.1:9",
        "zoek --naam x --output json",
        &[],
    );
    assert_eq!(code, 69);
    assert_eq!(json(&shown)["exit_code"], 69, "{shown}");
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn a_timeout_names_its_limit_and_origin() {
    let fake = FakeServer::start(|r| test_support::kvk::kvk(r).delay(Duration::from_secs(3)));
    let home = home();
    let out = run(
        tool(home.path(), &fake.base_url()),
        &["basisprofiel", "toon", "68750110", "--timeout", "0.5"],
    );
    assert_eq!(out.code, 124, "{}", out.stderr);
    let problem = json(&out.stderr);
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("tijdslimiet 0.5 s, gezet met --timeout"),
        "{detail}"
    );
}

// ---- 7. --jq ---------------------------------------------------------------

#[test]
fn jq_prints_strings_raw_and_the_rest_compact_one_per_line() {
    let fake = FakeServer::start(test_support::kvk::kvk);
    let home = home();
    let base = fake.base_url();
    let whole = json(
        &run(
            tool(home.path(), &base),
            &["basisprofiel", "toon", "68750110"],
        )
        .stdout,
    );
    let out = run(
        tool(home.path(), &base),
        &[
            "basisprofiel",
            "toon",
            "68750110",
            "--jq",
            ".naam, .kvkNummer, {n: .naam}",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let naam = whole["naam"].as_str().unwrap();
    let expected = format!(
        "{naam}\n{}\n{}\n",
        whole["kvkNummer"].as_str().unwrap(),
        serde_json::json!({"n": naam})
    );
    assert_eq!(out.stdout, expected);
    // After --fields: only the selected fields reach the filter.
    let out = run(
        tool(home.path(), &base),
        &[
            "basisprofiel",
            "toon",
            "68750110",
            "--fields",
            "naam",
            "--jq",
            "keys",
        ],
    );
    assert_eq!(out.stdout, "[\"naam\"]\n", "{}", out.stderr);
}

#[test]
fn a_bad_jq_expression_is_exit_2_before_any_request() {
    let fake = FakeServer::start(test_support::kvk::kvk);
    let home = home();
    let out = run(
        tool(home.path(), &fake.base_url()),
        &["basisprofiel", "toon", "68750110", "--jq", ".naam | ("],
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stdout.is_empty());
    assert!(
        json(&out.stderr)["detail"]
            .as_str()
            .unwrap()
            .contains("--jq")
    );
    assert!(
        fake.requests().is_empty(),
        "no request for a bad expression"
    );
    let discovery = json(&run(tool(home.path(), "x"), &["--help", "--json"]).stdout);
    assert!(
        discovery["global_options"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["name"] == "--jq"),
        "discovery lists --jq"
    );
}

#[test]
fn jq_beside_output_table_is_a_usage_error_not_silently_ignored() {
    let fake = FakeServer::start(test_support::kvk::kvk);
    let home = home();
    let out = run(
        tool(home.path(), &fake.base_url()),
        &[
            "basisprofiel",
            "toon",
            "68750110",
            "--jq",
            ".naam",
            "-o",
            "table",
        ],
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stdout.is_empty());
    let detail = json(&out.stderr)["detail"].as_str().unwrap().to_string();
    assert!(
        detail.contains("--jq") && detail.contains("table"),
        "{detail}"
    );
    assert!(fake.requests().is_empty(), "refused before any request");
}

// ---- 8. spinner ------------------------------------------------------------

#[test]
fn a_slow_call_shows_a_spinner_on_a_terminal_only() {
    if !available("script") {
        return;
    }
    let fake = FakeServer::start(|r| test_support::kvk::kvk(r).delay(Duration::from_millis(1800)));
    let home = home();
    let base = fake.base_url();
    let (shown, code) = on_terminal(
        home.path(),
        &base,
        "basisprofiel toon 68750110 -o json",
        &[],
    );
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("wachten op 127.0.0.1…"), "{shown:?}");
    // Cleared before the data: the document starts after the last erase.
    let data = shown.rsplit("\x1b[2K").next().unwrap_or(&shown);
    assert!(
        json(data.trim_start_matches('\r'))["kvkNummer"] == "68750110",
        "{shown:?}"
    );
    let (shown, _) = on_terminal(
        home.path(),
        &base,
        "basisprofiel toon 68750110 -o json --quiet",
        &[],
    );
    assert!(!shown.contains("wachten op"), "--quiet: {shown:?}");
    let piped = run(
        tool(home.path(), &base),
        &["basisprofiel", "toon", "68750110"],
    );
    assert_eq!(piped.code, 0);
    assert!(
        piped.stderr.is_empty(),
        "nothing in a pipe: {:?}",
        piped.stderr
    );
    // A quick call shows nothing.
    let quick = FakeServer::start(test_support::kvk::kvk);
    let (shown, _) = on_terminal(
        home.path(),
        &quick.base_url(),
        "basisprofiel toon 68750110 -o json",
        &[],
    );
    assert!(!shown.contains("wachten op"), "{shown:?}");
}

// ---- 4. tables fit the terminal --------------------------------------------

#[test]
fn a_table_fits_the_width_of_the_terminal() {
    if !available("script") {
        return;
    }
    let fake = FakeServer::start(test_support::kvk::kvk);
    let home = home();
    let base = fake.base_url();
    let args = ["basisprofiel", "toon", "68750110", "-o", "table"];
    let piped = run(tool(home.path(), &base), &args);
    assert!(
        piped.stdout.lines().any(|l| l.chars().count() > 60),
        "wide enough to test"
    );
    let (shown, code) = {
        let line = format!("stty rows 24 cols 60; {TOOL} {}", args.join(" "));
        let out = Command::new("script")
            .env_clear()
            .env("HOME", home.path())
            .env("PATH", "/usr/bin:/bin")
            .env("SHELL", "/bin/sh")
            .env("TERM", "dumb")
            // 24 rows may not hold the table: no pager waiting for a key here.
            .env("OVERHEID_PAGER", "cat")
            .env("KVK_AUDIT_LOG", home.path().join("audit.jsonl"))
            .env("KVK_API_BASE", &base)
            .env("KVK_API_KEY", "sleutel-terminal")
            .args(["-qec", &line, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .expect("script runs");
        (
            String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"),
            out.status.code(),
        )
    };
    assert_eq!(code, Some(0), "{shown}");
    assert!(shown.contains("naam"), "{shown}");
    let shown = strip_ansi(&shown);
    // A URL or a key longer than its room stays whole (never cut): a line of its own, or a
    // URL after its label. Every other line fits.
    let fits = |line: &str, width: usize| {
        line.chars().count() <= width
            || !line.trim().contains(' ')
            || line
                .split_whitespace()
                .last()
                .is_some_and(|w| w.starts_with("http"))
    };
    let long: Vec<&str> = shown.lines().filter(|l| !fits(l, 60)).collect();
    assert!(long.is_empty(), "{long:#?}");
    // COLUMNS goes first.
    let narrow = run(
        {
            let mut cmd = tool(home.path(), &base);
            cmd.env("COLUMNS", "50");
            cmd
        },
        &args,
    );
    assert!(
        narrow.stdout.lines().all(|l| fits(l, 50)),
        "{}",
        narrow.stdout
    );
}

/// OUT-11: bidi controls, line separators, CR and other control characters in a source's data
/// are shown escaped on a terminal, never raw: in a table and in a problem's text.
#[test]
fn bidi_controls_and_separators_from_data_are_escaped_on_a_terminal() {
    if !available("script") {
        return;
    }
    const HOSTILE: &str = "Bouw\u{202E}fdp.exe\u{2069} BV\u{2028}regel\rterug\u{1b}]0;titel\u{7}";
    let fake = FakeServer::start(|request| {
        if request.path.contains("basisprofielen") {
            let mut body = test_support::kvk::kvk(request)
                .body_json()
                .expect("a profile");
            body["naam"] = HOSTILE.into();
            return test_support::Reply::json(200, &body);
        }
        test_support::Reply::json(
            400,
            &serde_json::json!({"fout": [{"code": "IPD0001", "omschrijving": HOSTILE}]}),
        )
    });
    let home = home();
    let base = fake.base_url();
    for line in [
        "basisprofiel toon 68750110 -o table",
        "naamgeving toon 68750110",
    ] {
        let (shown, _) = on_terminal(home.path(), &base, line, &[]);
        for raw in ['\u{202E}', '\u{2069}', '\u{2028}', '\r', '\u{7}'] {
            assert!(!shown.contains(raw), "{line}: {raw:?} raw in {shown:?}");
        }
        assert!(!shown.contains("\u{1b}]0;"), "{line}: {shown:?}");
        assert!(shown.contains("\\u{202E}"), "{line}: {shown:?}");
    }
}

// ---- 7. a pager for long output on a terminal (CONV-6) ---------------------

/// `kvk-cli LINE` on a pseudo-terminal of `rows` rows and 80 columns, with a
/// fake pager that records its calls in `$HOME/pager.log` and what it was
/// given in `$HOME/paged.txt`.
fn paged_terminal(
    home: &Path,
    base: &str,
    rows: u16,
    line: &str,
    env: &[(&str, &str)],
) -> (String, i32) {
    let pager = home.join("pager.sh");
    if !pager.exists() {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(
            &pager,
            "#!/bin/sh\necho \"$@\" >> \"$HOME/pager.log\"\ncat > \"$HOME/paged.txt\"\n",
        )
        .expect("pager written");
        std::fs::set_permissions(&pager, std::fs::Permissions::from_mode(0o755))
            .expect("pager executable");
    }
    let line = format!("stty rows {rows} cols 80; {TOOL} {line}");
    let out = Command::new("script")
        .env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .env("SHELL", "/bin/sh")
        .env("TERM", "xterm-256color")
        .env("OVERHEID_PAGER", format!("{} --fake", pager.display()))
        .env("KVK_AUDIT_LOG", home.join("audit.jsonl"))
        .env("KVK_API_BASE", base)
        .env("KVK_API_KEY", "sleutel-terminal")
        .envs(env.iter().copied())
        .args(["-qec", &line, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    (
        String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"),
        out.status.code().unwrap_or(-1),
    )
}

/// How often the fake pager ran, and forget it.
fn pager_calls(home: &Path) -> usize {
    let log = home.join("pager.log");
    let calls = std::fs::read_to_string(&log).map_or(0, |l| l.lines().count());
    let _ = std::fs::remove_file(log);
    calls
}

#[test]
fn long_output_on_a_terminal_goes_through_the_pager_never_in_a_pipe() {
    if !available("script") {
        return;
    }
    let fake = FakeServer::start(test_support::kvk::kvk);
    let home = home();
    let base = fake.base_url();
    let table = "basisprofiel toon 68750110 -o table";
    let piped = run(
        tool(home.path(), &base),
        &table.split(' ').collect::<Vec<_>>(),
    );
    assert!(piped.stdout.lines().count() > 10, "long enough to test");

    // Longer than the terminal: the pager gets the data, with its own arguments.
    let (shown, code) = paged_terminal(home.path(), &base, 10, table, &[]);
    assert_eq!(code, 0, "{shown}");
    assert_eq!(pager_calls(home.path()), 1, "{shown}");
    let paged = std::fs::read_to_string(home.path().join("paged.txt")).expect("paged");
    assert!(paged.contains("68750110"), "{paged}");
    assert!(
        !shown.contains("68750110"),
        "only the pager shows it: {shown}"
    );
    assert!(
        std::fs::read_to_string(home.path().join("audit.jsonl")).is_ok_and(|log| !log.is_empty()),
        "the call is audited as always"
    );
    // `--output pretty` too, and the help.
    paged_terminal(
        home.path(),
        &base,
        10,
        "basisprofiel toon 68750110 -o pretty",
        &[],
    );
    assert_eq!(pager_calls(home.path()), 1, "pretty");
    paged_terminal(home.path(), &base, 10, "--help", &[]);
    assert_eq!(pager_calls(home.path()), 1, "help");

    // Never: with --geen-pager, in a pipe, for --output json, when it fits.
    let (shown, code) = paged_terminal(
        home.path(),
        &base,
        10,
        &format!("{table} --geen-pager"),
        &[],
    );
    assert_eq!((code, pager_calls(home.path())), (0, 0), "--geen-pager");
    assert!(shown.contains("68750110"), "{shown}");
    let (shown, code) = paged_terminal(home.path(), &base, 10, &format!("{table} | cat"), &[]);
    assert_eq!((code, pager_calls(home.path())), (0, 0), "a pipe");
    assert!(shown.contains("68750110"), "{shown}");
    paged_terminal(
        home.path(),
        &base,
        10,
        "basisprofiel toon 68750110 -o json",
        &[],
    );
    assert_eq!(pager_calls(home.path()), 0, "json");
    let (shown, _) = paged_terminal(home.path(), &base, 200, table, &[]);
    assert_eq!(pager_calls(home.path()), 0, "fits");
    assert!(shown.contains("68750110"), "{shown}");
    let piped = run(
        {
            let mut cmd = tool(home.path(), &base);
            cmd.env("OVERHEID_PAGER", home.path().join("pager.sh"));
            cmd
        },
        &["basisprofiel", "toon", "68750110", "-o", "table"],
    );
    assert_eq!(
        (piped.code, pager_calls(home.path())),
        (0, 0),
        "no terminal"
    );

    // PAGER when OVERHEID_PAGER is not set.
    let pager = home.path().join("pager.sh");
    let pager = pager.to_str().expect("utf-8 path");
    paged_terminal(
        home.path(),
        &base,
        10,
        table,
        &[("OVERHEID_PAGER", ""), ("PAGER", pager)],
    );
    assert_eq!(pager_calls(home.path()), 1, "PAGER");

    // A pager that cannot be started: the data is printed directly.
    let (shown, code) = paged_terminal(
        home.path(),
        &base,
        10,
        table,
        &[("OVERHEID_PAGER", "/bestaat/niet -R")],
    );
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("68750110"), "{shown}");
}

// ---- help at a real terminal ----------------------------------------------

/// The words of `text` without escape codes and without the ` \` an example wraps with.
fn words_of(text: &str) -> Vec<String> {
    strip_ansi(text)
        .split_whitespace()
        .filter(|w| *w != "\\")
        .map(str::to_string)
        .collect()
}

#[test]
fn help_is_wrapped_to_the_terminal_at_word_boundaries_with_coloured_headings() {
    if !available("script") {
        return;
    }
    let home = home();
    for line in [
        "--help",
        "zoek --help",
        "help opties",
        "basisprofiel toon -h",
    ] {
        let (shown, code) = paged_terminal(home.path(), "x", 200, line, &[]);
        assert_eq!(code, 0, "{line}: {shown}");
        let plain = strip_ansi(&shown);
        for row in plain.lines() {
            let columns = unicode_width::UnicodeWidthStr::width(row);
            assert!(columns <= 80, "{line}: {columns} columns: {row:?}");
        }
        // The same words as unwrapped help in a pipe: none was broken in two.
        let mut args: Vec<&str> = line.split(' ').collect();
        let mut cmd = tool(home.path(), "x");
        cmd.env("COLUMNS", "100");
        let wide = run(cmd, &args);
        assert_eq!(words_of(&shown), words_of(&wide.stdout), "{line}");
        assert!(!wide.stdout.contains('\x1b'), "no colour in a pipe");
        // The headings in colour on the terminal, none under NO_COLOR or --no-color.
        assert!(
            shown.contains("\x1b[1m\x1b[32mGebruik:") || line == "help opties",
            "{shown:?}"
        );
        assert!(shown.contains("\x1b[1m\x1b[32m"), "{line}: {shown:?}");
        let (plain_shown, _) = paged_terminal(home.path(), "x", 200, line, &[("NO_COLOR", "1")]);
        assert!(!plain_shown.contains('\x1b'), "{line} under NO_COLOR");
        args.push("--no-color");
        let (plain_shown, _) = paged_terminal(home.path(), "x", 200, &args.join(" "), &[]);
        assert!(!plain_shown.contains('\x1b'), "{line} --no-color");
    }
}

#[test]
fn a_command_names_the_profile_options_in_one_line_the_root_and_help_opties_in_full() {
    let home = home();
    let root = run(tool(home.path(), "x"), &["--help"]).stdout;
    let options = run(tool(home.path(), "x"), &["help", "opties"]).stdout;
    let zoek = run(tool(home.path(), "x"), &["zoek", "--help"]).stdout;
    for full in [&root, &options] {
        for option in [
            "--output <FORMAAT>",
            "--audit-log <PAD>",
            "--timeout <SECONDEN>",
            "--geen-pager",
        ] {
            assert!(full.contains(option), "{option}:\n{full}");
        }
    }
    for option in ["--audit-log", "--timeout", "--geen-pager", "--no-color"] {
        assert!(!zoek.contains(option), "{option} in zoek --help:\n{zoek}");
    }
    let named: Vec<&str> = zoek
        .lines()
        .filter(|l| l.starts_with("Profielopties"))
        .collect();
    assert_eq!(
        named,
        ["Profielopties: --output, --fields, --jq, --provenance, … (zie kvk-cli help opties)"]
    );
    assert!(zoek.lines().count() < 65, "{}", zoek.lines().count());
    // Still accepted everywhere, and offered by the completion and the suggestions.
    let typo = run(
        tool(home.path(), "x"),
        &["zoek", "--naam", "x", "--time-out", "3"],
    );
    assert!(typo.stderr.contains("--timeout"), "{}", typo.stderr);
}

// ---- 9. Ctrl-C --------------------------------------------------------------

/// The lines a terminal shows after `bytes`: carriage returns, erased lines (`ESC [2K`) and
/// colour codes played as a terminal plays them, so text that was cleared is gone.
fn screen(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = vec![Vec::<char>::new()];
    let mut cursor = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let line = lines.last_mut().expect("a line");
        match c {
            '\r' => cursor = 0,
            '\n' => {
                lines.push(Vec::new());
                cursor = 0;
            }
            '\x1b' => {
                // CSI: parameters up to the final byte.
                if chars.next_if_eq(&'[').is_none() {
                    continue;
                }
                let mut params = String::new();
                for p in chars.by_ref() {
                    if p.is_ascii_alphabetic() || p == '~' {
                        match (p, params.as_str()) {
                            ('K', "2") => line.clear(),
                            ('K', "" | "0") => line.truncate(cursor),
                            _ => {}
                        }
                        break;
                    }
                    params.push(p);
                }
            }
            c if c.is_control() => {}
            c => {
                if cursor < line.len() {
                    line[cursor] = c;
                } else {
                    line.resize(cursor, ' ');
                    line.push(c);
                }
                cursor += 1;
            }
        }
    }
    lines
        .into_iter()
        .map(|l| l.into_iter().collect::<String>().trim_end().to_string())
        .collect()
}

/// EXIT-11: Ctrl-C typed at a real terminal while the spinner waits on a slow source ends the
/// call at once with exit 130, the spinner line cleared, and one audit record that says the call
/// was interrupted.
#[test]
fn ctrl_c_while_waiting_clears_the_spinner_audits_and_exits_130() {
    use std::io::{Read as _, Write as _};
    use std::sync::{Arc, Mutex};
    use std::time::Instant;

    if !available("script") {
        return;
    }
    let fake = FakeServer::start(|r| test_support::kvk::kvk(r).delay(Duration::from_secs(20)));
    let home = home();
    let mut child = Command::new("script")
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", "/usr/bin:/bin")
        .env("SHELL", "/bin/sh")
        .env("TERM", "xterm-256color")
        .env("KVK_AUDIT_LOG", home.path().join("audit.jsonl"))
        .env("KVK_API_BASE", fake.base_url())
        .env("KVK_API_KEY", "sleutel-terminal")
        .args([
            "-qfec",
            &format!("{TOOL} basisprofiel toon 68750110"),
            "/dev/null",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script runs");
    let shown = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = {
        let shown = Arc::clone(&shown);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                shown.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        })
    };
    let spinning = |shown: &[u8]| String::from_utf8_lossy(shown).contains("wachten op 127.0.0.1");
    let started = Instant::now();
    while !spinning(&shown.lock().unwrap()) {
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "no spinner: {:?}",
            String::from_utf8_lossy(&shown.lock().unwrap())
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // Ctrl-C as a person types it: the terminal turns it into SIGINT for the foreground group.
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"\x03").expect("Ctrl-C typed");
    stdin.flush().expect("typed");
    let typed = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("script") {
            break status;
        }
        assert!(
            typed.elapsed() < Duration::from_secs(5),
            "still running after Ctrl-C: {:?}",
            String::from_utf8_lossy(&shown.lock().unwrap())
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    reader.join().expect("reader");
    let shown = shown.lock().unwrap().clone();
    let lines = screen(&shown);
    assert_eq!(status.code(), Some(130), "{lines:#?}");
    // The spinner's text ends in an ellipsis (`wachten op 127.0.0.1… (1s)`); the error's does not.
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("127.0.0.1…") || l.contains("^C")),
        "spinner text left on the screen: {lines:#?}"
    );
    let text = lines.join("\n");
    assert!(text.contains("Onderbroken"), "{text}");
    assert!(text.contains("130 (INTERRUPTED)"), "{text}");

    let records = test_support::cli::read_audit(&home.path().join("audit.jsonl"));
    assert_eq!(records.len(), 1, "{records:#?}");
    let record = &records[0];
    assert_eq!(record["exit_code"], 130, "{record}");
    assert_eq!(record["status"], "UNSET", "{record}");
    assert_eq!(
        record["attributes"]["error.code"], "ONDERBROKEN",
        "{record}"
    );
    assert_eq!(
        record["attributes"]["dpl.core.data_subject_id"], "68750110",
        "{record}"
    );
}
