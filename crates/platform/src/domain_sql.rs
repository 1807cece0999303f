//! What the services need to know of agents, tenants and conversations, whose tables belong
//! to the domain's areas: SQL expressions the domain supplies (`miniclaw_domain::runtime::SQL`),
//! so that the services' statements stay single statements without naming another area's
//! table, and the services still depend on nothing above them. Each function takes SQL
//! expressions and returns one.

#[derive(Clone, Copy)]
pub struct DomainSql {
    /// The tenant (uuid) of live agent `agent`; NULL when there is none.
    pub tenant: fn(agent: &str) -> String,
    /// Whether agent `agent` is live and not paused (boolean; NULL when there is none).
    pub active: fn(agent: &str) -> String,
    /// The agent's daily token budget (integer; NULL when there is no such agent).
    pub daily_token_budget: fn(agent: &str) -> String,
    /// The tenant's monthly dollar budget (float8; NULL: none).
    pub monthly_budget_usd: fn(tenant: &str) -> String,
    /// Whether tenant `tenant`'s account is established (boolean; NULL when there is none): an
    /// owner's email is verified and the account is at least `days` (float8) days old.
    pub established: fn(tenant: &str, days: &str) -> String,
    /// A query of the live agents' ids, one uuid column `id`.
    pub live_agents: fn() -> String,
    /// Whether agent `agent` received a chat message after `since` (boolean).
    pub spoken_to_since: fn(agent: &str, since: &str) -> String,
    /// Whether reply `reply` of agent `agent` is still being written (boolean).
    pub streaming: fn(agent: &str, reply: &str) -> String,
    /// Whether tenant `tenant` is suspended by the operator (boolean; NULL when there is none).
    pub suspended: fn(tenant: &str) -> String,
    /// API key `key`'s daily dollar cap (float8; NULL: none, or no such key).
    pub key_daily_usd: fn(key: &str) -> String,
}

impl std::fmt::Debug for DomainSql {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DomainSql")
    }
}
