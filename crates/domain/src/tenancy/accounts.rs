//! Owner accounts (SPEC A1, A2): a tenant with its first owner, created by password signup, by
//! a first wallet sign-in or on first start; password and wallet sign-in. The API, the
//! dashboard and `main` all come here; sessions themselves live in `auth::session`.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::{TenantId, UserId};
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::tenancy::auth::challenge::{self, Purpose};
use crate::tenancy::auth::{Actor, password, signature};
use miniclaw_core::Error;
use miniclaw_platform::activity::{self, Origin};

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct OwnerView {
    pub id: UserId,
    pub email: Option<String>,
    pub evm_address: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// The signed-in owner with their tenant, as `GET /v1/me` shows them (cached: `me`).
#[derive(Debug, Clone)]
pub struct Account {
    pub owner: OwnerView,
    pub tenant: TenantView,
    /// The owner's email address is proven (a followed link, or the operator vouched).
    pub email_verified: bool,
}

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct TenantView {
    pub id: TenantId,
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// An owner with its tenant, as signing in reads them.
#[derive(Clone, sqlx::FromRow)]
struct AccountRow {
    owner_id: UserId,
    email: Option<String>,
    evm_address: Option<String>,
    owner_created: DateTime<Utc>,
    password_hash: Option<String>,
    tenant_id: TenantId,
    tenant_name: String,
    tenant_created: DateTime<Utc>,
    suspended: bool,
}

const ACCOUNT_SELECT: &str = "SELECT o.id AS owner_id, o.email, o.evm_address, o.created_at AS owner_created,
        o.password_hash, t.id AS tenant_id, t.name AS tenant_name, t.created_at AS tenant_created,
        t.suspended_at IS NOT NULL AS suspended
   FROM owners o JOIN tenants t ON t.id = o.tenant_id";

impl AccountRow {
    /// 403 `account_suspended` when the operator suspended the account: no sign-in.
    fn not_suspended(&self) -> miniclaw_core::Result<()> {
        if self.suspended {
            return Err(Error::Refused {
                code: "account_suspended",
                message: "this account is suspended by the platform's operator; contact them".into(),
            });
        }
        Ok(())
    }

    fn views(self) -> (OwnerView, TenantView) {
        (
            OwnerView {
                id: self.owner_id,
                email: self.email,
                evm_address: self.evm_address,
                created_at: self.owner_created,
            },
            TenantView { id: self.tenant_id, name: self.tenant_name, created_at: self.tenant_created },
        )
    }
}

/// Longest tenant name.
pub const TENANT_NAME_MAX: usize = 100;
/// The longest email address (RFC 5321's path limit less its angle brackets).
const EMAIL_MAX: usize = 254;

/// How a new owner proves who they are.
enum Credential<'a> {
    Password { email: &'a str, hash: &'a str },
    Wallet { address: &'a str },
}

pub(crate) fn validate_email(email: &str) -> Result<String, Error> {
    let e = email.trim();
    Error::check_length("email", e, EMAIL_MAX)?;
    let ok = e.len() <= 254
        && e.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')
        })
        && !e.chars().any(char::is_whitespace);
    if ok { Ok(e.to_string()) } else { Err(Error::validation("email", "email must look like name@example.com")) }
}

/// The tenant name asked for, trimmed, or the default when none was given.
fn tenant_name(asked: Option<String>, default: impl FnOnce() -> String) -> Result<String, Error> {
    let name = asked.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).unwrap_or_else(default);
    Error::check_length("tenant_name", &name, TENANT_NAME_MAX)?;
    Ok(name)
}

/// What a new tenant starts with (`NewTenant::from_config`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewTenant {
    /// The monthly model budget (`MINICLAW_TENANT_MONTHLY_USD`), if any.
    pub monthly_usd: Option<f64>,
    /// Platform credits granted at signup (`MINICLAW_SIGNUP_CREDITS`).
    pub credits: i64,
    /// Whether the platform mails verification links: only then can an address that an
    /// earlier signup never proved be taken by a new one (`release_unproven`).
    pub sends_mail: bool,
}

impl NewTenant {
    /// What the configuration gives a new tenant: its monthly model budget, if any, and its
    /// credits.
    pub fn from_config(config: &miniclaw_platform::config::Config) -> NewTenant {
        NewTenant {
            monthly_usd: Some(config.tenant_monthly_usd).filter(|usd| *usd > 0.0),
            credits: config.caps.signup_credits,
            sends_mail: config.email.configured(),
        }
    }
}

/// Inserts a tenant with its first owner, logs the signup and grants the starting credits,
/// inside the caller's transaction.
async fn insert_tenant_with_owner(
    tx: &mut PgConnection,
    tenant_name: &str,
    credential: Credential<'_>,
    request_id: Option<&str>,
    new: NewTenant,
) -> miniclaw_core::Result<(OwnerView, TenantView)> {
    let tenant = sqlx::query_as!(
        TenantView,
        "INSERT INTO tenants (id, name, monthly_budget_usd) VALUES ($1, $2, $3) RETURNING id, name, created_at",
        Uuid::now_v7(),
        tenant_name,
        new.monthly_usd
    )
    .fetch_one(&mut *tx)
    .await?;
    let (email, hash, address) = match credential {
        Credential::Password { email, hash } => (Some(email), Some(hash), None),
        Credential::Wallet { address } => (None, None, Some(address)),
    };
    let owner = sqlx::query_as!(
        OwnerView,
        "INSERT INTO owners (id, tenant_id, email, password_hash, evm_address) VALUES ($1, $2, $3, $4, $5)
         RETURNING id, email, evm_address, created_at",
        Uuid::now_v7(),
        tenant.id as _,
        email,
        hash,
        address
    )
    .fetch_one(&mut *tx)
    .await;
    let owner = match owner {
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("owners_email") => {
            return Err(Error::Conflict("an account with this email already exists; sign in instead".into()));
        }
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("owners_evm_address") => {
            return Err(Error::Conflict(WALLET_TAKEN.into()));
        }
        other => other?,
    };
    let details = match address {
        Some(address) => serde_json::json!({ "method": "wallet", "address": address }),
        None => serde_json::json!({ "method": "password" }),
    };
    let origin = Origin::new(Actor::Owner(owner.id), request_id.map(str::to_string));
    activity::record_tenant(tx, tenant.id, None, &origin, "owner.signed_up", details).await?;
    if new.credits > 0 {
        let key = format!("signup:{}", tenant.id.0);
        crate::onchain::credits::grant(tx, tenant.id, new.credits, key, Some("Credits to start with".into())).await?;
    }
    Ok((owner, tenant))
}

/// Creates a tenant and its owner with an email and password (signup, the dashboard's signup
/// form, first-start provisioning).
/// `new`: what the new tenant starts with (`Config::new_tenant`).
pub async fn create_owner(
    pool: &PgPool,
    email: &str,
    password_plain: String,
    tenant_name_asked: Option<String>,
    request_id: Option<&str>,
    new: NewTenant,
) -> miniclaw_core::Result<(OwnerView, TenantView)> {
    let email = validate_email(email)?;
    Error::check_length("password", &password_plain, password::MAX_LEN)?;
    let len = password_plain.chars().count();
    if !(password::MIN_LEN..=password::MAX_LEN).contains(&len) {
        return Err(Error::validation(
            "password",
            format!("password must be {}–{} characters", password::MIN_LEN, password::MAX_LEN),
        ));
    }
    let name =
        tenant_name(tenant_name_asked, || format!("{}'s workspace", email.split('@').next().unwrap_or("owner")))?;
    let hash = password::hash(password_plain).await?;
    let mut tx = pool.begin().await?;
    if new.sends_mail {
        release_unproven(&mut tx, &email, request_id).await?;
    }
    let created =
        insert_tenant_with_owner(&mut tx, &name, Credential::Password { email: &email, hash: &hash }, request_id, new)
            .await?;
    tx.commit().await?;
    Ok(created)
}

/// Frees `email` for a new signup when the account holding it never proved it and can no
/// longer: created more than a link's life ago (`verify::TTL`), never verified, with no link
/// still valid. Without this, anyone could sign up with another person's address and keep them
/// out for good. The earlier account keeps all it holds (the address is kept aside for the
/// operator, and its activity says what happened); it can no longer sign in with it. Called
/// only when the platform mails links: otherwise no address is ever proven, and every account
/// would be up for the taking.
async fn release_unproven(tx: &mut PgConnection, email: &str, request_id: Option<&str>) -> sqlx::Result<()> {
    let ttl_secs = crate::tenancy::verify::TTL.num_seconds() as f64;
    let released = sqlx::query!(
        r#"UPDATE owners o SET released_email = o.email, email = NULL, email_released_at = now(), password_hash = NULL
            WHERE lower(o.email) = lower($1) AND o.email_verified_at IS NULL
              AND o.created_at < now() - make_interval(secs => $2)
              AND NOT EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id AND t.vouched_at IS NOT NULL)
              AND NOT EXISTS (SELECT 1 FROM email_verifications v
                               WHERE v.owner_id = o.id AND v.purpose = 'owner_email' AND v.used_at IS NULL
                                 AND v.expires_at > now())
        RETURNING o.id, o.tenant_id"#,
        email,
        ttl_secs
    )
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(r) = released {
        let origin = Origin::new(Actor::System, request_id.map(str::to_string));
        let details = serde_json::json!({ "reason": "never proven; a new signup took the address" });
        activity::record_tenant(tx, TenantId(r.tenant_id), None, &origin, "owner.email_released", details).await?;
        // It signs in with that address no more, and no session of it goes on.
        sqlx::query!("UPDATE owner_sessions SET revoked_at = now() WHERE owner_id = $1 AND revoked_at IS NULL", r.id)
            .execute(&mut *tx)
            .await?;
        crate::tenancy::auth::cache::announce(tx, "clear".into()).await?;
    }
    Ok(())
}

/// Failed sign-ins an account may have in a row before it must wait.
pub const FREE_FAILURES: i32 = 5;
/// The longest wait after failed sign-ins, in seconds.
pub const MAX_LOCK_SECS: i64 = 900;

/// Seconds an account waits after its `failures`-th failure in a row: none for the first
/// `FREE_FAILURES`, then 1, 2, 4, ... up to `MAX_LOCK_SECS`.
pub fn lock_secs(failures: i32) -> i64 {
    if failures < FREE_FAILURES {
        return 0;
    }
    1i64.checked_shl((failures - FREE_FAILURES) as u32).unwrap_or(MAX_LOCK_SECS).min(MAX_LOCK_SECS)
}

/// Checks an email and password; `None` for any mismatch (without saying which part). An
/// account with too many failures in a row answers 429 with the wait (`lock_secs`) before any
/// password is checked; a success clears its count.
pub async fn check_password(
    pool: &PgPool,
    email: &str,
    password_plain: String,
) -> miniclaw_core::Result<Option<(OwnerView, TenantView)>> {
    let key = email.trim().to_lowercase();
    not_locked(pool, &key).await?;
    let matched = verify_account(pool, email, password_plain).await?;
    if matched.is_some() {
        cleared(pool, &key).await?;
    } else {
        failed(pool, &key).await?;
    }
    Ok(matched)
}

/// 429 with the wait while `key` (an address in lower case, or a member's second-factor key)
/// has failed too often in a row (`lock_secs`).
pub(crate) async fn not_locked(pool: &PgPool, key: &str) -> miniclaw_core::Result<()> {
    let wait = sqlx::query_scalar!(
        r#"SELECT ceil(extract(epoch FROM locked_until - now()))::bigint AS "wait!" FROM login_failures
            WHERE email_key = $1 AND locked_until > now()"#,
        key
    )
    .fetch_optional(pool)
    .await?;
    if let Some(wait) = wait {
        return Err(Error::Limited {
            retry_after_secs: wait.max(1) as u64,
            message: Some("too many failed sign-ins for this account; wait before trying again".into()),
            reset_at: None,
        });
    }
    Ok(())
}

/// A success for `key`: its count starts over.
pub(crate) async fn cleared(pool: &PgPool, key: &str) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM login_failures WHERE email_key = $1", key).execute(pool).await?;
    Ok(())
}

/// One more failure in a row for `key`, and the wait it brings.
pub(crate) async fn failed(pool: &PgPool, key: &str) -> sqlx::Result<()> {
    let failures = sqlx::query_scalar!(
        "INSERT INTO login_failures AS f (email_key, failures, locked_until) VALUES ($1, 1, now())
         ON CONFLICT (email_key) DO UPDATE SET failures = f.failures + 1, last_failed_at = now()
         RETURNING failures",
        key
    )
    .fetch_one(pool)
    .await?;
    sqlx::query!(
        "UPDATE login_failures SET locked_until = now() + make_interval(secs => $2) WHERE email_key = $1",
        key,
        lock_secs(failures) as f64
    )
    .execute(pool)
    .await?;
    Ok(())
}

async fn verify_account(
    pool: &PgPool,
    email: &str,
    password_plain: String,
) -> miniclaw_core::Result<Option<(OwnerView, TenantView)>> {
    let row: Option<AccountRow> = sqlx::query_as(&format!("{ACCOUNT_SELECT} WHERE lower(o.email) = lower($1)"))
        .bind(email.trim())
        .fetch_optional(pool)
        .await?;
    let Some((account, Some(hash))) = row.map(|r| (r.clone(), r.password_hash)) else {
        // Same work as a real check, so response time does not reveal which emails exist.
        let _ = password::hash(password_plain).await;
        return Ok(None);
    };
    if !password::verify(password_plain, hash).await? {
        return Ok(None);
    }
    // Said only to whoever knows the password.
    account.not_suspended()?;
    Ok(Some(account.views()))
}

/// Whether `address` signs in to an account already (any member of any tenant).
pub async fn address_taken<'e>(db: impl sqlx::PgExecutor<'e>, address: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM owners WHERE lower(email) = lower($1)) AS "taken!""#,
        address.trim()
    )
    .fetch_one(db)
    .await
}

/// The signed-in owner and their tenant (from the process's cache when it holds them).
pub async fn me(pool: &PgPool, owner_id: UserId, tenant_id: TenantId) -> sqlx::Result<Account> {
    let cache = crate::tenancy::auth::cache::cache();
    if let Some(found) = cache.account(owner_id, tenant_id) {
        return Ok(found);
    }
    let generation = cache.generation();
    let row = sqlx::query!(
        r#"SELECT id AS "id: UserId", email, evm_address, created_at, email_verified_at IS NOT NULL AS "email_verified!"
             FROM owners WHERE id = $1 AND tenant_id = $2"#,
        owner_id as _,
        tenant_id as _
    )
    .fetch_one(pool)
    .await?;
    let tenant = sqlx::query_as!(TenantView, "SELECT id, name, created_at FROM tenants WHERE id = $1", tenant_id as _)
        .fetch_one(pool)
        .await?;
    let owner = OwnerView { id: row.id, email: row.email, evm_address: row.evm_address, created_at: row.created_at };
    let account = Account { owner, tenant, email_verified: row.email_verified };
    cache.put_account(generation, account.clone());
    Ok(account)
}

/// Signs in with a wallet signature over an owner-login challenge. The first sign-in of an
/// address creates its tenant and owner (`true` in the answer).
pub async fn wallet_sign_in(
    pool: &PgPool,
    nonce: &str,
    signed: &str,
    tenant_name_asked: Option<String>,
    request_id: Option<&str>,
    new: NewTenant,
) -> miniclaw_core::Result<(OwnerView, TenantView, bool)> {
    let Some(ch) = challenge::consume(pool, nonce, Purpose::OwnerLogin).await? else {
        return Err(Error::Unauthenticated("challenge is unknown, already used or expired; request a new one".into()));
    };
    let signer = signature::recover_evm(&ch.message, signed)
        .map_err(|e| Error::Unauthenticated(format!("invalid signature: {e}")))?;
    if signer != ch.identity {
        return Err(Error::Unauthenticated("signature was not made by the challenged address".into()));
    }
    let existing: Option<AccountRow> = sqlx::query_as(&format!("{ACCOUNT_SELECT} WHERE o.evm_address = $1"))
        .bind(&signer)
        .fetch_optional(pool)
        .await?;
    if let Some(account) = existing {
        account.not_suspended()?;
        let (owner, tenant) = account.views();
        return Ok((owner, tenant, false));
    }
    let name = tenant_name(tenant_name_asked, || format!("{}…'s workspace", &signer[..10]))?;
    let mut tx = pool.begin().await?;
    match insert_tenant_with_owner(&mut tx, &name, Credential::Wallet { address: &signer }, request_id, new).await {
        Ok((owner, tenant)) => {
            tx.commit().await?;
            Ok((owner, tenant, true))
        }
        // A concurrent first sign-in with the same wallet created the account a moment ago:
        // this one signs in to it.
        Err(Error::Conflict(m)) if m == WALLET_TAKEN => {
            tx.rollback().await?;
            let account: AccountRow = sqlx::query_as(&format!("{ACCOUNT_SELECT} WHERE o.evm_address = $1"))
                .bind(&signer)
                .fetch_one(pool)
                .await?;
            account.not_suspended()?;
            let (owner, tenant) = account.views();
            Ok((owner, tenant, false))
        }
        Err(e) => Err(e),
    }
}

const WALLET_TAKEN: &str = "this wallet already has an account";

/// How many owners the platform has (the embedded first start creates one when there are none).
pub async fn count_owners(pool: &PgPool) -> sqlx::Result<i64> {
    sqlx::query_scalar!(r#"SELECT count(*) AS "count!" FROM owners"#).fetch_one(pool).await
}

/// Whether one of the tenant's owners signs in with this EVM address (lower-case 0x).
pub async fn owner_wallet<'e>(db: impl sqlx::PgExecutor<'e>, tenant: TenantId, address: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM owners WHERE tenant_id = $1 AND evm_address = $2) AS "allowed!""#,
        tenant as _,
        address
    )
    .fetch_one(db)
    .await
}

/// Notes a sign-in of the owner.
pub async fn signed_in(pool: &PgPool, owner: UserId) -> sqlx::Result<()> {
    sqlx::query!("UPDATE owners SET last_login_at = now() WHERE id = $1", owner as _).execute(pool).await?;
    Ok(())
}

/// Locks the tenant's row until the transaction ends (orders the tenant's concurrent creations
/// of a limited thing); `false` when there is no such tenant.
pub async fn lock_tenant(conn: &mut PgConnection, tenant: TenantId) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!("SELECT 1 AS one FROM tenants WHERE id = $1 FOR UPDATE", tenant as _)
        .fetch_optional(conn)
        .await?
        .is_some())
}

/// When the tenant's account was opened; `None` if there is no such tenant.
/// Whether one of the account's owners proved their address, or the operator vouched for it:
/// until then its mail is held to `MINICLAW_EMAIL_UNPROVEN_DAILY` a day.
pub async fn proven(conn: &mut PgConnection, tenant: TenantId) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT t.vouched_at IS NOT NULL
                OR EXISTS (SELECT 1 FROM owners o WHERE o.tenant_id = t.id AND o.email_verified_at IS NOT NULL)
           FROM tenants t WHERE t.id = $1",
    )
    .bind(tenant)
    .fetch_optional(conn)
    .await
    .map(|p| p.unwrap_or(false))
}

pub async fn tenant_created(conn: &mut PgConnection, tenant: TenantId) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar!("SELECT created_at FROM tenants WHERE id = $1", tenant as _).fetch_optional(conn).await
}

/// Whether the tenant exists.
pub async fn tenant_exists(conn: &mut PgConnection, tenant: TenantId) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!("SELECT 1 AS one FROM tenants WHERE id = $1", tenant as _)
        .fetch_optional(conn)
        .await?
        .is_some())
}

/// The address the tenant's notifications go to: its first owner's verified email, if any has
/// one (no mail goes to an address nobody proved).
pub async fn owner_email(pool: &PgPool, tenant: TenantId) -> sqlx::Result<Option<String>> {
    Ok(sqlx::query_scalar!(
        "SELECT email FROM owners WHERE tenant_id = $1 AND email IS NOT NULL AND email_verified_at IS NOT NULL
            AND role = 'owner' AND removed_at IS NULL
          ORDER BY created_at LIMIT 1",
        tenant as _
    )
    .fetch_optional(pool)
    .await?
    .flatten())
}

/// The monthly dollar budget of tenant `tenant` (an SQL expression; float8, NULL: none), for
/// the gateway's limits.
pub fn monthly_budget_sql(tenant: &str) -> String {
    format!("(SELECT monthly_budget_usd FROM tenants WHERE id = {tenant})")
}

/// Whether tenant `tenant`'s account is established (an SQL expression; boolean, NULL when there
/// is no such tenant): the operator vouched for it, or one of its owners verified their email
/// and it is at least `days` (float8) days old. Until then it is new: the gateway holds it to a
/// new account's allowance.
pub fn established_sql(tenant: &str, days: &str) -> String {
    format!(
        "(SELECT t.vouched_at IS NOT NULL
                 OR (t.created_at <= now() - make_interval(days => coalesce({days}, 0)::int)
                     AND EXISTS (SELECT 1 FROM owners o WHERE o.tenant_id = t.id AND o.email_verified_at IS NOT NULL))
            FROM tenants t WHERE t.id = {tenant})"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_and_tenant_names_are_checked_once() {
        assert_eq!(validate_email(" ada@example.com ").unwrap(), "ada@example.com");
        for bad in ["ada", "@example.com", "ada@example", "ada@.com", "a da@example.com"] {
            assert!(validate_email(bad).is_err(), "{bad}");
        }
        assert_eq!(tenant_name(Some("  Lab ".into()), || "x".into()).unwrap(), "Lab");
        assert_eq!(tenant_name(Some("   ".into()), || "default".into()).unwrap(), "default");
        assert!(tenant_name(Some("x".repeat(TENANT_NAME_MAX + 1)), String::new).is_err());
    }
}
