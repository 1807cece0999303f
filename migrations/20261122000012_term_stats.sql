-- Per agent and term: document frequency (BM25's df, kept exact by every write) and the
-- largest term frequency and smallest document length ever indexed (an upper bound of the
-- term's BM25 contribution, which lets a search skip the postings of very common terms when
-- they cannot change the top results).
CREATE TABLE memory_term_stats (
    agent_id    uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
    term        text NOT NULL,
    df          integer NOT NULL,
    max_tf      integer NOT NULL,
    min_doc_len integer NOT NULL,
    PRIMARY KEY (agent_id, term)
);
INSERT INTO memory_term_stats (agent_id, term, df, max_tf, min_doc_len)
SELECT agent_id, term, count(*), max(tf), min(doc_len) FROM memory_terms GROUP BY agent_id, term;
