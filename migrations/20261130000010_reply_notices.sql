-- Replies announce themselves (SPEC §14, B3): a reply that starts, ends or fails sends a notice
-- on `miniclaw_replies`, delivered when its transaction commits. Every server process holds one
-- LISTEN connection and fans the notices out to its clients: the agent event streams, and the
-- followers of a reply that streams in another process (which otherwise would poll the row).
-- The generating process adds throttled progress notices of its own (`progress: true`).
CREATE FUNCTION chat_reply_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('miniclaw_replies', json_build_object(
        'agent_id', NEW.agent_id,
        'conversation_id', NEW.conversation_id,
        'message_id', NEW.id,
        'reply_to', NEW.reply_to,
        'status', NEW.status,
        'end_user', c.end_user,
        'owner_private', c.owner_private)::text)
      FROM conversations c
     WHERE c.agent_id = NEW.agent_id AND c.id = NEW.conversation_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER chat_reply_started AFTER INSERT ON chat_messages
    FOR EACH ROW WHEN (NEW.role = 'assistant') EXECUTE FUNCTION chat_reply_notice();

CREATE TRIGGER chat_reply_status AFTER UPDATE OF status ON chat_messages
    FOR EACH ROW WHEN (NEW.role = 'assistant' AND OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION chat_reply_notice();
