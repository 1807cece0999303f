-- SPEC H4: keys of the account, a key's own rate and daily spend, and usage by key.

-- An account key reaches some of the account's agents (`agents`) or all of them, now and
-- later (NULL), with the scopes an agent's key has. Its token is spelt as an agent key's
-- (`mck_<id>_<secret>`): authentication looks the id up here when no agent key has it.
CREATE TABLE account_keys (
    id              uuid PRIMARY KEY,
    tenant_id       uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name            text NOT NULL,
    secret_hash     bytea NOT NULL,
    scopes          text[] NOT NULL,
    agents          uuid[],
    rate_per_minute integer CHECK (rate_per_minute > 0),
    daily_usd_cap   double precision CHECK (daily_usd_cap >= 0),
    created_by      text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_used_at    timestamptz,
    expires_at      timestamptz,
    revoked_at      timestamptz
);
CREATE INDEX account_keys_tenant ON account_keys (tenant_id, created_at DESC, id DESC);

-- An agent's key may have its own rate and daily spend too.
ALTER TABLE api_keys
    ADD COLUMN rate_per_minute integer CHECK (rate_per_minute > 0),
    ADD COLUMN daily_usd_cap   double precision CHECK (daily_usd_cap >= 0);

-- Which key a model call was made for (a chat turn a key started), and which key a hold is
-- charged to.
ALTER TABLE llm_usage_logs ADD COLUMN key_id uuid;
CREATE INDEX llm_usage_key_time ON llm_usage_logs (key_id, created_at) WHERE key_id IS NOT NULL;
ALTER TABLE llm_turn_reservations ADD COLUMN key_id uuid;

-- A key's dollars of the day, spent and held: its daily cap is judged on this row locked.
CREATE TABLE llm_key_daily_usage (
    key_id       uuid NOT NULL,
    day          date NOT NULL,
    cost_usd     double precision NOT NULL DEFAULT 0,
    reserved_usd double precision NOT NULL DEFAULT 0 CHECK (reserved_usd >= 0),
    PRIMARY KEY (key_id, day)
);

-- `llm_admit` as before, and first the key's day when the work is a key's and paid:
--   key_day  the key's spent and held dollars of the day reach its daily cap
-- Lock order, everywhere: the key's day, the agent's day, the tenant's day, the tenant's month,
-- the platform's day.
DROP FUNCTION llm_admit(uuid, uuid, uuid, bigint, double precision, bigint, double precision, boolean,
                        double precision[], boolean);
CREATE FUNCTION llm_admit(
    p_agent uuid, p_tenant uuid, p_hold uuid, p_tokens bigint, p_usd double precision,
    p_agent_budget bigint, p_tenant_budget double precision, p_new boolean, p_caps double precision[],
    p_background boolean, p_key uuid, p_key_cap double precision
) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v_day   date := (now() AT TIME ZONE 'UTC')::date;
    v_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
    v_paid  boolean := p_usd > 0;
    v_new   boolean := coalesce(p_new, false) AND p_tenant IS NOT NULL;
    v_key   boolean := p_key IS NOT NULL AND v_paid;
    r record;
BEGIN
    IF v_key THEN
        INSERT INTO llm_key_daily_usage (key_id, day) VALUES (p_key, v_day) ON CONFLICT DO NOTHING;
        SELECT cost_usd, reserved_usd INTO r FROM llm_key_daily_usage WHERE key_id = p_key AND day = v_day FOR UPDATE;
        IF p_key_cap IS NOT NULL AND r.cost_usd + r.reserved_usd >= p_key_cap THEN
            RETURN 'key_day';
        END IF;
    END IF;
    IF p_agent IS NOT NULL THEN
        INSERT INTO llm_agent_daily_usage (agent_id, day) VALUES (p_agent, v_day) ON CONFLICT DO NOTHING;
        SELECT tokens, reserved INTO r FROM llm_agent_daily_usage WHERE agent_id = p_agent AND day = v_day FOR UPDATE;
        IF p_agent_budget IS NOT NULL AND r.tokens + r.reserved >= p_agent_budget THEN
            RETURN 'agent_tokens';
        END IF;
    END IF;
    IF v_new AND (v_paid OR (NOT p_background AND p_caps[5] IS NOT NULL)) THEN
        INSERT INTO llm_tenant_daily_usage (tenant_id, day) VALUES (p_tenant, v_day) ON CONFLICT DO NOTHING;
        SELECT cost_usd, reserved_usd INTO r FROM llm_tenant_daily_usage
         WHERE tenant_id = p_tenant AND day = v_day FOR UPDATE;
        IF NOT p_background AND p_caps[5] IS NOT NULL AND (
            SELECT count(*) FROM llm_turn_reservations WHERE tenant_id = p_tenant AND NOT background
        ) >= p_caps[5] THEN
            RETURN 'busy';
        END IF;
        IF v_paid AND p_caps[2] IS NOT NULL AND r.cost_usd + r.reserved_usd >= p_caps[2] THEN
            RETURN 'new_account';
        END IF;
    END IF;
    IF v_paid AND p_tenant IS NOT NULL THEN
        INSERT INTO llm_tenant_monthly_usage (tenant_id, month) VALUES (p_tenant, v_month) ON CONFLICT DO NOTHING;
        SELECT cost_usd, reserved_usd INTO r FROM llm_tenant_monthly_usage
         WHERE tenant_id = p_tenant AND month = v_month FOR UPDATE;
        IF p_tenant_budget IS NOT NULL AND r.cost_usd + r.reserved_usd >= p_tenant_budget THEN
            RETURN 'tenant_month';
        END IF;
    END IF;
    IF v_paid THEN
        INSERT INTO llm_platform_spend (day) VALUES (v_day) ON CONFLICT DO NOTHING;
        SELECT cost_usd, new_cost_usd, reserved_usd, new_reserved_usd INTO r FROM llm_platform_spend
         WHERE day = v_day FOR UPDATE;
        IF v_new AND p_caps[3] IS NOT NULL AND r.new_cost_usd + r.new_reserved_usd >= p_caps[3] THEN
            RETURN 'new_accounts';
        END IF;
        IF p_caps[1] IS NOT NULL AND r.cost_usd + r.reserved_usd >= p_caps[1] THEN
            RETURN 'global';
        END IF;
    END IF;

    -- Every limit holds: hold the unit's share on each row (all locked above).
    IF v_key THEN
        UPDATE llm_key_daily_usage SET reserved_usd = reserved_usd + p_usd WHERE key_id = p_key AND day = v_day;
    END IF;
    IF p_agent IS NOT NULL THEN
        UPDATE llm_agent_daily_usage SET reserved = reserved + p_tokens WHERE agent_id = p_agent AND day = v_day;
    END IF;
    IF v_new AND v_paid THEN
        UPDATE llm_tenant_daily_usage SET reserved_usd = reserved_usd + p_usd WHERE tenant_id = p_tenant AND day = v_day;
    END IF;
    IF v_paid AND p_tenant IS NOT NULL THEN
        UPDATE llm_tenant_monthly_usage SET reserved_usd = reserved_usd + p_usd
         WHERE tenant_id = p_tenant AND month = v_month;
    END IF;
    IF v_paid THEN
        UPDATE llm_platform_spend
           SET reserved_usd = reserved_usd + p_usd,
               new_reserved_usd = new_reserved_usd + CASE WHEN v_new THEN p_usd ELSE 0 END
         WHERE day = v_day;
    END IF;
    INSERT INTO llm_turn_reservations (agent_id, reply_id, day, month, tokens, tenant_id, usd, new_account, background,
                                       key_id)
    VALUES (coalesce(p_agent, '00000000-0000-0000-0000-000000000000'), p_hold, v_day, v_month, p_tokens, p_tenant,
            greatest(p_usd, 0), v_new, p_background, CASE WHEN v_key THEN p_key END);
    RETURN NULL;
END $$;

-- `llm_settle` as before, and the key's day first when the hold is a key's.
CREATE OR REPLACE FUNCTION llm_settle(p_agent uuid, p_hold uuid) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    h record;
    v_paid boolean;
BEGIN
    DELETE FROM llm_turn_reservations WHERE agent_id = p_agent AND reply_id = p_hold RETURNING * INTO h;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    v_paid := h.usd > 0 OR h.used_usd > 0;
    IF h.key_id IS NOT NULL THEN
        INSERT INTO llm_key_daily_usage AS u (key_id, day, cost_usd) VALUES (h.key_id, h.day, h.used_usd)
        ON CONFLICT (key_id, day) DO UPDATE
           SET cost_usd = u.cost_usd + excluded.cost_usd, reserved_usd = greatest(u.reserved_usd - h.usd, 0);
    END IF;
    IF h.agent_id <> '00000000-0000-0000-0000-000000000000' THEN
        UPDATE llm_agent_daily_usage SET reserved = greatest(reserved - h.tokens, 0), tokens = tokens + h.used
         WHERE agent_id = h.agent_id AND day = h.day;
    END IF;
    IF h.new_account AND v_paid THEN
        INSERT INTO llm_tenant_daily_usage AS u (tenant_id, day, cost_usd) VALUES (h.tenant_id, h.day, h.used_usd)
        ON CONFLICT (tenant_id, day) DO UPDATE
           SET cost_usd = u.cost_usd + excluded.cost_usd, reserved_usd = greatest(u.reserved_usd - h.usd, 0);
    END IF;
    IF v_paid AND h.tenant_id IS NOT NULL THEN
        INSERT INTO llm_tenant_monthly_usage AS u (tenant_id, month, cost_usd)
        VALUES (h.tenant_id, coalesce(h.month, date_trunc('month', h.day)::date), h.used_usd)
        ON CONFLICT (tenant_id, month) DO UPDATE
           SET cost_usd = u.cost_usd + excluded.cost_usd, reserved_usd = greatest(u.reserved_usd - h.usd, 0);
    END IF;
    IF v_paid THEN
        INSERT INTO llm_platform_spend AS u (day, cost_usd, new_cost_usd)
        VALUES (h.day, h.used_usd, CASE WHEN h.new_account THEN h.used_usd ELSE 0 END)
        ON CONFLICT (day) DO UPDATE
           SET cost_usd = u.cost_usd + excluded.cost_usd, new_cost_usd = u.new_cost_usd + excluded.new_cost_usd,
               reserved_usd = greatest(u.reserved_usd - h.usd, 0),
               new_reserved_usd = greatest(u.new_reserved_usd - CASE WHEN h.new_account THEN h.usd ELSE 0 END, 0);
    END IF;
    RETURN true;
END $$;
