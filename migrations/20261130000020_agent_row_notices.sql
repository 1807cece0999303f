-- Agent rows are cached in each server process (SPEC B3, `auth::cache`): whatever changes what
-- `GET /v1/hosted-agents/{id}` answers (the agent's row, its verification records) tells every
-- process to forget it, on the channel the credential cache already listens to, at commit.
CREATE FUNCTION agent_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'agents' THEN
        PERFORM pg_notify('miniclaw_auth', 'row:' || OLD.id::text);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('miniclaw_auth', 'row:' || OLD.agent_id::text);
    ELSE
        PERFORM pg_notify('miniclaw_auth', 'row:' || NEW.agent_id::text);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER agent_row_changed AFTER UPDATE OR DELETE ON agents
    FOR EACH ROW EXECUTE FUNCTION agent_row_changed();

CREATE TRIGGER agent_verification_changed AFTER INSERT OR UPDATE OR DELETE ON verification_records
    FOR EACH ROW EXECUTE FUNCTION agent_row_changed();

-- The same for what `GET /v1/me` answers: the owner's and the tenant's rows.
CREATE FUNCTION account_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('miniclaw_auth',
        CASE TG_TABLE_NAME WHEN 'owners' THEN 'owner:' ELSE 'tenant:' END || OLD.id::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER owner_row_changed AFTER UPDATE OR DELETE ON owners
    FOR EACH ROW EXECUTE FUNCTION account_row_changed();

CREATE TRIGGER tenant_row_changed AFTER UPDATE OR DELETE ON tenants
    FOR EACH ROW EXECUTE FUNCTION account_row_changed();
