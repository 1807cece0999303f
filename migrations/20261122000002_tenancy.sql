-- Tenants, owners, sessions, hosted agents, mck_ API keys, connect challenges, activity logs.
-- Agent-scoped tables lead their primary key and indexes with agent_id (docs/SCALING.md).

CREATE TABLE platform_secrets (
    name       text PRIMARY KEY,
    value      bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tenants (
    id         uuid PRIMARY KEY,
    name       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE owners (
    id            uuid PRIMARY KEY,
    tenant_id     uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    email         text,
    password_hash text,
    -- Lower-case 0x address of the owner's wallet, when they log in with one.
    evm_address   text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_login_at timestamptz,
    CHECK (email IS NOT NULL OR evm_address IS NOT NULL)
);
CREATE UNIQUE INDEX owners_email ON owners (lower(email)) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX owners_evm_address ON owners (evm_address) WHERE evm_address IS NOT NULL;
CREATE INDEX owners_tenant ON owners (tenant_id);

-- One row per login; the refresh token is stored as a SHA-256 hash only.
CREATE TABLE owner_sessions (
    id           uuid PRIMARY KEY,
    owner_id     uuid NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
    tenant_id    uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    refresh_hash bytea NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    refreshed_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    revoked_at   timestamptz
);
CREATE INDEX owner_sessions_owner ON owner_sessions (owner_id);

CREATE TABLE agents (
    id                             uuid PRIMARY KEY,
    tenant_id                      uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name                           text NOT NULL,
    persona                        text NOT NULL DEFAULT '',
    emoji                          text NOT NULL DEFAULT '',
    tier                           text NOT NULL DEFAULT 'free' CHECK (tier IN ('free', 'premium')),
    premium_model                  text,
    daily_token_budget             integer NOT NULL DEFAULT 100000 CHECK (daily_token_budget > 0),
    outreach_enabled               boolean NOT NULL DEFAULT false,
    outreach_auto_reply_confidence real NOT NULL DEFAULT 0.8
                                   CHECK (outreach_auto_reply_confidence BETWEEN 0 AND 1),
    notification_mode              text NOT NULL DEFAULT 'smart'
                                   CHECK (notification_mode IN ('instant', 'digest_only', 'smart')),
    proactiveness                  text NOT NULL DEFAULT 'moderate'
                                   CHECK (proactiveness IN ('conservative', 'moderate', 'eager')),
    quiet_hours                    jsonb,
    timezone                       text NOT NULL DEFAULT 'UTC',
    active                         boolean NOT NULL DEFAULT true,
    evm_address                    text,
    ed25519_public_key             text,
    created_at                     timestamptz NOT NULL DEFAULT now(),
    updated_at                     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agents_tenant ON agents (tenant_id, created_at);

CREATE TABLE api_keys (
    agent_id     uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    id           uuid NOT NULL,
    tenant_id    uuid NOT NULL,
    name         text NOT NULL,
    secret_hash  bytea NOT NULL,
    scopes       text[] NOT NULL,
    created_by   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    expires_at   timestamptz,
    revoked_at   timestamptz,
    PRIMARY KEY (agent_id, id)
);
-- Authentication looks a key up by the id embedded in it.
CREATE UNIQUE INDEX api_keys_id ON api_keys (id);

-- Single-use nonces for wallet login and miniapp connect.
CREATE TABLE auth_challenges (
    nonce      text PRIMARY KEY,
    purpose    text NOT NULL CHECK (purpose IN ('owner_login', 'agent_connect')),
    agent_id   uuid REFERENCES agents (id) ON DELETE CASCADE,
    key_type   text NOT NULL CHECK (key_type IN ('evm', 'ed25519')),
    identity   text NOT NULL,
    message    text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX auth_challenges_expiry ON auth_challenges (expires_at);

-- Append-only provenance of every state change of an agent (SPEC A7).
CREATE TABLE agent_activity (
    agent_id   uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    id         uuid NOT NULL,
    tenant_id  uuid NOT NULL,
    action     text NOT NULL,
    actor_type text NOT NULL CHECK (actor_type IN ('owner', 'api_key', 'job', 'admin', 'system')),
    actor_id   text,
    request_id text,
    details    jsonb NOT NULL DEFAULT '{}'::jsonb,
    error      text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, id)
);
CREATE INDEX agent_activity_time ON agent_activity (agent_id, created_at DESC);

-- Tenant-level events (signup, agent deleted, ...) that outlive any one agent.
CREATE TABLE tenant_activity (
    tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    id         uuid NOT NULL,
    agent_id   uuid,
    action     text NOT NULL,
    actor_type text NOT NULL CHECK (actor_type IN ('owner', 'api_key', 'job', 'admin', 'system')),
    actor_id   text,
    request_id text,
    details    jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, id)
);
