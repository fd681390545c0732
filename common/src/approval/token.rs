//! An approval token: an access token (a JWT, RFC 9068) that the identity provider issued after
//! a person's login, for one [`Detail`] (RFC 9396) and the audience of its target. This is what
//! the family accepts as a person's approval where the operator's policy asks for a login, and
//! what a backend of contract 2.0 accepts as the authority to file (`spec/rvo-backend.md`).
//!
//! [`verify`] checks, in order: the signature by a key of the provider, `iss`, `aud` (the
//! target), `exp`, `nbf`, an `iat` not in the future; then exactly one entry of the detail's
//! type whose members are the detail's; then the `acr` the operator asked for. [`fresh`] checks,
//! when the approval is given, that the login was made for it (`auth_time` not before the
//! approval started). The token is a bearer credential: a caller holds it as a secret
//! ([`crate::process::secrets::hold`]) before anything is printed.

use serde_json::{Map, Value};

use super::detail::Detail;
use super::provider::{LEEWAY_SECONDS, Provider};

/// What a verified approval token says of the person and the login.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approved {
    /// The person (`sub`).
    pub subject: String,
    /// Their name, when the token carries one (`name`, `preferred_username`).
    pub name: Option<String>,
    /// When the token expires (`exp`, seconds since the epoch).
    pub expires_at: i64,
    /// When the person logged in (`auth_time`), when the token says.
    pub auth_time: Option<i64>,
    /// The login's assurance (`acr`), when the token says.
    pub acr: Option<String>,
}

/// Why an approval token is refused, in words for the error's detail (never the token).
pub type Refusal = String;

/// Verifies `token` as an approval of `detail` by `provider`'s person, with the assurance
/// `acr` when the operator asks for one.
pub fn verify(
    provider: &Provider,
    token: &str,
    detail: &Detail,
    acr: Option<&str>,
) -> Result<Approved, Refusal> {
    let claims = provider.verify(token, &detail.audience())?;
    detail
        .matches(claims.get("authorization_details"))
        .map_err(|why| format!("het token is niet voor dit voorstel: {why}"))?;
    approved(&claims, acr)
}

/// The person and login of verified `claims`, with the assurance `acr` when asked.
pub fn approved(claims: &Map<String, Value>, acr: Option<&str>) -> Result<Approved, Refusal> {
    let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_string);
    let found_acr = text("acr");
    if let Some(wanted) = acr
        && found_acr.as_deref() != Some(wanted)
    {
        return Err(format!(
            "de login heeft niet de vereiste zekerheid (acr {wanted:?}, niet {:?})",
            found_acr.unwrap_or_default()
        ));
    }
    Ok(Approved {
        subject: text("sub").unwrap_or_default(),
        name: text("name").or_else(|| text("preferred_username")),
        expires_at: claims.get("exp").and_then(Value::as_i64).unwrap_or(0),
        auth_time: claims.get("auth_time").and_then(Value::as_i64),
        acr: found_acr,
    })
}

/// Whether a login at `auth_time` (seconds since the epoch) was made for an approval that
/// started at `started` (seconds): not before it, within the clock leeway. A login without an
/// `auth_time` is not known to be fresh.
pub fn fresh(auth_time: Option<i64>, started: i64) -> Result<(), Refusal> {
    let leeway = i64::try_from(LEEWAY_SECONDS).unwrap_or(30);
    match auth_time {
        Some(at) if at + leeway >= started => Ok(()),
        Some(_) => Err(
            "de login is ouder dan deze goedkeuring (auth_time): de provider vroeg niet opnieuw om in te loggen"
                .into(),
        ),
        None => Err("het token zegt niet wanneer is ingelogd (auth_time)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_login_before_the_approval_is_not_fresh() {
        assert_eq!(fresh(Some(1_000), 1_000), Ok(()));
        assert_eq!(fresh(Some(980), 1_000), Ok(()));
        assert!(fresh(Some(900), 1_000).is_err());
        assert!(fresh(None, 1_000).is_err());
    }

    #[test]
    fn the_assurance_asked_for_is_required() {
        let claims = json!({"sub": "anna", "name": "Anna", "exp": 5, "acr": "laag"});
        let claims = claims.as_object().unwrap();
        assert!(approved(claims, Some("substantieel")).is_err());
        let person = approved(claims, None).unwrap();
        assert_eq!(
            (person.subject.as_str(), person.name.as_deref()),
            ("anna", Some("Anna"))
        );
        assert_eq!(person.acr.as_deref(), Some("laag"));
    }
}
