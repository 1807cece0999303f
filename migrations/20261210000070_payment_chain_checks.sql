-- x402 (42: what an unauthenticated paid call may cost): how many times a requirement's proof
-- was checked on chain. Past a few checks without a payment the requirement pays nothing more,
-- so a caller cannot make the node answer for it without end.
ALTER TABLE payment_requirements ADD COLUMN chain_checks integer NOT NULL DEFAULT 0;
