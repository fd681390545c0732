//! Panics as bug reports: where the bug struck, never what data it held
//! (rules ERR-12, AUDIT-19).
//!
//! The panic hook prints nothing (the runtime's text must not reach the user)
//! but remembers the panic's location and, when it is a literal of our own
//! code (a `&'static str` payload such as `panic!("…")` or `unreachable!()`),
//! its message. Formatted payloads (`unwrap` on an error, index out of
//! bounds, `expect`) may carry input or response data and are left out.

use crate::problem::error::Problem;
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};

use serde_json::Value;

thread_local! {
    static LAST: RefCell<Option<PanicReport>> = const { RefCell::new(None) };
}

/// What is kept of one panic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PanicReport {
    /// `file:line:column` of the panic.
    pub location: Option<(String, u32, u32)>,
    /// The message, only when it is a literal of the program's code.
    pub message: Option<&'static str>,
}

/// Replace the runtime's panic output by [`remember`].
pub(crate) fn install() {
    panic::set_hook(Box::new(remember));
}

/// The panic hook: remember the panic for [`catch`] on the same thread.
pub(crate) fn remember(info: &PanicHookInfo<'_>) {
    let report = PanicReport {
        location: info
            .location()
            .map(|l| (l.file().to_string(), l.line(), l.column())),
        message: info.payload().downcast_ref::<&'static str>().copied(),
    };
    LAST.with(|last| *last.borrow_mut() = Some(report));
}

/// Continue on this thread a panic that [`catch`] caught on another (a send abandoned on Ctrl-C
/// runs on its own thread, `interrupt::abandonable`): the report is this thread's again, and the
/// unwinding goes on to this thread's [`catch`] without running the hook twice.
pub(crate) fn resume(report: PanicReport) -> ! {
    LAST.with(|last| *last.borrow_mut() = Some(report));
    panic::resume_unwind(Box::new(()))
}

/// Run `f`; a panic becomes its [`PanicReport`] (empty if the hook was not installed).
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, PanicReport> {
    LAST.with(|last| last.borrow_mut().take());
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        LAST.with(|last| last.borrow_mut().take())
            .unwrap_or_default()
    })
}

impl PanicReport {
    /// The exit-70 error, whose `detail` names the place (and literal message).
    pub(crate) fn problem(&self) -> Problem {
        let mut detail = String::from("interne fout: de opdracht is onverwacht afgebroken");
        if let Some((file, line, column)) = &self.location {
            detail.push_str(&format!(" in {file}:{line}:{column}"));
        }
        match self.message {
            Some(message) => detail.push_str(&format!(" ({message})")),
            None => detail.push_str(" (bericht weggelaten: het kan gegevens bevatten)"),
        }
        Problem::software(detail)
            .with_hint("dit is een fout in de tool; meld het met deze tekst en de trace-id")
    }

    /// The audit attributes (OpenTelemetry `code.*` and `exception.*`).
    pub(crate) fn attributes(&self) -> Vec<(&'static str, Value)> {
        let mut attributes = vec![("exception.type", Value::from("panic"))];
        if let Some((file, line, column)) = &self.location {
            attributes.push(("code.file.path", file.clone().into()));
            attributes.push(("code.line.number", (*line).into()));
            attributes.push(("code.column.number", (*column).into()));
        }
        if let Some(message) = self.message {
            attributes.push(("exception.message", message.into()));
        }
        attributes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chains to the default hook, so other tests' failures still print.
    fn install_for_tests() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let default = panic::take_hook();
            panic::set_hook(Box::new(move |info| {
                remember(info);
                default(info);
            }));
        });
    }

    #[test]
    fn a_literal_panic_keeps_message_and_location() {
        install_for_tests();
        let line = line!() + 1;
        let report = catch(|| -> u8 { panic!("kapotte invariant") }).expect_err("panics");
        let (file, at, _) = report.location.clone().expect("location");
        assert!(file.ends_with("crash.rs"), "{file}");
        assert_eq!(at, line);
        assert_eq!(report.message, Some("kapotte invariant"));
        let problem = report.problem();
        assert_eq!(problem.exit.code(), 70);
        let detail = problem.detail.clone();
        assert!(detail.contains(&format!("crash.rs:{line}:")), "{detail}");
        assert!(detail.contains("kapotte invariant"), "{detail}");
        let attributes = report.attributes();
        assert!(attributes.contains(&("code.line.number", line.into())));
        assert!(attributes.contains(&("exception.message", "kapotte invariant".into())));
    }

    #[test]
    fn a_formatted_panic_keeps_only_the_location() {
        install_for_tests();
        let secret = String::from("geheime-invoer-123");
        let report = catch(|| -> u8 { panic!("ongeldig: {secret}") }).expect_err("panics");
        assert!(report.location.is_some());
        assert_eq!(report.message, None);
        let detail = report.problem().detail;
        assert!(!detail.contains("geheime-invoer"), "{detail}");
        assert!(!format!("{:?}", report.attributes()).contains("geheime-invoer"));
        assert_eq!(catch(|| 7), Ok(7));
    }
}
