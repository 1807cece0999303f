-- Pages of an agent's memory list are cached in each server process (SPEC B3, `auth::cache`):
-- whatever changes one of the agent's memories tells every process to forget its pages, at
-- commit, on the channel the cache already listens to. A statement that changes many rows of
-- one agent sends one notice: PostgreSQL folds identical notices of a transaction into one.
CREATE FUNCTION agent_memories_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('miniclaw_auth', 'memories:' || OLD.agent_id::text);
    ELSE
        PERFORM pg_notify('miniclaw_auth', 'memories:' || NEW.agent_id::text);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER agent_memories_notice AFTER INSERT OR UPDATE OR DELETE ON agent_memories
    FOR EACH ROW EXECUTE FUNCTION agent_memories_notice();
