-- Analytics (SPEC D1, D2, D4). The per-message rows (`chat_analytics`) and the per-call rows
-- (`llm_usage_logs`) are rolled up per agent and hour by the `analytics_rollup` cycle, so a
-- range of months is read from a few thousand rows instead of millions. Latencies keep a
-- histogram (log buckets of 10 % width: `analytics::hist`) so percentiles survive the rollup.

-- The chat turn's context and generation stages (the triage and total times were there).
ALTER TABLE chat_analytics ADD COLUMN context_ms int, ADD COLUMN generation_ms int;

-- The rollup reads the recent hours of every agent: by time, not by agent.
CREATE INDEX chat_analytics_time ON chat_analytics (created_at);
CREATE INDEX chat_messages_failed_time ON chat_messages (created_at) WHERE role = 'assistant' AND status = 'failed';

CREATE TABLE analytics_hourly (
    agent_id          uuid        NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    hour              timestamptz NOT NULL,
    tenant_id         uuid        NOT NULL,
    messages          int         NOT NULL,
    errors            int         NOT NULL,
    skipped           int         NOT NULL,
    cost_usd          float8      NOT NULL,
    prompt_tokens     bigint      NOT NULL,
    completion_tokens bigint      NOT NULL,
    response_ms_sum   bigint      NOT NULL,
    triage_ms_sum     bigint      NOT NULL,
    -- Messages whose triage ran (not skipped by the pre-filter).
    triaged           int         NOT NULL,
    extractions       int         NOT NULL,
    -- Extraction flushes (the batch's last message carries its facts and dedup buckets).
    flushes           int         NOT NULL,
    facts             int         NOT NULL,
    batch_size_sum    bigint      NOT NULL,
    batch_flushes     int         NOT NULL,
    threshold_sum     bigint      NOT NULL,
    thresholds        int         NOT NULL,
    context_tokens    bigint      NOT NULL,
    memories_used     bigint      NOT NULL,
    dossier_uses      int         NOT NULL,
    -- {bucket: count} histograms of the total, triage, context and generation times.
    latency_hist      jsonb       NOT NULL,
    triage_hist       jsonb       NOT NULL,
    context_hist      jsonb       NOT NULL,
    generation_hist   jsonb       NOT NULL,
    -- {value: count} distributions.
    dedup             jsonb       NOT NULL,
    intents           jsonb       NOT NULL,
    styles            jsonb       NOT NULL,
    skip_reasons      jsonb       NOT NULL,
    finish_reasons    jsonb       NOT NULL,
    channels          jsonb       NOT NULL,
    models            jsonb       NOT NULL,
    PRIMARY KEY (agent_id, hour)
);
CREATE INDEX analytics_hourly_tenant ON analytics_hourly (tenant_id, hour);

-- Every model call of an agent (chat and background roles) per hour, role and model.
CREATE TABLE analytics_llm_hourly (
    agent_id          uuid        NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    hour              timestamptz NOT NULL,
    role              text        NOT NULL,
    provider          text        NOT NULL,
    model             text        NOT NULL,
    tenant_id         uuid        NOT NULL,
    calls             int         NOT NULL,
    errors            int         NOT NULL,
    prompt_tokens     bigint      NOT NULL,
    completion_tokens bigint      NOT NULL,
    cost_usd          float8      NOT NULL,
    latency_ms_sum    bigint      NOT NULL,
    PRIMARY KEY (agent_id, hour, role, provider, model)
);
CREATE INDEX analytics_llm_hourly_tenant ON analytics_llm_hourly (tenant_id, hour);

-- How far the rollups are complete: hours before `rolled_to`'s hour are read from the rollups,
-- later ones from the raw rows. One row.
CREATE TABLE analytics_rollup_state (
    id        boolean     PRIMARY KEY DEFAULT true CHECK (id),
    rolled_to timestamptz NOT NULL
);

-- D2: 23 metrics per agent and UTC day (001 §9.4.11).
CREATE TABLE pipeline_snapshots (
    agent_id                 uuid        NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    day                      date        NOT NULL,
    messages                 int         NOT NULL,
    total_cost_usd           float8      NOT NULL,
    avg_cost_per_message     float8,
    avg_latency_ms           float8,
    p95_latency_ms           float8,
    avg_triage_ms            float8,
    triage_skip_rate         float8,
    extraction_rate          float8,
    avg_facts_per_extraction float8,
    dedup_exact_match_rate   float8,
    dedup_llm_new_rate       float8,
    dedup_llm_update_rate    float8,
    dedup_llm_duplicate_rate float8,
    dedup_no_existing_rate   float8,
    avg_batch_size           float8,
    avg_batch_threshold      float8,
    avg_quality_score        float8,
    prompt_tokens            bigint      NOT NULL,
    completion_tokens        bigint      NOT NULL,
    error_rate               float8,
    avg_context_tokens       float8,
    avg_memories_used        float8,
    dossier_use_rate         float8,
    computed_at              timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, day)
);

-- D3: the daily judge's scores of up to ten exchanges per agent (001 §9.4.12). `judge` says
-- who scored: `model` (the quality_eval role's model) or `heuristic` (the offline engine's
-- word-overlap rules, never presented as a model's opinion).
CREATE TABLE quality_evaluations (
    agent_id            uuid        NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    message_id          uuid        NOT NULL,
    reply_id            uuid        NOT NULL,
    exchanged_at        timestamptz NOT NULL,
    relevance           smallint    NOT NULL CHECK (relevance BETWEEN 1 AND 10),
    coherence           smallint    NOT NULL CHECK (coherence BETWEEN 1 AND 10),
    personality         smallint    NOT NULL CHECK (personality BETWEEN 1 AND 10),
    context_utilization smallint    NOT NULL CHECK (context_utilization BETWEEN 1 AND 10),
    overall             float8      NOT NULL,
    reasoning           text        NOT NULL,
    judge               text        NOT NULL CHECK (judge IN ('model', 'heuristic')),
    model               text        NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, message_id)
);
CREATE INDEX quality_evaluations_time ON quality_evaluations (agent_id, exchanged_at);
