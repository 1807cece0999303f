-- Behavioural signals (SPEC X8): per agent, exponential moving averages over irregular time
-- (7-day half-life) of how often its users write, how deep their conversations go, how often
-- they switch topic and how long their messages are. Updated by the statement that finishes a
-- chat turn; the last message's vector is kept to tell a topic switch (cosine < 0.3).
CREATE TABLE behaviour_signals (
    agent_id          uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    messages          bigint NOT NULL CHECK (messages > 0),
    -- messages per day, from the gaps between them
    frequency_per_day float8 NOT NULL CHECK (frequency_per_day >= 0),
    -- the user message's turn number in its conversation
    session_depth     float8 NOT NULL CHECK (session_depth >= 0),
    -- share of messages far from the one before (cosine < 0.3); NULL until two had vectors
    topic_switch_rate float8 CHECK (topic_switch_rate BETWEEN 0 AND 1),
    -- characters per user message
    message_chars     float8 NOT NULL CHECK (message_chars >= 0),
    last_vector       vector,
    last_model        text,
    last_at           timestamptz NOT NULL
);
