//! Command-line options of `overheid-mcp`.

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
    /// `--tool` values in order; empty means the default family.
    pub tools: Vec<String>,
    /// `--timeout`: deadline per tool call.
    pub timeout: Duration,
}

/// Parse the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Request, String> {
    let mut options = Options {
        tools: Vec::new(),
        timeout: DEFAULT_TIMEOUT,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => {
                (name.to_string(), Some(value.to_string()))
            }
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} verwacht een waarde"))
        };
        match name.as_str() {
            "-h" | "--help" => return Ok(Request::Help),
            "-V" | "--version" => return Ok(Request::Version),
            "--tool" => options.tools.push(value("--tool")?),
            "--timeout" => options.timeout = seconds(&value("--timeout")?)?,
            other => return Err(format!("onbekende optie: {other}")),
        }
    }
    Ok(Request::Serve(options))
}

fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 86_400.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("--timeout verwacht een positief aantal seconden, niet {text:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(args: &[&str]) -> Result<Request, String> {
        parse(args.iter().map(|s| s.to_string()))
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
            })
        );
    }

    #[test]
    fn refuses_bad_input() {
        assert!(parse_strs(&["--timeout", "0"]).is_err());
        assert!(parse_strs(&["--timeout"]).is_err());
        assert!(parse_strs(&["--onbekend"]).is_err());
        assert_eq!(parse_strs(&["--help"]), Ok(Request::Help));
    }
}
