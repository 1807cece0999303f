//! miniclaw's domain areas, above `miniclaw-platform` (the services they run on) and below the
//! HTTP layer. One folder per SPEC area, each owning its tables: `tenancy` (A), `chat` (P),
//! `memory` (R and the X store), `cognition` (C and the X cycles), `onchain` (I), `channels`
//! (O), `analytics` (D), `social` (S). `runtime` is what a serving process adds to the services;
//! `cycles` lists every background cycle. Nothing here knows HTTP: failures are
//! `miniclaw_core::Error`, and `miniclaw-http` maps them.

pub mod analytics;
pub mod bundle;
pub mod channels;
pub mod chat;
pub mod cognition;
pub mod cycles;
pub mod memory;
pub mod onchain;
pub mod runtime;
pub mod social;
pub mod tenancy;
