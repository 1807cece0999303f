//! Reads from a streaming replica (`DATABASE_READ_URL`).
//!
//! Requests that tolerate a little staleness (lists, analytics) read from the replica while it
//! keeps up; everything else, and every write, goes to the primary. Three rules decide, from a
//! watch both databases are polled for (no round trip on the request's path):
//!
//! - **Bounded staleness.** Every tick samples the primary's WAL position (stamped with the time
//!   the question was sent) and then the replica's replay position. The replica has everything
//!   the primary had at the newest sample at or below its replay position; when that sample is
//!   older than `MINICLAW_READ_MAX_LAG_MS`, reads go to the primary.
//! - **Read your writes.** A caller that wrote at time `w` reads from the replica only once the
//!   replica has replayed a primary position sampled after `w` (plus a margin for clocks of
//!   other hosts). The write time comes from this process's memory of the caller's credential,
//!   or from the caller itself (the `mc_wrote` cookie, the `Miniclaw-Wrote-At` header) when
//!   another process took the write.
//! - **Fallback.** A replica that does not answer, is not in recovery (a promoted standby or a
//!   misconfigured URL) or fails a read is not read until the next tick finds it well; the
//!   failed read is repeated on the primary.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use sqlx::PgPool;

/// What a caller's write time from another host may be off by.
const CLOCK_MARGIN: Duration = Duration::from_millis(100);
/// Primary samples kept at most (the tick is at least 50 ms, the lag at most ten minutes).
const MAX_SAMPLES: usize = 4096;

/// Where one read went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Replica,
    Primary,
}

impl Target {
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Replica => "replica",
            Target::Primary => "primary",
        }
    }
}

/// The replica, the watch over it and the recent writers.
pub struct Replica {
    pool: PgPool,
    max_lag: Duration,
    watch: Mutex<Watch>,
    /// When each recent writer (a credential's digest) last wrote through this process.
    writers: Mutex<HashMap<u64, SystemTime>>,
}

#[derive(Default)]
struct Watch {
    /// The primary's WAL position and when it was asked for, oldest first.
    primary: VecDeque<(SystemTime, u64)>,
    /// The replica's replay position and when it was read; `None` while it is unusable.
    replayed: Option<(u64, Instant)>,
    /// Why the replica is unusable, said once per change.
    problem: Option<String>,
}

impl Replica {
    /// `pool` connects to the replica (lazily: a replica that is down at start is simply not
    /// read until it answers).
    pub fn new(pool: PgPool, max_lag: Duration) -> Replica {
        Replica { pool, max_lag, watch: Mutex::new(Watch::default()), writers: Mutex::new(HashMap::new()) }
    }

    pub fn max_lag(&self) -> Duration {
        self.max_lag
    }

    /// How often the watch polls: a quarter of the lag bound, between 50 ms and a second.
    pub fn tick(&self) -> Duration {
        (self.max_lag / 4).clamp(Duration::from_millis(50), Duration::from_secs(1))
    }

    /// Polls the primary and the replica every tick, for the life of the process.
    pub fn watch(self: std::sync::Arc<Self>, primary: PgPool) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            let mut every = tokio::time::interval(self.tick());
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                self.poll(&primary).await;
            }
        })
    }

    /// One tick: the primary's position first, then the replica's, so a replica that keeps up
    /// is seen to have the sample just taken.
    pub async fn poll(&self, primary: &PgPool) {
        let bound = self.tick().max(Duration::from_millis(500));
        let asked = SystemTime::now();
        let at_primary = tokio::time::timeout(bound, position(primary, "SELECT pg_current_wal_lsn()::text")).await;
        // Without the primary's position nothing new can be said of the replica's lag; the
        // older samples still bound it.
        if let Ok(Ok(Some(lsn))) = at_primary {
            let mut w = self.watch.lock().unwrap();
            w.primary.push_back((asked, lsn));
            let keep = asked.checked_sub(self.max_lag * 2 + Duration::from_secs(1)).unwrap_or(UNIX_EPOCH);
            // Keep one sample older than the window: it may be the one the replica has.
            while w.primary.len() > MAX_SAMPLES || (w.primary.len() > 1 && w.primary[1].0 < keep) {
                w.primary.pop_front();
            }
        }
        let at_replica =
            tokio::time::timeout(bound, position(&self.pool, "SELECT pg_last_wal_replay_lsn()::text")).await;
        match at_replica {
            Ok(Ok(Some(lsn))) => {
                let mut w = self.watch.lock().unwrap();
                w.replayed = Some((lsn, Instant::now()));
                if w.problem.take().is_some() {
                    tracing::info!("the read replica answers again");
                }
            }
            Ok(Ok(None)) => {
                self.unusable("the read replica is not a standby (not in recovery): reads go to the primary")
            }
            Ok(Err(e)) => self.unusable(&format!("the read replica failed ({e}): reads go to the primary")),
            Err(_) => self.unusable("the read replica did not answer in time: reads go to the primary"),
        }
        let forget = SystemTime::now().checked_sub(self.max_lag + CLOCK_MARGIN).unwrap_or(UNIX_EPOCH);
        self.writers.lock().unwrap().retain(|_, at| *at > forget);
    }

    /// Stops reading the replica until the next tick finds it well.
    pub fn unusable(&self, why: &str) {
        let mut w = self.watch.lock().unwrap();
        w.replayed = None;
        if w.problem.as_deref() != Some(why) {
            tracing::warn!("{why}");
            w.problem = Some(why.to_string());
        }
    }

    /// The time up to which the replica has everything the primary had, if it is usable.
    pub fn caught_up_to(&self) -> Option<SystemTime> {
        let w = self.watch.lock().unwrap();
        let (replayed, read_at) = w.replayed?;
        // A replay position read longer ago than the bound says nothing about now.
        if read_at.elapsed() > self.max_lag {
            return None;
        }
        w.primary.iter().rev().find(|(_, lsn)| *lsn <= replayed).map(|(at, _)| *at)
    }

    /// Where a read that tolerates `max_lag` of staleness goes, for a caller that last wrote at
    /// `wrote` (if known).
    pub fn route(&self, wrote: Option<SystemTime>) -> Target {
        let Some(caught_up) = self.caught_up_to() else { return Target::Primary };
        let fresh = SystemTime::now().duration_since(caught_up).unwrap_or_default() <= self.max_lag;
        let sees_write = wrote.is_none_or(|w| caught_up >= w + CLOCK_MARGIN);
        if fresh && sees_write { Target::Replica } else { Target::Primary }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Remembers that `writer` (a credential's digest) wrote just now.
    pub fn note_write(&self, writer: u64, at: SystemTime) {
        self.writers.lock().unwrap().insert(writer, at);
    }

    /// When `writer` last wrote through this process, within the window that matters.
    pub fn last_write(&self, writer: u64) -> Option<SystemTime> {
        self.writers.lock().unwrap().get(&writer).copied()
    }
}

/// A WAL position as a number (`None` when the server has none: a replay position asked of a
/// server that is not in recovery).
async fn position(pool: &PgPool, sql: &str) -> Result<Option<u64>, sqlx::Error> {
    let text: Option<String> = sqlx::query_scalar(sql).fetch_one(pool).await?;
    Ok(text.as_deref().and_then(parse_lsn))
}

/// `16/B374D848` → the 64-bit position.
pub fn parse_lsn(text: &str) -> Option<u64> {
    let (hi, lo) = text.split_once('/')?;
    Some((u64::from_str_radix(hi, 16).ok()? << 32) | u64::from_str_radix(lo, 16).ok()?)
}

/// Milliseconds since the epoch, the form write times travel in.
pub fn epoch_millis(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

pub fn from_epoch_millis(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replica(max_lag_ms: u64) -> Replica {
        let pool = sqlx::postgres::PgPoolOptions::new().connect_lazy("postgres://127.0.0.1:1/none").unwrap();
        Replica::new(pool, Duration::from_millis(max_lag_ms))
    }

    fn sample(r: &Replica, ago_ms: u64, lsn: u64) {
        let at = SystemTime::now() - Duration::from_millis(ago_ms);
        r.watch.lock().unwrap().primary.push_back((at, lsn));
    }

    fn replayed(r: &Replica, lsn: u64) {
        r.watch.lock().unwrap().replayed = Some((lsn, Instant::now()));
    }

    #[test]
    fn positions_parse_as_postgres_prints_them() {
        assert_eq!(parse_lsn("0/0"), Some(0));
        assert_eq!(parse_lsn("16/B374D848"), Some((0x16 << 32) | 0xB374_D848));
        assert_eq!(parse_lsn("nonsense"), None);
        assert_eq!(parse_lsn("1/zz"), None);
    }

    #[tokio::test]
    async fn a_replica_that_keeps_up_is_read_and_one_that_trails_is_not() {
        let r = replica(1000);
        assert_eq!(r.route(None), Target::Primary, "nothing known yet");
        sample(&r, 3000, 10);
        sample(&r, 1500, 20);
        sample(&r, 200, 30);
        replayed(&r, 30);
        assert_eq!(r.route(None), Target::Replica);
        // It has the primary as of 1.5 s ago: past the 1 s bound.
        replayed(&r, 25);
        assert_eq!(r.route(None), Target::Primary);
        // Behind every sample kept: its lag is unknown, so it is not read.
        replayed(&r, 5);
        assert_eq!(r.route(None), Target::Primary);
    }

    #[tokio::test]
    async fn a_writer_reads_the_replica_only_once_it_has_the_write() {
        let r = replica(5000);
        sample(&r, 2000, 10);
        sample(&r, 100, 20);
        replayed(&r, 10);
        let wrote = SystemTime::now() - Duration::from_millis(1000);
        assert_eq!(r.route(None), Target::Replica, "2 s behind is within 5 s");
        assert_eq!(r.route(Some(wrote)), Target::Primary, "the write came after what the replica has");
        replayed(&r, 20);
        assert_eq!(r.route(Some(wrote)), Target::Replica);
        let just_now = SystemTime::now();
        assert_eq!(r.route(Some(just_now)), Target::Primary, "no sample is newer than the write yet");
    }

    #[tokio::test]
    async fn an_unusable_replica_is_not_read_and_writers_are_forgotten_after_the_window() {
        let r = replica(1000);
        sample(&r, 10, 10);
        replayed(&r, 10);
        assert_eq!(r.route(None), Target::Replica);
        r.unusable("down");
        assert_eq!(r.route(None), Target::Primary);
        r.note_write(7, SystemTime::now() - Duration::from_secs(5));
        r.note_write(8, SystemTime::now());
        assert!(r.last_write(7).is_some());
        // A poll that reaches neither database still forgets writes too old to matter.
        let primary = sqlx::postgres::PgPoolOptions::new()
            .acquire_timeout(Duration::from_millis(100))
            .connect_lazy("postgres://127.0.0.1:1/none")
            .unwrap();
        r.poll(&primary).await;
        assert!(r.last_write(7).is_none());
        assert!(r.last_write(8).is_some());
        assert_eq!(r.route(None), Target::Primary);
    }
}
