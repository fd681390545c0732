//! `rapportage indienen|voorstel|status|lijst`: filing a report exactly once (or proposing it for
//! a person's approval), and reading back what was filed. Bound by the session rule: with `KVK_SESSIE_NUMMER` set, only that company.

pub(crate) mod aanvraag;
pub(crate) mod indienen;
pub(crate) mod lijst;
pub(crate) mod status;
pub(crate) mod voorstel;

common::commands! {
    pub enum Action {
        Indienen(indienen::Args) => indienen,
        Voorstel(voorstel::Args) => voorstel,
        Status(status::Args) => status,
        Lijst(lijst::Args) => lijst,
    }
}
