-- SPEC H4: a tenant is a team. Every owner row is a member with a role; the rows that exist
-- were each their tenant's only owner, and stay owners.
ALTER TABLE owners ADD COLUMN role text NOT NULL DEFAULT 'owner'
    CHECK (role IN ('owner', 'admin', 'member', 'viewer'));
-- A member who left or was removed: their row stays (activity names them, their posts stay),
-- without an address or a password to sign in with.
ALTER TABLE owners ADD COLUMN removed_at timestamptz;
CREATE INDEX owners_tenant_role ON owners (tenant_id, role) WHERE removed_at IS NULL;

-- An invitation is a single-use link mailed to the address (kept like the links that prove an
-- address: only its SHA-256, in email_verifications) with the role it grants.
ALTER TABLE email_verifications DROP CONSTRAINT email_verifications_purpose_check;
ALTER TABLE email_verifications ADD CONSTRAINT email_verifications_purpose_check
    CHECK (purpose IN ('owner_email', 'sender', 'password_reset', 'invitation', 'email_change'));

CREATE TABLE team_invitations (
    id         uuid PRIMARY KEY,
    tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    token_hash bytea NOT NULL UNIQUE REFERENCES email_verifications (token_hash) ON DELETE CASCADE,
    email      text NOT NULL,
    role       text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
    invited_by uuid REFERENCES owners (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX team_invitations_tenant ON team_invitations (tenant_id, created_at);
