//! Approvals only a person can give (rules MUT-16, MUT-19, MUT-20; `spec/CLI-PROFILE.md` §10.3):
//! the operator's policy, what one approval is for, and the person's login that produces it.
//!
//! - [`policy`]: `/etc/overheid/beleid.toml`, trusted only when root wrote it; it says whether a
//!   terminal or only a login at the organisation's identity provider approves.
//! - [`detail`]: the authorization detail (RFC 9396) an approval is for: one proposal, its plan
//!   digest and binding (company, scheme, backend, peildatum), and the audience of its target.
//! - [`provider`]: the identity provider (OpenID metadata, keys kept as their HTTP caching says,
//!   JWT verification).
//! - [`token`]: an approval token verified against a detail, and the freshness of its login.
//! - [`login`]: the device login (RFC 8628) that gets one from a terminal.
//! - [`code_flow`]: the authorization-code flow with PKCE, for the approval page and
//!   [`loopback`], the browser login on this machine (RFC 8252) that gets one from a terminal.
//!
//! The policy is in every build (a mutation's gate reads it); the provider, token and login
//! parts come with the `approval` feature, which only the tools that approve or verify enable
//! (rvo-cli, overheid-mcp), so a reading tool links no JWT code.

#[cfg(feature = "approval")]
pub mod code_flow;
pub mod detail;
#[cfg(feature = "approval")]
pub mod login;
#[cfg(feature = "approval")]
pub mod loopback;
pub mod policy;
#[cfg(feature = "approval")]
pub mod provider;
#[cfg(feature = "approval")]
pub mod token;
