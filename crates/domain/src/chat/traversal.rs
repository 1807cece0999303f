//! Learned traversal in a chat turn (SPEC X5): from the memories nearest to the message, the
//! agent's graph is followed within its budgets; what it reaches joins the prompt beside the
//! memory search (its own budget: `graph::Params::max_chars`), what a correction vetoed leaves
//! it, and the path is stored with the reply for the feedback route to learn from.

use miniclaw_core::ids::{AgentId, MemoryId};
use std::collections::HashSet;

use chrono::Utc;
use sqlx::PgPool;

use super::context::{Context, UsedMemory};
use crate::memory::{self, Memory, Reader, graph, score};
use miniclaw_platform::llm::usage::count_tokens;

/// Learned traversal (X5) from the memories and knowledge chunks the vector searches put into
/// the context, by similarity: what it reaches joins the sections (within its own budget), what
/// a correction vetoed leaves them.
pub(super) async fn extend(pool: &PgPool, agent_id: AgentId, reader: &Reader, ctx: &mut Context) -> sqlx::Result<()> {
    let used = ctx.used();
    let seeds: Vec<(MemoryId, f64)> =
        used.iter().filter(|m| m.found_by == "vector").filter_map(|m| m.relevance.map(|r| (m.id, r))).collect();
    if seeds.is_empty() {
        return Ok(());
    }
    ctx.searched.memory_queries += 2;
    let known: HashSet<MemoryId> = used.iter().map(|m| m.id).collect();
    let Some(f) = follow(pool, agent_id, reader, &seeds, &known).await? else { return Ok(()) };
    for section in [&mut ctx.certain, &mut ctx.picked_up, &mut ctx.knowledge] {
        section.retain(|m| !f.trace.suppressed.contains(&m.id));
    }
    for m in f.added {
        match m.section.as_str() {
            "knowledge" => ctx.knowledge.push(m),
            "certain" => ctx.certain.push(m),
            _ => ctx.picked_up.push(m),
        }
    }
    ctx.tokens += f.tokens;
    ctx.traversal = Some(f.trace);
    Ok(())
}

/// What traversal added to a turn's context.
struct Followed {
    pub trace: graph::Trace,
    /// The reached memories not already in the context, as the prompt uses them.
    pub added: Vec<UsedMemory>,
    pub tokens: u32,
}

/// Follows the graph from `seeds` (memory, similarity to the message). `known` are the memories
/// already in the context. `None` when the seeds have no edges (no traversal happened).
async fn follow(
    pool: &PgPool,
    agent_id: AgentId,
    reader: &Reader,
    seeds: &[(MemoryId, f64)],
    known: &HashSet<MemoryId>,
) -> sqlx::Result<Option<Followed>> {
    let p = graph::Params::default();
    let ids: Vec<MemoryId> = seeds.iter().take(p.beam).map(|(id, _)| *id).collect();
    if ids.is_empty() {
        return Ok(None);
    }
    let mut conn = pool.acquire().await?;
    let edges = graph::neighbourhood(&mut conn, agent_id, &ids, p.max_hops).await?;
    if edges.is_empty() {
        return Ok(None);
    }
    let trace = graph::traverse(seeds, &edges, &p);
    let new: Vec<MemoryId> = trace.reached.iter().map(|n| n.id).filter(|id| !known.contains(id)).collect();
    let mut rows: Vec<Memory> = graph::live_nodes(&mut conn, agent_id, &new).await?;
    // Another end user's memories are never reached (SPEC H1).
    rows.retain(|m| reader.reads(m.end_user.as_deref()));
    // In the order traversal reached them.
    rows.sort_by_key(|m| new.iter().position(|id| *id == m.id));
    let now = Utc::now();
    let mut tokens = 0;
    let added = rows
        .into_iter()
        .map(|m| {
            let path = trace.reached.iter().find(|n| n.id == m.id).map_or(0.0, |n| n.score);
            let importance = m.importance_score(now);
            let section = if memory::MemorySource::KNOWLEDGE.contains(&m.source) {
                "knowledge"
            } else if m.pinned || score::pinned_category(&m.category) {
                "certain"
            } else {
                "picked_up"
            };
            tokens += count_tokens(&m.content) + 2;
            UsedMemory {
                id: m.id,
                section: section.into(),
                found_by: "traversal".into(),
                relevance: Some(path),
                importance,
                rank: score::context_rank(Some(path), importance, &m.category),
                content: m.content,
                category: m.category,
            }
        })
        .collect();
    Ok(Some(Followed { trace, added, tokens }))
}
