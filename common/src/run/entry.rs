//! The program's entry point ([`entry!`](crate::entry!)): every tool's `main.rs` is its module
//! declarations and one `common::entry!`, which gives it a plain Rust `fn main() -> ExitCode`
//! (as coreutils' `bin!` and ripgrep's `main.rs` do).
//!
//! Rust's own start-up does what the family relies on before `main` runs: standard input,
//! output and error are open (a closed one is opened on `/dev/null`, so that no file the
//! program opens, such as the audit log or a cache entry, becomes its standard output), and
//! `SIGPIPE` is ignored (writing to a closed pipe is an error the printer handles: a closed
//! stdout counts as delivered). A child the program starts gets the default disposition back.
//! The process ends when `main` returns its exit status, after what is still buffered for
//! stdout is written.
//!
//! The family once started from C's `main` on glibc to skip the runtime's stack-overflow
//! set-up (it reads `/proc/self/maps`); that saved 0.04–0.05 ms of a call's 1.0–1.4 ms of CPU
//! and only in the glibc build, never in the static musl build users install, where the
//! runtime's `main` always ran (`bench/RESULTS.md`, issue 42 item 7), so it is gone.

/// Defines the program's `main`: run `$commands` of `$tool` with [`crate::run::app::main`] and
/// return its exit status. Also declares the static build's allocator ([`crate::allocator!`]:
/// jemalloc, or the one named after the tool), checks at compile time that the tool's commands
/// are the first word of their paths, and emits the profile's consistency tests into the tool's
/// binary.
#[macro_export]
macro_rules! entry {
    ($commands:ty, $tool:expr) => {
        $crate::entry!($commands, $tool, jemalloc);
    };
    ($commands:ty, $tool:expr, $allocator:ident) => {
        $crate::allocator!($allocator);

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

/// Declares the program's allocator in the static musl build: `jemalloc` or `dlmalloc` (why each:
/// `common::allocators`). A program declares it, not a feature of `common`, because cargo unifies
/// a crate's features across every program it builds at once. The glibc build keeps glibc's.
#[macro_export]
macro_rules! allocator {
    (jemalloc) => {
        #[cfg(target_env = "musl")]
        #[global_allocator]
        static ALLOCATOR: $crate::allocators::Jemalloc = $crate::allocators::Jemalloc;
    };
    (dlmalloc) => {
        #[cfg(target_env = "musl")]
        #[global_allocator]
        static ALLOCATOR: $crate::allocators::Dlmalloc = $crate::allocators::Dlmalloc;
    };
}
