//! Running another CLI of the family as a child, through its own profile (rule CHILD-1).
//!
//! A tool that needs data another family CLI already provides (regelrecht-cli's concept asks
//! kvk-cli; rvo-cli re-evaluates a concept with regelrecht-cli) runs that CLI instead of
//! duplicating its HTTP or engine code. The program is looked up in `OVERHEID_CLI_DIR`, else
//! next to the running executable; it gets an argv list (never a shell), the caller's
//! environment plus `TRACEPARENT` (so its audit record continues this trace), an optional stdin,
//! and `--timeout` set to what is left of the caller's deadline. Its stdout is one JSON document
//! (the profile's data or `--provenance` envelope); a failure is its error object on stderr.
//! The caller's own secret variables are removed from the child's environment.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::context::Context;
use crate::env::OVERHEID_CLI_DIR;
use crate::error::{Problem, Result};

/// The most bytes read from a child's stdout or stderr.
const MAX_OUTPUT_BYTES: u64 = 8 * 1024 * 1024;

/// How a child invocation failed, as its error object (or the runner) says.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildFailure {
    /// The child's exit code (124 when the deadline passed, 69 when it could not be started).
    pub exit_code: i32,
    /// The error object's `code`, or a runner code.
    pub code: String,
    /// The error object's `detail`, or what went wrong running it.
    pub detail: String,
}

/// `tool` (a family program name such as `kvk-cli`) as a path: in `OVERHEID_CLI_DIR` when set,
/// else in the directory of the running executable. A name that is not a plain program name
/// is refused, so data can never choose a path.
pub fn locate(ctx: &Context<'_>, tool: &str) -> Result<PathBuf> {
    if !is_program_name(tool) {
        return Err(
            Problem::config(format!("{tool:?} is geen programmanaam van de familie")).into(),
        );
    }
    let dir = match ctx.env(OVERHEID_CLI_DIR) {
        Some(dir) => PathBuf::from(dir),
        None => std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(PathBuf::from))
            .ok_or_else(|| Problem::config("de map van dit programma is onbekend"))?,
    };
    Ok(dir.join(tool))
}

/// Whether `name` is a plain program name (`[a-z0-9-]+`, not starting with `-`): no path, no
/// option, nothing a shell or the file system would interpret.
pub fn is_program_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Run `tool args…` and return its stdout as JSON, or its failure. Exit 0 with stdout that is
/// not one JSON document is a protocol failure (76).
pub fn run_json(
    ctx: &Context<'_>,
    tool: &str,
    args: &[String],
    stdin: Option<Vec<u8>>,
) -> Result<std::result::Result<Value, ChildFailure>> {
    let program = locate(ctx, tool)?;
    let failure = |exit_code: i32, code: &str, detail: String| ChildFailure {
        exit_code,
        code: code.to_string(),
        detail,
    };
    let remaining = ctx.deadline().saturating_duration_since(Instant::now());
    if remaining.is_zero() {
        return Err(Problem::timeout(format!("geen tijd meer om {tool} te starten")).into());
    }
    let mut argv: Vec<String> = args.to_vec();
    argv.push(format!(
        "--timeout={:.3}",
        remaining.as_secs_f64().max(0.001)
    ));
    let mut command = Command::new(&program);
    // The caller's own credentials stay with the caller (SEC-3): the child reads its own.
    for var in ctx.tool.env.iter().filter(|v| v.secret) {
        command.env_remove(var.name);
    }
    let mut child = match command
        .args(&argv)
        .env("TRACEPARENT", ctx.trace.traceparent())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            return Ok(Err(failure(
                69,
                "BRON_NIET_GESTART",
                format!("{} kon niet gestart worden: {e}", program.display()),
            )));
        }
    };
    let writer = child.stdin.take().map(|mut pipe| {
        let bytes = stdin.unwrap_or_default();
        thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(pipe) = pipe {
                let _ = pipe.take(MAX_OUTPUT_BYTES).read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    // The child has its own --timeout; this grace only covers a child that ignores it.
    let hard_stop = ctx.deadline() + Duration::from_millis(500);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= hard_stop => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    let Some(status) = status else {
        return Err(Problem::timeout(format!("{tool} was niet op tijd klaar")).into());
    };
    let code = status.code().unwrap_or(1);
    if code == 0 {
        return Ok(serde_json::from_slice::<Value>(&stdout).map_err(|e| {
            failure(
                76,
                "PARSE_FOUT",
                format!("{tool} gaf geen JSON op stdout: {e}"),
            )
        }));
    }
    let object: Option<Value> = String::from_utf8_lossy(&stderr)
        .lines()
        .rev()
        .find_map(|line| serde_json::from_str(line).ok());
    let text = |key: &str| {
        object
            .as_ref()
            .and_then(|o| o.get(key))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    Ok(Err(failure(
        code,
        &text("code").unwrap_or_else(|| "FOUT".into()),
        text("detail").unwrap_or_else(|| format!("{tool} eindigde met exit {code}")),
    )))
}

#[cfg(test)]
mod tests {
    use super::is_program_name;

    #[test]
    fn only_plain_program_names_are_run() {
        assert!(is_program_name("kvk-cli"));
        assert!(is_program_name("regelrecht-cli"));
        for bad in [
            "",
            "../kvk-cli",
            "/bin/sh",
            "kvk cli",
            "KVK-CLI",
            "-x",
            "a;b",
            "kvk-cli\n",
        ] {
            assert!(!is_program_name(bad), "{bad:?}");
        }
    }
}
