//! A second factor (SPEC H3): time-based one-time passwords (RFC 6238: HMAC-SHA1, 30-second
//! steps, 6 digits, as every authenticator app makes them) with ten single-use recovery codes.
//!
//! Setting it up gives a secret (base32, and as an `otpauth://` address for a QR code) that
//! is sealed under the platform's key and takes effect only once a code made from it is
//! confirmed. From then on, signing in with a password or a wallet asks for a code (or a
//! recovery code) before a session starts. A code's time step is used once; wrong codes count
//! like wrong passwords (the same growing wait). Turning it off needs a code too.

use chrono::Utc;
use rand::RngCore;
use serde::Serialize;
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use utoipa::ToSchema;

use miniclaw_core::Error;
use miniclaw_core::ids::{TenantId, UserId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;

/// Seconds per time step.
pub const STEP_SECS: i64 = 30;
/// Digits of a code.
pub const DIGITS: u32 = 6;
/// Steps either side of now a code is still taken from (clocks drift, people type slowly).
const SKEW: i64 = 1;
/// Recovery codes made at a time.
pub const RECOVERY_CODES: usize = 10;
const SEALED_AS: &str = "totp_secret";

/// RFC 4648 base32 without padding (how authenticator apps take a secret).
pub fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &b in bytes {
        buffer = (buffer << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((buffer >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    out
}

/// The code of `secret` for time step `step` (RFC 4226's HOTP with the step as counter).
pub fn code_for_step(secret: &[u8], step: i64, digits: u32) -> String {
    use hmac::Mac;
    let mut mac = hmac::Hmac::<sha1::Sha1>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(&step.to_be_bytes());
    let digest = mac.finalize().into_bytes();
    let offset = (digest[digest.len() - 1] & 0x0f) as usize;
    let binary =
        u32::from_be_bytes([digest[offset] & 0x7f, digest[offset + 1], digest[offset + 2], digest[offset + 3]]);
    format!("{:0width$}", binary % 10u32.pow(digits), width = digits as usize)
}

/// The code of `secret` at `unix_secs`.
pub fn code_at(secret: &[u8], unix_secs: i64) -> String {
    code_for_step(secret, unix_secs.div_euclid(STEP_SECS), DIGITS)
}

/// A secret being set up: shown once, to put in an authenticator app.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = SecondFactorSetup)]
pub struct Setup {
    /// The shared secret in base32.
    pub secret: String,
    /// The same as an `otpauth://totp/...` address (what a QR code for the app holds).
    pub otpauth_url: String,
}

/// Whether the member's second factor is on, and how many recovery codes are left.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = SecondFactorStatus)]
pub struct Status {
    pub enabled: bool,
    pub recovery_codes_left: i64,
}

fn wrong_code() -> Error {
    Error::Refused { code: "wrong_code", message: "that code is not right (or was used already)".into() }
}

fn hash_code(code: &str) -> Vec<u8> {
    Sha256::digest(code.trim().to_ascii_lowercase().replace(' ', "").as_bytes()).to_vec()
}

/// The member's second factor: on or off, recovery codes left.
pub async fn status(pool: &PgPool, owner: UserId) -> sqlx::Result<Status> {
    let r = sqlx::query!(
        r#"SELECT o.totp_enabled_at IS NOT NULL AS "enabled!",
                  (SELECT count(*) FROM owner_recovery_codes c WHERE c.owner_id = o.id AND c.used_at IS NULL) AS "left!"
             FROM owners o WHERE o.id = $1"#,
        owner as _
    )
    .fetch_one(pool)
    .await?;
    Ok(Status { enabled: r.enabled, recovery_codes_left: r.left })
}

/// Whether signing in as `owner` needs a code.
pub async fn required(pool: &PgPool, owner: UserId) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!(r#"SELECT totp_enabled_at IS NOT NULL AS "on!" FROM owners WHERE id = $1"#, owner as _)
        .fetch_optional(pool)
        .await?
        .unwrap_or(false))
}

/// Makes a new secret for the member to confirm (replacing one set up before and not
/// confirmed). 409 when a second factor is on already.
pub async fn setup(deps: &Deps, owner: UserId, tenant: TenantId) -> Result<Setup, Error> {
    let mut secret = [0u8; 20];
    rand::rng().fill_bytes(&mut secret);
    let sealed = deps.vault.seal(SEALED_AS, &secret);
    let account = sqlx::query_scalar!(
        r#"UPDATE owners SET totp_pending = $3 WHERE id = $1 AND tenant_id = $2 AND totp_enabled_at IS NULL
           RETURNING coalesce(email, evm_address, id::text) AS "label!""#,
        owner as _,
        tenant as _,
        sealed
    )
    .fetch_optional(&deps.pool)
    .await?
    .ok_or_else(|| Error::Conflict("a second factor is on already; turn it off first to set up another".into()))?;
    let secret = base32(&secret);
    let label: String = url::form_urlencoded::byte_serialize(format!("miniclaw:{account}").as_bytes()).collect();
    let otpauth_url = format!(
        "otpauth://totp/{label}?secret={secret}&issuer=miniclaw&algorithm=SHA1&digits={DIGITS}&period={STEP_SECS}"
    );
    Ok(Setup { secret, otpauth_url })
}

/// Which secret a code is checked against.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Pending,
    Enabled,
}

/// Whether `code` is a current code of the member's secret, not used before (its step is
/// then used up).
async fn code_ok(deps: &Deps, owner: UserId, which: Which, code: &str) -> Result<bool, Error> {
    let code = code.trim().replace(' ', "");
    if code.len() != DIGITS as usize || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(false);
    }
    let row = sqlx::query!("SELECT totp_secret, totp_pending, totp_last_step FROM owners WHERE id = $1", owner as _)
        .fetch_optional(&deps.pool)
        .await?;
    let Some(row) = row else { return Ok(false) };
    let sealed = match which {
        Which::Pending => row.totp_pending,
        Which::Enabled => row.totp_secret,
    };
    let Some(sealed) = sealed else { return Ok(false) };
    let secret = deps.vault.open(SEALED_AS, &sealed).map_err(|e| Error::Internal(anyhow::anyhow!("{e}")))?.plain;
    let now = Utc::now().timestamp().div_euclid(STEP_SECS);
    let Some(step) = (now - SKEW..=now + SKEW).find(|s| {
        use subtle::ConstantTimeEq;
        code_for_step(&secret, *s, DIGITS).as_bytes().ct_eq(code.as_bytes()).into()
    }) else {
        return Ok(false);
    };
    // A step is used once: a code seen (or phished) cannot be played again.
    let fresh = sqlx::query!(
        "UPDATE owners SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)",
        owner as _,
        step
    )
    .execute(&deps.pool)
    .await?
    .rows_affected()
        == 1;
    Ok(fresh)
}

/// Uses up a recovery code of the member; `false` when it is not one of theirs or was used.
async fn recovery_ok(pool: &PgPool, owner: UserId, code: &str) -> sqlx::Result<bool> {
    Ok(sqlx::query!(
        "UPDATE owner_recovery_codes SET used_at = now() WHERE owner_id = $1 AND code_hash = $2 AND used_at IS NULL",
        owner as _,
        hash_code(code)
    )
    .execute(pool)
    .await?
    .rows_affected()
        == 1)
}

/// The failure count of a member's codes (kept with the sign-in failures).
fn lock_key(owner: UserId) -> String {
    format!("totp:{owner}")
}

/// Checks a code (or a recovery code) of the member's second factor, counting failures like
/// wrong passwords: 429 while locked, 403 `wrong_code` for a wrong one.
pub async fn check(deps: &Deps, owner: UserId, code: &str) -> Result<(), Error> {
    Error::check_length("code", code, 64)?;
    let key = lock_key(owner);
    super::accounts::not_locked(&deps.pool, &key).await?;
    let ok = code_ok(deps, owner, Which::Enabled, code).await? || recovery_ok(&deps.pool, owner, code).await?;
    if ok {
        super::accounts::cleared(&deps.pool, &key).await?;
        Ok(())
    } else {
        super::accounts::failed(&deps.pool, &key).await?;
        Err(wrong_code())
    }
}

/// New recovery codes for the member (the old ones stop working), inside `tx`.
async fn new_recovery_codes(tx: &mut sqlx::PgConnection, owner: UserId) -> sqlx::Result<Vec<String>> {
    sqlx::query!("DELETE FROM owner_recovery_codes WHERE owner_id = $1", owner as _).execute(&mut *tx).await?;
    let mut codes = Vec::with_capacity(RECOVERY_CODES);
    for _ in 0..RECOVERY_CODES {
        let mut raw = [0u8; 5];
        rand::rng().fill_bytes(&mut raw);
        let hex = hex::encode(raw);
        let code = format!("{}-{}", &hex[..5], &hex[5..]);
        sqlx::query!(
            "INSERT INTO owner_recovery_codes (owner_id, code_hash) VALUES ($1, $2)",
            owner as _,
            hash_code(&code)
        )
        .execute(&mut *tx)
        .await?;
        codes.push(code);
    }
    Ok(codes)
}

/// Turns the second factor on with a code of the secret being set up; returns the recovery
/// codes (shown once). 403 `wrong_code`; 409 when nothing is being set up.
pub async fn enable(
    deps: &Deps,
    owner: UserId,
    tenant: TenantId,
    origin: &Origin,
    code: &str,
) -> Result<Vec<String>, Error> {
    Error::check_length("code", code, 64)?;
    let key = lock_key(owner);
    super::accounts::not_locked(&deps.pool, &key).await?;
    if !code_ok(deps, owner, Which::Pending, code).await? {
        super::accounts::failed(&deps.pool, &key).await?;
        return Err(wrong_code());
    }
    super::accounts::cleared(&deps.pool, &key).await?;
    let mut tx = deps.pool.begin().await?;
    let on = sqlx::query!(
        "UPDATE owners SET totp_secret = totp_pending, totp_pending = NULL, totp_enabled_at = now()
          WHERE id = $1 AND tenant_id = $2 AND totp_pending IS NOT NULL",
        owner as _,
        tenant as _
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if on == 0 {
        return Err(Error::Conflict("no second factor is being set up; start again".into()));
    }
    let codes = new_recovery_codes(&mut tx, owner).await?;
    activity::record_tenant(&mut tx, tenant, None, origin, "owner.second_factor_on", json!({})).await?;
    tx.commit().await?;
    Ok(codes)
}

/// New recovery codes, with a current code (or a recovery code): the old ones stop working.
pub async fn renew_recovery_codes(
    deps: &Deps,
    owner: UserId,
    tenant: TenantId,
    origin: &Origin,
    code: &str,
) -> Result<Vec<String>, Error> {
    if !required(&deps.pool, owner).await? {
        return Err(Error::Conflict("the second factor is off".into()));
    }
    check(deps, owner, code).await?;
    let mut tx = deps.pool.begin().await?;
    let codes = new_recovery_codes(&mut tx, owner).await?;
    activity::record_tenant(&mut tx, tenant, None, origin, "owner.recovery_codes_renewed", json!({})).await?;
    tx.commit().await?;
    Ok(codes)
}

/// Turns the second factor off, with a current code (or a recovery code).
pub async fn disable(deps: &Deps, owner: UserId, tenant: TenantId, origin: &Origin, code: &str) -> Result<(), Error> {
    if !required(&deps.pool, owner).await? {
        return Err(Error::Conflict("the second factor is off already".into()));
    }
    check(deps, owner, code).await?;
    let mut tx = deps.pool.begin().await?;
    sqlx::query!(
        "UPDATE owners SET totp_secret = NULL, totp_pending = NULL, totp_enabled_at = NULL, totp_last_step = NULL
          WHERE id = $1 AND tenant_id = $2",
        owner as _,
        tenant as _
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!("DELETE FROM owner_recovery_codes WHERE owner_id = $1", owner as _).execute(&mut *tx).await?;
    activity::record_tenant(&mut tx, tenant, None, origin, "owner.second_factor_off", json!({})).await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238, appendix B: the SHA-1 vectors (secret "12345678901234567890", 8 digits).
    #[test]
    fn codes_match_the_rfcs_vectors() {
        let secret = b"12345678901234567890";
        for (time, code) in [
            (59, "94287082"),
            (1111111109, "07081804"),
            (1111111111, "14050471"),
            (1234567890, "89005924"),
            (2000000000, "69279037"),
            (20000000000, "65353130"),
        ] {
            assert_eq!(code_for_step(secret, time / STEP_SECS, 8), code, "at {time}");
        }
        assert_eq!(code_at(secret, 59), "287082", "six digits are the last six");
    }

    #[test]
    fn secrets_are_base32_as_rfc_4648_writes_it() {
        assert_eq!(base32(b""), "");
        assert_eq!(base32(b"f"), "MY");
        assert_eq!(base32(b"foobar"), "MZXW6YTBOI");
        assert_eq!(base32(b"12345678901234567890"), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    }
}
