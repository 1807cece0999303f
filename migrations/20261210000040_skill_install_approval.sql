-- A skill a key installs (or updates to a new version) waits for the owner's approval before its
-- text can reach the agent's chat prompt; the owner's own installs are approved as they are made.
-- Installs made before this rule keep working: they count as approved when they were installed.
ALTER TABLE skill_installs ADD COLUMN approved_at timestamptz;
UPDATE skill_installs SET approved_at = installed_at;
