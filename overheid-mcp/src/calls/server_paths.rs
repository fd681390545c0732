//! The server's own paths never reach a client: every absolute path of the machine the bridge
//! runs on (its home, the data, store, cache and audit locations it hands its CLIs, the CLIs'
//! directories, its working and temporary directories) is replaced by [`PLACEHOLDER`] in what
//! a CLI says, before the bridge reads it.
//!
//! The CLIs name such paths on purpose (rvo-cli's provenance says where its local store is, an
//! unwritable audit log is named in the error): to the person at the terminal they are that
//! person's own files and the way to fix the problem. To an MCP client they are another
//! machine's layout, which it cannot use and should not learn. So the CLIs keep saying them and
//! the bridge scrubs them at its one boundary with the children, the bytes of a child's stdout
//! and stderr ([`crate::calls::call::run`], which every tool call, resource read and completion goes
//! through), rather than every CLI knowing whether a person or a bridge reads it.
//!
//! Only paths the bridge knows are scrubbed, never text that merely looks like a path (a URL's
//! path, an article number "5.15/2"): a known directory followed by the rest of its path, up to
//! the next space, quote, bracket, comma, colon or semicolon.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// What a server path becomes.
pub(crate) const PLACEHOLDER: &str = "[pad op de server]";

/// The server's paths, longest first (so `/srv/data` wins over `/srv`).
#[derive(Debug, Default)]
pub(crate) struct ServerPaths {
    prefixes: Vec<Vec<u8>>,
}

impl ServerPaths {
    /// The paths in `vars` (a value that is an absolute path, or a `:` list holding some, such as
    /// `HOME`, `RVO_DATA_DIR`, `OVERHEID_AUDIT_LOG`, `XDG_DATA_DIRS`), the directories of
    /// `programs`, and `dirs` (the bridge's own: where it runs from, works in, keeps temporary
    /// files), each also as the file system resolves it.
    pub(crate) fn new<'a>(
        vars: &[(OsString, OsString)],
        programs: impl Iterator<Item = &'a Path>,
        dirs: impl Iterator<Item = PathBuf>,
    ) -> Self {
        let mut paths: Vec<PathBuf> = Vec::new();
        for (_, value) in vars {
            paths.extend(absolute_parts(value.as_bytes()));
        }
        for program in programs {
            let program = std::fs::canonicalize(program).unwrap_or_else(|_| program.into());
            paths.extend(program.parent().map(Path::to_path_buf));
            paths.push(program);
        }
        paths.extend(dirs);
        let resolved: Vec<PathBuf> = paths
            .iter()
            .filter_map(|path| std::fs::canonicalize(path).ok())
            .collect();
        paths.extend(resolved);
        let mut prefixes: Vec<Vec<u8>> = paths
            .iter()
            .map(|path| trimmed(path.as_os_str().as_bytes()).to_vec())
            .filter(|path| path.len() > 1 && path[0] == b'/')
            .collect();
        // A path with a quote or a backslash stands escaped in JSON text.
        let escaped: Vec<Vec<u8>> = prefixes
            .iter()
            .filter_map(|path| {
                let text = std::str::from_utf8(path).ok()?;
                let json = serde_json::to_string(text).ok()?;
                let inner = &json.as_bytes()[1..json.len() - 1];
                (inner != path.as_slice()).then(|| inner.to_vec())
            })
            .collect();
        prefixes.extend(escaped);
        prefixes.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        prefixes.dedup();
        Self { prefixes }
    }

    /// `text` with every server path replaced; the same bytes when it holds none.
    pub(crate) fn scrub(&self, text: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len());
        let mut at = 0;
        while at < text.len() {
            if text[at] == b'/'
                && (at == 0 || !is_path_byte(text[at - 1]))
                && let Some(length) = self.match_at(&text[at..])
            {
                out.extend_from_slice(PLACEHOLDER.as_bytes());
                at += length;
                continue;
            }
            out.push(text[at]);
            at += 1;
        }
        out
    }

    /// [`ServerPaths::scrub`] of a text.
    pub(crate) fn scrub_text(&self, text: &str) -> String {
        String::from_utf8_lossy(&self.scrub(text.as_bytes())).into_owned()
    }

    /// The length of the server path that `text` starts with (a known prefix ending at a path
    /// boundary, and the rest of the path after it), if any.
    fn match_at(&self, text: &[u8]) -> Option<usize> {
        let prefix = self.prefixes.iter().find(|prefix| {
            text.starts_with(prefix)
                && text
                    .get(prefix.len())
                    .is_none_or(|next| *next == b'/' || ends_path(*next))
        })?;
        let rest = text[prefix.len()..]
            .iter()
            .position(|byte| ends_path(*byte))
            .unwrap_or(text.len() - prefix.len());
        Some(prefix.len() + rest)
    }
}

/// The absolute paths in a variable's value: the value itself, or the members of a `:` list
/// (`XDG_DATA_DIRS`, `sqlite:///srv/records.db`), never a URL's host part (`//host/…`).
fn absolute_parts(value: &[u8]) -> Vec<PathBuf> {
    value
        .split(|byte| *byte == b':')
        .filter(|part| {
            (part.first() == Some(&b'/') && !part.starts_with(b"//")) || part.starts_with(b"///")
        })
        .map(|part| {
            let start = part
                .iter()
                .position(|byte| *byte != b'/')
                .unwrap_or(part.len());
            let mut path = b"/".to_vec();
            path.extend_from_slice(&part[start..]);
            PathBuf::from(std::ffi::OsStr::from_bytes(&path))
        })
        .collect()
}

/// A path without its trailing slashes.
fn trimmed(path: &[u8]) -> &[u8] {
    let end = path
        .iter()
        .rposition(|byte| *byte != b'/')
        .map_or(1, |at| at + 1);
    &path[..end.min(path.len())]
}

/// Whether a byte continues a word or a path on its left (so a `/` after it is not a path's start:
/// `https://host/tmp/x`, `a/b`).
fn is_path_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"/._-~%+@".contains(&byte) || byte >= 0x80
}

/// Whether a byte ends a path in running text or JSON.
fn ends_path(byte: u8) -> bool {
    byte.is_ascii_whitespace() || b"\"'`()[]{}<>,;:|\\".contains(&byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(vars: &[(&str, &str)], programs: &[&str]) -> ServerPaths {
        let vars: Vec<(OsString, OsString)> = vars
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect();
        ServerPaths::new(&vars, programs.iter().map(Path::new), std::iter::empty())
    }

    #[test]
    fn a_known_directory_and_the_rest_of_its_path_become_the_placeholder() {
        let server = paths(
            &[("HOME", "/home/op"), ("RVO_DATA_DIR", "/srv/rvo/data/")],
            &["/opt/overheid/bin/rvo-cli"],
        );
        let text = br#"{"opslag":"/srv/rvo/data","detail":"geen rapportage (lokale opslag /srv/rvo/data/records.sqlite): zie /home/op/.cache/x, /opt/overheid/bin/rvo-cli kon niet"}"#;
        assert_eq!(
            String::from_utf8(server.scrub(text)).unwrap(),
            r#"{"opslag":"[pad op de server]","detail":"geen rapportage (lokale opslag [pad op de server]): zie [pad op de server], [pad op de server] kon niet"}"#
        );
    }

    #[test]
    fn text_that_only_looks_like_a_server_path_stays() {
        let server = paths(&[("HOME", "/home/op"), ("TMPDIR", "/tmp")], &[]);
        for kept in [
            "https://example.nl/tmp/x",
            "/tmpx/y",
            "/home/operator",
            "artikel 5.15/tmp",
            "/home",
            "~/home/op",
        ] {
            assert_eq!(server.scrub_text(kept), kept);
        }
        assert_eq!(server.scrub_text("'/tmp'"), "'[pad op de server]'");
        assert_eq!(server.scrub_text("/tmp"), PLACEHOLDER);
    }

    #[test]
    fn lists_and_store_urls_give_their_paths_but_no_hosts_or_root() {
        let server = paths(
            &[
                ("XDG_DATA_DIRS", "/usr/local/share:/usr/share"),
                ("OVERHEID_STORE_URL", "sqlite:///var/lib/records.db"),
                ("KVK_API_BASE", "https://api.kvk.nl/api"),
                ("PWD", "/"),
            ],
            &[],
        );
        assert_eq!(
            server.scrub_text("/usr/share/x /var/lib/records.db"),
            "[pad op de server] [pad op de server]"
        );
        assert_eq!(
            server.scrub_text("/api.kvk.nl/api /etc"),
            "/api.kvk.nl/api /etc"
        );
    }

    #[test]
    fn a_path_with_a_quote_is_found_in_its_json_form() {
        let server = paths(&[("RVO_DATA_DIR", "/srv/\"rvo\"")], &[]);
        let json = serde_json::to_string(&serde_json::json!({"opslag": "/srv/\"rvo\"/x"})).unwrap();
        assert_eq!(
            server.scrub_text(&json),
            r#"{"opslag":"[pad op de server]"}"#
        );
    }
}
