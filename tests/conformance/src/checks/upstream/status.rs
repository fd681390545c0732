//! How each HTTP error status of the source is reported (EXIT-4..8, ERR-7, ERR-9, ERR-10, NET-4, NET-5):
//! exit code, registered `code`, and `status` equal to the source's answer.

use serde_json::Value;

use super::{NONE, addressed, of_mode};
use crate::checks::errors::error_problem;
use crate::checks::{Evidence, Verdict, judge, judge_probes};
use crate::probe::Probe;
use crate::recorder::Mode;
use crate::session::Session;

/// Codes a program uses for its own input checks: a source's refusal is not one of them (ERR-10).
const OWN_INPUT_CODES: [&str; 3] = ["ONGELDIGE_INVOER", "ONGELDIG_GEBRUIK", "ONBEKEND_VELD"];

/// Why the error object does not carry `"status": <status>` (ERR-7), if it does not.
fn status_member(probe: &Probe, status: i64) -> Option<String> {
    let object = probe.error_object()?;
    let got = object.get("status");
    (got.and_then(Value::as_i64) != Some(status)).then(|| match got {
        None => format!("foutobject zonder \"status\": {status} (ERR-7)"),
        Some(other) => format!("\"status\" hoort {status} te zijn, kreeg {other} (ERR-7)"),
    })
}

/// Why `probe` is not exit `exit` with `code` and `status`, if it is not.
fn source_error(probe: &Probe, exit: i32, code: &str, status: i64) -> Option<String> {
    error_problem(probe, exit, Some(code)).or_else(|| status_member(probe, status))
}

/// A refusal by the source (400, 422): exit 65 with `API_FOUT`, never a code of the program's own input checks.
fn refused(probe: &Probe, status: i64) -> Option<String> {
    if let Some(why) = error_problem(probe, 65, None) {
        return Some(why);
    }
    let code = probe.error_code().unwrap_or_default();
    if OWN_INPUT_CODES.contains(&code.as_str()) {
        return Some(format!(
            "code {code} is voor de eigen invoercontrole; een weigering door de bron (HTTP {status}) is API_FOUT (ERR-10)"
        ));
    }
    source_error(probe, 65, "API_FOUT", status)
}

pub(super) fn server_error(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::ServerError), NONE, |probe| {
        source_error(probe, 69, "BRON_ONBEREIKBAAR", 500)
    })
}

/// NET-4: the first request plus at most two retries.
const MAX_REQUESTS: usize = 3;

pub(super) fn unavailable(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Unavailable), NONE, |probe| {
        if probe.requests.len() > MAX_REQUESTS {
            return Some(format!(
                "{} verzoeken: hoogstens 2 herhalingen toegestaan (NET-4)",
                probe.requests.len()
            ));
        }
        source_error(probe, 69, "BRON_ONBEREIKBAAR", 503)
    })
}

pub(super) fn rate_limited(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::RateLimited), NONE, |probe| {
        if let Some(why) = source_error(probe, 75, "TIJDELIJK_NIET_BESCHIKBAAR", 429) {
            return Some(why);
        }
        if probe.requests.len() > 1 {
            return Some(format!(
                "{} verzoeken: opnieuw geprobeerd hoewel Retry-After voorbij de deadline ligt",
                probe.requests.len()
            ));
        }
        let retry_after = probe
            .error_object()?
            .get("retry_after")
            .and_then(Value::as_i64);
        (retry_after != Some(3600))
            .then(|| format!("retry_after hoort 3600 te zijn, kreeg {retry_after:?}"))
    })
}

pub(super) fn unauthorized(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Unauthorized), NONE, |probe| {
        source_error(probe, 77, "NIET_TOEGESTAAN", 401)
    })
}

pub(super) fn bad_request(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::BadRequest), NONE, |probe| {
        refused(probe, 400)
    })
}

pub(super) fn unprocessable(session: &Session) -> Verdict {
    judge_probes(of_mode(session, Mode::Unprocessable), NONE, |probe| {
        refused(probe, 422)
    })
}

/// Only reads whose first request names one thing: elsewhere 404/410 means the source is not
/// where it should be, and the profile leaves that to the program.
pub(super) fn gone(session: &Session) -> Verdict {
    let mut considered = 0;
    let mut failures = Vec::new();
    for probe in of_mode(session, Mode::Gone) {
        let Some(identifier) = addressed::identifier(session, probe) else {
            continue;
        };
        considered += 1;
        if let Some(why) = source_error(probe, 66, "NIET_GEVONDEN", 410) {
            failures.push(Evidence::of(
                &probe.outcome,
                format!("{why} (het verzoek noemt {identifier:?})"),
            ));
        }
    }
    let reason = if of_mode(session, Mode::Gone).next().is_none() {
        NONE
    } else {
        addressed::NONE_ADDRESSED
    };
    judge(failures, considered, reason)
}
