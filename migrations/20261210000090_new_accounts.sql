-- Hardening (42, items 6 and 11): an owner's email is verified before mail goes to it, and a
-- new account's model spending is held to its own daily allowance and, with every other new
-- account's, to a share of the global daily cap.

-- When the owner proved the address by the link mailed to it (NULL: not yet). Owners made by
-- the operator (the first start's login) are verified when they are made.
ALTER TABLE owners ADD COLUMN email_verified_at timestamptz;
-- When the operator vouched for the account (the first start's own): established at once.
ALTER TABLE tenants ADD COLUMN vouched_at timestamptz;

-- Single-use links proving an address: the owner's signup email (`owner_email`) or a sender
-- address for the account's outgoing mail (`sender`). Only the SHA-256 of the token is kept.
CREATE TABLE email_verifications (
    token_hash  bytea PRIMARY KEY,
    tenant_id   uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    owner_id    uuid REFERENCES owners (id) ON DELETE CASCADE,
    purpose     text NOT NULL CHECK (purpose IN ('owner_email', 'sender')),
    address     text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX email_verifications_tenant ON email_verifications (tenant_id, created_at);

-- The sender address the account asked for, verified or not: until it is verified the
-- account's mail goes from the platform's address, replies to it by Reply-To.
ALTER TABLE tenant_email_senders ADD COLUMN verified_at timestamptz;

ALTER TABLE email_outbox ADD COLUMN reply_to text;

-- Every outgoing email counts against its account's and the platform's daily send caps.
CREATE TABLE email_daily_counts (
    day       date NOT NULL,
    -- the account, or the nil uuid for the platform's total
    tenant_id uuid NOT NULL,
    sent      integer NOT NULL DEFAULT 0,
    PRIMARY KEY (day, tenant_id)
);

-- A new account's model spend per UTC day (written only while the account is new), and the
-- part of the platform's daily spend that new accounts made.
CREATE TABLE llm_tenant_daily_usage (
    tenant_id uuid NOT NULL,
    day       date NOT NULL,
    cost_usd  double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, day)
);
ALTER TABLE llm_platform_daily_usage ADD COLUMN new_cost_usd double precision NOT NULL DEFAULT 0;

-- Hardening (42, item 7): an agent's domain is its own only once proven by a TXT record
-- (`_miniclaw.<domain>` holding `miniclaw-verify=<token>`); until then it is neither served,
-- registered nor reserved, so a claim nobody proves blocks no one.
ALTER TABLE agent_identities ADD COLUMN domain_token text;
ALTER TABLE agent_identities ADD COLUMN domain_verified_at timestamptz;
-- Domains set before proofs existed must be proven again like any new one.
UPDATE agent_identities
   SET domain_token = md5(random()::text || clock_timestamp()::text || agent_id::text)
 WHERE domain IS NOT NULL;
DROP INDEX agent_identities_domain;
CREATE UNIQUE INDEX agent_identities_domain ON agent_identities (lower(domain)) WHERE domain_verified_at IS NOT NULL;
