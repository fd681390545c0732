//! "Did you mean": the closest valid word to a misspelled one (rule ERR-11).
//!
//! clap suggests commands and flags itself; this serves the lists clap does
//! not know (`--param` names, the profile's `--json`, `help COMMAND`).

/// The candidate closest to `word` by Jaro-Winkler similarity, if it is close
/// enough to be a likely typo (similarity above 0.8, the threshold clap uses).
/// Ties go to the first candidate; an exact match is returned as is.
pub(crate) fn closest<'c, I, S>(word: &str, candidates: I) -> Option<&'c str>
where
    I: IntoIterator<Item = &'c S>,
    S: AsRef<str> + ?Sized + 'c,
{
    let mut best: Option<(f64, &'c str)> = None;
    for candidate in candidates {
        let candidate = candidate.as_ref();
        let score = strsim::jaro_winkler(word, candidate);
        if score > 0.8 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// The hint text for a suggestion: `bedoelt u 'x'?`.
pub(crate) fn did_you_mean(suggestion: &str) -> String {
    format!("bedoelt u '{suggestion}'?")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_finds_its_word_and_noise_finds_nothing() {
        let names = ["oppervlakte", "aantal_werknemers", "energieverbruik"];
        assert_eq!(closest("opervlakte", &names), Some("oppervlakte"));
        assert_eq!(
            closest("energieverbruk", names.iter()),
            Some("energieverbruik")
        );
        assert_eq!(closest("xyz", &names), None);
        assert_eq!(closest("jsn", &["json"]), Some("json"));
        let owned = vec!["chek".to_string(), "check".to_string()];
        assert_eq!(closest("check", &owned), Some("check"));
    }
}
