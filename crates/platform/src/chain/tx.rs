//! Transactions a server-managed wallet sends, in three steps a crash can fall between:
//! `sign` (nonce, fees and gas from the node; signed in memory), then the caller records the
//! signed transaction, then `broadcast` and `receipt`. Broadcasting the same signed bytes again
//! is harmless (same hash, same nonce: at most one of them is ever mined), which is what makes
//! a retry after a crash safe.

use std::time::{Duration, Instant};

use alloy::consensus::{SignableTransaction, Transaction as _, TxEip1559, TxEnvelope};
use alloy::eips::eip2718::Encodable2718;
use alloy::network::{TransactionResponse as _, TxSignerSync};
use alloy::primitives::{Address, B256, Bytes, TxKind, U256};
use alloy::providers::Provider;
use alloy::rpc::types::{TransactionReceipt, TransactionRequest};
use alloy::signers::local::PrivateKeySigner;

use super::{Chain, ChainError};

/// A signed transaction, ready to record and broadcast.
#[derive(Debug, Clone)]
pub struct Signed {
    pub hash: B256,
    pub raw: Vec<u8>,
    pub nonce: u64,
    pub from: Address,
    /// The most it can cost its sender: its value and all its gas at the highest fee it allows.
    pub max_cost_wei: U256,
}

/// What a call asks the chain to do: call `to` (or, `TxKind::Create`, deploy the code in `input`).
#[derive(Debug, Clone)]
pub struct Call {
    pub to: TxKind,
    pub value: U256,
    pub input: Bytes,
}

impl Call {
    /// The contract called, or the one a deployment from `from` at `nonce` creates.
    pub fn target(&self, from: Address, nonce: u64) -> Address {
        match self.to {
            TxKind::Call(a) => a,
            TxKind::Create => from.create(nonce),
        }
    }

    fn request(&self, from: Address) -> TransactionRequest {
        let mut req = TransactionRequest::default().from(from).value(self.value).input(self.input.clone().into());
        req.to = Some(self.to);
        req
    }
}

/// Gas headroom over the node's estimate, in percent.
const GAS_MARGIN_PCT: u64 = 20;

/// Signs `call` from `signer` with the next nonce and the node's fee estimate. A call that
/// would revert is refused here with the contract's reason (the node's gas estimate runs it).
pub async fn sign(chain: &Chain, signer: &PrivateKeySigner, call: &Call) -> Result<Signed, ChainError> {
    let from = signer.address();
    let p = chain.provider();
    let nonce = p.get_transaction_count(from).pending().await?;
    let fees = p.estimate_eip1559_fees().await?;
    let gas = p.estimate_gas(call.request(from)).await?;
    let mut tx = TxEip1559 {
        chain_id: chain.chain_id,
        nonce,
        gas_limit: gas + gas * GAS_MARGIN_PCT / 100,
        max_fee_per_gas: fees.max_fee_per_gas,
        max_priority_fee_per_gas: fees.max_priority_fee_per_gas,
        to: call.to,
        value: call.value,
        access_list: Default::default(),
        input: call.input.clone(),
    };
    let max_cost_wei = U256::from(tx.gas_limit).saturating_mul(U256::from(tx.max_fee_per_gas)).saturating_add(tx.value);
    let signature =
        signer.sign_transaction_sync(&mut tx).map_err(|e| ChainError::Rejected(format!("signing failed: {e}")))?;
    let signed = tx.into_signed(signature);
    let hash = *signed.hash();
    let raw = TxEnvelope::from(signed).encoded_2718();
    Ok(Signed { hash, raw, nonce, from, max_cost_wei })
}

/// What became of a broadcast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Broadcast {
    /// The node has it (now, or from an earlier broadcast).
    Accepted,
    /// Its nonce was used by another transaction: this one can never be mined.
    Superseded,
}

/// Sends signed bytes to the node. Sending the same bytes twice is fine (`Accepted`).
pub async fn broadcast(chain: &Chain, raw: &[u8]) -> Result<Broadcast, ChainError> {
    match chain.provider().send_raw_transaction(raw).await {
        Ok(_) => Ok(Broadcast::Accepted),
        Err(e) => match ChainError::from(e) {
            ChainError::Rejected(m) if is_known(&m) => Ok(Broadcast::Accepted),
            ChainError::Rejected(m) if is_taken(&m) => Ok(Broadcast::Superseded),
            other => Err(other),
        },
    }
}

/// The nonce went to another transaction of the wallet: mined already ("nonce too low"), or one
/// in the pool at the same fee (two jobs of one wallet signed at once).
fn is_taken(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("nonce too low") || m.contains("replacement transaction underpriced")
}

/// Nodes word "I already have it" differently.
fn is_known(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("already known") || m.contains("known transaction") || m.contains("already imported")
}

/// The receipt of `hash`, if it has been mined.
pub async fn receipt(chain: &Chain, hash: B256) -> Result<Option<TransactionReceipt>, ChainError> {
    Ok(chain.provider().get_transaction_receipt(hash).await?)
}

/// Whether the node knows transaction `hash` (pending or mined).
pub async fn known(chain: &Chain, hash: B256) -> Result<bool, ChainError> {
    Ok(chain.provider().get_transaction_by_hash(hash).await?.is_some())
}

/// How many blocks under the confirmed depth `nonce_holder` searches for the block that used a
/// nonce: a node keeps the state of recent blocks only, and a transaction replaced longer ago
/// than this is known to be by the depth alone.
pub const NONCE_SEARCH_BLOCKS: u64 = 64;

/// Who holds nonce `nonce` of `from`, `depth` blocks under the head:
/// - `None`: the wallet had not used it at that depth (it may be pending, or mined too
///   recently to count).
/// - `Some(Some(hash))`: the transaction that used it, read from the block that mined it.
/// - `Some(None)`: it was used more than `NONCE_SEARCH_BLOCKS` blocks deeper still, too far
///   back to read which transaction it was.
///
/// This is the evidence a transaction is replaced on: an answer "nonce too low" alone may come
/// from a node that has mined the transaction but cannot show it yet.
pub async fn nonce_holder(
    chain: &Chain,
    from: Address,
    nonce: u64,
    depth: u64,
) -> Result<Option<Option<B256>>, ChainError> {
    let p = chain.provider();
    let Some(deep) = p.get_block_number().await?.checked_sub(depth) else {
        return Ok(None);
    };
    // The wallet's count of transactions in the state after block `n`.
    let count_after = |n: u64| async move { p.get_transaction_count(from).number(n).await };
    if count_after(deep).await? <= nonce {
        return Ok(None);
    }
    let floor = deep.saturating_sub(NONCE_SEARCH_BLOCKS);
    if floor > 0 && count_after(floor).await? > nonce {
        return Ok(Some(None));
    }
    // The first block after which the count passed `nonce` is the one that mined it.
    let (mut lo, mut hi) = (floor, deep);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if count_after(mid).await? > nonce {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let block = p.get_block_by_number(hi.into()).full().await?;
    let holder =
        block.into_iter().flat_map(|b| b.into_transactions_vec()).find(|t| t.from() == from && t.nonce() == nonce);
    Ok(Some(holder.map(|t| t.tx_hash())))
}

/// Polls for the receipt of `hash` for at most `wait`.
pub async fn wait_for_receipt(
    chain: &Chain,
    hash: B256,
    wait: Duration,
) -> Result<Option<TransactionReceipt>, ChainError> {
    let deadline = Instant::now() + wait;
    let mut pause = Duration::from_millis(100);
    loop {
        if let Some(r) = receipt(chain, hash).await? {
            return Ok(Some(r));
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
        tokio::time::sleep(pause.min(deadline.saturating_duration_since(Instant::now()))).await;
        pause = (pause * 2).min(Duration::from_secs(2));
    }
}

/// Why a mined transaction reverted: the call replayed at its block, for the contract's reason.
pub async fn revert_reason(chain: &Chain, from: Address, call: &Call, receipt: &TransactionReceipt) -> String {
    let req = call.request(from);
    let block = receipt.block_number.map(|n| n.saturating_sub(1)).unwrap_or_default();
    match chain.provider().call(req).block(block.into()).await {
        Err(e) => match ChainError::from(e) {
            ChainError::Reverted(r) => r,
            other => format!("no reason given ({other})"),
        },
        Ok(_) => "no reason given (out of gas, or the state changed in the block)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_saying_they_have_it_already_are_recognised() {
        assert!(is_known("already known"));
        assert!(is_known("Known transaction: 0xabc"));
        assert!(is_known("transaction already imported"));
        assert!(!is_known("insufficient funds for gas * price + value"));
        assert!(is_taken("nonce too low: next nonce 5, tx nonce 4"));
        assert!(is_taken("replacement transaction underpriced"));
        assert!(!is_taken("insufficient funds for gas * price + value"));
    }
}
