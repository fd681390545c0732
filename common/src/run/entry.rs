//! The process's entry point ([`entry!`](crate::entry!)): on Linux with glibc a family program
//! starts from C's `main`, and does itself the two things of Rust's start-up it relies on.
//!
//! Before a Rust `fn main` runs, the runtime also prepares the report of a stack overflow: it
//! reads `/proc/self/maps` (the kernel writes out every mapping of the process) to find the
//! main thread's stack, and maps an alternate signal stack with a guard page. That is 21
//! system calls and about 0.1 ms of every call on the development machine, a twentieth of a
//! small law's evaluation, and every CLI call is a new process. What the family keeps of it:
//! - standard input, output and error are open: one that is closed is opened on `/dev/null`,
//!   so that no file the program opens (the audit log, a cache entry) becomes its standard
//!   output;
//! - `SIGPIPE` is ignored, so that writing to a closed pipe is an error the printer handles
//!   (a closed stdout counts as delivered), not the end of the process. A child the program
//!   starts gets the default disposition back, as before.
//!
//! What is left out: a stack overflow ends the process with `SIGSEGV` rather than with the
//! runtime's one-line message and `SIGABRT`; either way it is a signal, not an exit code
//! (input is bounded so that none happens). The arguments are read as before: glibc hands them
//! to the runtime before `main` runs. Elsewhere the macro defines an ordinary `fn main`.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
use std::ffi::c_int;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
use crate::problem::exit::ExitStatus;

/// Defines the program's `main`: run `$commands` of `$tool` with [`crate::run::app::main`] and end with
/// its exit status. The crate root also needs
/// `#![cfg_attr(all(target_os = "linux", target_env = "gnu", not(any(test, rust_main))), no_main)]`.
///
/// `--cfg rust_main` (for a bench: `cargo rustc --release -p TOOL --bin TOOL -- --cfg
/// rust_main`, which keeps the names of `startup.order`) builds the ordinary Rust
/// `fn main` instead, to measure what the C entry saves (`bench/entry.sh`).
#[macro_export]
macro_rules! entry {
    ($commands:ty, $tool:expr) => {
        #[cfg(all(target_os = "linux", target_env = "gnu", not(any(test, rust_main))))]
        #[allow(
            unsafe_code,
            reason = "`no_mangle`: this is the program's C entry point, and no other symbol is `main`"
        )]
        #[unsafe(no_mangle)]
        extern "C" fn main(
            _argc: ::std::ffi::c_int,
            _argv: *const *const ::std::ffi::c_char,
        ) -> ::std::ffi::c_int {
            $crate::entry::run::<$commands>($tool)
        }

        #[cfg(not(all(target_os = "linux", target_env = "gnu", not(any(test, rust_main)))))]
        fn main() -> ::std::process::ExitCode {
            ::std::process::ExitCode::from($crate::main::<$commands>($tool).code())
        }

        // A tool's own commands are the first word of their paths.
        const _: () = assert!(
            <$commands as $crate::Commands>::LEVEL == 0,
            "a tool's commands must be the first word of their entries' paths"
        );

        /// The profile's consistency tests, for every tool that has an entry point: none can
        /// forget them (rule DISC-3).
        #[cfg(test)]
        mod profile_consistency {
            #[allow(unused_imports, reason = "the tool's paths are relative to its root")]
            use super::*;
            $crate::consistency_test!($commands, *$tool);
        }
    };
}

/// The program: [`prepare`], [`crate::run::app::main`], and the process ends with its status. A panic that
/// escapes `crate::run::app::main` (while it reports another) is exit 70 still: it may not unwind out of
/// a C function.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn run<C: crate::run::cli::Commands>(tool: &'static crate::call::tool::ToolInfo) -> ! {
    prepare();
    let status = std::panic::catch_unwind(|| crate::run::app::main::<C>(tool))
        .unwrap_or(ExitStatus::Software);
    finish(status)
}

/// Before anything else: the standard streams are open and `SIGPIPE` is ignored.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn prepare() {
    // In order: a closed one takes the lowest free number, which is its own.
    for fd in 0..=2 {
        if is_closed(fd) {
            open_dev_null(fd);
        }
    }
    ignore_sigpipe();
}

/// Whether descriptor `fd` is closed. A raw number, on purpose: a `BorrowedFd` (std's or
/// rustix's standard streams) promises an open descriptor, which is what is being asked.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(
    unsafe_code,
    reason = "fcntl(F_GETFD) on a descriptor number: no safe interface takes a closed one"
)]
fn is_closed(fd: c_int) -> bool {
    // SAFETY: F_GETFD only reads the descriptor's flags; it takes no pointer, and a closed
    // descriptor is the error EBADF.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    flags == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
}

/// Opens `/dev/null` as descriptor `fd`, the lowest closed one, inherited by the children the
/// program starts (as a standard stream is, and std's own start-up leaves it); the runtime
/// aborts when it cannot, and so does this.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn open_dev_null(fd: c_int) {
    use std::os::fd::IntoRawFd as _;
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .and_then(|file| {
            // std opens with O_CLOEXEC: a child's stream would be closed again.
            rustix::io::fcntl_setfd(&file, rustix::io::FdFlags::empty())?;
            Ok(file.into_raw_fd())
        });
    if opened.ok() != Some(fd) {
        std::process::abort();
    }
}

/// `SIGPIPE` ignored, as the Rust runtime leaves it.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(
    unsafe_code,
    reason = "no safe interface sets a signal's disposition; SIG_IGN installs no handler"
)]
fn ignore_sigpipe() {
    // SAFETY: SIG_IGN is no function to call, so no handler can run, and no other thread
    // exists yet to race with the change.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// After the command: the process ends with `status`, through `std::process::exit`, which
/// writes what is still buffered for stdout (and makes it unbuffered), as the runtime does after
/// a Rust `main`, and keeps glibc's `exit` from racing another thread's.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn finish(status: ExitStatus) -> ! {
    #[allow(
        clippy::exit,
        reason = "the entry point: this is how main ends the process"
    )]
    std::process::exit(c_int::from(status.code()))
}
