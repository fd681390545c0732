//! `ontvangstbewijs controleer`: execution receipts (RFC-013) checked by re-running them.

mod bereik;
mod claim;
pub(crate) mod controleer;

common::commands! {
    pub enum Action {
        Controleer(controleer::Args) => controleer,
    }
}
