-- Outreach the agent proposes on its own (SPEC O1): what it proposed a thread from, so the same
-- memory or the same unanswered email never brings a second proposal. `memory:<id>` (someone the
-- owner said they want to reach, with their address) or `follow_up:<thread id>` (an email sent
-- days ago that got no answer). NULL for proposals made by the owner or a key.
ALTER TABLE outreach_threads ADD COLUMN proposed_from text;
CREATE UNIQUE INDEX outreach_threads_proposed_from ON outreach_threads (agent_id, proposed_from)
    WHERE proposed_from IS NOT NULL;
