//! What one approval is for: the authorization detail (RFC 9396) a person's approval token
//! carries, and the audience it is issued for.
//!
//! A proposal records its *binding* (the detail's members but `type`, the proposal's id and the
//! plan digest: for rvo-cli the company, the scheme, the backend and the peildatum); the login
//! asks for exactly [`Detail::of`] that proposal, the provider shows it to the person and puts
//! it in the access token, and every verifier compares the token's entry with the one it
//! computes itself. The tool defines the binding's members; nothing here knows them.

use serde_json::{Map, Value, json};

/// The type of an approval's authorization detail.
pub const TYPE: &str = "nl.overheid.indiening";

/// The audience (resource indicator, RFC 8707) of an approval for the local sandbox, which has
/// no URL of its own.
pub const LOCAL_AUDIENCE: &str = "urn:overheid-cli:lokaal";

/// The binding's value of a target that is the local sandbox.
pub const LOCAL: &str = "lokaal";

/// One authorization detail of [`TYPE`]: a JSON object.
#[derive(Debug, Clone, PartialEq)]
pub struct Detail(Map<String, Value>);

impl Detail {
    /// The detail of proposal `id` with plan digest `plan_digest` and `binding` (a JSON object;
    /// anything else binds nothing more).
    pub fn of(id: &str, plan_digest: &str, binding: &Value) -> Detail {
        let mut detail = Map::new();
        detail.insert("type".into(), TYPE.into());
        detail.insert("voorstel_id".into(), id.into());
        detail.insert("plan_digest".into(), plan_digest.into());
        for (key, value) in binding.as_object().into_iter().flatten() {
            if !matches!(key.as_str(), "type" | "voorstel_id" | "plan_digest") {
                detail.insert(key.clone(), value.clone());
            }
        }
        Detail(detail)
    }

    /// The value of member `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }

    /// The `authorization_details` parameter of a request for this detail: a one-entry array.
    pub fn request_parameter(&self) -> String {
        Value::Array(vec![Value::Object(self.0.clone())]).to_string()
    }

    /// The audience an approval for this detail is issued for: the `backend` member's URL, or
    /// [`LOCAL_AUDIENCE`] for the local sandbox (or no backend).
    pub fn audience(&self) -> String {
        audience(
            self.0
                .get("backend")
                .and_then(Value::as_str)
                .unwrap_or(LOCAL),
        )
    }

    /// The members of the detail in a fixed order, for people (the terminal, the page).
    pub fn members(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Whether `granted` (a token's `authorization_details`) holds exactly one entry of
    /// [`TYPE`] with every member of this detail at the same value: `Err` names the first
    /// member that differs (or why there is no such entry). A provider may add members; it may
    /// not drop or change one.
    pub fn matches(&self, granted: Option<&Value>) -> Result<(), String> {
        let entries: Vec<&Value> = granted
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|entry| entry["type"] == json!(TYPE))
            .collect();
        let entry = match entries.as_slice() {
            [entry] => entry,
            [] => return Err(format!("geen authorization_details van type {TYPE}")),
            _ => {
                return Err(format!(
                    "meer dan één authorization_details van type {TYPE}"
                ));
            }
        };
        for (name, expected) in &self.0 {
            if entry.get(name) != Some(expected) {
                return Err(format!("{name} verschilt"));
            }
        }
        Ok(())
    }
}

/// The audience of an approval for `backend`: its base URL without a trailing `/`, or
/// [`LOCAL_AUDIENCE`] for [`LOCAL`].
pub fn audience(backend: &str) -> String {
    if backend == LOCAL {
        LOCAL_AUDIENCE.to_string()
    } else {
        backend.trim_end_matches('/').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail() -> Detail {
        Detail::of(
            "vs_abc",
            "ab12",
            &json!({"kvk_nummer": "68750110", "regeling_id": "EBR-2027", "backend": "https://rvo.example/api/", "peildatum": "2026-12-06", "type": "iets anders"}),
        )
    }

    #[test]
    fn a_detail_carries_the_proposal_and_its_binding() {
        let detail = detail();
        assert_eq!(detail.get("type"), Some(&json!(TYPE)));
        assert_eq!(detail.get("voorstel_id"), Some(&json!("vs_abc")));
        assert_eq!(detail.audience(), "https://rvo.example/api");
        let local = Detail::of("vs_x", "cd", &json!({"backend": "lokaal"}));
        assert_eq!(local.audience(), LOCAL_AUDIENCE);
        let parameter: Value = serde_json::from_str(&detail.request_parameter()).unwrap();
        assert_eq!(parameter.as_array().unwrap().len(), 1);
    }

    #[test]
    fn a_token_matches_only_the_same_detail() {
        let detail = detail();
        let granted = json!([Value::Object(detail.0.clone())]);
        assert_eq!(detail.matches(Some(&granted)), Ok(()));
        // A provider may add members.
        let mut added = detail.0.clone();
        added.insert("locations".into(), json!(["https://rvo.example/api"]));
        assert_eq!(detail.matches(Some(&json!([added]))), Ok(()));
        for (member, other) in [
            ("voorstel_id", json!("vs_ander")),
            ("plan_digest", json!("ff")),
            ("kvk_nummer", json!("11111111")),
            ("regeling_id", json!("EBR-2023")),
            ("backend", json!("lokaal")),
            ("peildatum", json!("2026-12-07")),
        ] {
            let mut changed = detail.0.clone();
            changed.insert(member.into(), other);
            assert_eq!(
                detail.matches(Some(&json!([changed]))),
                Err(format!("{member} verschilt"))
            );
        }
        assert!(detail.matches(None).is_err());
        assert!(
            detail
                .matches(Some(&json!([{"type": "payment_initiation"}])))
                .is_err()
        );
        let twice = json!([
            Value::Object(detail.0.clone()),
            Value::Object(detail.0.clone())
        ]);
        assert!(detail.matches(Some(&twice)).is_err());
    }
}
