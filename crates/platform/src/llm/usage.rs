//! The `llm_usage_logs` row written for every call attempt (SPEC M3), token counting when the
//! provider does not report usage, and the metrics by role and model.

use miniclaw_core::ids::{AgentId, KeyId, MessageId, TenantId};
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, OnceLock};

use sqlx::PgPool;
use uuid::Uuid;

use super::{FinishReason, Message, Role, Usage};

/// One attempt, as logged.
#[derive(Debug, Clone)]
pub struct UsageRecord {
    pub agent_id: Option<AgentId>,
    pub tenant_id: Option<TenantId>,
    pub role: Role,
    pub background: bool,
    pub provider: String,
    pub model: String,
    pub usage: Usage,
    pub tokens_estimated: bool,
    pub latency_ms: u64,
    pub finish_reason: FinishReason,
    pub cost_usd: Option<f64>,
    pub error: Option<String>,
    pub request_id: Option<String>,
    /// The tenant's account is new: its spend also counts toward its daily allowance and the
    /// new accounts' share of the platform's day.
    pub new_account: bool,
    /// The chat turn whose reservation counts the call's tokens (`CallContext::held_by`).
    pub held_by: Option<MessageId>,
    /// The API key the call was made for (`CallContext::key_id`).
    pub key_id: Option<KeyId>,
}

/// The per-(agent, hour, role, provider, model) aggregate of the usage log between `$1` and `$2`
/// (timestamptz), of the agents `$3` (uuid[]; NULL: all) of tenant `$4` (NULL: any), each row
/// with its agent's tenant, `tenant_of` (an SQL expression over `x.agent_id`; rows whose agent
/// is gone are left out). The columns of `analytics_llm_hourly`.
pub fn hourly_sql(tenant_of: &str) -> String {
    format!(
        "SELECT x.agent_id, x.hour, x.role, x.provider, x.model, t.tenant_id, x.calls, x.errors, x.prompt_tokens,
                x.completion_tokens, x.cost_usd, x.latency_ms_sum
           FROM (SELECT u.agent_id, date_trunc('hour', u.created_at) AS hour, u.role, u.provider, u.model,
                        count(*)::int AS calls, count(*) FILTER (WHERE u.finish_reason = 'error')::int AS errors,
                        sum(u.prompt_tokens)::bigint AS prompt_tokens, sum(u.completion_tokens)::bigint AS completion_tokens,
                        sum(u.cost_usd)::float8 AS cost_usd, sum(u.latency_ms)::bigint AS latency_ms_sum
                   FROM llm_usage_logs u
                  WHERE u.agent_id IS NOT NULL AND u.created_at >= $1 AND u.created_at < $2
                    AND ($3::uuid[] IS NULL OR u.agent_id = ANY($3))
                  GROUP BY 1, 2, 3, 4, 5) x
           CROSS JOIN LATERAL (SELECT {tenant_of} AS tenant_id) t
          WHERE t.tenant_id IS NOT NULL AND ($4::uuid IS NULL OR t.tenant_id = $4)"
    )
}

/// Writes the log row and adds it to its hold (`reservations`), or, for a call of no held work,
/// to the agent's daily, the tenant's monthly and the platform's daily totals, in one statement
/// (one round trip, one commit).
pub async fn record(pool: &PgPool, r: &UsageRecord) -> sqlx::Result<()> {
    sqlx::query_scalar!(
        "WITH log AS (
            INSERT INTO llm_usage_logs (id, agent_id, tenant_id, role, background, provider, model, prompt_tokens,
                completion_tokens, tokens_estimated, latency_ms, finish_reason, cost_usd, priced, error, request_id,
                key_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $19)
            RETURNING created_at
         ), held AS (
            -- A call of held work counts on its hold; settling the hold adds it to the books
            -- (`reservations`), so the work's calls do not queue on those rows.
            UPDATE llm_turn_reservations SET used = used + $8::bigint + $9::bigint, used_usd = used_usd + $13
             WHERE agent_id = coalesce($2, '00000000-0000-0000-0000-000000000000') AND reply_id = $18 RETURNING 1
         ), key_total AS (
            -- Paid work of a key outside a hold counts toward the key's day at once.
            INSERT INTO llm_key_daily_usage AS u (key_id, day, cost_usd)
            SELECT $19, (created_at AT TIME ZONE 'UTC')::date, $13 FROM log
             WHERE $19::uuid IS NOT NULL AND $13 > 0 AND NOT EXISTS (SELECT 1 FROM held)
            ON CONFLICT (key_id, day) DO UPDATE SET cost_usd = u.cost_usd + excluded.cost_usd
         ), agent_total AS (
            INSERT INTO llm_agent_daily_usage AS u (agent_id, day, tokens)
            SELECT $2, (created_at AT TIME ZONE 'UTC')::date, $8::bigint + $9::bigint FROM log
             WHERE $2 IS NOT NULL AND NOT EXISTS (SELECT 1 FROM held)
            ON CONFLICT (agent_id, day) DO UPDATE SET tokens = u.tokens + excluded.tokens
         ), tenant_total AS (
            INSERT INTO llm_tenant_monthly_usage AS u (tenant_id, month, cost_usd)
            SELECT $3, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, $13 FROM log
             -- A free call (the offline engine) changes nothing: it does not take the tenant's
             -- row lock, which every call of the tenant would queue on.
             WHERE $3 IS NOT NULL AND $13 > 0 AND NOT EXISTS (SELECT 1 FROM held)
            ON CONFLICT (tenant_id, month) DO UPDATE SET cost_usd = u.cost_usd + excluded.cost_usd
         ), new_account_total AS (
            INSERT INTO llm_tenant_daily_usage AS u (tenant_id, day, cost_usd)
            SELECT $3, (created_at AT TIME ZONE 'UTC')::date, $13 FROM log
             WHERE $17 AND $3 IS NOT NULL AND $13 > 0 AND NOT EXISTS (SELECT 1 FROM held)
            ON CONFLICT (tenant_id, day) DO UPDATE SET cost_usd = u.cost_usd + excluded.cost_usd
         ), platform_total AS (
            INSERT INTO llm_platform_spend AS u (day, cost_usd, new_cost_usd)
            SELECT (created_at AT TIME ZONE 'UTC')::date, $13, CASE WHEN $17 THEN $13 ELSE 0 END
              FROM log WHERE $13 > 0 AND NOT EXISTS (SELECT 1 FROM held)
            ON CONFLICT (day) DO UPDATE
               SET cost_usd = u.cost_usd + excluded.cost_usd, new_cost_usd = u.new_cost_usd + excluded.new_cost_usd
         )
         SELECT 1",
        Uuid::now_v7(),
        r.agent_id as _,
        r.tenant_id as _,
        r.role.as_str(),
        r.background,
        r.provider,
        r.model,
        r.usage.prompt_tokens as i32,
        r.usage.completion_tokens as i32,
        r.tokens_estimated,
        r.latency_ms.min(i32::MAX as u64) as i32,
        r.finish_reason.as_str(),
        r.cost_usd.unwrap_or(0.0),
        r.cost_usd.is_some(),
        r.error.as_deref(),
        r.request_id.as_deref(),
        r.new_account,
        r.held_by as _,
        r.key_id as _
    )
    .fetch_one(pool)
    .await?;

    let (role, model) = (r.role.as_str(), r.model.clone());
    let outcome = if r.error.is_some() { "error" } else { "ok" };
    metrics::counter!("llm_calls_total", "role" => role, "provider" => r.provider.clone(), "model" => model.clone(), "outcome" => outcome).increment(1);
    let provider = r.provider.clone();
    metrics::counter!("llm_tokens_total", "role" => role, "provider" => provider.clone(), "model" => model.clone(), "kind" => "prompt")
        .increment(r.usage.prompt_tokens as u64);
    metrics::counter!("llm_tokens_total", "role" => role, "provider" => provider.clone(), "model" => model.clone(), "kind" => "completion")
        .increment(r.usage.completion_tokens as u64);
    metrics::histogram!("llm_call_duration_seconds", "role" => role, "provider" => provider.clone())
        .record(r.latency_ms as f64 / 1000.0);
    // Dollar amounts are fractional; a gauge that only ever increases serves as the counter.
    metrics::gauge!("llm_cost_usd_total", "role" => role, "provider" => provider, "model" => model)
        .increment(r.cost_usd.unwrap_or(0.0));
    Ok(())
}

fn bpe() -> &'static tiktoken_rs::CoreBPE {
    static BPE: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().expect("the o200k_base vocabulary ships with tiktoken-rs"))
}

/// Tokens of a text with the o200k_base vocabulary (OpenAI's current models). Counts of longer
/// texts are remembered by a hash of the text, since history messages and memories are counted
/// again on every turn (docs/BENCHMARKS.md "Token counting"): at most `COUNT_CACHE` of them,
/// starting over when full.
pub fn count_tokens(text: &str) -> u32 {
    if text.len() < COUNT_CACHE_FROM {
        return count_uncached(text);
    }
    let key = {
        use std::hash::{BuildHasher, BuildHasherDefault};
        // A fixed-key SipHash of the text and its length: 64 bits, the same in every process.
        (BuildHasherDefault::<std::hash::DefaultHasher>::default().hash_one(text), text.len())
    };
    static COUNTS: LazyLock<Mutex<HashMap<(u64, usize), u32>>> = LazyLock::new(Mutex::default);
    if let Some(n) = COUNTS.lock().ok().and_then(|c| c.get(&key).copied()) {
        return n;
    }
    let n = count_uncached(text);
    if let Ok(mut counts) = COUNTS.lock() {
        if counts.len() >= COUNT_CACHE {
            counts.clear();
        }
        counts.insert(key, n);
    }
    n
}

/// Texts shorter than this are counted every time (a lookup would cost about as much).
const COUNT_CACHE_FROM: usize = 64;
const COUNT_CACHE: usize = 16_384;

/// `count_tokens` without the cache.
pub fn count_uncached(text: &str) -> u32 {
    bpe().encode_with_special_tokens(text).len() as u32
}

/// Prompt tokens of a message list: the text plus the chat format's ~4 tokens per message.
pub fn count_prompt_tokens(messages: &[Message]) -> u32 {
    messages
        .iter()
        .map(|m| {
            let calls = m.tool_calls.iter().map(|c| count_tokens(&c.name) + count_tokens(&c.arguments) + 4);
            (count_tokens(&m.content) + 4).saturating_add(calls.fold(0, u32::saturating_add))
        })
        .fold(3u32, u32::saturating_add)
}

/// Prompt tokens of a whole request: its messages (`count_prompt_tokens`) and the functions it
/// offers the model, counted as the JSON they are sent as (a client may send many large ones).
pub fn count_request_tokens(req: &super::ChatRequest) -> u32 {
    count_prompt_tokens(&req.messages).saturating_add(count_tools_tokens(&req.tools))
}

/// Tokens of function definitions as sent to a provider (name, description and schema).
pub fn count_tools_tokens(tools: &[super::Tool]) -> u32 {
    tools
        .iter()
        .map(|t| count_tokens(&t.name) + count_tokens(&t.description) + count_tokens(&t.parameters.to_string()) + 8)
        .fold(0u32, u32::saturating_add)
}

/// The agent's model use over the last `days` days, by role and model: `(role, model, calls,
/// tokens)`, the most-called first.
pub async fn by_role(pool: &PgPool, agent: AgentId, days: i32) -> sqlx::Result<Vec<(String, String, i64, i64)>> {
    let rows = sqlx::query!(
        r#"SELECT role, model, count(*) AS "calls!",
                  coalesce(sum(prompt_tokens + completion_tokens), 0)::bigint AS "tokens!" FROM llm_usage_logs
          WHERE agent_id = $1 AND created_at > now() - make_interval(days => $2) GROUP BY 1, 2 ORDER BY 3 DESC"#,
        agent as _,
        days
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|r| (r.role, r.model, r.calls, r.tokens)).collect())
}

/// A closed account is purged (SPEC H2): its usage rows and its agents' go, and the days of the
/// keys its calls were made with. In the caller's transaction.
pub async fn forget_tenant(conn: &mut sqlx::PgConnection, tenant: TenantId, agents: &[uuid::Uuid]) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM llm_key_daily_usage WHERE key_id IN (
            SELECT key_id FROM llm_usage_logs WHERE (tenant_id = $1 OR agent_id = ANY($2)) AND key_id IS NOT NULL)",
        tenant as _,
        agents
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("DELETE FROM llm_usage_logs WHERE tenant_id = $1 OR agent_id = ANY($2)", tenant as _, agents)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("DELETE FROM llm_agent_daily_usage WHERE agent_id = ANY($1)", agents).execute(&mut *conn).await?;
    sqlx::query!("DELETE FROM llm_tenant_daily_usage WHERE tenant_id = $1", tenant as _).execute(&mut *conn).await?;
    sqlx::query!("DELETE FROM llm_tenant_monthly_usage WHERE tenant_id = $1", tenant as _).execute(&mut *conn).await?;
    sqlx::query!("DELETE FROM llm_turn_reservations WHERE tenant_id = $1 OR agent_id = ANY($2)", tenant as _, agents)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Deletes usage logs older than 30 days (001 §7.8), and daily totals no budget reads any
/// more (monthly totals are kept: they are the tenant's spending history).
pub async fn delete_older_than_30_days(pool: &PgPool) -> sqlx::Result<u64> {
    sqlx::query!("DELETE FROM llm_agent_daily_usage WHERE day < (now() AT TIME ZONE 'UTC')::date - 30")
        .execute(pool)
        .await?;
    sqlx::query!("DELETE FROM llm_key_daily_usage WHERE day < (now() AT TIME ZONE 'UTC')::date - 30")
        .execute(pool)
        .await?;
    Ok(sqlx::query!("DELETE FROM llm_usage_logs WHERE created_at < now() - interval '30 days'")
        .execute(pool)
        .await?
        .rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_tokens_with_a_real_tokenizer() {
        assert_eq!(count_tokens(""), 0);
        let n = count_tokens("My name is Alice and I live in Vienna.");
        assert!((8..=12).contains(&n), "{n}");
        let long = "word ".repeat(1000);
        assert!(count_tokens(&long) >= 900);
        assert!(count_prompt_tokens(&[Message::user("hi")]) >= 5);
    }

    #[test]
    fn a_remembered_count_is_the_count() {
        let texts = [
            "The user's sister Maria lives in Lisbon and works as an architect there.".to_string(),
            "emoji 🦀 and ünïcödé text, long enough to be remembered by the cache here".repeat(3),
        ];
        for text in &texts {
            let first = count_tokens(text);
            assert_eq!(first, count_uncached(text));
            assert_eq!(count_tokens(text), first, "from the cache");
        }
        assert_ne!(count_tokens(&texts[0]), count_tokens(&texts[1]));
    }
}
