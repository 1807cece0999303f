-- SPEC T2: one policy for every speaker. An MCP server's tools run with its owner's stored
-- secret, so they are offered to the owner in person unless the owner makes the server
-- available to other speakers (owner_key, end_user, correspondent, peer, payer). Each call
-- records who was speaking, so a pending approval says who asked.
ALTER TABLE agent_mcp_servers ADD COLUMN available_to text[] NOT NULL DEFAULT '{owner}';
ALTER TABLE agent_mcp_calls ADD COLUMN speaker text;
