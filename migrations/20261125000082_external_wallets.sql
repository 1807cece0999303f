-- Owner-held wallets of an agent (SPEC I2), known by address only: miniclaw reads their
-- balance and never signs for them.
CREATE TABLE agent_external_wallets (
    id uuid PRIMARY KEY,
    agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    -- Lower-case 0x address.
    address text NOT NULL,
    label text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (agent_id, address)
);
