//! Links a reader can follow: wetten.overheid.nl pages for a law or article, and the check that a toestand
//! URL from a search record points into the repository (so a crafted answer cannot make us fetch elsewhere).

use chrono::NaiveDate;

use crate::error::{KoopError, ProtocolError};

/// Base of the public site with consolidated legislation.
pub const WETTEN_BASE: &str = "https://wetten.overheid.nl";

/// `https://wetten.overheid.nl/{ID}/{date}` (the law as in force on that date).
pub fn wetten_url_regeling(bwb_id: &str, date: NaiveDate) -> String {
    format!("{WETTEN_BASE}/{bwb_id}/{}", date.format("%Y-%m-%d"))
}

/// `https://wetten.overheid.nl/{ID}/{date}#Artikel5.15`: the article by number. Whitespace in the number
/// is dropped (`5 a` → `5a`), characters that are not allowed in a fragment are percent-encoded
/// (`1:3` stays `1:3`).
pub fn wetten_url(bwb_id: &str, date: NaiveDate, nummer: &str) -> String {
    let compact: String = nummer.chars().filter(|c| !c.is_whitespace()).collect();
    wetten_url_anchor(bwb_id, date, &format!("Artikel{compact}"))
}

/// `https://wetten.overheid.nl/{ID}/{date}#{anchor}` with the anchor percent-encoded where needed
/// (see [`crate::toestand::Artikel::anker`] for the anchor of an article taken from the XML).
pub fn wetten_url_anchor(bwb_id: &str, date: NaiveDate, anchor: &str) -> String {
    let mut url = wetten_url_regeling(bwb_id, date);
    url.push('#');
    for c in anchor.chars() {
        if c.is_ascii_alphanumeric() || "-._~:@!$'()*+,;=/?".contains(c) {
            url.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                url.push_str(&format!("%{b:02X}"));
            }
        }
    }
    url
}

/// Refuses `url` unless it has the scheme, host and port of `repository_base` and lies under its path.
///
/// Userinfo (`user@host`), backslashes and other tricks are refused. Error: [`ProtocolError::ForeignHost`]
/// (exit 76).
pub fn check_repository_url(url: &str, repository_base: &str) -> Result<(), KoopError> {
    let refuse = || {
        KoopError::from(ProtocolError::ForeignHost {
            url: url.to_owned(),
        })
    };
    let (Some(target), Some(base)) = (split_url(url), split_url(repository_base)) else {
        return Err(refuse());
    };
    let base_path = base.path.trim_end_matches('/');
    let same_origin = target.scheme.eq_ignore_ascii_case(base.scheme)
        && target.authority.eq_ignore_ascii_case(base.authority);
    let under_base = target
        .path
        .strip_prefix(base_path)
        .is_some_and(|rest| rest.starts_with('/'));
    if same_origin && under_base && !target.path.split('/').any(|seg| seg == "..") {
        Ok(())
    } else {
        Err(refuse())
    }
}

struct UrlParts<'a> {
    scheme: &'a str,
    authority: &'a str,
    path: &'a str,
}

fn split_url(url: &str) -> Option<UrlParts<'_>> {
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return None;
    }
    let (scheme, rest) = url.split_once("://")?;
    if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let path_end = tail.find(['?', '#']).unwrap_or(tail.len());
    Some(UrlParts {
        scheme,
        authority,
        path: &tail[..path_end],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPO: &str = "https://repository.officiele-overheidspublicaties.nl";

    fn date() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 1, 1).unwrap()
    }

    #[test]
    fn article_urls() {
        assert_eq!(
            wetten_url("BWBR0041330", date(), "5.15"),
            "https://wetten.overheid.nl/BWBR0041330/2026-01-01#Artikel5.15"
        );
        assert_eq!(
            wetten_url("BWBR0041330", date(), "5.15a")
                .rsplit('#')
                .next(),
            Some("Artikel5.15a")
        );
        assert_eq!(
            wetten_url("BWBR0005537", date(), "1:3").rsplit('#').next(),
            Some("Artikel1:3")
        );
        assert_eq!(
            wetten_url("BWBR0005537", date(), "5 a").rsplit('#').next(),
            Some("Artikel5a")
        );
        assert_eq!(
            wetten_url_anchor("BWBR1", date(), "Artikel 1#é")
                .rsplit_once('#')
                .unwrap()
                .1,
            "Artikel%201%23%C3%A9"
        );
    }

    #[test]
    fn repository_urls_are_accepted() {
        let url = format!("{REPO}/bwb/BWBR0018451/2025-01-01_0/xml/BWBR0018451_2025-01-01_0.xml");
        assert!(check_repository_url(&url, REPO).is_ok());
        assert!(
            check_repository_url(
                "http://127.0.0.1:8080/repo/bwb/x.xml",
                "http://127.0.0.1:8080/repo/"
            )
            .is_ok()
        );
    }

    #[test]
    fn foreign_urls_are_refused() {
        for url in [
            "https://evil.example.com/bwb/x.xml",
            "https://repository.officiele-overheidspublicaties.nl.evil.com/bwb/x.xml",
            "https://repository.officiele-overheidspublicaties.nl@evil.com/bwb/x.xml",
            "http://repository.officiele-overheidspublicaties.nl/bwb/x.xml",
            "https://repository.officiele-overheidspublicaties.nl:444/bwb/x.xml",
            "file:///etc/passwd",
            "https://repository.officiele-overheidspublicaties.nl\\@evil.com/x",
            "",
        ] {
            let err = check_repository_url(url, REPO).unwrap_err();
            assert!(matches!(err, KoopError::Protocol(_)), "{url}");
        }
        assert!(
            check_repository_url(
                "http://127.0.0.1:8080/other/x.xml",
                "http://127.0.0.1:8080/repo"
            )
            .is_err()
        );
        assert!(
            check_repository_url(
                "http://127.0.0.1:8080/repo/../x.xml",
                "http://127.0.0.1:8080/repo"
            )
            .is_err()
        );
    }
}
