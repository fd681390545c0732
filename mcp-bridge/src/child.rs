//! Running one CLI invocation: argv list (never a shell), chosen environment, optional stdin
//! bytes, own process group, deadline and cancellation.
//!
//! The child leads a new process group; when the deadline passes or the call is cancelled,
//! the whole group is killed, so helpers a CLI started die with it. After a normal exit the
//! group is killed too, so a straggler cannot hold the output pipes open.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use rustix::process::{Pid, Signal, kill_process_group};

/// How an invocation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Exited with this status.
    Exited(i32),
    /// Ended by a signal the bridge did not send.
    Signalled,
    /// Killed by the bridge at the deadline.
    TimedOut,
    /// Killed by the bridge because the client cancelled the call.
    Cancelled,
}

/// What an invocation produced.
#[derive(Debug)]
pub struct Finished {
    pub ending: Ending,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// A handle to kill a running invocation from another thread.
#[derive(Clone, Debug, Default)]
pub struct Killer {
    group: Arc<std::sync::Mutex<Option<Pid>>>,
    cancelled: Arc<AtomicBool>,
}

impl Killer {
    /// Kill the invocation's process group (if it still runs) and mark it cancelled.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        if let Some(group) = *self
            .group
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
        {
            let _ = kill_process_group(group, Signal::KILL);
        }
    }

    fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// Run `program args…` with exactly `env`, `stdin` (or none: an empty stdin), and a deadline.
pub fn run(
    program: &Path,
    args: &[String],
    stdin: Option<Vec<u8>>,
    env: &[(OsString, OsString)],
    timeout: Duration,
    killer: &Killer,
) -> io::Result<Finished> {
    use std::os::unix::process::CommandExt;

    if killer.is_cancelled() {
        return Ok(Finished {
            ending: Ending::Cancelled,
            stdout: Vec::new(),
            stderr: Vec::new(),
        });
    }
    let mut child = Command::new(program)
        .args(args)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let group = i32::try_from(child.id()).ok().and_then(Pid::from_raw);
    *killer
        .group
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = group;
    if killer.is_cancelled() {
        killer.cancel();
    }
    let stdin = writer(child.stdin.take(), stdin.unwrap_or_default());
    let stdout = reader(child.stdout.take());
    let stderr = reader(child.stderr.take());
    let (sender, exited) = mpsc::channel();
    let waiter = thread::spawn(move || {
        let _ = sender.send(child.wait());
    });
    let kill_group = || {
        if let Some(group) = group {
            let _ = kill_process_group(group, Signal::KILL);
        }
    };
    let (status, timed_out) = match exited.recv_timeout(timeout) {
        Ok(status) => (status, false),
        Err(_) => {
            kill_group();
            (
                exited
                    .recv()
                    .unwrap_or_else(|_| Err(io::Error::other("wachter gestopt"))),
                true,
            )
        }
    };
    kill_group();
    *killer
        .group
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    let _ = waiter.join();
    let _ = stdin.join();
    let status = status?;
    let ending = if killer.is_cancelled() {
        Ending::Cancelled
    } else if timed_out {
        Ending::TimedOut
    } else {
        match status.code() {
            Some(code) => Ending::Exited(code),
            None => Ending::Signalled,
        }
    };
    Ok(Finished {
        ending,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// Write `bytes` to the child's stdin on a thread of its own (a child that reads late or never
/// must not block the bridge), then close it. A child that exits unread ends the write (EPIPE).
fn writer(stream: Option<impl Write + Send + 'static>, bytes: Vec<u8>) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        if let Some(mut stream) = stream {
            let _ = stream.write_all(&bytes);
        }
    })
}

fn reader(stream: Option<impl Read + Send + 'static>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buffer = Vec::new();
        if let Some(mut stream) = stream {
            let _ = stream.read_to_end(&mut buffer);
        }
        buffer
    })
}
