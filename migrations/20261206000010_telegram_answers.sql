-- A Telegram message's answer is recorded on its update: the reply once the turn has run, and
-- when it was sent. A `telegram_answer` job run again after a worker died (its lease expired)
-- sends the recorded reply instead of running a second turn, and does nothing once it was sent.
ALTER TABLE telegram_updates
    ADD COLUMN reply text,
    ADD COLUMN answered_at timestamptz;
