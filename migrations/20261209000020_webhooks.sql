-- Outbound webhooks (channels): endpoints an owner (or a key with `webhooks:write`) registers,
-- and one delivery per event and endpoint, sent by the `webhook_deliver` job with retries.
CREATE TABLE webhook_endpoints (
    id                    uuid PRIMARY KEY,
    tenant_id             uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    -- NULL: every agent of the account.
    agent_id              uuid REFERENCES agents (id) ON DELETE CASCADE,
    url                   text NOT NULL,
    description           text NOT NULL DEFAULT '',
    -- Event types, or '*' for all of them.
    events                text[] NOT NULL,
    -- The signing secret (`whsec_…`) sealed under the master key; after a rotation the
    -- previous one also signs until `previous_until`.
    sealed_secret         bytea NOT NULL,
    sealed_previous       bytea,
    previous_until        timestamptz,
    enabled               boolean NOT NULL DEFAULT true,
    disabled_reason       text,
    -- The first failed attempt since the last delivered one.
    failing_since         timestamptz,
    created_by_type       text NOT NULL,
    created_by_id         text,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (tenant_id) WHERE agent_id IS NULL;
CREATE INDEX webhook_endpoints_agent ON webhook_endpoints (agent_id) WHERE agent_id IS NOT NULL;

CREATE TABLE webhook_deliveries (
    id              uuid PRIMARY KEY,
    endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    agent_id        uuid,
    event           text NOT NULL,
    data            jsonb NOT NULL,
    -- pending → delivered | failed; a replay makes it pending again.
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    -- The last attempts, newest last: [{at, status, error, ms}].
    log             jsonb NOT NULL DEFAULT '[]',
    delivered_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);
CREATE INDEX webhook_deliveries_time ON webhook_deliveries (created_at);
