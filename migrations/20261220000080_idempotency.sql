-- SPEC H5: an `Idempotency-Key` header makes a write safe to retry. The first request with a
-- key runs and its answer is kept for 24 hours; the same key from the same credential answers
-- that again (a retried chat turn returns the first turn's reply), a different request under
-- it is refused, and one still running is 409. Keyed by the credential's SHA-256, never the
-- credential itself.
CREATE TABLE idempotency_keys (
    credential  bytea NOT NULL,
    key         text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    request     bytea NOT NULL,
    status      smallint,
    content_type text,
    body        bytea,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (credential, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
