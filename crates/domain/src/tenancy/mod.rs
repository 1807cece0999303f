//! Tenancy (SPEC A): owner accounts and tenants, hosted agents and their drafts, and
//! authentication — passwords, sessions, `mck_` keys and scopes, signatures, the connect flow —
//! and the team of members each tenant is.

pub mod accounts;
pub mod agents;
pub mod auth;
pub mod closing;
pub mod passwords;
pub mod signins;
pub mod suspension;
pub mod team;
pub mod totp;
pub mod verify;
