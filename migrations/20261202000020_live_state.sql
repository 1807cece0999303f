-- Live state and the session ledger (SPEC X9, 003 §5).

-- An agent's coordinates (current task, attention, coupling, mood, next steps, resume pointer)
-- as the `live_state` job last saved them; their age decides the recovery door.
CREATE TABLE agent_live_state (
    agent_id    uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    coordinates jsonb NOT NULL,
    saved_at    timestamptz NOT NULL DEFAULT now()
);

-- One row per ended session (a conversation's messages without a 30-minute gap), with its
-- summary. Read month → day → sessions. A deleted conversation takes its sessions with it.
CREATE TABLE session_ledger (
    agent_id        uuid NOT NULL,
    id              uuid NOT NULL,
    conversation_id uuid NOT NULL,
    started_at      timestamptz NOT NULL,
    ended_at        timestamptz NOT NULL CHECK (ended_at >= started_at),
    messages        integer NOT NULL CHECK (messages > 0),
    summary         text NOT NULL CHECK (length(summary) BETWEEN 1 AND 1000),
    PRIMARY KEY (agent_id, id),
    FOREIGN KEY (agent_id, conversation_id) REFERENCES conversations (agent_id, id) ON DELETE CASCADE
);
CREATE INDEX session_ledger_time ON session_ledger (agent_id, started_at DESC);
CREATE INDEX session_ledger_conversation ON session_ledger (agent_id, conversation_id);
CREATE INDEX session_ledger_ended ON session_ledger (agent_id, ended_at DESC);
