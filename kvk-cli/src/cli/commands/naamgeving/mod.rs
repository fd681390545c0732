//! `naamgeving toon`: the names a company is registered under.
//!
//! Bound by the session rule, like `basisprofiel`.

pub(crate) mod toon;

use common::args::KvkNummer;

common::commands! {
    pub(crate) enum Action {
        /// Voor statutaire naam, handelsnamen en namen per vestiging
        #[command(alias = "get")]
        Toon(KvkNummer) => toon,
    }
}
