//! A tenant's sender identity: the From name and address of its agents' email. Unset, the
//! platform's applies (`MINICLAW_EMAIL_FROM`, `MINICLAW_EMAIL_FROM_NAME`, else the agent's name).
//! An address the tenant asks for is used as the From only once it is verified (the owner
//! followed the link mailed to it); until then the mail goes from the platform's address under
//! the tenant's name, and replies go to the asked address by `Reply-To`. No tenant may send as
//! the platform's own domain or one of its subdomains.

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
    /// be an address whose inbound mail reaches the webhook. Setting a new one mails a link to
    /// it; until the link is followed, mail goes from the platform's address with this one as
    /// `Reply-To`.
    pub from_address: Option<String>,
}

/// The sender identity as set, and whether its address is verified.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct SenderView {
    pub from_name: Option<String>,
    pub from_address: Option<String>,
    /// Whether `from_address` is proven (its link was followed); only then is it the From.
    pub verified: bool,
}

/// Who an email is from: the From name and address, and where replies go when not to it.
#[derive(Debug, Clone, PartialEq)]
pub struct SentAs {
    pub name: String,
    pub address: String,
    pub reply_to: Option<String>,
}

/// Who the email of an agent called `agent_name` of `tenant` is from: the tenant's sender
/// identity where it has one (its address only once verified, else as `Reply-To`), the
/// platform's otherwise (`MINICLAW_EMAIL_FROM`, `MINICLAW_EMAIL_FROM_NAME`, the agent's name).
pub async fn sender(
    conn: &mut PgConnection,
    settings: &EmailSettings,
    tenant: TenantId,
    agent_name: &str,
) -> sqlx::Result<SentAs> {
    let SenderView { from_name, from_address, verified } = stored(conn, tenant).await?;
    let name = from_name.or_else(|| settings.from_name.clone()).unwrap_or_else(|| agent_name.to_string());
    Ok(match from_address {
        Some(address) if verified => SentAs { name, address, reply_to: None },
        asked => {
            SentAs { name: via_platform(&name, settings), address: settings.from_address.clone(), reply_to: asked }
        }
    })
}

/// The display name of an account's email sent from the platform's address: the account's
/// name, then `via` the platform's domain. A name is the account's free text ("Support",
/// "Billing team"), and on the platform's own address it would read as the platform's word;
/// so the reader sees whose mail it is and that the platform only carries it.
fn via_platform(name: &str, settings: &EmailSettings) -> String {
    let domain = settings.own_domain();
    if domain.is_empty() { name.to_string() } else { format!("{name} via {domain}") }
}

/// Whether `address` is on the platform's own mail domain or one of its subdomains.
pub fn on_own_domain(settings: &EmailSettings, address: &str) -> bool {
    let own = settings.own_domain();
    let domain = address.rsplit_once('@').map_or("", |(_, d)| d);
    !own.is_empty() && (domain == own || domain.ends_with(&format!(".{own}")))
}

/// Sets (or clears, with nulls) the tenant's sender identity. An address other than the one
/// already verified starts unverified; the caller mails it a link (`true` in the answer's
/// second place). 400 for a malformed name or address, 422 for one on the platform's domain.
pub async fn set_sender(
    pool: &PgPool,
    settings: &EmailSettings,
    tenant: TenantId,
    input: SenderInput,
) -> Result<(SenderView, bool), Error> {
    if let Some(n) = &input.from_name {
        headers::name("from_name", n).map_err(|m| Error::validation("from_name", m))?;
    }
    let address = match &input.from_address {
        Some(a) => Some(headers::address(a).map_err(|m| Error::validation("from_address", m))?),
        None => None,
    };
    if let Some(a) = &address
        && on_own_domain(settings, a)
    {
        return Err(Error::Unprocessable {
            code: "platform_domain",
            message: format!(
                "{a} is on the platform's own domain ({}); use an address of your own",
                settings.own_domain()
            ),
            details: Some(serde_json::json!({ "field": "from_address" })),
        });
    }
    let verified = sqlx::query_scalar!(
        r#"INSERT INTO tenant_email_senders AS s (tenant_id, from_name, from_address) VALUES ($1, $2, $3)
           ON CONFLICT (tenant_id) DO UPDATE SET from_name = $2, from_address = $3, updated_at = now(),
                verified_at = CASE WHEN s.from_address IS NOT DISTINCT FROM $3 THEN s.verified_at END
           RETURNING verified_at IS NOT NULL AS "verified!""#,
        tenant as _,
        input.from_name,
        address
    )
    .fetch_one(pool)
    .await?;
    let ask = address.is_some() && !verified;
    Ok((SenderView { from_name: input.from_name, from_address: address, verified }, ask))
}

/// Marks `address` verified if it is still the tenant's sender address; false otherwise.
pub async fn mark_verified(conn: &mut PgConnection, tenant: TenantId, address: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query!(
        "UPDATE tenant_email_senders SET verified_at = now() WHERE tenant_id = $1 AND from_address = $2",
        tenant as _,
        address
    )
    .execute(conn)
    .await?
    .rows_affected()
        == 1)
}

/// The tenant's sender identity as set (nulls where the platform default applies).
pub async fn get_sender(pool: &PgPool, tenant: TenantId) -> sqlx::Result<SenderView> {
    stored(pool, tenant).await
}

async fn stored<'c>(db: impl sqlx::PgExecutor<'c>, tenant: TenantId) -> sqlx::Result<SenderView> {
    let row = sqlx::query!(
        "SELECT from_name, from_address, verified_at IS NOT NULL AS \"verified!\"
           FROM tenant_email_senders WHERE tenant_id = $1",
        tenant as _
    )
    .fetch_optional(db)
    .await?;
    Ok(row
        .map(|r| SenderView { from_name: r.from_name, from_address: r.from_address, verified: r.verified })
        .unwrap_or_default())
}
