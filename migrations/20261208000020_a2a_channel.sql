-- Turns that other agents start over A2A are their own channel.
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_channel_check;
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_channel_check
    CHECK (channel IN ('web', 'api', 'openai', 'telegram', 'email', 'mcp', 'a2a'));
