//! Command-line options of `overheid-mcp`.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::time::Duration;

/// Default deadline of one tool call: below the TypeScript SDK's default request timeout
/// (60 s, `DEFAULT_REQUEST_TIMEOUT_MSEC`), so a host hears the bridge's own
/// `TIJDLIMIET_VERSTREKEN` rather than giving up just as the answer comes (the Python SDK reads
/// for 300 s). A host that sends a `progressToken` gets progress every half second as well.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(50);
const _: () = assert!(
    DEFAULT_TIMEOUT.as_secs() < 60,
    "below the SDKs' request timeout"
);

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub(crate) enum Request {
    Serve(Box<Options>),
    Help,
    Version,
}

/// Options of a serving bridge.
#[derive(Debug, PartialEq)]
pub(crate) struct Options {
    /// `--tool` values in order (paths may be any bytes); empty means the default family.
    pub tools: Vec<OsString>,
    /// `--timeout`: deadline per tool call.
    pub timeout: Duration,
    /// `--max-result-bytes`: the most bytes of data one result may carry.
    pub max_result_bytes: usize,
    /// `--allow-local-paths`: list and pass arguments that name local files or directories.
    pub allow_local_paths: bool,
    /// `--http ADDR:PORT`: serve Streamable HTTP instead of stdio.
    pub http: Option<String>,
    /// `--auth-*` and `--insecure-no-auth`.
    pub auth: AuthOptions,
    /// `--max-calls`: concurrent requests (and so child processes) over HTTP.
    pub max_calls: usize,
    /// `--max-calls-per-principal`: concurrent requests of one principal over HTTP (`None`: a
    /// quarter of `max_calls`, at least 1).
    pub max_calls_per_principal: Option<usize>,
    /// `--allowed-origin`, repeatable: browser origins allowed over HTTP.
    pub allowed_origins: Vec<String>,
    /// `--allowed-host`, repeatable: `Host` values accepted over HTTP besides loopback.
    pub allowed_hosts: Vec<String>,
    /// `--public-url`: the URL clients use for `/mcp` (RFC 9728 `resource`).
    pub public_url: Option<String>,
    /// `--session-from-meta` (stdio): the host gives the identity per call in `_meta`, so
    /// session-bound arguments are not listed even without `KVK_SESSIE_NUMMER`.
    pub session_from_meta: bool,
    /// `--read-only`: no tool that changes anything is listed or callable.
    pub read_only: bool,
    /// `--toolsets kvk,koop,…`: serve only these sources (`None`: every one loaded).
    pub toolsets: Option<Vec<String>>,
    /// `--goedkeuring-url`: the approval page's base (`…/voorstellen`) that a waiting proposal's
    /// link points to.
    pub approval_url: Option<String>,
    /// `--oidc-issuer` and `--oidc-client-id`: the approval page's login (HTTP only).
    pub oidc_issuer: Option<String>,
    pub oidc_client_id: Option<String>,
}

/// How HTTP requests are authenticated.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct AuthOptions {
    pub jwks: Option<OsString>,
    pub issuer: Option<String>,
    pub audience: Option<String>,
    pub kvk_claim: Option<String>,
    /// `--auth-companies-claim`: the claim that lists the companies an intermediary acts for.
    pub companies_claim: Option<String>,
    pub insecure_no_auth: bool,
}

/// Default cap on the data of one result: 64 KiB, about 16 000 tokens of JSON, which a host
/// shows a model whole (as `structuredContent` and once more as text).
pub(crate) const DEFAULT_MAX_RESULT_BYTES: usize = 64 * 1024;

/// Default number of concurrent calls over HTTP.
pub(crate) const DEFAULT_MAX_CALLS: usize = 16;

impl Default for Options {
    fn default() -> Self {
        Self {
            tools: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            max_result_bytes: DEFAULT_MAX_RESULT_BYTES,
            allow_local_paths: false,
            http: None,
            auth: AuthOptions::default(),
            max_calls: DEFAULT_MAX_CALLS,
            max_calls_per_principal: None,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            public_url: None,
            session_from_meta: false,
            read_only: false,
            toolsets: None,
            approval_url: None,
            oidc_issuer: None,
            oidc_client_id: None,
        }
    }
}

/// Parse the arguments after the program name, as the OS gives them (`std::env::args_os`):
/// a `--tool` path need not be UTF-8; anything else that is not is a usage error.
pub(crate) fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Request, String> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let bytes = arg.as_bytes();
        let (name, inline) = match bytes.iter().position(|&b| b == b'=') {
            Some(at) if bytes.starts_with(b"--") => (
                &bytes[..at],
                Some(OsStr::from_bytes(&bytes[at + 1..]).to_os_string()),
            ),
            _ => (bytes, None),
        };
        let Ok(name) = std::str::from_utf8(name) else {
            return Err(format!("onbekende optie: {}", arg.to_string_lossy()));
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} verwacht een waarde"))
        };
        match name {
            "-h" | "--help" => return Ok(Request::Help),
            "-V" | "--version" => return Ok(Request::Version),
            "--tool" => options.tools.push(value("--tool")?),
            "--timeout" => options.timeout = seconds(&value("--timeout")?)?,
            "--allow-local-paths" if inline.is_some() => {
                return Err("--allow-local-paths neemt geen waarde".to_string());
            }
            "--allow-local-paths" => options.allow_local_paths = true,
            "--insecure-no-auth" if inline.is_some() => {
                return Err("--insecure-no-auth neemt geen waarde".to_string());
            }
            "--insecure-no-auth" => options.auth.insecure_no_auth = true,
            "--session-from-meta" if inline.is_some() => {
                return Err("--session-from-meta neemt geen waarde".to_string());
            }
            "--session-from-meta" => options.session_from_meta = true,
            "--read-only" if inline.is_some() => {
                return Err("--read-only neemt geen waarde".to_string());
            }
            "--read-only" => options.read_only = true,
            "--toolsets" => {
                let sets = toolsets(&text(name, value(name)?)?)?;
                options.toolsets.get_or_insert_with(Vec::new).extend(sets);
            }
            "--http" => options.http = Some(text("--http", value("--http")?)?),
            "--auth-jwks" => options.auth.jwks = Some(value("--auth-jwks")?),
            "--auth-issuer" => options.auth.issuer = Some(text(name, value(name)?)?),
            "--auth-audience" => options.auth.audience = Some(text(name, value(name)?)?),
            "--auth-kvk-claim" => options.auth.kvk_claim = Some(text(name, value(name)?)?),
            "--auth-companies-claim" => {
                options.auth.companies_claim = Some(text(name, value(name)?)?);
            }
            "--allowed-origin" => options.allowed_origins.push(text(name, value(name)?)?),
            "--allowed-host" => options.allowed_hosts.push(text(name, value(name)?)?),
            "--public-url" => options.public_url = Some(text(name, value(name)?)?),
            "--max-result-bytes" => {
                let given = text(name, value(name)?)?;
                options.max_result_bytes =
                    count(name, &given, 1024..=crate::mcp::stdio::MAX_MESSAGE_BYTES)?;
            }
            "--oidc-issuer" => options.oidc_issuer = Some(text(name, value(name)?)?),
            "--oidc-client-id" => options.oidc_client_id = Some(text(name, value(name)?)?),
            "--goedkeuring-url" => {
                options.approval_url = Some(approval_url(&text(name, value(name)?)?)?);
            }
            "--max-calls" => options.max_calls = count(name, &text(name, value(name)?)?, 1..=1024)?,
            "--max-calls-per-principal" => {
                let given = text(name, value(name)?)?;
                options.max_calls_per_principal = Some(count(name, &given, 1..=1024)?);
            }
            other => return Err(format!("onbekende optie: {other}")),
        }
    }
    Ok(Request::Serve(Box::new(options)))
}

/// `--toolsets`: sources separated by commas, at least one.
fn toolsets(given: &str) -> Result<Vec<String>, String> {
    let sets: Vec<String> = given
        .split(',')
        .map(str::trim)
        .filter(|set| !set.is_empty())
        .map(str::to_string)
        .collect();
    if sets.is_empty() {
        return Err("--toolsets verwacht bronnen, bijv. kvk,koop".to_string());
    }
    Ok(sets)
}

/// A whole number of option `name` within `range`.
fn count(name: &str, given: &str, range: std::ops::RangeInclusive<usize>) -> Result<usize, String> {
    given
        .parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "{name} verwacht {} tot {}, niet {given:?}",
                range.start(),
                range.end()
            )
        })
}

fn text(name: &str, value: OsString) -> Result<String, String> {
    value
        .into_string()
        .map_err(|_| format!("{name} verwacht tekst (UTF-8)"))
}

/// `--goedkeuring-url`: an `https://` URL, or `http://` on loopback; no query, fragment, spaces
/// or control characters (a proposal's id is appended as one more path segment).
fn approval_url(url: &str) -> Result<String, String> {
    let loopback = ["http://127.0.0.1", "http://localhost", "http://[::1]"]
        .iter()
        .any(|prefix| {
            url.strip_prefix(prefix)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([':', '/']))
        });
    let clean = !url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '"' | '<' | '>'));
    if (url.starts_with("https://") && url.len() > "https://".len() || loopback) && clean {
        Ok(url.trim_end_matches('/').to_string())
    } else {
        Err(format!(
            "--goedkeuring-url verwacht een https-URL (http alleen op loopback) zonder query, niet {url:?}"
        ))
    }
}

fn seconds(text: &OsStr) -> Result<Duration, String> {
    let text = text.to_string_lossy();
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 86_400.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("--timeout verwacht een positief aantal seconden, niet {text:?}"))
}

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::OsStringExt;

    use super::*;

    fn parse_strs(args: &[&str]) -> Result<Request, String> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn reads_tools_and_timeout() {
        let request = parse_strs(&[
            "--tool",
            "kvk-cli",
            "--tool=./x/demo-cli",
            "--timeout",
            "2.5",
        ])
        .unwrap();
        assert_eq!(
            request,
            Request::Serve(Box::new(Options {
                tools: vec!["kvk-cli".into(), "./x/demo-cli".into()],
                timeout: Duration::from_millis(2500),
                ..Options::default()
            }))
        );
        let Ok(Request::Serve(allowing)) = parse_strs(&["--allow-local-paths"]) else {
            panic!("--allow-local-paths is an option");
        };
        assert!(allowing.allow_local_paths);
    }

    #[test]
    fn takes_tool_paths_that_are_not_utf8_and_refuses_other_such_arguments() {
        let odd = OsString::from_vec(b"./x/\xff-cli".to_vec());
        let mut tool_option = b"--tool=".to_vec();
        tool_option.extend_from_slice(odd.as_bytes());
        let request = parse([
            OsString::from("--tool"),
            odd.clone(),
            OsString::from_vec(tool_option),
        ]);
        let Ok(Request::Serve(options)) = request else {
            panic!("{request:?}");
        };
        assert_eq!(options.tools, [odd.clone(), odd.clone()]);
        let timeout = parse([OsString::from("--timeout"), odd.clone()]).unwrap_err();
        assert!(timeout.contains("--timeout verwacht"), "{timeout}");
        let unknown = parse([odd]).unwrap_err();
        assert!(unknown.contains("onbekende optie"), "{unknown}");
    }

    #[test]
    fn refuses_bad_input() {
        assert!(parse_strs(&["--timeout", "0"]).is_err());
        assert!(parse_strs(&["--timeout"]).is_err());
        assert!(parse_strs(&["--onbekend"]).is_err());
        assert!(parse_strs(&["--allow-local-paths=ja"]).is_err());
        assert_eq!(parse_strs(&["--help"]), Ok(Request::Help));
        assert!(parse_strs(&["--max-calls", "0"]).is_err());
        assert!(parse_strs(&["--max-calls-per-principal", "0"]).is_err());
        assert!(parse_strs(&["--max-result-bytes", "10"]).is_err());
        let Ok(Request::Serve(capped)) = parse_strs(&["--max-result-bytes=2048"]) else {
            panic!("--max-result-bytes is an option");
        };
        assert_eq!(capped.max_result_bytes, 2048);
        assert!(parse_strs(&["--insecure-no-auth=1"]).is_err());
        for bad in [
            "http://mcp.example.nl/voorstellen",
            "https://x/v?a=b",
            "https://x/ v",
            "ftp://x",
            "http://127.0.0.1.evil.nl/",
        ] {
            assert!(parse_strs(&["--goedkeuring-url", bad]).is_err(), "{bad}");
        }
        let Ok(Request::Serve(page)) =
            parse_strs(&["--goedkeuring-url=https://mcp.example.nl/voorstellen/"])
        else {
            panic!("--goedkeuring-url");
        };
        assert_eq!(
            page.approval_url.as_deref(),
            Some("https://mcp.example.nl/voorstellen")
        );
        let Ok(Request::Serve(http)) = parse_strs(&[
            "--http=0.0.0.0:8080",
            "--auth-jwks",
            "jwks.json",
            "--auth-audience=a",
            "--max-calls=4",
        ]) else {
            panic!("HTTP options");
        };
        assert_eq!(http.http.as_deref(), Some("0.0.0.0:8080"));
        assert_eq!(http.auth.jwks, Some("jwks.json".into()));
        assert_eq!(http.max_calls, 4);
    }
}
