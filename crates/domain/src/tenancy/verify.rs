//! Proving an email address: a single-use link mailed to it. The owner's signup address is
//! proven before any notification goes to it (and before the account is established, see
//! `accounts::established_sql`); a sender address is proven before the account's mail goes
//! out From it (`email::sender`). The link's token is kept only as its SHA-256; the job that
//! mails it carries it sealed under the platform's key, so neither the database nor the job
//! list shows a usable link. Links are valid 48 hours, a new one for the same address can be
//! asked for once a minute, and each counts against the account's daily send cap.

use chrono::{Duration, Utc};
use rand::RngCore;
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use utoipa::ToSchema;

use miniclaw_core::Error;
use miniclaw_core::ids::{TenantId, UserId};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::email::outbox::{self, MAX_ATTEMPTS};
use miniclaw_platform::email::{Outgoing, SendError, headers, sender};
use miniclaw_platform::jobs::{Cycle, CycleScope, JobContext, NewJob, queue};
use miniclaw_platform::llm::spend::Payer;

/// The job that mails one link.
pub const JOB: &str = "verification_email";
/// How long a link is valid.
pub const TTL: Duration = Duration::hours(48);
/// The shortest wait between two links of one account for one purpose.
pub const RESEND_SECS: i64 = 60;
/// What the sealed token is bound to.
const SEALED_AS: &str = "verification_email";

/// What an address is proven for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The owner's own (signup) address: notifications may go to it.
    OwnerEmail,
    /// The account's sender address: its mail may go out From it.
    Sender,
    /// A forgotten password (`passwords::reset`): the link sets a new one.
    PasswordReset,
    /// An invitation to the team (`team::invite`): the link lets the address join.
    Invitation,
    /// A new address for the owner (`passwords::change_email`): the link makes it theirs.
    EmailChange,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::OwnerEmail => "owner_email",
            Purpose::Sender => "sender",
            Purpose::PasswordReset => "password_reset",
            Purpose::Invitation => "invitation",
            Purpose::EmailChange => "email_change",
        }
    }

    /// How long its link is valid: a reset link an hour, an invitation a week, one proving an
    /// address `TTL`.
    pub fn ttl(self) -> Duration {
        match self {
            Purpose::PasswordReset => Duration::hours(1),
            Purpose::Invitation => Duration::days(7),
            _ => TTL,
        }
    }

    /// Its mail's subject, why it came, and the dashboard page its link opens.
    fn mail(purpose: &str) -> (&'static str, &'static str, &'static str, i64) {
        match purpose {
            "owner_email" => {
                ("Confirm your email address", "You signed up to miniclaw with this address", "/verify-email", 48)
            }
            "password_reset" => (
                "Reset your password",
                "Someone asked to reset the password of the miniclaw account with this address",
                "/reset-password",
                1,
            ),
            "invitation" => (
                "You are invited to a miniclaw team",
                "A member of a miniclaw account invited this address to join its team",
                "/join",
                168,
            ),
            "email_change" => (
                "Confirm your new email address",
                "A miniclaw account asked to use this address instead of its current one",
                "/verify-email",
                48,
            ),
            _ => (
                "Confirm this sender address",
                "A miniclaw account asked to send its agents' email from this address",
                "/verify-email",
                48,
            ),
        }
    }
}

/// A link followed: whose account and address it was mailed for.
#[derive(Debug, Clone)]
pub struct Link {
    pub tenant: TenantId,
    pub owner: Option<UserId>,
    pub address: String,
}

/// The answer to a token that is unknown, used, expired or mistyped.
pub fn invalid_link() -> Error {
    Error::validation("token", "this link is not valid (used, expired or mistyped); ask for a new one")
}

/// Uses up the link of `token` for `purpose`, inside `tx`; `None` when it is not a live one.
pub async fn consume(tx: &mut sqlx::PgConnection, token: &str, purpose: Purpose) -> sqlx::Result<Option<Link>> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let row = sqlx::query!(
        "UPDATE email_verifications SET used_at = now()
          WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
          RETURNING tenant_id, owner_id, address",
        hash(&token.to_ascii_lowercase()),
        purpose.as_str()
    )
    .fetch_optional(&mut *tx)
    .await?;
    Ok(row.map(|r| Link { tenant: TenantId(r.tenant_id), owner: r.owner_id.map(UserId), address: r.address }))
}

/// What is kept of a link's token: its SHA-256 (lower-case hex tokens).
pub fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.to_ascii_lowercase().as_bytes()).to_vec()
}

/// Whether `token` has a link token's shape (64 hex digits).
pub fn well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Makes a link for `address` and queues the email carrying it; 429 when the account asked for
/// one for the same address less than a minute ago, or its daily send cap is reached.
pub async fn send_link(
    deps: &Deps,
    tenant: TenantId,
    owner: Option<UserId>,
    purpose: Purpose,
    address: &str,
) -> Result<(), Error> {
    let mut tx = deps.pool.begin().await?;
    send_link_in(&mut tx, deps, tenant, owner, purpose, address).await?;
    tx.commit().await?;
    Ok(())
}

/// `send_link` inside `tx`: the link and its email come to be when `tx` commits. Returns the
/// link's stored hash, for a row that goes with it (an invitation's role).
pub async fn send_link_in(
    tx: &mut sqlx::PgConnection,
    deps: &Deps,
    tenant: TenantId,
    owner: Option<UserId>,
    purpose: Purpose,
    address: &str,
) -> Result<Vec<u8>, Error> {
    let mut raw = [0u8; 32];
    rand::rng().fill_bytes(&mut raw);
    let token = hex::encode(raw);
    let recent = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM email_verifications WHERE tenant_id = $1 AND purpose = $2
              AND lower(address) = lower($4) AND created_at > now() - make_interval(secs => $3)) AS "recent!""#,
        tenant as _,
        purpose.as_str(),
        RESEND_SECS as f64,
        address
    )
    .fetch_one(&mut *tx)
    .await?;
    if recent {
        return Err(Error::Limited {
            retry_after_secs: RESEND_SECS as u64,
            message: Some("a link was sent less than a minute ago; check your inbox or try again shortly".into()),
            reset_at: None,
        });
    }
    // A link counts on the account's cap (a small one until an address is proven), never the
    // platform's: signups cannot use up the day's mail and block each other's links.
    let unproven = !crate::tenancy::accounts::proven(&mut *tx, tenant).await?;
    outbox::count_send(&mut *tx, &deps.email, tenant, outbox::Sending { unproven, link: true }).await??;
    let token_hash = hash(&token);
    sqlx::query!(
        "INSERT INTO email_verifications (token_hash, tenant_id, owner_id, purpose, address, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
        token_hash,
        tenant as _,
        owner as _,
        purpose.as_str(),
        address,
        Utc::now() + purpose.ttl()
    )
    .execute(&mut *tx)
    .await?;
    let sealed = hex::encode(deps.vault.seal(SEALED_AS, token.as_bytes()));
    queue::enqueue_in(&mut *tx, NewJob::new(JOB).payload(json!({ "sealed": sealed })).max_attempts(MAX_ATTEMPTS))
        .await?;
    Ok(token_hash)
}

/// After a password signup: mails the link that proves the owner's address, when the platform
/// can send mail. A failure is logged, never the signup's (the owner can ask again).
pub async fn after_signup(deps: &Deps, owner: &crate::tenancy::accounts::OwnerView, tenant: TenantId) {
    let Some(email) = owner.email.as_deref().filter(|_| deps.email.configured()) else { return };
    if let Err(e) = send_link(deps, tenant, Some(owner.id), Purpose::OwnerEmail, email).await {
        tracing::warn!(owner.id = %owner.id, error = %e, "could not queue the signup's verification link");
    }
}

/// Mails the signed-in owner a new link for their address: 409 when it is verified already,
/// 422 without an address (a wallet account), 503 when the platform sends no mail.
pub async fn resend_owner_link(deps: &Deps, owner: UserId, tenant: TenantId) -> Result<String, Error> {
    let row = sqlx::query!(
        "SELECT email, email_verified_at IS NOT NULL AS \"verified!\" FROM owners WHERE id = $1 AND tenant_id = $2",
        owner as _,
        tenant as _
    )
    .fetch_optional(&deps.pool)
    .await?
    .ok_or_else(|| Error::not_found("owner"))?;
    let Some(email) = row.email else {
        return Err(Error::Unprocessable {
            code: "no_email",
            message: "this account has no email address (it signs in with a wallet)".into(),
            details: None,
        });
    };
    if row.verified {
        return Err(Error::Conflict(format!("{email} is verified already")));
    }
    if !deps.email.configured() {
        return Err(Error::Unavailable("this platform sends no email (no transport is configured)".into()));
    }
    send_link(deps, tenant, Some(owner), Purpose::OwnerEmail, &email).await?;
    Ok(email)
}

/// Sets the account's sender identity (`email::sender::set_sender`) and mails a link to a new
/// address when the platform sends mail; a link mailed a moment ago (the same address set
/// twice) still holds.
pub async fn set_sender(
    deps: &Deps,
    tenant: TenantId,
    owner: UserId,
    input: sender::SenderInput,
) -> Result<sender::SenderView, Error> {
    let (view, ask) = sender::set_sender(&deps.pool, &deps.email, tenant, input).await?;
    if let (true, Some(address)) = (ask && deps.email.configured(), view.from_address.as_deref()) {
        match send_link(deps, tenant, Some(owner), Purpose::Sender, address).await {
            Ok(()) | Err(Error::Limited { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(view)
}

/// What a followed link proved.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Verified {
    /// `owner_email`, `sender` or `email_change`.
    pub purpose: String,
    pub address: String,
}

/// Follows a link: marks its address verified (the owner's email, or the account's sender
/// address if it is still the one asked for), or makes a new address the owner's (an email
/// change: the old one signs in no more, and every session ends). 400 for a token that is
/// unknown, used or expired; 409 when the new address became another account's meanwhile.
pub async fn confirm(pool: &PgPool, token: &str) -> Result<Verified, Error> {
    let invalid = invalid_link;
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(invalid());
    }
    let mut tx = pool.begin().await?;
    let row = sqlx::query!(
        "UPDATE email_verifications SET used_at = now()
          WHERE token_hash = $1 AND purpose IN ('owner_email', 'sender', 'email_change')
            AND used_at IS NULL AND expires_at > now()
          RETURNING tenant_id, owner_id, purpose, address",
        hash(&token.to_ascii_lowercase())
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(invalid)?;
    let proven = match row.purpose.as_str() {
        "owner_email" => {
            sqlx::query!(
                "UPDATE owners SET email_verified_at = coalesce(email_verified_at, now())
                  WHERE id = $1 AND lower(email) = lower($2)",
                row.owner_id,
                row.address
            )
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1
        }
        "email_change" => {
            let owner = row.owner_id.map(UserId).ok_or_else(invalid)?;
            super::passwords::take_address(&mut tx, owner, TenantId(row.tenant_id), &row.address).await?
        }
        _ => sender::mark_verified(&mut tx, TenantId(row.tenant_id), &row.address).await?,
    };
    if !proven {
        return Err(Error::Conflict(format!("{} is no longer the address this link was for", row.address)));
    }
    tx.commit().await?;
    // The owner's cached account says whether the address is proven: read anew from here on.
    if let Some(owner) = row.owner_id {
        crate::tenancy::auth::cache::cache().forget_owner(UserId(owner));
    }
    Ok(Verified { purpose: row.purpose, address: row.address })
}

/// The operator vouches for an account it made (the first start's): its owner's email counts
/// as verified and the account as established at once.
pub async fn vouch(pool: &PgPool, owner: UserId, tenant: TenantId) -> sqlx::Result<()> {
    let mut tx = pool.begin().await?;
    sqlx::query!(
        "UPDATE owners SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1 AND tenant_id = $2",
        owner as _,
        tenant as _
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!("UPDATE tenants SET vouched_at = coalesce(vouched_at, now()) WHERE id = $1", tenant as _)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    crate::tenancy::auth::cache::cache().forget_owner(owner);
    Ok(())
}

pub fn cycle() -> Cycle {
    Cycle::new(JOB, CycleScope::Platform, "Mails one link that proves an email address (signup or sender).", mail)
        .max_attempts(MAX_ATTEMPTS)
}

/// The link's email, from the platform's address. A transport that is down fails the attempt
/// (the queue retries); a refused address ends it.
async fn mail(ctx: JobContext) -> anyhow::Result<Value> {
    let deps = ctx.deps()?;
    let sealed = ctx.job.payload["sealed"].as_str().and_then(|s| hex::decode(s).ok());
    let sealed = sealed.ok_or_else(|| anyhow::anyhow!("`{JOB}` needs its sealed token"))?;
    let token = String::from_utf8(deps.vault.open(SEALED_AS, &sealed)?.plain)?;
    let Some(row) = sqlx::query!(
        r#"SELECT purpose, address, tenant_id AS "tenant_id?" FROM email_verifications
            WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()"#,
        hash(&token)
    )
    .fetch_optional(&ctx.pool)
    .await?
    else {
        return Ok(json!({ "skipped": true, "reason": "the link was used or expired" }));
    };
    let (subject, why, page, hours) = Purpose::mail(&row.purpose);
    let link = format!("{}{page}?token={token}", deps.base_url.trim_end_matches('/'));
    let within = match hours {
        1 => "1 hour".to_string(),
        h if h > 48 && h % 24 == 0 => format!("{} days", h / 24),
        h => format!("{h} hours"),
    };
    let email = Outgoing {
        from_name: deps.email.from_name.clone().unwrap_or_else(|| "miniclaw".into()),
        from_address: deps.email.from_address.clone(),
        to_address: row.address.clone(),
        reply_to: None,
        subject: subject.into(),
        body: format!(
            "Hello,\n\n{why}. To go on, open this link within {within}:\n\n{link}\n\n\
             If this was not you, ignore this email: nothing changes until the link is followed.\n"
        ),
        message_id: headers::message_id(&deps.email.from_address),
        in_reply_to: None,
        references: Vec::new(),
        idempotency_key: format!("{JOB}:{}", ctx.job.id),
    };
    let payer = row.tenant_id.map(|t| Payer::tenant(TenantId(t))).unwrap_or_default();
    match deps.send_mail(payer, &email).await? {
        Ok(sent) => Ok(json!({ "sent": true, "transport": sent.transport, "purpose": row.purpose })),
        Err(SendError::Refused(reason)) => Ok(json!({ "sent": false, "failed": reason })),
        Err(SendError::Transient(reason)) => Err(anyhow::anyhow!("link not mailed yet: {reason}")),
    }
}
