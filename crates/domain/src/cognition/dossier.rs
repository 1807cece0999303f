//! The knowledge dossier (SPEC C4): the agent's live memories compiled into one markdown
//! document (`## Index`, a heading per category, overlaps merged, contradictions resolved,
//! under 600 words) from at most 12,000 characters of input, newest memories first. Chat uses
//! it instead of a per-message memory search while it is newer than the last memory change.
//! Extraction asks for a recompilation, debounced: 60 s after the last change, at most 5
//! minutes after the first.

use chrono::{DateTime, Utc};
use miniclaw_core::ids::{AgentId, TenantId};
use serde::Serialize;
use serde_json::json;
use sqlx::PgPool;
use utoipa::ToSchema;

use super::actions;
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::llm::roles::Compile;
use miniclaw_platform::llm::{CallContext, ChatRequest};

pub const INPUT_CHARS: usize = 12_000;
pub const MAX_WORDS: usize = 600;
pub const DEBOUNCE_SECS: i64 = 60;
pub const MAX_WAIT_SECS: i64 = 300;

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct Dossier {
    pub agent_id: AgentId,
    pub content: String,
    /// The snapshot time: memories changed after it make the dossier stale.
    pub compiled_at: DateTime<Utc>,
    pub memories: i32,
    pub input_chars: i32,
    pub words: i32,
    pub engine: String,
    pub model: String,
}

/// The dossier with whether chat would use it now.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DossierState {
    pub dossier: Dossier,
    /// No memory changed since it was compiled.
    pub fresh: bool,
}

/// The agent's dossier text while no memory changed since it was compiled (an SQL expression
/// over agent `agent`; text, NULL otherwise), for the statement that prepares a chat turn.
pub fn fresh_sql(agent: &str) -> String {
    let changed = crate::memory::sql::changed_at(agent);
    format!(
        "(SELECT d.content FROM agent_dossiers d
           WHERE d.agent_id = {agent} AND d.compiled_at >= coalesce({changed}, '-infinity'))"
    )
}

/// The agent's dossier, unless a memory was forgotten since it was compiled: then its text may
/// still quote what is gone, and it stays hidden until recompiled (`memory_forgotten`).
pub async fn get(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<Option<DossierState>> {
    let (changed, forgotten) = crate::memory::corpus_changes(pool, agent_id).await?;
    let row = sqlx::query!(
        r#"SELECT agent_id AS "agent_id: AgentId", content, compiled_at, memories, input_chars, words, engine, model
             FROM agent_dossiers WHERE agent_id = $1 AND compiled_at >= coalesce($2, '-infinity'::timestamptz)"#,
        agent_id as _,
        forgotten
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|r| DossierState {
        dossier: Dossier {
            agent_id: r.agent_id,
            content: r.content,
            compiled_at: r.compiled_at,
            memories: r.memories,
            input_chars: r.input_chars,
            words: r.words,
            engine: r.engine,
            model: r.model,
        },
        fresh: changed.is_none_or(|c| r.compiled_at >= c),
    }))
}

/// Adds `## Index` (linking the document's headings) when the model left it out.
pub fn ensure_index(markdown: &str) -> String {
    let text = markdown.trim();
    if text.starts_with("## Index") {
        return text.to_string();
    }
    let headings: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("## ")).map(str::trim).collect();
    let mut out = String::from("## Index\n");
    for h in &headings {
        out.push_str(&format!("- {h}\n"));
    }
    out.push('\n');
    out.push_str(text);
    out
}

/// Cuts a document to at most `max` words at a line boundary.
pub fn cap_words(markdown: &str, max: usize) -> String {
    let mut out = String::new();
    let mut words = 0;
    for line in markdown.lines() {
        let n = line.split_whitespace().count();
        if words + n > max {
            break;
        }
        words += n;
        out.push_str(line);
        out.push('\n');
    }
    out.trim_end().to_string()
}

/// Compiles the dossier now. `Ok(None)` when the agent has no live memories.
pub async fn compile(
    deps: &Deps,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    background: bool,
) -> anyhow::Result<Option<Dossier>> {
    let (pool, llm) = (&deps.pool, deps.llm.as_ref());
    let started_at = Utc::now();
    let mut conn = pool.acquire().await?;
    let all = actions::snapshot(&mut conn, agent_id, 1000).await?;
    drop(conn);
    // Newest first, up to 12,000 characters of input.
    let mut used = 0usize;
    let snapshot: Vec<_> = all
        .into_iter()
        .take_while(|m| {
            used += m.content.chars().count() + m.category.len() + 4;
            used <= INPUT_CHARS
        })
        .collect();
    if snapshot.is_empty() {
        return Ok(None);
    }
    let input_chars: usize = snapshot.iter().map(|m| m.content.chars().count()).sum();
    let req = ChatRequest::from_input(Compile { memories: actions::memories_input(&snapshot) });
    let ctx = CallContext::for_agent(tenant_id, agent_id, origin).background(background);
    let answer = llm.complete(&ctx, req).await?;
    let content = cap_words(&ensure_index(&answer.content), MAX_WORDS);
    let words = content.split_whitespace().count();
    let engine = match answer.engine {
        miniclaw_platform::llm::Engine::Model => "model",
        miniclaw_platform::llm::Engine::Offline => "offline",
    };
    let mut tx = pool.begin().await?;
    let dossier = sqlx::query_as!(
        Dossier,
        "INSERT INTO agent_dossiers (agent_id, content, compiled_at, memories, input_chars, words, engine, model)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (agent_id) DO UPDATE SET content = excluded.content, compiled_at = excluded.compiled_at,
            memories = excluded.memories, input_chars = excluded.input_chars, words = excluded.words,
            engine = excluded.engine, model = excluded.model
         RETURNING agent_id, content, compiled_at, memories, input_chars, words, engine, model",
        agent_id as _,
        content,
        started_at,
        snapshot.len() as i32,
        input_chars as i32,
        words as i32,
        engine,
        answer.model
    )
    .fetch_one(&mut *tx)
    .await?;
    activity::record_agent(
        &mut tx,
        tenant_id,
        agent_id,
        origin,
        "dossier.compiled",
        json!({ "memories": snapshot.len(), "words": words, "engine": engine }),
    )
    .await?;
    tx.commit().await?;
    Ok(Some(dossier))
}

/// Asks for a recompilation after memories changed: a `dossier` job 60 s from now, moved later
/// by each further change but never beyond 5 minutes after the first.
pub async fn request_recompile(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<()> {
    let mut conn = pool.acquire().await?;
    queue_recompile(&mut conn, agent_id).await
}

/// `request_recompile` on a connection (inside the caller's transaction).
pub async fn queue_recompile(conn: &mut sqlx::PgConnection, agent_id: AgentId) -> sqlx::Result<()> {
    miniclaw_platform::jobs::queue::enqueue_debounced(conn, "dossier", &[agent_id], DEBOUNCE_SECS, MAX_WAIT_SECS).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_index_is_added_and_long_output_is_cut() {
        let d = ensure_index("## Identity\n- Alice\n\n## Goal\n- Run");
        assert!(d.starts_with("## Index\n- Identity\n- Goal\n"), "{d}");
        assert_eq!(ensure_index("## Index\n- A\n## A\n- x"), "## Index\n- A\n## A\n- x");
        let long = (0..100).map(|i| format!("- fact number {i} about the user")).collect::<Vec<_>>().join("\n");
        let cut = cap_words(&long, 600);
        assert!(cut.split_whitespace().count() <= 600);
        assert!(cut.ends_with("about the user"), "cut at a line boundary");
    }
}
