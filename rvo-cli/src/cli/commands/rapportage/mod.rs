//! `rapportage indienen|status|lijst`: filing a report exactly once, and reading back what was
//! filed. Bound by the session rule: with `KVK_SESSIE_NUMMER` set, only that company.

pub mod indienen;
pub mod lijst;
pub mod status;

common::commands! {
    pub enum Action {
        Indienen(indienen::Args) => indienen,
        Status(status::Args) => status,
        Lijst(lijst::Args) => lijst,
    }
}
