-- The agent economy (SPEC I6–I8) on platform credits: tips and gifts, priced services, service
-- orders whose price is held while they run, x402 payment requirements, conviction stakes.
--
-- Two system accounts join the issuance account: `holds` keeps what open orders and active
-- stakes hold (its balance is the sum of what they hold), `sink` receives slashed stakes.
ALTER TABLE credit_accounts DROP CONSTRAINT credit_accounts_kind_check,
                            DROP CONSTRAINT credit_accounts_check;
ALTER TABLE credit_accounts
    ADD CONSTRAINT credit_accounts_kind_check CHECK (kind IN ('platform', 'tenant', 'agent', 'holds', 'sink')),
    ADD CONSTRAINT credit_accounts_holder_check CHECK ((kind IN ('platform', 'holds', 'sink')) = (tenant_id IS NULL));
CREATE UNIQUE INDEX credit_accounts_system ON credit_accounts (kind) WHERE kind IN ('holds', 'sink');
INSERT INTO credit_accounts (id, kind) VALUES ('00000000-0000-0000-0000-0000000c0002', 'holds'),
                                              ('00000000-0000-0000-0000-0000000c0003', 'sink');

-- A tip (owner → agent, agent → agent) or a gift (agent → owner). Credits move at once; native
-- value or the paying agent's token goes out as a wallet transaction and the tip follows it.
CREATE TABLE tips (
    id              uuid PRIMARY KEY,
    -- The payer's tenant and, when an agent pays, the agent.
    tenant_id       uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    from_agent      uuid,
    -- The payee: an agent, or (from_agent's) owner.
    to_tenant       uuid NOT NULL,
    to_agent        uuid,
    rail            text NOT NULL CHECK (rail IN ('credits', 'native', 'token')),
    -- Credits, wei, or base units of the paying agent's token, as a decimal string.
    amount          text NOT NULL CHECK (amount ~ '^[1-9][0-9]{0,77}$'),
    memo            text CHECK (char_length(memo) <= 500),
    -- credits: completed at once, or awaiting the owner's confirmation (a chat tool above the
    -- owner's auto-approve limit) until confirmed or cancelled. native, token: follows its
    -- wallet transaction (the status read joins it).
    status          text NOT NULL CHECK (status IN ('completed', 'pending', 'awaiting_confirmation', 'cancelled')),
    idempotency_key text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
    transfer_id     uuid REFERENCES credit_transfers (id),
    wallet_tx       uuid REFERENCES wallet_transactions (id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (from_agent IS NOT NULL OR to_agent IS NOT NULL),
    CHECK (rail <> 'credits' OR (status = 'completed') = (transfer_id IS NOT NULL))
);

-- What an agent may move on its own (a chat tool) before the owner has to confirm it.
CREATE TABLE agent_economy_settings (
    agent_id             uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    auto_approve_credits bigint NOT NULL DEFAULT 0 CHECK (auto_approve_credits >= 0),
    updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tips_idempotency ON tips (tenant_id, coalesce(from_agent, '00000000-0000-0000-0000-000000000000'::uuid), idempotency_key);
CREATE INDEX tips_from_agent ON tips (from_agent, created_at DESC);
CREATE INDEX tips_to_agent ON tips (to_agent, created_at DESC);

-- A service an agent sells, priced in credits (orders, paid calls) and optionally in wei
-- (paid calls settled on chain).
CREATE TABLE agent_services (
    id          uuid PRIMARY KEY,
    agent_id    uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    tenant_id   uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    slug        text NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
    title       text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 120),
    description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 2000),
    price       bigint NOT NULL CHECK (price > 0 AND price <= 1000000),
    price_wei   text CHECK (price_wei ~ '^[1-9][0-9]{0,77}$'),
    active      boolean NOT NULL DEFAULT true,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (agent_id, slug)
);

-- A buyer agent's order of a seller agent's service. In credits, the price is held in the ledger
-- from `offered` until the order is settled (paid to the seller) or refunded (back to the
-- buyer). In escrow, the price in wei is held by the escrow contract, and the order follows the
-- contract (funded, released, refunded) through the wallet transactions that drive it.
CREATE TABLE service_orders (
    id              uuid PRIMARY KEY,
    service_id      uuid NOT NULL REFERENCES agent_services (id) ON DELETE RESTRICT,
    buyer_agent     uuid NOT NULL,
    buyer_tenant    uuid NOT NULL,
    seller_agent    uuid NOT NULL,
    seller_tenant   uuid NOT NULL,
    -- In credits (a credits order); an escrowed order's price is `price_wei`.
    price           bigint CHECK (price > 0),
    status          text NOT NULL CHECK (status IN ('offered', 'accepted', 'delivered', 'settled', 'disputed', 'refunded')),
    request         text NOT NULL CHECK (char_length(request) <= 4000),
    delivery        text CHECK (char_length(delivery) <= 20000),
    dispute_reason  text CHECK (char_length(dispute_reason) <= 2000),
    resolution      text CHECK (char_length(resolution) <= 2000),
    rating          smallint CHECK (rating BETWEEN 1 AND 5),
    idempotency_key text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
    rail            text NOT NULL DEFAULT 'credits' CHECK (rail IN ('credits', 'escrow')),
    hold_transfer   uuid REFERENCES credit_transfers (id),
    close_transfer  uuid REFERENCES credit_transfers (id),
    price_wei       text CHECK (price_wei ~ '^[1-9][0-9]{0,77}$'),
    -- funding, funded, fund_failed, releasing, release_failed, released, refunding, refund_failed, refunded.
    escrow_state    text,
    escrow_tx       uuid REFERENCES wallet_transactions (id) ON DELETE SET NULL,
    escrow_error    text,
    -- Past it an accepted order that was not delivered may be refunded by the buyer.
    deliver_by      timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    closed_at       timestamptz,
    CHECK (buyer_agent <> seller_agent),
    CHECK ((rail = 'credits') = (hold_transfer IS NOT NULL AND price IS NOT NULL)),
    CHECK ((rail = 'escrow') = (price_wei IS NOT NULL AND escrow_state IS NOT NULL)),
    CHECK (rail = 'escrow' OR (status IN ('settled', 'refunded')) = (close_transfer IS NOT NULL)),
    UNIQUE (buyer_agent, idempotency_key)
);
CREATE INDEX service_orders_buyer ON service_orders (buyer_agent, created_at DESC);
CREATE INDEX service_orders_seller ON service_orders (seller_agent, created_at DESC);

-- x402 payment requirements a paid service handed out, each good for one payment: in credits
-- to the seller's account, or (when the service has a wei price and a chain is configured) in
-- native value to its wallet. The proof (a credit transfer id or a transaction hash) is unique,
-- so a proof cannot pay twice; a requirement is served once.
CREATE TABLE payment_requirements (
    nonce          text PRIMARY KEY CHECK (char_length(nonce) BETWEEN 16 AND 100),
    service_id     uuid NOT NULL REFERENCES agent_services (id) ON DELETE CASCADE,
    agent_id       uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    credits        bigint NOT NULL CHECK (credits > 0),
    pay_to_account uuid NOT NULL REFERENCES credit_accounts (id),
    wei            text,
    pay_to_address text,
    chain_id       bigint,
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz NOT NULL,
    -- Set together when a payment is verified.
    paid_at        timestamptz,
    paid_in        text CHECK (paid_in IN ('credits', 'native')),
    proof          text UNIQUE,
    payer          text,
    -- One request at a time answers a paid call: it holds this lease (a failed answer clears it).
    serving_since  timestamptz,
    served_at      timestamptz,
    CHECK ((paid_at IS NULL) = (proof IS NULL) AND (paid_at IS NULL) = (paid_in IS NULL)),
    CHECK ((wei IS NULL) = (pay_to_address IS NULL) AND (wei IS NULL) = (chain_id IS NULL))
);
CREATE INDEX payment_requirements_agent ON payment_requirements (agent_id, created_at DESC);

-- Conviction stakes: credits an owner or an agent locks behind an agent or a skill, on a topic,
-- or tokens of the staking agent's own ERC-20. Conviction grows with the stake's age; the
-- operator (or a recorded outcome) validates a stake (it goes back to the staker) or slashes it
-- (it goes to the sink). Credits are held in the ledger (`holds`); tokens by the platform's
-- sponsor wallet, from the stake's transfer (`stake_tx`: the stake is `pending` until it is
-- mined) until they are sent back or to the slash sink address (`close_tx`).
CREATE TABLE stakes (
    id              uuid PRIMARY KEY,
    tenant_id       uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    staker_agent    uuid,
    target_kind     text NOT NULL CHECK (target_kind IN ('agent', 'skill')),
    target_agent    uuid NOT NULL,
    target_skill    uuid,
    topic           text NOT NULL CHECK (topic ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
    asset           text NOT NULL DEFAULT 'credits' CHECK (asset IN ('credits', 'token')),
    -- Credits, or whole tokens (`units` base units).
    amount          bigint NOT NULL CHECK (amount > 0),
    units           text CHECK (units ~ '^[1-9][0-9]{0,77}$'),
    status          text NOT NULL CHECK (status IN ('pending', 'active', 'validated', 'slashed', 'withdrawn', 'failed')),
    idempotency_key text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
    hold_transfer   uuid REFERENCES credit_transfers (id),
    close_transfer  uuid REFERENCES credit_transfers (id),
    stake_tx        uuid REFERENCES wallet_transactions (id) ON DELETE SET NULL,
    close_tx        uuid REFERENCES wallet_transactions (id) ON DELETE SET NULL,
    outcome         text CHECK (char_length(outcome) <= 2000),
    created_at      timestamptz NOT NULL DEFAULT now(),
    resolved_at     timestamptz,
    CHECK ((target_kind = 'skill') = (target_skill IS NOT NULL)),
    CHECK ((asset = 'credits') = (hold_transfer IS NOT NULL)),
    CHECK ((asset = 'token') = (units IS NOT NULL)),
    CHECK (asset = 'token' OR (status = 'active') = (close_transfer IS NULL))
);
CREATE UNIQUE INDEX stakes_idempotency ON stakes (tenant_id, coalesce(staker_agent, '00000000-0000-0000-0000-000000000000'::uuid), idempotency_key);
CREATE INDEX stakes_target ON stakes (target_agent, status);
CREATE INDEX stakes_topic ON stakes (topic, status);
