-- Conversations of a miniapp's end users (hardening, finding 4): a conversation remembers the
-- end user it was started for (`end_user`, the `user` of the OpenAI format or the
-- `X-Miniclaw-User` header), whether it is the owner's own (started with an owner session and
-- no end user: never shown to a key), and when it was deleted (soft: hidden at once, purged
-- with its messages after the retention period). A key can be bound to one end user.

ALTER TABLE conversations
    ADD COLUMN end_user      text,
    ADD COLUMN owner_private boolean NOT NULL DEFAULT false,
    ADD COLUMN deleted_at    timestamptz;

-- Conversations started before: the dashboard's (channel `web`, signed in with the session
-- cookie) are the owner's own; the rest were started through the API and stay visible to keys.
UPDATE conversations SET owner_private = true WHERE channel = 'web';

-- A key's listing: one end user's live conversations, most recently active first.
CREATE INDEX conversations_end_user ON conversations (agent_id, end_user, updated_at DESC)
    WHERE deleted_at IS NULL;
-- The purge finds deleted conversations by when they were deleted.
CREATE INDEX conversations_deleted ON conversations (deleted_at) WHERE deleted_at IS NOT NULL;

ALTER TABLE api_keys ADD COLUMN end_user text;
