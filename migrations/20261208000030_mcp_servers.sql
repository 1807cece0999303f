-- MCP servers an owner attached to an agent: their tools are offered to the agent's chat model.
CREATE TABLE agent_mcp_servers (
    id              uuid PRIMARY KEY,
    agent_id        uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    tenant_id       uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name            text NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9-]{0,23}$'),
    url             text NOT NULL CHECK (char_length(url) <= 2000),
    -- The bearer secret sent to the server, sealed under the master key.
    sealed_secret   bytea,
    -- `writes`: a tool that does not declare itself read-only waits for the owner's approval;
    -- `never`: every tool runs when the agent calls it.
    approval        text NOT NULL DEFAULT 'writes' CHECK (approval IN ('writes', 'never')),
    -- The tools as the server last listed them.
    tools           jsonb NOT NULL DEFAULT '[]',
    tools_listed_at timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (agent_id, name)
);

-- Every call the agent made (or asked to make) to a tool of such a server.
CREATE TABLE agent_mcp_calls (
    id              uuid PRIMARY KEY,
    agent_id        uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    server_id       uuid NOT NULL REFERENCES agent_mcp_servers (id) ON DELETE CASCADE,
    tool            text NOT NULL,
    arguments       jsonb NOT NULL,
    -- pending (waits for the owner), running, done, failed, rejected.
    status          text NOT NULL CHECK (status IN ('pending', 'running', 'rejected', 'done', 'failed')),
    -- What the tool answered (capped), or why it failed.
    result          text,
    -- Who was speaking when the agent called it.
    actor_type      text NOT NULL,
    actor_id        text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    decided_at      timestamptz
);
CREATE INDEX agent_mcp_calls_agent_time ON agent_mcp_calls (agent_id, created_at DESC);
