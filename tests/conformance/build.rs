//! `--version` of profile-check: its version and, in a release build (`dist/release.sh` builds
//! with `OVERHEID_COMMIT`), the commit it was built from, as the family's programs say it.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=OVERHEID_COMMIT");
    #[allow(
        clippy::disallowed_methods,
        reason = "build scripts get their settings from cargo"
    )]
    let version = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    #[allow(
        clippy::disallowed_methods,
        reason = "build scripts get their settings from cargo"
    )]
    let shown = match std::env::var("OVERHEID_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
    {
        Some(commit) => format!("{version} (commit {commit})"),
        None => version,
    };
    println!("cargo:rustc-env=PROFILE_CHECK_VERSION={shown}");
}
