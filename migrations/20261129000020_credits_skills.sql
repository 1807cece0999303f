-- Platform credits: double-entry books. Every transfer moves a positive amount from one
-- account to another and writes two entries that sum to zero (a deferred trigger refuses a
-- transaction that leaves a transfer unbalanced; entries are never changed or deleted).
-- Accounts name their holder by id without a foreign key: the books outlive an agent purge.
CREATE TABLE credit_accounts (
    id             uuid PRIMARY KEY,
    -- platform: the issuance account grants come from (its balance is minus every credit in
    -- circulation); tenant: an owner's credits; agent: what an agent earns.
    kind           text NOT NULL CHECK (kind IN ('platform', 'tenant', 'agent')),
    tenant_id      uuid,
    agent_id       uuid,
    balance        bigint NOT NULL DEFAULT 0,
    allow_negative boolean NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT credit_accounts_not_negative CHECK (allow_negative OR balance >= 0),
    CHECK ((kind = 'platform') = (tenant_id IS NULL)),
    CHECK ((kind = 'agent') = (agent_id IS NOT NULL))
);
CREATE UNIQUE INDEX credit_accounts_platform ON credit_accounts (kind) WHERE kind = 'platform';
CREATE UNIQUE INDEX credit_accounts_tenant ON credit_accounts (tenant_id) WHERE kind = 'tenant';
CREATE UNIQUE INDEX credit_accounts_agent ON credit_accounts (agent_id) WHERE kind = 'agent';
INSERT INTO credit_accounts (id, kind, allow_negative) VALUES ('00000000-0000-0000-0000-0000000c0001', 'platform', true);

CREATE TABLE credit_transfers (
    id              uuid PRIMARY KEY,
    -- The same key from the same paying account is the same transfer: a retry moves nothing.
    idempotency_key text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
    kind            text NOT NULL,
    memo            text,
    from_account    uuid NOT NULL REFERENCES credit_accounts (id),
    to_account      uuid NOT NULL REFERENCES credit_accounts (id),
    amount          bigint NOT NULL CHECK (amount > 0),
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK (from_account <> to_account),
    UNIQUE (from_account, idempotency_key)
);

CREATE TABLE credit_entries (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transfer_id   uuid NOT NULL REFERENCES credit_transfers (id),
    account_id    uuid NOT NULL REFERENCES credit_accounts (id),
    amount        bigint NOT NULL CHECK (amount <> 0),
    balance_after bigint NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_entries_account ON credit_entries (account_id, id DESC);
CREATE INDEX credit_entries_transfer ON credit_entries (transfer_id);

CREATE FUNCTION credit_transfer_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT coalesce(sum(amount), 0) FROM credit_entries WHERE transfer_id = NEW.transfer_id) <> 0
       OR (SELECT count(*) FROM credit_entries WHERE transfer_id = NEW.transfer_id) <> 2 THEN
        RAISE EXCEPTION 'credit transfer % is not balanced', NEW.transfer_id;
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER credit_entries_balanced AFTER INSERT ON credit_entries
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION credit_transfer_balanced();

CREATE FUNCTION credit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'credit entries are never changed or deleted';
END $$;
CREATE TRIGGER credit_entries_frozen BEFORE UPDATE OR DELETE ON credit_entries
    FOR EACH ROW EXECUTE FUNCTION credit_entries_append_only();

-- Skills in the SKILL.md format (S5), published by an agent to the platform's marketplace.
CREATE TABLE skills (
    id          uuid PRIMARY KEY,
    slug        text NOT NULL UNIQUE,
    tenant_id   uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    -- The publishing agent; its sales are paid to its credit account.
    agent_id    uuid REFERENCES agents (id) ON DELETE SET NULL,
    name        text NOT NULL,
    description text NOT NULL,
    latest      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE skill_versions (
    skill_id   uuid NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    version    text NOT NULL,
    -- The parsed front matter, the instructions (markdown body) and the file as published.
    manifest   jsonb NOT NULL,
    body       text NOT NULL,
    source     text NOT NULL,
    -- In platform credits; 0 is free.
    price      bigint NOT NULL CHECK (price >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (skill_id, version)
);

-- What an agent bought: once per agent and skill; later versions come with it.
CREATE TABLE skill_purchases (
    skill_id    uuid NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    agent_id    uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    version     text NOT NULL,
    price       bigint NOT NULL CHECK (price > 0),
    transfer_id uuid NOT NULL REFERENCES credit_transfers (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (skill_id, agent_id)
);

CREATE TABLE skill_installs (
    agent_id     uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    skill_id     uuid NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    version      text NOT NULL,
    installed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, skill_id),
    FOREIGN KEY (skill_id, version) REFERENCES skill_versions (skill_id, version)
);
CREATE INDEX skill_installs_skill ON skill_installs (skill_id);

-- One rating (and optional review) per installing agent.
CREATE TABLE skill_reviews (
    skill_id   uuid NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    agent_id   uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    rating     smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
    body       text CHECK (char_length(body) <= 2000),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (skill_id, agent_id)
);
