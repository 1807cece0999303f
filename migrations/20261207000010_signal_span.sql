-- Behavioural signals (SPEC X8): when the first message was seen, so a rate is shown only once
-- the messages span long enough to be one (15 messages in three minutes are not 1,300 a day).
-- Rows from before this migration start their span now.
ALTER TABLE behaviour_signals ADD COLUMN first_at timestamptz NOT NULL DEFAULT now();
