//! Command-line options of `overheid-mcp`.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::time::Duration;

/// Default deadline of one tool call.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Request {
    Serve(Options),
    Help,
    Version,
}

/// Options of a serving bridge.
#[derive(Debug, PartialEq)]
pub struct Options {
    /// `--tool` values in order (paths may be any bytes); empty means the default family.
    pub tools: Vec<OsString>,
    /// `--timeout`: deadline per tool call.
    pub timeout: Duration,
    /// `--allow-local-paths`: list and pass arguments that name local files or directories.
    pub allow_local_paths: bool,
}

/// Parse the arguments after the program name, as the OS gives them (`std::env::args_os`):
/// a `--tool` path need not be UTF-8; anything else that is not is a usage error.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Request, String> {
    let mut options = Options {
        tools: Vec::new(),
        timeout: DEFAULT_TIMEOUT,
        allow_local_paths: false,
    };
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
            other => return Err(format!("onbekende optie: {other}")),
        }
    }
    Ok(Request::Serve(options))
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
            Request::Serve(Options {
                tools: vec!["kvk-cli".into(), "./x/demo-cli".into()],
                timeout: Duration::from_millis(2500),
                allow_local_paths: false,
            })
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
    }
}
