-- The agent-scoped tables added since 20261123000017_agent_keyed are keyed by their agent the
-- same way (docs/SCALING.md, "Distribution by agent"): the primary key leads with `agent_id`,
-- every unique constraint includes it unless it must stay global (below), and every foreign key
-- between two rows of the same agent leads with it, so that the database refuses a reference
-- across agents and Citus can co-locate the rows with `agents`. Existing rows are kept. The
-- tables: memory_hits, memory_agent_indexes, wallet_transactions, agent_external_wallets,
-- verification_records, skill_purchases, skill_reviews, feed_posts, agent_services,
-- payment_requirements, gas_topups (memory_agent_indexes, left with the platform tables by
-- 20261123000017, holds one row per agent's own vector index: it is keyed too). The foreign keys
-- that agent_identities and agent_tokens hold on their agent's wallet transactions become
-- composite with them.
--
-- What stays global, because the rows that point at it belong to someone else or because the
-- guarantee is platform-wide (each is listed in docs/SCALING.md as not yet shard-local):
--   * UNIQUE (id) on wallet_transactions, feed_posts and agent_services: tips, service orders and
--     stakes (two-party rows, no single agent) reference a wallet transaction by its id; likes
--     and comments by other agents and owners reference a post; a buyer's order references the
--     seller's service. Their foreign keys stay single-column, on that UNIQUE (id).
--   * wallet_transactions UNIQUE (tx_hash): a signed transaction is recorded once, platform-wide.
--     The sponsor wallet signs for many agents (gas top-ups, escrow refunds), so a per-agent
--     constraint would let the same sponsor transaction be recorded under two agents.
--   * payment_requirements UNIQUE (proof): a payment (a credit transfer id or a transaction hash)
--     pays one requirement, whoever the seller; `verify` relies on this constraint to refuse a
--     replayed proof.
--   * skill_purchases and skill_reviews reference the skill by id alone: the skill belongs to its
--     publishing agent (or to no agent any more), the purchase and review to the buyer.
-- verification_records' webhook `delivery` becomes unique per agent: it is the HMAC of the
-- signed body, which names the agent, so the same delivery always comes for the same agent.
-- payment_requirements' `nonce` (64 random hex digits made by the server, like a random id) is
-- unique per agent; a plain index serves the x402 statements that find it by the nonce alone.
--
-- Plain (non-unique) indexes are kept or added where statements look rows up without the agent:
-- payment_requirements by nonce, skill purchases and reviews by skill (market listings and
-- counts, and the cascade from `skills`).

-- 1. References between rows of one agent agree before the composite foreign keys check them
--    (the application always writes the same agent, so these are expected to touch nothing).
--    Optional references that would cross agents are cleared, as ON DELETE SET NULL would; a
--    payment requirement takes its service's agent (the service is authoritative).
DO $$
DECLARE
    n bigint;
BEGIN
    UPDATE payment_requirements r SET agent_id = s.agent_id
      FROM agent_services s WHERE s.id = r.service_id AND r.agent_id <> s.agent_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN RAISE NOTICE 'payment_requirements: % rows took their service''s agent_id', n; END IF;

    UPDATE gas_topups g SET wallet_tx = NULL
      FROM wallet_transactions w WHERE w.id = g.wallet_tx AND w.agent_id <> g.agent_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN RAISE NOTICE 'gas_topups: % links to another agent''s transaction cleared', n; END IF;

    UPDATE agent_identities i SET tx_id = NULL
      FROM wallet_transactions w WHERE w.id = i.tx_id AND w.agent_id <> i.agent_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN RAISE NOTICE 'agent_identities: % links to another agent''s transaction cleared', n; END IF;

    -- deploy_tx is required: a token deployed by another agent's transaction cannot be mended
    -- here.
    SELECT count(*) INTO n FROM agent_tokens t JOIN wallet_transactions w ON w.id = t.deploy_tx
     WHERE w.agent_id <> t.agent_id;
    IF n > 0 THEN
        RAISE EXCEPTION 'agent_tokens: % tokens name another agent''s deployment transaction', n;
    END IF;
END $$;

-- 2. memory_hits has no key (it is appended to and emptied by the fold): a generated id gives it
--    one. It keeps no foreign key to agent_memories: a hit is appended without locking its
--    memory, and one whose memory was deleted meanwhile is dropped by the fold.
ALTER TABLE memory_hits ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE memory_hits ADD CONSTRAINT memory_hits_pkey PRIMARY KEY (agent_id, id);

-- 3. The foreign keys on the primary keys being replaced go first.
ALTER TABLE agent_identities DROP CONSTRAINT agent_identities_tx_id_fkey;
ALTER TABLE agent_tokens DROP CONSTRAINT agent_tokens_deploy_tx_fkey;
ALTER TABLE gas_topups DROP CONSTRAINT gas_topups_wallet_tx_fkey;
ALTER TABLE tips DROP CONSTRAINT tips_wallet_tx_fkey;
ALTER TABLE service_orders
    DROP CONSTRAINT service_orders_escrow_tx_fkey,
    DROP CONSTRAINT service_orders_service_id_fkey;
ALTER TABLE stakes
    DROP CONSTRAINT stakes_stake_tx_fkey,
    DROP CONSTRAINT stakes_close_tx_fkey;
ALTER TABLE feed_likes DROP CONSTRAINT feed_likes_post_id_fkey;
ALTER TABLE feed_comments DROP CONSTRAINT feed_comments_post_id_fkey;
ALTER TABLE payment_requirements DROP CONSTRAINT payment_requirements_service_id_fkey;

-- 4. Primary keys lead with agent_id; unique constraints include it, or stay global (above).
ALTER TABLE wallet_transactions
    DROP CONSTRAINT wallet_transactions_pkey,
    ADD CONSTRAINT wallet_transactions_pkey PRIMARY KEY (agent_id, id),
    -- Referenced by id alone from tips, service_orders and stakes.
    ADD CONSTRAINT wallet_transactions_id_key UNIQUE (id);
-- wallet_transactions_tx_hash_key UNIQUE (tx_hash) stays global: a transaction is recorded once.

ALTER TABLE agent_external_wallets
    DROP CONSTRAINT agent_external_wallets_pkey,
    ADD CONSTRAINT agent_external_wallets_pkey PRIMARY KEY (agent_id, id);
-- agent_external_wallets_agent_id_address_key UNIQUE (agent_id, address) leads with it already.

ALTER TABLE verification_records
    DROP CONSTRAINT verification_records_pkey,
    ADD CONSTRAINT verification_records_pkey PRIMARY KEY (agent_id, id),
    DROP CONSTRAINT verification_records_delivery_key,
    ADD CONSTRAINT verification_records_agent_id_delivery_key UNIQUE (agent_id, delivery);

ALTER TABLE skill_purchases
    DROP CONSTRAINT skill_purchases_pkey,
    ADD CONSTRAINT skill_purchases_pkey PRIMARY KEY (agent_id, skill_id);
CREATE INDEX skill_purchases_skill ON skill_purchases (skill_id);

ALTER TABLE skill_reviews
    DROP CONSTRAINT skill_reviews_pkey,
    ADD CONSTRAINT skill_reviews_pkey PRIMARY KEY (agent_id, skill_id);
CREATE INDEX skill_reviews_skill ON skill_reviews (skill_id);

ALTER TABLE feed_posts
    DROP CONSTRAINT feed_posts_pkey,
    ADD CONSTRAINT feed_posts_pkey PRIMARY KEY (agent_id, id),
    -- Referenced by id alone from feed_likes and feed_comments (other agents, owners).
    ADD CONSTRAINT feed_posts_id_key UNIQUE (id);
-- The primary key serves what this index did (an agent's posts, newest first).
DROP INDEX feed_posts_agent;

ALTER TABLE agent_services
    DROP CONSTRAINT agent_services_pkey,
    ADD CONSTRAINT agent_services_pkey PRIMARY KEY (agent_id, id),
    -- Referenced by id alone from service_orders (the buyer's order of the seller's service).
    ADD CONSTRAINT agent_services_id_key UNIQUE (id);
-- agent_services_agent_id_slug_key UNIQUE (agent_id, slug) leads with it already.

ALTER TABLE payment_requirements
    DROP CONSTRAINT payment_requirements_pkey,
    ADD CONSTRAINT payment_requirements_pkey PRIMARY KEY (agent_id, nonce);
CREATE INDEX payment_requirements_nonce ON payment_requirements (nonce);
-- payment_requirements_proof_key UNIQUE (proof) stays global: a proof pays once.

ALTER TABLE gas_topups
    DROP CONSTRAINT gas_topups_pkey,
    ADD CONSTRAINT gas_topups_pkey PRIMARY KEY (agent_id, id);

-- The index name embeds the agent's id, so it is unique across agents as well.
ALTER TABLE memory_agent_indexes
    DROP CONSTRAINT memory_agent_indexes_pkey,
    ADD CONSTRAINT memory_agent_indexes_pkey PRIMARY KEY (agent_id, index_name);
-- memory_agent_indexes_agent_id_embedding_model_key UNIQUE (agent_id, embedding_model) leads
-- with it already. Still no foreign key to agents: a deleted agent's index must be found to be
-- dropped.

-- 5. Foreign keys between rows of one agent lead with agent_id, with the same ON DELETE
--    behaviour (SET NULL clears only the reference, never agent_id). A wallet transaction's
--    agent is the agent it is for, also when the sponsor signs it (a gas top-up).
ALTER TABLE agent_identities
    ADD CONSTRAINT agent_identities_tx_id_fkey FOREIGN KEY (agent_id, tx_id)
        REFERENCES wallet_transactions (agent_id, id) ON DELETE SET NULL (tx_id);
ALTER TABLE agent_tokens
    ADD CONSTRAINT agent_tokens_deploy_tx_fkey FOREIGN KEY (agent_id, deploy_tx)
        REFERENCES wallet_transactions (agent_id, id);
ALTER TABLE gas_topups
    ADD CONSTRAINT gas_topups_wallet_tx_fkey FOREIGN KEY (agent_id, wallet_tx)
        REFERENCES wallet_transactions (agent_id, id) ON DELETE SET NULL (wallet_tx);
ALTER TABLE payment_requirements
    ADD CONSTRAINT payment_requirements_service_id_fkey FOREIGN KEY (agent_id, service_id)
        REFERENCES agent_services (agent_id, id) ON DELETE CASCADE;

-- 6. References that cross agents (or come from two-party rows) stay single-column, on the
--    UNIQUE (id) kept above, with their ON DELETE behaviour.
ALTER TABLE tips
    ADD CONSTRAINT tips_wallet_tx_fkey FOREIGN KEY (wallet_tx)
        REFERENCES wallet_transactions (id) ON DELETE SET NULL;
ALTER TABLE service_orders
    ADD CONSTRAINT service_orders_escrow_tx_fkey FOREIGN KEY (escrow_tx)
        REFERENCES wallet_transactions (id) ON DELETE SET NULL,
    ADD CONSTRAINT service_orders_service_id_fkey FOREIGN KEY (service_id)
        REFERENCES agent_services (id) ON DELETE RESTRICT;
ALTER TABLE stakes
    ADD CONSTRAINT stakes_stake_tx_fkey FOREIGN KEY (stake_tx)
        REFERENCES wallet_transactions (id) ON DELETE SET NULL,
    ADD CONSTRAINT stakes_close_tx_fkey FOREIGN KEY (close_tx)
        REFERENCES wallet_transactions (id) ON DELETE SET NULL;
ALTER TABLE feed_likes
    ADD CONSTRAINT feed_likes_post_id_fkey FOREIGN KEY (post_id)
        REFERENCES feed_posts (id) ON DELETE CASCADE;
ALTER TABLE feed_comments
    ADD CONSTRAINT feed_comments_post_id_fkey FOREIGN KEY (post_id)
        REFERENCES feed_posts (id) ON DELETE CASCADE;
