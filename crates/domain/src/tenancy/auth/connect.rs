//! Self-service connect (SPEC A4): whoever signs an agent-connect challenge with the agent's
//! registered wallet or Ed25519 key (or its owner's login wallet) gets the scoped `mck_` key the
//! challenge named. What a connect may grant is the owner's decision (`connect_scopes`); connect
//! keys always expire and an agent has a bounded number of them.

use miniclaw_core::ids::{AgentId, TenantId};
use sqlx::PgPool;

use super::challenge::{self, Purpose};
use super::keys::{self, ApiKey, NewKey};
use super::{Actor, signature};
use miniclaw_core::Error;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::config::Secret;

/// A signed connect request.
pub struct Connect<'a> {
    pub agent_id: AgentId,
    pub nonce: &'a str,
    pub signature: &'a str,
    /// When given, must match the challenge (the key is always the challenge's).
    pub name: Option<&'a str>,
    pub scopes: Option<&'a [String]>,
    /// Live connect keys the agent may have (`MINICLAW_CONNECT_KEYS_PER_AGENT`).
    pub max_keys: i64,
}

/// 403 `scope_not_allowed` when `scopes` reach beyond what the agent's owner lets a connect
/// grant; 404 when there is no such agent.
pub async fn check_ceiling(pool: &PgPool, agent_id: AgentId, scopes: &[String]) -> Result<(), Error> {
    let ceiling =
        sqlx::query_scalar!("SELECT connect_scopes FROM agents WHERE id = $1 AND deleted_at IS NULL", agent_id as _)
            .fetch_optional(pool)
            .await?
            .ok_or_else(|| Error::not_found("agent"))?;
    beyond_ceiling(&ceiling, scopes)
}

fn beyond_ceiling(ceiling: &[String], scopes: &[String]) -> Result<(), Error> {
    let beyond: Vec<&str> = scopes.iter().filter(|s| !super::scopes::within(ceiling, s)).map(String::as_str).collect();
    if beyond.is_empty() {
        return Ok(());
    }
    Err(Error::Refused {
        code: "scope_not_allowed",
        message: format!(
            "the agent's owner does not let a connect grant {} (allowed: {})",
            beyond.join(", "),
            ceiling.join(", ")
        ),
    })
}

/// Verifies the signed challenge and issues the key it named. The nonce is spent whatever the
/// outcome.
pub async fn connect(pool: &PgPool, c: Connect<'_>, request_id: Option<&str>) -> Result<(ApiKey, Secret), Error> {
    let Some(ch) = challenge::consume(pool, c.nonce, Purpose::AgentConnect).await? else {
        return Err(Error::Unauthenticated("challenge is unknown, already used or expired; request a new one".into()));
    };
    if ch.agent_id != Some(c.agent_id.uuid()) {
        return Err(Error::Unauthenticated("this challenge was issued for another agent".into()));
    }
    let (Some(scopes), Some(name), Some(expires_at)) = (ch.scopes.clone(), ch.key_name.clone(), ch.key_expires_at)
    else {
        return Err(Error::Unauthenticated("this challenge names no key; request a new one".into()));
    };
    if let Some(asked) = c.scopes {
        let asked = super::scopes::parse_list(asked).map_err(|e| Error::validation("scopes", e))?;
        if asked != scopes {
            return Err(Error::validation("scopes", "scopes differ from the signed challenge's"));
        }
    }
    if c.name.is_some_and(|n| n.trim() != name) {
        return Err(Error::validation("name", "name differs from the signed challenge's"));
    }
    match ch.key_type.as_str() {
        "evm" => {
            let signer = signature::recover_evm(&ch.message, c.signature)
                .map_err(|e| Error::Unauthenticated(format!("invalid signature: {e}")))?;
            if signer != ch.identity {
                return Err(Error::Unauthenticated("signature was not made by the challenged address".into()));
            }
        }
        _ => signature::verify_ed25519(&ch.identity, &ch.message, c.signature)
            .map_err(|e| Error::Unauthenticated(format!("invalid signature: {e}")))?,
    }

    // The identity must be registered on the agent, or be its owner's login wallet. The agent row
    // is locked: the key count below cannot be raced past the cap.
    let mut tx = pool.begin().await?;
    let row = sqlx::query!(
        "SELECT tenant_id, evm_address, ed25519_public_key, connect_scopes FROM agents
          WHERE id = $1 AND deleted_at IS NULL FOR UPDATE",
        c.agent_id as _
    )
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else { return Err(Error::not_found("agent")) };
    let (tenant_id, agent_evm, agent_ed) = (row.tenant_id, row.evm_address, row.ed25519_public_key);
    let allowed = match ch.key_type.as_str() {
        "evm" => {
            agent_evm.as_deref() == Some(ch.identity.as_str())
                || crate::tenancy::accounts::owner_wallet(&mut *tx, TenantId(tenant_id), &ch.identity).await?
        }
        _ => agent_ed.as_deref() == Some(ch.identity.as_str()),
    };
    if !allowed {
        return Err(Error::Refused {
            code: "not_allowed",
            message: format!(
                "this {} is not allowed to connect to the agent",
                if ch.key_type == "evm" { "wallet" } else { "key" }
            ),
        });
    }

    // The owner may have narrowed what connects may grant since the challenge was issued.
    beyond_ceiling(&row.connect_scopes, &scopes)?;
    let live = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM api_keys
            WHERE agent_id = $1 AND created_by LIKE 'connect:%' AND revoked_at IS NULL
              AND (expires_at IS NULL OR expires_at > now())"#,
        c.agent_id as _
    )
    .fetch_one(&mut *tx)
    .await?;
    if live >= c.max_keys {
        return Err(Error::Conflict(format!(
            "the agent already has {live} live connect keys, the most allowed; revoke one in the dashboard first"
        )));
    }

    let new = NewKey {
        tenant_id: tenant_id.into(),
        agent_id: c.agent_id,
        name: &name,
        scopes: &scopes,
        expires_at: Some(expires_at),
        created_by: format!("connect:{}:{}", ch.key_type, ch.identity),
        event: "agent.connected",
        end_user: None,
        limits: keys::Limits::default(),
    };
    let (key, token) = keys::create(&mut tx, new, &Origin::new(Actor::System, request_id.map(str::to_string))).await?;
    tx.commit().await?;
    Ok((key, token))
}
