-- The chat hot path asks on every turn whether any memory changed since the dossier was
-- compiled. `max(updated_at)` over the agent's memories read every one of them (5,000 pages for a
-- 10,000-memory agent); a per-agent change time kept by a trigger answers with one probe. It
-- moves on every insert and delete and on updates that move `updated_at` (edits,
-- reinforcements, invalidations), not on the folded read counters.
ALTER TABLE memory_corpus_stats ADD COLUMN changed_at timestamptz;

UPDATE memory_corpus_stats s SET changed_at = m.changed
  FROM (SELECT agent_id, max(updated_at) AS changed FROM agent_memories GROUP BY agent_id) m
 WHERE m.agent_id = s.agent_id;

CREATE FUNCTION agent_memories_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        -- An update, not an upsert: the agent itself may be going (cascade).
        UPDATE memory_corpus_stats SET changed_at = clock_timestamp() WHERE agent_id = OLD.agent_id;
    ELSE
        INSERT INTO memory_corpus_stats AS s (agent_id, changed_at) VALUES (NEW.agent_id, clock_timestamp())
            ON CONFLICT (agent_id) DO UPDATE SET changed_at = excluded.changed_at;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER agent_memories_touch_insert AFTER INSERT ON agent_memories
    FOR EACH ROW EXECUTE FUNCTION agent_memories_touch();
CREATE TRIGGER agent_memories_touch_update AFTER UPDATE OF updated_at ON agent_memories
    FOR EACH ROW WHEN (OLD.updated_at IS DISTINCT FROM NEW.updated_at) EXECUTE FUNCTION agent_memories_touch();
CREATE TRIGGER agent_memories_touch_delete AFTER DELETE ON agent_memories
    FOR EACH ROW EXECUTE FUNCTION agent_memories_touch();

-- Extraction reads the 10 newest insights and the cap keeps 50: without this index both read
-- every memory of the agent to find the few insights.
CREATE INDEX agent_memories_insights ON agent_memories (agent_id, created_at DESC) WHERE category = 'insight';

-- The model index also leads to the agent: the exact search of a small agent runs a generic
-- plan, and with `agent_id` unknown at planning time the planner read every row of the model
-- (25 ms) rather than the agent's few. The `memory_embed` range scan still uses the first column.
DROP INDEX agent_memories_model;
CREATE INDEX agent_memories_model ON agent_memories (embedding_model, agent_id);
