-- The `memory_embed` cycle looks for memories whose vector is missing or of another model;
-- with this index that is a range scan around the current model instead of a table scan.
CREATE INDEX agent_memories_model ON agent_memories (embedding_model);
