//! Feedback on a reply (SPEC X5): good or bad, or a correction. A rating applies the REINFORCE
//! update of 002 §3.3 over the whole traversal path stored with the reply. A correction is
//! stored as a memory of its own, reached from the question's seeds and from the wrong memory
//! by strong edges, and vetoes the memory it corrects by an inhibitory edge: wherever the
//! correction fires, the wrong memory is dropped. Deleting the correction's memory removes its edges, and with them the veto.

use miniclaw_core::ids::{AgentId, ConversationId, MemoryId, MessageId};
use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Caller;
use crate::memory::{self, MemorySource, graph, ingest, supersede, vector};
use crate::runtime::Runtime;
use miniclaw_core::Error;

/// Longest correction, in characters.
pub const CORRECTION_MAX: usize = 2_000;
/// A correction's veto of the memory it corrects: its weight, and the prior it fades to
/// (still inhibitory: an owner's correction does not wear off).
pub const VETO_WEIGHT: f64 = -0.9;
pub const VETO_PRIOR: f64 = -0.5;
/// The edges from the question's seeds to the correction: reflex, fading to habitual.
pub const SUPPORT_WEIGHT: f64 = 0.7;
pub const SUPPORT_PRIOR: f64 = 0.5;

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedbackInput {
    /// `good` or `bad`; a correction implies `bad`.
    pub rating: Option<String>,
    /// What the reply should have said (1–2,000 characters): stored as a memory, and the memory
    /// it corrects is vetoed on this path. Owners, and keys with `memories:write`.
    pub correction: Option<String>,
    /// The memories of the reply the correction is about (at most 10, each one the reply used
    /// or traversal fired). Default: the used memory most similar to the correction.
    pub memory_ids: Option<Vec<MemoryId>>,
}

/// The feedback a reply has, and what it changed.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Feedback {
    pub message_id: MessageId,
    /// `good` or `bad`.
    pub rating: String,
    pub correction: Option<String>,
    /// The memory the correction was stored as.
    pub correction_memory_id: Option<MemoryId>,
    /// The memories the correction vetoes.
    pub inhibited: Vec<MemoryId>,
    /// Edges the rating moved (every outgoing edge of every node on the path).
    pub edges_updated: i32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

struct Valid {
    good: bool,
    correction: Option<String>,
    memory_ids: Vec<MemoryId>,
}

fn validate(input: FeedbackInput) -> miniclaw_core::Result<Valid> {
    let correction = input.correction.map(|c| c.trim().to_string());
    if let Some(c) = &correction {
        if c.is_empty() {
            return Err(Error::validation("correction", "the correction is empty"));
        }
        Error::check_length("correction", c, CORRECTION_MAX)?;
    }
    let good = match (input.rating.as_deref(), &correction) {
        (Some("good"), Some(_)) => {
            return Err(Error::validation("rating", "a correction comes with a `bad` rating (or none)"));
        }
        (Some("good"), None) => true,
        (Some("bad"), _) | (None, Some(_)) => false,
        (None, None) => return Err(Error::validation("rating", "give a rating (`good` or `bad`) or a correction")),
        (Some(other), _) => {
            return Err(Error::validation("rating", format!("`{other}` is not a rating: `good` or `bad`")));
        }
    };
    let mut memory_ids = input.memory_ids.unwrap_or_default();
    memory_ids.sort();
    memory_ids.dedup();
    if !memory_ids.is_empty() && correction.is_none() {
        return Err(Error::validation("memory_ids", "memory_ids name what a correction is about; give the correction"));
    }
    if memory_ids.len() > 10 {
        return Err(Error::validation("memory_ids", "at most 10 memories"));
    }
    Ok(Valid { good, correction, memory_ids })
}

/// Rates (or corrects) reply `message_id` of conversation `conversation_id`, which the caller
/// must be able to see. `may_correct`: whether the caller may write memories.
pub async fn give(
    state: &Runtime,
    caller: &Caller,
    conversation_id: ConversationId,
    message_id: MessageId,
    input: FeedbackInput,
    may_correct: bool,
) -> miniclaw_core::Result<Feedback> {
    let v = validate(input)?;
    if v.correction.is_some() && !may_correct {
        return Err(Error::Refused {
            code: "missing_scope",
            message: "a correction writes a memory: it needs the `memories:write` scope".into(),
        });
    }
    let (pool, agent_id) = (state.pool(), caller.agent_id);
    super::conversation(pool, agent_id, &caller.audience(), conversation_id).await?;
    let row = sqlx::query!(
        "SELECT role, status, meta FROM chat_messages
          WHERE agent_id = $1 AND conversation_id = $2 AND id = $3",
        agent_id as _,
        conversation_id as _,
        message_id as _
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Error::not_found("message"))?;
    if row.role != "assistant" || row.status != "complete" {
        return Err(Error::Conflict(format!(
            "only a finished reply of the agent can be rated; this is a {} message ({})",
            row.role, row.status
        )));
    }
    // Read leniently: a reply stored before traversal existed has no path, and nothing to learn.
    let path: graph::Trace = serde_json::from_value(row.meta["traversal"].clone()).unwrap_or_default();
    let used_by: Vec<Used> = row.meta["memories_used"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| {
            Some(Used {
                id: m["id"].as_str()?.parse().ok()?,
                found_by: m["found_by"].as_str().unwrap_or_default().to_string(),
                relevance: m["relevance"].as_f64().unwrap_or(0.5),
            })
        })
        .collect();
    let used: Vec<MemoryId> = used_by.iter().map(|u| u.id).collect();
    let on_reply: HashSet<MemoryId> = used.iter().copied().chain(path.fired().map(|n| n.id)).collect();
    if let Some(id) = v.memory_ids.iter().find(|id| !on_reply.contains(id)) {
        return Err(Error::validation("memory_ids", format!("{id} is not a memory this reply used")));
    }
    // Embedded before the transaction: no lock waits on the model.
    let embedding = match &v.correction {
        Some(c) => ingest::embed_all(state, std::slice::from_ref(c)).await.pop().flatten(),
        None => None,
    };

    let mut tx = pool.begin().await?;
    let before = sqlx::query!(
        "SELECT rating, correction FROM message_feedback WHERE agent_id = $1 AND message_id = $2 FOR UPDATE",
        agent_id as _,
        message_id as _
    )
    .fetch_optional(&mut *tx)
    .await?;
    let rate = match &before {
        None => true,
        // A bad rating may be followed by its correction (learned once, corrected now).
        Some(b) if b.rating == "bad" && b.correction.is_none() && v.correction.is_some() => false,
        Some(b) => {
            return Err(Error::Conflict(format!(
                "this reply already has feedback ({}{}); a bad rating can only be followed by a correction",
                b.rating,
                if b.correction.is_some() { ", corrected" } else { "" }
            )));
        }
    };
    graph::ensure(&mut tx, agent_id).await?;
    let mut edges_updated = 0;
    if rate && !path.steps.is_empty() {
        let mut nodes: Vec<MemoryId> = path.steps.iter().map(|s| s.from).collect();
        nodes.sort();
        nodes.dedup();
        let outgoing = graph::outgoing_for_update(&mut tx, agent_id, &nodes).await?;
        let deltas = graph::reinforce(&path.steps, &outgoing, v.good, &graph::Learning::default());
        edges_updated = graph::learn(&mut tx, agent_id, &deltas).await? as i32;
    }
    let (mut correction_memory_id, mut inhibited) = (None, Vec::new());
    if let Some(text) = &v.correction {
        let wrong = if v.memory_ids.is_empty() {
            corrected(&mut tx, agent_id, &used_by, embedding.as_ref()).await?.into_iter().collect()
        } else {
            v.memory_ids.clone()
        };
        let category = match wrong.first() {
            Some(id) => {
                memory::get(pool, agent_id, *id).await.map(|m| m.category).unwrap_or_else(|_| "knowledge".into())
            }
            None => "knowledge".into(),
        };
        memory::check_room(&mut tx, agent_id, 1, state.deps().caps.memories_per_agent).await?;
        let input = ingest::MemoryInput {
            content: text.clone(),
            category,
            importance: Some(7.0),
            confidence: Some(1.0),
            pinned: false,
            expires_at: None,
            occurred_at: None,
        };
        let source = if caller.audience().owner { MemorySource::Owner } else { MemorySource::Api };
        let new = ingest::new_memory(input, source, embedding);
        let (c, _) =
            supersede::create_current(&mut tx, agent_id, &caller.origin, new, Some("a correction of a reply")).await?;
        // The question's seeds, and the wrong memory itself, lead to the correction; the
        // correction vetoes what it corrects (so wherever the wrong memory comes up, the
        // correction comes with it and takes its place).
        let seeds: Vec<MemoryId> = if path.seeds.is_empty() {
            used_by.iter().filter(|u| u.found_by == "vector").take(4).map(|u| u.id).collect()
        } else {
            path.seeds.iter().map(|n| n.id).collect()
        };
        let mut from: Vec<MemoryId> = seeds.into_iter().filter(|s| !wrong.contains(s)).collect();
        from.extend(wrong.iter().copied());
        let support: Vec<(MemoryId, MemoryId)> = from.iter().map(|s| (*s, c.id)).collect();
        graph::set_edges(&mut tx, agent_id, &support, "correction", SUPPORT_WEIGHT, SUPPORT_PRIOR).await?;
        let vetoes: Vec<(MemoryId, MemoryId)> = wrong.iter().map(|w| (c.id, *w)).collect();
        graph::set_edges(&mut tx, agent_id, &vetoes, "correction", VETO_WEIGHT, VETO_PRIOR).await?;
        correction_memory_id = Some(c.id);
        inhibited = wrong;
    }
    graph::count_feedback(&mut tx, agent_id, rate, v.good, v.correction.is_some()).await?;
    let feedback = sqlx::query_as!(
        Feedback,
        r#"INSERT INTO message_feedback AS f (agent_id, message_id, rating, correction, correction_memory_id, inhibited,
                                               edges_updated, actor)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (agent_id, message_id) DO UPDATE
              SET correction = excluded.correction, correction_memory_id = excluded.correction_memory_id,
                  inhibited = excluded.inhibited, updated_at = now()
           RETURNING message_id AS "message_id: MessageId", rating, correction,
                     correction_memory_id AS "correction_memory_id: MemoryId", inhibited AS "inhibited: Vec<MemoryId>",
                     edges_updated, created_at, updated_at"#,
        agent_id as _,
        message_id as _,
        if v.good { "good" } else { "bad" },
        v.correction,
        correction_memory_id as _,
        &inhibited as _,
        edges_updated,
        caller.origin.actor.kind(),
    )
    .fetch_one(&mut *tx)
    .await?;
    let details = serde_json::json!({
        "message_id": message_id, "rating": feedback.rating, "edges_updated": edges_updated,
        "correction_memory_id": correction_memory_id, "inhibited": inhibited,
    });
    miniclaw_platform::activity::record_agent(
        &mut tx,
        caller.tenant_id,
        agent_id,
        &caller.origin,
        "reply.feedback",
        details,
    )
    .await?;
    tx.commit().await?;
    Ok(feedback)
}

/// The feedback a reply has, if any (the caller must see its conversation).
pub async fn get(
    state: &Runtime,
    caller: &Caller,
    conversation_id: ConversationId,
    message_id: MessageId,
) -> miniclaw_core::Result<Option<Feedback>> {
    super::conversation(state.pool(), caller.agent_id, &caller.audience(), conversation_id).await?;
    Ok(sqlx::query_as!(
        Feedback,
        r#"SELECT f.message_id AS "message_id: MessageId", rating, correction,
                  correction_memory_id AS "correction_memory_id: MemoryId", inhibited AS "inhibited: Vec<MemoryId>",
                  edges_updated, f.created_at, f.updated_at
             FROM message_feedback f JOIN chat_messages m ON m.id = f.message_id AND m.conversation_id = $3
            WHERE f.agent_id = $1 AND f.message_id = $2"#,
        caller.agent_id as _,
        message_id as _,
        conversation_id as _
    )
    .fetch_optional(state.pool())
    .await?)
}

/// The feedback of each of `ids` that has some (the chat page).
pub async fn for_messages(
    pool: &sqlx::PgPool,
    agent_id: AgentId,
    ids: &[MessageId],
) -> sqlx::Result<std::collections::HashMap<MessageId, Feedback>> {
    let rows = sqlx::query_as!(
        Feedback,
        r#"SELECT message_id AS "message_id: MessageId", rating, correction,
                  correction_memory_id AS "correction_memory_id: MemoryId", inhibited AS "inhibited: Vec<MemoryId>",
                  edges_updated, created_at, updated_at
             FROM message_feedback WHERE agent_id = $1 AND message_id = ANY($2)"#,
        agent_id as _,
        ids as _
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|f| (f.message_id, f)).collect())
}

/// A memory the reply used, as its metadata keeps it.
struct Used {
    id: MemoryId,
    found_by: String,
    /// Its relevance to the question (0.5 when found by recency).
    relevance: f64,
}

/// The used memory a correction most likely corrects: the one that answered the question best
/// and is nearest to the correction, by the sum of its relevance to the question and its
/// similarity to the correction's vector (0 without one).
async fn corrected(
    conn: &mut sqlx::PgConnection,
    agent_id: AgentId,
    used: &[Used],
    embedding: Option<&(Vec<f32>, String)>,
) -> sqlx::Result<Option<MemoryId>> {
    let mut similarity: std::collections::HashMap<MemoryId, f64> = std::collections::HashMap::new();
    if let Some((v, model)) = embedding {
        let ids: Vec<MemoryId> = used.iter().map(|u| u.id).collect();
        similarity.extend(vector::similarities(conn, agent_id, &ids, v, model).await?);
    }
    let score = |u: &Used| u.relevance + similarity.get(&u.id).copied().unwrap_or(0.0);
    Ok(used.iter().max_by(|a, b| score(a).total_cmp(&score(b))).map(|u| u.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(rating: Option<&str>, correction: Option<&str>) -> FeedbackInput {
        FeedbackInput {
            rating: rating.map(str::to_string),
            correction: correction.map(str::to_string),
            memory_ids: None,
        }
    }

    #[test]
    fn ratings_and_corrections_are_checked() {
        assert!(validate(input(Some("good"), None)).unwrap().good);
        assert!(!validate(input(Some("bad"), None)).unwrap().good);
        assert!(!validate(input(None, Some("She works at Globex now"))).unwrap().good);
        let twice = MemoryId::new();
        let v = validate(FeedbackInput { memory_ids: Some(vec![twice, twice]), ..input(None, Some("x")) }).unwrap();
        assert_eq!(v.memory_ids, [twice], "a memory named twice is corrected once");
        for bad in [
            input(None, None),
            input(Some("meh"), None),
            input(Some("good"), Some("x")),
            input(None, Some("   ")),
            input(None, Some(&"x".repeat(CORRECTION_MAX + 1))),
            FeedbackInput { rating: Some("bad".into()), correction: None, memory_ids: Some(vec![MemoryId::new()]) },
        ] {
            assert!(validate(bad).is_err());
        }
    }
}
