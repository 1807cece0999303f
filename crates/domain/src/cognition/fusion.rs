//! Fusion (SPEC X2, 000 §4.2.2) and NREM consolidation (X4, 000 §5.1.1): fading memories
//! that say related things are folded by the `fusion` role into one derived memory, with a
//! DERIVES relation to each source; the sources are archived (out of search, restorable, kept
//! with their history).
//!
//! Clusters are the connected components of a graph over the eligible memories, found by
//! breadth-first search: an edge where two memories are related (any stored relation) or
//! similar (cosine at least the window's). The breath's window takes dormant memories
//! (prominence 0.1–0.5) within one category; the nightly NREM window is wider (0.05–0.8) and
//! crosses categories. Only learned memories take part, never constitutional ones (pinned,
//! identity) nor what an owner, a miniapp or an upload wrote.

use miniclaw_core::ids::{AgentId, MemoryId, TenantId};
use std::collections::{HashMap, VecDeque};

use serde::Serialize;
use serde_json::{Value, json};
use sqlx::PgConnection;
use utoipa::ToSchema;

use super::actions;
use crate::memory::lifecycle::{self, constitutional};
use crate::memory::{self, Memory, MemorySource, NewMemory};
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;
use miniclaw_platform::embed::cosine;
use miniclaw_platform::llm::roles::Fusion;
use miniclaw_platform::llm::{CallContext, ChatRequest};

/// Which memories a fusion pass considers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Prominence range, inclusive.
    pub min: f64,
    pub max: f64,
    /// Whether a cluster may span categories.
    pub cross_category: bool,
    /// Cosine at which two memories are an edge of the graph.
    pub similar: f32,
}

/// The breath's fusion: dormant memories, one category at a time.
pub const BREATH: Window =
    Window { min: lifecycle::ARCHIVED_BELOW, max: lifecycle::ACTIVE_ABOVE, cross_category: false, similar: 0.75 };
/// NREM consolidation: a wider window, across categories.
pub const NREM: Window = Window { min: 0.05, max: 0.8, cross_category: true, similar: 0.7 };

/// A cluster holds at most this many memories.
pub const CLUSTER_MAX: usize = 8;
/// At most this many clusters are fused per pass (each is one model call).
pub const CLUSTERS_PER_PASS: usize = 10;
/// The eligible memories a pass reads, least prominent first.
const CANDIDATES_MAX: i64 = 400;

/// A memory as clustering sees it.
pub struct Node<'a> {
    pub category: &'a str,
    pub vector: &'a [f32],
}

/// The clusters (two memories or more, at most `CLUSTER_MAX`) of `nodes`: breadth-first
/// components over `related` pairs and pairs at least `w.similar` alike, within one category
/// unless the window crosses them. Deterministic: components in order of their first node.
pub fn clusters(nodes: &[Node<'_>], related: &[(usize, usize)], w: &Window) -> Vec<Vec<usize>> {
    let n = nodes.len();
    let joinable = |a: usize, b: usize| w.cross_category || nodes[a].category == nodes[b].category;
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut link = |a: usize, b: usize| {
        if a != b && a < n && b < n && joinable(a, b) {
            adjacent[a].push(b);
            adjacent[b].push(a);
        }
    };
    for &(a, b) in related {
        link(a, b);
    }
    for a in 0..n {
        for b in a + 1..n {
            let (va, vb) = (nodes[a].vector, nodes[b].vector);
            if va.len() == vb.len() && !va.is_empty() && cosine(va, vb) >= w.similar {
                link(a, b);
            }
        }
    }
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut cluster = vec![start];
        let mut queue = VecDeque::from([start]);
        while let Some(u) = queue.pop_front() {
            for &v in &adjacent[u] {
                if !seen[v] {
                    seen[v] = true;
                    cluster.push(v);
                    queue.push_back(v);
                }
            }
        }
        if cluster.len() >= 2 {
            cluster.truncate(CLUSTER_MAX);
            out.push(cluster);
        }
    }
    out
}

/// One fused cluster.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Fused {
    pub memory: MemoryId,
    pub sources: Vec<MemoryId>,
}

/// What a fusion pass did.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct FusionReport {
    /// Eligible memories read.
    pub candidates: usize,
    pub clusters: usize,
    pub fused: Vec<Fused>,
    /// Clusters left alone because a source changed while the model answered.
    pub skipped: usize,
}

/// One fusion pass over the agent's memories in `window`. A model answer that cannot be used
/// fails the pass (the clusters fused before it stay fused).
pub async fn run(
    deps: &Deps,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    window: &Window,
) -> anyhow::Result<FusionReport> {
    let model = deps.embedder.model().to_string();
    let forgettable: Vec<&str> =
        MemorySource::ALL.iter().copied().filter(|s| lifecycle::forgettable(*s)).map(|s| s.as_str()).collect();
    let rows =
        memory::fusable(&deps.pool, agent_id, &forgettable, &model, (window.min, window.max), CANDIDATES_MAX).await?;
    let mut report = FusionReport { candidates: rows.len(), ..FusionReport::default() };
    if rows.len() < 2 {
        return Ok(report);
    }
    let index: HashMap<MemoryId, usize> = rows.iter().enumerate().map(|(i, r)| (r.memory.id, i)).collect();
    let ids: Vec<MemoryId> = rows.iter().map(|r| r.memory.id).collect();
    let related: Vec<(usize, usize)> = memory::activation::among(&deps.pool, agent_id, &ids)
        .await?
        .into_iter()
        .filter_map(|(from, to, _)| Some((*index.get(&from)?, *index.get(&to)?)))
        .collect();
    let nodes: Vec<Node<'_>> = rows.iter().map(|r| Node { category: &r.memory.category, vector: &r.vector }).collect();
    let found = clusters(&nodes, &related, window);
    report.clusters = found.len();
    let ctx = CallContext::job(agent_id, Some(tenant_id));
    for cluster in found.into_iter().take(CLUSTERS_PER_PASS) {
        let sources: Vec<Memory> = cluster.iter().map(|&i| rows[i].memory.clone()).collect();
        let (content, category) = fuse(deps, &ctx, &sources).await?;
        let embedding = match deps.embedder.embed(std::slice::from_ref(&content)).await {
            Ok(mut v) => v.pop().map(|v| (v, model.clone())),
            Err(e) => {
                tracing::warn!(error = %e, "fusion: the fused memory waits for the embedding job");
                None
            }
        };
        let mut tx = deps.pool.begin().await?;
        match apply(&mut tx, tenant_id, agent_id, origin, &sources, content, category, embedding).await? {
            Some(fused) => {
                tx.commit().await?;
                report.fused.push(fused);
            }
            None => report.skipped += 1,
        }
    }
    Ok(report)
}

/// The `fusion` role's memory for a cluster: its content and a valid category.
async fn fuse(deps: &Deps, ctx: &CallContext, sources: &[Memory]) -> anyhow::Result<(String, String)> {
    let req = ChatRequest::from_input(Fusion { memories: actions::memories_input(sources) });
    let answer = deps.llm.complete(ctx, req).await?;
    let v: Value = serde_json::from_str(answer.content.trim())
        .map_err(|e| anyhow::anyhow!("the fusion answer is not JSON ({e})"))?;
    let content = v["content"].as_str().map(str::trim).unwrap_or_default().to_string();
    if content.is_empty() || content.chars().count() > memory::MAX_CONTENT_CHARS {
        anyhow::bail!(
            "the fusion answer has no usable `content` (empty, or over {} characters)",
            memory::MAX_CONTENT_CHARS
        );
    }
    let category = v["category"]
        .as_str()
        .filter(|c| memory::validate(None, Some(c), None, None).is_ok())
        .map(str::to_string)
        .unwrap_or_else(|| sources[0].category.clone());
    Ok((content, category))
}

/// Writes a fusion: the new memory, a DERIVES relation to each source, the sources archived
/// with a `fuse` version. `None` (nothing written) when a source is no longer live.
#[allow(clippy::too_many_arguments)]
async fn apply(
    conn: &mut PgConnection,
    tenant_id: TenantId,
    agent_id: AgentId,
    origin: &Origin,
    sources: &[Memory],
    content: String,
    category: String,
    embedding: Option<(Vec<f32>, String)>,
) -> anyhow::Result<Option<Fused>> {
    let ids: Vec<MemoryId> = sources.iter().map(|m| m.id).collect();
    let live = memory::lock_live_unpinned(conn, agent_id, &ids).await?;
    if live != ids.len() || sources.iter().any(|m| constitutional(m.pinned, &m.category)) {
        return Ok(None);
    }
    let new = NewMemory {
        confidence: sources.iter().map(|m| m.confidence).sum::<f32>() / sources.len() as f32,
        importance: sources.iter().map(|m| m.importance).fold(0.0, f32::max),
        embedding,
        ..NewMemory::new(content, category, MemorySource::Fusion)
    };
    let reason = format!("fused from {} memories", sources.len());
    let fused = memory::create(conn, agent_id, origin, new, Some(&reason)).await?;
    let accesses: i64 = sources.iter().map(|m| i64::from(m.access_count)).sum();
    memory::set_access_count(conn, agent_id, fused.id, accesses.min(i64::from(i32::MAX)) as i32).await?;
    for m in sources {
        memory::supersede::relate(conn, agent_id, fused.id, m.id, "derives", &reason).await?;
        let why = format!("fused into memory {}", fused.id);
        lifecycle::set_aside(conn, agent_id, m.id, lifecycle::Aside::Fused, origin, &why).await?;
    }
    miniclaw_platform::activity::record_agent(
        conn,
        tenant_id,
        agent_id,
        origin,
        "memory.fused",
        json!({ "memory_id": fused.id, "sources": ids }),
    )
    .await?;
    Ok(Some(Fused { memory: fused.id, sources: ids }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(x: f32, y: f32) -> Vec<f32> {
        let n = (x * x + y * y).sqrt();
        vec![x / n, y / n]
    }

    #[test]
    fn clusters_follow_similarity_and_relations_within_a_category_unless_crossing() {
        let (a, b, c, d) = (unit(1.0, 0.0), unit(1.0, 0.1), unit(0.0, 1.0), unit(0.1, 1.0));
        let nodes = [
            Node { category: "interest", vector: &a },
            Node { category: "interest", vector: &b },
            Node { category: "goal", vector: &c },
            Node { category: "interest", vector: &d },
        ];
        // a~b alike; c~d alike but of different categories.
        assert_eq!(clusters(&nodes, &[], &BREATH), vec![vec![0, 1]]);
        assert_eq!(clusters(&nodes, &[], &NREM), vec![vec![0, 1], vec![2, 3]]);
        // A relation joins what similarity does not (within the category for the breath).
        assert_eq!(clusters(&nodes, &[(1, 3)], &BREATH), vec![vec![0, 1, 3]]);
        assert_eq!(clusters(&nodes, &[(0, 2)], &BREATH), vec![vec![0, 1]]);
    }

    #[test]
    fn a_cluster_is_capped() {
        let v = unit(1.0, 0.0);
        let nodes: Vec<Node<'_>> = (0..20).map(|_| Node { category: "interest", vector: &v }).collect();
        let found = clusters(&nodes, &[], &BREATH);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].len(), CLUSTER_MAX);
    }
}
