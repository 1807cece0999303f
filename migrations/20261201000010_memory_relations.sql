-- Relations between memories (SPEC R7, X3): `updates` (the newer value of a slot replaces the
-- older, which gets `invalid_at`), `extends` (adds detail to it) and `derives` (a fusion or
-- insight drawn from it). Directed from the newer or derived memory to the one it is about.
CREATE TABLE memory_relations (
    agent_id   uuid NOT NULL,
    from_id    uuid NOT NULL,
    to_id      uuid NOT NULL,
    kind       text NOT NULL CHECK (kind IN ('updates', 'extends', 'derives')),
    reason     text CHECK (length(reason) <= 500),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, from_id, to_id, kind),
    FOREIGN KEY (agent_id, from_id) REFERENCES agent_memories (agent_id, id) ON DELETE CASCADE,
    FOREIGN KEY (agent_id, to_id) REFERENCES agent_memories (agent_id, id) ON DELETE CASCADE,
    CHECK (from_id <> to_id)
);
CREATE INDEX memory_relations_to ON memory_relations (agent_id, to_id);
