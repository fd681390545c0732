//! Ctrl-C (rule EXIT-11): a person who presses it while a command waits gets the terminal back
//! at once, with the spinner cleared, the call audited (code `ONDERBROKEN`) and exit 130.
//!
//! The wait is what must end. A send is a future the command's thread drives
//! ([`crate::net::http::HttpClient::send_until`]) beside [`pressed`], which looks at the
//! flag the `SIGINT` handler sets; a wait that blocks its thread (a line from the terminal) runs
//! on a thread of its own ([`abandonable`]) while the command's thread looks at the flag. When it
//! is set, the command's thread stops waiting and returns an ordinary error through the call's
//! one path: the spinner's guard clears the line, the one audit path appends the record, and
//! `main` ends the process (the only place that may). The dropped send closes its connection;
//! an abandoned thread dies with the process.
//!
//! The handler only sets an atomic flag (all a signal handler may safely do). A second `SIGINT`
//! takes the default action (the process ends by the signal), for a person who will not wait
//! for the record. Nothing is installed until a command first waits on the network or passes a
//! mutation's gate ([`arm`]), so a call that does neither pays nothing; before that, Ctrl-C
//! ends the process by the default action as it always did.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, mpsc};
use std::time::Duration;

use crate::call::provenance::Outcome;
use crate::problem::error::{Error, Problem};
use crate::problem::exit::ExitStatus;

/// How often a waiting thread looks at the flag: the longest a person waits after Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// The flag the handler sets; `None` when no handler could be installed (then Ctrl-C keeps its
/// default action).
static FLAG: OnceLock<Option<Arc<AtomicBool>>> = OnceLock::new();

/// Install the handler, once per process.
pub fn arm() {
    let _ = flag();
}

fn flag() -> Option<&'static AtomicBool> {
    FLAG.get_or_init(install).as_deref()
}

#[cfg(unix)]
fn install() -> Option<Arc<AtomicBool>> {
    use signal_hook::consts::SIGINT;
    let flag = Arc::new(AtomicBool::new(false));
    // In this order: the first handler sees the flag before the second sets it, so the second
    // Ctrl-C (flag already set) takes the default action.
    signal_hook::flag::register_conditional_default(SIGINT, Arc::clone(&flag)).ok()?;
    signal_hook::flag::register(SIGINT, Arc::clone(&flag)).ok()?;
    Some(flag)
}

#[cfg(not(unix))]
fn install() -> Option<Arc<AtomicBool>> {
    None
}

/// Whether Ctrl-C was pressed since [`arm`].
pub fn interrupted() -> bool {
    FLAG.get()
        .and_then(Option::as_deref)
        .is_some_and(|flag| flag.load(Ordering::SeqCst))
}

/// Ends when Ctrl-C is pressed (looking every [`POLL`]); never when no handler could be installed.
/// Installs the handler ([`arm`]). For a wait that is a future, beside it in a `select!`.
pub(crate) async fn pressed() {
    let Some(flag) = flag() else {
        return std::future::pending().await;
    };
    while !flag.load(Ordering::SeqCst) {
        tokio::time::sleep(POLL).await;
    }
}

/// Run `work` (a blocking wait, such as a line from the terminal) on a thread of its own and wait for it, or for Ctrl-C: `Ok(None)`
/// when the person interrupted (before or during the wait; the work is then abandoned). A panic
/// in `work` is resumed here, so it is reported as the command's own.
pub fn abandonable<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<Option<T>, Problem> {
    let Some(flag) = flag() else {
        return Ok(Some(work()));
    };
    if flag.load(Ordering::SeqCst) {
        return Ok(None);
    }
    let (done, answer) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("verzoek".into())
        .spawn(move || {
            let _ = done.send(crate::process::crash::catch(work));
        })
        .map_err(|e| Problem::software(format!("geen thread voor het verzoek: {e}")))?;
    loop {
        match answer.recv_timeout(POLL) {
            Ok(Ok(value)) => return Ok(Some(value)),
            Ok(Err(report)) => crate::process::crash::resume(report),
            Err(mpsc::RecvTimeoutError::Timeout) if flag.load(Ordering::SeqCst) => return Ok(None),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Problem::software("het verzoek eindigde zonder antwoord"));
            }
        }
    }
}

/// A command's result after Ctrl-C came while it ran but not while it waited (the flag was set
/// after its last send, or during a mutation's local work). A read is interrupted whatever it
/// found. A mutation that took effect (no commit left to do, MUT-13) is reported as it is, so
/// its result and record are not lost; one whose commit is still to come is rolled back (its
/// pending commit is dropped) and recorded as interrupted with nothing changed.
pub(crate) fn observed(result: Result<Outcome, Error>, mutating: bool) -> Result<Outcome, Error> {
    if !interrupted() {
        return result;
    }
    match result {
        Err(Error::Problem(problem)) if problem.exit == ExitStatus::Interrupted => {
            Err(Error::Problem(problem))
        }
        Ok(outcome) if mutating && outcome.commit.is_none() => Ok(outcome),
        Ok(_) if mutating => Err(Problem::interrupted(
            "onderbroken voordat de wijziging werd vastgelegd: er is niets gewijzigd",
        )
        .into()),
        other if mutating => other,
        _ => Err(Problem::interrupted("onderbroken").into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_that_finishes_gives_its_answer() {
        assert_eq!(abandonable(|| 6 * 7).unwrap(), Some(42));
        assert!(!interrupted());
    }
}
