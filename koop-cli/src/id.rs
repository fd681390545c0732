//! Validated inputs: the BWB id (`^BWB[RV]\d{7}$`) and the peildatum (`YYYY-MM-DD`).

use std::fmt;

use chrono::NaiveDate;

use crate::error::KoopError;

/// A validated BWB id such as `BWBR0018451` (regeling) or `BWBV0001234` (verdrag).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BwbId(String);

impl BwbId {
    /// Validates `^BWB[RV]\d{7}$` (exactly; no trimming, no lower case) before any request is made.
    pub fn parse(input: &str) -> Result<Self, KoopError> {
        let bytes = input.as_bytes();
        let valid = bytes.len() == 11
            && bytes.starts_with(b"BWB")
            && matches!(bytes[3], b'R' | b'V')
            && bytes[4..].iter().all(u8::is_ascii_digit);
        if valid {
            Ok(Self(input.to_owned()))
        } else {
            Err(KoopError::InvalidInput {
                field: "bwb_id",
                detail: format!(
                    "{input:?} is geen BWB-id; verwacht BWBR of BWBV gevolgd door 7 cijfers, bv. BWBR0018451"
                ),
            })
        }
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for BwbId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses a peildatum `YYYY-MM-DD` (a real calendar date).
pub fn parse_peildatum(input: &str) -> Result<NaiveDate, KoopError> {
    let strict = input.len() == 10 && input.as_bytes()[4] == b'-' && input.as_bytes()[7] == b'-';
    match NaiveDate::parse_from_str(input, "%Y-%m-%d") {
        Ok(date) if strict => Ok(date),
        _ => Err(KoopError::InvalidInput {
            field: "peildatum",
            detail: format!("{input:?} is geen datum in de vorm JJJJ-MM-DD"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_regeling_and_verdrag_ids() {
        assert_eq!(BwbId::parse("BWBR0018451").unwrap().as_str(), "BWBR0018451");
        assert!(BwbId::parse("BWBV0001234").is_ok());
    }

    #[test]
    fn rejects_everything_else() {
        for bad in [
            "",
            "BWBR001845",
            "BWBR00184510",
            "bwbr0018451",
            "BWBX0018451",
            " BWBR0018451",
            "BWBR001845a",
            "BWBR0018451\n",
            "BWBR００18451",
        ] {
            let err = BwbId::parse(bad).unwrap_err();
            assert!(matches!(err, KoopError::InvalidInput { .. }), "{bad:?}");
        }
    }

    #[test]
    fn peildatum_must_be_a_real_date() {
        assert_eq!(
            parse_peildatum("2025-01-01").unwrap().to_string(),
            "2025-01-01"
        );
        for bad in [
            "2025-02-30",
            "2025-1-1",
            "01-01-2025",
            "",
            "2025-01-01T00:00",
        ] {
            assert!(parse_peildatum(bad).is_err(), "{bad}");
        }
    }
}
