-- Chat turns that arrive through the MCP server are their own channel.
ALTER TABLE chat_messages DROP CONSTRAINT chat_messages_channel_check;
ALTER TABLE chat_messages ADD CONSTRAINT chat_messages_channel_check
    CHECK (channel IN ('web', 'api', 'openai', 'telegram', 'email', 'mcp'));
