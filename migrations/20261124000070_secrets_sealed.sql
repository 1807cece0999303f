-- Platform secrets are sealed under the master key (src/secrets.rs). Rows written before are
-- plain text; the platform seals each one when it next loads it.
ALTER TABLE platform_secrets ADD COLUMN sealed boolean NOT NULL DEFAULT false;
