-- Foundation: pgvector and the durable job queue.
--
-- Conventions (docs/API-DESIGN.md, docs/SCALING.md): every agent-scoped table leads its primary
-- key and its indexes with agent_id. The two queue tables below are platform tables, not
-- agent data: they stay on the coordinator when the schema is distributed by agent_id.

CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE jobs (
    id              uuid        PRIMARY KEY,
    kind            text        NOT NULL,
    agent_id        uuid,
    payload         jsonb       NOT NULL DEFAULT '{}'::jsonb,
    -- queued → running → done | (queued again with backoff) | dead
    status          text        NOT NULL DEFAULT 'queued'
                                CHECK (status IN ('queued', 'running', 'done', 'dead')),
    attempts        integer     NOT NULL DEFAULT 0,
    max_attempts    integer     NOT NULL DEFAULT 5 CHECK (max_attempts > 0),
    run_at          timestamptz NOT NULL DEFAULT now(),
    -- The lease: a running job belongs to locked_by until locked_until.
    locked_by       text,
    locked_until    timestamptz,
    idempotency_key text,
    last_error      text,
    result          jsonb,
    created_at      timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    finished_at     timestamptz
);

-- The worker's hot query: the oldest due queued jobs.
CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'queued';
-- Expired leases are reclaimed from here.
CREATE INDEX jobs_leased ON jobs (locked_until) WHERE status = 'running';
CREATE INDEX jobs_agent ON jobs (agent_id, kind) WHERE agent_id IS NOT NULL;
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE status IN ('done', 'dead');
CREATE UNIQUE INDEX jobs_idempotency ON jobs (idempotency_key) WHERE idempotency_key IS NOT NULL;

-- Recurring cycles: one row per (agent, cycle), or per cycle for platform-wide ones.
CREATE TABLE job_schedules (
    id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    agent_id         uuid,
    cycle            text        NOT NULL,
    interval_secs    integer     NOT NULL CHECK (interval_secs > 0),
    next_run_at      timestamptz NOT NULL,
    last_enqueued_at timestamptz,
    enabled          boolean     NOT NULL DEFAULT true,
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE NULLS NOT DISTINCT (agent_id, cycle)
);

CREATE INDEX job_schedules_due ON job_schedules (next_run_at) WHERE enabled;
