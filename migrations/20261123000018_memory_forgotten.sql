-- When an agent last lost a memory (deleted or expired). Memory records it in its own table;
-- the dossier (cognition) reads it: a dossier compiled before that moment may still quote the
-- forgotten text, so it is not shown, and the `memory_forgotten` job recompiles it.
ALTER TABLE memory_corpus_stats ADD COLUMN forgotten_at timestamptz;
