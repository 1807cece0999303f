-- Learned traversal (SPEC X5, seed 002): a per-agent graph over memories and knowledge chunks.

-- The weight an edge has after `age` of the agent's queries without learning: what learning
-- added to (or took from) its prior fades with a half-life of `half_life` queries. The prior is
-- what the graph's structure gave it (a sibling chunk, a relation, a shared name, co-access);
-- a correction's inhibitory edge has prior 0 and fades out entirely.
CREATE FUNCTION memory_edge_weight(weight real, prior real, age bigint, half_life real)
RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT prior + (weight - prior) * power(0.5, greatest(age, 0)::float8 / half_life)
$$;

-- Directed edges: "after reading `source_id`, read `target_id`". `weight` in [-1, 1] as of
-- query `stamp` (the agent's query count when it last learned); tiers: reflex >= 0.6,
-- habitual 0.2-0.6, dormant < 0.2, inhibitory <= -0.01.
CREATE TABLE memory_edges (
    agent_id   uuid NOT NULL,
    source_id  uuid NOT NULL,
    target_id  uuid NOT NULL,
    kind       text NOT NULL CHECK (kind IN ('sibling', 'relation', 'mention', 'coaccess', 'correction', 'learned')),
    weight     real NOT NULL CHECK (weight BETWEEN -1 AND 1),
    prior      real NOT NULL CHECK (prior BETWEEN -1 AND 1),
    stamp      bigint NOT NULL DEFAULT 0,
    learned    integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, source_id, target_id),
    FOREIGN KEY (agent_id, source_id) REFERENCES agent_memories (agent_id, id) ON DELETE CASCADE,
    FOREIGN KEY (agent_id, target_id) REFERENCES agent_memories (agent_id, id) ON DELETE CASCADE,
    CHECK (source_id <> target_id)
);
CREATE INDEX memory_edges_target ON memory_edges (agent_id, target_id);

-- Per agent: the query clock edges decay by, how far the graph has grown, and the counters
-- behind the health metrics.
CREATE TABLE memory_graphs (
    agent_id       uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    queries        bigint NOT NULL DEFAULT 0,
    grown_at       timestamptz,
    fired_total    bigint NOT NULL DEFAULT 0,
    fired_chars    bigint NOT NULL DEFAULT 0,
    feedback_good  integer NOT NULL DEFAULT 0,
    feedback_bad   integer NOT NULL DEFAULT 0,
    corrections    integer NOT NULL DEFAULT 0
);

-- One judgement per reply: good or bad, optionally with the owner's correction (stored as a
-- memory of its own). A bad rating may later get its correction; nothing else is re-rated.
CREATE TABLE message_feedback (
    agent_id             uuid NOT NULL,
    message_id           uuid NOT NULL,
    rating               text NOT NULL CHECK (rating IN ('good', 'bad')),
    correction           text CHECK (length(correction) <= 2000),
    correction_memory_id uuid,
    inhibited            uuid[] NOT NULL DEFAULT '{}',
    edges_updated        integer NOT NULL DEFAULT 0,
    actor                text NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, message_id),
    FOREIGN KEY (agent_id, message_id) REFERENCES chat_messages (agent_id, id) ON DELETE CASCADE,
    -- Deleting the correction's memory lifts its veto (its edges go with it) and unlinks it here.
    FOREIGN KEY (agent_id, correction_memory_id) REFERENCES agent_memories (agent_id, id)
        ON DELETE SET NULL (correction_memory_id)
);
