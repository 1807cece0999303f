-- SPEC H2: an owner closes the account; it stops at once and is purged after a grace period
-- (`account_purge`), unless an owner reopens it before.
ALTER TABLE tenants ADD COLUMN closing_at timestamptz;
CREATE INDEX tenants_closing ON tenants (closing_at) WHERE closing_at IS NOT NULL;
