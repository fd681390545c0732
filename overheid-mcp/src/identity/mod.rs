//! Who is calling and for whom: bearer tokens over HTTP (`auth`), the scopes a request needs
//! (`scope`), and the session that binds a call to one company, never taken from the model
//! (`session`). Above the catalogue, which says what each tool declares; below the calls.

pub(crate) mod auth;
pub(crate) mod scope;
pub(crate) mod session;
