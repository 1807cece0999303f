//! What other areas may read and write of memory inside their own statements, as SQL over SQL
//! arguments (the memory tables themselves stay this area's).

/// The contents of the agent's `k` most prominent goals (text[], never NULL).
pub fn top_goals(agent: &str, k: usize) -> String {
    format!(
        "(SELECT coalesce(array_agg(content ORDER BY p DESC), '{{}}') FROM (
            SELECT content, memory_prominence(category, pinned, importance, access_count, created_at,
                                              greatest(last_retrieved_at, last_mentioned_at), now()) AS p
              FROM agent_memories WHERE agent_id = {agent} AND category = 'goal' AND status IN ('active', 'dormant')
               AND invalid_at IS NULL ORDER BY p DESC LIMIT {k}) g)"
    )
}

/// When the agent's memories last changed in a way its dossier reflects (timestamptz; NULL:
/// never).
pub fn changed_at(agent: &str) -> String {
    format!("(SELECT changed_at FROM memory_corpus_stats WHERE agent_id = {agent})")
}

/// Whether the agent holds knowledge (uploaded documents or pages) it can draw on (boolean).
pub fn has_knowledge(agent: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM agent_memories WHERE agent_id = {agent}
                  AND source IN ('uploaded', 'url') AND status IN ('active', 'dormant') AND invalid_at IS NULL)"
    )
}

/// Whether the agent's traversal graph has an edge (boolean).
pub fn has_graph(agent: &str) -> String {
    format!("EXISTS (SELECT 1 FROM memory_edges WHERE agent_id = {agent})")
}

/// A data-modifying CTE body: a turn that traversed the agent's graph (X5) ticks its query
/// clock and health counters, from the turn's meta `meta` (jsonb with `traversal`), when
/// `guard` holds.
pub fn tick_graph(agent: &str, meta: &str, guard: &str) -> String {
    format!(
        "UPDATE memory_graphs SET queries = queries + 1,
                fired_total = fired_total + jsonb_array_length({meta}::jsonb -> 'traversal' -> 'reached'),
                fired_chars = fired_chars + ({meta}::jsonb -> 'traversal' ->> 'chars')::bigint
          WHERE agent_id = {agent} AND {meta}::jsonb ? 'traversal' AND {guard}"
    )
}

/// A data-modifying CTE body: the edges the turn followed (`meta`'s `traversal.steps`) are
/// refreshed, their decay counting from now, when `guard` holds.
pub fn refresh_edges(agent: &str, meta: &str, guard: &str) -> String {
    let half_life = super::graph::HALF_LIFE_QUERIES;
    format!(
        "UPDATE memory_edges e SET weight = memory_edge_weight(e.weight, e.prior, g.queries - e.stamp, {half_life}),
                stamp = g.queries
           FROM memory_graphs g, jsonb_to_recordset({meta}::jsonb -> 'traversal' -> 'steps') AS s(\"from\" uuid, \"to\" uuid)
          WHERE g.agent_id = {agent} AND e.agent_id = {agent} AND e.source_id = s.\"from\" AND e.target_id = s.\"to\"
            AND {guard}"
    )
}

/// A data-modifying CTE body: the memories `ids` (uuid[]) were mentioned in a reply (hit
/// tracking, 001 §7.5: folded into the memories by a job), when `guard` holds.
pub fn record_mentions(agent: &str, ids: &str, guard: &str) -> String {
    format!(
        "INSERT INTO memory_hits (agent_id, memory_id, kind) SELECT {agent}, unnest({ids}), 'mention' WHERE {guard}"
    )
}

/// A data-modifying CTE body: the access event of a retrieval (X11) from `source` in
/// `conversation` for `query`, which found `ids` (uuid[]) with `scores`, when `guard` holds.
pub fn record_access(
    agent: &str,
    source: &str,
    conversation: &str,
    query: &str,
    ids: &str,
    scores: &str,
    guard: &str,
) -> String {
    format!(
        "INSERT INTO memory_access_events (agent_id, id, source, conversation_id, query, memory_ids, scores)
         SELECT {agent}, gen_random_uuid(), {source}, {conversation}, {query}, {ids}, {scores} WHERE {guard}"
    )
}
