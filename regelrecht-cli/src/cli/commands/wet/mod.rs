//! `wet lijst|toon|notities|valideer`: the loaded laws, the notes on them, and validating law
//! files against the format.

pub(crate) mod lijst;
pub(crate) mod notities;
pub(crate) mod toon;
pub(crate) mod valideer;

common::commands! {
    pub enum Action {
        Lijst(lijst::Args) => lijst,
        Toon(toon::Args) => toon,
        Notities(notities::Args) => notities,
        Valideer(valideer::Args) => valideer,
    }
}
