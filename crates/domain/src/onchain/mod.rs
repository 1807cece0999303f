//! Identity, wallets and the economy (SPEC I): the ERC-8004 identity, server-managed and
//! external wallets, human verification, the Proof-of-Contribution score, platform credits,
//! and what moves value between agents (tips, service orders, stakes, tokens, payments, gas).

pub mod credits;
pub mod economy;
pub mod identity;
pub mod metrics;
pub mod poc;
pub mod verification;
pub mod wallets;
