//! The report as filed ([`crate::backend_types::RapportageAanvraag`]) embedded in a larger
//! record: its members stand in the record's JSON object, in its place, as if the record had
//! declared them itself. This module names no record type (it sits below them): the macro's
//! record says which struct it embeds.
//!
//! A record declares the report as one member, `#[serde(flatten, skip_deserializing)]` under
//! `#[serde(remote = "Self")]`, and [`embeds_aanvraag!`] implements its serde traits. Writing is
//! serde's `flatten`. Reading is not, because a flattened member is buffered in serde's private
//! `Content`, which cannot hold a number beyond 64 bits (`arbitrary_precision` keeps them exact:
//! energy use of any size), and would let the report's `deny_unknown_fields` see the record's
//! members. Here the object is read as a JSON map (a duplicate member is refused, as a derived
//! struct refuses it); the report's members are taken out and read as the report, with its rules;
//! the rest is read by the record's derived code, which ignores members it does not know, as
//! before.

use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value};

/// Implements `Serialize` and `Deserialize` for a record whose member `aanvraag` embeds the
/// report (see the module documentation for the attributes it needs).
macro_rules! embeds_aanvraag {
    ($record:ty) => {
        impl serde::Serialize for $record {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                <$record>::serialize(self, serializer)
            }
        }

        impl<'de> serde::Deserialize<'de> for $record {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let (aanvraag, rest) = $crate::embedded::split(deserializer)?;
                let mut record =
                    <$record>::deserialize(rest).map_err(<D::Error as serde::de::Error>::custom)?;
                record.aanvraag = aanvraag;
                Ok(record)
            }
        }
    };
}
pub(crate) use embeds_aanvraag;

/// Reads a JSON object into the embedded struct its members hold (the report, as the record's
/// member `aanvraag` has it: the record's module names it, this one does not) and the object
/// of the other members.
pub(crate) fn split<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    deserializer: D,
) -> Result<(T, Value), D::Error> {
    let mut object = deserializer.deserialize_map(Members)?;
    let own: Map<String, Value> = member_names::<T>()
        .iter()
        .filter_map(|name| Some((name.to_string(), object.shift_remove(*name)?)))
        .collect();
    let aanvraag = serde_json::from_value(Value::Object(own)).map_err(de::Error::custom)?;
    Ok((aanvraag, Value::Object(object)))
}

/// The members of a JSON object; a member named twice is an error.
struct Members;

impl<'de> Visitor<'de> for Members {
    type Value = Map<String, Value>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("een JSON-object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut object = Map::new();
        while let Some(name) = access.next_key::<String>()? {
            let value = access.next_value()?;
            if object.contains_key(&name) {
                return Err(de::Error::custom(format_args!("duplicate field `{name}`")));
            }
            object.insert(name, value);
        }
        Ok(object)
    }
}

/// The member names a derived `Deserialize` of a struct declares (serde hands them to
/// `deserialize_struct`), so they are written once, on the struct.
fn member_names<'de, T: serde::Deserialize<'de>>() -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    let _ = T::deserialize(NameProbe(&mut names));
    names
}

/// A deserializer that only notes the member names of the struct asked of it.
struct NameProbe<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for NameProbe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("alleen namen"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom("alleen namen"))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend_types::{RapportageAanvraag, RapportageRecord, RapportageStatus};
    use crate::filing::{Backend, FilingResult};

    /// Bal 5.15a contents with energy use no 64-bit number holds, and decimals as written.
    const INHOUD: &str = r#"{"getroffen_maatregelen":[{"code":"GF4","naam":"Klokregeling"}],"niet_van_toepassing":[],"overige_maatregelen":[],"energiegebruik":{"kalenderjaar":2025,"elektriciteit_kwh":123456789012345678901234567890,"aardgas_m3_aardgasequivalent":12.50},"concept_digest":"ab","concept_regeling":"EBR@2027"}"#;

    /// A record exactly as the backend sends it and the derived code wrote it before the
    /// embedding: the report's members between the record's own.
    fn record_text() -> String {
        format!(
            r#"{{"referentienummer":"RVO-EBR-2027-1KC7Q3M9Z-7XK2MD","kvk_nummer":"68750110","regeling_id":"EBR-2027","maatregelen":["led-verlichting"],"toelichting":"Utrecht","inhoud":{INHOUD},"ontvangen_op":"2026-11-30T10:00:00.123Z","status":"ONTVANGEN"}}"#
        )
    }

    /// A stored first result as rvo-cli wrote it before the embedding (a record of the store).
    fn result_text() -> String {
        format!(
            r#"{{"status":"ONTVANGEN","referentienummer":"RVO-EBR-2027-1KC7Q3M9Z-7XK2MD","kvk_nummer":"68750110","regeling_id":"EBR-2027","maatregelen":["led-verlichting"],"inhoud":{INHOUD},"ingediend_op":"2026-11-30T10:00:00Z","bevestiging":"ontvangen","lopende_zaak":{{"referentienummer":"RVO-EBR-2027-1KC7Q3M9Z-7XK2MD","zaak_type":"Energiebesparingsrapportage","regeling_id":"EBR-2027","regeling_naam":"EBR","status":"ontvangen","bevoegd_gezag":"de gemeente","ingediend_op":"2026-11-30T10:00:00Z","melding":"beoordeeld"}},"backend":"lokaal","replayed":false}}"#
        )
    }

    /// Read from text and from a `Value` (as the store hands it over), each written back to the
    /// same text, member for member and digit for digit.
    fn assert_round_trips<T>(text: &str) -> T
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let from_text: T = serde_json::from_str(text).unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        let from_value: T = serde_json::from_value(value).unwrap();
        assert_eq!(from_text, from_value);
        assert_eq!(serde_json::to_string(&from_text).unwrap(), text);
        assert_eq!(serde_json::to_string(&from_value).unwrap(), text);
        from_text
    }

    #[test]
    fn a_backend_record_keeps_its_wire_format() {
        let record: RapportageRecord = assert_round_trips(&record_text());
        assert_eq!(record.aanvraag.kvk_nummer, "68750110");
        assert_eq!(record.aanvraag.toelichting.as_deref(), Some("Utrecht"));
        assert_eq!(record.status, RapportageStatus::Ontvangen);
        let energie = &record.aanvraag.inhoud.unwrap().energiegebruik;
        assert_eq!(
            energie.elektriciteit_kwh.to_string(),
            "123456789012345678901234567890"
        );
        assert_eq!(energie.aardgas_m3_aardgasequivalent.to_string(), "12.50");
        // Without the optional members they stay absent.
        let bare = r#"{"referentienummer":"R","kvk_nummer":"68750110","regeling_id":"EBR-2027","maatregelen":[],"ontvangen_op":"2026-11-30T10:00:00Z","status":"IN_BEHANDELING"}"#;
        let record: RapportageRecord = assert_round_trips(bare);
        assert_eq!(record.aanvraag.inhoud, None);
    }

    #[test]
    fn a_stored_result_keeps_its_wire_format() {
        let result: FilingResult = assert_round_trips(&result_text());
        assert_eq!(result.aanvraag.regeling_id, "EBR-2027");
        assert_eq!(result.aanvraag.toelichting, None);
        assert_eq!(result.backend, Backend::Lokaal);
        assert_eq!(result.lopende_zaak.regeling_id, "EBR-2027");
    }

    #[test]
    fn a_record_ignores_unknown_members_and_the_report_still_refuses_them() {
        let mut value: Value = serde_json::from_str(&record_text()).unwrap();
        value["nieuw_in_contract_1_2"] = Value::from(1);
        let record: RapportageRecord = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(
            serde_json::to_string(&record).unwrap(),
            record_text(),
            "the unknown member is not kept"
        );
        let mut result: Value = serde_json::from_str(&result_text()).unwrap();
        result["onbekend"] = Value::from("x");
        assert!(serde_json::from_value::<FilingResult>(result).is_ok());
        // The report alone (the request body, a stored request) refuses what it does not know,
        // the record's members too, and inside its contents.
        let mut request = Map::new();
        for name in member_names::<RapportageAanvraag>() {
            if let Some(member) = value.get(*name) {
                request.insert(name.to_string(), member.clone());
            }
        }
        assert!(
            serde_json::from_value::<RapportageAanvraag>(Value::Object(request.clone())).is_ok()
        );
        let mut unknown = request.clone();
        unknown.insert("status".into(), Value::from("ONTVANGEN"));
        assert!(serde_json::from_value::<RapportageAanvraag>(Value::Object(unknown)).is_err());
        let mut inner = value.clone();
        inner["inhoud"]["energiegebruik"]["extra"] = Value::from(1);
        assert!(serde_json::from_value::<RapportageRecord>(inner).is_err());
    }

    #[test]
    fn a_record_without_a_member_of_the_report_or_its_own_is_refused() {
        for missing in ["kvk_nummer", "maatregelen", "referentienummer", "status"] {
            let mut value: Value = serde_json::from_str(&record_text()).unwrap();
            value.as_object_mut().unwrap().shift_remove(missing);
            let error = serde_json::from_value::<RapportageRecord>(value).unwrap_err();
            assert!(error.to_string().contains(missing), "{missing}: {error}");
        }
        let mut value: Value = serde_json::from_str(&record_text()).unwrap();
        value["maatregelen"] = Value::from("led-verlichting");
        assert!(serde_json::from_value::<RapportageRecord>(value).is_err());
        assert!(serde_json::from_str::<RapportageRecord>("[]").is_err());
    }

    #[test]
    fn the_reports_member_names_come_from_its_declaration() {
        assert_eq!(
            member_names::<RapportageAanvraag>(),
            [
                "kvk_nummer",
                "regeling_id",
                "maatregelen",
                "toelichting",
                "inhoud"
            ]
        );
    }

    #[test]
    fn a_member_named_twice_is_refused() {
        let text = record_text();
        for (member, twice) in [
            ("kvk_nummer", r#""kvk_nummer":"12345678","kvk_nummer""#),
            ("status", r#""status":"AFGEHANDELD","status""#),
        ] {
            let text = text.replacen(&format!("\"{member}\""), twice, 1);
            let error = serde_json::from_str::<RapportageRecord>(&text).unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains(&format!("duplicate field `{member}`")),
                "{error}"
            );
        }
    }

    #[test]
    fn the_rest_keeps_the_other_members() {
        let text =
            r#"{"a":1,"kvk_nummer":"68750110","regeling_id":"EBR-2027","maatregelen":["x"],"b":2}"#;
        let (aanvraag, rest): (RapportageAanvraag, _) =
            split(&mut serde_json::Deserializer::from_str(text)).unwrap();
        assert_eq!(aanvraag.maatregelen, ["x"]);
        assert_eq!(rest, serde_json::json!({"a": 1, "b": 2}));
    }
}
