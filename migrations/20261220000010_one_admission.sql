-- SPEC T1: one admission for every cost. A unit of work (a chat turn, or one background model
-- call) reserves its maximum tokens and dollars against every cap that applies, on the locked
-- rows that carry both what was spent and what is held, and settles the real cost when it
-- ends. Until now only tokens were reserved; the dollar caps were read before the work and
-- paid after it, so parallel work could pass them many times over.

-- A hold may be a turn's (by its reply) or a background call's (`background`); it names the
-- tenant whose rows hold its dollars, the dollars held, and what its calls really cost so far.
ALTER TABLE llm_turn_reservations
    ADD COLUMN tenant_id   uuid,
    ADD COLUMN month       date,
    ADD COLUMN usd         double precision NOT NULL DEFAULT 0 CHECK (usd >= 0),
    ADD COLUMN used_usd    double precision NOT NULL DEFAULT 0 CHECK (used_usd >= 0),
    ADD COLUMN new_account boolean NOT NULL DEFAULT false,
    ADD COLUMN background  boolean NOT NULL DEFAULT false;
-- A new account's turns in progress are counted under its row lock.
CREATE INDEX llm_turn_reservations_tenant ON llm_turn_reservations (tenant_id) WHERE tenant_id IS NOT NULL;

ALTER TABLE llm_tenant_daily_usage ADD COLUMN reserved_usd double precision NOT NULL DEFAULT 0 CHECK (reserved_usd >= 0);
ALTER TABLE llm_tenant_monthly_usage ADD COLUMN reserved_usd double precision NOT NULL DEFAULT 0 CHECK (reserved_usd >= 0);

-- The platform's day in one row: spent and held, in total and by new accounts. The global cap
-- is judged on this row locked, so two admissions cannot both take its last dollar. Only priced
-- work touches it (the offline engine's turns never do).
CREATE TABLE llm_platform_spend (
    day              date PRIMARY KEY,
    cost_usd         double precision NOT NULL DEFAULT 0,
    new_cost_usd     double precision NOT NULL DEFAULT 0,
    reserved_usd     double precision NOT NULL DEFAULT 0 CHECK (reserved_usd >= 0),
    new_reserved_usd double precision NOT NULL DEFAULT 0 CHECK (new_reserved_usd >= 0)
);
INSERT INTO llm_platform_spend (day, cost_usd, new_cost_usd)
SELECT day, sum(cost_usd), sum(new_cost_usd) FROM llm_platform_daily_usage GROUP BY day;
DROP TABLE llm_platform_daily_usage;

-- Admits a unit of work: NULL when granted (the hold `p_hold` is stored and its tokens and
-- dollars held), otherwise why not, with nothing held:
--   agent_tokens  the agent's tokens used and held reach its daily budget
--   busy          a new account already has `p_caps[5]` turns in progress
--   new_account   a new account's spent and held dollars reach its daily allowance
--   tenant_month  the tenant's spent and held dollars reach its monthly budget
--   new_accounts  new accounts' spent and held dollars reach their share of the global cap
--   global        the platform's spent and held dollars reach the global daily cap
-- Each limit is judged on its row locked, in one order everywhere (the agent's day, the
-- tenant's day, the tenant's month, the platform's day), so parallel admissions queue and each
-- sees what the ones before it hold. A unit is admitted while what is spent and held is below
-- the cap: the total stays within the cap plus one unit's maximum.
-- `p_caps` is `[global, new_account, new_accounts, new_days, new_account_turns]` (NULL: off).
CREATE FUNCTION llm_admit(
    p_agent uuid, p_tenant uuid, p_hold uuid, p_tokens bigint, p_usd double precision,
    p_agent_budget bigint, p_tenant_budget double precision, p_new boolean, p_caps double precision[],
    p_background boolean
) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v_day   date := (now() AT TIME ZONE 'UTC')::date;
    v_month date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
    v_paid  boolean := p_usd > 0;
    v_new   boolean := coalesce(p_new, false) AND p_tenant IS NOT NULL;
    r record;
BEGIN
    IF p_agent IS NOT NULL THEN
        INSERT INTO llm_agent_daily_usage (agent_id, day) VALUES (p_agent, v_day) ON CONFLICT DO NOTHING;
        SELECT tokens, reserved INTO r FROM llm_agent_daily_usage WHERE agent_id = p_agent AND day = v_day FOR UPDATE;
        IF p_agent_budget IS NOT NULL AND r.tokens + r.reserved >= p_agent_budget THEN
            RETURN 'agent_tokens';
        END IF;
    END IF;
    -- A new account's day: for its allowance (paid work) and its turns in progress (when limited).
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
    INSERT INTO llm_turn_reservations (agent_id, reply_id, day, month, tokens, tenant_id, usd, new_account, background)
    VALUES (coalesce(p_agent, '00000000-0000-0000-0000-000000000000'), p_hold, v_day, v_month, p_tokens, p_tenant,
            greatest(p_usd, 0), v_new, p_background);
    RETURN NULL;
END $$;

-- Settles hold `p_hold` of agent `p_agent` (the nil uuid for work of no agent): what its calls
-- used moves into the books, what it held is free again, row by row in the order `llm_admit`
-- locks them. Settling twice is harmless (the second finds no hold). True when one was settled.
CREATE FUNCTION llm_settle(p_agent uuid, p_hold uuid) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    h record;
    v_paid boolean;
BEGIN
    DELETE FROM llm_turn_reservations WHERE agent_id = p_agent AND reply_id = p_hold RETURNING * INTO h;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    v_paid := h.usd > 0 OR h.used_usd > 0;
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
