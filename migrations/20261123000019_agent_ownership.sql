-- Hardening of agent ownership (issue: hardening, findings 1 and 2).
--
-- The owner decides what a self-service connect may grant: `connect_scopes` is the ceiling of
-- the scopes a signed connect can ask for. The default is reading the agent and chatting with it;
-- `*` and `agent:write` are only ever granted when the owner puts them here.
ALTER TABLE agents
    ADD COLUMN connect_scopes text[] NOT NULL DEFAULT ARRAY['agent:read', 'chat:read', 'chat:write', 'memories:read'],
    -- Deleting an agent hides it at once and purges it after the retention period; until then
    -- its owner can restore it.
    ADD COLUMN deleted_at timestamptz;
CREATE INDEX agents_deleted ON agents (deleted_at) WHERE deleted_at IS NOT NULL;

-- What a connect challenge was issued for is part of the signed message, and is kept with the
-- nonce: the key issued is exactly what the signer saw.
ALTER TABLE auth_challenges
    ADD COLUMN scopes text[],
    ADD COLUMN key_name text,
    ADD COLUMN key_expires_at timestamptz;
