//! The person's side of a proposal: the approval page with its login (`page`) and the sealed
//! state of a call waiting for an approval (`request_state`). What a proposal is, which the
//! catalogue and the calls also need, is `crate::proposals`, below this floor.

pub(crate) mod page;
pub(crate) mod request_state;
