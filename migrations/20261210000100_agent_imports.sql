-- Agent bundles (export and import): which agent an import of given bytes made, so that the
-- same upload sent again returns that agent instead of making a second one.
CREATE TABLE agent_imports (
    tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    -- SHA-256 (hex) of the uploaded bytes.
    digest text NOT NULL,
    agent_id uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    -- miniclaw.agent or letta
    format text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, digest)
);
CREATE INDEX agent_imports_agent ON agent_imports (agent_id);
