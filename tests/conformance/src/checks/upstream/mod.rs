//! Source-behaviour checks (EXIT-4..9, ERR-7, ERR-10, NET-*, AUDIT-15): the recorder answers like a
//! misbehaving source. `status` judges how each HTTP error status is reported; `transport` judges
//! what happens on the wire (garbage, silence, redirects, headers, the base URL, the audit record).

mod addressed;
mod status;
mod transport;

use super::{Check, Level};
use crate::probe::{Kind, Probe};
use crate::recorder::Mode;
use crate::session::Session;

pub(super) fn checks() -> Vec<Check> {
    CHECKS.into()
}

/// The source-behaviour checks, in the catalogue's order (the report's and `--list-rules`'): a
/// table, not a flow.
const CHECKS: [Check; 14] = [
    Check {
        id: "upstream-5xx",
        rules: &["EXIT-8", "ERR-7", "ERR-10"],
        level: Level::Must,
        title: "bron antwoordt 500: exit 69 BRON_ONBEREIKBAAR met status 500",
        run: status::server_error,
    },
    Check {
        id: "upstream-503",
        rules: &["EXIT-8", "NET-4", "ERR-7", "ERR-10"],
        level: Level::Must,
        title: "bron antwoordt 503 zonder Retry-After: hoogstens 2 herhalingen, dan exit 69 BRON_ONBEREIKBAAR met status 503",
        run: status::unavailable,
    },
    Check {
        id: "upstream-429",
        rules: &["EXIT-7", "ERR-7", "ERR-9", "ERR-10", "NET-5"],
        level: Level::Must,
        title: "bron antwoordt 429 met Retry-After voorbij de deadline: exit 75 TIJDELIJK_NIET_BESCHIKBAAR met status 429 en retry_after, niet opnieuw",
        run: status::rate_limited,
    },
    Check {
        id: "upstream-401",
        rules: &["EXIT-5", "ERR-7", "ERR-10"],
        level: Level::Must,
        title: "bron antwoordt 401: exit 77 NIET_TOEGESTAAN met status 401",
        run: status::unauthorized,
    },
    Check {
        id: "upstream-400",
        rules: &["EXIT-4", "ERR-7", "ERR-10"],
        level: Level::Must,
        title: "bron antwoordt 400: exit 65 API_FOUT (geen code van de eigen invoercontrole) met status 400",
        run: status::bad_request,
    },
    Check {
        id: "upstream-422",
        rules: &["EXIT-4", "ERR-7", "ERR-10"],
        level: Level::Must,
        title: "bron antwoordt 422: exit 65 API_FOUT (geen code van de eigen invoercontrole) met status 422",
        run: status::unprocessable,
    },
    Check {
        id: "upstream-410",
        rules: &["EXIT-6", "ERR-7", "ERR-10"],
        level: Level::Must,
        title: "bron antwoordt 410 op een verzoek naar één genoemd ding: exit 66 NIET_GEVONDEN met status 410",
        run: status::gone,
    },
    Check {
        id: "upstream-garbage",
        rules: &["EXIT-9"],
        level: Level::Must,
        title: "onleesbaar antwoord: exit 76",
        run: transport::garbage,
    },
    Check {
        id: "upstream-timeout",
        rules: &["NET-2"],
        level: Level::Must,
        title: "bron zwijgt: --timeout 1 beëindigt het programma zelf, exit 124 TIJDLIMIET_VERSTREKEN (zonder verzoek niet eerder dan na die seconde)",
        run: transport::timeout,
    },
    Check {
        id: "upstream-timeout-on-time",
        rules: &["NET-2"],
        level: Level::Must,
        title: "bron zwijgt: met --timeout 1 gestopt binnen 2,5 s na het eerste verzoek (wandklok; n.v.t. met --emulated)",
        run: transport::timeout_on_time,
    },
    Check {
        id: "upstream-redirect",
        rules: &["NET-6"],
        level: Level::Must,
        title: "omleiding naar een andere origin: niet volgen, exit 76 OMLEIDING_GEWEIGERD",
        run: transport::redirect,
    },
    Check {
        id: "upstream-headers",
        rules: &["NET-3", "NET-10"],
        level: Level::Must,
        title: "elk verzoek: User-Agent <naam>/<versie> en traceparent met de trace-id",
        run: transport::headers,
    },
    Check {
        id: "upstream-base-url",
        rules: &["NET-11", "CONF-5"],
        level: Level::Must,
        title: "verzoeken gaan alleen naar de opgegeven basis-URL",
        run: transport::base_url,
    },
    Check {
        id: "audit-upstream",
        rules: &["AUDIT-15"],
        level: Level::Must,
        title: "auditregel na een verzoek: url.full en http.response.status_code",
        run: transport::audit_upstream,
    },
];

/// The probes that met the recorder in `mode`.
fn of_mode(session: &Session, mode: Mode) -> impl Iterator<Item = &Probe> {
    session.probes_where(move |k| *k == Kind::Upstream(mode))
}

/// Why a check found nothing to judge.
const NONE: &str = "geen alleen-lezen tool met openWorldHint en base_url-variabele";
