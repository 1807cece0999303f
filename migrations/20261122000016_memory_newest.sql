-- An agent's newest live memories, newest first, through the (agent_id, created_at) index: the
-- index yields rows in order and the scan stops after `k` matches. With skewed or stale
-- statistics the planner would otherwise read and sort all of a large agent's rows. The plan
-- settings belong to the function (restored when it returns, also inside a caller's
-- transaction), and PL/pgSQL keeps the generic plan per connection: one round trip per call.
CREATE FUNCTION agent_memories_newest(p_agent uuid, p_sources text[], p_categories text[], p_except text[], p_k int)
RETURNS SETOF agent_memories
LANGUAGE plpgsql STABLE
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_sort = off
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    RETURN QUERY
        SELECT * FROM agent_memories m
         WHERE m.agent_id = p_agent AND m.status = 'active' AND m.invalid_at IS NULL
           AND (m.expires_at IS NULL OR m.expires_at > now())
           AND (cardinality(p_sources) = 0 OR m.source = ANY(p_sources))
           AND (cardinality(p_categories) = 0 OR m.category = ANY(p_categories))
           AND NOT (m.category = ANY(p_except))
         ORDER BY m.created_at DESC
         LIMIT p_k;
END $$;
