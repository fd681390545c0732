//! Numbers in canonical JSON: RFC 8785 §3.2.2.3, applied to the exact decimal value.
//!
//! RFC 8785 writes a number as ECMAScript's `Number::toString` writes the IEEE double it denotes:
//! the shortest digits that give back the double, in plain notation from 1e-6 up to below 1e21
//! and as `d.ddde±x` outside it. We apply the same notation rules to the decimal value the JSON
//! text holds, exactly: its digits without leading and trailing zeros. For every number that is
//! the shortest form of its double (every number an RFC 8785 implementation, JavaScript or
//! serde_json's float output writes, and every amount a person types with up to 15 significant
//! digits) the result is byte for byte RFC 8785's: `1.0`, `1`, `1e0` and `10e-1` all become `1`,
//! `4.50` becomes `4.5`, `1E30` becomes `1e+30`, `2e-3` becomes `0.002`.
//!
//! Where a number holds more digits than a double keeps, we keep them and RFC 8785 would not:
//! its own example `333333333.33333329` stays that (RFC 8785: `333333333.3333333`), and
//! `9007199254740993` stays that (RFC 8785: `9007199254740992`). The amounts and identifiers a
//! plan carries are exact decimals; rounding them to a double would give two different requests
//! one idempotency key. A number beyond a double's range (`1e400`, which RFC 8785 refuses) is
//! written the same way (`1e+400`). The one case left as written: an exponent of more than 15
//! digits, which no value a tool handles has.

/// Writes the JSON number `text` (valid JSON number syntax, as serde_json keeps it) in canonical
/// form.
pub(super) fn write(text: &str, out: &mut String) {
    match Exact::parse(text) {
        Some(exact) => exact.write(out),
        None => out.push_str(text),
    }
}

/// A decimal as `±0.digits × 10^point`; `digits` has no leading or trailing zeros and is empty
/// for zero.
struct Exact {
    negative: bool,
    digits: String,
    point: i64,
}

impl Exact {
    fn parse(text: &str) -> Option<Exact> {
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
            Some((mantissa, exponent)) => (mantissa, exponent),
            None => (unsigned, "0"),
        };
        let exponent_digits = exponent
            .trim_start_matches(['+', '-'])
            .trim_start_matches('0');
        if exponent_digits.len() > 15 {
            return None;
        }
        let exponent: i64 = if exponent_digits.is_empty() {
            0
        } else {
            exponent.parse().ok()?
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if !(whole.bytes().chain(fraction.bytes())).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let all: String = [whole, fraction].concat();
        let significant = all.trim_start_matches('0');
        let leading = all.len() - significant.len();
        let point = i64::try_from(whole.len()).ok()? - i64::try_from(leading).ok()? + exponent;
        Some(Exact {
            negative,
            digits: significant.trim_end_matches('0').to_string(),
            point,
        })
    }

    /// ECMAScript's `Number::toString(m)` steps 5–10 with `s` = `digits`, `k` its length and
    /// `n` = `point`.
    fn write(&self, out: &mut String) {
        let digits = self.digits.as_str();
        if digits.is_empty() {
            out.push('0'); // -0 too (RFC 8785 §3.2.2.3)
            return;
        }
        if self.negative {
            out.push('-');
        }
        let (k, n) = (digits.len() as i64, self.point);
        let zeros = |count: i64, out: &mut String| {
            out.extend(std::iter::repeat_n(
                '0',
                usize::try_from(count).unwrap_or(0),
            ));
        };
        if k <= n && n <= 21 {
            out.push_str(digits);
            zeros(n - k, out);
        } else if 0 < n && n <= 21 {
            let (before, after) = digits.split_at(usize::try_from(n).unwrap_or(0));
            out.push_str(before);
            out.push('.');
            out.push_str(after);
        } else if -6 < n && n <= 0 {
            out.push_str("0.");
            zeros(-n, out);
            out.push_str(digits);
        } else {
            let (first, rest) = digits.split_at(1);
            out.push_str(first);
            if !rest.is_empty() {
                out.push('.');
                out.push_str(rest);
            }
            out.push('e');
            out.push(if n > 0 { '+' } else { '-' });
            out.push_str(&(n - 1).unsigned_abs().to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(text: &str) -> String {
        let mut out = String::new();
        write(text, &mut out);
        out
    }

    #[test]
    fn rfc_8785_examples() {
        // RFC 8785 §3.2.2.3 and Appendix B, where the input is its double's shortest form.
        for (input, expected) in [
            ("1E30", "1e+30"),
            ("4.50", "4.5"),
            ("2e-3", "0.002"),
            ("0.000000000000000000000000001", "1e-27"),
            ("0", "0"),
            ("-0", "0"),
            ("-0.0e5", "0"),
            ("5e-324", "5e-324"),
            ("-5e-324", "-5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("9007199254740992", "9007199254740992"),
            ("295147905179352830000", "295147905179352830000"),
            ("1e21", "1e+21"),
            ("1e23", "1e+23"),
            ("999999999999999900000", "999999999999999900000"),
            ("0.000001", "0.000001"),
            ("1e-7", "1e-7"),
            ("-1.5e-7", "-1.5e-7"),
            ("123.456", "123.456"),
            ("1.0", "1"),
            ("100", "100"),
            ("1e2", "100"),
            ("0.1e1", "1"),
            ("007.50", "7.5"),
        ] {
            assert_eq!(canonical(input), expected, "{input}");
        }
    }

    #[test]
    fn digits_beyond_a_double_are_kept() {
        assert_eq!(canonical("333333333.33333329"), "333333333.33333329");
        assert_eq!(canonical("9007199254740993"), "9007199254740993");
        assert_eq!(
            canonical("12345678901234567890.123"),
            "12345678901234567890.123"
        );
        assert_eq!(
            canonical("1234567890123456789012.5"),
            "1.2345678901234567890125e+21"
        );
        assert_eq!(canonical("1e400"), "1e+400");
        assert_ne!(canonical("0.10000000000000001"), canonical("0.1"));
    }

    #[test]
    fn an_absurd_exponent_is_left_as_written() {
        assert_eq!(canonical("1e1234567890123456"), "1e1234567890123456");
        assert_eq!(canonical("1e000000000000000000002"), "100");
    }

    /// Doubles spread over the whole range (a fixed linear congruential sequence over their bits):
    /// Rust's shortest plain and exponent spellings give one canonical text, which reads back as
    /// the same double and is canonical itself.
    #[test]
    fn every_spelling_of_a_double_gives_one_text_that_keeps_its_value() {
        let mut bits: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            bits = bits
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let x = f64::from_bits(bits);
            if !x.is_finite() {
                continue;
            }
            let plain = canonical(&format!("{x}"));
            assert_eq!(plain, canonical(&format!("{x:e}")), "{x:e}");
            assert_eq!(plain, canonical(&format!("{x:E}")), "{x:e}");
            assert_eq!(plain.parse::<f64>().unwrap(), x, "{x:e} -> {plain}");
            assert_eq!(canonical(&plain), plain);
        }
    }
}
