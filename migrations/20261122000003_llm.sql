-- Model gateway accounting (SPEC M3) and budgets (M7).

-- One row per LLM call attempt, failed ones included. Platform-wide calls have no agent, so
-- the key is the id; queries go through the (agent_id, created_at) and (tenant_id, created_at)
-- indexes.
CREATE TABLE llm_usage_logs (
    id                uuid PRIMARY KEY,
    agent_id          uuid,
    tenant_id         uuid,
    role              text NOT NULL,
    background        boolean NOT NULL,
    provider          text NOT NULL,
    model             text NOT NULL,
    prompt_tokens     integer NOT NULL,
    completion_tokens integer NOT NULL,
    -- true when the provider did not report usage and the tokens were counted locally
    tokens_estimated  boolean NOT NULL DEFAULT false,
    latency_ms        integer NOT NULL,
    finish_reason     text NOT NULL CHECK (finish_reason IN ('stop', 'length', 'tool_calls', 'error')),
    cost_usd          double precision NOT NULL DEFAULT 0,
    priced            boolean NOT NULL DEFAULT true,
    error             text,
    request_id        text,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX llm_usage_agent_time ON llm_usage_logs (agent_id, created_at) WHERE agent_id IS NOT NULL;
CREATE INDEX llm_usage_tenant_time ON llm_usage_logs (tenant_id, created_at) WHERE tenant_id IS NOT NULL;
CREATE INDEX llm_usage_time ON llm_usage_logs (created_at);

-- Optional monthly dollar budget per tenant (NULL: none).
ALTER TABLE tenants ADD COLUMN monthly_budget_usd double precision CHECK (monthly_budget_usd >= 0);

-- Operator kill switches for background LLM work: scope 'global' or 'tenant:<uuid>'.
CREATE TABLE llm_kill_switches (
    scope      text PRIMARY KEY,
    reason     text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
