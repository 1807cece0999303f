-- SPEC H3: a forgotten password is reset by a single-use link mailed to the owner's address,
-- kept like the links that prove an address (only its SHA-256), valid one hour.
ALTER TABLE email_verifications DROP CONSTRAINT email_verifications_purpose_check;
ALTER TABLE email_verifications ADD CONSTRAINT email_verifications_purpose_check
    CHECK (purpose IN ('owner_email', 'sender', 'password_reset'));
