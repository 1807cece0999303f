-- Notifications (SPEC O4) and Telegram (O6).

-- What an agent tells its owner. Urgent ones (outreach replies, escalations, budget exhausted,
-- registration failed, an email that could not be sent) go out at once in `instant` and
-- `smart` mode; routine ones wait for the smart flush (every 4 h, at 2 queued, or when the
-- oldest is 8 h old), and quiet hours hold everything but the urgent.
CREATE TABLE notifications (
    agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    id uuid NOT NULL,
    kind text NOT NULL,
    urgent boolean NOT NULL,
    title text NOT NULL,
    body text NOT NULL,
    -- queued (waiting for its delivery or a flush) | sent (alone, or in the digest `digest_id`)
    status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent')),
    digest_id uuid,
    -- How it was delivered on each channel: {"email": "queued" | "no address", "telegram": ...}
    channels jsonb NOT NULL DEFAULT '{}',
    -- Makes a second notification of the same event a no-op (e.g. `budget_exhausted:2026-11-24`).
    dedup_key text,
    read_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    PRIMARY KEY (agent_id, id)
);
CREATE INDEX notifications_queued ON notifications (agent_id, created_at) WHERE status = 'queued';
CREATE UNIQUE INDEX notifications_dedup ON notifications (agent_id, dedup_key) WHERE dedup_key IS NOT NULL;

-- When an agent's routine notifications were last flushed as a digest.
CREATE TABLE notification_flushes (
    agent_id uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    last_flush_at timestamptz NOT NULL
);

-- An agent's Telegram bot. The token is sealed under the master key (src/secrets.rs, name
-- `telegram:<agent id>`); the webhook's secret token is kept as its SHA-256 only. The owner
-- links their own chat by sending `/start <link_code>` to the bot; notifications go there.
CREATE TABLE agent_telegram_bots (
    agent_id uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    sealed_token bytea NOT NULL,
    bot_username text,
    secret_hash bytea NOT NULL,
    link_code text NOT NULL,
    owner_chat_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- The conversation (channel `telegram`) of each chat with an agent's bot.
CREATE TABLE telegram_chats (
    agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    chat_id bigint NOT NULL,
    conversation_id uuid NOT NULL,
    PRIMARY KEY (agent_id, chat_id)
);

-- Updates already handled: Telegram delivers an update again until it gets a 2xx.
CREATE TABLE telegram_updates (
    agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    update_id bigint NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, update_id)
);
