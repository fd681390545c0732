//! Proposal ids: `vs_` and 32 characters of lower-case base32 (RFC 4648 alphabet), 160 bits
//! from the operating system's random source. Safe in URLs, file names and shells.

use crate::Error;

const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
const PREFIX: &str = "vs_";
const BYTES: usize = 20;
const CHARS: usize = BYTES * 8 / 5;

/// A new, unguessable proposal id.
pub(crate) fn new_id() -> Result<String, Error> {
    let mut bytes = [0u8; BYTES];
    getrandom::fill(&mut bytes).map_err(Error::Random)?;
    let mut id = String::with_capacity(PREFIX.len() + CHARS);
    id.push_str(PREFIX);
    for chunk in bytes.chunks(5) {
        let bits = chunk.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
        for shift in (0..8).rev() {
            id.push(char::from(ALPHABET[((bits >> (shift * 5)) & 31) as usize]));
        }
    }
    Ok(id)
}

/// Whether `text` has the form of a proposal id (says nothing about whether it exists).
pub fn is_well_formed(text: &str) -> bool {
    text.strip_prefix(PREFIX)
        .is_some_and(|rest| rest.len() == CHARS && rest.bytes().all(|b| ALPHABET.contains(&b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_well_formed_and_distinct() {
        let a = new_id().unwrap();
        let b = new_id().unwrap();
        assert!(is_well_formed(&a) && is_well_formed(&b), "{a} {b}");
        assert_ne!(a, b);
        assert_eq!(a.len(), 35);
        assert!(!is_well_formed("vs_../../etc/passwd"));
        assert!(!is_well_formed(&a.to_uppercase()));
        assert!(!is_well_formed(&a[..34]));
    }
}
