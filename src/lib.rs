//! miniclaw: a multi-tenant hosted platform for persistent AI agents.
//!
//! The crates are the layers (docs/ARCHITECTURE.md): `miniclaw-core` (ids, vocabularies, text,
//! actors, the clock, the domain error) under `miniclaw-domain` (the services and the domain
//! areas) under `miniclaw-http` (the API and the dashboard), with this package on top: the
//! `miniclaw` binary and `doctor`. This library puts the layers' modules under one name for the
//! binary, the integration tests and the benchmarks.

pub use miniclaw_core::{actor, clock, ids, text, vocabulary};
pub use miniclaw_domain::*;
pub use miniclaw_http::{api, app, web};

pub mod doctor;
