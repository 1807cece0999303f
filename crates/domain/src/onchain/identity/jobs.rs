//! The identity jobs. `identity_register` signs `register(agentURI)` from the agent's wallet
//! (or the platform's sponsor wallet, `MINICLAW_IDENTITY_SIGNER=sponsor`),
//! records the signed transaction's hash with the identity *before* broadcasting it, then
//! settles it; a run after a crash finds the recorded transaction and looks its receipt up
//! instead of registering a second time. A node that does not answer leaves the identity
//! `pending` and the job retries with backoff; a refusal or a revert ends it `failed` with the
//! reason. `identity_update` sends `setAgentURI` after profile changes, the same way.

use alloy::primitives::U256;
use alloy::signers::local::PrivateKeySigner;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::onchain::wallets::transactions::{self, Settled};
use crate::tenancy::auth::Actor;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::chain::registry;
use miniclaw_platform::chain::tx::{self, Call};
use miniclaw_platform::chain::{Chain, ChainError};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext};

pub const REGISTER: &str = "identity_register";
pub const UPDATE: &str = "identity_update";
/// With the queue's backoff (5 s doubling, capped at an hour) this keeps retrying an
/// unreachable node for about a day before the job is dead-lettered. The identity then stays
/// `pending` and shows `stalled`; the owner's next register request (or an operator's retry of
/// the job) picks it up where it stopped.
pub const MAX_ATTEMPTS: i32 = 30;
pub const UPDATE_DEBOUNCE_SECS: i64 = 30;

pub fn cycles() -> Vec<Cycle> {
    vec![
        Cycle::new(
            REGISTER,
            CycleScope::Agent,
            "Registers the agent on the ERC-8004 IdentityRegistry from its wallet (queued by POST …/identity/register).",
            register,
        )
        .max_attempts(MAX_ATTEMPTS),
        Cycle::new(
            UPDATE,
            CycleScope::Agent,
            "Sends setAgentURI for a registered agent after its profile changed (debounced 30 s).",
            update,
        )
        .max_attempts(MAX_ATTEMPTS),
        Cycle::new(
            DRIFT,
            CycleScope::Platform,
            "Queues setAgentURI for every registered agent whose registration file or URI is no longer the one \
             announced (the public URL moved, an endpoint was added by an upgrade).",
            drift,
        )
        .every(std::time::Duration::from_secs(3600)),
    ]
}

pub const DRIFT: &str = "identity_drift";

/// The registered agents whose file (or URI) differs from what the registry holds: each gets
/// an `identity_update`, which sends the transaction. What changes a file without any owner
/// action (the platform's public URL, the endpoints a new version serves) is caught here within
/// the hour; owners' own edits queue the update at once (`profile_changed`).
async fn drift(ctx: JobContext) -> anyhow::Result<Value> {
    let deps = ctx.deps()?;
    let pool = &ctx.pool;
    let rows = sqlx::query!(
        r#"SELECT agent_id AS "agent_id: AgentId", CASE WHEN domain_verified_at IS NOT NULL THEN domain END AS domain,
                  agent_uri, announced_sha256 FROM agent_identities
            WHERE status = 'registered' AND erc8004_id IS NOT NULL ORDER BY agent_id"#
    )
    .fetch_all(pool)
    .await?;
    let mut queued = 0;
    for r in &rows {
        let uri = super::file::agent_uri(&deps.base_url, r.agent_id, r.domain.as_deref());
        let digest = super::file::digest(pool, &deps.base_url, r.agent_id, deps.email.configured()).await?;
        if r.agent_uri.as_deref() == Some(uri.as_str()) && r.announced_sha256 == digest {
            continue;
        }
        let mut conn = pool.acquire().await?;
        miniclaw_platform::jobs::queue::enqueue_debounced(&mut conn, UPDATE, &[r.agent_id], UPDATE_DEBOUNCE_SECS, 600)
            .await?;
        queued += 1;
    }
    Ok(json!({ "registered": rows.len(), "queued": queued }))
}

fn origin(ctx: &JobContext) -> Origin {
    Origin::new(Actor::Job(ctx.job.kind.clone()), None)
}

/// The job's agent and tenant (registration goes on while an agent is paused: the owner asked).
async fn agent(ctx: &JobContext) -> anyhow::Result<(AgentId, TenantId)> {
    let agent = ctx.job.agent_id.map(AgentId).ok_or_else(|| anyhow::anyhow!("`{}` needs an agent", ctx.job.kind))?;
    let tenant = crate::tenancy::agents::tenant_of(&ctx.pool, agent)
        .await?
        .ok_or_else(|| anyhow::anyhow!("agent {agent} no longer exists"))?;
    Ok((agent, tenant))
}

/// The chain, checked; `Err(reason)` when the registration cannot succeed by retrying.
async fn chain(deps: &Deps) -> anyhow::Result<Result<&Chain, String>> {
    let Some(chain) = deps.chain.as_deref() else {
        return Ok(Err("no chain is configured (EVM_RPC_URL)".into()));
    };
    match chain.verify().await {
        Ok(_) => Ok(Ok(chain)),
        Err(e) if e.is_transient() => Err(e.into()),
        Err(e) => Ok(Err(e.to_string())),
    }
}

async fn register(ctx: JobContext) -> anyhow::Result<Value> {
    let (agent, tenant) = agent(&ctx).await?;
    let deps = ctx.deps()?;
    let pool = &ctx.pool;
    let row = sqlx::query!(
        "SELECT status, tx_id, CASE WHEN domain_verified_at IS NOT NULL THEN domain END AS domain
           FROM agent_identities WHERE agent_id = $1",
        agent as _
    )
    .fetch_optional(pool)
    .await?;
    let Some(row) = row.filter(|r| r.status == "pending") else {
        return Ok(json!({ "skipped": true, "reason": "no pending registration" }));
    };
    let chain = match with_note(pool, agent, chain(deps).await).await? {
        Ok(c) => c,
        Err(reason) => return fail(pool, tenant, agent, &origin(&ctx), &reason).await,
    };
    let tx_id = match row.tx_id {
        Some(id) => id,
        None => {
            let uri = super::file::agent_uri(&deps.base_url, agent, row.domain.as_deref());
            let call = Call { to: chain.registry.into(), value: U256::ZERO, input: registry::register_call(&uri) };
            let signer = signer(deps, chain, agent).await?;
            let signed = match with_note(pool, agent, sign(chain, &signer, &call).await).await? {
                Ok(s) => s,
                Err(reason) => return fail(pool, tenant, agent, &origin(&ctx), &reason).await,
            };
            let hold = match transactions::hold_paid(deps, chain, agent, chain.settings.sponsor, &signed).await? {
                Ok(hold) => hold,
                Err(reason) => return fail(pool, tenant, agent, &origin(&ctx), &reason).await,
            };
            // The hash is on record before the transaction leaves this process.
            let mut db = pool.begin().await?;
            let id = transactions::record_signed(&mut db, None, agent, "register", chain, &call, &signed, hold).await?;
            sqlx::query!(
                "UPDATE agent_identities SET tx_id = $2, tx_hash = $3, agent_uri = $4, owner_address = $5,
                        updated_at = now() WHERE agent_id = $1",
                agent as _,
                id,
                format!("{:#x}", signed.hash),
                uri,
                format!("{:#x}", signed.from)
            )
            .execute(&mut *db)
            .await?;
            db.commit().await?;
            id
        }
    };
    match with_note(pool, agent, transactions::settle(deps, chain, tx_id).await?.map_err(anyhow::Error::from)).await? {
        Settled::Confirmed(receipt) => {
            let Some((agent_id, owner)) = registry::registered(&receipt, chain.registry) else {
                let reason = "the transaction was mined but the registry emitted no Registered event";
                return fail(pool, tenant, agent, &origin(&ctx), reason).await;
            };
            let id = i64::try_from(agent_id).map_err(|_| anyhow::anyhow!("agentId {agent_id} does not fit"))?;
            let announced = super::file::digest(pool, &deps.base_url, agent, deps.email.configured()).await?;
            let mut db = pool.begin().await?;
            sqlx::query!(
                "UPDATE agent_identities SET status = 'registered', erc8004_id = $2, owner_address = $3, error = NULL,
                        registered_at = now(), updated_at = now(), announced_sha256 = $4 WHERE agent_id = $1",
                agent as _,
                id,
                format!("{owner:#x}"),
                announced
            )
            .execute(&mut *db)
            .await?;
            let details = json!({ "agent_id": id, "agent_registry": chain.agent_registry(), "tx_hash": receipt.transaction_hash });
            activity::record_agent(&mut db, tenant, agent, &origin(&ctx), "identity.registered", details.clone())
                .await?;
            let event = json!({ "erc8004_id": id, "tx_hash": receipt.transaction_hash });
            crate::channels::webhooks::emit(&mut db, agent, "identity.registered", event).await?;
            db.commit().await?;
            Ok(details)
        }
        Settled::Failed(reason) => fail(pool, tenant, agent, &origin(&ctx), &reason).await,
        Settled::Superseded => {
            sqlx::query!(
                "UPDATE agent_identities SET tx_id = NULL, tx_hash = NULL, updated_at = now() WHERE agent_id = $1",
                agent as _
            )
            .execute(pool)
            .await?;
            anyhow::bail!("the registration transaction was replaced by another of the wallet; signing it again")
        }
        Settled::Waiting => {
            anyhow::bail!("the registration transaction is broadcast but not mined yet; checking its receipt again")
        }
    }
}

/// Who sends identity transactions: the agent's wallet, or the platform's sponsor wallet.
async fn signer(deps: &Deps, chain: &Chain, agent: AgentId) -> anyhow::Result<PrivateKeySigner> {
    if chain.settings.sponsor {
        crate::onchain::wallets::sponsor_signer(&deps.pool, &deps.vault).await
    } else {
        crate::onchain::wallets::signer(&deps.pool, &deps.vault, agent).await
    }
}

/// Signing refusals that retrying cannot fix become `Err(reason)`.
async fn sign(chain: &Chain, signer: &PrivateKeySigner, call: &Call) -> anyhow::Result<Result<tx::Signed, String>> {
    match tx::sign(chain, signer, call).await {
        Ok(s) => Ok(Ok(s)),
        Err(e) if e.is_transient() => Err(e.into()),
        Err(e) => Ok(Err(e.to_string())),
    }
}

/// Keeps the last transient problem on the pending identity (the API shows it as `reason`).
async fn with_note<T>(pool: &PgPool, agent: AgentId, r: anyhow::Result<T>) -> anyhow::Result<T> {
    if let Err(e) = &r {
        let note = match e.downcast_ref::<ChainError>() {
            Some(c) => format!("{c}; retrying"),
            None => format!("{e:#}; retrying"),
        };
        sqlx::query!(
            "UPDATE agent_identities SET error = $2, updated_at = now() WHERE agent_id = $1 AND status = 'pending'",
            agent as _,
            note
        )
        .execute(pool)
        .await?;
    }
    r
}

async fn fail(pool: &PgPool, tenant: TenantId, agent: AgentId, origin: &Origin, reason: &str) -> anyhow::Result<Value> {
    let mut db = pool.begin().await?;
    sqlx::query!(
        "UPDATE agent_identities SET status = 'failed', error = $2, updated_at = now() WHERE agent_id = $1",
        agent as _,
        reason
    )
    .execute(&mut *db)
    .await?;
    activity::record_agent_error(&mut db, tenant, agent, origin, "identity.failed", json!({}), reason).await?;
    let kind = crate::channels::notifications::Kind::RegistrationFailed;
    crate::channels::notifications::notify(&mut db, agent, kind, "The ERC-8004 registration failed", reason, None)
        .await?;
    db.commit().await?;
    Ok(json!({ "failed": true, "reason": reason }))
}

/// `setAgentURI(agentId, uri)` for a registered agent: the transaction in flight is settled
/// first; a new one is signed only when none is.
async fn update(ctx: JobContext) -> anyhow::Result<Value> {
    miniclaw_platform::jobs::queue::release_pending(&ctx.pool, ctx.job.id).await?;
    let (agent, tenant) = agent(&ctx).await?;
    let deps = ctx.deps()?;
    let pool = &ctx.pool;
    let row = sqlx::query!(
        "SELECT erc8004_id, CASE WHEN domain_verified_at IS NOT NULL THEN domain END AS domain, agent_uri, announced_sha256
           FROM agent_identities
          WHERE agent_id = $1 AND status = 'registered'",
        agent as _
    )
    .fetch_optional(pool)
    .await?;
    let Some(erc8004_id) = row.as_ref().and_then(|r| r.erc8004_id) else {
        return Ok(json!({ "skipped": true, "reason": "the agent is not registered" }));
    };
    let uri = super::file::agent_uri(&deps.base_url, agent, row.as_ref().and_then(|r| r.domain.as_deref()));
    let digest = super::file::digest(pool, &deps.base_url, agent, deps.email.configured()).await?;
    let in_flight = crate::onchain::wallets::transactions::in_flight(pool, agent, "set_agent_uri").await?;
    // Nothing changed since the last announcement (an edit that leaves the file as it was):
    // no transaction, so no one pays for it.
    let unchanged =
        row.as_ref().is_some_and(|r| r.agent_uri.as_deref() == Some(uri.as_str()) && r.announced_sha256 == digest);
    if in_flight.is_none() && unchanged {
        return Ok(json!({ "skipped": true, "reason": "the registration file did not change" }));
    }
    let chain = match chain(deps).await? {
        Ok(c) => c,
        Err(reason) => return Ok(json!({ "skipped": true, "reason": reason })),
    };
    let tx_id = match in_flight {
        Some(id) => id,
        None => {
            let call = Call {
                to: chain.registry.into(),
                value: U256::ZERO,
                input: registry::set_agent_uri_call(U256::from(erc8004_id as u64), &uri),
            };
            let signer = signer(deps, chain, agent).await?;
            // The sponsor pays for an account's announcements up to a daily count; past it the
            // change waits for the next day (the drift cycle announces it then).
            if chain.settings.sponsor {
                let cap = chain.settings.sponsor_uri_updates_per_day;
                let from = format!("{:#x}", signer.address());
                let used = transactions::signed_by_today(pool, tenant, &from, "set_agent_uri").await?;
                if used >= i64::from(cap) {
                    let reason = format!(
                        "the sponsor already paid for {used} registration updates of this account today                          (MINICLAW_SPONSOR_URI_UPDATES_PER_DAY = {cap}); the change is announced tomorrow"
                    );
                    return Ok(json!({ "skipped": true, "reason": reason }));
                }
            }
            let signed = match sign(chain, &signer, &call).await? {
                Ok(s) => s,
                Err(reason) => return update_failed(pool, tenant, agent, &ctx, &reason).await,
            };
            // Past a spending limit the change waits, as past the daily count: the drift cycle
            // announces it once the limit has room again.
            let hold = match transactions::hold_paid(deps, chain, agent, chain.settings.sponsor, &signed).await? {
                Ok(hold) => hold,
                Err(reason) => return Ok(json!({ "skipped": true, "reason": reason })),
            };
            let mut db = pool.begin().await?;
            let id =
                transactions::record_signed(&mut db, None, agent, "set_agent_uri", chain, &call, &signed, hold).await?;
            db.commit().await?;
            id
        }
    };
    match transactions::settle(deps, chain, tx_id).await?? {
        Settled::Confirmed(receipt) => {
            let mut db = pool.begin().await?;
            sqlx::query!(
                "UPDATE agent_identities SET agent_uri = $2, announced_sha256 = $3, updated_at = now() WHERE agent_id = $1",
                agent as _,
                uri,
                digest
            )
            .execute(&mut *db)
            .await?;
            let details = json!({ "agent_uri": uri, "tx_hash": receipt.transaction_hash });
            activity::record_agent(&mut db, tenant, agent, &origin(&ctx), "identity.uri_updated", details.clone())
                .await?;
            crate::channels::webhooks::emit(&mut db, agent, "identity.updated", details.clone()).await?;
            db.commit().await?;
            Ok(details)
        }
        Settled::Failed(reason) => update_failed(pool, tenant, agent, &ctx, &reason).await,
        Settled::Superseded => anyhow::bail!("the setAgentURI transaction was replaced; signing it again"),
        Settled::Waiting => anyhow::bail!("the setAgentURI transaction is not mined yet; checking its receipt again"),
    }
}

async fn update_failed(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    ctx: &JobContext,
    reason: &str,
) -> anyhow::Result<Value> {
    let mut db = pool.begin().await?;
    activity::record_agent_error(&mut db, tenant, agent, &origin(ctx), "identity.uri_update_failed", json!({}), reason)
        .await?;
    db.commit().await?;
    Ok(json!({ "failed": true, "reason": reason }))
}
