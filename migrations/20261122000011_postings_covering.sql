-- BM25 reads each posting's tf and document length: with both in the primary key's leaf
-- pages the scan is index-only instead of one heap visit per posting (B2: 10,658 of 15,462
-- buffers of a three-term query were heap pages).
ALTER TABLE memory_terms
    DROP CONSTRAINT memory_terms_pkey,
    ADD CONSTRAINT memory_terms_pkey PRIMARY KEY (agent_id, term, memory_id) INCLUDE (tf, doc_len);
