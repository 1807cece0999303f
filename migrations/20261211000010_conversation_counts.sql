-- How many live (not deleted) conversations each agent has, kept by a trigger on
-- `conversations`, so the cap check on a new conversation (MINICLAW_CONVERSATIONS_PER_AGENT)
-- reads one row instead of counting up to the cap: with thousands of conversations that count
-- was most of the database's work on a turn that starts one.

CREATE TABLE agent_conversation_counts (
    agent_id uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
    live     integer NOT NULL DEFAULT 0
);

INSERT INTO agent_conversation_counts (agent_id, live)
SELECT agent_id, count(*) FROM conversations WHERE deleted_at IS NULL GROUP BY agent_id;

CREATE FUNCTION conversations_count_live() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was_live boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL;
    is_live  boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL;
BEGIN
    IF is_live AND NOT was_live THEN
        INSERT INTO agent_conversation_counts AS c (agent_id, live) VALUES (NEW.agent_id, 1)
        ON CONFLICT (agent_id) DO UPDATE SET live = c.live + 1;
    ELSIF was_live AND NOT is_live THEN
        -- Nothing to update when the agent itself is being deleted (its count went with it).
        UPDATE agent_conversation_counts SET live = live - 1 WHERE agent_id = OLD.agent_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER conversations_count_live
    AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON conversations
    FOR EACH ROW EXECUTE FUNCTION conversations_count_live();
