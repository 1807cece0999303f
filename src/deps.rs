//! The services domain code runs on, built once per process: the database pool, the model
//! gateway, the embedder and the clock. `serve`, `worker`, `run-cycle`, the HTTP handlers and
//! the jobs all hand this one bundle around; nothing assembles the services a second time.

use std::sync::Arc;

use anyhow::Context;
use chrono::{DateTime, Utc};
use sqlx::PgPool;

use crate::config::{Caps, Config};
use crate::embed::Embedder;
use crate::llm::Gateway;

#[derive(Clone)]
pub struct Deps {
    pub pool: PgPool,
    /// Every LLM call goes through it (budgets, routing, fallbacks, usage log).
    pub llm: Arc<Gateway>,
    /// Every stored and queried vector comes from it.
    pub embedder: Arc<dyn Embedder>,
    pub clock: Clock,
    /// What an agent may accumulate (soul versions kept, ...).
    pub caps: Caps,
}

impl Deps {
    pub fn new(pool: PgPool, llm: Arc<Gateway>, embedder: Arc<dyn Embedder>) -> Deps {
        Deps { pool, llm, embedder, clock: Clock::System, caps: Caps::default() }
    }

    /// The gateway and the embedder the configuration asks for (loading the embedding model).
    pub async fn from_config(pool: PgPool, config: &Config) -> anyhow::Result<Deps> {
        let llm = Arc::new(Gateway::new(pool.clone(), config).map_err(|e| anyhow::anyhow!("model gateway: {e}"))?);
        let embedder = crate::embed::from_config(config).await.context("loading the embedding model")?;
        Ok(Deps { caps: config.caps, ..Deps::new(pool, llm, embedder) })
    }

    pub fn with_clock(self, clock: Clock) -> Deps {
        Deps { clock, ..self }
    }

    pub fn embedder(&self) -> &dyn Embedder {
        self.embedder.as_ref()
    }
}

/// Where "now" comes from for rules computed in Rust (the database keeps its own `now()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    System,
    /// A fixed instant, for tests of time-dependent rules.
    Fixed(DateTime<Utc>),
}

impl Clock {
    pub fn now(&self) -> DateTime<Utc> {
        match self {
            Clock::System => Utc::now(),
            Clock::Fixed(t) => *t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_stands_still_and_the_system_clock_moves_on() {
        let t = DateTime::parse_from_rfc3339("2026-01-02T03:04:05Z").unwrap().with_timezone(&Utc);
        assert_eq!(Clock::Fixed(t).now(), t);
        let (a, b) = (Clock::System.now(), Clock::System.now());
        assert!(b >= a && a > t);
    }
}
