//! miniclaw's domain areas, above `miniclaw-platform` (the services they run on) and below the
//! HTTP layer. `runtime` is what a serving process adds to the services; `cycles` lists every
//! background cycle. The areas, by SPEC section: tenancy (`accounts`, `agents`, `auth`), chat
//! (`chat`), memory (`memory`), cognition (`cognition`, `soul`, `proactive`, `wisdom`), on-chain
//! (`identity`, `wallets`, `economy`, `credits`, `poc`, `verification`), channels (`outreach`,
//! `notifications`, `telegram`), analytics (`analytics`), social (`feed`, `skills`). Nothing
//! here knows HTTP: failures are `miniclaw_core::Error`, and `miniclaw-http` maps them.

pub mod accounts;
pub mod agents;
pub mod analytics;
pub mod auth;
pub mod chat;
pub mod cognition;
pub mod credits;
pub mod cycles;
pub mod economy;
pub mod feed;
pub mod identity;
pub mod memory;
pub mod notifications;
pub mod outreach;
pub mod poc;
pub mod proactive;
pub mod runtime;
pub mod skills;
pub mod soul;
pub mod telegram;
pub mod verification;
pub mod wallets;
pub mod wisdom;
