//! The operator's policy: `/etc/overheid/beleid.toml`, which an agent running as the same user
//! as the tools cannot write (rule MUT-19).
//!
//! ```toml
//! [goedkeuring]
//! methode = "identiteit"                      # or "terminal": today's behaviour, said explicitly
//! issuer = "https://login.example.nl"         # the organisation's identity provider
//! client_id = "overheid-cli"                  # the CLIs' public client there (device login)
//! acr = "http://eidas.europa.eu/LoA/substantial"   # optional: the assurance a login must have
//! pagina = "https://mcp.example.nl/voorstellen"    # optional: the organisation's approval page
//! ```
//!
//! - **Trusted only when the operator wrote it**, as `sudo` treats `sudoers`: a regular file
//!   (not a link), owned by root and not writable by group or others, in a directory of root's
//!   that group and others cannot write. A file that is there but fails any of this, does not
//!   parse, or says something unknown is not ignored: every mutation is refused (exit 78,
//!   [`codes::BELEID_ONGELDIG`], naming the file and why), because ignoring it would loosen
//!   what the operator meant. Reading commands are unaffected.
//! - **Nothing loosens it**: no environment variable or argument names another file, and none
//!   of its values can be overridden. Without the file, a person alone on their machine keeps
//!   today's behaviour (the terminal is the boundary, and every answer says so).
//! - **Read only when needed**: by a mutation's gate and by the approval commands, once per
//!   process; a reading call never opens it.
//!
//! A test build (the `test-hooks` feature) may [`install`] another file and owner for the
//! whole process; only the test programs call it (never a tool's `main`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Deserialize;

use crate::problem::codes;
use crate::problem::error::Problem;
use crate::problem::exit::ExitStatus;

/// Where the operator's policy is.
pub const PATH: &str = "/etc/overheid/beleid.toml";

/// The largest policy file read.
const MAX_BYTES: u64 = 64 * 1024;

/// How approvals are given on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Policy {
    /// No policy file: a person at a terminal decides, and the terminal is the boundary.
    Absent,
    /// `methode = "terminal"`: the same, said explicitly by the operator.
    Terminal,
    /// `methode = "identiteit"`: only a person's fresh login at the identity provider approves.
    Identity(Identity),
}

/// The identity provider of [`Policy::Identity`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The provider's issuer (https, or http to loopback), without a trailing `/`.
    pub issuer: String,
    /// The CLIs' public client at the provider (device authorization, RFC 8628).
    pub client_id: String,
    /// The authentication context class a login must have (`acr`), when the operator asks one.
    pub acr: Option<String>,
    /// The organisation's approval page (`…/voorstellen`), named in answers instead of a
    /// terminal command.
    pub page: Option<String>,
}

impl Policy {
    /// The identity provider, when only a login approves.
    pub fn identity(&self) -> Option<&Identity> {
        match self {
            Policy::Identity(identity) => Some(identity),
            Policy::Absent | Policy::Terminal => None,
        }
    }
}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    goedkeuring: Option<Approval>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Approval {
    methode: String,
    issuer: Option<String>,
    client_id: Option<String>,
    acr: Option<String>,
    pagina: Option<String>,
}

/// Where the policy is read from and whose it must be: [`PATH`] and root, unless a test
/// program installed another.
struct Source {
    path: PathBuf,
    owner: u32,
}

static SOURCE: OnceLock<Source> = OnceLock::new();
static LOADED: OnceLock<Result<Policy, Problem>> = OnceLock::new();

/// For test programs only: read the policy from `path`, trusted when `owner` owns it. Must be
/// called before the policy is first read; a second call is ignored.
#[cfg(feature = "test-hooks")]
pub fn install(path: PathBuf, owner: u32) {
    let _ = SOURCE.set(Source { path, owner });
}

/// This machine's policy, read once per process. `Err`: the file is there but cannot be
/// trusted or read (exit 78, naming it); every mutation is then refused.
pub fn current() -> Result<&'static Policy, Problem> {
    LOADED
        .get_or_init(|| {
            let source = SOURCE.get_or_init(|| Source {
                path: PathBuf::from(PATH),
                owner: 0,
            });
            load(&source.path, source.owner)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The policy in `path`, which `owner` must own (root for [`PATH`]).
pub fn load(path: &Path, owner: u32) -> Result<Policy, Problem> {
    let refused = |why: String| {
        Problem::new(
            ExitStatus::Config,
            codes::BELEID_ONGELDIG,
            "Beleid niet te vertrouwen",
            format!(
                "het beleid {} {why}; elke wijziging wordt geweigerd tot de beheerder het herstelt",
                path.display()
            ),
        )
        .with_hint(format!(
            "de beheerder maakt {} eigendom van root, alleen door root te schrijven (chmod 644), met geldige inhoud",
            path.display()
        ))
    };
    let mut file = match open_no_follow(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Policy::Absent),
        Err(error) => return Err(refused(format!("kan niet worden geopend: {error}"))),
    };
    let meta = file
        .metadata()
        .map_err(|e| refused(format!("kan niet worden gelezen: {e}")))?;
    trusted(&meta, owner).map_err(|why| refused(why.to_string()))?;
    if let Some(dir) = path.parent() {
        let meta = std::fs::metadata(dir)
            .map_err(|e| refused(format!("staat in een map die niet te lezen is: {e}")))?;
        trusted(&meta, owner).map_err(|why| refused(format!("staat in een map die {why}")))?;
    }
    if meta.len() > MAX_BYTES {
        return Err(refused(format!("is groter dan {MAX_BYTES} bytes")));
    }
    let mut text = String::new();
    file.read_to_string(&mut text)
        .map_err(|e| refused(format!("kan niet worden gelezen: {e}")))?;
    parse(&text).map_err(refused)
}

/// The policy a file's text says.
fn parse(text: &str) -> Result<Policy, String> {
    let file: File = toml::from_str(text).map_err(|e| format!("is geen geldig beleid: {e}"))?;
    let Some(approval) = file.goedkeuring else {
        return Ok(Policy::Terminal);
    };
    match approval.methode.as_str() {
        "terminal" => Ok(Policy::Terminal),
        "identiteit" => {
            let issuer = approval
                .issuer
                .map(|i| i.trim().trim_end_matches('/').to_string())
                .filter(|i| !i.is_empty())
                .ok_or("noemt geen issuer bij methode \"identiteit\"")?;
            crate::net::http::check_url(&issuer)
                .map_err(|p| format!("noemt een issuer die niet kan: {}", p.detail))?;
            let client_id = approval
                .client_id
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .ok_or("noemt geen client_id bij methode \"identiteit\"")?;
            let page = match approval.pagina {
                Some(page) => {
                    let page = page.trim().trim_end_matches('/').to_string();
                    crate::net::http::check_url(&page)
                        .map_err(|p| format!("noemt een pagina die niet kan: {}", p.detail))?;
                    Some(page)
                }
                None => None,
            };
            Ok(Policy::Identity(Identity {
                issuer,
                client_id,
                acr: approval
                    .acr
                    .map(|a| a.trim().to_string())
                    .filter(|a| !a.is_empty()),
                page,
            }))
        }
        other => Err(format!(
            "noemt een onbekende methode {other:?} (\"identiteit\" of \"terminal\")"
        )),
    }
}

/// Whether a file or directory with this metadata is the operator's: owned by `owner`, not
/// writable by group or others, and (a file) a regular file.
#[cfg(unix)]
fn trusted(meta: &std::fs::Metadata, owner: u32) -> Result<(), &'static str> {
    use std::os::unix::fs::MetadataExt;
    if !meta.is_file() && !meta.is_dir() {
        return Err("geen gewoon bestand is");
    }
    if meta.uid() != owner {
        return Err("niet van root is");
    }
    if meta.mode() & 0o022 != 0 {
        return Err("door groep of anderen te beschrijven is");
    }
    Ok(())
}

#[cfg(not(unix))]
fn trusted(_meta: &std::fs::Metadata, _owner: u32) -> Result<(), &'static str> {
    Err("alleen op Unix kan worden vertrouwd")
}

/// Opens `path` without following a final symbolic link (a link is not the operator's file).
#[cfg(unix)]
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn me() -> u32 {
        rustix::process::geteuid().as_raw()
    }

    fn policy_file(text: &str, mode: u32) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = dir.path().join("beleid.toml");
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        (dir, path)
    }

    const IDENTITY: &str = "[goedkeuring]\nmethode = \"identiteit\"\nissuer = \"https://login.example.nl/\"\nclient_id = \"overheid-cli\"\nacr = \"substantieel\"\n";

    #[test]
    fn no_file_is_todays_behaviour() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            load(&dir.path().join("beleid.toml"), me()).ok(),
            Some(Policy::Absent)
        );
    }

    #[test]
    fn an_identity_policy_names_its_provider() {
        let (_dir, path) = policy_file(IDENTITY, 0o644);
        let policy = load(&path, me()).unwrap();
        let identity = policy.identity().unwrap();
        assert_eq!(identity.issuer, "https://login.example.nl");
        assert_eq!(identity.client_id, "overheid-cli");
        assert_eq!(identity.acr.as_deref(), Some("substantieel"));
        assert_eq!(identity.page, None);
    }

    #[test]
    fn a_file_others_can_write_or_someone_elses_is_refused() {
        let (_dir, path) = policy_file(IDENTITY, 0o664);
        let refused = load(&path, me()).unwrap_err();
        assert_eq!(refused.code, codes::BELEID_ONGELDIG);
        assert_eq!(refused.exit, ExitStatus::Config);
        assert!(
            refused.detail.contains(&path.display().to_string()),
            "{}",
            refused.detail
        );
        let (_dir, path) = policy_file(IDENTITY, 0o644);
        let refused = load(&path, me().wrapping_add(1)).unwrap_err();
        assert!(
            refused.detail.contains("niet van root"),
            "{}",
            refused.detail
        );
    }

    #[test]
    fn a_directory_others_can_write_is_refused() {
        let (dir, path) = policy_file(IDENTITY, 0o644);
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        let refused = load(&path, me()).unwrap_err();
        assert!(refused.detail.contains("map"), "{}", refused.detail);
    }

    #[test]
    fn a_link_is_not_the_operators_file() {
        let (dir, path) = policy_file(IDENTITY, 0o644);
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert_eq!(load(&link, me()).unwrap_err().code, codes::BELEID_ONGELDIG);
    }

    #[test]
    fn what_it_does_not_know_is_refused_not_ignored() {
        for text in [
            "[goedkeuring]\nmethode = \"identiteit\"\nclient_id = \"x\"\n",
            "[goedkeuring]\nmethode = \"identiteit\"\nissuer = \"http://login.example.nl\"\nclient_id = \"x\"\n",
            "[goedkeuring]\nmethode = \"soms\"\n",
            "[goedkeuring]\nmethode = \"terminal\"\nmag_confirm = true\n",
            "[goedkeuring\n",
        ] {
            let (_dir, path) = policy_file(text, 0o644);
            assert_eq!(
                load(&path, me()).unwrap_err().code,
                codes::BELEID_ONGELDIG,
                "{text}"
            );
        }
        let (_dir, path) = policy_file("[goedkeuring]\nmethode = \"terminal\"\n", 0o644);
        assert_eq!(load(&path, me()).ok(), Some(Policy::Terminal));
    }
}
