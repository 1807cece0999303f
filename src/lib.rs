//! miniclaw: a multi-tenant hosted platform for persistent AI agents.
//!
//! The crates are the layers (docs/ARCHITECTURE.md): `miniclaw-core` (ids, vocabularies, text,
//! actors, the clock, the domain error) under `miniclaw-platform` (the services) under
//! `miniclaw-domain` (the areas), with `miniclaw-offline` (the offline engine) and
//! `miniclaw-http` (the API and the dashboard) above, and this package on top: the `miniclaw`
//! binary, `doctor`, and the assembly of a process's services (`services`, `gateway`: the
//! model gateway gets the offline engine as its fallback here). This library also puts the
//! layers' modules under one name for the binary, the integration tests and the benchmarks.

pub use miniclaw_core::{actor, clock, ids, text, vocabulary};
pub use miniclaw_domain::*;
pub use miniclaw_http::{api, app, web};
pub use miniclaw_offline as offline;
pub use miniclaw_platform::*;

pub mod doctor;

/// A process's services as `config` asks for them, with the offline engine as the model
/// gateway's fallback.
pub async fn services(pool: sqlx::PgPool, config: &config::Config) -> anyhow::Result<deps::Deps> {
    deps::Deps::from_config(pool, config, offline::engine(), runtime::SQL).await
}

/// A model gateway as `config` asks for it, with the offline engine as its fallback.
pub fn gateway(pool: sqlx::PgPool, config: &config::Config) -> Result<llm::Gateway, String> {
    llm::Gateway::new(pool, config, offline::engine(), runtime::SQL)
}
