-- The jobs the idle gate avoided (X10): each gated slot that made no job counts here.
ALTER TABLE job_schedules ADD COLUMN idle_skips bigint NOT NULL DEFAULT 0;
