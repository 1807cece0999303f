//! Behavioural signals (SPEC X8, 000 §4.4): per agent, how its users write, as exponential
//! moving averages over irregular time, `w = 1 − 2^(−Δt / 7 days)`:
//! - **frequency**: messages per day, from the gap to the previous message;
//! - **session depth**: the message's turn number in its conversation;
//! - **topic switching**: the share of messages whose vector is far from the previous
//!   message's (cosine < 0.3); only messages that were embedded count;
//! - **message length** in characters.
//!
//! Until the time weight catches up, each message weighs at least `1/n` (the n-th message):
//! the first few messages give their plain mean instead of sticking to the first value. The
//! statement that finishes a chat turn does the update (`update_sql`): no extra round trip.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use miniclaw_core::ids::AgentId;

/// The half-life of every signal, in days.
pub const HALF_LIFE_DAYS: f64 = 7.0;
/// Consecutive messages less similar than this switch topic.
pub const TOPIC_SWITCH_COSINE: f64 = 0.3;
/// Gaps shorter than this count as this (a burst is not infinitely frequent).
pub const MIN_GAP_SECS: f64 = 60.0;
/// The messages must span this long before their frequency is shown as a rate per day.
pub const RATE_MIN_SPAN_HOURS: i64 = 24;

/// The upsert of the finishing statement, as a CTE body over its parameters: `$2` the agent,
/// `$41` the turn number, `$42` the message's characters, `$43` its vector (or NULL), `$44` the
/// embedding model; only when the reply was stored (`reply` CTE).
pub fn update_sql() -> String {
    let half_life_secs = HALF_LIFE_DAYS * 86_400.0;
    // The weight of the new observation: by time, at least 1/n.
    let w = format!(
        "greatest(1 - power(0.5, greatest(extract(epoch FROM now() - s.last_at), 0) / {half_life_secs}), \
         1.0 / (s.messages + 1))"
    );
    let switched = format!(
        "CASE WHEN $43::vector IS NOT NULL AND s.last_vector IS NOT NULL AND s.last_model = $44
                   AND vector_dims(s.last_vector) = vector_dims($43::vector)
              THEN ((1 - (s.last_vector <=> $43::vector)) < {TOPIC_SWITCH_COSINE})::int::float8 END"
    );
    format!(
        "INSERT INTO behaviour_signals AS s (agent_id, messages, frequency_per_day, session_depth, topic_switch_rate,
                message_chars, last_vector, last_model, last_at)
            SELECT $2, 1, 0, $41, NULL, $42, $43::vector, $44, now() WHERE EXISTS (SELECT 1 FROM reply)
            ON CONFLICT (agent_id) DO UPDATE SET
               messages = s.messages + 1,
               frequency_per_day = {w} * (86400.0 / greatest(extract(epoch FROM now() - s.last_at), {MIN_GAP_SECS}))
                                   + (1 - {w}) * s.frequency_per_day,
               session_depth = {w} * $41 + (1 - {w}) * s.session_depth,
               topic_switch_rate = CASE WHEN {switched} IS NULL THEN s.topic_switch_rate
                                        WHEN s.topic_switch_rate IS NULL THEN {switched}
                                        ELSE {w} * {switched} + (1 - {w}) * s.topic_switch_rate END,
               message_chars = {w} * $42 + (1 - {w}) * s.message_chars,
               last_vector = $43::vector, last_model = $44, last_at = now()"
    )
}

/// An agent's behavioural signals.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Signals {
    pub messages: i64,
    /// Messages per day; `null` until the messages span a day (`RATE_MIN_SPAN_HOURS`): a
    /// burst of messages over a few minutes is not a daily rate.
    pub frequency_per_day: Option<f64>,
    /// Turns per conversation, as reached by its messages.
    pub session_depth: f64,
    /// Share of messages that switched topic; `null` until two consecutive messages had vectors.
    pub topic_switch_rate: Option<f64>,
    /// Characters per user message.
    pub message_chars: f64,
    /// The first message seen.
    pub first_at: DateTime<Utc>,
    pub last_at: DateTime<Utc>,
    pub half_life_days: f64,
}

/// The agent's signals, or `None` before its first chat turn.
pub async fn get(pool: &sqlx::PgPool, agent_id: AgentId) -> sqlx::Result<Option<Signals>> {
    Ok(sqlx::query!(
        "SELECT messages, frequency_per_day, session_depth, topic_switch_rate, message_chars, first_at, last_at
           FROM behaviour_signals WHERE agent_id = $1",
        agent_id as _
    )
    .fetch_optional(pool)
    .await?
    .map(|r| Signals {
        messages: r.messages,
        frequency_per_day: (r.last_at - r.first_at >= chrono::Duration::hours(RATE_MIN_SPAN_HOURS))
            .then_some(r.frequency_per_day),
        session_depth: r.session_depth,
        topic_switch_rate: r.topic_switch_rate,
        message_chars: r.message_chars,
        first_at: r.first_at,
        last_at: r.last_at,
        half_life_days: HALF_LIFE_DAYS,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_update_weighs_by_time_and_names_its_parameters() {
        let sql = update_sql();
        for p in ["$2", "$41", "$42", "$43", "$44"] {
            assert!(sql.contains(p), "{p}");
        }
        assert!(sql.contains("604800"), "a 7-day half-life in seconds");
        assert!(sql.contains("1.0 / (s.messages + 1)"), "warm-up weight");
    }
}
