//! The approval page's HTML: Dutch, usable without JavaScript, no external assets, one inline
//! style allowed by its hash in the Content-Security-Policy. Every text from a record or a source
//! is escaped, and bidi controls and line separators are neutralised, so a value cannot change
//! how the rest of the page reads.

use serde_json::Value;

use common::digest::sha256_hex;

/// The page's only style, allowed by its hash (no `unsafe-inline`).
pub(crate) const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:52rem;margin:1rem auto;\
padding:0 1rem;color:#111;background:#fff;line-height:1.5}h1{font-size:1.5rem}\
dt{font-weight:bold;margin-top:.5rem}dd{margin-left:1rem}code{word-break:break-all}\
table{border-collapse:collapse}td,th{border:1px solid #555;padding:.25rem .5rem;text-align:left}\
button{font-size:1rem;padding:.5rem 1rem;margin:.5rem .5rem 0 0;border:2px solid #111;\
border-radius:4px;background:#fff;color:#111}button.ja{background:#0b5d1e;color:#fff}\
button:focus,a:focus{outline:3px solid #b35c00;outline-offset:2px}.melding{padding:.5rem;\
border:2px solid #111}a{color:#0b3d91}dl.kern{display:grid;grid-template-columns:max-content 1fr;\
gap:.1rem .75rem;margin:.5rem 0}dl.kern dt{margin:0}dl.kern dd{margin:0}dl.kern ul{margin:0;\
padding-left:1.1rem}figure.agent{margin:1rem 0;border-left:4px dashed #8a8a8a;padding-left:.75rem}\
figure.agent figcaption{font-style:italic;color:#444}figure.agent blockquote{margin:.25rem 0;\
font-family:ui-monospace,monospace;white-space:pre-wrap}@media (max-width:30rem){h1{font-size:1.2rem}\
dl.kern{grid-template-columns:1fr}dl.kern dd{margin-bottom:.3rem}}";

/// The Content-Security-Policy of every page: nothing but the one style, forms only to itself,
/// and on a page with the decision form also to `forms_to` (the provider's origin): a decision
/// answers with a redirect to its login there, which `form-action` governs too.
pub(crate) fn content_security_policy(forms_to: Option<&str>) -> String {
    let hash = sha256_hex(STYLE.as_bytes());
    let bytes: Vec<u8> = (0..hash.len() / 2)
        .filter_map(|i| u8::from_str_radix(&hash[2 * i..2 * i + 2], 16).ok())
        .collect();
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    let also = forms_to
        .map(|origin| format!(" {origin}"))
        .unwrap_or_default();
    format!(
        "default-src 'none'; style-src 'sha256-{b64}'; form-action 'self'{also}; \
         frame-ancestors 'none'; base-uri 'none'"
    )
}

/// Text as HTML: escaped, with bidi controls and line/paragraph separators made visible
/// replacement characters, and other control characters dropped.
pub(crate) fn text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if common::render::is_bidi_or_separator(c) => out.push('\u{FFFD}'),
            '\n' | '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A whole page.
pub(crate) fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"nl\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} — overheid-mcp</title><style>{STYLE}</style></head>\
         <body><main>{body}</main></body></html>\n",
        title = text(title),
    )
}

/// A link to an article of law on wetten.overheid.nl, when `value` names one (`bwb_id` and
/// `artikel`, both of a safe form).
fn law_link(value: &Value) -> Option<String> {
    let bwb = value.get("bwb_id")?.as_str()?;
    let article = value.get("artikel")?.as_str()?;
    let safe = |s: &str, extra: &[u8]| {
        !s.is_empty()
            && s.len() <= 40
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || extra.contains(&b))
    };
    if !(safe(bwb, b"") && safe(article, b".:")) {
        return None;
    }
    let url = format!("https://wetten.overheid.nl/jci1.3:c:{bwb}&artikel={article}");
    Some(format!(
        "<a href=\"{}\">{} artikel {}</a>",
        text(&url),
        text(bwb),
        text(article)
    ))
}

/// Any JSON value as a definition list or text, escaped, bounded in depth; articles of law
/// become links.
pub(crate) fn value(value: &Value, depth: usize) -> String {
    if depth > 6 {
        return "…".to_string();
    }
    match value {
        Value::Null => "—".to_string(),
        Value::Bool(true) => "ja".to_string(),
        Value::Bool(false) => "nee".to_string(),
        Value::Number(n) => text(&n.to_string()),
        Value::String(s) => text(s),
        Value::Array(items) if items.is_empty() => "—".to_string(),
        Value::Array(items) => {
            let rows: String = items
                .iter()
                .map(|item| format!("<li>{}</li>", self::value(item, depth + 1)))
                .collect();
            format!("<ul>{rows}</ul>")
        }
        Value::Object(map) => {
            let link = law_link(value)
                .map(|l| format!("<p>{l}</p>"))
                .unwrap_or_default();
            let rows: String = map
                .iter()
                .map(|(k, v)| format!("<dt>{}</dt><dd>{}</dd>", text(k), self::value(v, depth + 1)))
                .collect();
            format!("{link}<dl>{rows}</dl>")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_is_escaped_and_bidi_controls_are_neutralised() {
        let hostile = "<script>alert('x')</script>&\u{202E}gnp.exe\u{2066}\u{2028}regel\u{7}";
        let shown = text(hostile);
        assert_eq!(
            shown,
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;\u{FFFD}gnp.exe\u{FFFD}\u{FFFD}regel"
        );
        let html = value(&json!({"<b>": ["\"q\"", 1, true, null]}), 0);
        assert!(
            !html.contains("<b>") && html.contains("&lt;b&gt;"),
            "{html}"
        );
    }

    #[test]
    fn articles_link_to_wetten_overheid_nl_and_bad_ones_do_not() {
        let html = value(&json!({"bwb_id": "BWBR0041330", "artikel": "5.15a"}), 0);
        assert!(
            html.contains(
                "href=\"https://wetten.overheid.nl/jci1.3:c:BWBR0041330&amp;artikel=5.15a\""
            ),
            "{html}"
        );
        let evil = value(&json!({"bwb_id": "x\" onclick=\"y", "artikel": "1"}), 0);
        assert!(!evil.contains("href"), "{evil}");
    }

    #[test]
    fn the_policy_allows_exactly_the_page_style() {
        let policy = content_security_policy(None);
        assert!(policy.starts_with("default-src 'none'; style-src 'sha256-"));
        assert!(policy.contains("form-action 'self';"), "{policy}");
        assert!(!policy.contains("unsafe"));
        let form = content_security_policy(Some("https://login.example.nl"));
        assert!(
            form.contains("form-action 'self' https://login.example.nl;"),
            "{form}"
        );
    }
}
