-- Agent memory (SPEC R1–R8, X1).

-- One remembered fact, preference, insight or knowledge chunk. `embedding` has no fixed
-- dimension so vectors of several models can coexist; each model gets its own partial HNSW
-- index over the cast column (see `memory::vector`), and queries only compare vectors of the
-- same model.
CREATE TABLE agent_memories (
    id                uuid PRIMARY KEY,
    agent_id          uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    content           text NOT NULL CHECK (length(content) BETWEEN 1 AND 5000),
    title             text,
    category          text NOT NULL CHECK (category ~ '^[a-z][a-z_]{1,31}$'),
    source            text NOT NULL
                      CHECK (source IN ('conversation', 'derived', 'uploaded', 'url', 'reflection', 'fusion', 'owner', 'api')),
    confidence        real NOT NULL DEFAULT 0.8 CHECK (confidence BETWEEN 0 AND 1),
    importance        real NOT NULL DEFAULT 5 CHECK (importance BETWEEN 0 AND 10),
    mention_count     integer NOT NULL DEFAULT 1 CHECK (mention_count >= 0),
    last_mentioned_at timestamptz,
    expires_at        timestamptz,
    status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'dormant', 'archived', 'deprecated')),
    pinned            boolean NOT NULL DEFAULT false,
    -- set when a newer fact contradicts this one (R7): kept for history, out of search
    invalid_at        timestamptz,
    -- sha256 of the normalised content: exact-duplicate and tombstone checks
    content_hash      text NOT NULL,
    -- words counted for BM25 (0 when not indexed)
    term_count        integer NOT NULL DEFAULT 0,
    embedding         vector,
    embedding_model   text,
    -- knowledge (R3): the upload a chunk belongs to (one entry, several chunks) and, for the
    -- source `url`, where it came from
    knowledge_id      uuid,
    source_url        text,
    -- when a search last returned it (the stale share of R6c: never retrieved in 60 days)
    last_retrieved_at timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CHECK ((embedding IS NULL) = (embedding_model IS NULL))
);
CREATE INDEX agent_memories_agent_time ON agent_memories (agent_id, created_at DESC);
CREATE INDEX agent_memories_agent_hash ON agent_memories (agent_id, content_hash);
CREATE INDEX agent_memories_expiry ON agent_memories (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX agent_memories_unembedded ON agent_memories (agent_id) WHERE embedding IS NULL;
CREATE INDEX agent_memories_knowledge ON agent_memories (agent_id, knowledge_id) WHERE knowledge_id IS NOT NULL;
-- The HNSW index for the default local model (all-MiniLM-L6-v2, 384 dimensions). Other
-- models get theirs from `memory::vector::ensure_index` (CREATE INDEX CONCURRENTLY at start).
CREATE INDEX agent_memories_hnsw_minilm ON agent_memories
    USING hnsw ((embedding::vector(384)) vector_cosine_ops)
    WHERE embedding_model = 'all-MiniLM-L6-v2';

-- BM25 postings over each agent's active, valid memories (X1): term frequency per memory.
-- The memory's length is copied so scoring needs no join.
CREATE TABLE memory_terms (
    agent_id  uuid NOT NULL,
    term      text NOT NULL,
    memory_id uuid NOT NULL REFERENCES agent_memories (id) ON DELETE CASCADE,
    tf        integer NOT NULL,
    doc_len   integer NOT NULL,
    PRIMARY KEY (agent_id, term, memory_id)
);
CREATE INDEX memory_terms_memory ON memory_terms (memory_id);

-- Per agent: how many memories are indexed and their total length (BM25's N and avgdl).
CREATE TABLE memory_corpus_stats (
    agent_id     uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    docs         integer NOT NULL DEFAULT 0,
    total_length bigint NOT NULL DEFAULT 0
);

-- Every change to a memory (R7), with actor and reason. Kept after the memory is deleted.
CREATE TABLE memory_versions (
    id         uuid PRIMARY KEY,
    memory_id  uuid NOT NULL,
    agent_id   uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    version    integer NOT NULL,
    change     text NOT NULL CHECK (change IN ('create', 'update', 'merge', 'deprecate', 'invalidate', 'status', 'pin', 'delete', 'mention')),
    -- the memory's fields after the change (before it, for delete)
    snapshot   jsonb NOT NULL,
    actor_type text NOT NULL,
    actor_id   text,
    reason     text,
    request_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (memory_id, version)
);
CREATE INDEX memory_versions_agent ON memory_versions (agent_id, created_at DESC);

-- What the owner deleted or corrected (R6b): extraction does not bring it back unless the
-- user says it again in a later message.
CREATE TABLE memory_tombstones (
    id              uuid PRIMARY KEY,
    agent_id        uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    content_hash    text NOT NULL,
    content         text NOT NULL,
    embedding       vector,
    embedding_model text,
    reason          text NOT NULL CHECK (reason IN ('deleted', 'corrected')),
    hits            integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memory_tombstones_agent_hash ON memory_tombstones (agent_id, content_hash);

-- Write-side hygiene counters (R6c): what extraction refused to store, and why.
CREATE TABLE memory_hygiene_events (
    id         uuid PRIMARY KEY,
    agent_id   uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('recall_loop', 'tombstone_hit', 'exact_duplicate', 'near_duplicate')),
    content    text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memory_hygiene_agent ON memory_hygiene_events (agent_id, kind, created_at);
