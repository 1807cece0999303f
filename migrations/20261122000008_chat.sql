-- The chat pipeline (SPEC P1–P8): conversations, their messages (persisted while they stream,
-- so a client can resume), summaries of long conversations, the per-agent extraction batch,
-- and one analytics row per message. `agent_dossiers` is where the cognition cycles put the
-- compiled knowledge dossier that chat prefers when it is fresh (P4, C4).

CREATE TABLE conversations (
    id            uuid PRIMARY KEY,
    agent_id      uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    title         text NOT NULL,
    channel       text NOT NULL,
    message_count int NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversations_agent ON conversations (agent_id, updated_at DESC);

CREATE TABLE chat_messages (
    id              uuid PRIMARY KEY,
    conversation_id uuid NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    agent_id        uuid NOT NULL,
    position        int NOT NULL,
    role            text NOT NULL CHECK (role IN ('user', 'assistant')),
    content         text NOT NULL,
    -- user: pending → complete | error; assistant: streaming → complete | error, or
    -- superseded by a regenerated reply.
    status          text NOT NULL CHECK (status IN ('pending', 'streaming', 'complete', 'error', 'superseded')),
    error           text,
    channel         text NOT NULL CHECK (channel IN ('web', 'api', 'openai', 'telegram', 'email')),
    reply_to        uuid REFERENCES chat_messages(id) ON DELETE CASCADE,
    meta            jsonb NOT NULL DEFAULT '{}',
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (conversation_id, position)
);
CREATE INDEX chat_messages_agent_time ON chat_messages (agent_id, created_at DESC);
CREATE INDEX chat_messages_reply_to ON chat_messages (reply_to) WHERE reply_to IS NOT NULL;

CREATE TABLE conversation_summaries (
    id               uuid PRIMARY KEY,
    conversation_id  uuid NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    agent_id         uuid NOT NULL,
    content          text NOT NULL,
    first_message_id uuid NOT NULL,
    last_message_id  uuid NOT NULL,
    first_position   int NOT NULL,
    last_position    int NOT NULL,
    message_count    int NOT NULL,
    embedding        vector,
    embedding_model  text,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversation_summaries_agent ON conversation_summaries (agent_id, created_at DESC);
CREATE INDEX conversation_summaries_conversation ON conversation_summaries (conversation_id, last_position DESC);

-- User messages waiting for extraction (P6). Rows leave in the transaction that stores what
-- was extracted from them, so a crash or a failed model call loses nothing.
CREATE TABLE extraction_queue (
    message_id uuid PRIMARY KEY REFERENCES chat_messages(id) ON DELETE CASCADE,
    agent_id   uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    save_hint  text,
    -- The memories injected into that turn's prompt, for the recall-loop guard (R6a).
    injected   uuid[] NOT NULL DEFAULT '{}',
    attempts   int NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX extraction_queue_agent ON extraction_queue (agent_id, created_at);

CREATE TABLE chat_analytics (
    message_id           uuid PRIMARY KEY,
    agent_id             uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    tenant_id            uuid NOT NULL,
    conversation_id      uuid NOT NULL,
    reply_id             uuid,
    channel              text NOT NULL,
    intent               text NOT NULL,
    response_style       text NOT NULL,
    save_worthy          boolean NOT NULL,
    triage_skipped       boolean NOT NULL,
    skip_reason          text,
    triage_error         text,
    triage_ms            int NOT NULL DEFAULT 0,
    response_ms          int NOT NULL DEFAULT 0,
    triage_model         text,
    chat_model           text,
    engine               text,
    prompt_tokens        int NOT NULL DEFAULT 0,
    completion_tokens    int NOT NULL DEFAULT 0,
    cost_usd             double precision NOT NULL DEFAULT 0,
    memory_queries       int NOT NULL DEFAULT 0,
    memories_used        int NOT NULL DEFAULT 0,
    context_tokens       int NOT NULL DEFAULT 0,
    used_dossier         boolean NOT NULL DEFAULT false,
    extraction_triggered boolean NOT NULL DEFAULT false,
    facts_extracted      int NOT NULL DEFAULT 0,
    dedup                jsonb NOT NULL DEFAULT '{}',
    batch_size           int,
    batch_threshold      int,
    finish_reason        text,
    created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_analytics_agent_time ON chat_analytics (agent_id, created_at DESC);

CREATE TABLE agent_dossiers (
    agent_id    uuid PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
    content     text NOT NULL,
    compiled_at timestamptz NOT NULL DEFAULT now()
);

-- The calibration profile deep reflection learns (C2) and triage reads as hints (P3).
CREATE TABLE agent_calibration (
    agent_id   uuid PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
    profile    jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
