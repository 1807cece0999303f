//! What each API key's work used (SPEC H4): the model calls made for it, day by day, from the
//! usage log, and its day's dollars spent and held, the row its daily cap is judged on.

use chrono::NaiveDate;
use miniclaw_core::ids::KeyId;
use serde::Serialize;
use sqlx::PgPool;
use utoipa::ToSchema;

/// One UTC day of a key's model calls.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct KeyDay {
    pub day: NaiveDate,
    pub calls: i64,
    pub errors: i64,
    pub prompt_tokens: i64,
    pub completion_tokens: i64,
    pub cost_usd: f64,
}

/// A key's usage over its last days, newest first, and where it stands today.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KeyUsage {
    pub key_id: KeyId,
    /// Days with calls, newest first.
    pub days: Vec<KeyDay>,
    /// Dollars the key's work cost today (UTC), as its daily cap counts them.
    pub today_spent_usd: f64,
    /// Dollars held today by the key's work in progress (its replies being written).
    pub today_held_usd: f64,
}

/// Key `key`'s usage over the last `days` UTC days (today included).
pub async fn of_key(pool: &PgPool, key: KeyId, days: u32) -> sqlx::Result<KeyUsage> {
    let rows: Vec<KeyDay> = sqlx::query_as(
        "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS calls,
                count(*) FILTER (WHERE finish_reason = 'error') AS errors,
                coalesce(sum(prompt_tokens), 0)::bigint AS prompt_tokens,
                coalesce(sum(completion_tokens), 0)::bigint AS completion_tokens,
                coalesce(sum(cost_usd), 0)::float8 AS cost_usd
           FROM llm_usage_logs
          WHERE key_id = $1 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                                                - make_interval(days => $2 - 1)
          GROUP BY 1 ORDER BY 1 DESC",
    )
    .bind(key)
    .bind(days as i32)
    .fetch_all(pool)
    .await?;
    let today = sqlx::query!(
        "SELECT cost_usd, reserved_usd FROM llm_key_daily_usage WHERE key_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date",
        key as _
    )
    .fetch_optional(pool)
    .await?;
    let (today_spent_usd, today_held_usd) = today.map_or((0.0, 0.0), |t| (t.cost_usd, t.reserved_usd));
    Ok(KeyUsage { key_id: key, days: rows, today_spent_usd, today_held_usd })
}

/// Dollars each of `keys` spent today (UTC), as their daily caps count them; a key that spent
/// nothing is absent. One statement for a page of keys.
pub async fn spent_today(pool: &PgPool, keys: &[KeyId]) -> sqlx::Result<std::collections::HashMap<KeyId, f64>> {
    let ids: Vec<uuid::Uuid> = keys.iter().map(|k| k.0).collect();
    let rows: Vec<(uuid::Uuid, f64)> = sqlx::query_as(
        "SELECT key_id, cost_usd FROM llm_key_daily_usage
          WHERE key_id = ANY($1) AND day = (now() AT TIME ZONE 'UTC')::date",
    )
    .bind(&ids)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|(k, usd)| (KeyId(k), usd)).collect())
}
