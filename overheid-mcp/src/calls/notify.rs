//! What the client hears while a call runs: progress, and the CLI's warnings as log messages.
//!
//! - **Progress**: when the request carries `_meta.progressToken`, a `notifications/progress`
//!   every [`TICK`] while the CLI runs (so at least one a second during any call longer than
//!   one), `progress` the seconds elapsed and `total` the call's deadline, both only growing.
//!   A host that resets its request timeout on progress (the TypeScript SDK's
//!   `resetTimeoutOnProgress`) then never gives up on a call the bridge is still running.
//! - **Logging**: the CLI's warnings (ERR-2: every stderr line but the error object) become
//!   `notifications/message` at level `warning`, logger the tool's name, sent before the
//!   result, when the client asked for that level: per request with
//!   `_meta["io.modelcontextprotocol/logLevel"]` (2026-07-28), else with `logging/setLevel` on
//!   this stdio connection (2025-11-25). A stateless HTTP server keeps no connection, so there
//!   a 2025 client's `logging/setLevel` is accepted and lasts for nothing; it asks per request.
//!
//! Over HTTP a notification turns the answer into an SSE stream scoped to the request (rmcp
//! falls back from JSON by itself), so nothing is lost there either.
#![allow(
    deprecated,
    reason = "logging is deprecated by 2026-07-28 (SEP-2577) but still part of it and of 2025-11-25"
)]

use std::future::Future;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::model::RequestMetaObject;
use rmcp::model::{
    LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::{Peer, RoleServer};

/// How often progress is sent while a call runs.
pub(crate) const TICK: Duration = Duration::from_millis(500);

/// The most warning lines one call forwards (a CLI that floods stderr is cut off here).
pub(crate) const MAX_WARNINGS: usize = 20;

/// The most bytes of one forwarded warning line.
pub(crate) const MAX_WARNING_BYTES: usize = 2048;

/// The log level a 2025-11-25 client set on its connection (`logging/setLevel`).
#[derive(Debug, Default)]
pub(crate) struct LogLevel(Mutex<Option<LoggingLevel>>);

impl LogLevel {
    pub(crate) fn set(&self, level: LoggingLevel) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(level);
    }

    pub(crate) fn get(&self) -> Option<LoggingLevel> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The level a 2026-07-28 request asks for in its `_meta`.
    pub(crate) fn of_request(meta: &RequestMetaObject) -> Option<LoggingLevel> {
        meta.log_level()
    }
}

/// Where one request's notifications go.
pub(crate) struct Notifier {
    peer: Peer<RoleServer>,
    progress: Option<ProgressToken>,
    /// The least severe level the client wants; `None`: no log messages.
    level: Option<LoggingLevel>,
    /// The call's deadline, as the `total` of progress.
    deadline: Duration,
}

impl Notifier {
    pub(crate) fn new(
        peer: Peer<RoleServer>,
        progress: Option<ProgressToken>,
        level: Option<LoggingLevel>,
        deadline: Duration,
    ) -> Self {
        Self {
            peer,
            progress,
            level,
            deadline,
        }
    }

    /// Run `work`, sending progress every [`TICK`] while it runs (when the client asked).
    pub(crate) async fn while_running<F: Future>(&self, what: &str, work: F) -> F::Output {
        let Some(token) = &self.progress else {
            return work.await;
        };
        let mut work = std::pin::pin!(work);
        let start = Instant::now();
        let mut ticks = tokio::time::interval_at((start + TICK).into(), TICK);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                out = &mut work => return out,
                _ = ticks.tick() => {
                    let elapsed = start.elapsed().as_secs_f64();
                    let params = ProgressNotificationParam::new(
                        token.clone(),
                        (elapsed * 10.0).round() / 10.0,
                    )
                    .with_total(self.deadline.as_secs_f64())
                    .with_message(format!("{what}: {} s bezig", elapsed.round()));
                    // A client that is gone is noticed by the call's cancellation, not here.
                    let _ = self.peer.notify_progress(params).await;
                }
            }
        }
    }

    /// Forward the CLI's warnings (its stderr but the error object) as log messages.
    pub(crate) async fn warnings(&self, tool: &str, stderr: &[u8]) {
        if self
            .level
            .is_none_or(|wanted| severity(wanted) > severity(LoggingLevel::Warning))
        {
            return;
        }
        for line in warning_lines(stderr) {
            let params = LoggingMessageNotificationParam::new(LoggingLevel::Warning, line.into())
                .with_logger(tool);
            let sent = self.peer.notify_logging_message(params).await;
            if sent.is_err() {
                return;
            }
        }
    }
}

/// The rank of a level, least severe first (RFC 5424 order).
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// The warning lines of a CLI's stderr: every non-empty line but a JSON error object (ERR-1),
/// at most [`MAX_WARNINGS`], each cut to [`MAX_WARNING_BYTES`].
pub(crate) fn warning_lines(stderr: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stderr)
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.trim().is_empty())
        .filter(|line| {
            !serde_json::from_str::<serde_json::Value>(line).is_ok_and(|v| v.is_object())
        })
        .take(MAX_WARNINGS)
        .map(|line| {
            let mut end = line.len().min(MAX_WARNING_BYTES);
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            line[..end].to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_the_lines_but_the_error_object() {
        let stderr = b"waarschuwing: cache uit\n\n{\"code\":\"X\",\"exit_code\":65}\nnog een\n";
        assert_eq!(
            warning_lines(stderr),
            ["waarschuwing: cache uit", "nog een"]
        );
        let flood = "x\n".repeat(100);
        assert_eq!(warning_lines(flood.as_bytes()).len(), MAX_WARNINGS);
        let long = "é".repeat(MAX_WARNING_BYTES);
        assert!(warning_lines(long.as_bytes())[0].len() <= MAX_WARNING_BYTES);
    }
}
