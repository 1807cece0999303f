-- SPEC H1: end users are principals. What is learned from an end user's conversations is
-- theirs (`end_user`: the id their miniapp names them by); NULL is the agent's own knowledge
-- (what the owner taught, uploaded knowledge, what it learned from the owner and from
-- conversations of no end user), shared by everyone who talks to it.
ALTER TABLE agent_memories ADD COLUMN end_user text CHECK (end_user IS NULL OR length(end_user) BETWEEN 1 AND 128);
CREATE INDEX agent_memories_end_user ON agent_memories (agent_id, end_user, created_at DESC) WHERE end_user IS NOT NULL;

-- The memories learned before this had no record of the conversation they came from. Where
-- that is still certain they become their end user's: an agent all of whose conversations
-- were with one end user (none with the owner or without an end user). Elsewhere they stay
-- the agent's, as they were (README, "Memory": "Whose a memory is").
UPDATE agent_memories m SET end_user = single.end_user
  FROM (SELECT agent_id, min(end_user) AS end_user FROM conversations GROUP BY agent_id
        HAVING count(*) FILTER (WHERE end_user IS NULL OR owner_private) = 0 AND count(DISTINCT end_user) = 1) single
 WHERE m.agent_id = single.agent_id AND m.source IN ('conversation', 'derived');

-- The newest live memories an audience may read: `p_all` every one (the owner), else the
-- agent's own and `p_end_user`'s.
DROP FUNCTION agent_memories_newest(uuid, text[], text[], text[], int);
CREATE FUNCTION agent_memories_newest(p_agent uuid, p_sources text[], p_categories text[], p_except text[], p_k int,
                                      p_all boolean, p_end_user text)
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
           AND (p_all OR m.end_user IS NULL OR m.end_user = p_end_user)
         ORDER BY m.created_at DESC
         LIMIT p_k;
END $$;

-- A tombstone holds back the same fact from the same person only: what one end user deleted
-- is not refused when another says it.
ALTER TABLE memory_tombstones ADD COLUMN end_user text;

-- An import made for an end user is theirs, and so is what it teaches.
ALTER TABLE memory_imports ADD COLUMN end_user text;
