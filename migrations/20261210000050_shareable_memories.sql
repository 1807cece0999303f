-- Feed privacy (SPEC S1): the feed digest writes only from memories the owner marked shareable.
-- Everything stays private unless the owner says otherwise, existing memories included.
ALTER TABLE agent_memories ADD COLUMN shareable boolean NOT NULL DEFAULT false;
