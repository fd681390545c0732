//! Proposals (issue 30): `rapportage voorstel` records and sends nothing; a person approves or
//! declines at a real pseudo-terminal (`script`, util-linux); `rapportage indienen --voorstel`
//! files an approved proposal once, and refuses an open, declined, expired, unknown or other
//! company's one with its registered code, filing nothing. The store is SQLite in
//! `RVO_DATA_DIR` (0600 in a 0700 directory; a directory others can write is refused), or the
//! PostgreSQL of `OVERHEID_TEST_POSTGRES_URL` (`tests/postgres/run.sh`): there 20 concurrent
//! applies, an applier killed midway and retried, and two "machines" (data directories) sharing
//! one database each file once.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use crate::support::{
    REPORT, Run, Sandbox, assert_valid_against, output_schema, run, unique_report,
};

fn propose(sandbox: &Sandbox, env: &[(&str, &str)]) -> Value {
    propose_report(sandbox, &REPORT, env)
}

fn propose_report(sandbox: &Sandbox, report: &[&str], env: &[(&str, &str)]) -> Value {
    let mut cmd = sandbox.cmd();
    cmd.envs(env.iter().copied());
    let out = run(cmd, ["rapportage", "voorstel"].iter().chain(report.iter()));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let proposal = out.json();
    assert_valid_against(&output_schema("rapportage_voorstel"), &proposal, "voorstel");
    proposal
}

fn apply(sandbox: &Sandbox, id: &str, env: &[(&str, &str)]) -> Run {
    let mut cmd = sandbox.cmd();
    cmd.envs(env.iter().copied());
    run(cmd, ["rapportage", "indienen", "--voorstel", id])
}

fn show(sandbox: &Sandbox, id: &str, env: &[(&str, &str)]) -> Value {
    let mut cmd = sandbox.cmd();
    cmd.envs(env.iter().copied());
    let out = run(cmd, ["voorstel", "toon", id]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.json()
}

/// Whether `script` (util-linux) is here; a test that needs it skips visibly
/// (`test_support::skip`). `.ci/run` installs it and allows no skip.
fn have_script() -> bool {
    test_support::skip::program("script")
}

/// `rvo-cli voorstel VERB ID` on a real pseudo-terminal, typing `typed` when asked.
fn at_terminal(
    sandbox: &Sandbox,
    verb: &str,
    id: &str,
    typed: &str,
    env: &[(&str, &str)],
) -> (i32, String) {
    let line = format!(
        "{} voorstel {verb} {id} --timeout 30 --output json",
        env!("CARGO_BIN_EXE_rvo-cli")
    );
    let mut child = sandbox
        .process_of("/usr/bin/script", &["-qec", &line, "/dev/null"])
        .env("SHELL", "/bin/sh")
        .env("TERM", "xterm")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script runs");
    let mut stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    // A program that ended early closed the pipe; its screen says why.
    let _ = writeln!(stdin, "{typed}");
    std::thread::sleep(Duration::from_millis(300));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"),
    )
}

/// The proposal JSON a terminal decision printed last.
fn decided(screen: &str) -> Value {
    let line = screen
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON on the terminal: {screen}"));
    serde_json::from_str(line).unwrap()
}

fn approve(sandbox: &Sandbox, proposal: &Value, env: &[(&str, &str)]) {
    let id = proposal["id"].as_str().unwrap();
    let digest = proposal["plan_digest"].as_str().unwrap();
    let (code, screen) = at_terminal(sandbox, "goedkeuren", id, &digest[..8], env);
    assert_eq!(code, 0, "{screen}");
    assert!(
        screen.contains(digest),
        "the plan digest is shown: {screen}"
    );
    let approved = decided(&screen);
    assert_eq!(approved["status"], "goedgekeurd", "{screen}");
    assert_eq!(approved["beslissing"]["door"]["methode"], "terminal");
    assert!(
        approved["beslissing"]["door"]["subject"]
            .as_str()
            .unwrap()
            .starts_with("unix:")
    );
    assert_eq!(approved["beslissing"]["digest"], proposal["plan_digest"]);
}

/// A sandbox with one approved proposal (approved at a pseudo-terminal), or `None` without
/// `script`.
fn approved_proposal() -> Option<(Sandbox, Value)> {
    if !have_script() {
        return None;
    }
    let sandbox = Sandbox::new();
    let proposal = propose(&sandbox, &[]);
    approve(&sandbox, &proposal, &[]);
    Some((sandbox, proposal))
}

#[test]
fn a_proposal_is_recorded_once_and_files_nothing() {
    let sandbox = Sandbox::new();
    let first = propose(&sandbox, &[]);
    assert_eq!(first["status"], "open");
    assert_eq!(first["nieuw"], true);
    assert_eq!(first["opdracht"], "rvo-cli rapportage indienen");
    assert_eq!(first["plan"]["plan_digest"], first["plan_digest"]);
    assert!(
        first["goedkeuren"]
            .as_str()
            .unwrap()
            .ends_with(first["id"].as_str().unwrap())
    );
    let again = propose(&sandbox, &[]);
    assert_eq!(
        (again["id"].clone(), again["nieuw"].clone()),
        (first["id"].clone(), false.into())
    );
    sandbox.assert_store(0);
    // The page, where one is configured.
    let with_page = propose(
        &sandbox,
        &[("OVERHEID_GOEDKEURING_URL", "https://mcp.example.nl/")],
    );
    assert_eq!(
        with_page["goedkeuring_url"],
        format!(
            "https://mcp.example.nl/voorstellen/{}",
            first["id"].as_str().unwrap()
        )
    );
    // The database file is the user's alone.
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&sandbox.data_dir()), 0o700);
    assert_eq!(
        mode(&sandbox.data_dir().join(overheid_records::DATABASE_FILE)),
        0o600
    );
    // A dry run records nothing.
    let dry = sandbox.run([
        "rapportage",
        "voorstel",
        "--dry-run",
        "68750110",
        "EBR-2027",
        "warmtepomp",
    ]);
    assert_eq!(dry.code, 0);
    let listed = sandbox
        .run(["voorstel", "lijst", "--output", "json"])
        .json();
    assert_valid_against(&output_schema("voorstel_lijst"), &listed, "voorstel lijst");
    assert_eq!(listed["aantal"], 1);
}

/// Who proposed is recorded: the operating-system user running the CLI, or the person the
/// calling party names in OVERHEID_FOREIGN_USER (over MCP the session's subject). The same
/// input gives back the proposal with its first proposer.
#[test]
fn the_proposer_is_recorded() {
    let sandbox = Sandbox::new();
    let by_os_user = propose(&sandbox, &[]);
    let proposer = &by_os_user["voorgesteld_door"];
    assert_eq!(proposer["methode"], "unix", "{by_os_user}");
    let uid = std::process::Command::new("id").arg("-u").output().unwrap();
    let uid = String::from_utf8_lossy(&uid.stdout).trim().to_string();
    assert!(
        proposer["subject"]
            .as_str()
            .unwrap()
            .starts_with(&format!("unix:{uid}@")),
        "{proposer}"
    );
    let again = propose(&sandbox, &[("OVERHEID_FOREIGN_USER", "anna")]);
    assert_eq!(again["id"], by_os_user["id"]);
    assert_eq!(
        again["voorgesteld_door"], *proposer,
        "the first proposer stays"
    );

    let report = unique_report("proposer");
    let report: Vec<&str> = report.iter().map(String::as_str).collect();
    let by_caller = propose_report(&sandbox, &report, &[("OVERHEID_FOREIGN_USER", "anna")]);
    assert_eq!(
        by_caller["voorgesteld_door"],
        serde_json::json!({"subject": "anna", "naam": "anna", "methode": "caller"})
    );
    let id = by_caller["id"].as_str().unwrap();
    assert_eq!(
        show(&sandbox, id, &[])["voorgesteld_door"]["subject"],
        "anna"
    );
    let listed = sandbox
        .run(["voorstel", "lijst", "--output", "json"])
        .json();
    assert_valid_against(&output_schema("voorstel_lijst"), &listed, "voorstel lijst");
    let subjects: Vec<&str> = listed["voorstellen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["voorgesteld_door"]["subject"].as_str().unwrap())
        .collect();
    assert!(subjects.contains(&"anna"), "{listed}");
}

/// The program a proposal came through, as the caller declares it in OVERHEID_FOREIGN_CLIENT
/// (the bridge's form), is recorded with it and shown as `via`; a value not in that form is a
/// configuration error (78) and no proposal is made.
#[test]
fn the_client_a_proposal_came_through_is_recorded_as_declared() {
    let sandbox = Sandbox::new();
    let client = r#"{"mcp_client":"claude-code 2.1.3","oauth_client":"agent-app"}"#;
    let report = unique_report("client");
    let report: Vec<&str> = report.iter().map(String::as_str).collect();
    let proposed = propose_report(
        &sandbox,
        &report,
        &[
            ("OVERHEID_FOREIGN_USER", "anna"),
            ("OVERHEID_FOREIGN_CLIENT", client),
        ],
    );
    let via = serde_json::json!({"mcp_client": "claude-code 2.1.3", "oauth_client": "agent-app"});
    assert_eq!(proposed["voorgesteld_door"]["via"], via, "{proposed}");
    let id = proposed["id"].as_str().unwrap();
    let shown = show(&sandbox, id, &[]);
    assert_valid_against(&output_schema("voorstel_toon"), &shown, "voorstel toon");
    assert_eq!(shown["voorgesteld_door"]["via"], via);
    // Without one, no `via`.
    assert!(
        propose(&sandbox, &[])["voorgesteld_door"]
            .get("via")
            .is_none()
    );

    for bad in [
        r#"{"mcp_client":"a\u0007"}"#,
        "claude-code",
        r#"{"wie":"x"}"#,
    ] {
        let report = unique_report("bad-client");
        let mut cmd = sandbox.cmd();
        cmd.env("OVERHEID_FOREIGN_CLIENT", bad);
        let out = run(
            cmd,
            ["rapportage", "voorstel"]
                .iter()
                .copied()
                .chain(report.iter().map(String::as_str)),
        );
        assert_eq!(out.code, 78, "{bad}: {}", out.stderr);
        assert!(
            out.stderr.contains("OVERHEID_FOREIGN_CLIENT"),
            "{}",
            out.stderr
        );
    }
    let listed = sandbox
        .run(["voorstel", "lijst", "--output", "json"])
        .json();
    assert_eq!(
        listed["aantal"], 2,
        "no proposal from a bad client value: {listed}"
    );
}

#[test]
fn approved_at_a_terminal_then_applied_once() {
    if !have_script() {
        return;
    }
    let sandbox = Sandbox::new();
    let proposal = propose(&sandbox, &[]);
    let id = proposal["id"].as_str().unwrap();

    let waiting = apply(&sandbox, id, &[]).error(80);
    assert_eq!(waiting["code"], "VOORSTEL_NIET_GOEDGEKEURD");
    sandbox.assert_store(0);

    // Typing anything but the digest's start decides nothing.
    let (code, screen) = at_terminal(&sandbox, "goedkeuren", id, "00000000", &[]);
    assert_eq!(code, 81, "{screen}");
    assert!(screen.contains("BEVESTIGING_ONJUIST"), "{screen}");
    assert_eq!(show(&sandbox, id, &[])["status"], "open");

    approve(&sandbox, &proposal, &[]);
    let filed = apply(&sandbox, id, &[]);
    assert_eq!(filed.code, 0, "{}", filed.stderr);
    let first = filed.json();
    assert_eq!(first["replayed"], false);
    let retry = apply(&sandbox, id, &[]).json();
    assert_eq!(retry["replayed"], true);
    assert_eq!(retry["referentienummer"], first["referentienummer"]);
    sandbox.assert_store(1);
    sandbox.assert_every_report_audited();

    let shown = show(&sandbox, id, &[]);
    assert_valid_against(&output_schema("voorstel_toon"), &shown, "voorstel toon");
    assert_eq!(shown["status"], "ingediend");
    assert_eq!(shown["idempotentiesleutel"], proposal["plan_digest"]);
    let history: Vec<&str> = shown["geschiedenis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["status"].as_str().unwrap())
        .collect();
    assert_eq!(history, ["open", "goedgekeurd", "ingediend"]);
    // The record holds digests, never the answer: the reference number is not in it.
    assert!(
        !shown
            .to_string()
            .contains(first["referentienummer"].as_str().unwrap())
    );
    // A decision on a filed proposal is refused.
    let (code, screen) = at_terminal(&sandbox, "afwijzen", id, &id[..8], &[]);
    assert_eq!(code, 65, "{screen}");
    assert!(screen.contains("VOORSTEL_INGEDIEND"), "{screen}");
}

#[test]
fn declined_unknown_and_other_company_file_nothing() {
    let sandbox = Sandbox::new();
    let proposal = propose(&sandbox, &[]);
    let id = proposal["id"].as_str().unwrap();

    // Not a terminal: a person's act is refused, nothing decided.
    let piped = sandbox.run(["voorstel", "goedkeuren", id]).error(77);
    assert_eq!(piped["code"], "TERMINAL_VEREIST");
    // Never a tool.
    let tools = sandbox.discovery().to_string();
    assert!(!tools.contains("voorstel_goedkeuren") && !tools.contains("voorstel_afwijzen"));

    let unknown = apply(&sandbox, "vs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", &[]).error(66);
    assert_eq!(unknown["code"], "VOORSTEL_ONBEKEND");
    let other = apply(&sandbox, id, &[("KVK_SESSIE_NUMMER", "12345678")]).error(66);
    assert_eq!(other["code"], "VOORSTEL_ONBEKEND");
    assert_eq!(
        other["detail"].as_str().unwrap().replace(id, "ID"),
        unknown["detail"]
            .as_str()
            .unwrap()
            .replace("vs_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "ID"),
        "another company's id is answered as an unknown one"
    );
    let mut cmd = sandbox.cmd();
    cmd.env("KVK_SESSIE_NUMMER", "12345678");
    assert_eq!(
        run(cmd, ["voorstel", "toon", id]).error(66)["code"],
        "VOORSTEL_ONBEKEND"
    );
    // --voorstel takes no report arguments and no --confirm.
    assert_eq!(
        sandbox
            .run(["rapportage", "indienen", "--voorstel", id, "68750110"])
            .code,
        2
    );

    if have_script() {
        let (code, screen) = at_terminal(
            &sandbox,
            "afwijzen",
            id,
            &proposal["plan_digest"].as_str().unwrap()[..8],
            &[],
        );
        assert_eq!(code, 0, "{screen}");
        assert_eq!(decided(&screen)["status"], "afgewezen");
        let declined = apply(&sandbox, id, &[]).error(65);
        assert_eq!(declined["code"], "VOORSTEL_AFGEWEZEN");
    }
    sandbox.assert_store(0);
}

#[test]
fn an_expired_proposal_is_refused() {
    let sandbox = Sandbox::new();
    let created = sandbox.run_at(
        "2026-11-30T10:00:00Z",
        &[
            "rapportage",
            "voorstel",
            "68750110",
            "EBR-2027",
            "warmtepomp",
        ],
    );
    assert_eq!(created.code, 0, "{}", created.stderr);
    let proposal = created.json();
    assert_eq!(proposal["verloopt_op"], "2026-12-07T10:00:00Z");
    let id = proposal["id"].as_str().unwrap();
    let late = sandbox.run_at(
        "2026-12-07T10:00:01Z",
        &["rapportage", "indienen", "--voorstel", id],
    );
    assert_eq!(late.error(65)["code"], "VOORSTEL_VERLOPEN");
    sandbox.assert_store(0);
}

#[test]
fn a_plan_changed_since_the_approval_is_refused() {
    let Some((sandbox, proposal)) = approved_proposal() else {
        return;
    };
    let id = proposal["id"].as_str().unwrap();
    // The recorded input changes after the approval (as a changed concept or catalogue
    // changes the plan): the plan of now no longer has the approved digest.
    let db = rusqlite::Connection::open(sandbox.data_dir().join(overheid_records::DATABASE_FILE))
        .unwrap();
    db.execute(
        "UPDATE overheid_proposals SET input = replace(input, 'Isolatie dak', 'Zonnepanelen') WHERE id = ?1",
        [id],
    )
    .unwrap();
    let changed = apply(&sandbox, id, &[]).refusal(81);
    assert_eq!(changed["code"], "VOORSTEL_GEWIJZIGD");
    sandbox.assert_store(0);
}

/// Applies `id` from 20 processes at once; how many filed anew (the others replayed).
fn applied_concurrently(sandbox: &Sandbox, id: &str, env: &[(&str, &str)]) -> usize {
    let args = [
        "rapportage",
        "indienen",
        "--voorstel",
        id,
        "--timeout",
        "60",
    ];
    at_once(&[sandbox], &args, env)
        .iter()
        .filter(|r| r["replayed"] == false)
        .count()
}

/// Runs `args` in 20 processes at once, taking turns over `machines`; their results (each
/// must succeed).
fn at_once(machines: &[&Sandbox], args: &[&str], env: &[(&str, &str)]) -> Vec<Value> {
    let children: Vec<_> = (0..20)
        .map(|n| {
            machines[n % machines.len()]
                .process(args)
                .envs(env.iter().copied())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            serde_json::from_slice::<Value>(&out.stdout).unwrap()
        })
        .collect()
}

#[test]
fn twenty_concurrent_applies_file_once() {
    let Some((sandbox, proposal)) = approved_proposal() else {
        return;
    };
    let id = proposal["id"].as_str().unwrap().to_string();
    assert_eq!(applied_concurrently(&sandbox, &id, &[]), 1);
    sandbox.assert_store(1);
    assert_eq!(show(&sandbox, &id, &[])["status"], "ingediend");
}

#[test]
fn an_applier_killed_midway_is_retried_into_one_filing() {
    let Some((sandbox, proposal)) = approved_proposal() else {
        return;
    };
    killed_midway_then_retried(&sandbox, &proposal, &[], &sandbox.location());
}

/// `rvo-cli-test-hooks args` (with `env`) started and paused at `phase` (test hook), stdout
/// piped.
fn paused_at(
    sandbox: &Sandbox,
    args: &[&str],
    env: &[(&str, &str)],
    phase: &str,
) -> std::process::Child {
    let mut child = sandbox
        .hooked_process(args)
        .envs(env.iter().copied())
        .env("RVO_CLI_TEST_PAUSE", format!("{phase}:30000"))
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains(&format!("RVO_CLI_TEST_PAUSED {phase}")) {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "{args:?} never paused at {phase}"
        );
    }
    child
}

/// Kills (SIGKILL) an applier of the approved `proposal` once its filing is written in an
/// open transaction, before its audit record: nothing is filed and the proposal stays
/// approved; a retry files once, and the proposal is filed.
fn killed_midway_then_retried(
    sandbox: &Sandbox,
    proposal: &Value,
    env: &[(&str, &str)],
    location: &overheid_records::Location,
) {
    let id = proposal["id"].as_str().unwrap();
    let key = proposal["plan_digest"].as_str().unwrap();
    let mut child = paused_at(
        sandbox,
        &["rapportage", "indienen", "--voorstel", id],
        env,
        "begun",
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(filed(location, key).is_none(), "the killed applier filed");
    assert_eq!(show(sandbox, id, env)["status"], "goedgekeurd");
    let retried = apply(sandbox, id, env);
    assert_eq!(retried.code, 0, "{}", retried.stderr);
    let retried = retried.json();
    assert_eq!(retried["replayed"], false);
    let filing = filed(location, key).expect("the retry filed");
    assert_eq!(
        filing.reference,
        retried["referentienummer"].as_str().unwrap()
    );
    assert_eq!(filing.proposal_id.as_deref(), Some(id));
    assert_eq!(show(sandbox, id, env)["status"], "ingediend");
    assert_eq!(apply(sandbox, id, env).json()["replayed"], true);
}

/// A proposal's commit is deferred (not synced; spec "Durability"), not lost with its process:
/// a proposer killed (SIGKILL) right after its commit, before its audit record, leaves the
/// proposal in the store. Proposing the same input gives it back, and it is approved and
/// applied once. The approval's synced commit is what makes it durable on the disk.
#[test]
fn a_proposer_killed_after_its_commit_leaves_the_proposal() {
    let sandbox = Sandbox::new();
    let proposing = [&["rapportage", "voorstel"][..], &REPORT].concat();
    let mut child = paused_at(&sandbox, &proposing, &[], "proposed");
    child.kill().unwrap();
    let killed = child.wait_with_output().unwrap();
    assert!(
        killed.stdout.is_empty(),
        "the killed proposer printed nothing"
    );
    assert!(
        !sandbox
            .audit_records()
            .iter()
            .any(|r| r["name"] == "rvo-cli rapportage voorstel"),
        "killed before its audit record"
    );
    let again = propose(&sandbox, &[]);
    assert_eq!(
        again["nieuw"], false,
        "the killed proposer's proposal is there"
    );
    assert_eq!(again["status"], "open");
    if !have_script() {
        return;
    }
    approve(&sandbox, &again, &[]);
    let id = again["id"].as_str().unwrap();
    let filed = apply(&sandbox, id, &[]);
    assert_eq!(filed.code, 0, "{}", filed.stderr);
    assert_eq!(filed.json()["replayed"], false);
    sandbox.assert_store(1);
}

/// The filing under `key` in the store at `location`, if any.
fn filed(location: &overheid_records::Location, key: &str) -> Option<overheid_records::Filing> {
    overheid_records::Store::open(location, None)
        .unwrap()
        .filing(key)
        .unwrap()
}

#[test]
fn an_unsafe_directory_and_an_unreachable_store_do_nothing() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.data_dir()).unwrap();
    std::fs::set_permissions(sandbox.data_dir(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let refused = sandbox
        .run(["rapportage", "voorstel"].iter().chain(REPORT.iter()))
        .error(78);
    assert_eq!(refused["code"], "CONFIG_FOUT");
    std::fs::set_permissions(sandbox.data_dir(), std::fs::Permissions::from_mode(0o700)).unwrap();

    let port = test_support::cli::closed_port();
    let url = format!("postgres://app:geheim-wachtwoord@127.0.0.1:{port}/records");
    let mut cmd = sandbox.cmd();
    cmd.env("OVERHEID_STORE_URL", &url);
    let out = run(cmd, ["rapportage", "voorstel"].iter().chain(REPORT.iter()));
    assert_eq!(out.error(69)["code"], "OPSLAG_ONBEREIKBAAR");
    assert!(!out.stdout.contains("geheim") && !out.stderr.contains("geheim"));
    assert!(
        !sandbox.audit_text().contains("geheim"),
        "the password is never logged"
    );
}

#[test]
fn postgres_two_processes_share_proposals_and_file_once() {
    let Some(url) = test_support::postgres::url() else {
        return;
    };
    if !have_script() {
        return;
    }
    let env = [("OVERHEID_STORE_URL", url.as_str())];
    // A proposal made by one rvo-cli is found by another with its own data directory.
    let proposer = Sandbox::new();
    let applier = Sandbox::new();
    let proposal = propose(&proposer, &env);
    let id = proposal["id"].as_str().unwrap().to_string();
    assert_eq!(show(&applier, &id, &env)["status"], "open");
    approve(&applier, &proposal, &env);
    assert_eq!(
        applied_concurrently(&applier, &id, &env),
        1,
        "20 concurrent applies file once"
    );
    assert_eq!(show(&proposer, &id, &env)["status"], "ingediend");
    // The password never shows.
    assert!(
        !proposer
            .audit_text()
            .contains(url.split('@').next().unwrap())
    );
}

#[test]
fn postgres_an_applier_killed_midway_is_retried_into_one_filing() {
    let Some(url) = test_support::postgres::url() else {
        return;
    };
    if !have_script() {
        return;
    }
    let env = [("OVERHEID_STORE_URL", url.as_str())];
    let sandbox = Sandbox::new();
    let report = unique_report("kill");
    let report: Vec<&str> = report.iter().map(String::as_str).collect();
    let proposal = propose_report(&sandbox, &report, &env);
    approve(&sandbox, &proposal, &env);
    killed_midway_then_retried(
        &sandbox,
        &proposal,
        &env,
        &overheid_records::Location::Postgres(url.clone()),
    );
    assert!(
        !sandbox
            .data_dir()
            .join(overheid_records::DATABASE_FILE)
            .exists(),
        "with OVERHEID_STORE_URL nothing is kept in the data directory"
    );
}

/// Two rvo-cli "machines" (each its own data directory and audit log) share one PostgreSQL
/// store: 20 processes, half on each, filing the same report with --confirm file it once, and
/// each machine reads the other's filing back.
#[test]
fn postgres_two_machines_file_once_with_confirm() {
    let Some(url) = test_support::postgres::url() else {
        return;
    };
    let env = [("OVERHEID_STORE_URL", url.as_str())];
    let machines = [Sandbox::new(), Sandbox::new()];
    let report = unique_report("confirm");
    let mut args: Vec<&str> = vec!["rapportage", "indienen"];
    args.extend(report.iter().map(String::as_str));
    args.extend(["--confirm", "--timeout", "60"]);
    let results = at_once(&[&machines[0], &machines[1]], &args, &env);
    assert_eq!(results.iter().filter(|r| r["replayed"] == false).count(), 1);
    let reference = results[0]["referentienummer"].as_str().unwrap();
    assert!(results.iter().all(|r| r["referentienummer"] == reference));
    for machine in &machines {
        let mut cmd = machine.cmd();
        cmd.envs(env.iter().copied());
        let status = run(cmd, ["rapportage", "status", reference]).json();
        assert_eq!(status["referentienummer"], reference);
        assert!(
            !machine
                .audit_text()
                .contains(url.split('@').next().unwrap()),
            "the password is never logged"
        );
    }
    let record = overheid_records::Store::open(&overheid_records::Location::Postgres(url), None)
        .unwrap()
        .filing_by_reference(reference, None)
        .unwrap()
        .expect("the filing is in the shared store");
    assert!(rvo_cli::record::read(&record).is_ok(), "a sound record");
}

#[test]
fn postgres_over_tls_verifies_the_server() {
    let Some(url) = test_support::postgres::url() else {
        return;
    };
    // tests/postgres/run.sh serves TLS with a certificate for 127.0.0.1 from a CA it made.
    let Some(ca) = test_support::postgres::ca() else {
        return;
    };
    let sep = if url.contains('?') { '&' } else { '?' };
    let tls = format!("{url}{sep}sslmode=require");
    let sandbox = Sandbox::new();
    // The CA trusted (SSL_CERT_FILE, as for every HTTPS call of the family): a proposal is
    // recorded over TLS, in the same database a plain connection reads.
    let trusted = [
        ("OVERHEID_STORE_URL", tls.as_str()),
        ("SSL_CERT_FILE", ca.as_str()),
    ];
    let id = propose(&sandbox, &trusted)["id"]
        .as_str()
        .unwrap()
        .to_string();
    let plain = [("OVERHEID_STORE_URL", url.as_str())];
    assert_eq!(show(&sandbox, &id, &plain)["id"], id.as_str());
    // Without the CA the server's certificate is not trusted: nothing is done, exit 69, and the
    // password never shows.
    let mut cmd = sandbox.cmd();
    cmd.env("OVERHEID_STORE_URL", &tls);
    let out = run(cmd, ["voorstel", "toon", id.as_str()]);
    let refused = out.error(69);
    assert_eq!(refused["code"], "OPSLAG_ONBEREIKBAAR");
    // It names the issuer and how to add that CA (NET-12).
    let detail = refused["detail"].as_str().unwrap();
    assert!(
        detail.contains("overheid test CA") && detail.contains("SSL_CERT_FILE"),
        "{refused}"
    );
    let password = url.split('@').next().unwrap();
    assert!(!out.stdout.contains(password) && !out.stderr.contains(password));
}
