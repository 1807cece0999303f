-- Issue 60, part 4: a transaction is signed again only once another is found holding its
-- nonce at a confirmed depth, and every hash a row was ever signed under is kept: the node may
-- yet show a receipt for an earlier one, and the owner can trace each.
ALTER TABLE wallet_transactions ADD COLUMN signed_hashes text[] NOT NULL DEFAULT '{}';
UPDATE wallet_transactions SET signed_hashes = ARRAY[tx_hash] WHERE tx_hash IS NOT NULL;

-- What the platform pays for a transaction (its sponsor's gas, a top-up) is held against the
-- spending limits when it is signed, and booked when it is settled: the hold, until then.
ALTER TABLE wallet_transactions ADD COLUMN hold_id uuid;
