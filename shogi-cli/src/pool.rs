//! The worker threads of a command.

use crate::ctx::Failure;

/// A rayon pool of `threads` workers (0: one per core).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::usage(format!("error: cannot start {threads} threads: {e}")))
}

/// The pool of a batch command's `--jobs` (default: one worker per core; 0 is refused).
pub fn jobs_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, Failure> {
    match jobs {
        Some(0) => Err(Failure::usage("error: --jobs must be at least 1")),
        Some(n) => thread_pool(n),
        None => thread_pool(0),
    }
}
