//! Running the program under test: one process per call, fresh environment, deadline, process-group kill.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// One process to start.
#[derive(Clone, Debug)]
pub(crate) struct Call {
    /// Complete argv, program first.
    pub argv: Vec<String>,
    /// The whole environment of the child (nothing is inherited).
    pub env: Vec<(String, String)>,
    /// After this the child and its process group are killed.
    pub timeout: Duration,
}

/// What one process did.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outcome {
    pub command_line: String,
    /// Exit status; `None` when killed (deadline) or not started.
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
    pub spawn_error: Option<String>,
    pub elapsed: Duration,
    /// When the process was seen to end (exit or kill).
    pub ended: Option<Instant>,
}

impl Outcome {
    /// `exit N`, `killed after the deadline` or `not started`, for evidence.
    pub(crate) fn status_text(&self) -> String {
        match (self.status, self.timed_out, &self.spawn_error) {
            (Some(code), _, _) => format!("exit {code}"),
            (None, true, _) => format!("afgebroken na {:.1} s", self.elapsed.as_secs_f64()),
            (None, false, Some(error)) => format!("niet gestart: {error}"),
            (None, false, None) => "beëindigd door een signaal".into(),
        }
    }
}

/// Shell-style rendering of argv, for evidence.
pub(crate) fn quote_argv(argv: &[String]) -> String {
    argv.iter()
        .map(|word| {
            let plain = !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
            if plain {
                word.clone()
            } else {
                format!("'{}'", word.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Run one call to completion or its deadline.
pub(crate) fn run(call: &Call) -> Outcome {
    let started = Instant::now();
    let mut outcome = Outcome {
        command_line: quote_argv(&call.argv),
        ..Outcome::default()
    };
    let mut command = Command::new(&call.argv[0]);
    command
        .args(&call.argv[1..])
        .env_clear()
        .envs(call.env.iter().map(|(name, value)| (name, value)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => {
            outcome.spawn_error = Some(error.to_string());
            return outcome;
        }
    };
    let stdout_reader = read_in_background(child.stdout.take());
    let stderr_reader = read_in_background(child.stderr.take());
    let deadline = started + call.timeout;
    let mut pause = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                outcome.status = status.code();
                outcome.ended = Some(Instant::now());
                break;
            }
            Ok(None) if Instant::now() >= deadline => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                outcome.timed_out = true;
                outcome.ended = Some(Instant::now());
                break;
            }
            Ok(None) => {
                thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(10));
            }
            Err(error) => {
                outcome.spawn_error = Some(error.to_string());
                kill_group(child.id());
                break;
            }
        }
    }
    // Grandchildren may still hold the pipes; the group was killed on timeout, so this ends.
    outcome.stdout = stdout_reader.join().unwrap_or_default();
    outcome.stderr = stderr_reader.join().unwrap_or_default();
    outcome.elapsed = started.elapsed();
    outcome
}

fn read_in_background<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// SIGKILL the whole process group led by `pid` (the child was made a group leader).
fn kill_group(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Run every call, `jobs` at a time; outcomes in the order of `calls`.
pub(crate) fn run_all(calls: &[Call], jobs: usize) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; calls.len()]);
    thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(calls.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(call) = calls.get(index) else { break };
                    let outcome = run(call);
                    results.lock().expect("results lock")[index] = Some(outcome);
                }
            });
        }
    });
    results
        .into_inner()
        .expect("results lock")
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect()
}
