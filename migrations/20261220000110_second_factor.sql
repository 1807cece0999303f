-- SPEC H3: a second factor (TOTP, RFC 6238) with single-use recovery codes, and the devices a
-- member signed in from (a sign-in from a new one says so in the activity).

-- The shared secret, sealed under the platform's key; `totp_pending` is one set up and not yet
-- confirmed by a code. A code's time step is used once (`totp_last_step`).
ALTER TABLE owners ADD COLUMN totp_secret bytea;
ALTER TABLE owners ADD COLUMN totp_pending bytea;
ALTER TABLE owners ADD COLUMN totp_enabled_at timestamptz;
ALTER TABLE owners ADD COLUMN totp_last_step bigint;

-- Recovery codes, kept as SHA-256 only; each works once.
CREATE TABLE owner_recovery_codes (
    owner_id   uuid NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
    code_hash  bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    used_at    timestamptz,
    PRIMARY KEY (owner_id, code_hash)
);

-- The browsers (user agents) a member signed in with, by a hash of the agent string.
CREATE TABLE owner_devices (
    owner_id    uuid NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
    device_hash bytea NOT NULL,
    user_agent  text NOT NULL,
    first_seen  timestamptz NOT NULL DEFAULT now(),
    last_seen   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner_id, device_hash)
);
