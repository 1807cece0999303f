-- One mood (SPEC X6): the proactive scanner reads the owner's mood from the affect engine
-- (`affect_states`, kept by every chat turn) instead of folding its own valence averages from a
-- second word list. Its columns go.
ALTER TABLE agent_proactive
    DROP COLUMN affect_fast,
    DROP COLUMN affect_slow,
    DROP COLUMN affect_at;
