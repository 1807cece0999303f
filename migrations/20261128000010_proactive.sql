-- X7/O5: agents that speak first. Per agent: the trust score the outcomes move, the owner's
-- daily cap, the scanner's and inner thoughts' bookkeeping (the idle gate) and the affect
-- EMAs that mark distress. Every proactive item — a check-in, a task suggestion, an inner
-- thought — is a row with why it exists (its gap and rule), when it goes (its timing) and what
-- became of it.

CREATE TABLE agent_proactive (
    agent_id          uuid PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
    trust             real NOT NULL DEFAULT 0.5 CHECK (trust >= 0 AND trust <= 1),
    daily_max         int NOT NULL DEFAULT 2 CHECK (daily_max BETWEEN 0 AND 10),
    -- The newest owner message the scanner has seen: with nothing newer (and no deadline
    -- coming), the agent is idle and costs nothing.
    scanned_through   timestamptz,
    scanned_at        timestamptz,
    last_thought_at   timestamptz,
    -- Affect (dual EMA of message valence, 2 h and 3 day half-lives): fast below slow by a
    -- margin, and negative, is distress.
    affect_fast       real NOT NULL DEFAULT 0,
    affect_slow       real NOT NULL DEFAULT 0,
    affect_at         timestamptz,
    updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE proactive_items (
    agent_id        uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    id              uuid NOT NULL,
    -- check_in: a message to the owner; task: a task suggestion (pending approval).
    kind            text NOT NULL CHECK (kind IN ('check_in', 'task')),
    -- gap_scanner or inner_thought
    source          text NOT NULL CHECK (source IN ('gap_scanner', 'inner_thought')),
    -- The signal it answers (deadline, unresolved_question, stale, distress, follow_up) and its text.
    signal          text NOT NULL,
    gap             text NOT NULL,
    urgency         text NOT NULL CHECK (urgency IN ('high', 'medium', 'low')),
    -- The dial level it needed (urgent, information, speculative) and the rule that let it through.
    level           text NOT NULL CHECK (level IN ('urgent', 'information', 'speculative')),
    rule            text NOT NULL,
    message         text NOT NULL,
    timing          text NOT NULL CHECK (timing IN ('urgent_now', 'next_morning', 'active_hours', 'next_active')),
    deliver_at      timestamptz,
    status          text NOT NULL DEFAULT 'scheduled'
                    CHECK (status IN ('scheduled', 'sent', 'accepted', 'dismissed', 'ignored', 'suppressed', 'held')),
    status_reason   text,
    conversation_id uuid,
    message_id      uuid,
    task_id         uuid,
    dedup_key       text NOT NULL,
    created_at      timestamptz NOT NULL,
    sent_at         timestamptz,
    resolved_at     timestamptz,
    PRIMARY KEY (agent_id, id),
    UNIQUE (agent_id, dedup_key)
);
CREATE INDEX proactive_items_due ON proactive_items (deliver_at) WHERE status = 'scheduled';
CREATE INDEX proactive_items_sent ON proactive_items (agent_id, sent_at) WHERE status = 'sent';
