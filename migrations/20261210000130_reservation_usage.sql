-- A chat turn's calls count what they used on the turn's reservation instead of the agent's
-- usage row of the day, which giving the reservation back adds to `tokens` in the same
-- statement that frees `reserved`. Every turn of an agent otherwise updated that one row four
-- times (reserve, two calls, give back), each holding its lock through a commit: the agent's
-- turns queued on it. The reservation covers what the turn is expected to use, so
-- `tokens + reserved` bounds the day's use as before.
ALTER TABLE llm_turn_reservations ADD COLUMN used bigint NOT NULL DEFAULT 0 CHECK (used >= 0);
