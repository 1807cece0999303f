-- Chat asks "does this agent have a knowledge base at all?" on many turns; most agents have
-- none. This partial index answers it (and serves the recency fallback) without reading the
-- agent's other memories.
CREATE INDEX agent_memories_knowledge_recent ON agent_memories (agent_id, created_at DESC)
    WHERE source IN ('uploaded', 'url');
