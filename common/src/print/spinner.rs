//! Life on slow calls (rule OUT-5): a spinner on stderr naming what is
//! awaited, only when stderr is a terminal, only once a call has run for
//! [`DELAY`], never with `--quiet`. It is cleared before anything else is
//! printed: the guard clears it when dropped, and the call returns first.
//! Under MCP (stderr a pipe) and in scripts it never appears.

use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a call runs before the spinner shows.
pub(crate) const DELAY: Duration = Duration::from_secs(1);

/// A running spinner; dropping it clears the line.
pub(crate) struct Spinner {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Start waiting for `what`; shown after [`DELAY`] if stderr is a
    /// terminal and `quiet` is off, else nothing at all.
    pub(crate) fn start(what: String, quiet: bool) -> Self {
        if quiet || !crate::print::output::stderr_is_terminal() {
            return Self {
                stop: None,
                thread: None,
            };
        }
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("spinner".into())
            .spawn(move || {
                if stopped.recv_timeout(DELAY) != Err(mpsc::RecvTimeoutError::Timeout) {
                    return;
                }
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner());
                bar.set_style(style);
                bar.set_message(what);
                bar.enable_steady_tick(Duration::from_millis(100));
                let _ = stopped.recv();
                bar.finish_and_clear();
            })
            .ok();
        Self {
            stop: Some(stop),
            thread,
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What a request to `url` waits for, for people: its host.
pub(crate) fn waiting_for(url: &str) -> String {
    format!("wachten op {}…", source_name(url))
}

/// The source a request goes to, for people: the host of `url` (never its path or query).
pub(crate) fn source_name(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "de bron".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_label_names_the_host_and_never_the_query() {
        assert_eq!(
            waiting_for("https://api.kvk.nl/api/v1/zoeken?naam=geheim"),
            "wachten op api.kvk.nl…"
        );
        assert_eq!(waiting_for("geen url"), "wachten op de bron…");
    }
}
