-- The agent-scoped tables added since 20261210000010_agent_keyed_newer are keyed by their agent
-- the same way (docs/SCALING.md, "Distribution by agent"): agent_mcp_servers, agent_mcp_calls
-- and memory_imports get primary keys that lead with `agent_id`, and a call's server is found
-- through (agent_id, server_id), so that the database refuses a call made with another agent's
-- server. Existing rows are kept. Plain indexes on `id` keep the few statements that find a row
-- by its id alone fast on one PostgreSQL (on Citus they would fan out; SCALING says so).

-- A call whose server belongs to another agent cannot be written by the application; any such
-- row would stop the composite key below, so it is removed.
DELETE FROM agent_mcp_calls c USING agent_mcp_servers s WHERE s.id = c.server_id AND s.agent_id <> c.agent_id;

ALTER TABLE agent_mcp_calls DROP CONSTRAINT agent_mcp_calls_server_id_fkey;
ALTER TABLE agent_mcp_servers DROP CONSTRAINT agent_mcp_servers_pkey, ADD PRIMARY KEY (agent_id, id);
CREATE INDEX agent_mcp_servers_id_idx ON agent_mcp_servers (id);
ALTER TABLE agent_mcp_calls DROP CONSTRAINT agent_mcp_calls_pkey, ADD PRIMARY KEY (agent_id, id);
CREATE INDEX agent_mcp_calls_id_idx ON agent_mcp_calls (id);
ALTER TABLE agent_mcp_calls ADD CONSTRAINT agent_mcp_calls_server_fkey
    FOREIGN KEY (agent_id, server_id) REFERENCES agent_mcp_servers (agent_id, id) ON DELETE CASCADE;

ALTER TABLE memory_imports DROP CONSTRAINT memory_imports_pkey, ADD PRIMARY KEY (agent_id, id);
CREATE INDEX memory_imports_id_idx ON memory_imports (id);
