-- Agents with many memories get their own partial HNSW index (agent and model in the
-- predicate): a filtered search then walks a graph of that agent's vectors only, instead of a
-- shared graph where most neighbours belong to someone else. The `memory_index` cycle creates
-- them concurrently and drops those whose agent is gone; this table is its bookkeeping, with
-- no foreign key so that a deleted agent's index can still be found and dropped.
CREATE TABLE memory_agent_indexes (
    index_name      text PRIMARY KEY,
    agent_id        uuid NOT NULL,
    embedding_model text NOT NULL,
    dims            int NOT NULL,
    vectors         bigint NOT NULL,
    build_ms        bigint NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (agent_id, embedding_model)
);
