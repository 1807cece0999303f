//! Moving an agent's own token for the economy: tips, and stakes held by the custodian (the
//! platform's sponsor wallet) until they are returned or slashed.

use alloy::primitives::{Address, U256};

use crate::onchain::economy::onchain::{self, Request};
use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::chain::contracts;
use miniclaw_platform::deps::Deps;

/// A tip in the agent's token to `to`, in the caller's transaction: the wallet transaction's id.
/// Unless the owner asks in person it waits for the owner's confirmation (`token_move_waits`).
pub async fn tip(
    db: &mut sqlx::PgConnection,
    deps: &Deps,
    agent: AgentId,
    origin: &Origin,
    to: &str,
    amount: &str,
) -> Result<uuid::Uuid, Error> {
    let amount = onchain::amount("amount", amount)?;
    let chain = crate::onchain::wallets::send::configured(deps)?;
    let (address, _) = live(db, agent).await?;
    let to: Address = to.parse().map_err(anyhow::Error::from)?;
    let input = contracts::token_transfer(to, amount);
    let call = Request { purpose: "token_transfer", sponsor: false, to: Some(address), value: U256::ZERO, input };
    onchain::request_held(db, chain, agent, origin, call, onchain::token_move_waits(origin)).await
}

/// A token stake: `whole` tokens of the agent's own token sent from its wallet to the custodian,
/// in the caller's transaction. The base units and the wallet transaction's id.
pub async fn stake(
    db: &mut sqlx::PgConnection,
    deps: &Deps,
    agent: AgentId,
    origin: &Origin,
    custodian: Address,
    whole: i64,
) -> Result<(U256, uuid::Uuid), Error> {
    let (address, decimals) = live(db, agent).await?;
    let units = U256::from(whole as u64)
        .checked_mul(U256::from(10u64).pow(U256::from(decimals)))
        .ok_or_else(|| Error::validation("amount", "amount × 10^decimals does not fit in 256 bits"))?;
    let chain = crate::onchain::wallets::send::configured(deps)?;
    let input = contracts::token_transfer(custodian, units);
    let call = Request { purpose: "token_transfer", sponsor: false, to: Some(address), value: U256::ZERO, input };
    Ok((units, onchain::request(db, chain, agent, origin, call).await?))
}

/// The custodian sends a token stake's units back to the staking agent's wallet, or to the slash
/// sink; the wallet transaction's id.
pub async fn unstake(
    db: &mut sqlx::PgConnection,
    deps: &Deps,
    staker: AgentId,
    origin: &Origin,
    units: &str,
    slash: bool,
) -> Result<uuid::Uuid, Error> {
    let chain = crate::onchain::wallets::send::configured(deps)?;
    let (address, _) = live(db, staker).await?;
    let to: Address = if slash {
        chain.settings.slash_sink.parse().map_err(anyhow::Error::from)?
    } else {
        let wallet = sqlx::query_scalar!("SELECT address FROM agent_wallets WHERE agent_id = $1", staker as _)
            .fetch_optional(&mut *db)
            .await?
            .ok_or_else(crate::onchain::wallets::no_wallet)?;
        wallet.parse().map_err(anyhow::Error::from)?
    };
    let units = onchain::amount("units", units)?;
    let input = contracts::token_transfer(to, units);
    let call = Request { purpose: "token_transfer", sponsor: true, to: Some(address), value: U256::ZERO, input };
    onchain::request(db, chain, staker, origin, call).await
}

/// The agent's deployed token: its address and decimals; 422 `no_token` without one.
pub(super) async fn live(db: &mut sqlx::PgConnection, agent: AgentId) -> Result<(Address, u8), Error> {
    let token = sqlx::query!(
        r#"SELECT t.address, t.decimals, w.status FROM agent_tokens t JOIN wallet_transactions w ON w.id = t.deploy_tx
            WHERE t.agent_id = $1"#,
        agent as _
    )
    .fetch_optional(&mut *db)
    .await?;
    match token.filter(|t| t.status == "confirmed") {
        Some(t) => {
            let address = t.address.and_then(|a| a.parse().ok()).ok_or_else(|| Error::not_found("token"))?;
            Ok((address, t.decimals as u8))
        }
        None => Err(Error::Unprocessable {
            code: "no_token",
            message: "this needs the agent's own token, and it has none deployed (POST …/token)".into(),
            details: None,
        }),
    }
}
