-- Retrievals and mentions of memories, appended by search and chat and folded into
-- agent_memories once a minute by the `memory_hits` cycle. Updating the wide, vector-indexed
-- memory row on every read cost an HNSW insertion per row (50–110 ms per search at 1M
-- memories); an append to this narrow table costs next to nothing.
CREATE TABLE memory_hits (
    memory_id uuid NOT NULL,
    kind      text NOT NULL CHECK (kind IN ('mention', 'retrieval')),
    at        timestamptz NOT NULL DEFAULT now()
);
-- Leave room on new pages so that the folded updates can stay on the page (HOT) and skip the
-- indexes.
ALTER TABLE agent_memories SET (fillfactor = 85);
