//! Reference numbers of filed reports: `RVO-<REGELING_ID>-<time>-<random>`.
//!
//! The time part (milliseconds since the Unix epoch, 9 Crockford base32 digits) makes numbers sort by
//! filing time; the random part (6 digits, 30 bits from the OS random source) makes them
//! unguessable from the inputs. Example: `RVO-EBR-2027-1KC7Q3M9Z-7XK2MD`.

use chrono::{DateTime, Utc};

/// Crockford base32 alphabet (no I, L, O, U).
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const TIME_DIGITS: usize = 9;
const RANDOM_DIGITS: usize = 6;

/// A fresh reference number for a report on `regeling_id` filed at `filed_at`.
///
/// Fails only when the operating system has no random source.
pub fn new_reference(
    regeling_id: &str,
    filed_at: DateTime<Utc>,
) -> Result<String, getrandom::Error> {
    let mut random = [0u8; 4];
    getrandom::fill(&mut random)?;
    let millis = u64::try_from(filed_at.timestamp_millis()).unwrap_or(0);
    let random_bits = u64::from(u32::from_be_bytes(random) >> 2);
    Ok(format!(
        "RVO-{}-{}-{}",
        regeling_id.to_ascii_uppercase(),
        base32(millis, TIME_DIGITS),
        base32(random_bits, RANDOM_DIGITS)
    ))
}

/// Whether `reference` has the shape of a reference number made by [`new_reference`].
///
/// Used to reject typos early and to keep user input out of file names and URLs.
pub fn is_well_formed(reference: &str) -> bool {
    let Some(rest) = reference.strip_prefix("RVO-") else {
        return false;
    };
    let mut parts = rest.rsplitn(3, '-');
    let (Some(random), Some(time), Some(regeling_id)) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let is_base32 = |part: &str, len: usize| {
        part.len() == len && part.bytes().all(|byte| ALPHABET.contains(&byte))
    };
    is_base32(random, RANDOM_DIGITS)
        && is_base32(time, TIME_DIGITS)
        && !regeling_id.is_empty()
        && regeling_id.len() <= 40
        && regeling_id
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-')
}

/// Whether a reference number chosen by an HTTP backend is safe to put in a URL path or file name:
/// 1 to 80 ASCII letters, digits or `-` (see `spec/rvo-backend.md`).
pub fn is_path_safe(reference: &str) -> bool {
    (1..=80).contains(&reference.len())
        && reference
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// `value` as exactly `digits` Crockford base32 digits (most significant first, truncated).
fn base32(mut value: u64, digits: usize) -> String {
    let mut out = vec![b'0'; digits];
    for slot in out.iter_mut().rev() {
        *slot = ALPHABET[(value & 31) as usize];
        value >>= 5;
    }
    String::from_utf8(out).expect("alphabet is ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> DateTime<Utc> {
        text.parse().unwrap()
    }

    #[test]
    fn has_the_documented_shape() {
        let reference = new_reference("ebr-2027", at("2026-11-30T10:00:00Z")).unwrap();
        assert!(reference.starts_with("RVO-EBR-2027-"), "{reference}");
        assert_eq!(
            reference.len(),
            "RVO-EBR-2027-".len() + TIME_DIGITS + 1 + RANDOM_DIGITS
        );
        assert!(is_well_formed(&reference), "{reference}");
    }

    #[test]
    fn same_inputs_give_different_numbers() {
        let filed_at = at("2026-11-30T10:00:00Z");
        let numbers: std::collections::HashSet<String> = (0..200)
            .map(|_| new_reference("EBR-2027", filed_at).unwrap())
            .collect();
        assert_eq!(numbers.len(), 200);
    }

    #[test]
    fn sorts_by_filing_time() {
        let earlier = new_reference("EBR-2027", at("2026-11-30T10:00:00Z")).unwrap();
        let later = new_reference("EBR-2027", at("2026-11-30T10:00:00.001Z")).unwrap();
        assert!(earlier[..22] < later[..22], "{earlier} {later}");
    }

    #[test]
    fn rejects_malformed_numbers() {
        for bad in [
            "",
            "RVO-EBR-2027-001",
            "RVO-EBR-2027-68750110-001",
            "RVO--1KC7Q3M9Z-7XK2MD",
            "RVO-EBR-2027-1KC7Q3M9Z-7XK2MU",
            "RVO-../x-1KC7Q3M9Z-7XK2MD",
            "rvo-EBR-2027-1KC7Q3M9Z-7XK2MD",
        ] {
            assert!(!is_well_formed(bad), "{bad}");
        }
        assert!(is_well_formed("RVO-EBR-2027-1KC7Q3M9Z-7XK2MD"));
    }

    #[test]
    fn external_references_must_be_path_safe() {
        assert!(is_path_safe("RVO-EBR-2027-1KC7Q3M9Z-7XK2MD"));
        assert!(is_path_safe("abc-123"));
        for bad in ["", "../etc", "a/b", "a b", "a?b=c", &"x".repeat(81)] {
            assert!(!is_path_safe(bad), "{bad}");
        }
    }
}
