//! Passwords an owner manages themselves (SPEC H3): changing it (the current one must match;
//! every other session of the owner ends) and resetting a forgotten one by a single-use link
//! mailed to the owner's address (valid an hour; following it sets the new password, proves
//! the address and ends every session). Asking for a link says the same whether or not the
//! address has an account, so it reveals none.

use serde_json::json;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{TenantId, UserId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;

use super::auth::password;
use super::verify::{self, Purpose};

/// Checks a new password's length (`password::MIN_LEN`–`MAX_LEN` characters).
pub fn check_new(field: &str, password_plain: &str) -> Result<(), Error> {
    Error::check_length(field, password_plain, password::MAX_LEN)?;
    let len = password_plain.chars().count();
    if !(password::MIN_LEN..=password::MAX_LEN).contains(&len) {
        return Err(Error::validation(
            field,
            format!("{field} must be {}–{} characters", password::MIN_LEN, password::MAX_LEN),
        ));
    }
    Ok(())
}

/// Stores `hash` as the owner's password, clears their failed sign-ins and ends their
/// sessions but `keep`, with `action` in the tenant's activity. Returns the sessions ended.
async fn set(
    tx: &mut PgConnection,
    owner: UserId,
    tenant: TenantId,
    hash: &str,
    keep: Option<Uuid>,
    origin: &Origin,
    action: &str,
) -> Result<u64, Error> {
    let email = sqlx::query_scalar!(
        "UPDATE owners SET password_hash = $3 WHERE id = $1 AND tenant_id = $2 RETURNING email",
        owner as _,
        tenant as _,
        hash
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::not_found("account"))?;
    if let Some(e) = email {
        sqlx::query!("DELETE FROM login_failures WHERE email_key = lower($1)", e).execute(&mut *tx).await?;
    }
    let ended = sqlx::query!(
        "UPDATE owner_sessions SET revoked_at = now()
          WHERE owner_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2)",
        owner as _,
        keep
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    activity::record_tenant(tx, tenant, None, origin, action, json!({ "sessions_ended": ended })).await?;
    // Every process forgets the sessions and the account it holds.
    super::auth::cache::announce(tx, "clear".into()).await?;
    Ok(ended)
}

/// Changes the signed-in owner's password (`current` must be it; 403 `wrong_password`
/// otherwise, 422 for an account that signs in with a wallet). Every other session of the
/// owner ends; `session` goes on. Returns how many ended.
pub async fn change(
    pool: &PgPool,
    owner: UserId,
    tenant: TenantId,
    session: Uuid,
    origin: &Origin,
    current: String,
    new: String,
) -> Result<u64, Error> {
    check_new("new_password", &new)?;
    Error::check_length("current_password", &current, password::MAX_LEN)?;
    let stored = sqlx::query_scalar!(
        "SELECT password_hash FROM owners WHERE id = $1 AND tenant_id = $2",
        owner as _,
        tenant as _
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("account"))?;
    let Some(stored) = stored else {
        return Err(Error::Unprocessable {
            code: "no_password",
            message: "this account signs in with a wallet and has no password".into(),
            details: None,
        });
    };
    if !password::verify(current, stored).await? {
        return Err(Error::Refused { code: "wrong_password", message: "the current password is not right".into() });
    }
    let hash = password::hash(new).await?;
    let mut tx = pool.begin().await?;
    let ended = set(&mut tx, owner, tenant, &hash, Some(session), origin, "owner.password_changed").await?;
    tx.commit().await?;
    Ok(ended)
}

/// Checks the member's password before a step that cannot be taken back (closing the
/// account): required when they have one (403 `wrong_password`); a wallet member has none.
pub async fn confirm(
    pool: &PgPool,
    owner: UserId,
    tenant: TenantId,
    password_plain: Option<String>,
) -> Result<(), Error> {
    let stored = sqlx::query_scalar!(
        "SELECT password_hash FROM owners WHERE id = $1 AND tenant_id = $2 AND removed_at IS NULL",
        owner as _,
        tenant as _
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("account"))?;
    let Some(stored) = stored else { return Ok(()) };
    let given = password_plain
        .filter(|p| !p.is_empty())
        .ok_or_else(|| Error::validation("password", "your password is required"))?;
    Error::check_length("password", &given, password::MAX_LEN)?;
    if !password::verify(given, stored).await? {
        return Err(Error::Refused { code: "wrong_password", message: "the password is not right".into() });
    }
    Ok(())
}

/// Mails a reset link to `email` when it is an account's address and the platform sends mail
/// (503 when it sends none). Whether it is one is not said: unknown addresses, and a second
/// ask within a minute, answer the same.
pub async fn ask_reset(deps: &Deps, email: &str) -> Result<(), Error> {
    if !deps.email.configured() {
        return Err(Error::Unavailable("the platform sends no mail; ask its operator to reset the password".into()));
    }
    Error::check_length("email", email, 254)?;
    let owner = sqlx::query!(
        r#"SELECT id AS "id: UserId", tenant_id AS "tenant_id: TenantId", email AS "email!" FROM owners
            WHERE lower(email) = lower($1) AND email IS NOT NULL"#,
        email.trim()
    )
    .fetch_optional(&deps.pool)
    .await?;
    if let Some(o) = owner {
        match verify::send_link(deps, o.tenant_id, Some(o.id), Purpose::PasswordReset, &o.email).await {
            Ok(()) | Err(Error::Limited { .. }) => {}
            Err(Error::Internal(e)) => return Err(Error::Internal(e)),
            Err(e) => tracing::warn!(owner.id = %o.id, error = %e, "a password reset link was not sent"),
        }
    }
    Ok(())
}

/// Follows a reset link: sets `new` as the password of the owner it was mailed to (while the
/// address is still theirs), proves the address, and ends every session. 400 for a token that
/// is unknown, used or expired.
pub async fn reset(pool: &PgPool, token: &str, new: String, request_id: Option<&str>) -> Result<(), Error> {
    check_new("password", &new)?;
    let hash = password::hash(new).await?;
    let mut tx = pool.begin().await?;
    let Some(link) = verify::consume(&mut tx, token, Purpose::PasswordReset).await? else {
        return Err(verify::invalid_link());
    };
    let owner = link.owner.ok_or_else(verify::invalid_link)?;
    let proven = sqlx::query!(
        "UPDATE owners SET email_verified_at = coalesce(email_verified_at, now())
          WHERE id = $1 AND tenant_id = $2 AND lower(email) = lower($3)",
        owner as _,
        link.tenant as _,
        link.address
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if proven == 0 {
        return Err(Error::Conflict(format!("{} is no longer the address of the account", link.address)));
    }
    let origin = Origin::new(miniclaw_core::actor::Actor::Owner(owner), request_id.map(str::to_string));
    set(&mut tx, owner, link.tenant, &hash, None, &origin, "owner.password_reset").await?;
    tx.commit().await?;
    Ok(())
}

/// Asks for `new_email` to become the signed-in owner's address (SPEC H3): the current
/// password must match when the account has one; a link is mailed to the new address, and
/// nothing changes until it is followed (`verify::confirm`). 409 when the address is another
/// account's, 503 when the platform sends no mail. Returns the address the link went to.
pub async fn change_email(
    deps: &Deps,
    owner: UserId,
    tenant: TenantId,
    origin: &Origin,
    current: Option<String>,
    new_email: &str,
) -> Result<String, Error> {
    let address = super::accounts::validate_email(new_email)?;
    if !deps.email.configured() {
        return Err(Error::Unavailable("this platform sends no email, so a new address cannot be proven".into()));
    }
    let row = sqlx::query!(
        "SELECT email, password_hash FROM owners WHERE id = $1 AND tenant_id = $2 AND removed_at IS NULL",
        owner as _,
        tenant as _
    )
    .fetch_optional(&deps.pool)
    .await?
    .ok_or_else(|| Error::not_found("account"))?;
    if let Some(stored) = row.password_hash {
        let current =
            current.ok_or_else(|| Error::validation("current_password", "the current password is required"))?;
        Error::check_length("current_password", &current, password::MAX_LEN)?;
        if !password::verify(current, stored).await? {
            return Err(Error::Refused { code: "wrong_password", message: "the current password is not right".into() });
        }
    }
    if row.email.as_deref().is_some_and(|e| e.eq_ignore_ascii_case(&address)) {
        return Err(Error::Conflict(format!("{address} is this account's address already")));
    }
    if super::accounts::address_taken(&deps.pool, &address).await? {
        return Err(address_taken(&address));
    }
    let mut tx = deps.pool.begin().await?;
    verify::send_link_in(&mut tx, deps, tenant, Some(owner), Purpose::EmailChange, &address).await?;
    activity::record_tenant(&mut tx, tenant, None, origin, "owner.email_change_asked", json!({ "to": address }))
        .await?;
    tx.commit().await?;
    Ok(address)
}

fn address_taken(address: &str) -> Error {
    Error::Conflict(format!("{address} is another miniclaw account's address"))
}

/// Makes `address` the owner's, proven (a followed email-change link), inside `tx`; `false`
/// when the owner is gone. 409 when another account took the address meanwhile.
pub(super) async fn take_address(
    tx: &mut PgConnection,
    owner: UserId,
    tenant: TenantId,
    address: &str,
) -> Result<bool, Error> {
    if super::accounts::address_taken(&mut *tx, address).await? {
        return Err(address_taken(address));
    }
    let old = sqlx::query_scalar!(
        "WITH old AS (SELECT email FROM owners WHERE id = $1 AND tenant_id = $2 AND removed_at IS NULL FOR UPDATE)
         UPDATE owners o SET email = $3, email_verified_at = now()
           FROM old WHERE o.id = $1 RETURNING old.email",
        owner as _,
        tenant as _,
        address
    )
    .fetch_optional(&mut *tx)
    .await?;
    let Some(old) = old else { return Ok(false) };
    let origin = Origin::new(miniclaw_core::actor::Actor::Owner(owner), None);
    activity::record_tenant(tx, tenant, None, &origin, "owner.email_changed", json!({ "from": old, "to": address }))
        .await?;
    super::auth::cache::announce(tx, "clear".into()).await?;
    Ok(true)
}
