//! The profile's fixed exit-code table (rule EXIT-1).
//!
//! The numbers never change meaning within a major profile version. Discovery
//! publishes this table, generated from the same enum the code uses.

use serde::Serialize;

/// Every exit status a profile tool may end with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExitStatus {
    Ok,
    Error,
    Usage,
    DataErr,
    NotFound,
    Unavailable,
    Software,
    IoErr,
    TempFail,
    Protocol,
    NoPerm,
    Config,
    ConfirmationRequired,
    PlanStale,
    Timeout,
    Interrupted,
}

impl ExitStatus {
    /// All statuses, in table order.
    pub const ALL: [ExitStatus; 16] = [
        Self::Ok,
        Self::Error,
        Self::Usage,
        Self::DataErr,
        Self::NotFound,
        Self::Unavailable,
        Self::Software,
        Self::IoErr,
        Self::TempFail,
        Self::Protocol,
        Self::NoPerm,
        Self::Config,
        Self::ConfirmationRequired,
        Self::PlanStale,
        Self::Timeout,
        Self::Interrupted,
    ];

    /// The process exit code.
    pub const fn code(self) -> u8 {
        match self {
            Self::Ok => 0,
            Self::Error => 1,
            Self::Usage => 2,
            Self::DataErr => 65,
            Self::NotFound => 66,
            Self::Unavailable => 69,
            Self::Software => 70,
            Self::IoErr => 74,
            Self::TempFail => 75,
            Self::Protocol => 76,
            Self::NoPerm => 77,
            Self::Config => 78,
            Self::ConfirmationRequired => 80,
            Self::PlanStale => 81,
            Self::Timeout => 124,
            Self::Interrupted => 130,
        }
    }

    /// The symbolic name published in discovery.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ok => "OK",
            Self::Error => "ERROR",
            Self::Usage => "USAGE",
            Self::DataErr => "DATAERR",
            Self::NotFound => "NOT_FOUND",
            Self::Unavailable => "UNAVAILABLE",
            Self::Software => "SOFTWARE",
            Self::IoErr => "IOERR",
            Self::TempFail => "TEMPFAIL",
            Self::Protocol => "PROTOCOL",
            Self::NoPerm => "NOPERM",
            Self::Config => "CONFIG",
            Self::ConfirmationRequired => "CONFIRMATION_REQUIRED",
            Self::PlanStale => "PLAN_STALE",
            Self::Timeout => "TIMEOUT",
            Self::Interrupted => "INTERRUPTED",
        }
    }

    /// What the status means, for people (Dutch).
    pub const fn meaning(self) -> &'static str {
        match self {
            Self::Ok => "gelukt, ook bij een lege zoekuitkomst en bij --dry-run",
            Self::Error => "niet nader ingedeelde fout",
            Self::Usage => {
                "onbekend commando of onbekende optie, ontbrekend argument, ongeldige --fields"
            }
            Self::DataErr => {
                "een waarde is ongeldig (bijv. KvK-nummer, postcode) of de bron weigerde de invoer (400)"
            }
            Self::NotFound => "het genoemde object bestaat niet (404 voor een id)",
            Self::Unavailable => "bron onbereikbaar: DNS, verbinding geweigerd, 5xx",
            Self::Software => "interne fout (een bug)",
            Self::IoErr => "uitvoer of auditregel kon niet worden geschreven",
            Self::TempFail => "tijdelijk niet beschikbaar of te veel verzoeken; zie retry_after",
            Self::Protocol => "antwoord van de bron onleesbaar of niet van de gedocumenteerde vorm",
            Self::NoPerm => "geen toegang (401/403) of de sessieregel verbiedt dit onderwerp",
            Self::Config => "vereiste configuratie of sleutel ontbreekt of is onveilig",
            Self::ConfirmationRequired => {
                "mutatie geweigerd: --confirm ontbreekt; het plan staat op stdout"
            }
            Self::PlanStale => "--confirm=<digest> hoort niet bij het plan van deze argumenten",
            Self::Timeout => "de --timeout is verstreken",
            Self::Interrupted => {
                "onderbroken (Ctrl-C, SIGINT); bij een mutatie is de uitkomst onbekend"
            }
        }
    }

    /// The status with this exit code, if it is in the table.
    pub fn from_code(code: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }
}

/// One row of the published table.
#[derive(Serialize)]
pub(crate) struct ExitCodeRow {
    pub code: u8,
    pub name: &'static str,
    pub meaning: &'static str,
}

/// The table as discovery publishes it.
pub(crate) fn table() -> Vec<ExitCodeRow> {
    ExitStatus::ALL
        .into_iter()
        .map(|s| ExitCodeRow {
            code: s.code(),
            name: s.name(),
            meaning: s.meaning(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for s in ExitStatus::ALL {
            assert!(seen.insert(s.code()), "duplicate code {}", s.code());
            assert_eq!(ExitStatus::from_code(s.code()), Some(s));
        }
        assert_eq!(ExitStatus::from_code(3), None);
    }
}
