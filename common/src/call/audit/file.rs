//! The audit log file: one JSON line per record (rules AUDIT-2 … AUDIT-6, AUDIT-17, AUDIT-18).
//!
//! The file (a regular file, never through a symbolic link) is opened before
//! the command does any work, and each invocation's records, each bounded in
//! size, are appended as whole lines in one write under an exclusive lock
//! taken within the deadline, after cutting back any torn tail a killed
//! writer left; so many processes writing at once lose and interleave nothing.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::audit_error;
use crate::problem::error::{Problem, Result};

/// The largest record written: far below what one `write` to a local file
/// completes as a whole, so a record is one write (AUDIT-3).
pub(crate) const MAX_RECORD_BYTES: usize = 16 * 1024;
/// The longest attribute string kept whole, in bytes; longer ones are cut.
pub(crate) const MAX_VALUE_BYTES: usize = 1024;
/// Appended to an attribute value that was cut.
pub(crate) const TRUNCATED_MARKER: &str = "…[ingekort]";
/// How long a record may still wait for the lock when the command's deadline
/// has (almost) passed, so a command that used its whole deadline is still
/// recorded (AUDIT-17).
pub(crate) const RECORD_GRACE: Duration = Duration::from_secs(1);
/// How far back a torn tail is searched for the end of the last whole line.
const REPAIR_SCAN: u64 = 4 * 1024 * 1024;

/// An open audit log.
pub(crate) struct AuditLog {
    file: File,
    path: PathBuf,
    deadline: Instant,
}

impl AuditLog {
    /// Open (create) the log for appending. Failure is exit 74.
    ///
    /// The path must name a regular file, not through a symbolic link in its
    /// last component: a FIFO or device would block or swallow records, and
    /// a (dangling) link would send them somewhere else (AUDIT-18). Waits for
    /// the lock are bounded by `deadline` (AUDIT-17).
    pub(crate) fn open(path: &Path, deadline: Instant) -> Result<Self, Problem> {
        let fail = |e: std::io::Error| {
            audit_error(format!(
                "auditlog {} kan niet worden geopend: {e}",
                path.display()
            ))
        };
        // Checked before opening for a clear message; the open itself refuses
        // a link and does not block on a FIFO, so a swap in between is harmless.
        match std::fs::symlink_metadata(path) {
            Ok(meta) => refuse_kind(path, &meta)?,
            // Only a log that is not there yet may need its directory made.
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(fail)?;
                }
            }
            Err(_) => {} // the open says why
        }
        let mut options = OpenOptions::new();
        options.create(true).append(true).read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        let file = options.open(path).map_err(fail)?;
        refuse_kind(path, &file.metadata().map_err(fail)?)?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
            deadline,
        })
    }

    /// Append one record as one line. `durable` also syncs it to disk.
    ///
    /// Under the lock, a torn tail left by a process that died mid-write is
    /// cut back to the last whole line first; a write that does not complete
    /// is undone the same way and fails with 74 (AUDIT-3). The program appends through
    /// [`AuditLog::append_all`]; this is the tests' one record.
    #[cfg(test)]
    pub(crate) fn append(&mut self, record: &Value, durable: bool) -> Result<(), Problem> {
        self.append_all(std::slice::from_ref(record), durable)
    }

    /// Append the records of one invocation (the call's record, then one per
    /// data subject when there are several) in one write, so they land together
    /// or not at all.
    #[allow(clippy::disallowed_methods, reason = "audit log lock")]
    pub(crate) fn append_all(&mut self, records: &[Value], durable: bool) -> Result<(), Problem> {
        let mut line = Vec::new();
        for record in records {
            line.extend(bounded_line(record)?);
            line.push(b'\n');
        }
        let fail = |e: std::io::Error| {
            audit_error(format!(
                "auditregel kon niet worden geschreven naar {}: {e}",
                self.path.display()
            ))
        };
        self.lock()?;
        let written = self.append_locked(&line, durable);
        let unlocked = self.file.unlock();
        written?;
        unlocked.map_err(fail)
    }

    /// Take the exclusive lock, waiting at most until the deadline (or
    /// [`RECORD_GRACE`] when less is left): exit 124 when it stays taken.
    fn lock(&self) -> Result<(), Problem> {
        let until = self.deadline.max(Instant::now() + RECORD_GRACE);
        loop {
            match self.file.try_lock() {
                Ok(()) => return Ok(()),
                Err(std::fs::TryLockError::WouldBlock) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(Problem::timeout(format!(
                        "auditlog {} bleef vergrendeld door een ander proces tot de tijdslimiet",
                        self.path.display()
                    ))
                    .with_hint("geen auditregel geschreven en niets uitgevoerd; probeer het opnieuw of verhoog --timeout"));
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(audit_error(format!(
                        "auditlog {} kan niet worden vergrendeld: {e}",
                        self.path.display()
                    )));
                }
            }
        }
    }

    fn append_locked(&self, line: &[u8], durable: bool) -> Result<(), Problem> {
        let fail = |e: std::io::Error| {
            audit_error(format!(
                "auditregel kon niet worden geschreven naar {}: {e}",
                self.path.display()
            ))
        };
        let start = repair_tail(&self.file).map_err(fail)?;
        let written = loop {
            match (&self.file).write(line) {
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        let short = match written {
            Ok(n) if n == line.len() => None,
            Ok(n) => Some(std::io::Error::other(format!(
                "slechts {n} van {} bytes geschreven (schijf vol?)",
                line.len()
            ))),
            Err(e) => Some(e),
        };
        if let Some(e) = short {
            // Undo the partial line so it cannot swallow the next record.
            let undone = self.file.set_len(start);
            let mut err = fail(e);
            if let Err(undo) = undone {
                err = audit_error(format!(
                    "auditregel kon niet worden geschreven naar {} en de onvolledige regel \
                     kon niet worden verwijderd: {undo}",
                    self.path.display()
                ));
            }
            return Err(err);
        }
        if durable {
            self.file.sync_data().map_err(fail)?;
        }
        Ok(())
    }
}

/// Refuse anything but a regular file as the audit log (exit 74).
fn refuse_kind(path: &Path, meta: &std::fs::Metadata) -> Result<(), Problem> {
    let what = if meta.file_type().is_symlink() {
        "is een symbolische koppeling"
    } else if meta.is_file() {
        return Ok(());
    } else if meta.is_dir() {
        "is een map"
    } else {
        "is geen gewoon bestand (FIFO, apparaat of socket)"
    };
    Err(audit_error(format!("auditlog {} {what}", path.display())))
}

/// Make the file end in a whole line: a tail without `\n` (a record whose
/// writer died) is cut back to the last `\n`; if none is found within
/// [`REPAIR_SCAN`] bytes, the tail is ended with `\n` instead, so nothing
/// but a torn fragment is ever removed. Returns the new length.
fn repair_tail(file: &File) -> std::io::Result<u64> {
    let len = file.metadata()?.len();
    if len == 0 || last_byte(file, len)? == b'\n' {
        return Ok(len);
    }
    let floor = len.saturating_sub(REPAIR_SCAN);
    let mut end = len;
    let mut chunk = vec![0u8; 8192];
    while end > floor {
        let from = end.saturating_sub(chunk.len() as u64).max(floor);
        let part = &mut chunk[..(end - from) as usize];
        read_exact_at(file, part, from)?;
        if let Some(i) = part.iter().rposition(|b| *b == b'\n') {
            let keep = from + i as u64 + 1;
            file.set_len(keep)?;
            return Ok(keep);
        }
        end = from;
    }
    if floor == 0 {
        file.set_len(0)?;
        return Ok(0);
    }
    (&*file).write_all(b"\n")?;
    Ok(len + 1)
}

fn last_byte(file: &File, len: u64) -> std::io::Result<u8> {
    let mut byte = [0u8];
    read_exact_at(file, &mut byte, len - 1)?;
    Ok(byte[0])
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(not(unix))]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file;
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

/// The record as one line of at most [`MAX_RECORD_BYTES`] (without `\n`):
/// attribute strings longer than [`MAX_VALUE_BYTES`] are cut and marked, and
/// if that is not enough only the `dpl.core.*` and `error.code` attributes
/// stay; either way `overheid.truncated` is `true`.
fn bounded_line(record: &Value) -> Result<Vec<u8>, Problem> {
    let encode = |v: &Value| serde_json::to_vec(v).map_err(|e| Problem::software(e.to_string()));
    let line = encode(record)?;
    if line.len() <= MAX_RECORD_BYTES {
        return Ok(line);
    }
    let mut record = record.clone();
    if let Some(attributes) = record.get_mut("attributes").and_then(Value::as_object_mut) {
        for value in attributes.values_mut() {
            truncate_strings(value);
        }
        attributes.insert("overheid.truncated".into(), true.into());
        let line = encode(&record)?;
        if line.len() <= MAX_RECORD_BYTES {
            return Ok(line);
        }
    }
    if let Some(attributes) = record.get_mut("attributes").and_then(Value::as_object_mut) {
        attributes.retain(|k, _| {
            k.starts_with("dpl.core.") || k == "error.code" || k == "overheid.truncated"
        });
    }
    encode(&record)
}

fn truncate_strings(value: &mut Value) {
    match value {
        Value::String(s) if s.len() > MAX_VALUE_BYTES => {
            let mut cut = MAX_VALUE_BYTES;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
            s.push_str(TRUNCATED_MARKER);
        }
        Value::Array(items) => items.iter_mut().for_each(truncate_strings),
        Value::Object(map) => map.values_mut().for_each(truncate_strings),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    fn lines(path: &Path) -> Vec<Value> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).expect("every line is a whole record"))
            .collect()
    }

    /// AUDIT-3: a torn tail (a writer died mid-line) is cut back before the next append.
    #[test]
    fn file_without_trailing_newline_gets_repaired() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        std::fs::write(&path, "{\"n\":1}\n{\"n\":2,\"tor").unwrap();
        let mut log = AuditLog::open(&path, soon()).unwrap();
        log.append(&serde_json::json!({"n": 3}), false).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"n\":1}\n{\"n\":3}\n"
        );
        // A file that is one fragment only becomes empty first.
        std::fs::write(&path, "{\"half").unwrap();
        let mut log = AuditLog::open(&path, soon()).unwrap();
        log.append(&serde_json::json!({"n": 4}), true).unwrap();
        assert_eq!(lines(&path), vec![serde_json::json!({"n": 4})]);
    }

    /// A log that is not there yet gets its directories; a second call appends to it.
    #[test]
    fn a_new_log_gets_its_directories_and_the_next_call_appends() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nieuw").join("map").join("audit.jsonl");
        AuditLog::open(&path, soon())
            .unwrap()
            .append(&serde_json::json!({"n": 1}), false)
            .unwrap();
        AuditLog::open(&path, soon())
            .unwrap()
            .append(&serde_json::json!({"n": 2}), false)
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"n\":1}\n{\"n\":2}\n"
        );
    }

    /// AUDIT-3: an oversized record is cut to one bounded line, marked as such.
    #[test]
    fn oversized_records_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let mut log = AuditLog::open(&path, soon()).unwrap();
        let long = "é".repeat(100_000);
        log.append(
            &serde_json::json!({"attributes": {"dpl.core.processing_activity_id": "", "url.full": long}}),
            false,
        )
        .unwrap();
        let many: Map<String, Value> = (0..100)
            .map(|i| (format!("overheid.x{i}"), Value::from("y".repeat(900))))
            .collect();
        let mut record = serde_json::json!({"attributes": many});
        record["attributes"]["error.code"] = "PARSE_FOUT".into();
        log.append(&record, false).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.lines().all(|l| l.len() <= MAX_RECORD_BYTES), "bounded");
        let records = lines(&path);
        let url = records[0]["attributes"]["url.full"].as_str().unwrap();
        assert!(url.ends_with(TRUNCATED_MARKER) && url.len() < 2 * MAX_VALUE_BYTES);
        assert_eq!(records[0]["attributes"]["overheid.truncated"], true);
        assert_eq!(
            records[1]["attributes"],
            serde_json::json!({"error.code": "PARSE_FOUT", "overheid.truncated": true})
        );
    }

    /// AUDIT-17: a lock held elsewhere is waited for until the deadline, then 124.
    #[test]
    #[allow(clippy::disallowed_methods, reason = "the test holds the lock")]
    fn a_held_lock_ends_in_a_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let holder = File::create(&path).unwrap();
        holder.lock().unwrap();
        let mut log = AuditLog::open(&path, Instant::now()).unwrap();
        let started = Instant::now();
        let err = log.append(&serde_json::json!({}), false).expect_err("held");
        assert_eq!(err.exit.code(), 124);
        assert!(started.elapsed() < RECORD_GRACE + Duration::from_secs(2));
        drop(holder);
        log.append(&serde_json::json!({}), false).unwrap();
    }

    /// AUDIT-18: a symbolic link (also a dangling one) is refused, its target never created.
    #[cfg(unix)]
    #[test]
    fn symlinks_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elders.jsonl");
        let link = dir.path().join("audit.jsonl");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = AuditLog::open(&link, soon()).err().expect("dangling link");
        assert_eq!(err.exit.code(), 74);
        assert!(!target.exists(), "the target must not be created");
        std::fs::write(&target, "").unwrap();
        let err = AuditLog::open(&link, soon()).err().expect("link");
        assert_eq!(err.exit.code(), 74);
    }

    #[test]
    fn appends_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/audit.jsonl");
        let mut log = AuditLog::open(&path, soon()).unwrap();
        log.append(&serde_json::json!({"n": 1}), false).unwrap();
        log.append(&serde_json::json!({"n": 2}), true).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "{\"n\":1}\n{\"n\":2}\n");
    }

    #[test]
    fn unopenable_log_is_exit_74() {
        let dir = tempfile::tempdir().unwrap();
        let err = AuditLog::open(dir.path(), soon())
            .err()
            .expect("a directory is not a file");
        assert_eq!(err.exit.code(), 74);
    }
}
