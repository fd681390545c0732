//! Trusted directories and files, as OpenSSH's `StrictModes` (rule CACHE-6): what the family
//! reads back from disk as its own (the response cache, prepared forms) is used only when it
//! belongs to the user running the program and nobody else can write it. A directory must be
//! owned by the effective user and not writable by group or others, and so must its parent unless
//! that belongs to root or the user and is either unwritable by others or sticky (`/tmp`), so that
//! nobody else can put another directory in its place. A file must be a regular file owned by the
//! effective user and not writable by group or others. Each check gives the reason, in Dutch, for
//! the warning the caller prints before going on without the cache.

use std::fs::Metadata;
use std::path::Path;

/// Whether `dir` (followed if it is a link) is a directory this user may trust; else why not.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !meta.is_dir() {
        return Err(format!("{} is geen map", dir.display()));
    }
    owned_and_closed(&meta).map_err(|why| format!("map {}: {why}", dir.display()))?;
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty())
        && let Ok(meta) = std::fs::metadata(parent)
    {
        parent_closed(&meta)
            .map_err(|why| format!("bovenliggende map {}: {why}", parent.display()))?;
    }
    Ok(())
}

/// Whether the file with this metadata (taken from the open file) may be trusted; else why not.
pub fn check_file(meta: &Metadata) -> Result<(), &'static str> {
    if !meta.is_file() {
        return Err("geen gewoon bestand");
    }
    owned_and_closed(meta)
}

#[cfg(unix)]
fn owned_and_closed(meta: &Metadata) -> Result<(), &'static str> {
    use std::os::unix::fs::MetadataExt;
    if meta.uid() != rustix::process::geteuid().as_raw() {
        return Err("van een andere gebruiker");
    }
    if meta.mode() & 0o022 != 0 {
        return Err("groep of anderen kunnen erin schrijven (chmod go-w)");
    }
    Ok(())
}

#[cfg(unix)]
fn parent_closed(meta: &Metadata) -> Result<(), &'static str> {
    use std::os::unix::fs::MetadataExt;
    if meta.uid() != 0 && meta.uid() != rustix::process::geteuid().as_raw() {
        return Err("van een andere gebruiker");
    }
    if meta.mode() & 0o022 != 0 && meta.mode() & 0o1000 == 0 {
        return Err("groep of anderen kunnen erin schrijven zonder sticky bit (chmod go-w)");
    }
    Ok(())
}

#[cfg(not(unix))]
fn owned_and_closed(_meta: &Metadata) -> Result<(), &'static str> {
    Ok(())
}

#[cfg(not(unix))]
fn parent_closed(_meta: &Metadata) -> Result<(), &'static str> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(path: &Path, mode: u32) {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn a_directory_others_can_write_is_not_trusted() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("cache");
        fs::create_dir(&dir).unwrap();
        chmod(&dir, 0o700);
        assert_eq!(check_dir(&dir), Ok(()));
        chmod(&dir, 0o755);
        assert_eq!(
            check_dir(&dir),
            Ok(()),
            "readable by others is not the question"
        );
        for mode in [0o770, 0o702, 0o777] {
            chmod(&dir, mode);
            let why = check_dir(&dir).unwrap_err();
            assert!(why.contains("chmod go-w"), "{mode:o}: {why}");
        }
        chmod(&dir, 0o700);
        chmod(root.path(), 0o777);
        let why = check_dir(&dir).unwrap_err();
        assert!(why.contains("bovenliggende map"), "{why}");
        chmod(root.path(), 0o1777);
        assert_eq!(check_dir(&dir), Ok(()), "a sticky parent, as /tmp");
        chmod(root.path(), 0o700);
        let file = dir.join("f");
        fs::write(&file, "x").unwrap();
        assert!(check_dir(&file).unwrap_err().contains("geen map"));
    }

    #[test]
    fn a_file_others_can_write_is_not_trusted() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("f");
        fs::write(&file, "x").unwrap();
        chmod(&file, 0o644);
        assert_eq!(check_file(&fs::metadata(&file).unwrap()), Ok(()));
        chmod(&file, 0o620);
        assert!(check_file(&fs::metadata(&file).unwrap()).is_err());
        assert!(check_file(&fs::metadata(root.path()).unwrap()).is_err());
    }
}
