-- The agent economy on chain (SPEC I5, I6, I8): agent tokens (deployed from the agent's wallet
-- and indexed from their Transfer events), the transactions of escrowed service orders, the
-- platform's gas subsidy.
--
-- Every transaction goes through wallet_transactions: requested (`queued`, the call already
-- encoded), signed once and recorded before broadcast, settled by its job. The platform's
-- sponsor wallet signs gas top-ups and the arbiter's escrow refunds (`signer = 'sponsor'`;
-- `agent_id` is then the agent it is for).
ALTER TABLE wallet_transactions DROP CONSTRAINT wallet_transactions_purpose_check;
ALTER TABLE wallet_transactions ADD CONSTRAINT wallet_transactions_purpose_check CHECK (purpose IN (
    'register', 'set_agent_uri', 'send', 'deploy_token', 'token_transfer', 'escrow_fund', 'escrow_release',
    'escrow_refund', 'gas_topup'));
ALTER TABLE wallet_transactions ADD COLUMN signer text NOT NULL DEFAULT 'agent' CHECK (signer IN ('agent', 'sponsor'));
-- An unsigned contract deployment has no address yet (it is the wallet's CREATE address once signed).
ALTER TABLE wallet_transactions ADD COLUMN creates boolean NOT NULL DEFAULT false;

-- An agent's ERC-20 (one per agent). `address` is set when the deployment is signed; the token
-- is live once that transaction is confirmed.
CREATE TABLE agent_tokens (
    agent_id      uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    chain_id      bigint NOT NULL,
    name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
    symbol        text NOT NULL CHECK (symbol ~ '^[A-Z0-9]{1,11}$'),
    decimals      smallint NOT NULL CHECK (decimals BETWEEN 0 AND 18),
    -- Base units, as a decimal string.
    supply        text NOT NULL CHECK (supply ~ '^[1-9][0-9]{0,77}$'),
    deploy_tx     uuid NOT NULL REFERENCES wallet_transactions (id),
    address       text,
    deployed_block bigint,
    deployed_at   timestamptz,
    -- The indexer's cursor: every Transfer event up to this block is in token_transfers.
    indexed_block bigint,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX agent_tokens_address ON agent_tokens (chain_id, address);

-- Transfer events of agent tokens, once each (a re-read block inserts nothing).
CREATE TABLE token_transfers (
    agent_id     uuid NOT NULL REFERENCES agent_tokens (agent_id) ON DELETE CASCADE,
    block_number bigint NOT NULL,
    log_index    bigint NOT NULL,
    tx_hash      text NOT NULL,
    from_address text NOT NULL,
    to_address   text NOT NULL,
    value        numeric(78, 0) NOT NULL,
    block_time   timestamptz,
    PRIMARY KEY (agent_id, tx_hash, log_index)
);
CREATE INDEX token_transfers_block ON token_transfers (agent_id, block_number DESC, log_index DESC);

-- Balances folded from the indexed transfers (the zero address is the mint's source).
CREATE TABLE token_balances (
    agent_id uuid NOT NULL REFERENCES agent_tokens (agent_id) ON DELETE CASCADE,
    address  text NOT NULL,
    balance  numeric(78, 0) NOT NULL,
    PRIMARY KEY (agent_id, address)
);

-- Gas top-ups from the sponsor wallet, within a daily platform budget.
CREATE TABLE gas_topups (
    id         uuid PRIMARY KEY,
    agent_id   uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    address    text NOT NULL,
    amount_wei numeric(78, 0) NOT NULL CHECK (amount_wei > 0),
    wallet_tx  uuid REFERENCES wallet_transactions (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gas_topups_day ON gas_topups (created_at);
CREATE INDEX gas_topups_agent ON gas_topups (agent_id, created_at DESC);
