//! The `token_index` pass: every deployed token's `Transfer` events since its cursor, into
//! `token_transfers` and `token_balances`, the cursor moved in the same transaction.

use alloy::primitives::Address;
use alloy::providers::Provider;
use alloy::rpc::types::Filter;
use sqlx::PgPool;

use super::BLOCKS_PER_PASS;
use miniclaw_platform::chain::contracts;

/// One indexer pass over every deployed token; returns the events it added.
pub async fn index(pool: &PgPool, chain: &miniclaw_platform::chain::Chain) -> anyhow::Result<u64> {
    // Blocks this close to the head may still be reorganised away: they wait.
    let head = chain.provider().get_block_number().await.map_err(miniclaw_platform::chain::ChainError::from)?;
    let head = head.saturating_sub(chain.settings.confirmations);
    let tokens = sqlx::query!(
        r#"SELECT agent_id, address AS "address!", indexed_block AS "indexed_block!" FROM agent_tokens
            WHERE address IS NOT NULL AND indexed_block IS NOT NULL AND chain_id = $1 AND indexed_block < $2"#,
        chain.chain_id as i64,
        head as i64
    )
    .fetch_all(pool)
    .await?;
    let mut added = 0;
    for t in tokens {
        let from = t.indexed_block as u64 + 1;
        let to = head.min(from + BLOCKS_PER_PASS - 1);
        let address: Address = t.address.parse()?;
        let filter =
            Filter::new().address(address).event_signature(contracts::transfer_topic()).from_block(from).to_block(to);
        let logs = chain.provider().get_logs(&filter).await.map_err(miniclaw_platform::chain::ChainError::from)?;
        let mut db = pool.begin().await?;
        // The cursor is the lock: a second indexer reading the same range waits here, then
        // finds the cursor moved and leaves.
        let cursor =
            sqlx::query_scalar!("SELECT indexed_block FROM agent_tokens WHERE agent_id = $1 FOR UPDATE", t.agent_id)
                .fetch_one(&mut *db)
                .await?;
        if cursor != Some(t.indexed_block) {
            continue;
        }
        for e in logs.iter().filter_map(contracts::decode_transfer) {
            let (from_a, to_a, value) = (format!("{:#x}", e.from), format!("{:#x}", e.to), e.value.to_string());
            let new = sqlx::query_scalar!(
                "INSERT INTO token_transfers (agent_id, block_number, log_index, tx_hash, from_address, to_address, value)
                 VALUES ($1, $2, $3, $4, $5, $6, $7::text::numeric) ON CONFLICT DO NOTHING RETURNING 1 AS one",
                t.agent_id,
                e.block_number as i64,
                e.log_index as i64,
                format!("{:#x}", e.tx_hash),
                from_a,
                to_a,
                value
            )
            .fetch_optional(&mut *db)
            .await?;
            if new.is_none() {
                continue;
            }
            added += 1;
            if from_a == to_a {
                continue;
            }
            sqlx::query!(
                "INSERT INTO token_balances (agent_id, address, balance)
                 VALUES ($1, $2, -$4::text::numeric), ($1, $3, $4::text::numeric)
                 ON CONFLICT (agent_id, address) DO UPDATE SET balance = token_balances.balance + excluded.balance",
                t.agent_id,
                from_a,
                to_a,
                value
            )
            .execute(&mut *db)
            .await?;
        }
        sqlx::query!("UPDATE agent_tokens SET indexed_block = $2 WHERE agent_id = $1", t.agent_id, to as i64)
            .execute(&mut *db)
            .await?;
        db.commit().await?;
    }
    Ok(added)
}
