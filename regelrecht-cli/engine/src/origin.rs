//! Where a law file came from: compiled in, or read from disk; how errors and listings name it.

use std::path::PathBuf;

/// Where a law file came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Compiled into the binary, with its file name.
    Builtin(&'static str),
    /// Read from disk.
    File(PathBuf),
}

impl Origin {
    /// Display name (path, or `builtin:<name>`).
    pub fn display(&self) -> String {
        match self {
            Origin::Builtin(name) => format!("builtin:{name}"),
            Origin::File(path) => path.display().to_string(),
        }
    }
}
