-- How often a slashed stake's payout was sent: a failed one is sent again, never reopened.
ALTER TABLE stakes ADD COLUMN payout_attempts int NOT NULL DEFAULT 0;
