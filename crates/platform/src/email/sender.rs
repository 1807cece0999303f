//! A tenant's sender identity: the From name and address of its agents' email. Unset, the
//! platform's applies (`MINICLAW_EMAIL_FROM`, `MINICLAW_EMAIL_FROM_NAME`, else the agent's name).

use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;

use super::headers;
use crate::config::EmailSettings;
use miniclaw_core::Error;
use miniclaw_core::ids::TenantId;

/// A tenant's sender identity for outgoing email (`null`: the platform default).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SenderInput {
    /// The From name (default: the agent's name).
    pub from_name: Option<String>,
    /// The From address (default: `MINICLAW_EMAIL_FROM`). Replies come back to it, so it must
    /// be an address whose inbound mail reaches the webhook.
    pub from_address: Option<String>,
}

/// The From name and address of the email of an agent called `agent_name` of `tenant`: the
/// tenant's sender identity where it has one, else the platform's (`MINICLAW_EMAIL_FROM`,
/// `MINICLAW_EMAIL_FROM_NAME`, the agent's name).
pub async fn sender(
    conn: &mut PgConnection,
    settings: &EmailSettings,
    tenant: TenantId,
    agent_name: &str,
) -> sqlx::Result<(String, String)> {
    let row =
        sqlx::query!("SELECT from_name, from_address FROM tenant_email_senders WHERE tenant_id = $1", tenant as _)
            .fetch_optional(conn)
            .await?;
    let (from_name, from_address) = row.map(|r| (r.from_name, r.from_address)).unwrap_or_default();
    let name = from_name.or_else(|| settings.from_name.clone()).unwrap_or_else(|| agent_name.to_string());
    Ok((name, from_address.unwrap_or_else(|| settings.from_address.clone())))
}

/// Sets (or clears, with nulls) the tenant's sender identity.
pub async fn set_sender(pool: &PgPool, tenant: TenantId, input: SenderInput) -> Result<SenderInput, Error> {
    if let Some(n) = &input.from_name {
        headers::name("from_name", n).map_err(|m| Error::validation("from_name", m))?;
    }
    let address = match &input.from_address {
        Some(a) => Some(headers::address(a).map_err(|m| Error::validation("from_address", m))?),
        None => None,
    };
    sqlx::query!(
        "INSERT INTO tenant_email_senders (tenant_id, from_name, from_address) VALUES ($1, $2, $3)
         ON CONFLICT (tenant_id) DO UPDATE SET from_name = $2, from_address = $3, updated_at = now()",
        tenant as _,
        input.from_name,
        address
    )
    .execute(pool)
    .await?;
    Ok(SenderInput { from_name: input.from_name, from_address: address })
}

/// The tenant's sender identity as set (nulls where the platform default applies).
pub async fn get_sender(pool: &PgPool, tenant: TenantId) -> sqlx::Result<SenderInput> {
    let row =
        sqlx::query!("SELECT from_name, from_address FROM tenant_email_senders WHERE tenant_id = $1", tenant as _)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|r| SenderInput { from_name: r.from_name, from_address: r.from_address }).unwrap_or_default())
}
