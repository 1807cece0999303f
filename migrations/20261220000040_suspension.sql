-- SPEC T3: an operator can suspend a tenant. While suspended its owners cannot sign in (their
-- sessions are ended), its keys are refused, its model calls are stopped by the kill switch and
-- its jobs (mail, deliveries, cycles) stay queued; nothing is deleted, and resuming restores all
-- but the ended sessions.
ALTER TABLE tenants ADD COLUMN suspended_at timestamptz, ADD COLUMN suspended_reason text;
