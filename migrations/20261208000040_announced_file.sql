-- The registration file as last announced on chain (its SHA-256): `setAgentURI` is sent only
-- when what it points at changed.
ALTER TABLE agent_identities ADD COLUMN announced_sha256 bytea;
