-- S6: an agent drafted from a brief by the `spawn` role; nothing is created until the owner
-- confirms the draft (and may edit it first).
CREATE TABLE agent_spawn_drafts (
    id               uuid        PRIMARY KEY,
    tenant_id        uuid        NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    brief            text        NOT NULL,
    name             text        NOT NULL,
    persona          text        NOT NULL,
    soul             text        NOT NULL,
    suggested_skills jsonb       NOT NULL DEFAULT '[]',
    -- `model` or `offline` (the offline engine's template, which says so).
    engine           text        NOT NULL,
    status           text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'discarded')),
    agent_id         uuid,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_spawn_drafts_tenant ON agent_spawn_drafts (tenant_id, created_at DESC);
