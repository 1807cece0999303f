-- S3: tasks pass the owner's approval. `open` becomes `pending` (awaiting the owner) and
-- `dropped` becomes `rejected`; an agent may only start tasks the owner approved.
ALTER TABLE agent_tasks DROP CONSTRAINT agent_tasks_status_check;
UPDATE agent_tasks SET status = CASE status WHEN 'open' THEN 'pending' WHEN 'dropped' THEN 'rejected' ELSE status END;
ALTER TABLE agent_tasks
    ALTER COLUMN status SET DEFAULT 'pending',
    ADD CONSTRAINT agent_tasks_status_check CHECK (status IN ('pending', 'approved', 'in_progress', 'done', 'rejected')),
    ADD COLUMN due_at timestamptz,
    ADD COLUMN reason text;
