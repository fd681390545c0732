//! The registry of problem codes (rule ERR-10, §8.3 of the profile): the one home of every
//! `code` a tool of the family may put in an error object.
//!
//! A [`Problem`](crate::problem::error::Problem) is built from one of these constants, never from a free
//! string, so a tool cannot emit a code outside the registry. Codes are Dutch UPPER_SNAKE; a
//! code that had another spelling before keeps it in [`Code::old`], so scripts
//! can migrate (the spec's table lists both). Exit-code *names* (`USAGE`, `TIMEOUT`, …) are
//! sysexits names and are not codes.

use crate::problem::exit::ExitStatus;

/// One registered problem code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    /// The code as printed in `code` and `type`.
    pub name: &'static str,
    /// The exit statuses this code is used with, the usual one first.
    pub exits: &'static [ExitStatus],
    /// The spelling before this name, if it was renamed.
    pub old: Option<&'static str>,
}

impl Code {
    const fn new(name: &'static str, exits: &'static [ExitStatus]) -> Self {
        Self {
            name,
            exits,
            old: None,
        }
    }

    const fn renamed(name: &'static str, exits: &'static [ExitStatus], old: &'static str) -> Self {
        Self {
            name,
            exits,
            old: Some(old),
        }
    }

    /// The registered code with this name (its current spelling), if any.
    pub fn named(name: &str) -> Option<Code> {
        ALL.iter().copied().find(|c| c.name == name)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.name == *other
    }
}

use ExitStatus as X;

/// A usage error found by the argument parser, or a malformed `--output`/`--fields`.
pub const ONGELDIG_GEBRUIK: Code = Code::renamed("ONGELDIG_GEBRUIK", &[X::Usage], "USAGE");
/// `--fields` names a field the output schema does not know.
pub(crate) const ONBEKEND_VELD: Code = Code::new("ONBEKEND_VELD", &[X::Usage]);
/// Input validation failed (with `errors`).
pub const ONGELDIGE_INVOER: Code =
    Code::renamed("ONGELDIGE_INVOER", &[X::DataErr], "INVALID_INPUT");
/// The source rejected the request (400/422), or answered an unmapped error status.
pub const API_FOUT: Code = Code::new("API_FOUT", &[X::DataErr, X::Error]);
/// An idempotency key was used before with another payload.
pub const IDEMPOTENTIE_CONFLICT: Code = Code::new("IDEMPOTENTIE_CONFLICT", &[X::DataErr]);
/// A law file of regelrecht-cli's corpus is malformed.
pub const WETBESTAND_ONGELDIG: Code = Code::new("WETBESTAND_ONGELDIG", &[X::DataErr]);
/// regelrecht-cli: the law is not in force on the peildatum (inside an evaluation).
pub(crate) const NIET_GELDIG: Code = Code::new("NIET_GELDIG", &[X::DataErr]);
/// regelrecht-cli: an input the evaluation needs is missing.
pub(crate) const ONTBREEKT: Code = Code::new("ONTBREEKT", &[X::DataErr]);
/// regelrecht-cli: a law refers to an implementation that does not exist.
pub(crate) const GEEN_IMPLEMENTATIE: Code = Code::new("GEEN_IMPLEMENTATIE", &[X::DataErr]);
/// regelrecht-cli: an output that cannot be translated into a value.
pub(crate) const ONVERTAALBAAR: Code = Code::new("ONVERTAALBAAR", &[X::DataErr]);
/// regelrecht-cli: laws that refer to each other in a cycle.
pub(crate) const KRINGVERWIJZING: Code = Code::new("KRINGVERWIJZING", &[X::DataErr]);
/// regelrecht-cli: a value of the wrong type, unit or date.
pub const TYPE_FOUT: Code = Code::new("TYPE_FOUT", &[X::DataErr]);
/// regelrecht-cli: a division by zero in a law.
pub const DELING_DOOR_NUL: Code = Code::new("DELING_DOOR_NUL", &[X::DataErr]);
/// regelrecht-cli: another refusal of the engine.
pub const ONGELDIG: Code = Code::new("ONGELDIG", &[X::DataErr]);
/// The addressed item does not exist (65 when a nested evaluation misses a law).
pub const NIET_GEVONDEN: Code = Code::new("NIET_GEVONDEN", &[X::NotFound, X::DataErr]);
/// The source is unreachable or answered 5xx.
pub const BRON_ONBEREIKBAAR: Code =
    Code::renamed("BRON_ONBEREIKBAAR", &[X::Unavailable], "SOURCE_UNAVAILABLE");
/// The source's TLS certificate chain leads to no trusted root (NET-12); the hint names the
/// issuer and how to add its CA.
pub(crate) const CERTIFICAAT_NIET_VERTROUWD: Code =
    Code::new("CERTIFICAAT_NIET_VERTROUWD", &[X::Unavailable]);
/// A bug or a panic.
pub const INTERNE_FOUT: Code = Code::new("INTERNE_FOUT", &[X::Software]);
/// Stdout could not be written.
pub(crate) const IO_FOUT: Code = Code::new("IO_FOUT", &[X::IoErr]);
/// The audit log could not be opened or appended.
pub(crate) const AUDIT_FOUT: Code = Code::new("AUDIT_FOUT", &[X::IoErr]);
/// A tool's local store could not be read or written.
pub const OPSLAG_FOUT: Code = Code::new("OPSLAG_FOUT", &[X::IoErr]);
/// A record in a tool's local store is damaged.
pub const OPSLAG_BESCHADIGD: Code = Code::new("OPSLAG_BESCHADIGD", &[X::IoErr]);
/// Rate limited, temporarily unavailable, or the same mutation still in flight.
pub(crate) const TIJDELIJK_NIET_BESCHIKBAAR: Code =
    Code::new("TIJDELIJK_NIET_BESCHIKBAAR", &[X::TempFail]);
/// The source's answer is unparseable or of another shape (65 for a law file inside an
/// evaluation).
pub const PARSE_FOUT: Code = Code::new("PARSE_FOUT", &[X::Protocol, X::DataErr]);
/// The answer is beyond the size cap.
pub const ANTWOORD_TE_GROOT: Code = Code::new("ANTWOORD_TE_GROOT", &[X::Protocol]);
/// A redirect, or a URL in an answer, leads off the declared base.
pub const OMLEIDING_GEWEIGERD: Code = Code::new("OMLEIDING_GEWEIGERD", &[X::Protocol]);
/// A child CLI answered without the field a source register names.
pub const VELD_ONTBREEKT: Code = Code::new("VELD_ONTBREEKT", &[X::Protocol]);
/// Upstream 401/403, or the session rule.
pub const NIET_TOEGESTAAN: Code = Code::new("NIET_TOEGESTAAN", &[X::NoPerm]);
/// Configuration missing, invalid or unsafe.
pub(crate) const CONFIG_FOUT: Code = Code::new("CONFIG_FOUT", &[X::Config]);
/// A mutation without `--confirm`.
pub(crate) const BEVESTIGING_VEREIST: Code =
    Code::new("BEVESTIGING_VEREIST", &[X::ConfirmationRequired]);
/// `--confirm=<digest>` does not match the plan.
pub(crate) const PLAN_VERLOPEN: Code = Code::new("PLAN_VERLOPEN", &[X::PlanStale]);
/// The deadline passed.
pub const TIJDLIMIET_VERSTREKEN: Code =
    Code::renamed("TIJDLIMIET_VERSTREKEN", &[X::Timeout], "TIMEOUT");
/// The call was interrupted (Ctrl-C, `SIGINT`) before it finished.
pub(crate) const ONDERBROKEN: Code = Code::new("ONDERBROKEN", &[X::Interrupted]);
/// regelrecht-cli `scenario`: a scenario failed or could not be run.
pub const SCENARIO_GEFAALD: Code = Code::new("SCENARIO_GEFAALD", &[X::Error]);
/// regelrecht-cli `evalueer --batch`: one or more cases failed.
pub const BATCH_DEELS_GEFAALD: Code = Code::new("BATCH_DEELS_GEFAALD", &[X::Error]);
/// regelrecht-cli `ontvangstbewijs controleer`: the receipt no longer reproduces.
pub const ONTVANGSTBEWIJS_AFWIJKEND: Code = Code::new("ONTVANGSTBEWIJS_AFWIJKEND", &[X::Error]);
/// regelrecht-cli `wet valideer`: a law file violates the format.
pub const WET_ONGELDIG: Code = Code::new("WET_ONGELDIG", &[X::Error]);

/// A proposal id that is unknown, or another company's (the same answer: no oracle).
pub const VOORSTEL_ONBEKEND: Code = Code::new("VOORSTEL_ONBEKEND", &[X::NotFound]);
/// A proposal a person declined: it is never applied.
pub const VOORSTEL_AFGEWEZEN: Code = Code::new("VOORSTEL_AFGEWEZEN", &[X::DataErr]);
/// A proposal whose time ran out before it was approved or applied.
pub const VOORSTEL_VERLOPEN: Code = Code::new("VOORSTEL_VERLOPEN", &[X::DataErr]);
/// A decision on a proposal that was approved already.
pub const VOORSTEL_AL_GOEDGEKEURD: Code = Code::new("VOORSTEL_AL_GOEDGEKEURD", &[X::DataErr]);
/// A decision on a proposal that was filed already.
pub const VOORSTEL_INGEDIEND: Code = Code::new("VOORSTEL_INGEDIEND", &[X::DataErr]);
/// The store of proposals and filings (a shared database) cannot be reached; nothing was done.
pub const OPSLAG_ONBEREIKBAAR: Code = Code::new("OPSLAG_ONBEREIKBAAR", &[X::Unavailable]);
/// A person's act (approving, declining) asked for outside an interactive terminal.
pub const TERMINAL_VEREIST: Code = Code::new("TERMINAL_VEREIST", &[X::NoPerm]);
/// Applying a proposal that no person approved yet.
pub const VOORSTEL_NIET_GOEDGEKEURD: Code =
    Code::new("VOORSTEL_NIET_GOEDGEKEURD", &[X::ConfirmationRequired]);
/// Applying a proposal whose plan is no longer the one approved (the catalogue or the concept
/// changed); nothing was sent.
pub const VOORSTEL_GEWIJZIGD: Code = Code::new("VOORSTEL_GEWIJZIGD", &[X::PlanStale]);
/// A person's device login for an approval expired or was declined; the proposal stays open.
pub const LOGIN_NIET_VOLTOOID: Code = Code::new("LOGIN_NIET_VOLTOOID", &[X::TempFail]);
/// The operator's policy asks for a person's login: `--confirm` refused, or a 2.0 backend
/// refused a filing without a valid approval token.
pub const GOEDKEURING_VEREIST: Code = Code::new("GOEDKEURING_VEREIST", &[X::NoPerm]);
/// A proposal's decision carries no approval token that verifies and matches it; nothing sent.
pub const GOEDKEURING_ONGELDIG: Code = Code::new("GOEDKEURING_ONGELDIG", &[X::NoPerm]);
/// The operator's policy file is there but not trusted or not valid: every mutation refused.
pub const BELEID_ONGELDIG: Code = Code::new("BELEID_ONGELDIG", &[X::Config]);
/// At a terminal, the characters typed are not the start of the plan digest; nothing decided.
pub const BEVESTIGING_ONJUIST: Code = Code::new("BEVESTIGING_ONJUIST", &[X::PlanStale]);

/// Every registered code, in the order of the spec's table (by usual exit code).
pub(crate) const ALL: &[Code] = &[
    ONGELDIG_GEBRUIK,
    ONBEKEND_VELD,
    ONGELDIGE_INVOER,
    API_FOUT,
    IDEMPOTENTIE_CONFLICT,
    VOORSTEL_AFGEWEZEN,
    VOORSTEL_VERLOPEN,
    VOORSTEL_AL_GOEDGEKEURD,
    VOORSTEL_INGEDIEND,
    WETBESTAND_ONGELDIG,
    NIET_GELDIG,
    ONTBREEKT,
    GEEN_IMPLEMENTATIE,
    ONVERTAALBAAR,
    KRINGVERWIJZING,
    TYPE_FOUT,
    DELING_DOOR_NUL,
    ONGELDIG,
    NIET_GEVONDEN,
    VOORSTEL_ONBEKEND,
    BRON_ONBEREIKBAAR,
    CERTIFICAAT_NIET_VERTROUWD,
    OPSLAG_ONBEREIKBAAR,
    INTERNE_FOUT,
    IO_FOUT,
    AUDIT_FOUT,
    OPSLAG_FOUT,
    OPSLAG_BESCHADIGD,
    TIJDELIJK_NIET_BESCHIKBAAR,
    LOGIN_NIET_VOLTOOID,
    PARSE_FOUT,
    ANTWOORD_TE_GROOT,
    OMLEIDING_GEWEIGERD,
    VELD_ONTBREEKT,
    NIET_TOEGESTAAN,
    TERMINAL_VEREIST,
    GOEDKEURING_VEREIST,
    GOEDKEURING_ONGELDIG,
    CONFIG_FOUT,
    BELEID_ONGELDIG,
    BEVESTIGING_VEREIST,
    VOORSTEL_NIET_GOEDGEKEURD,
    PLAN_VERLOPEN,
    VOORSTEL_GEWIJZIGD,
    BEVESTIGING_ONJUIST,
    TIJDLIMIET_VERSTREKEN,
    ONDERBROKEN,
    SCENARIO_GEFAALD,
    BATCH_DEELS_GEFAALD,
    ONTVANGSTBEWIJS_AFWIJKEND,
    WET_ONGELDIG,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of the spec's §8.3 table: code, exit codes, old spelling.
    fn spec_rows() -> Vec<(String, Vec<u8>, Option<String>)> {
        let spec = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../spec/CLI-PROFILE.md"
        ));
        let section = spec
            .split("### 8.3 Registered codes")
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .expect("§8.3 in the spec");
        section
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|line| {
                let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
                let code = cells[0].trim_matches('`').to_string();
                let exits = cells[1]
                    .split(',')
                    .map(|e| e.trim().parse().expect("exit code"))
                    .collect();
                let old = Some(cells[2].trim_matches('`'))
                    .filter(|o| !o.is_empty() && *o != "—")
                    .map(str::to_string);
                (code, exits, old)
            })
            .collect()
    }

    #[test]
    fn the_spec_table_is_the_registry() {
        let rows = spec_rows();
        let registry: Vec<(String, Vec<u8>, Option<String>)> = ALL
            .iter()
            .map(|c| {
                (
                    c.name.to_string(),
                    c.exits.iter().map(|e| e.code()).collect(),
                    c.old.map(str::to_string),
                )
            })
            .collect();
        assert_eq!(
            rows, registry,
            "§8.3 of spec/CLI-PROFILE.md and codes::ALL differ"
        );
    }

    #[test]
    fn codes_are_dutch_upper_snake_and_unique() {
        let exit_names: Vec<&str> = ExitStatus::ALL.iter().map(|e| e.name()).collect();
        for (i, code) in ALL.iter().enumerate() {
            assert!(
                code.name.len() > 1
                    && code.name.starts_with(|c: char| c.is_ascii_uppercase())
                    && code
                        .name
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'),
                "{code}"
            );
            assert!(!code.exits.is_empty(), "{code}");
            assert!(ALL[..i].iter().all(|c| c.name != code.name), "{code} twice");
            // A code never takes an exit-code name (the sysexits vocabulary), nor an old spelling.
            assert!(
                !exit_names.contains(&code.name),
                "{code} is an exit-code name"
            );
            assert!(ALL.iter().all(|c| c.old != Some(code.name)), "{code}");
            assert_eq!(Code::named(code.name), Some(*code));
        }
        assert_eq!(Code::named("INVALID_INPUT"), None);
    }
}
