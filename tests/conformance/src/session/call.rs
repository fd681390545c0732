//! From a planned probe to a process: its command line and a clean environment (base URLs at the
//! recorder, canary secrets, the audit destination, the caller's trace context).

use std::path::PathBuf;

use serde_json::Value;

use super::plan::Planned;
use super::{ACTIVITY_ID, Config};
use crate::invoke::Call;
use crate::model;
use crate::probe::Kind;
use crate::recorder::Recorder;

pub(super) struct Builder<'a> {
    pub(super) config: &'a Config,
    pub(super) discovery: Value,
    pub(super) recorder: &'a Recorder,
    pub(super) audit_dir: PathBuf,
    pub(super) home: PathBuf,
    pub(super) canary: Option<String>,
    pub(super) traceparent: String,
    pub(super) audit_by_option: bool,
}

impl Builder<'_> {
    pub(super) fn audit_path(&self, index: usize) -> PathBuf {
        self.audit_dir.join(format!("{index}.jsonl"))
    }

    pub(super) fn call(&self, index: usize, planned: &Planned) -> Call {
        let mut env: Vec<(String, String)> = vec![
            ("PATH".into(), super::inherited_path()),
            ("HOME".into(), self.home.display().to_string()),
            (
                "XDG_STATE_HOME".into(),
                self.home.join("state").display().to_string(),
            ),
            ("OVERHEID_PROCESSING_ACTIVITY_ID".into(), ACTIVITY_ID.into()),
            ("TRACEPARENT".into(), self.traceparent.clone()),
        ];
        if matches!(planned.kind, Kind::DiscoveryEmptyEnv) {
            env.truncate(1);
        }
        let set = |env: &mut Vec<(String, String)>, name: &str, value: String| {
            env.retain(|(existing, _)| existing != name);
            env.push((name.to_string(), value));
        };
        if !matches!(planned.kind, Kind::DiscoveryEmptyEnv) {
            for (name, value) in &self.config.env {
                set(&mut env, name, value.clone());
            }
            if !planned.live {
                for name in model::env_of_kind(&self.discovery, "base_url") {
                    let url = if planned.kind == Kind::PlainHttp {
                        "http://profile-check.example.invalid/bron".to_string()
                    } else {
                        self.recorder.base_url(index, planned.mode)
                    };
                    set(&mut env, &name, url);
                }
            }
            if let Some(canary) = &self.canary {
                for name in model::env_of_kind(&self.discovery, "secret") {
                    set(&mut env, &name, canary.clone());
                }
            }
            if !self.audit_by_option
                || planned.entry.is_none()
                || planned.kind == Kind::CommandDiscovery
            {
                set(
                    &mut env,
                    "OVERHEID_AUDIT_LOG",
                    self.audit_path(index).display().to_string(),
                );
            }
            for (name, value) in &planned.extra_env {
                set(&mut env, name, value.clone());
            }
        }
        let mut argv = self.config.program.clone();
        argv.extend(planned.argv.iter().cloned());
        Call {
            argv,
            env,
            timeout: planned.timeout.unwrap_or(self.config.timeout),
        }
    }

    /// Globals every per-command probe carries: the audit destination when it is an option; and
    /// with `--emulated`, the program's own default deadline widened as the checker's limits are
    /// (`--timeout` 10 × its declared default, 10 s when it declares none), except where the
    /// probe sets `--timeout` itself (the source-misbehaviour probes).
    pub(super) fn globals(&self, index: usize, planned: &Planned) -> Vec<String> {
        let mut globals = Vec::new();
        if self.audit_by_option {
            globals.extend([
                "--audit-log".into(),
                self.audit_path(index).display().to_string(),
            ]);
        }
        if self.config.emulated
            && !matches!(planned.kind, Kind::Upstream(_))
            && model::has_global_option(&self.discovery, "--timeout")
        {
            let default = model::global_option_default(&self.discovery, "--timeout")
                .and_then(|text| text.parse::<f64>().ok())
                .filter(|seconds| *seconds > 0.0 && seconds.is_finite())
                .unwrap_or(10.0);
            let widened = default * f64::from(super::EMULATED_SLOWDOWN);
            globals.extend(["--timeout".into(), widened.to_string()]);
        }
        globals
    }
}
