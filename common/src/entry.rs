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

use std::ffi::c_int;
use std::io::Write as _;

use crate::exit::ExitStatus;

/// Defines the program's `main`: run `$commands` of `$tool` with [`crate::main`] and end with
/// its exit status. The crate root also needs
/// `#![cfg_attr(all(target_os = "linux", target_env = "gnu", not(test)), no_main)]`.
#[macro_export]
macro_rules! entry {
    ($commands:ty, $tool:expr) => {
        #[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
        #[allow(
            unsafe_code,
            reason = "`no_mangle`: this is the program's C entry point, and no other symbol is `main`"
        )]
        #[unsafe(no_mangle)]
        extern "C" fn main(
            _argc: ::std::ffi::c_int,
            _argv: *const *const ::std::ffi::c_char,
        ) -> ::std::ffi::c_int {
            $crate::entry::prepare();
            $crate::entry::finish($crate::main::<$commands>($tool))
        }

        #[cfg(not(all(target_os = "linux", target_env = "gnu", not(test))))]
        fn main() -> ::std::process::ExitCode {
            ::std::process::ExitCode::from($crate::main::<$commands>($tool).code())
        }
    };
}

/// Before anything else: the standard streams are open and `SIGPIPE` is ignored.
pub fn prepare() {
    use rustix::io::{Errno, fcntl_getfd};
    use rustix::stdio::{stderr, stdin, stdout};
    // In order: a closed one takes the lowest free number, which is its own.
    for (fd, stream) in [(0, stdin()), (1, stdout()), (2, stderr())] {
        if fcntl_getfd(stream) == Err(Errno::BADF) {
            open_dev_null(fd);
        }
    }
    ignore_sigpipe();
}

/// `SIGPIPE` ignored, as the Rust runtime leaves it.
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

/// After the command: what is still buffered for stdout is written, and the status becomes
/// the process's exit code.
pub fn finish(status: ExitStatus) -> c_int {
    // Already written by the printer; a pipe closed meanwhile changes nothing now.
    let _ = std::io::stdout().flush();
    c_int::from(status.code())
}

/// Opens `/dev/null` as descriptor `fd`, the lowest closed one; the runtime aborts when it
/// cannot, and so does this.
fn open_dev_null(fd: c_int) {
    use std::os::fd::IntoRawFd as _;
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .map(std::fs::File::into_raw_fd);
    if opened.ok() != Some(fd) {
        std::process::abort();
    }
}
