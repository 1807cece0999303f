//! Access to an EVM chain through alloy (SPEC I1, I2): one JSON-RPC provider per process, the
//! chain it must be on, the ERC-8004 IdentityRegistry there, and what went wrong when a call
//! fails: a node that cannot be reached is worth trying again later (`Unreachable`); a node
//! that refuses (no funds, a revert, the wrong chain, no registry) is not.
//!
//! - `registry`: the `sol!` bindings of the registry and the checks made at start.
//! - `tx`: signing, broadcasting and the receipts of the transactions wallets send.

pub mod contracts;
pub mod registry;
pub mod tx;

use std::sync::OnceLock;

use alloy::primitives::{Address, U256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::transports::{RpcError, TransportError, TransportErrorKind};

use crate::config::ChainSettings;

/// Why a chain call failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ChainError {
    /// The node did not answer (down, timed out, overloaded): try again later.
    #[error("the chain node is unreachable: {0}")]
    Unreachable(String),
    /// The node refused the request (insufficient funds, a bad nonce, ...).
    #[error("the chain node refused: {0}")]
    Rejected(String),
    /// The call or transaction reverted, with the contract's reason when it gave one.
    #[error("the transaction reverted: {0}")]
    Reverted(String),
    /// The node is on another chain than `EVM_CHAIN_ID`.
    #[error(
        "EVM_RPC_URL serves chain {actual}, but EVM_CHAIN_ID is {expected}: point EVM_RPC_URL at a node of chain {expected} or correct EVM_CHAIN_ID"
    )]
    WrongChain { expected: u64, actual: u64 },
    /// The registry address holds no ERC-8004 IdentityRegistry.
    #[error("{0}")]
    NoRegistry(String),
}

impl ChainError {
    /// Whether trying again later may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, ChainError::Unreachable(_))
    }
}

impl From<TransportError> for ChainError {
    fn from(e: TransportError) -> Self {
        match &e {
            RpcError::ErrorResp(payload) => {
                let message = payload.message.to_string();
                let lower = message.to_ascii_lowercase();
                if let Some(data) = payload.as_revert_data() {
                    let reason =
                        alloy::sol_types::decode_revert_reason(&data).unwrap_or_else(|| format!("data {data}"));
                    return ChainError::Reverted(reason);
                }
                if lower.contains("revert") {
                    return ChainError::Reverted(message);
                }
                // Providers' rate limits and "try again" answers come as error responses too.
                if payload.code == -32005 || lower.contains("rate limit") || lower.contains("too many requests") {
                    return ChainError::Unreachable(message);
                }
                ChainError::Rejected(message)
            }
            RpcError::Transport(TransportErrorKind::HttpError(h)) if h.status == 429 || h.status >= 500 => {
                ChainError::Unreachable(format!("HTTP {}", h.status))
            }
            RpcError::Transport(kind) => ChainError::Unreachable(describe(kind)),
            RpcError::NullResp => ChainError::Unreachable("the node returned nothing".into()),
            other => ChainError::Rejected(short(&other.to_string())),
        }
    }
}

/// A transport error with its causes ("error sending request: … Connection refused"), each
/// cut to one line without the URL.
fn describe(error: &dyn std::error::Error) -> String {
    let mut parts = vec![short(&error.to_string())];
    let mut source = error.source();
    while let Some(e) = source {
        let text = short(&e.to_string());
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = e.source();
    }
    parts.join(": ")
}

/// One line of a transport error (reqwest's include the URL, which may carry an API key).
fn short(text: &str) -> String {
    let first = text.lines().next().unwrap_or(text);
    match first.find(" for url (") {
        Some(i) => first[..i].to_string(),
        None => first.chars().take(300).collect(),
    }
}

/// The process's connection to the chain: cheap to share (`Arc`).
pub struct Chain {
    provider: DynProvider,
    pub chain_id: u64,
    pub registry: Address,
    pub settings: ChainSettings,
    /// `getVersion()` of the registry once the start checks passed.
    verified: OnceLock<String>,
}

impl std::fmt::Debug for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Chain({}, registry {})", self.chain_id, self.registry)
    }
}

impl Chain {
    /// A provider for the configured node; no request is made yet.
    pub fn new(settings: &ChainSettings) -> anyhow::Result<Chain> {
        let url: reqwest::Url = settings.rpc_url.parse()?;
        let registry: Address = settings.registry.parse()?;
        let client = reqwest::Client::builder().timeout(settings.rpc_timeout).build()?;
        let provider = ProviderBuilder::new().disable_recommended_fillers().connect_reqwest(client, url).erased();
        Ok(Chain {
            provider,
            chain_id: settings.chain_id,
            registry,
            settings: settings.clone(),
            verified: OnceLock::new(),
        })
    }

    pub fn provider(&self) -> &DynProvider {
        &self.provider
    }

    /// `eip155:<chain id>:<registry>`, the registry's name in registration files.
    pub fn agent_registry(&self) -> String {
        registry::agent_registry(self.chain_id, self.registry)
    }

    /// The start checks, made once per process: the node is on `EVM_CHAIN_ID` and the registry
    /// address holds an IdentityRegistry. Returns its `getVersion()`.
    pub async fn verify(&self) -> Result<String, ChainError> {
        if let Some(v) = self.verified.get() {
            return Ok(v.clone());
        }
        let actual = self.provider.get_chain_id().await?;
        if actual != self.chain_id {
            return Err(ChainError::WrongChain { expected: self.chain_id, actual });
        }
        let version = registry::version(self).await?;
        let _ = self.verified.set(version.clone());
        Ok(version)
    }

    /// The native balance of `address`, in wei.
    pub async fn balance(&self, address: Address) -> Result<U256, ChainError> {
        Ok(self.provider.get_balance(address).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transport_errors_lose_their_url() {
        let text = "error sending request for url (https://rpc.example/v2/SECRETKEY): connection refused";
        assert_eq!(short(text), "error sending request");
    }

    #[test]
    fn a_transport_error_keeps_its_cause_and_loses_its_url() {
        #[derive(Debug)]
        struct Outer(std::io::Error);
        impl std::fmt::Display for Outer {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("error sending request for url (https://rpc.example/v2/SECRETKEY)")
            }
        }
        impl std::error::Error for Outer {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let e = Outer(std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "Connection refused"));
        assert_eq!(describe(&e), "error sending request: Connection refused");
    }

    #[test]
    fn an_unreachable_node_is_transient_and_a_refusal_is_not() {
        assert!(ChainError::Unreachable("down".into()).is_transient());
        assert!(!ChainError::Rejected("insufficient funds".into()).is_transient());
        assert!(!ChainError::WrongChain { expected: 8453, actual: 1 }.is_transient());
        let msg = ChainError::WrongChain { expected: 8453, actual: 1 }.to_string();
        assert!(msg.contains("EVM_CHAIN_ID is 8453") && msg.contains("chain 1"), "{msg}");
    }
}
