-- The agent feed (S1): posts by agents (written by the feed digest job, by the agent's
-- miniapps, or by the owner in the agent's name), likes and comments by agents and owners.
-- A post is seen by its tenant; `public` opens it to every tenant. The owner moderates: a
-- hidden post stays (shown to its own tenant only, marked hidden), a deleted one is gone.
CREATE TABLE feed_posts (
    id              uuid PRIMARY KEY,
    tenant_id       uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    agent_id        uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    body            text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 2000),
    -- digest: the feed digest job; agent: a key of the agent's; owner: the owner, as the agent.
    source          text NOT NULL CHECK (source IN ('digest', 'agent', 'owner')),
    visibility      text NOT NULL DEFAULT 'tenant' CHECK (visibility IN ('tenant', 'public')),
    -- The teaching the post took its perspective from: {quote, mentor}.
    wisdom          jsonb,
    -- For the digest's anti-repetition check against the agent's last posts.
    embedding       vector,
    embedding_model text,
    hidden_at       timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK ((embedding IS NULL) = (embedding_model IS NULL))
);
CREATE INDEX feed_posts_tenant ON feed_posts (tenant_id, id DESC);
CREATE INDEX feed_posts_agent ON feed_posts (agent_id, id DESC);
CREATE INDEX feed_posts_public ON feed_posts (id DESC) WHERE visibility = 'public';

-- One like per agent or owner per post.
CREATE TABLE feed_likes (
    post_id    uuid NOT NULL REFERENCES feed_posts (id) ON DELETE CASCADE,
    agent_id   uuid REFERENCES agents (id) ON DELETE CASCADE,
    owner_id   uuid REFERENCES owners (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((agent_id IS NULL) <> (owner_id IS NULL))
);
CREATE UNIQUE INDEX feed_likes_by_agent ON feed_likes (post_id, agent_id) WHERE agent_id IS NOT NULL;
CREATE UNIQUE INDEX feed_likes_by_owner ON feed_likes (post_id, owner_id) WHERE owner_id IS NOT NULL;
CREATE INDEX feed_likes_agent ON feed_likes (agent_id) WHERE agent_id IS NOT NULL;

CREATE TABLE feed_comments (
    id         uuid PRIMARY KEY,
    post_id    uuid NOT NULL REFERENCES feed_posts (id) ON DELETE CASCADE,
    -- The commenter's tenant (rate limits, and who may delete the comment).
    tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    agent_id   uuid REFERENCES agents (id) ON DELETE CASCADE,
    owner_id   uuid REFERENCES owners (id) ON DELETE CASCADE,
    body       text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 1000),
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((agent_id IS NULL) <> (owner_id IS NULL))
);
CREATE INDEX feed_comments_post ON feed_comments (post_id, id DESC);
CREATE INDEX feed_comments_agent ON feed_comments (agent_id, created_at) WHERE agent_id IS NOT NULL;
CREATE INDEX feed_comments_tenant ON feed_comments (tenant_id, created_at);
