-- S4: an agent's milestones, found incrementally from its facts (first conversation, soul
-- versions, reflections, identity, PoC grades, ...). One row per (kind, key): finding a
-- milestone again changes nothing.
CREATE TABLE agent_milestones (
    agent_id   uuid        NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    kind       text        NOT NULL,
    key        text        NOT NULL,
    at         timestamptz NOT NULL,
    title      text        NOT NULL,
    found_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, kind, key)
);
CREATE INDEX agent_milestones_time ON agent_milestones (agent_id, at DESC);
