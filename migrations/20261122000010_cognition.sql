-- Cognition cycles (C2–C5): what the compiled dossier was made from, every reflection with
-- its verbatim input summary, output and outcome, the tasks reflection sets, and knowledge
-- gaps found by lint.
ALTER TABLE agent_dossiers
    ADD COLUMN memories    int NOT NULL DEFAULT 0,
    ADD COLUMN input_chars int NOT NULL DEFAULT 0,
    ADD COLUMN words       int NOT NULL DEFAULT 0,
    ADD COLUMN engine      text NOT NULL DEFAULT 'offline',
    ADD COLUMN model       text NOT NULL DEFAULT 'offline';

CREATE TABLE reflections (
    id           uuid PRIMARY KEY,
    agent_id     uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    -- applied: the actions and profile were stored; rejected: the output failed validation
    -- and nothing was applied (error kept verbatim); failed: the model call failed.
    status       text NOT NULL CHECK (status IN ('applied', 'rejected', 'failed')),
    trigger      text NOT NULL,
    input        jsonb NOT NULL,
    output       text,
    actions      jsonb NOT NULL DEFAULT '[]',
    calibration  jsonb,
    clarity      int,
    soul         jsonb,
    tasks        int NOT NULL DEFAULT 0,
    error        text,
    engine       text,
    model        text,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reflections_agent ON reflections (agent_id, created_at DESC);

CREATE TABLE agent_tasks (
    id            uuid PRIMARY KEY,
    agent_id      uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    title         text NOT NULL,
    detail        text,
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done', 'dropped')),
    source        text NOT NULL,
    reflection_id uuid REFERENCES reflections(id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_tasks_agent ON agent_tasks (agent_id, status, created_at DESC);

CREATE TABLE knowledge_gaps (
    id         uuid PRIMARY KEY,
    agent_id   uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    question   text NOT NULL,
    context    text,
    -- open gaps are replaced by each lint; confirmed ones are kept until dismissed.
    status     text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'confirmed', 'dismissed')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX knowledge_gaps_agent ON knowledge_gaps (agent_id, status);
