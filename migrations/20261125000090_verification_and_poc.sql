-- Identity (SPEC I3, I4): human-verification records per agent and the daily history of the
-- Proof-of-Contribution score.

-- One result of a human-verification provider for an agent, recorded by the operator or by the
-- provider's signed webhook. The latest record per provider (by `checked_at`) is the agent's
-- standing with that provider: a `revoked` after a `verified` cancels it.
CREATE TABLE verification_records (
    id            uuid PRIMARY KEY,
    agent_id      uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    provider      text NOT NULL CHECK (provider IN ('self_xyz', 'talent_protocol')),
    status        text NOT NULL CHECK (status IN ('verified', 'pending', 'failed', 'revoked')),
    evidence_url  text,
    evidence_hash text,
    -- The provider's own score when it gives one (Talent Protocol's builder score).
    score         double precision CHECK (score >= 0),
    note          text,
    -- When the provider reached the result (default: when it was recorded).
    checked_at    timestamptz NOT NULL,
    recorded_by   text NOT NULL CHECK (recorded_by IN ('operator', 'webhook')),
    -- A webhook delivery's signature: the same delivery sent again is recognised, not recorded twice.
    delivery      text UNIQUE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CHECK (status <> 'verified' OR evidence_url IS NOT NULL OR evidence_hash IS NOT NULL)
);
CREATE INDEX verification_records_latest ON verification_records (agent_id, provider, checked_at DESC, id DESC);

-- The score as the daily `poc_score` cycle computed it, one row per agent and UTC day.
CREATE TABLE poc_scores (
    agent_id    uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    day         date NOT NULL,
    total       smallint NOT NULL CHECK (total BETWEEN 0 AND 100),
    grade       text NOT NULL CHECK (grade IN ('S', 'A', 'B', 'C', 'D')),
    -- {"identity": 0–100, "social": …, "economy": …, "skills": …, "reputation": …}
    dimensions  jsonb NOT NULL,
    multiplier  double precision NOT NULL,
    computed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (agent_id, day)
);
