//! Links the unwinder into every program of the family instead of loading `libgcc_s.so.1`.
//!
//! On Linux with glibc, Rust's standard library unwinds panics with libgcc's unwinder and links
//! it as `-lgcc_s`, a shared library the dynamic loader then opens, maps and relocates at every
//! start, and whose constructor asks the processor its features (`cpuid`, which a virtual
//! machine traps). Every call is a new process, so that is paid every call: about 0.1 ms here,
//! a tenth of a small law's evaluation. The same unwinder ships as a static archive,
//! `libgcc_eh.a` (what Rust itself links with `crt-static`); a directory in which `libgcc_s.a`
//! names it comes first on the link's search path (cargo hands a dependency's search paths to
//! every program linked against it), so `-lgcc_s` finds the archive. Nothing else changes:
//! panics still unwind (`crash::guard` turns them into exit 70), and the binary is still
//! position independent.
//!
//! Only where the compiler driver knows that archive and the target is the host (a cross build
//! would find the host's); elsewhere the link is left as it is. `OVERHEID_SHARED_UNWINDER=1`
//! leaves it too, for a bench (`bench/entry.sh`) to measure what the static one saves.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // The commit a release is built from (`dist/release.sh` sets it), for `--version`.
    println!("cargo:rerun-if-env-changed=OVERHEID_COMMIT");
    println!("cargo:rerun-if-env-changed=OVERHEID_SHARED_UNWINDER");
    if build_env("OVERHEID_SHARED_UNWINDER").is_some_and(|v| v == "1") {
        return;
    }
    // The archive is looked for only for a Linux target built on its host, so on a Unix host.
    #[cfg(unix)]
    if let Some(archive) = static_unwinder() {
        let out_dir = PathBuf::from(build_env("OUT_DIR").expect("cargo sets OUT_DIR"));
        let dir = out_dir.join("static-unwinder");
        std::fs::create_dir_all(&dir).expect("create the unwinder's directory");
        let link = dir.join("libgcc_s.a");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&archive, &link).expect("name libgcc_eh.a libgcc_s.a");
        println!("cargo:rustc-link-search=native={}", dir.display());
    }
}

/// Reads a variable cargo sets for build scripts.
fn build_env(name: &str) -> Option<String> {
    #[allow(
        clippy::disallowed_methods,
        reason = "build scripts get their settings from cargo"
    )]
    std::env::var(name).ok()
}

/// The static archive of libgcc's unwinder, when this build links the shared one.
#[cfg(unix)]
fn static_unwinder() -> Option<PathBuf> {
    let linux_gnu = build_env("CARGO_CFG_TARGET_OS").as_deref() == Some("linux")
        && build_env("CARGO_CFG_TARGET_ENV").as_deref() == Some("gnu");
    let crt_static = build_env("CARGO_CFG_TARGET_FEATURE")
        .is_some_and(|features| features.split(',').any(|f| f == "crt-static"));
    if !linux_gnu || crt_static || build_env("HOST") != build_env("TARGET") {
        return None;
    }
    let driver = build_env("RUSTC_LINKER").unwrap_or_else(|| "cc".into());
    let out = Command::new(driver)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()
        .filter(|out| out.status.success())?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // A driver that does not know the file prints its bare name back.
    (path.is_absolute() && path.is_file()).then_some(path)
}
