//! What the fake saw: one received HTTP request, recorded before any reply is made.
//!
//! Tests read these records to prove that a call went out (or did not), with which
//! query parameters, and that secrets such as the `apikey` header only went where they should.

/// One request as received by a [`crate::FakeServer`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRequest {
    /// HTTP method in upper case (`GET`, `POST`, …).
    pub method: String,
    /// Percent-decoded path without the query string (`/test/api/v1/basisprofielen/68750110`).
    pub path: String,
    /// Query parameters in order of appearance, percent-decoded (`+` is a space); repeats kept.
    pub query: Vec<(String, String)>,
    /// The request target exactly as sent (path and query, still encoded).
    pub raw_url: String,
    /// Headers in order of appearance, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The request body (empty for a GET).
    pub body: Vec<u8>,
    /// The prefix under which a [`crate::Mounts`] router handed this request on (`/kvk`);
    /// `path` and `raw_url` are then relative to it. Empty in the server's own records.
    pub mount: String,
}

impl RecordedRequest {
    /// Builds a record from its parts, splitting and decoding `raw_url`.
    ///
    /// Header names are lower-cased here, so callers may pass them in any case.
    pub fn new(
        method: &str,
        raw_url: &str,
        headers: impl IntoIterator<Item = (String, String)>,
        body: Vec<u8>,
    ) -> Self {
        let (raw_path, raw_query) = raw_url.split_once('?').unwrap_or((raw_url, ""));
        let path = percent_encoding::percent_decode_str(raw_path)
            .decode_utf8_lossy()
            .into_owned();
        let query = form_urlencoded::parse(raw_query.as_bytes())
            .into_owned()
            .collect();
        let headers = headers
            .into_iter()
            .map(|(name, value)| (name.to_ascii_lowercase(), value))
            .collect();
        RecordedRequest {
            method: method.to_ascii_uppercase(),
            path,
            query,
            raw_url: raw_url.to_owned(),
            headers,
            body,
            mount: String::new(),
        }
    }

    /// A convenience for tests and routers: a GET without body.
    pub fn get(raw_url: &str, headers: &[(&str, &str)]) -> Self {
        let headers = headers
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()));
        RecordedRequest::new("GET", raw_url, headers, Vec::new())
    }

    /// The first value of header `name` (case-insensitive), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The first value of query parameter `name` (exact, case-sensitive), if sent.
    pub fn query_param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// Every value of a repeated query parameter `name`, in order.
    pub fn query_values(&self, name: &str) -> Vec<&str> {
        self.query
            .iter()
            .filter(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
            .collect()
    }

    /// The body as UTF-8 text (lossy).
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// `http://<host header><mount><prefix>`: the base URL a client used to reach this
    /// request, where `prefix` is the part of the path before `marker` (e.g. `/v1/`).
    ///
    /// Routers use it to write links that point back at the fake, as the real API's
    /// links point back at the real API.
    pub fn base_before(&self, marker: &str) -> String {
        let host = self.header("host").unwrap_or("127.0.0.1");
        let prefix = self
            .path
            .find(marker)
            .map_or("", |index| &self.path[..index]);
        format!("http://{host}{}{prefix}", self.mount)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_decodes_the_url() {
        let request = RecordedRequest::get(
            "/test/api/v2/zoeken?naam=Test+BV%20Donald&type=hoofdvestiging&type=rechtspersoon",
            &[("Host", "127.0.0.1:9"), ("ApiKey", "k")],
        );
        assert_eq!(request.path, "/test/api/v2/zoeken");
        assert_eq!(request.query_param("naam"), Some("Test BV Donald"));
        assert_eq!(
            request.query_values("type"),
            ["hoofdvestiging", "rechtspersoon"]
        );
        assert_eq!(request.query_param("Naam"), None);
        assert_eq!(request.header("APIKEY"), Some("k"));
        assert_eq!(request.headers[1].0, "apikey");
        assert_eq!(request.base_before("/v2/"), "http://127.0.0.1:9/test/api");
    }

    #[test]
    fn a_url_without_query_has_no_parameters() {
        let request = RecordedRequest::get("/a%20b", &[]);
        assert_eq!(request.path, "/a b");
        assert!(request.query.is_empty());
        assert_eq!(request.raw_url, "/a%20b");
    }
}
