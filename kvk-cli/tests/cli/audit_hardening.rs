//! The audit log under faults: torn lines, a full disk, kill -9 under load, a held lock, a
//! FIFO or symbolic link as destination, a bad `--timeout` (AUDIT-1, AUDIT-3, AUDIT-17,
//! AUDIT-18).

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{KvkFake, Sandbox, read_audit, run};

const LIMIT: Duration = Duration::from_secs(20);

fn get_with_log(sandbox: &Sandbox, fake: &KvkFake, log: &Path) -> assert_cmd::Command {
    let mut cmd = sandbox.cmd(&fake.base());
    cmd.env("KVK_AUDIT_LOG", log).timeout(LIMIT);
    cmd
}

/// AUDIT-1: a `--timeout` outside its range is a usage error after parsing, audited like
/// the others.
#[test]
fn audit_1_bad_timeout_is_audited() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    for value in ["0", "-1", "1e9", "NaN"] {
        let args = ["basisprofiel", "toon", "68750110", "--timeout", value];
        let error = run(sandbox.cmd(&fake.base()), args).error(2);
        assert_eq!(error["code"], "ONGELDIG_GEBRUIK");
    }
    let records = sandbox.audit_records();
    assert_eq!(records.len(), 4);
    for record in records {
        assert_eq!(record["exit_code"], 2);
        assert_eq!(record["attributes"]["error.code"], "ONGELDIG_GEBRUIK");
    }
    assert_eq!(fake.request_count(), 0);
}

/// AUDIT-18: a FIFO (or other non-regular file) as audit log is refused at once with 74,
/// never waited on.
#[test]
fn audit_18_fifo_is_refused_not_waited_on() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let fifo = sandbox.path().join("audit.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("OVERGESLAGEN: mkfifo niet beschikbaar");
        return;
    }
    for log in [fifo.as_path(), Path::new("/dev/null")] {
        let started = Instant::now();
        let result = run(
            get_with_log(&sandbox, &fake, log),
            ["basisprofiel", "toon", "68750110"],
        );
        let error = result.error(74);
        assert_eq!(error["code"], "AUDIT_FOUT");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    assert_eq!(fake.request_count(), 0, "AUDIT-5: nothing sent");
}

/// AUDIT-18: a symbolic link as audit log is refused with 74; a dangling one does not
/// create its target.
#[test]
fn audit_18_symlink_is_refused() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let target = sandbox.path().join("elders.jsonl");
    let link = sandbox.path().join("link.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let args = ["basisprofiel", "toon", "68750110"];
    run(get_with_log(&sandbox, &fake, &link), args).error(74);
    assert!(
        !target.exists(),
        "the dangling link's target is not created"
    );
    std::fs::write(&target, "").unwrap();
    run(get_with_log(&sandbox, &fake, &link), args).error(74);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "");
    assert_eq!(fake.request_count(), 0);
}

/// AUDIT-17: a lock held by another process is waited for only until the deadline: exit
/// 124, nothing printed, instead of hanging.
#[test]
#[allow(clippy::disallowed_methods, reason = "the test holds the lock")]
fn audit_17_held_lock_ends_at_the_deadline() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let log = sandbox.audit_log();
    let holder = File::create(&log).unwrap();
    holder.lock().unwrap();
    let started = Instant::now();
    let result = run(
        get_with_log(&sandbox, &fake, &log),
        ["basisprofiel", "toon", "68750110", "--timeout", "1"],
    );
    let error = result.error(124);
    assert_eq!(error["code"], "TIJDLIMIET_VERSTREKEN");
    assert!(started.elapsed() < Duration::from_secs(6), "bounded wait");
    drop(holder);
    run(
        sandbox.cmd(&fake.base()),
        ["basisprofiel", "toon", "68750110"],
    )
    .json();
    assert_eq!(sandbox.audit_records().len(), 1);
}

/// A tmpfs of 64 KiB, unmounted on drop.
struct TinyDisk(PathBuf);

impl TinyDisk {
    #[allow(clippy::print_stderr, reason = "a skipped test says why")]
    fn mount(at: PathBuf) -> Option<TinyDisk> {
        std::fs::create_dir_all(&at).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(&at)
            .stderr(Stdio::null())
            .status();
        if mounted.is_ok_and(|s| s.success()) {
            Some(TinyDisk(at))
        } else {
            eprintln!("OVERGESLAGEN: tmpfs kan hier niet worden aangekoppeld (geen root?)");
            None
        }
    }
}

impl Drop for TinyDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Fill the file system of `dir` until it is full.
fn fill(dir: &Path) -> PathBuf {
    use std::io::Write;
    let path = dir.join("vulling");
    let mut file = File::create(&path).unwrap();
    let block = [0u8; 1024];
    while file.write_all(&block).is_ok() {}
    while file.write_all(&block[..1]).is_ok() {}
    path
}

/// AUDIT-3: on a full disk the append fails with 74 and leaves no partial line, so the
/// next record (after space is freed) is a whole, readable line.
#[test]
fn audit_3_full_disk_leaves_no_torn_line() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    let Some(disk) = TinyDisk::mount(sandbox.path().join("klein")) else {
        return;
    };
    let log = disk.0.join("audit.jsonl");
    let args = ["basisprofiel", "toon", "68750110"];
    run(get_with_log(&sandbox, &fake, &log), args).json();
    // Pad the log with valid records to 60 bytes short of a 4 KiB page, so the next record
    // needs a new page and can only be partly written.
    let first = std::fs::read_to_string(&log).unwrap();
    let mut record: Value = serde_json::from_str(first.trim_end()).unwrap();
    let base = first.len() + serde_json::to_string(&record).unwrap().len() + 1;
    let pad_len = 4096 - 60 - base - r#","overheid.pad":"""#.len();
    record["attributes"]["overheid.pad"] = "x".repeat(pad_len).into();
    let padded = format!("{first}{}\n", serde_json::to_string(&record).unwrap());
    assert_eq!(padded.len(), 4096 - 60);
    std::fs::write(&log, &padded).unwrap();
    let filler = fill(&disk.0);

    let error = run(get_with_log(&sandbox, &fake, &log), args).error(74);
    assert_eq!(error["code"], "AUDIT_FOUT");
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        padded,
        "the partial line is undone"
    );
    std::fs::remove_file(filler).unwrap();
    run(get_with_log(&sandbox, &fake, &log), args).json();
    let records = read_audit(&log);
    assert_eq!(records.len(), 3, "every line is a whole record");
    assert_eq!(records[2]["exit_code"], 0);
}

/// AUDIT-3: many writers with oversized records, killed with SIGKILL at random moments,
/// never leave a line that swallows the next record; records stay bounded.
#[test]
fn audit_3_kill_9_under_load_leaves_whole_lines() {
    let fake = KvkFake::start();
    let sandbox = Sandbox::new();
    // A long base path makes `url.full` about 100 KB before bounding.
    let base = format!("{}/{}", fake.base(), "a".repeat(100_000));
    let args = ["basisprofiel", "toon", "68750110"];
    let mut seed = Instant::now().elapsed().as_nanos() as u64 | 1;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let started = Instant::now();
    let mut killed = 0;
    while started.elapsed() < Duration::from_secs(4) {
        let children: Vec<_> = (0..6)
            .map(|_| {
                let mut cmd = sandbox.process(&args);
                cmd.env("KVK_API_BASE", &base)
                    .env("KVK_API_KEY", crate::support::KEY)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null());
                cmd.spawn().expect("spawn")
            })
            .collect();
        std::thread::sleep(Duration::from_micros(next() % 15_000));
        for mut child in children {
            if next() % 2 == 0 {
                let _ = child.kill();
                killed += 1;
            }
            let _ = child.wait();
        }
    }
    // One more call, which repairs any tail a killed writer left.
    let mut cmd = sandbox.cmd(&base);
    cmd.timeout(LIMIT);
    run(cmd, args.map(OsStr::new));
    let text = sandbox.audit_text();
    assert!(text.ends_with('\n'));
    for line in text.lines() {
        assert!(
            line.len() <= 16 * 1024,
            "bounded record: {} bytes",
            line.len()
        );
    }
    let records = sandbox.audit_records();
    assert!(!records.is_empty(), "{killed} killed");
    let last = records.last().unwrap();
    assert_eq!(last["attributes"]["overheid.truncated"], true);
}
