-- Soul documents (C1): every version kept with who wrote it and why; and every proposed
-- rewrite's guard decision, accepted or not, with the verbatim error when the guard failed.
CREATE TABLE agent_souls (
    agent_id   uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    version    int NOT NULL,
    content    text NOT NULL,
    actor_type text NOT NULL,
    actor_id   text,
    reason     text,
    -- first, owner, jaccard or guard: how the version was let in.
    accepted_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, version)
);

CREATE TABLE soul_guard_events (
    id          uuid PRIMARY KEY,
    agent_id    uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    proposed    text NOT NULL,
    accepted    boolean NOT NULL,
    method      text NOT NULL,
    jaccard     double precision,
    reason      text,
    error       text,
    actor_type  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX soul_guard_events_agent ON soul_guard_events (agent_id, created_at DESC);
