//! `check …`: fixed questions, answered from the built-in laws.

pub(crate) mod energiebesparing;

common::commands! {
    pub enum Action {
        Energiebesparing(energiebesparing::Args) => energiebesparing,
    }
}
