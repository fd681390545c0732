//! The validated BWB id (`^BWB[RV]\d{7}$`); the peildatum is `common::args::Peildatum`.

use std::fmt;

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
}
