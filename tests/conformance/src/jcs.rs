//! The test oracle for canonical JSON (the profile's definition, §2: RFC 8785 with numbers kept
//! exact). Written apart from `common::digest` on purpose, and shared as this one file by
//! profile-check and test-support (`#[path]`), so that the checks of the tools' digests do not
//! share the code they check. It depends on serde_json only.

use serde_json::Value;

/// `value` as canonical JSON: members ordered by the UTF-16 code units of their names, no
/// whitespace, strings as `JSON.stringify` writes them, numbers by ECMAScript's
/// `Number::toString` notation over their exact decimal digits.
pub(crate) fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut members: Vec<(Vec<u16>, String)> = map
                .iter()
                .map(|(name, member)| {
                    let utf16 = name.encode_utf16().collect();
                    (
                        utf16,
                        format!("{}:{}", Value::from(name.as_str()), canonical(member)),
                    )
                })
                .collect();
            members.sort();
            let members: Vec<String> = members.into_iter().map(|(_, text)| text).collect();
            format!("{{{}}}", members.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", items.join(","))
        }
        Value::Number(number) => number_text(&number.to_string()),
        other => other.to_string(),
    }
}

/// A JSON number's canonical text. The value is `sign × 0.D × 10^n` with `D` its significant
/// digits; the notation then follows ECMAScript (plain from 1e-6 to below 1e21).
fn number_text(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let (sign, body) = match lower.strip_prefix('-') {
        Some(body) => ("-", body),
        None => ("", lower.as_str()),
    };
    let (mantissa, exponent) = match body.find('e') {
        Some(at) => (&body[..at], body[at + 1..].parse::<i64>().unwrap_or(0)),
        None => (body, 0),
    };
    let point_at = mantissa.find('.').unwrap_or(mantissa.len());
    let mut digits: Vec<char> = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut n = point_at as i64 + exponent;
    while digits.first() == Some(&'0') {
        digits.remove(0);
        n -= 1;
    }
    while digits.last() == Some(&'0') {
        digits.pop();
    }
    if digits.is_empty() {
        return "0".into();
    }
    let k = digits.len() as i64;
    let s: String = digits.iter().collect();
    let body = if (k..=21).contains(&n) {
        format!("{s}{}", "0".repeat((n - k) as usize))
    } else if (1..=21).contains(&n) {
        format!("{}.{}", &s[..n as usize], &s[n as usize..])
    } else if (-5..=0).contains(&n) {
        format!("0.{}{s}", "0".repeat(-n as usize))
    } else {
        let fraction = if k > 1 {
            format!(".{}", &s[1..])
        } else {
            String::new()
        };
        format!("{}{fraction}e{:+}", &s[..1], n - 1)
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parsed(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn members_by_utf16_strings_escaped() {
        assert_eq!(
            canonical(&json!({"b":1,"a":"x\n\"","\u{e000}":0,"\u{1f600}":0})),
            "{\"a\":\"x\\n\\\"\",\"b\":1,\"\u{1f600}\":0,\"\u{e000}\":0}"
        );
    }

    #[test]
    fn numbers_as_rfc_8785_writes_them() {
        assert_eq!(
            canonical(&parsed(
                "[333333333.3333333,1E30,4.50,2e-3,0.000000000000000000000000001]"
            )),
            "[333333333.3333333,1e+30,4.5,0.002,1e-27]"
        );
        assert_eq!(
            canonical(&parsed("[1.0,1e2,-0,1e21,1e-7,0.000001,-12.50e1]")),
            "[1,100,0,1e+21,1e-7,0.000001,-125]"
        );
        assert_eq!(canonical(&parsed("9007199254740993")), "9007199254740993");
    }
}
