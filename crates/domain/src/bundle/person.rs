//! One end user of an agent taken out, or erased (SPEC H2). The export holds everything the
//! agent keeps about them: their conversations with every message, the memories learned from
//! them with every version, and the log entries about them. The erase removes their text
//! everywhere it is kept — conversations, messages, summaries, memories and every version
//! snapshot, tombstones, search postings and the term statistics only they made, vectors,
//! per-turn analytics, the agent's mood towards them, proactive items, webhook payloads, queued
//! jobs, kept idempotent answers, cached pages — and leaves counts: the log says that an end
//! user was erased and how much went, never who or what.

use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use serde::Serialize;
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::chat::people::{self as chat_people, ConversationOfPerson};
use crate::memory::people::{self as memory_people, MemoryOfPerson};
use miniclaw_platform::activity::{self, ActivityEntry, Origin};

/// Everything the agent keeps about one end user.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PersonExport {
    /// `miniclaw.end_user`.
    pub format: &'static str,
    pub agent_id: AgentId,
    pub end_user: String,
    pub exported_at: DateTime<Utc>,
    pub conversations: Vec<ConversationOfPerson>,
    pub memories: Vec<MemoryOfPerson>,
    pub activity: Vec<ActivityEntry>,
}

/// Everything the agent keeps about `end_user` (an empty export for someone it never met).
pub async fn export(pool: &PgPool, agent: AgentId, end_user: &str) -> Result<PersonExport, Error> {
    let conversations = chat_people::export(pool, agent, end_user).await?;
    let memories = memory_people::export(pool, agent, end_user).await?;
    let ids: Vec<Uuid> = conversations.iter().map(|c| c.id).collect();
    let activity = activity::about_end_user(pool, agent, end_user, &ids).await?;
    Ok(PersonExport {
        format: "miniclaw.end_user",
        agent_id: agent,
        end_user: end_user.to_string(),
        exported_at: Utc::now(),
        conversations,
        memories,
        activity,
    })
}

/// What an erase removed: counts only.
#[derive(Debug, Clone, Copy, Default, Serialize, ToSchema)]
pub struct Erased {
    pub conversations: u64,
    pub messages: u64,
    pub memories: u64,
    pub memory_versions: u64,
    pub tombstones: u64,
    pub imports: u64,
    pub keys_revoked: u64,
    pub webhook_deliveries: u64,
    pub jobs: u64,
    pub kept_answers: u64,
    pub log_entries_scrubbed: u64,
}

/// Erases everything the agent keeps about `end_user`, in one transaction. The agent's log
/// gains `end_user.erased` with the counts and a short digest of the id (so that a second
/// request for the same person can be matched), never the id itself.
pub async fn erase(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    end_user: &str,
    origin: &Origin,
) -> Result<Erased, Error> {
    let mut tx = pool.begin().await?;
    let chat = chat_people::erase(&mut tx, agent, end_user).await?;
    let memory = memory_people::erase(&mut tx, agent, end_user, &chat.conversations).await?;
    crate::analytics::forget_turns(&mut tx, agent, &chat.conversations, &chat.messages).await?;
    crate::cognition::affect::forget_end_user(&mut tx, agent, end_user).await?;
    let webhook_deliveries =
        crate::channels::forget_end_user(&mut tx, agent, end_user, &chat.conversations, &chat.messages).await?;
    let mut named: Vec<Uuid> = chat.conversations.iter().chain(&chat.messages).copied().collect();
    named.extend(&memory.ids);
    let jobs = miniclaw_platform::jobs::forget::forget_mentions(&mut tx, agent, &named).await?;
    let said: Vec<Uuid> = chat.conversations.iter().chain(&chat.messages).copied().collect();
    let kept_answers = miniclaw_platform::idempotency::forget_mentions(&mut tx, &said).await?;
    let log_entries_scrubbed = activity::scrub_end_user(&mut tx, agent, end_user, &chat.conversations).await?;
    let erased = Erased {
        conversations: chat.conversations.len() as u64,
        messages: chat.messages.len() as u64,
        memories: memory.ids.len() as u64,
        memory_versions: memory.versions,
        tombstones: memory.tombstones,
        imports: chat.imports,
        keys_revoked: chat.keys_revoked,
        webhook_deliveries,
        jobs,
        kept_answers,
        log_entries_scrubbed,
    };
    let digest = hex::encode(&Sha256::digest(end_user.as_bytes())[..8]);
    let mut details = serde_json::to_value(erased).unwrap_or_default();
    details["end_user_digest"] = json!(digest);
    activity::record_agent(&mut tx, tenant, agent, origin, "end_user.erased", details).await?;
    tx.commit().await?;
    crate::tenancy::auth::cache::cache().forget_pages(Some(agent));
    Ok(erased)
}
