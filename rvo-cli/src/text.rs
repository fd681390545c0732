//! Text folding for matching: lower case without diacritics, so "Energie", "énergie" and
//! "ENERGIE" compare equal. Covers the Latin letters that occur in Dutch and its loanwords;
//! other characters are lower-cased and kept.

/// Folds `text` to lower case and strips diacritics from Latin letters.
pub(crate) fn fold(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for character in text.chars().flat_map(char::to_lowercase) {
        match strip_diacritic(character) {
            Some(plain) => folded.push_str(plain),
            None => folded.push(character),
        }
    }
    folded
}

/// Splits folded text into words: runs of letters and digits.
pub(crate) fn words(folded: &str) -> impl Iterator<Item = &str> {
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
}

fn strip_diacritic(character: char) -> Option<&'static str> {
    Some(match character {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'č' => "c",
        'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
        'ĳ' => "ij",
        'ł' | 'ľ' | 'ĺ' => "l",
        'ñ' | 'ń' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
        'œ' => "oe",
        'ŕ' | 'ř' => "r",
        'ś' | 'š' | 'ş' => "s",
        'ß' => "ss",
        'ť' | 'ţ' => "t",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        '³' => "3",
        '²' => "2",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_accents() {
        assert_eq!(
            fold("Énergie Privé CAFÉ ĲSSEL"),
            "energie prive cafe ijssel"
        );
        assert_eq!(fold("m³"), "m3");
    }

    #[test]
    fn splits_words_on_punctuation() {
        let folded = fold("SDE++ (ronde 2026), S&O-verklaring");
        let split: Vec<&str> = words(&folded).collect();
        assert_eq!(split, ["sde", "ronde", "2026", "s", "o", "verklaring"]);
    }
}
