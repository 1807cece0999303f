//! Self-service connect (SPEC A4): whoever signs an agent-connect challenge with the agent's
//! registered wallet or Ed25519 key (or its owner's login wallet) gets a scoped `mck_` key.

use crate::ids::AgentId;
use sqlx::PgPool;
use uuid::Uuid;

use super::challenge::{self, Purpose};
use super::keys::{self, ApiKey, NewKey};
use super::{Actor, signature};
use crate::activity::Origin;
use crate::config::Secret;
use crate::error::ApiError;

/// A signed connect request.
pub struct Connect<'a> {
    pub agent_id: AgentId,
    pub nonce: &'a str,
    pub signature: &'a str,
    pub name: &'a str,
    pub scopes: &'a [String],
}

/// Verifies the signed challenge and issues the key. The nonce is spent whatever the outcome.
pub async fn connect(pool: &PgPool, c: Connect<'_>, request_id: Option<&str>) -> Result<(ApiKey, Secret), ApiError> {
    let (name, scopes) = keys::validate_request(c.name, c.scopes, None)?;
    let Some(ch) = challenge::consume(pool, c.nonce, Purpose::AgentConnect).await? else {
        return Err(ApiError::Unauthorized("challenge is unknown, already used or expired; request a new one".into()));
    };
    if ch.agent_id != Some(c.agent_id.uuid()) {
        return Err(ApiError::Unauthorized("this challenge was issued for another agent".into()));
    }
    match ch.key_type.as_str() {
        "evm" => {
            let signer = signature::recover_evm(&ch.message, c.signature)
                .map_err(|e| ApiError::Unauthorized(format!("invalid signature: {e}")))?;
            if signer != ch.identity {
                return Err(ApiError::Unauthorized("signature was not made by the challenged address".into()));
            }
        }
        _ => signature::verify_ed25519(&ch.identity, &ch.message, c.signature)
            .map_err(|e| ApiError::Unauthorized(format!("invalid signature: {e}")))?,
    }

    // The identity must be registered on the agent, or be its owner's login wallet.
    let row: Option<(Uuid, Option<String>, Option<String>)> =
        sqlx::query!("SELECT tenant_id, evm_address, ed25519_public_key FROM agents WHERE id = $1", c.agent_id as _)
            .fetch_optional(pool)
            .await?
            .map(|r| (r.tenant_id, r.evm_address, r.ed25519_public_key));
    let Some((tenant_id, agent_evm, agent_ed)) = row else { return Err(ApiError::not_found("agent")) };
    let allowed =
        match ch.key_type.as_str() {
            "evm" => agent_evm.as_deref() == Some(ch.identity.as_str())
                || sqlx::query_scalar!(
                    r#"SELECT EXISTS (SELECT 1 FROM owners WHERE tenant_id = $1 AND evm_address = $2) AS "allowed!""#,
                    tenant_id,
                    ch.identity
                )
                .fetch_one(pool)
                .await?,
            _ => agent_ed.as_deref() == Some(ch.identity.as_str()),
        };
    if !allowed {
        return Err(ApiError::Forbidden {
            code: "not_allowed",
            message: format!(
                "this {} is not allowed to connect to the agent",
                if ch.key_type == "evm" { "wallet" } else { "key" }
            ),
        });
    }

    let new = NewKey {
        tenant_id: tenant_id.into(),
        agent_id: c.agent_id,
        name: &name,
        scopes: &scopes,
        expires_at: None,
        created_by: format!("connect:{}:{}", ch.key_type, ch.identity),
        event: "agent.connected",
    };
    let mut tx = pool.begin().await?;
    let (key, token) = keys::create(&mut tx, new, &Origin::new(Actor::System, request_id.map(str::to_string))).await?;
    tx.commit().await?;
    Ok((key, token))
}
