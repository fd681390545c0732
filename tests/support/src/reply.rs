//! What the fake answers: a small builder for HTTP replies, including misbehaving ones.
//!
//! Besides ordinary JSON and text replies it builds the failures a client must survive:
//! a stall before the headers ([`Reply::delay`]), a stall in the middle of the body
//! ([`Reply::stall_mid_body`]), JSON cut short ([`Reply::truncated_json`]), an HTML error
//! page from a proxy ([`Reply::html_error`]) and redirects ([`Reply::redirect`]).

use std::time::Duration;

/// How the body leaves the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Delivery {
    /// Headers and body in one go.
    Whole,
    /// Headers and the first `bytes` of the body, then a pause, then the rest.
    StallAfter { bytes: usize, pause: Duration },
}

/// An HTTP reply of a fake route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
    pub(crate) delay: Option<Duration>,
    pub(crate) delivery: Delivery,
}

impl Reply {
    /// A reply with `status`, no headers and an empty body.
    pub fn new(status: u16) -> Self {
        Reply {
            status,
            headers: Vec::new(),
            body: Vec::new(),
            delay: None,
            delivery: Delivery::Whole,
        }
    }

    /// `status` with `value` serialised compactly as `application/json`.
    pub fn json(status: u16, value: &serde_json::Value) -> Self {
        Reply::new(status).json_body(value)
    }

    /// `status` with a `text/plain` body.
    pub fn text(status: u16, text: &str) -> Self {
        Reply::new(status)
            .header("content-type", "text/plain; charset=utf-8")
            .body(text.as_bytes().to_vec())
    }

    /// A `302 Found` to `location` (absolute or relative), with an empty body.
    pub fn redirect(location: &str) -> Self {
        Reply::new(302).header("location", location)
    }

    /// `200` with `value` serialised and cut off halfway: valid headers, a correct
    /// `Content-Length`, and a body that no JSON parser accepts.
    pub fn truncated_json(value: &serde_json::Value) -> Self {
        let mut body = value.to_string().into_bytes();
        body.truncate(body.len() / 2);
        Reply::new(200)
            .header("content-type", "application/json")
            .body(body)
    }

    /// The kind of HTML page a reverse proxy sends when the service behind it fails
    /// (`502 Bad Gateway`, `503 Service Unavailable`, …).
    pub fn html_error(status: u16) -> Self {
        let reason = tiny_http::StatusCode(status).default_reason_phrase();
        let page = format!(
            "<html>\r\n<head><title>{status} {reason}</title></head>\r\n<body>\r\n\
             <center><h1>{status} {reason}</h1></center>\r\n<hr><center>nginx</center>\r\n\
             </body>\r\n</html>\r\n"
        );
        Reply::new(status)
            .header("content-type", "text/html")
            .body(page.into_bytes())
    }

    /// Replaces the status code.
    pub fn status(mut self, status: u16) -> Self {
        self.status = status;
        self
    }

    /// Adds a header (a repeated name adds another line).
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Replaces the body with raw bytes (headers unchanged).
    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    /// Replaces the body with compact JSON and sets `content-type: application/json`.
    pub fn json_body(self, value: &serde_json::Value) -> Self {
        self.without_header("content-type")
            .header("content-type", "application/json")
            .body(value.to_string().into_bytes())
    }

    /// Sleeps `pause` before sending anything: a server that accepted the connection but stalls.
    pub fn delay(mut self, pause: Duration) -> Self {
        self.delay = Some(pause);
        self
    }

    /// Sends the status line, the headers (with the full `Content-Length`) and the first
    /// `bytes` of the body, then sleeps `pause` before sending the rest.
    pub fn stall_mid_body(mut self, bytes: usize, pause: Duration) -> Self {
        self.delivery = Delivery::StallAfter { bytes, pause };
        self
    }

    /// The status code.
    pub fn status_code(&self) -> u16 {
        self.status
    }

    /// The first value of header `name` (case-insensitive).
    pub fn header_value(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The body bytes.
    pub fn body_bytes(&self) -> &[u8] {
        &self.body
    }

    /// The body parsed as JSON, or `None` when it is not JSON.
    pub fn body_json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// The pause before the headers, if any.
    pub fn delay_before_headers(&self) -> Option<Duration> {
        self.delay
    }

    fn without_header(mut self, name: &str) -> Self {
        self.headers
            .retain(|(key, _)| !key.eq_ignore_ascii_case(name));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_reply_is_compact_with_content_type() {
        let reply = Reply::json(201, &json!({"a": [1, 2]}));
        assert_eq!(reply.status_code(), 201);
        assert_eq!(reply.body_bytes(), br#"{"a":[1,2]}"#);
        assert_eq!(reply.header_value("Content-Type"), Some("application/json"));
    }

    #[test]
    fn json_body_replaces_an_earlier_content_type() {
        let reply = Reply::text(200, "x").json_body(&json!(1));
        let types: Vec<_> = reply
            .headers
            .iter()
            .filter(|(key, _)| key == "content-type")
            .collect();
        assert_eq!(types.len(), 1);
        assert_eq!(reply.body_json(), Some(json!(1)));
    }

    #[test]
    fn truncated_json_does_not_parse() {
        let reply = Reply::truncated_json(&json!({"naam": "Test BV Donald", "n": [1, 2, 3]}));
        assert!(!reply.body_bytes().is_empty());
        assert_eq!(reply.body_json(), None);
    }

    #[test]
    fn html_error_page_names_the_status() {
        let reply = Reply::html_error(502);
        assert_eq!(reply.status_code(), 502);
        assert!(String::from_utf8_lossy(reply.body_bytes()).contains("502 Bad Gateway"));
        assert_eq!(reply.body_json(), None);
    }

    #[test]
    fn redirect_sets_location() {
        let reply = Reply::redirect("http://elders.invalid/x");
        assert_eq!(reply.status_code(), 302);
        assert_eq!(
            reply.header_value("location"),
            Some("http://elders.invalid/x")
        );
    }
}
