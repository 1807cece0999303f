-- A failed reply's status is `error` (the check on `chat_messages.status`); the index of failed
-- replies by time named a status no row has, so it was always empty and the analytics counted
-- no failure. Made again on the real status.
DROP INDEX chat_messages_failed_time;
CREATE INDEX chat_messages_failed_time ON chat_messages (created_at) WHERE role = 'assistant' AND status = 'error';
