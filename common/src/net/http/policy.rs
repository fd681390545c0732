//! Which URLs a tool may reach (rules NET-1, NET-11): https, or plain http to loopback only;
//! a URL from an answer or a redirect only under the configured base, its path decoded before it
//! is compared; a proxy only as an `http`/`https` URL with a host.

use std::net::IpAddr;

use reqwest::Url;

use crate::problem::error::{Problem, Result};

/// Check an `HTTPS_PROXY` value: an `http` or `https` URL with a host and
/// no other parts (exit 78). A dry run checks it too (rule DRY-4).
pub(crate) fn check_proxy(proxy: Option<&str>) -> Result<Option<Url>, Problem> {
    let Some(text) = proxy else { return Ok(None) };
    let refuse = |why: &str| {
        Problem::config(format!("HTTPS_PROXY is geen bruikbare proxy: {why}"))
            .with_hint("zet HTTPS_PROXY op http://host:poort of maak de variabele leeg")
    };
    let url = Url::parse(text).map_err(|_| refuse("geen URL"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refuse("alleen http- en https-proxy's worden ondersteund"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(refuse("de URL noemt geen host"));
    }
    if !matches!(url.path(), "" | "/") || url.query().is_some() || url.fragment().is_some() {
        return Err(refuse("een proxy-URL heeft geen pad of query"));
    }
    Ok(Some(url))
}

/// Parse `url` and apply the transport rule: https, or http to loopback only.
pub(crate) fn check_url(url: &str) -> Result<Url, Problem> {
    let parsed = Url::parse(url).map_err(|e| {
        Problem::config(format!("ongeldige URL {url:?}: {e}"))
            .with_hint("controleer de basis-URL in de omgevingsvariabelen")
    })?;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        // Never echo the URL: it holds a credential.
        return Err(Problem::config(
            "een basis-URL met gebruikersnaam of wachtwoord is niet toegestaan",
        )
        .with_hint("zet sleutels in de daarvoor bedoelde geheime variabele, niet in de URL"));
    }
    match parsed.scheme() {
        "https" => Ok(parsed),
        "http" if is_loopback(&parsed) => Ok(parsed),
        "http" => Err(Problem::config(format!(
            "onversleuteld http naar {} is niet toegestaan",
            parsed.host_str().unwrap_or("?")
        ))
        .with_hint("gebruik https; http mag alleen naar 127.0.0.1, ::1 of localhost")),
        other => Err(Problem::config(format!(
            "URL-schema {other:?} wordt niet ondersteund"
        ))),
    }
}

/// Refuse a URL taken from a response unless it lies under `base` (same
/// scheme, host and port, path below the base's path): a crafted answer must
/// not make a tool fetch arbitrary URLs (rule NET-11, exit 76).
pub fn ensure_under(url: &str, base: &str) -> Result<Url, Problem> {
    // The refused URL is named by its origin only: its path or query may hold a key (SEC-2).
    let refuse = || {
        let named =
            Url::parse(url).map_or_else(|_| "geen geldige URL".to_string(), |url| origin(&url));
        Problem::protocol(format!(
            "een URL uit het antwoord ({named}) valt buiten de bron {base}"
        ))
        .with_code(crate::problem::codes::OMLEIDING_GEWEIGERD)
    };
    let target = Url::parse(url).map_err(|_| refuse())?;
    let base_url = Url::parse(base).map_err(|_| refuse())?;
    let (Some(path), Some(base_path)) = (decoded_path(&target), decoded_path(&base_url)) else {
        return Err(refuse());
    };
    let base_path = base_path.trim_end_matches('/');
    let same_origin = target.scheme() == base_url.scheme()
        && target.host_str() == base_url.host_str()
        && target.port_or_known_default() == base_url.port_or_known_default();
    let path = path.as_str();
    let below = path == base_path
        || base_path.is_empty()
        || path
            .strip_prefix(base_path)
            .is_some_and(|rest| rest.starts_with('/'));
    if same_origin && below && target.username().is_empty() && target.password().is_none() {
        Ok(target)
    } else {
        Err(refuse())
    }
}

/// Where a refused URL points, as an error names it: its origin (scheme, host and port) only.
/// Its path, query and user information may hold a key, and not in the form it was held in
/// (the URL parser turns a `\` into `/` and percent-encodes), so they are never shown (SEC-2).
pub(crate) fn origin(url: &Url) -> String {
    match url.origin() {
        origin @ url::Origin::Tuple(..) => origin.ascii_serialization(),
        url::Origin::Opaque(_) => format!("een {}:-adres", url.scheme()),
    }
}

/// The path of `url` as a server may read it: percent-decoded. `None` when
/// a segment of the decoded path is `.` or `..` (also with a backslash as
/// separator) or it holds a NUL: a traversal such as `..%2F` that
/// `Url::parse` leaves alone (rule NET-11).
fn decoded_path(url: &Url) -> Option<String> {
    let path = percent_encoding::percent_decode_str(url.path())
        .decode_utf8()
        .ok()?
        .into_owned();
    let traversal = path
        .split(['/', '\\'])
        .any(|segment| segment == "." || segment == "..");
    (!traversal && !path.contains('\0')).then_some(path)
}

/// The base a redirect of `url` must stay under: the longest of the
/// configured `bases` that `url` lies under, else the directory of `url`
/// itself (rule NET-11).
pub(crate) fn redirect_scope<'b>(url: &str, bases: impl IntoIterator<Item = &'b str>) -> String {
    bases
        .into_iter()
        .filter(|base| ensure_under(url, base).is_ok())
        .max_by_key(|base| base.len())
        .map(str::to_string)
        .or_else(|| {
            Url::parse(url)
                .and_then(|u| u.join("."))
                .ok()
                .map(String::from)
        })
        .unwrap_or_else(|| url.to_string())
}

/// `localhost`, `127.0.0.0/8` or `::1`: a local fake, never a real source.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_only_to_loopback() {
        assert!(check_url("http://127.0.0.1:8080/x").is_ok());
        assert!(check_url("http://127.9.9.9/x").is_ok());
        assert!(check_url("http://[::1]:1/x").is_ok());
        assert!(check_url("http://localhost/x").is_ok());
        assert!(check_url("https://api.kvk.nl/test/api").is_ok());
        for bad in [
            "http://api.kvk.nl/",
            "http://10.0.0.1/",
            "ftp://x/",
            "not a url",
        ] {
            let err = check_url(bad).unwrap_err();
            assert_eq!(err.exit.code(), 78, "{bad}");
            assert!(!err.detail.contains("S3CRET"), "{bad}");
        }
    }

    #[test]
    fn urls_from_answers_must_stay_under_the_base() {
        let base = "https://repository.example.nl/bwb";
        assert!(ensure_under("https://repository.example.nl/bwb/BWBR1/x.xml", base).is_ok());
        for bad in [
            "https://evil.example/bwb/x.xml",
            "http://repository.example.nl/bwb/x.xml",
            "https://repository.example.nl:8443/bwb/x.xml",
            "https://repository.example.nl/bwbx/x.xml",
            "https://user@repository.example.nl/bwb/x.xml",
            "not a url",
        ] {
            let err = ensure_under(bad, base).unwrap_err();
            assert_eq!(err.exit.code(), 76, "{bad}");
            // Named by its origin only: never the path (or user information) it carried.
            assert!(
                !err.detail.contains("x.xml") && !err.detail.contains("user@"),
                "{err:?}"
            );
        }
        let err = ensure_under("https://evil.example:8443/a/sl%5Cutel?k=geheim", base).unwrap_err();
        assert!(
            err.detail.contains("(https://evil.example:8443)"),
            "{err:?}"
        );
        assert!(
            !err.detail.contains("utel") && !err.detail.contains("geheim"),
            "{err:?}"
        );
    }

    #[test]
    fn encoded_traversal_is_decoded_before_comparing() {
        let base = "https://repository.example.nl/bwb";
        for bad in [
            "https://repository.example.nl/bwb/..%2F..%2Fetc/passwd",
            "https://repository.example.nl/bwb/%2E%2E/geheim",
            "https://repository.example.nl/bwb/%2e%2e%2fgeheim",
            "https://repository.example.nl/bwb/..%5Cgeheim",
            "https://repository.example.nl/bwb/a%00b",
            "https://repository.example.nl/bwb%2F..%2Fx",
        ] {
            let err = ensure_under(bad, base).unwrap_err();
            assert_eq!(err.exit.code(), 76, "{bad}");
        }
        assert!(ensure_under("https://repository.example.nl/bwb/BWBR1%20x/a.xml", base).is_ok());
        assert!(ensure_under("https://repository.example.nl/bwb/a..b/x.xml", base).is_ok());
        // What `Url` itself resolves is compared resolved.
        let resolved = ensure_under("https://repository.example.nl/bwb/x/%2E/y", base).unwrap();
        assert_eq!(resolved.path(), "/bwb/x/y");
    }

    #[test]
    fn redirects_are_scoped_to_the_longest_matching_base() {
        let bases = [
            "https://x.test/api",
            "https://x.test/api/v1",
            "https://y.test/",
        ];
        assert_eq!(
            redirect_scope("https://x.test/api/v1/a/b", bases),
            "https://x.test/api/v1"
        );
        assert_eq!(
            redirect_scope("https://x.test/api/v2", bases),
            "https://x.test/api"
        );
        assert_eq!(
            redirect_scope("https://z.test/a/b?q", bases),
            "https://z.test/a/"
        );
    }

    #[test]
    fn proxies_must_be_usable_urls() {
        assert!(check_proxy(None).unwrap().is_none());
        assert!(check_proxy(Some("http://proxy.example:3128")).is_ok());
        for bad in [
            "garbage",
            "ftp://proxy.example",
            "http://",
            "http://proxy.example:99999",
            "http://proxy.example/pad",
        ] {
            let err = check_proxy(Some(bad)).unwrap_err();
            assert_eq!(err.exit.code(), 78, "{bad}");
        }
    }
}
