//! The start-up link of a family program, shared by the build scripts of the tools whose bench
//! shows it pays (as `#[path] mod startup_link`: a build script cannot depend on `common`): the functions a call
//! runs placed together (`startup.order`), and the relative relocations packed.
//!
//! Every call is a new process: the kernel maps the program's code in 64 KiB windows as it is
//! first run, and the dynamic loader relocates the program's pointers at every start. Both cost
//! time and resident memory at every call; `bench/startup.sh` measures them per tool.

/// Reads a variable cargo sets for build scripts (or one these functions document).
fn link_env(name: &str) -> Option<String> {
    #[allow(
        clippy::disallowed_methods,
        reason = "build scripts get their settings from cargo"
    )]
    std::env::var(name).ok()
}

/// Hands the linker `startup.order` of the package being built (when it has one) and packs the
/// relative relocations, where the linker is rust-lld (see [`links_with_rust_lld`]).
pub(crate) fn startup_link() {
    let rust_lld = links_with_rust_lld();
    // Read when the script runs, not when it was compiled: a build script built in another
    // checkout sharing the target directory must not read that checkout's files.
    let manifest_dir = link_env("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    link_startup_order(std::path::Path::new(&manifest_dir), rust_lld);
    pack_relative_relocations(rust_lld);
}

/// Places the functions of `startup.order` next to each other in a release binary.
///
/// Left to itself the linker spreads the code a call runs over some 50 to 70 of the 64 KiB
/// windows the kernel maps code in; in the order of `startup.order` (written by
/// `bench/startup-order.sh` from the instructions a set of calls ran) it takes 15 to 20. That
/// is fewer page faults, and less resident memory: a window of code once run stays mapped.
///
/// Only where the linker is rust-lld (Rust's default for x86-64 Linux since 1.90, where the
/// toolchain ships it), which knows `--symbol-ordering-file`: an older compiler (the workspace
/// builds from 1.89), a toolchain without rust-lld (some distributions build rustc so) or
/// another linker, chosen in `RUSTFLAGS` or cargo's configuration, gets nothing; GNU ld would
/// refuse the option. A name the build does not have is skipped, so a stale order costs speed,
/// never the build: names carry a hash of each crate's build settings, which another compiler,
/// another `Cargo.lock` or other features change (cargo unifies features across the packages
/// of one invocation, so the order is written for the tool built alone, as
/// `cargo install --locked` builds it; `bench/startup-order.sh --check` says how many names a
/// build has). `OVERHEID_LINK_MAP=FILE` (an absolute path) also writes the linker's map, which
/// the script reads.
fn link_startup_order(manifest_dir: &std::path::Path, rust_lld: bool) {
    let order = manifest_dir.join("startup.order");
    println!("cargo:rerun-if-changed={}", order.display());
    println!("cargo:rerun-if-env-changed=OVERHEID_LINK_MAP");
    if !rust_lld || link_env("PROFILE").as_deref() != Some("release") {
        return;
    }
    if order.is_file() && !order.to_string_lossy().contains(',') {
        println!(
            "cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={},--no-warn-symbol-ordering",
            order.display()
        );
    }
    if let Some(map) = link_env("OVERHEID_LINK_MAP") {
        if std::path::Path::new(&map).is_absolute() && !map.contains(',') {
            println!("cargo:rustc-link-arg-bins=-Wl,-Map={map},--no-demangle");
        } else {
            println!("cargo:warning=OVERHEID_LINK_MAP moet een absoluut pad zonder komma zijn");
        }
    }
}

/// Has the linker write the program's relative relocations packed (`DT_RELR`) rather than as
/// 24-byte `Elf64_Rela` records.
///
/// A position-independent program's pointers in its data (vtables, string tables, panic
/// locations, Unicode tables) are relocated by the dynamic loader at every start: some 12,000
/// of them. Packed, the table shrinks from about 300 KB, which the loader must read (about 10
/// page faults, and as many 4 KiB pages resident), to 7 KB, and the loader's loop is shorter.
/// The program stays position-independent; the pages the relocations write are the same.
///
/// Only glibc 2.36 and later understand `DT_RELR` (the program then needs
/// `GLIBC_ABI_DT_RELR`, so an older loader refuses it with a clear message instead of running
/// it unrelocated), hence only where the linker is rust-lld, the build is native and the
/// build machine's glibc is 2.36 or later: a program built on a machine runs on it. A build on
/// such a machine already needs glibc 2.35 (its `GLIBC_2.35` symbols), so the floor of a
/// binary carried elsewhere moves from 2.35 to 2.36. Debug and release builds alike, so that the
/// tests run the program as it is shipped (`OVERHEID_PACKED_RELOCATIONS` tells them).
fn pack_relative_relocations(rust_lld: bool) {
    let loader_knows_relr = if static_musl() {
        bundled_musl_knows_relr()
    } else {
        link_env("HOST") == link_env("TARGET") && glibc_knows_relr()
    };
    if rust_lld && loader_knows_relr {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
        println!("cargo:rustc-env=OVERHEID_PACKED_RELOCATIONS=1");
    }
}

/// Whether the musl a static build links is 1.2.4 or later, whose start-up code (`rcrt1.o`)
/// relocates a static program's packed relocations: an earlier one would leave them undone and
/// the program would crash at its first pointer. It is the compiler's own copy (a C library
/// chosen in the flags counts as another linker, see [`links_with_rust_lld`]), whose version
/// the compilers have shipped differently, so it is read from that copy: `libc.a` holds musl's
/// version as a string (`__libc_version`).
fn bundled_musl_knows_relr() -> bool {
    let rustc = link_env("RUSTC").unwrap_or_else(|| "rustc".into());
    let Some(sysroot) = std::process::Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
    else {
        return false;
    };
    let libc = std::path::Path::new(sysroot.trim())
        .join("lib/rustlib/x86_64-unknown-linux-musl/lib/self-contained/libc.a");
    let Ok(bytes) = std::fs::read(&libc) else {
        return false;
    };
    bytes.split(|&b| b == 0).any(|text| {
        let Some(patch) = text.strip_prefix(b"1.2.") else {
            return false;
        };
        std::str::from_utf8(patch)
            .ok()
            .and_then(|patch| patch.parse::<u32>().ok())
            .is_some_and(|patch| patch >= 4)
    })
}

/// Whether this machine's C library is glibc 2.36 or later (`getconf GNU_LIBC_VERSION`).
fn glibc_knows_relr() -> bool {
    std::process::Command::new("getconf")
        .arg("GNU_LIBC_VERSION")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| {
            let version = text.trim().strip_prefix("glibc ")?;
            let mut parts = version.split('.');
            let major: u32 = parts.next()?.parse().ok()?;
            let minor: u32 = parts.next()?.parse().ok()?;
            Some((major, minor) >= (2, 36))
        })
        .unwrap_or(false)
}

/// Whether this build links an x86-64 Linux program with rust-lld: the compiler's default from
/// 1.90, when rust-lld is in its sysroot and no other linker is chosen (`RUSTC_LINKER`, a linker
/// in `RUSTFLAGS` or cargo's configuration).
///
/// For the static musl build (`x86_64-unknown-linux-musl`, see [`static_musl`]) the compiler's
/// default linker is the C compiler's (GNU ld), which knows neither option; there the link is
/// handed to the same rust-lld, through the compiler driver's `-fuse-ld=lld` and the toolchain's
/// `gcc-ld` directory, as rustc does it itself for the glibc target.
fn links_with_rust_lld() -> bool {
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_LINKER");
    let own_linker = link_env("RUSTC_LINKER").is_some()
        || link_env("CARGO_ENCODED_RUSTFLAGS").is_some_and(|flags| flags.contains("link"));
    let target = link_env("TARGET");
    let musl = target.as_deref() == Some("x86_64-unknown-linux-musl");
    if own_linker || !(musl || target.as_deref() == Some("x86_64-unknown-linux-gnu")) {
        return false;
    }
    let rustc = link_env("RUSTC").unwrap_or_else(|| "rustc".into());
    let ask = |args: &[&str]| {
        std::process::Command::new(&rustc)
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .and_then(|out| String::from_utf8(out.stdout).ok())
    };
    let recent = ask(&["-vV"]).is_some_and(|version| {
        version
            .lines()
            .find_map(|line| line.strip_prefix("release: "))
            .and_then(|release| {
                let mut parts = release.split(['.', '-']);
                let major: u32 = parts.next()?.parse().ok()?;
                let minor: u32 = parts.next()?.parse().ok()?;
                Some((major, minor) >= (1, 90))
            })
            .unwrap_or(false)
    });
    // rust-lld and its `gcc-ld` wrappers are the host toolchain's (an x86-64 Linux host here).
    let gcc_ld = ask(&["--print", "sysroot"]).map(|sysroot| {
        std::path::Path::new(sysroot.trim()).join("lib/rustlib/x86_64-unknown-linux-gnu/bin/gcc-ld")
    });
    let Some(gcc_ld) = gcc_ld.filter(|dir| recent && dir.join("ld.lld").is_file()) else {
        return false;
    };
    if musl {
        let dir = gcc_ld.to_string_lossy();
        if dir.contains(',') || dir.contains(char::is_whitespace) {
            return false;
        }
        println!("cargo:rustc-link-arg-bins=-B{dir}");
        println!("cargo:rustc-link-arg-bins=-fuse-ld=lld");
    }
    true
}

/// Whether this is the static musl build (`dist/build.sh`): `x86_64-unknown-linux-musl`, which
/// links the C library into the program (`crt-static`, that target's default), so that no dynamic
/// loader runs. The bench's reason to ship the tools so: glibc's loader asks the processor about
/// its caches and features at every start (68 `cpuid` instructions, which a virtual machine
/// traps; see `bench/RESULTS.md`). Cargo leaves `crt-static` out of `CARGO_CFG_TARGET_FEATURE`,
/// so a build that turns it off is told by its flags.
fn static_musl() -> bool {
    link_env("CARGO_CFG_TARGET_ENV").as_deref() == Some("musl")
        && !link_env("CARGO_ENCODED_RUSTFLAGS").is_some_and(|flags| flags.contains("-crt-static"))
}
