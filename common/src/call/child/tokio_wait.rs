//! Waiting for a child on tokio's reactor: pipes and the exit (a pidfd on Linux) are polled by
//! the runtime, so a host with many calls at once spends no thread per child.

use std::future::Future;
use std::io;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use super::{Ending, Finished, Spawn, group_of, kill_group};

/// Run `spawn` until it ends, `timeout` passes or `cancelled` completes (then its process
/// group is killed). `Err` only when it could not be started.
pub async fn run_async(
    spawn: Spawn,
    timeout: Duration,
    cancelled: impl Future<Output = ()>,
) -> io::Result<Finished> {
    let mut child = tokio::process::Command::from(spawn.command()).spawn()?;
    let group = group_of(child.id());
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let bytes = spawn.stdin.unwrap_or_default();
    let cap = spawn.max_output as u64;
    let write = async move {
        if let Some(mut pipe) = stdin {
            // A child that exits unread ends the write (EPIPE).
            let _ = pipe.write_all(&bytes).await;
        }
    };
    let wait = async {
        let ending = tokio::select! {
            status = child.wait() => status.map(Ending::of),
            () = tokio::time::sleep(timeout) => Ok(Ending::TimedOut),
            () = cancelled => Ok(Ending::Cancelled),
        };
        // Also after a normal exit: a helper left behind must not hold the pipes open.
        kill_group(group);
        if !matches!(ending, Ok(Ending::Exited(_) | Ending::Signalled)) {
            let _ = child.wait().await;
        }
        ending
    };
    let (ending, (), stdout, stderr) =
        tokio::join!(wait, write, read(stdout, cap), read(stderr, cap));
    Ok(Finished {
        ending: ending?,
        stdout,
        stderr,
    })
}

/// Read a pipe to its end, keeping at most `cap` bytes.
async fn read(pipe: Option<impl AsyncRead + Unpin>, cap: u64) -> Vec<u8> {
    let mut bytes = Vec::new();
    if let Some(pipe) = pipe {
        let _ = pipe.take(cap).read_to_end(&mut bytes).await;
    }
    bytes
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::call::child::Environment;

    fn sh(script: &str) -> Spawn {
        let env = Environment::Only(vec![("PATH".into(), "/usr/bin:/bin".into())]);
        Spawn::new("/bin/sh", vec!["-c".into(), script.into()], env)
    }

    fn block_on<T>(future: impl Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn runs_with_its_environment_stdin_and_output_cap_without_threads() {
        let spawn = sh("printf '%s|' \"$A\"; cat; head -c 100000 /dev/zero >&2; exit 3")
            .var("A", "per-aanroep")
            .stdin(Some(b"invoer".to_vec()));
        let spawn = Spawn {
            max_output: 1000,
            ..spawn
        };
        let finished = block_on(run_async(
            spawn,
            Duration::from_secs(10),
            std::future::pending(),
        ))
        .unwrap();
        assert_eq!(finished.ending, Ending::Exited(3));
        assert_eq!(finished.stdout, b"per-aanroep|invoer");
        assert_eq!(finished.stderr.len(), 1000);
    }

    #[test]
    fn kills_the_group_after_exit_at_the_deadline_and_on_cancel() {
        let started = Instant::now();
        // Exits at once, but its helper holds stdout: the group kill ends the read.
        let left_behind = block_on(run_async(
            sh("sleep 30 & echo klaar"),
            Duration::from_secs(30),
            std::future::pending(),
        ))
        .unwrap();
        assert_eq!(left_behind.ending, Ending::Exited(0));
        assert_eq!(left_behind.stdout, b"klaar\n");
        let late = block_on(run_async(
            sh("sleep 30 & sleep 30"),
            Duration::from_millis(200),
            std::future::pending(),
        ))
        .unwrap();
        assert_eq!(late.ending, Ending::TimedOut);
        let cancelled = block_on(run_async(
            sh("sleep 30 & sleep 30"),
            Duration::from_secs(30),
            async { tokio::time::sleep(Duration::from_millis(200)).await },
        ))
        .unwrap();
        assert_eq!(cancelled.ending, Ending::Cancelled);
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
