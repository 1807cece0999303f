-- Running totals for budget checks (SPEC M7): one row per agent per UTC day and per tenant per
-- UTC month, updated in the statement that writes the usage log. Checking a budget is then a
-- primary-key lookup instead of a sum over the period's logs, and the monthly total outlives
-- the 30-day log retention.
CREATE TABLE llm_agent_daily_usage (
    agent_id uuid NOT NULL,
    day      date NOT NULL,
    tokens   bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (agent_id, day)
);

CREATE TABLE llm_tenant_monthly_usage (
    tenant_id uuid NOT NULL,
    month     date NOT NULL,
    cost_usd  double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, month)
);

INSERT INTO llm_agent_daily_usage (agent_id, day, tokens)
SELECT agent_id, (created_at AT TIME ZONE 'UTC')::date, sum(prompt_tokens + completion_tokens)
  FROM llm_usage_logs WHERE agent_id IS NOT NULL GROUP BY 1, 2;

INSERT INTO llm_tenant_monthly_usage (tenant_id, month, cost_usd)
SELECT tenant_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, sum(cost_usd)
  FROM llm_usage_logs WHERE tenant_id IS NOT NULL GROUP BY 1, 2;
