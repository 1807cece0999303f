-- Every agent-scoped table is keyed by its agent (docs/SCALING.md): it carries `agent_id`, its
-- primary key leads with it, every unique constraint includes it and every foreign key between
-- agent-scoped tables leads with it. That is what distributing the schema by `agent_id` (Citus,
-- co-located with `agents`) requires; on one PostgreSQL nothing changes but the keys. Existing
-- rows are kept.
--
-- `agents` keeps PRIMARY KEY (id): it is the root the others are co-located with. Platform tables
-- (jobs, job_schedules, tenants, owners, owner_sessions, tenant_activity, platform_secrets,
-- llm_kill_switches, auth_challenges, memory_agent_indexes, llm_tenant_monthly_usage) and
-- llm_usage_logs (platform-wide calls have no agent: `agent_id` is nullable there) stay as they are.
--
-- Plain (non-unique) indexes on the old id columns are kept where statements still look rows up
-- by id alone (`api_keys_id` for authentication by the key's id; the others until those
-- statements also name the agent). They also serve the composite foreign keys' cascades.

-- 1. Denormalised agent ids agree with their parent's before the composite foreign keys check
--    them (the parent's is authoritative; the application always writes the same value, so
--    these are expected to touch nothing). Optional references that would cross agents are
--    cleared, as ON DELETE SET NULL would.
DO $$
DECLARE
    n bigint;
BEGIN
    UPDATE chat_messages m SET agent_id = c.agent_id
      FROM conversations c WHERE c.id = m.conversation_id AND m.agent_id <> c.agent_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN RAISE NOTICE 'chat_messages: % rows took their conversation''s agent_id', n; END IF;

    UPDATE chat_messages m SET reply_to = NULL
      FROM chat_messages p WHERE p.id = m.reply_to AND p.agent_id <> m.agent_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN RAISE NOTICE 'chat_messages: % reply_to links to another agent''s message cleared', n; END IF;

    UPDATE conversation_summaries s SET agent_id = c.agent_id
      FROM conversations c WHERE c.id = s.conversation_id AND s.agent_id <> c.agent_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN RAISE NOTICE 'conversation_summaries: % rows took their conversation''s agent_id', n; END IF;

    UPDATE extraction_queue q SET agent_id = m.agent_id
      FROM chat_messages m WHERE m.id = q.message_id AND q.agent_id <> m.agent_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN RAISE NOTICE 'extraction_queue: % rows took their message''s agent_id', n; END IF;

    UPDATE memory_terms t SET agent_id = m.agent_id
      FROM agent_memories m WHERE m.id = t.memory_id AND t.agent_id <> m.agent_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN RAISE NOTICE 'memory_terms: % postings took their memory''s agent_id', n; END IF;

    UPDATE agent_tasks t SET reflection_id = NULL
      FROM reflections r WHERE r.id = t.reflection_id AND r.agent_id <> t.agent_id;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 THEN RAISE NOTICE 'agent_tasks: % links to another agent''s reflection cleared', n; END IF;
END $$;

-- 2. memory_hits gets its agent, from the memory. Hits of memories that no longer exist are
--    dropped: folding them would have updated nothing.
ALTER TABLE memory_hits ADD COLUMN agent_id uuid;
UPDATE memory_hits h SET agent_id = m.agent_id FROM agent_memories m WHERE m.id = h.memory_id;
DELETE FROM memory_hits WHERE agent_id IS NULL;
ALTER TABLE memory_hits ALTER COLUMN agent_id SET NOT NULL;

-- 3. The single-column foreign keys between agent-scoped tables go first (they depend on the
--    primary keys being replaced).
ALTER TABLE memory_terms DROP CONSTRAINT memory_terms_memory_id_fkey;
ALTER TABLE chat_messages
    DROP CONSTRAINT chat_messages_conversation_id_fkey,
    DROP CONSTRAINT chat_messages_reply_to_fkey;
ALTER TABLE conversation_summaries DROP CONSTRAINT conversation_summaries_conversation_id_fkey;
ALTER TABLE extraction_queue DROP CONSTRAINT extraction_queue_message_id_fkey;
ALTER TABLE agent_tasks DROP CONSTRAINT agent_tasks_reflection_id_fkey;

-- 4. Primary keys lead with agent_id; unique constraints include it.
ALTER TABLE agent_memories
    DROP CONSTRAINT agent_memories_pkey,
    ADD CONSTRAINT agent_memories_pkey PRIMARY KEY (agent_id, id);
CREATE INDEX agent_memories_id ON agent_memories (id);

ALTER TABLE memory_versions
    DROP CONSTRAINT memory_versions_pkey,
    ADD CONSTRAINT memory_versions_pkey PRIMARY KEY (agent_id, id),
    DROP CONSTRAINT memory_versions_memory_id_version_key,
    ADD CONSTRAINT memory_versions_agent_id_memory_id_version_key UNIQUE (agent_id, memory_id, version);
CREATE INDEX memory_versions_memory ON memory_versions (memory_id, version);

ALTER TABLE memory_tombstones
    DROP CONSTRAINT memory_tombstones_pkey,
    ADD CONSTRAINT memory_tombstones_pkey PRIMARY KEY (agent_id, id);
CREATE INDEX memory_tombstones_id ON memory_tombstones (id);

ALTER TABLE memory_hygiene_events
    DROP CONSTRAINT memory_hygiene_events_pkey,
    ADD CONSTRAINT memory_hygiene_events_pkey PRIMARY KEY (agent_id, id);

ALTER TABLE conversations
    DROP CONSTRAINT conversations_pkey,
    ADD CONSTRAINT conversations_pkey PRIMARY KEY (agent_id, id);
CREATE INDEX conversations_id ON conversations (id);

ALTER TABLE chat_messages
    DROP CONSTRAINT chat_messages_pkey,
    ADD CONSTRAINT chat_messages_pkey PRIMARY KEY (agent_id, id),
    DROP CONSTRAINT chat_messages_conversation_id_position_key,
    ADD CONSTRAINT chat_messages_agent_id_conversation_id_position_key UNIQUE (agent_id, conversation_id, position);
CREATE INDEX chat_messages_id ON chat_messages (id);
CREATE INDEX chat_messages_conversation ON chat_messages (conversation_id, position);

ALTER TABLE conversation_summaries
    DROP CONSTRAINT conversation_summaries_pkey,
    ADD CONSTRAINT conversation_summaries_pkey PRIMARY KEY (agent_id, id);

ALTER TABLE extraction_queue
    DROP CONSTRAINT extraction_queue_pkey,
    ADD CONSTRAINT extraction_queue_pkey PRIMARY KEY (agent_id, message_id);
CREATE INDEX extraction_queue_message ON extraction_queue (message_id);

ALTER TABLE chat_analytics
    DROP CONSTRAINT chat_analytics_pkey,
    ADD CONSTRAINT chat_analytics_pkey PRIMARY KEY (agent_id, message_id);
CREATE INDEX chat_analytics_message ON chat_analytics (message_id);

ALTER TABLE soul_guard_events
    DROP CONSTRAINT soul_guard_events_pkey,
    ADD CONSTRAINT soul_guard_events_pkey PRIMARY KEY (agent_id, id);

ALTER TABLE reflections
    DROP CONSTRAINT reflections_pkey,
    ADD CONSTRAINT reflections_pkey PRIMARY KEY (agent_id, id);
CREATE INDEX reflections_id ON reflections (id);

ALTER TABLE agent_tasks
    DROP CONSTRAINT agent_tasks_pkey,
    ADD CONSTRAINT agent_tasks_pkey PRIMARY KEY (agent_id, id);

ALTER TABLE knowledge_gaps
    DROP CONSTRAINT knowledge_gaps_pkey,
    ADD CONSTRAINT knowledge_gaps_pkey PRIMARY KEY (agent_id, id);

-- api_keys was keyed (agent_id, id) already; its lookup by the id embedded in a key stays, but
-- no longer as a unique index (ids are random UUIDs; the secret is checked against the row).
DROP INDEX api_keys_id;
CREATE INDEX api_keys_id ON api_keys (id);

-- 5. Foreign keys between agent-scoped tables lead with agent_id, with the same ON DELETE
--    behaviour; SET NULL clears only the reference, never agent_id.
ALTER TABLE memory_terms
    ADD CONSTRAINT memory_terms_memory_id_fkey FOREIGN KEY (agent_id, memory_id)
        REFERENCES agent_memories (agent_id, id) ON DELETE CASCADE;
ALTER TABLE chat_messages
    ADD CONSTRAINT chat_messages_conversation_id_fkey FOREIGN KEY (agent_id, conversation_id)
        REFERENCES conversations (agent_id, id) ON DELETE CASCADE,
    ADD CONSTRAINT chat_messages_reply_to_fkey FOREIGN KEY (agent_id, reply_to)
        REFERENCES chat_messages (agent_id, id) ON DELETE CASCADE;
ALTER TABLE conversation_summaries
    ADD CONSTRAINT conversation_summaries_conversation_id_fkey FOREIGN KEY (agent_id, conversation_id)
        REFERENCES conversations (agent_id, id) ON DELETE CASCADE;
ALTER TABLE extraction_queue
    ADD CONSTRAINT extraction_queue_message_id_fkey FOREIGN KEY (agent_id, message_id)
        REFERENCES chat_messages (agent_id, id) ON DELETE CASCADE;
ALTER TABLE agent_tasks
    ADD CONSTRAINT agent_tasks_reflection_id_fkey FOREIGN KEY (agent_id, reflection_id)
        REFERENCES reflections (agent_id, id) ON DELETE SET NULL (reflection_id);
-- Deleting a reflection (with its agent) finds the tasks that point at it without a scan.
CREATE INDEX agent_tasks_reflection ON agent_tasks (agent_id, reflection_id) WHERE reflection_id IS NOT NULL;
