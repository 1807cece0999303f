//! The durable job queue (SPEC C6): every background cycle is a row in `jobs`.
//!
//! - `queue`: enqueue (in the caller's transaction), lease with `FOR UPDATE SKIP LOCKED`,
//!   complete, retry with backoff, dead-letter with the verbatim error.
//! - `schedule`: recurring cycles per agent or platform-wide, spread over their interval.
//! - `registry`: which cycles exist and the code that runs them.
//! - `worker`: the loop that leases and runs jobs, woken by LISTEN/NOTIFY with polling fallback.

pub mod fair;
pub mod forget;
pub mod queue;
pub mod registry;
pub mod schedule;
pub mod worker;

pub use queue::{Job, NewJob};
pub use registry::{Cycle, CycleScope, JobContext, Registry, Tier};

/// The LISTEN/NOTIFY channel that wakes workers when a job is enqueued.
pub const NOTIFY_CHANNEL: &str = "miniclaw_jobs";
