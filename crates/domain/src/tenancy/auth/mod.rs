//! Who is calling: owners (password or wallet, session JWT + refresh), agent-scoped `mck_`
//! API keys, and the self-service connect flow that lets a miniapp get a key by signature.

pub mod account_keys;
pub mod cache;
pub mod challenge;
pub mod connect;
pub mod end_user;
pub mod keys;
pub mod password;
pub mod principal;
pub mod scopes;
pub mod session;
pub mod signature;

pub use principal::{Actor, AgentScope, Owner};
pub use scopes::Scope;
