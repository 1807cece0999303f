//! The graph in the database: growing it from the memories' structure, reading the
//! neighbourhood of a traversal's seeds, applying what feedback learned, and its health.

use miniclaw_core::ids::{AgentId, MemoryId};
use std::collections::HashMap;

use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;

use super::{Edge, HABITUAL, HALF_LIFE_QUERIES, INHIBITORY, REFLEX};
use crate::memory::{Memory, query_memories};

/// A name shared by at most this many memories links them (`mention` edges); a name more
/// memories share says little about any two of them.
pub const MENTION_DF_MAX: i32 = 8;
/// Edges read per node for a traversal: the strongest followable ones (a hop keeps the beam's
/// best, so more could never be chosen), plus the node's inhibitory ones.
const EDGES_PER_NODE: i64 = 4;
const VETOES_PER_NODE: i64 = 32;
/// A visited node's outgoing edges read for learning, at most.
const LEARN_EDGES_PER_NODE: usize = 200;

/// The edges added by one growth, by kind.
#[derive(Debug, Clone, Default, Serialize, ToSchema)]
pub struct Growth {
    pub sibling: u64,
    pub relation: u64,
    pub mention: u64,
    pub coaccess: u64,
}

/// How far a growth reaches back before the previous one (see `grow`).
pub const GROWTH_OVERLAP_SECS: f64 = 120.0;

/// Agents whose memories or retrievals changed since their graph last grew (less the overlap),
/// at most `limit`, the longest waiting first.
pub async fn stale_graphs(pool: &PgPool, limit: i64) -> sqlx::Result<Vec<AgentId>> {
    sqlx::query_scalar!(
        r#"SELECT s.agent_id AS "agent_id!: AgentId" FROM memory_corpus_stats s
             LEFT JOIN memory_graphs g ON g.agent_id = s.agent_id
            WHERE s.changed_at > coalesce(g.grown_at - make_interval(secs => $2), '-infinity')
               OR EXISTS (SELECT 1 FROM memory_access_events e
                           WHERE e.agent_id = s.agent_id AND e.at > coalesce(g.grown_at - make_interval(secs => $2), '-infinity'))
            ORDER BY g.grown_at NULLS FIRST, s.agent_id LIMIT $1"#,
        limit,
        GROWTH_OVERLAP_SECS
    )
    .fetch_all(pool)
    .await
}

/// Adds the edges the agent's memories imply since the graph last grew (all of them the first
/// time); existing edges, and what they learned, are kept. Each edge is added both ways:
/// - `sibling` (prior 0.5): neighbouring chunks of one knowledge entry;
/// - `relation` (0.5 for `extends`, 0.4 otherwise): the memory relations;
/// - `mention` (0.2 + 0.5/df per shared name, at most 0.55): live memories sharing a name — a
///   term written capitalised in both ("Priya", "Lisbon", "Acme") — that at most
///   `MENTION_DF_MAX` memories contain (a shared common noun, "sister", links facts about
///   different people);
/// - `coaccess` (0.3): memories retrieved together by two or more of the last 500 retrievals.
pub async fn grow(conn: &mut PgConnection, agent_id: AgentId) -> sqlx::Result<Growth> {
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    // One growth per agent at a time, without holding the agent's graph row (chat turns tick
    // its clock meanwhile).
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtext('memory_graph'), hashtext($1::text)) AS locked",
        agent_id.to_string()
    )
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query!("INSERT INTO memory_graphs (agent_id) VALUES ($1) ON CONFLICT DO NOTHING", agent_id as _)
        .execute(&mut *tx)
        .await?;
    // From a little before the last growth: a write that committed after that growth read the
    // memories may carry an earlier time. Edges found twice are kept once.
    let since = sqlx::query_scalar!(
        r#"SELECT coalesce(grown_at - make_interval(secs => $2), 'epoch') AS "since!" FROM memory_graphs WHERE agent_id = $1"#,
        agent_id as _,
        GROWTH_OVERLAP_SECS
    )
    .fetch_one(&mut *tx)
    .await?;
    let stamp = "(SELECT queries FROM memory_graphs WHERE agent_id = $1)";
    let insert = |pairs: &str| {
        format!(
            "INSERT INTO memory_edges (agent_id, source_id, target_id, kind, weight, prior, stamp)
             SELECT $1, p.a, p.b, p.kind, p.w, p.w, {stamp}
               FROM ({pairs}) p(a, b, kind, w)
              WHERE p.a <> p.b
                AND EXISTS (SELECT 1 FROM agent_memories m WHERE m.agent_id = $1 AND m.id = p.a)
                AND EXISTS (SELECT 1 FROM agent_memories m WHERE m.agent_id = $1 AND m.id = p.b)
             ON CONFLICT (agent_id, source_id, target_id) DO NOTHING"
        )
    };
    let both = |one_way: &str| {
        format!("SELECT a, b, kind, w FROM ({one_way}) x UNION ALL SELECT b, a, kind, w FROM ({one_way}) y")
    };
    let sibling = both(
        "SELECT lag(id) OVER (PARTITION BY knowledge_id ORDER BY id) AS a, id AS b, 'sibling' AS kind, 0.5::real AS w
           FROM agent_memories
          WHERE agent_id = $1 AND knowledge_id IN (SELECT knowledge_id FROM agent_memories
                                                    WHERE agent_id = $1 AND knowledge_id IS NOT NULL AND created_at > $2)",
    );
    let relation = both(
        "SELECT from_id AS a, to_id AS b, 'relation' AS kind, (CASE kind WHEN 'extends' THEN 0.5 ELSE 0.4 END)::real AS w
           FROM memory_relations WHERE agent_id = $1 AND created_at > $2",
    );
    // Both directions come out of the self-join itself.
    let mention = format!(
        "WITH fresh AS (SELECT id FROM agent_memories WHERE agent_id = $1 AND updated_at > $2),
              rare AS (SELECT t.term, t.memory_id, s.df FROM memory_terms t
                         JOIN memory_term_stats s ON s.agent_id = t.agent_id AND s.term = t.term
                         JOIN agent_memories m ON m.agent_id = t.agent_id AND m.id = t.memory_id
                        WHERE t.agent_id = $1 AND s.df BETWEEN 2 AND {MENTION_DF_MAX}
                          AND strpos(m.content, initcap(t.term)) > 0
                          AND t.term IN (SELECT term FROM memory_terms WHERE agent_id = $1 AND memory_id IN (SELECT id FROM fresh)))
         SELECT x.memory_id, y.memory_id, 'mention', least(0.55, 0.2 + sum(0.5 / x.df))::real
           FROM rare x JOIN rare y ON y.term = x.term AND y.memory_id <> x.memory_id
          WHERE x.memory_id IN (SELECT id FROM fresh) OR y.memory_id IN (SELECT id FROM fresh)
          GROUP BY x.memory_id, y.memory_id"
    );
    let coaccess = "WITH recent AS (SELECT id, memory_ids FROM memory_access_events WHERE agent_id = $1
                                      AND EXISTS (SELECT 1 FROM memory_access_events n WHERE n.agent_id = $1 AND n.at > $2)
                                    ORDER BY at DESC LIMIT 500)
         SELECT a, b, 'coaccess', 0.3::real FROM recent, unnest(memory_ids) a, unnest(memory_ids) b
          WHERE a <> b GROUP BY a, b HAVING count(DISTINCT recent.id) >= 2";
    let mut growth = Growth::default();
    for (pairs, count) in [
        (sibling, &mut growth.sibling),
        (relation, &mut growth.relation),
        (mention, &mut growth.mention),
        (coaccess.to_string(), &mut growth.coaccess),
    ] {
        *count = sqlx::query(&insert(&pairs)).bind(agent_id).bind(since).execute(&mut *tx).await?.rows_affected();
    }
    sqlx::query!("UPDATE memory_graphs SET grown_at = now() WHERE agent_id = $1", agent_id as _)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(growth)
}

/// The edges a traversal from `seeds` can use within `hops`: for every node up to `hops - 1`
/// edges away, its `EDGES_PER_NODE` strongest followable edges and its inhibitory ones, each
/// with its weight now and its target's length. Targets that are not live are left out.
pub async fn neighbourhood(
    conn: &mut PgConnection,
    agent_id: AgentId,
    seeds: &[MemoryId],
    hops: usize,
) -> sqlx::Result<Vec<Edge>> {
    if seeds.is_empty() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query!(
        r#"WITH RECURSIVE clock AS (SELECT coalesce(max(queries), 0) AS q FROM memory_graphs WHERE agent_id = $1),
           walk(node, depth) AS (
              SELECT DISTINCT unnest($2::uuid[]), 0
              UNION
              SELECT e.target_id, w.depth + 1 FROM walk w CROSS JOIN LATERAL (
                  SELECT target_id FROM (
                      SELECT target_id, memory_edge_weight(weight, prior, (SELECT q FROM clock) - stamp, $4) AS w
                        FROM memory_edges WHERE agent_id = $1 AND source_id = w.node) x
                   WHERE w >= $5 ORDER BY w DESC, target_id LIMIT $6) e
               WHERE w.depth < $3)
           SELECT n.node AS "source!: MemoryId", e.target_id AS "target!: MemoryId", e.w AS "weight!",
                  length(m.content) AS "chars!"
             FROM (SELECT DISTINCT node FROM walk) n
             CROSS JOIN LATERAL (
                 -- One read of the node's edges for both kinds: the strongest followable ones
                 -- (a weight at least $5, the first $6 by weight) and the inhibitory ones (at
                 -- most $7, the first $8 from the lowest). Sorted by weight, the followable
                 -- edges come first, so the first $6 that pass are the best $6 of them.
                 SELECT target_id, w FROM (
                     SELECT target_id, w, row_number() OVER (ORDER BY w DESC, target_id) AS strongest,
                            row_number() OVER (ORDER BY w, target_id) AS weakest
                       FROM (SELECT target_id, memory_edge_weight(weight, prior, (SELECT q FROM clock) - stamp, $4) AS w
                               FROM memory_edges WHERE agent_id = $1 AND source_id = n.node) x) ranked
                  WHERE (w >= $5 AND strongest <= $6) OR (w <= $7 AND weakest <= $8)) e
             JOIN agent_memories m ON m.agent_id = $1 AND m.id = e.target_id
            WHERE m.status IN ('active', 'dormant') AND m.invalid_at IS NULL AND (m.expires_at IS NULL OR m.expires_at > now())"#,
        agent_id as _,
        seeds as _,
        hops as i32 - 1,
        HALF_LIFE_QUERIES as f32,
        HABITUAL,
        EDGES_PER_NODE,
        INHIBITORY,
        VETOES_PER_NODE,
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Edge { source: r.source, target: r.target, weight: r.weight, chars: r.chars.max(0) as usize })
        .collect())
}

/// The live memories among `ids` (the nodes a traversal reached, for the prompt).
pub async fn live_nodes(conn: &mut PgConnection, agent_id: AgentId, ids: &[MemoryId]) -> sqlx::Result<Vec<Memory>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    query_memories!(
        "SELECT",
        "FROM agent_memories WHERE agent_id = $1 AND id = ANY($2) AND status IN ('active', 'dormant')
           AND invalid_at IS NULL AND (expires_at IS NULL OR expires_at > now())",
        agent_id as _,
        ids as _
    )
    .fetch_all(&mut *conn)
    .await
}

/// The outgoing edges of `nodes` with their weights now, locked for the update that follows
/// (learning from feedback): per node, (target, weight), at most `LEARN_EDGES_PER_NODE` each.
pub async fn outgoing_for_update(
    conn: &mut PgConnection,
    agent_id: AgentId,
    nodes: &[MemoryId],
) -> sqlx::Result<HashMap<MemoryId, Vec<(MemoryId, f64)>>> {
    let rows = sqlx::query!(
        r#"SELECT source_id AS "source!: MemoryId", target_id AS "target!: MemoryId",
                  memory_edge_weight(weight, prior, (SELECT queries FROM memory_graphs WHERE agent_id = $1) - stamp, $3) AS "weight!"
             FROM memory_edges WHERE agent_id = $1 AND source_id = ANY($2)
            ORDER BY source_id, target_id FOR UPDATE"#,
        agent_id as _,
        nodes as _,
        HALF_LIFE_QUERIES as f32,
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut out: HashMap<MemoryId, Vec<(MemoryId, f64)>> = HashMap::new();
    for r in rows {
        let edges = out.entry(r.source).or_default();
        if edges.len() < LEARN_EDGES_PER_NODE {
            edges.push((r.target, r.weight));
        }
    }
    Ok(out)
}

/// Applies learned changes: each edge's weight now (decayed), plus its change, clipped to
/// [-1, 1], as of the agent's current query. Returns the edges changed.
pub async fn learn(
    conn: &mut PgConnection,
    agent_id: AgentId,
    deltas: &HashMap<(MemoryId, MemoryId), f64>,
) -> sqlx::Result<u64> {
    if deltas.is_empty() {
        return Ok(0);
    }
    let (mut sources, mut targets, mut changes) = (Vec::new(), Vec::new(), Vec::new());
    for ((s, t), d) in deltas {
        sources.push(*s);
        targets.push(*t);
        changes.push(*d);
    }
    Ok(sqlx::query!(
        "WITH clock AS (SELECT queries FROM memory_graphs WHERE agent_id = $1)
         UPDATE memory_edges e
            SET weight = greatest(-1, least(1, memory_edge_weight(e.weight, e.prior, c.queries - e.stamp, $5) + d.change)),
                stamp = c.queries, learned = e.learned + 1, updated_at = now()
           FROM clock c, unnest($2::uuid[], $3::uuid[], $4::float8[]) d(source_id, target_id, change)
          WHERE e.agent_id = $1 AND e.source_id = d.source_id AND e.target_id = d.target_id",
        agent_id as _,
        &sources as _,
        &targets as _,
        &changes,
        HALF_LIFE_QUERIES as f32,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// Sets edges `sources → target` to `weight` (kind `correction`, or `learned` for support),
/// whatever they were: a correction's veto and the routes to the correction itself.
pub async fn set_edges(
    conn: &mut PgConnection,
    agent_id: AgentId,
    pairs: &[(MemoryId, MemoryId)],
    kind: &str,
    weight: f64,
    prior: f64,
) -> sqlx::Result<u64> {
    let pairs: Vec<(MemoryId, MemoryId)> = pairs.iter().filter(|(a, b)| a != b).copied().collect();
    let (sources, targets): (Vec<MemoryId>, Vec<MemoryId>) = pairs.into_iter().unzip();
    Ok(sqlx::query!(
        "INSERT INTO memory_edges (agent_id, source_id, target_id, kind, weight, prior, stamp, learned)
         SELECT $1, s, t, $4, $5, $6, coalesce((SELECT queries FROM memory_graphs WHERE agent_id = $1), 0), 1
           FROM unnest($2::uuid[], $3::uuid[]) p(s, t)
          WHERE EXISTS (SELECT 1 FROM agent_memories m WHERE m.agent_id = $1 AND m.id = p.s)
            AND EXISTS (SELECT 1 FROM agent_memories m WHERE m.agent_id = $1 AND m.id = p.t)
         ON CONFLICT (agent_id, source_id, target_id) DO UPDATE
            SET kind = excluded.kind, weight = excluded.weight, prior = excluded.prior, stamp = excluded.stamp,
                learned = memory_edges.learned + 1, updated_at = now()",
        agent_id as _,
        &sources as _,
        &targets as _,
        kind,
        weight as f32,
        prior as f32,
    )
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// One health metric of 002 §5.1 with its target range.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Metric {
    pub value: Option<f64>,
    /// The range 002 aims for, as text (`"70%-95%"`).
    pub target: String,
    /// Whether the value is in the range (`null` without a value).
    pub in_range: Option<bool>,
}

fn metric(value: Option<f64>, lo: f64, hi: f64, target: &str) -> Metric {
    Metric { value, target: target.into(), in_range: value.map(|v| v >= lo - 1e-9 && v <= hi + 1e-9) }
}

/// The health of an agent's graph (002 §5.1), with the counts it is computed from. Shares are
/// Makes sure the agent has a graph row (its counters), in the caller's transaction.
pub async fn ensure(conn: &mut PgConnection, agent_id: AgentId) -> sqlx::Result<()> {
    sqlx::query!("INSERT INTO memory_graphs (agent_id) VALUES ($1) ON CONFLICT DO NOTHING", agent_id as _)
        .execute(conn)
        .await?;
    Ok(())
}

/// Counts one feedback on the agent's graph: a rating (`rated`, good or bad) and a correction.
pub async fn count_feedback(
    conn: &mut PgConnection,
    agent_id: AgentId,
    rated: bool,
    good: bool,
    corrected: bool,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE memory_graphs SET feedback_good = feedback_good + ($2 AND $3)::int,
                feedback_bad = feedback_bad + ($2 AND NOT $3)::int, corrections = corrections + $4::int
          WHERE agent_id = $1",
        agent_id as _,
        rated,
        good,
        corrected as i32
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// fractions in [0, 1] of the edges between live memories.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Health {
    pub nodes: i64,
    pub edges: i64,
    pub edges_by_kind: HashMap<String, i64>,
    pub reflex: i64,
    pub habitual: i64,
    pub dormant: i64,
    pub inhibitory: i64,
    /// Traversals so far (the clock edges decay by).
    pub queries: i64,
    pub feedback_good: i64,
    pub feedback_bad: i64,
    pub corrections: i64,
    pub grown_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Nodes traversal added per query, beyond its seeds (002: 1.0–2.0).
    pub avg_nodes_fired_per_query: Metric,
    /// Edges between different "files": two knowledge entries, a chunk and a memory, or two
    /// categories of memory (002: 0–15 %).
    pub cross_file_edge_pct: Metric,
    pub dormant_pct: Metric,
    pub reflex_pct: Metric,
    /// Characters traversal added per query, as a share of all the live nodes' characters
    /// (002: at most 20 %).
    pub context_compression: Metric,
    /// Edges learning moved into a higher tier than their prior's, of the edges that learned
    /// (002: 0–50 %).
    pub proto_promotion_rate: Metric,
    /// Reflex edges whose reverse is reflex too: two nodes that route into each other (002: 0).
    pub reconvergence_rate: Metric,
    /// Live nodes with no edge at all (002: 0).
    pub orphan_nodes: Metric,
}

impl Health {
    /// The metrics of 002 §5.1, named for people.
    pub fn metrics(&self) -> Vec<(&'static str, &Metric)> {
        vec![
            ("Nodes added per query", &self.avg_nodes_fired_per_query),
            ("Cross-file edges", &self.cross_file_edge_pct),
            ("Dormant edges", &self.dormant_pct),
            ("Reflex edges", &self.reflex_pct),
            ("Context per query", &self.context_compression),
            ("Promoted by learning", &self.proto_promotion_rate),
            ("Routing into each other", &self.reconvergence_rate),
            ("Orphan nodes", &self.orphan_nodes),
        ]
    }
}

pub async fn health(pool: &PgPool, agent_id: AgentId) -> sqlx::Result<Health> {
    let r = sqlx::query!(
        r#"WITH clock AS (SELECT coalesce(max(queries), 0) AS q FROM memory_graphs WHERE agent_id = $1),
           live AS (SELECT id, category, knowledge_id, length(content) AS chars FROM agent_memories
                     WHERE agent_id = $1 AND status IN ('active', 'dormant') AND invalid_at IS NULL),
           e AS (SELECT e.kind, e.prior, e.learned, e.source_id, e.target_id,
                        memory_edge_weight(e.weight, e.prior, (SELECT q FROM clock) - e.stamp, $2) AS w,
                        (s.knowledge_id IS DISTINCT FROM t.knowledge_id OR (s.knowledge_id IS NULL AND s.category <> t.category)) AS cross_file
                   FROM memory_edges e JOIN live s ON s.id = e.source_id JOIN live t ON t.id = e.target_id
                  WHERE e.agent_id = $1)
           SELECT (SELECT count(*) FROM live) AS "nodes!",
                  (SELECT coalesce(sum(chars), 0) FROM live)::bigint AS "node_chars!",
                  (SELECT count(*) FROM e) AS "edges!",
                  (SELECT count(*) FROM e WHERE w >= $3) AS "reflex!",
                  (SELECT count(*) FROM e WHERE w >= $4 AND w < $3) AS "habitual!",
                  (SELECT count(*) FROM e WHERE w <= $5) AS "inhibitory!",
                  (SELECT count(*) FROM e WHERE cross_file) AS "cross_file!",
                  (SELECT count(*) FROM e WHERE learned > 0) AS "learned!",
                  (SELECT count(*) FROM e WHERE learned > 0
                      AND (CASE WHEN w >= $3 THEN 2 WHEN w >= $4 THEN 1 ELSE 0 END)
                        > (CASE WHEN prior >= $3 THEN 2 WHEN prior >= $4 THEN 1 ELSE 0 END)) AS "promoted!",
                  (SELECT count(*) FROM e x WHERE x.w >= $3 AND EXISTS (
                      SELECT 1 FROM e y WHERE y.source_id = x.target_id AND y.target_id = x.source_id AND y.w >= $3)) AS "reconverging!",
                  (SELECT count(*) FROM live l WHERE NOT EXISTS (SELECT 1 FROM memory_edges x WHERE x.agent_id = $1 AND x.source_id = l.id)
                      AND NOT EXISTS (SELECT 1 FROM memory_edges x WHERE x.agent_id = $1 AND x.target_id = l.id)) AS "orphans!",
                  (SELECT jsonb_object_agg(kind, n) FROM (SELECT kind, count(*) AS n FROM e GROUP BY kind) k) AS by_kind,
                  g.queries AS "queries?", g.fired_total AS "fired_total?", g.fired_chars AS "fired_chars?",
                  g.feedback_good AS "good?", g.feedback_bad AS "bad?", g.corrections AS "corrections?", g.grown_at AS "grown_at?"
             FROM (SELECT 1) one LEFT JOIN memory_graphs g ON g.agent_id = $1"#,
        agent_id as _,
        HALF_LIFE_QUERIES as f32,
        REFLEX,
        HABITUAL,
        INHIBITORY,
    )
    .fetch_one(pool)
    .await?;
    let share = |n: i64, of: i64| (of > 0).then(|| n as f64 / of as f64);
    let queries = r.queries.unwrap_or(0);
    let dormant = r.edges - r.reflex - r.habitual - r.inhibitory;
    let per_query = |total: Option<i64>| (queries > 0).then(|| total.unwrap_or(0) as f64 / queries as f64);
    let compression = per_query(r.fired_chars).and_then(|c| (r.node_chars > 0).then(|| c / r.node_chars as f64));
    Ok(Health {
        nodes: r.nodes,
        edges: r.edges,
        edges_by_kind: r.by_kind.and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default(),
        reflex: r.reflex,
        habitual: r.habitual,
        dormant,
        inhibitory: r.inhibitory,
        queries,
        feedback_good: r.good.unwrap_or(0) as i64,
        feedback_bad: r.bad.unwrap_or(0) as i64,
        corrections: r.corrections.unwrap_or(0) as i64,
        grown_at: r.grown_at,
        avg_nodes_fired_per_query: metric(per_query(r.fired_total), 1.0, 2.0, "1.0-2.0"),
        cross_file_edge_pct: metric(share(r.cross_file, r.edges), 0.0, 0.15, "0%-15%"),
        dormant_pct: metric(share(dormant, r.edges), 0.70, 0.95, "70%-95%"),
        reflex_pct: metric(share(r.reflex, r.edges), 0.0, 0.10, "0%-10%"),
        context_compression: metric(compression, 0.0, 0.20, "<= 20%"),
        proto_promotion_rate: metric(share(r.promoted, r.learned), 0.0, 0.5, "0%-50%"),
        reconvergence_rate: metric(Some(share(r.reconverging, r.reflex).unwrap_or(0.0)), 0.0, 0.0, "0%"),
        orphan_nodes: metric(Some(r.orphans as f64), 0.0, 0.0, "0"),
    })
}
