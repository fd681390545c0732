//! Bounds on loading law files from disk: file size, number of files, directory depth, nesting,
//! and the deadline ([`Limits`]), and the errors that say which was passed.

use crate::error::{LoadError, LoadErrorKind};
use crate::origin::Origin;
use std::time::Instant;

/// Bounds on loading law files from disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest law file, in bytes.
    pub max_file_bytes: u64,
    /// Most law files read from disk, over all directories: a bound on the work, not on the
    /// corpus (the default admits the whole upstream corpus, some 25,000 files, four times over).
    pub max_files: usize,
    /// Deepest directory below a corpus directory.
    pub max_dir_depth: usize,
    /// Deepest nesting of YAML flow collections (`[`, `{`); the YAML parser is quadratic in it.
    pub max_flow_depth: usize,
    /// When loading (and parsing) must stop.
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_file_bytes: 1024 * 1024,
            max_files: DEFAULT_MAX_FILES,
            max_dir_depth: 16,
            max_flow_depth: 64,
            deadline: None,
        }
    }
}

/// The default bound on the number of law files ([`Limits::max_files`]).
pub const DEFAULT_MAX_FILES: usize = 100_000;

impl Limits {
    pub(crate) fn too_many_files(&self, origin: &Origin) -> LoadError {
        LoadError {
            kind: LoadErrorKind::TooManyFiles(self.max_files),
            ..LoadError::new(
                origin,
                None,
                format!(
                    "meer dan {} wetbestanden (de ingestelde grens)",
                    self.max_files
                ),
            )
        }
    }

    /// Whether the deadline has passed.
    pub(crate) fn past_deadline(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
    }

    pub(crate) fn check_deadline(&self, origin: &Origin) -> Result<(), LoadError> {
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Err(LoadError::deadline(origin)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 41 item 2: the default admits the whole upstream corpus (about 25,000 law files)
    /// with room to grow; the CLI's default is this one (`REGELRECHT_MAX_WETBESTANDEN` unset).
    #[test]
    fn the_default_bound_admits_the_whole_upstream_corpus() {
        assert!(Limits::default().max_files >= 100_000);
        assert_eq!(Limits::default().max_files, DEFAULT_MAX_FILES);
    }
}
