//! The economy's contracts (SPEC I5, I8), compiled in the repository by `contracts/build.mjs`:
//! `AgentToken` (an agent's ERC-20) and `ServiceEscrow` (native value held for A2A orders).
//! The creation bytecode comes from the committed artifacts; the calls from `sol!` bindings of
//! the same interfaces.

use std::sync::LazyLock;

use alloy::primitives::{Address, B256, Bytes, U256};
use alloy::rpc::types::Log;
use alloy::sol;
use alloy::sol_types::{SolCall, SolEvent, SolValue};

sol! {
    /// The ERC-20 interface of `contracts/AgentToken.sol`.
    interface AgentToken {
        event Transfer(address indexed from, address indexed to, uint256 value);

        function transfer(address to, uint256 value) external returns (bool);
        function balanceOf(address owner) external view returns (uint256);
        function totalSupply() external view returns (uint256);
    }

    /// `contracts/ServiceEscrow.sol`.
    interface ServiceEscrow {
        event Funded(bytes32 indexed id, address indexed buyer, address indexed seller, uint256 amount, uint64 deadline);
        event Released(bytes32 indexed id, address indexed by, uint256 amount);
        event Refunded(bytes32 indexed id, address indexed by, uint256 amount);

        function fund(bytes32 id, address seller, address arbiter, uint64 deadline) external payable;
        function release(bytes32 id) external;
        function refund(bytes32 id) external;
    }
}

fn bytecode(artifact: &str) -> Bytes {
    let v: serde_json::Value = serde_json::from_str(artifact).expect("a committed contract artifact is JSON");
    v["bytecode"].as_str().and_then(|b| b.parse().ok()).expect("a committed contract artifact has its bytecode")
}

static TOKEN_CODE: LazyLock<Bytes> =
    LazyLock::new(|| bytecode(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../contracts/AgentToken.json"))));
static ESCROW_CODE: LazyLock<Bytes> = LazyLock::new(|| {
    bytecode(include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../contracts/ServiceEscrow.json")))
});

/// The deployment input of an agent token: the creation code and the constructor's arguments.
pub fn token_deployment(name: &str, symbol: &str, decimals: u8, supply: U256) -> Bytes {
    let mut code = TOKEN_CODE.to_vec();
    code.extend((name.to_string(), symbol.to_string(), U256::from(decimals), supply).abi_encode_params());
    code.into()
}

/// The deployment input of the escrow contract (it takes no arguments).
pub fn escrow_deployment() -> Bytes {
    ESCROW_CODE.clone()
}

pub fn token_transfer(to: Address, value: U256) -> Bytes {
    AgentToken::transferCall { to, value }.abi_encode().into()
}

pub fn escrow_fund(id: B256, seller: Address, arbiter: Address, deadline: u64) -> Bytes {
    ServiceEscrow::fundCall { id, seller, arbiter, deadline }.abi_encode().into()
}

pub fn escrow_release(id: B256) -> Bytes {
    ServiceEscrow::releaseCall { id }.abi_encode().into()
}

pub fn escrow_refund(id: B256) -> Bytes {
    ServiceEscrow::refundCall { id }.abi_encode().into()
}

/// The escrow id of a platform order: its UUID, left-aligned in 32 bytes.
pub fn order_key(order: uuid::Uuid) -> B256 {
    let mut b = [0u8; 32];
    b[..16].copy_from_slice(order.as_bytes());
    B256::from(b)
}

/// A decoded `Transfer` event of a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenTransfer {
    pub from: Address,
    pub to: Address,
    pub value: U256,
    pub block_number: u64,
    pub log_index: u64,
    pub tx_hash: B256,
}

/// The `Transfer` topic, to filter logs by.
pub fn transfer_topic() -> B256 {
    AgentToken::Transfer::SIGNATURE_HASH
}

/// A log as a token transfer, if it is one (a log without its block position is pending: none).
pub fn decode_transfer(log: &Log) -> Option<TokenTransfer> {
    let e = AgentToken::Transfer::decode_log(&log.inner).ok()?;
    Some(TokenTransfer {
        from: e.from,
        to: e.to,
        value: e.value,
        block_number: log.block_number?,
        log_index: log.log_index?,
        tx_hash: log.transaction_hash?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_artifacts_hold_creation_code_and_arguments_follow_it() {
        assert!(TOKEN_CODE.len() > 500 && ESCROW_CODE.len() > 500);
        let input = token_deployment("Ada", "ADA", 18, U256::from(1_000u64));
        assert!(input.starts_with(&TOKEN_CODE));
        assert_eq!((input.len() - TOKEN_CODE.len()) % 32, 0, "ABI-encoded arguments are whole words");
        let key = order_key(uuid::Uuid::from_u128(7));
        assert_eq!(&key[..16], uuid::Uuid::from_u128(7).as_bytes());
        assert_eq!(&key[16..], &[0u8; 16]);
    }
}
