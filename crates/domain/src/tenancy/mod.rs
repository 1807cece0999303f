//! Tenancy (SPEC A): owner accounts and tenants, hosted agents and their drafts, and
//! authentication — passwords, sessions, `mck_` keys and scopes, signatures, the connect flow.

pub mod accounts;
pub mod agents;
pub mod auth;
pub mod passwords;
pub mod suspension;
pub mod verify;
