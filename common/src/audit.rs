//! The audit log: one JSON line per invocation that reaches a command (rules AUDIT-*).
//!
//! Modelled on Logboek Dataverwerkingen: trace and span ids, a name for people,
//! start and end, status, and `dpl.core.*` attributes. Never a secret, never
//! response data. The file is opened before the command does any work, and
//! each record is appended as one whole line under an exclusive lock, so many
//! processes writing at once lose and interleave nothing.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::env::{Env, OVERHEID_AUDIT_LOG};
use crate::error::{Error, Result};

/// An open audit log.
pub struct AuditLog {
    file: File,
    path: PathBuf,
}

/// Where the audit log goes: `--audit-log`, the tool's variable,
/// `OVERHEID_AUDIT_LOG`, then `$XDG_STATE_HOME/overheid-cli/audit.jsonl`
/// (`~/.local/state/...`).
pub fn destination(flag: Option<&Path>, env: &Env, tool_var: &str) -> Result<PathBuf> {
    if let Some(path) = flag {
        return Ok(path.to_path_buf());
    }
    if let Some(path) = env.get(tool_var).or_else(|| env.get(OVERHEID_AUDIT_LOG)) {
        return Ok(PathBuf::from(path));
    }
    let state = env
        .get("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| env.get("HOME").map(|h| Path::new(h).join(".local/state")))
        .ok_or_else(|| {
            Error::io("geen plaats voor het auditlog: HOME en XDG_STATE_HOME ontbreken")
                .with_code("AUDIT_FOUT")
                .with_hint(format!("zet {tool_var} of gebruik --audit-log PAD"))
        })?;
    Ok(state.join("overheid-cli").join("audit.jsonl"))
}

impl AuditLog {
    /// Open (create) the log for appending. Failure is exit 74.
    pub fn open(path: &Path) -> Result<Self> {
        let fail = |e: std::io::Error| {
            Error::io(format!(
                "auditlog {} kan niet worden geopend: {e}",
                path.display()
            ))
            .with_code("AUDIT_FOUT")
            .with_hint(
                "zonder auditregel geen verwerking; kies een schrijfbaar pad met --audit-log",
            )
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        let mut options = OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(path).map_err(fail)?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Append one record as one line. `durable` also syncs it to disk.
    #[allow(clippy::disallowed_methods, reason = "audit log lock")]
    pub fn append(&mut self, record: &Value, durable: bool) -> Result<()> {
        let mut line = serde_json::to_vec(record).map_err(|e| Error::software(e.to_string()))?;
        line.push(b'\n');
        let fail = |e: std::io::Error| {
            Error::io(format!(
                "auditregel kon niet worden geschreven naar {}: {e}",
                self.path.display()
            ))
            .with_code("AUDIT_FOUT")
        };
        self.file.lock().map_err(fail)?;
        let written = self.file.write_all(&line).and_then(|()| {
            if durable {
                self.file.sync_data()
            } else {
                Ok(())
            }
        });
        let unlocked = self.file.unlock();
        written.map_err(fail)?;
        unlocked.map_err(fail)
    }
}

/// The attributes a command contributes to its record.
#[derive(Clone, Debug, Default)]
pub struct AuditAttributes {
    pub data_subject_id: Option<String>,
    pub data_subject_id_type: Option<&'static str>,
    pub url: Option<String>,
    pub http_status: Option<u16>,
    pub body_size: Option<usize>,
    pub extra: Map<String, Value>,
}

impl AuditAttributes {
    /// The `attributes` object of the record.
    pub fn to_json(&self, processing_activity: &str) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert(
            "dpl.core.processing_activity_id".into(),
            processing_activity.into(),
        );
        if let Some(id) = &self.data_subject_id {
            map.insert("dpl.core.data_subject_id".into(), id.clone().into());
        }
        if let Some(kind) = self.data_subject_id_type {
            map.insert("dpl.core.data_subject_id_type".into(), kind.into());
        }
        if let Some(url) = &self.url {
            map.insert("url.full".into(), url.clone().into());
        }
        if let Some(status) = self.http_status {
            map.insert("http.response.status_code".into(), status.into());
        }
        if let Some(size) = self.body_size {
            map.insert("http.response.body.size".into(), size.into());
        }
        for (k, v) in &self.extra {
            map.insert(k.clone(), v.clone());
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destination_precedence() {
        let env = Env::from_pairs(&[
            ("KVK_AUDIT_LOG", "/a/tool.jsonl"),
            ("OVERHEID_AUDIT_LOG", "/a/all.jsonl"),
            ("XDG_STATE_HOME", "/state"),
            ("HOME", "/home/u"),
        ]);
        let flag = Path::new("/flag.jsonl");
        assert_eq!(
            destination(Some(flag), &env, "KVK_AUDIT_LOG").unwrap(),
            flag
        );
        assert_eq!(
            destination(None, &env, "KVK_AUDIT_LOG").unwrap(),
            Path::new("/a/tool.jsonl")
        );
        assert_eq!(
            destination(None, &env, "KOOP_AUDIT_LOG").unwrap(),
            Path::new("/a/all.jsonl")
        );
        let env = Env::from_pairs(&[("HOME", "/home/u")]);
        assert_eq!(
            destination(None, &env, "KVK_AUDIT_LOG").unwrap(),
            Path::new("/home/u/.local/state/overheid-cli/audit.jsonl")
        );
        let env = Env::from_pairs(&[("XDG_STATE_HOME", "/s"), ("HOME", "/home/u")]);
        assert_eq!(
            destination(None, &env, "KVK_AUDIT_LOG").unwrap(),
            Path::new("/s/overheid-cli/audit.jsonl")
        );
    }

    #[test]
    fn appends_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/audit.jsonl");
        let mut log = AuditLog::open(&path).unwrap();
        log.append(&serde_json::json!({"n": 1}), false).unwrap();
        log.append(&serde_json::json!({"n": 2}), true).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "{\"n\":1}\n{\"n\":2}\n");
    }

    #[test]
    fn unopenable_log_is_exit_74() {
        let dir = tempfile::tempdir().unwrap();
        let err = AuditLog::open(dir.path())
            .err()
            .expect("a directory is not a file");
        assert_eq!(err.exit_status().code(), 74);
    }
}
