//! The store behind idempotency keys (SPEC H5; the HTTP middleware is `miniclaw_http::idempotency`):
//! a key is held per credential (its SHA-256) with the SHA-256 of the request that took it, and
//! the answer once there is one, for `KEEP_HOURS`.

use sqlx::PgPool;

/// How long a key's answer is kept.
pub const KEEP_HOURS: i32 = 24;

/// What a key holds for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Held {
    /// The request took the key: it runs, then `keep` or `free`.
    Taken,
    /// The key answered this request before.
    Answered { status: u16, content_type: Option<String>, body: Vec<u8> },
    /// The key was used for another request.
    Reused,
    /// The request that took the key has not answered yet.
    Running,
}

/// Takes `key` of `credential` for `request`, or says what it holds. A key past its keeping
/// time is taken afresh.
pub async fn claim(pool: &PgPool, credential: &[u8], key: &str, request: &[u8]) -> sqlx::Result<Held> {
    loop {
        let taken = sqlx::query_scalar::<_, bool>(
            "INSERT INTO idempotency_keys AS k (credential, key, request) VALUES ($1, $2, $3)
             ON CONFLICT (credential, key) DO UPDATE
                SET request = excluded.request, status = NULL, content_type = NULL, body = NULL, created_at = now()
              WHERE k.created_at < now() - make_interval(hours => $4)
             RETURNING true",
        )
        .bind(credential)
        .bind(key)
        .bind(request)
        .bind(KEEP_HOURS)
        .fetch_optional(pool)
        .await?;
        if taken.is_some() {
            return Ok(Held::Taken);
        }
        type Row = (Vec<u8>, Option<i16>, Option<String>, Option<Vec<u8>>);
        let row: Option<Row> = sqlx::query_as(
            "SELECT request, status, content_type, body FROM idempotency_keys WHERE credential = $1 AND key = $2",
        )
        .bind(credential)
        .bind(key)
        .fetch_optional(pool)
        .await?;
        return Ok(match row {
            // Freed between the two statements (its request failed): try to take it again.
            None => continue,
            Some((r, ..)) if r != request => Held::Reused,
            Some((_, None, ..)) => Held::Running,
            Some((_, Some(status), content_type, body)) => {
                Held::Answered { status: status as u16, content_type, body: body.unwrap_or_default() }
            }
        });
    }
}

/// Keeps the answer to the request holding `key`.
pub async fn keep(
    pool: &PgPool,
    credential: &[u8],
    key: &str,
    status: u16,
    content_type: Option<&str>,
    body: &[u8],
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE idempotency_keys SET status = $3, content_type = $4, body = $5 WHERE credential = $1 AND key = $2",
    )
    .bind(credential)
    .bind(key)
    .bind(status as i16)
    .bind(content_type)
    .bind(body)
    .execute(pool)
    .await?;
    Ok(())
}

/// Frees `key`: its request answered with nothing worth repeating (a server error, a stream).
pub async fn free(pool: &PgPool, credential: &[u8], key: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM idempotency_keys WHERE credential = $1 AND key = $2")
        .bind(credential)
        .bind(key)
        .execute(pool)
        .await?;
    Ok(())
}

/// Deletes the kept answers that name any of `ids` (an erased person's conversations and
/// messages: a kept chat reply holds what was said). Returns how many.
pub async fn forget_mentions(conn: &mut sqlx::PgConnection, ids: &[uuid::Uuid]) -> sqlx::Result<u64> {
    if ids.is_empty() {
        return Ok(0);
    }
    let needles: Vec<String> = ids.iter().map(|id| format!("%{id}%")).collect();
    Ok(sqlx::query("DELETE FROM idempotency_keys WHERE body IS NOT NULL AND encode(body, 'escape') LIKE ANY($1)")
        .bind(&needles)
        .execute(conn)
        .await?
        .rows_affected())
}

/// Deletes the keys past their keeping time (the `idempotency_retention` cycle). Returns how many.
pub async fn purge(pool: &PgPool) -> sqlx::Result<u64> {
    Ok(sqlx::query("DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)")
        .bind(KEEP_HOURS)
        .execute(pool)
        .await?
        .rows_affected())
}
