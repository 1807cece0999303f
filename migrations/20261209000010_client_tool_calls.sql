-- Replies that called a client's functions (the OpenAI-compatible route's `tools`): the
-- client's results find the turn they continue by the call's id.
CREATE INDEX chat_messages_tool_calls ON chat_messages USING gin ((meta -> 'tool_calls'))
    WHERE meta ? 'tool_calls';
