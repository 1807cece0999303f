-- A replaced or contradicted memory can be made current again (R7): its version says `restore`.
ALTER TABLE memory_versions DROP CONSTRAINT memory_versions_change_check;
ALTER TABLE memory_versions ADD CONSTRAINT memory_versions_change_check
    CHECK (change IN ('create', 'update', 'merge', 'deprecate', 'invalidate', 'status', 'pin', 'delete', 'mention', 'restore'));
