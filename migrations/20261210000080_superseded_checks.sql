-- A transaction whose nonce was taken ("nonce too low") is declared replaced only after it was
-- seen missing on several runs over some minutes (issue: on a load-balanced node a mined
-- transaction can come back as "nonce too low" while its receipt is not visible yet; signing it
-- again would pay twice).
ALTER TABLE wallet_transactions
    ADD COLUMN superseded_checks smallint NOT NULL DEFAULT 0,
    ADD COLUMN superseded_since timestamptz;
