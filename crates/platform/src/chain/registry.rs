//! The ERC-8004 IdentityRegistry as miniclaw uses it: `register(string)`, `setAgentURI`,
//! `tokenURI`/`ownerOf`, `getVersion`, and the `Registered` event that names the new agentId.

use alloy::primitives::{Address, Bytes, U256};
use alloy::providers::Provider;
use alloy::rpc::types::{TransactionReceipt, TransactionRequest};
use alloy::sol;
use alloy::sol_types::{SolCall, SolEvent};

use super::{Chain, ChainError};

sol! {
    /// The part of the ERC-8004 v2.0.0 IdentityRegistry interface miniclaw calls.
    interface IdentityRegistry {
        event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
        event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);

        function register(string agentURI) external returns (uint256 agentId);
        function setAgentURI(uint256 agentId, string newURI) external;
        function tokenURI(uint256 tokenId) external view returns (string);
        function ownerOf(uint256 tokenId) external view returns (address);
        function getVersion() external pure returns (string);
    }
}

/// `eip155:<chain id>:<address>` (the address checksummed).
pub fn agent_registry(chain_id: u64, registry: Address) -> String {
    format!("eip155:{chain_id}:{}", registry.to_checksum(None))
}

/// Calldata of `register(agentURI)`.
pub fn register_call(agent_uri: &str) -> Bytes {
    IdentityRegistry::registerCall { agentURI: agent_uri.to_string() }.abi_encode().into()
}

/// Calldata of `setAgentURI(agentId, newURI)`.
pub fn set_agent_uri_call(agent_id: U256, uri: &str) -> Bytes {
    IdentityRegistry::setAgentURICall { agentId: agent_id, newURI: uri.to_string() }.abi_encode().into()
}

/// Runs a view call on the registry.
async fn view<C: SolCall>(chain: &Chain, call: C) -> Result<C::Return, ChainError> {
    let req = TransactionRequest::default().to(chain.registry).input(call.abi_encode().into());
    let out = chain.provider().call(req).await?;
    C::abi_decode_returns(&out).map_err(|e| ChainError::Rejected(format!("unexpected answer from the registry: {e}")))
}

/// `getVersion()`, or `NoRegistry` naming the address when nothing there answers like a registry.
pub async fn version(chain: &Chain) -> Result<String, ChainError> {
    let no_registry = |why: &str| {
        ChainError::NoRegistry(format!(
            "ERC8004_REGISTRY_ADDRESS {} on chain {} is not an ERC-8004 IdentityRegistry ({why}): set the address of the registry deployed on this chain",
            chain.registry, chain.chain_id
        ))
    };
    let code = chain.provider().get_code_at(chain.registry).await?;
    if code.is_empty() {
        return Err(no_registry("no contract at this address"));
    }
    match view(chain, IdentityRegistry::getVersionCall {}).await {
        Ok(v) => Ok(v),
        Err(ChainError::Reverted(r)) => Err(no_registry(&format!("getVersion() reverted: {r}"))),
        Err(ChainError::Rejected(r)) => Err(no_registry(&format!("getVersion() failed: {r}"))),
        Err(e) => Err(e),
    }
}

/// The agent URI the registry holds for `agent_id`.
pub async fn token_uri(chain: &Chain, agent_id: U256) -> Result<String, ChainError> {
    view(chain, IdentityRegistry::tokenURICall { tokenId: agent_id }).await
}

/// The owner of `agent_id`'s identity token.
pub async fn owner_of(chain: &Chain, agent_id: U256) -> Result<Address, ChainError> {
    view(chain, IdentityRegistry::ownerOfCall { tokenId: agent_id }).await
}

/// The agentId and owner a `Registered` event of `registry` in `receipt` names.
pub fn registered(receipt: &TransactionReceipt, registry: Address) -> Option<(U256, Address)> {
    receipt
        .inner
        .logs()
        .iter()
        .filter(|l| l.address() == registry)
        .find_map(|l| IdentityRegistry::Registered::decode_log(&l.inner).ok().map(|e| (e.data.agentId, e.data.owner)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_is_named_by_chain_and_checksummed_address() {
        let a: Address = "0x8004a169fb4a3325136eb29fa0ceb6d2e539a432".parse().unwrap();
        assert_eq!(agent_registry(8453, a), "eip155:8453:0x8004A169FB4a3325136EB29fA0ceB6D2e539a432");
    }

    #[test]
    fn calldata_starts_with_the_selectors_of_the_standard() {
        // keccak256("register(string)")[..4] and keccak256("setAgentURI(uint256,string)")[..4].
        assert_eq!(IdentityRegistry::registerCall::SELECTOR, alloy::primitives::keccak256("register(string)")[..4]);
        assert_eq!(
            IdentityRegistry::setAgentURICall::SELECTOR,
            alloy::primitives::keccak256("setAgentURI(uint256,string)")[..4]
        );
        assert_eq!(
            IdentityRegistry::Registered::SIGNATURE_HASH,
            alloy::primitives::keccak256("Registered(uint256,string,address)")
        );
        assert_eq!(&register_call("https://x")[..4], &IdentityRegistry::registerCall::SELECTOR[..]);
    }
}
