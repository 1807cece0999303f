-- Issue 60: an address signed up with and never proven is not held forever. When the platform
-- sends mail, a signup for an address whose earlier account never proved it, and whose link
-- has expired, takes the address; the earlier account keeps everything it holds (nothing is
-- deleted: the operator can give it back) but no longer signs in with that address.

-- When the address was released, and which it was (kept for the operator, never for sign-in).
ALTER TABLE owners ADD COLUMN email_released_at timestamptz;
ALTER TABLE owners ADD COLUMN released_email text;
ALTER TABLE owners DROP CONSTRAINT owners_check;
ALTER TABLE owners ADD CONSTRAINT owners_check
    CHECK (email IS NOT NULL OR evm_address IS NOT NULL OR email_released_at IS NOT NULL);
