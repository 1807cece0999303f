-- Outreach (SPEC O1–O3): proposals and their email threads, the outbox that delivers every
-- email, the tenants' sender identities and the inbound webhook's deliveries.

-- One outreach: a proposal drafted by the agent (or written by its owner), and once approved
-- the email thread that follows it.
--   proposed → approved → sent → replied → escalated | closed, and rejected
-- (the transitions are checked in src/outreach/state.rs; every one is in the activity log).
CREATE TABLE outreach_threads (
    agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    id uuid NOT NULL,
    tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    status text NOT NULL CHECK (status IN ('proposed', 'approved', 'sent', 'replied', 'escalated', 'closed', 'rejected')),
    -- Lower-case address of the person written to.
    target_email text NOT NULL,
    target_name text,
    purpose text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    -- Who wrote the draft: model | offline (the `outreach` role, or the offline engine's
    -- template in its place) | owner | agent (given whole through the agent's key).
    drafted_by text NOT NULL CHECK (drafted_by IN ('model', 'offline', 'owner', 'agent')),
    -- The reply the agent suggests while the thread is escalated, and its confidence.
    suggested_reply text,
    confidence real,
    escalation_reason text,
    -- The chat conversation (channel `email`) the thread's replies run through.
    conversation_id uuid,
    reject_reason text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, id)
);
CREATE INDEX outreach_threads_status ON outreach_threads (agent_id, status, created_at DESC);
-- The fallback match of an inbound reply: its sender and normalised subject.
CREATE INDEX outreach_threads_target ON outreach_threads (target_email, updated_at DESC);

-- Every email of a thread, in both directions, as sent or received.
CREATE TABLE outreach_messages (
    agent_id uuid NOT NULL,
    id uuid NOT NULL,
    thread_id uuid NOT NULL,
    direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
    -- The RFC 5322 Message-ID without angle brackets (generated for outbound mail).
    message_id text NOT NULL,
    in_reply_to text,
    "references" text[] NOT NULL DEFAULT '{}',
    from_address text NOT NULL,
    to_address text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    -- Whether the stored body was cut to the stored maximum.
    truncated boolean NOT NULL DEFAULT false,
    -- The headers as sent or received (name → value).
    headers jsonb NOT NULL DEFAULT '{}',
    -- outbound: queued | sent | failed; inbound: received | auto_replied | escalated | ignored
    status text NOT NULL CHECK (status IN ('queued', 'sent', 'failed', 'received', 'auto_replied', 'escalated', 'ignored')),
    -- outbound: owner | agent (an auto-reply)
    author text NOT NULL DEFAULT 'agent' CHECK (author IN ('owner', 'agent', 'sender')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, id),
    FOREIGN KEY (agent_id, thread_id) REFERENCES outreach_threads (agent_id, id) ON DELETE CASCADE
);
CREATE INDEX outreach_messages_thread ON outreach_messages (agent_id, thread_id, created_at);
-- Replies are matched to their thread by the Message-IDs they quote.
CREATE UNIQUE INDEX outreach_messages_message_id ON outreach_messages (message_id);

-- Every email miniclaw sends waits here until the transport (SMTP or Resend) has it. A row is
-- inserted in the transaction of the change that causes it, together with its `email_send`
-- job; the job retries with backoff while the transport is down, so nothing is lost.
CREATE TABLE email_outbox (
    agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    id uuid NOT NULL,
    -- outreach (a thread's email) | notification
    kind text NOT NULL CHECK (kind IN ('outreach', 'notification')),
    -- The thread message it delivers (outreach only).
    outreach_message_id uuid,
    from_name text NOT NULL,
    from_address text NOT NULL,
    to_address text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    message_id text NOT NULL,
    in_reply_to text,
    "references" text[] NOT NULL DEFAULT '{}',
    status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    last_error text,
    -- smtp | resend
    transport text,
    -- The provider's id of the sent email (Resend).
    provider_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    PRIMARY KEY (agent_id, id)
);
CREATE INDEX email_outbox_queued ON email_outbox (created_at) WHERE status = 'queued';
CREATE INDEX email_outbox_sent ON email_outbox (agent_id, kind, created_at);

-- A tenant's sender identity for outgoing email (default: MINICLAW_EMAIL_FROM).
CREATE TABLE tenant_email_senders (
    tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    from_name text,
    from_address text,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- The inbound webhook's deliveries by `svix-id`: a redelivery finds its row and does nothing.
CREATE TABLE inbound_email_deliveries (
    svix_id text PRIMARY KEY,
    -- matched | unmatched | closed
    outcome text NOT NULL,
    agent_id uuid,
    thread_id uuid,
    received_at timestamptz NOT NULL DEFAULT now()
);
