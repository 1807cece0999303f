-- When a memory was said or happened (issue: memory on real conversations), as opposed to when
-- it was stored: a transcript imported today keeps its own dates. Existing memories were said
-- when they were stored.
ALTER TABLE agent_memories ADD COLUMN occurred_at timestamptz;
UPDATE agent_memories SET occurred_at = created_at;
ALTER TABLE agent_memories ALTER COLUMN occurred_at SET DEFAULT now(), ALTER COLUMN occurred_at SET NOT NULL;
CREATE INDEX agent_memories_agent_occurred ON agent_memories (agent_id, occurred_at);

-- Imported transcripts (`POST …/memories/import`): recorded whole, worked off by the
-- `memory_import` job; `processed` advances in the transaction that stores what a step found.
CREATE TABLE memory_imports (
    id              uuid PRIMARY KEY,
    agent_id        uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    transcript_hash text NOT NULL,
    transcript      jsonb NOT NULL,
    messages        integer NOT NULL CHECK (messages > 0),
    processed       integer NOT NULL DEFAULT 0 CHECK (processed BETWEEN 0 AND messages),
    created         integer NOT NULL DEFAULT 0,
    reinforced      integer NOT NULL DEFAULT 0,
    status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    error           text,
    first_at        timestamptz NOT NULL,
    last_at         timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    UNIQUE (agent_id, transcript_hash)
);
