-- Hardening 6 and 7: the platform's daily model spend (for the global daily cap,
-- `MINICLAW_GLOBAL_DAILY_USD`) and the tokens chat turns hold while they run.

-- Platform-wide model spend per UTC day, updated in the statement that writes the usage log
-- (like the tenants' monthly totals). A day is spread over 16 slots chosen by tenant, so calls
-- of different tenants do not queue on one row; the day's total is the sum of its slots (a
-- primary-key range read).
CREATE TABLE llm_platform_daily_usage (
    day      date NOT NULL,
    slot     smallint NOT NULL CHECK (slot BETWEEN 0 AND 15),
    cost_usd double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (day, slot)
);

INSERT INTO llm_platform_daily_usage (day, slot, cost_usd)
SELECT (created_at AT TIME ZONE 'UTC')::date, 0, sum(cost_usd)
  FROM llm_usage_logs WHERE cost_usd > 0 GROUP BY 1;

-- Tokens held by chat turns in progress: a turn reserves its expected maximum when it is
-- admitted (only while the agent's used and held tokens are below its budget) and gives the
-- reservation back when it ends; its calls add what they really used to `tokens`.
ALTER TABLE llm_agent_daily_usage ADD COLUMN reserved bigint NOT NULL DEFAULT 0 CHECK (reserved >= 0);

-- One row per turn holding tokens, by its reply, so that giving them back happens once (the
-- turn's end, its failure, or the sweep of replies whose process died) and none leaks.
CREATE TABLE llm_turn_reservations (
    agent_id   uuid NOT NULL,
    reply_id   uuid NOT NULL,
    -- the UTC day whose usage row holds the tokens
    day        date NOT NULL,
    tokens     bigint NOT NULL CHECK (tokens >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, reply_id)
);
