-- Memory lifecycle (SPEC X2, X10).
--
-- `status` now follows the memory's prominence: `active` above 0.5, `dormant` from 0.1 to 0.5
-- (both live: searched and used in chat), `archived` when forgetting set it aside (out of
-- search, restorable). `deprecated` stays what lint and owners make of it.

-- How often search and chat retrieved the memory (folded from `memory_hits`), and when
-- forgetting archived it: only what forgetting archived is later pruned, never what an owner
-- archived by hand.
ALTER TABLE agent_memories
    ADD COLUMN access_count integer NOT NULL DEFAULT 0 CHECK (access_count >= 0),
    ADD COLUMN faded_at     timestamptz;
CREATE INDEX agent_memories_faded ON agent_memories (faded_at) WHERE faded_at IS NOT NULL;

-- The half-life of a category in days (X2: 14 for events up to 346 for relationships). The
-- same table is `memory::lifecycle::half_life_days`; a test holds the two together.
CREATE FUNCTION memory_half_life_days(p_category text) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE p_category
        WHEN 'event' THEN 14
        WHEN 'context' THEN 60
        WHEN 'goal' THEN 90
        WHEN 'insight' THEN 120
        WHEN 'interest' THEN 180
        WHEN 'preference' THEN 180
        WHEN 'knowledge' THEN 346
        WHEN 'identity' THEN 346
        WHEN 'relationship' THEN 346
        ELSE 120
    END::float8
$$;

-- Prominence in [0, 1] (X2): 0.30 age + 0.25 access frequency + 0.25 access recency + 0.20
-- importance, ages measured in half-lives of the category; pinned and identity memories are
-- constitutional (1). The same formula is `memory::lifecycle::prominence`.
CREATE FUNCTION memory_prominence(
    p_category text, p_pinned boolean, p_importance real, p_access_count integer,
    p_created timestamptz, p_last_access timestamptz, p_now timestamptz
) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN p_pinned OR p_category = 'identity' THEN 1.0 ELSE
        0.30 * power(0.5, greatest(0, extract(epoch FROM p_now - p_created)) / 86400.0 / memory_half_life_days(p_category))
      + 0.25 * least(1.0, ln(1 + greatest(p_access_count, 0)) / ln(21.0))
      + 0.25 * power(0.5, greatest(0, extract(epoch FROM p_now - coalesce(p_last_access, p_created))) / 86400.0
                          / memory_half_life_days(p_category))
      + 0.20 * least(greatest(p_importance, 0), 10) / 10.0
    END::float8
$$;

-- An agent's newest live memories: dormant ones are live too.
CREATE OR REPLACE FUNCTION agent_memories_newest(p_agent uuid, p_sources text[], p_categories text[], p_except text[], p_k int)
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
         WHERE m.agent_id = p_agent AND m.status IN ('active', 'dormant') AND m.invalid_at IS NULL
           AND (m.expires_at IS NULL OR m.expires_at > now())
           AND (cardinality(p_sources) = 0 OR m.source = ANY(p_sources))
           AND (cardinality(p_categories) = 0 OR m.category = ANY(p_categories))
           AND NOT (m.category = ANY(p_except))
         ORDER BY m.created_at DESC
         LIMIT p_k;
END $$;

-- The lifecycle's own version kinds: `fade` (forgetting archived it) and `fuse` (folded into
-- a fusion memory). A pruned memory's last version is a `delete`.
ALTER TABLE memory_versions DROP CONSTRAINT memory_versions_change_check;
ALTER TABLE memory_versions ADD CONSTRAINT memory_versions_change_check
    CHECK (change IN ('create', 'update', 'merge', 'deprecate', 'invalidate', 'status', 'pin', 'delete', 'mention',
                      'restore', 'fade', 'fuse'));

-- The idle gate of the heartbeat tiers (X10): a gated schedule's slot makes a job only when its
-- agent had activity (a chat message, or a change by someone other than a job) since the
-- schedule last made one.
ALTER TABLE job_schedules ADD COLUMN idle_gated boolean NOT NULL DEFAULT false;
