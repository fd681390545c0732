//! Law text for people (issue 13.4, 13.5): `regeling artikel` in `--output
//! table` reads like the law at the terminal's width, and the help lists the
//! positionals in usage order. Bash completes below the first word (13.1).

use std::process::{Command, Stdio};

use test_support::{FakeServer, Mounts};

const TOOL: &str = env!("CARGO_BIN_EXE_koop-cli");

fn koop(home: &std::path::Path, fake: &FakeServer) -> Command {
    let mut cmd = Command::new(TOOL);
    cmd.env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .env("KOOP_AUDIT_LOG", home.join("audit.jsonl"))
        .env("KOOP_SRU_URL", fake.url("/koop"))
        .env("KOOP_REPOSITORY_URL", fake.url("/koop/repository"))
        .stdin(Stdio::null());
    cmd
}

fn fake() -> FakeServer {
    let router = test_support::koop::Koop::new();
    FakeServer::start(
        Mounts::new()
            .mount("/koop", move |r| router.route(r))
            .into_handler(),
    )
}

#[test]
fn an_article_in_a_table_reads_like_the_law() {
    let home = tempfile::tempdir().unwrap();
    let fake = fake();
    let out = koop(home.path(), &fake)
        .env("COLUMNS", "80")
        .args(["regeling", "artikel", "BWBR0041330", "5.15a", "-o", "table"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !text.contains('\u{fffd}'),
        "line breaks are not U+FFFD:\n{text}"
    );
    // Every line fits, but for a URL longer than its room: that stays whole (never cut).
    assert!(
        text.lines().all(|l| l.chars().count() <= 80
            || l.split_whitespace()
                .last()
                .is_some_and(|w| w.starts_with("http"))),
        "fits 80 columns:\n{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.ends_with("/xml/BWBR0041330_2026-01-01_0.xml")),
        "the toestand's URL whole:\n{text}"
    );
    // Each lid and each item on its own line, wrapped under its own text.
    let tekst: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("artikel.tekst"))
        .take_while(|l| !l.starts_with("artikel.wetten_url"))
        .collect();
    assert!(
        tekst[0].ends_with("1. Als artikel 5.15, eerste lid, van toepassing is, worden"),
        "{text}"
    );
    let item_a = tekst
        .iter()
        .position(|l| l.trim_start().starts_with("a. als degene"))
        .expect("item a");
    let indent = |l: &str| l.chars().take_while(|c| *c == ' ').count();
    assert_eq!(
        indent(tekst[item_a + 1]),
        indent(tekst[item_a]) + 3,
        "{text}"
    );
    assert!(tekst.iter().any(|l| {
        l.trim_start()
            .starts_with("2. Dit artikel is niet van toepassing als:")
    }));
}

#[test]
fn positionals_are_listed_in_usage_order() {
    let home = tempfile::tempdir().unwrap();
    let fake = fake();
    let out = koop(home.path(), &fake)
        .args(["regeling", "artikel", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("[OPTIES] <BWB_ID> <ARTIKEL>"), "{help}");
    let bwb = help.find("  <BWB_ID>").expect("BWB_ID listed");
    let artikel = help.find("  <ARTIKEL>").expect("ARTIKEL listed");
    assert!(bwb < artikel, "{help}");
}

#[test]
fn bash_completes_below_the_first_word_not_files() {
    let subcommands = test_support::cli::bash_completes(TOOL, &["koop-cli", "regeling", ""]);
    for sub in ["zoek", "toon", "artikel", "versies"] {
        assert!(subcommands.contains(&sub.to_string()), "{subcommands:?}");
    }
    assert_eq!(
        test_support::cli::bash_completes(TOOL, &["koop-cli", "regeling", "artikel", "--peil"]),
        ["--peildatum"]
    );
}

/// `koop-cli cache leeg` on a pseudo-terminal (`script` from util-linux, which `.ci/run`
/// installs): a Dutch line for people, where a pipe gets JSON (CACHE-3).
#[test]
fn cache_leeg_speaks_dutch_on_a_terminal() {
    let home = tempfile::tempdir().unwrap();
    let fake = fake();
    let warm = koop(home.path(), &fake)
        .args(["regeling", "artikel", "BWBR0041330", "5.15a"])
        .output()
        .unwrap();
    assert!(warm.status.success());
    let out = Command::new("script")
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", "/usr/bin:/bin")
        .env("SHELL", "/bin/sh")
        .env("TERM", "dumb")
        .args(["-qec", &format!("{TOOL} cache leeg"), "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    assert!(out.status.success(), "{text}");
    let dir = home.path().join(".cache/overheid-cli");
    assert!(
        text.starts_with("1 item verwijderd (")
            && text.contains(&format!("KiB) uit {}\n", dir.display())),
        "{text:?}"
    );
}
