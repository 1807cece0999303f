-- The gas subsidy's per-account cap (issue: one account must not drain the day's budget): each
-- top-up records the account whose agent got it. Earlier rows take their agent's account.
ALTER TABLE gas_topups ADD COLUMN tenant_id uuid REFERENCES tenants (id) ON DELETE CASCADE;
UPDATE gas_topups g SET tenant_id = a.tenant_id FROM agents a WHERE a.id = g.agent_id;
ALTER TABLE gas_topups ALTER COLUMN tenant_id SET NOT NULL;
CREATE INDEX gas_topups_tenant_day ON gas_topups (tenant_id, created_at);
