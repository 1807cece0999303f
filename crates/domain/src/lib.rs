//! miniclaw's services and domain areas, below the HTTP layer and above `miniclaw-core`.
//!
//! The services the areas run on: `config`, `db`, `jobs` (the durable queue), `llm` (the model
//! gateway and, in `llm::offline`, the offline engine), `embed`, `chain`, `email`, `secrets`,
//! `telemetry`, `deps` (the bundle of them) and `runtime` (what a serving process adds). The
//! areas, by SPEC section: tenancy (`accounts`, `agents`, `auth`, `activity`), chat (`chat`),
//! memory (`memory`), cognition (`cognition`, `soul`, `proactive`, `wisdom`), on-chain
//! (`identity`, `wallets`, `economy`, `credits`, `poc`, `verification`), channels (`outreach`,
//! `notifications`, `telegram`), analytics (`analytics`), social (`feed`, `skills`). Nothing
//! here knows HTTP: failures are `miniclaw_core::Error`, and `miniclaw-http` maps them.

pub mod accounts;
pub mod activity;
pub mod agents;
pub mod analytics;
pub mod auth;
pub mod chain;
pub mod chat;
pub mod cognition;
pub mod config;
pub mod credits;
pub mod db;
pub mod deps;
pub mod economy;
pub mod email;
pub mod embed;
pub mod feed;
pub mod identity;
pub mod jobs;
pub mod llm;
pub mod memory;
pub mod notifications;
pub mod outreach;
pub mod poc;
pub mod proactive;
pub mod runtime;
pub mod secrets;
pub mod skills;
pub mod soul;
pub mod telegram;
pub mod telemetry;
pub mod verification;
pub mod wallets;
pub mod wisdom;
