-- Access patterns (SPEC X11, seed 004).

-- One row per retrieval: a chat turn's context (written by the statement that finishes the
-- turn) or a search (beside its hit record). Kept 30 days (`access_retention`, daily): at the
-- 168-hour half-life of access energy an older access weighs under 5 %.
CREATE TABLE memory_access_events (
    agent_id        uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    id              uuid NOT NULL,
    at              timestamptz NOT NULL DEFAULT now(),
    source          text NOT NULL CHECK (source IN ('chat', 'search')),
    conversation_id uuid,
    query           text NOT NULL CHECK (length(query) <= 500),
    memory_ids      uuid[] NOT NULL,
    scores          real[] NOT NULL CHECK (cardinality(scores) = cardinality(memory_ids)),
    PRIMARY KEY (agent_id, id)
);
CREATE INDEX memory_access_events_time ON memory_access_events (agent_id, at DESC);
CREATE INDEX memory_access_events_age ON memory_access_events (at);

-- The nightly mirror's reports, the newest 30 per agent.
CREATE TABLE agent_mirrors (
    agent_id   uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    id         uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    report     jsonb NOT NULL,
    PRIMARY KEY (agent_id, id)
);
CREATE INDEX agent_mirrors_time ON agent_mirrors (agent_id, created_at DESC);

-- A hot memory without structure split into focused ones keeps a `split` version.
ALTER TABLE memory_versions DROP CONSTRAINT memory_versions_change_check;
ALTER TABLE memory_versions ADD CONSTRAINT memory_versions_change_check
    CHECK (change IN ('create', 'update', 'merge', 'deprecate', 'invalidate', 'status', 'pin', 'delete', 'mention',
                      'restore', 'fade', 'fuse', 'split'));
