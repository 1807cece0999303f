-- Affect (SPEC X6): each speaker's smoothed mood with an agent (the owner, a miniapp key, or a
-- miniapp's end user), updated by the statement that finishes a chat turn.
CREATE TABLE affect_states (
    agent_id      uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    -- `owner`, `api` or `user:<end user>`
    speaker       text NOT NULL CHECK (length(speaker) BETWEEN 1 AND 300),
    fast_valence  float8 NOT NULL CHECK (fast_valence BETWEEN -1 AND 1),
    slow_valence  float8 NOT NULL CHECK (slow_valence BETWEEN -1 AND 1),
    fast_arousal  float8 NOT NULL CHECK (fast_arousal BETWEEN 0 AND 1),
    slow_arousal  float8 NOT NULL CHECK (slow_arousal BETWEEN 0 AND 1),
    label         text NOT NULL,
    distress      boolean NOT NULL,
    messages      bigint NOT NULL CHECK (messages > 0),
    observed_at   timestamptz NOT NULL,
    PRIMARY KEY (agent_id, speaker)
);
