//! What other areas may read of agents inside their own statements, as SQL expressions over
//! SQL arguments (the `agents` table itself stays this area's).

/// A query of agent `agent` of tenant `tenant`: its API columns (those of `Agent`).
pub fn row(agent: &str, tenant: &str) -> String {
    format!("SELECT {} FROM agents WHERE id = {agent} AND tenant_id = {tenant}", super::COLUMNS)
}

/// The tenant (uuid) of live agent `agent`; NULL when there is none.
pub fn tenant(agent: &str) -> String {
    format!("(SELECT tenant_id FROM agents WHERE id = {agent} AND deleted_at IS NULL)")
}

/// Whether agent `agent` is live and not paused (boolean; NULL when there is none).
pub fn active(agent: &str) -> String {
    format!("(SELECT active FROM agents WHERE id = {agent} AND deleted_at IS NULL)")
}

/// The agent's daily token budget (integer; NULL when there is no such agent).
pub fn daily_token_budget(agent: &str) -> String {
    format!("(SELECT daily_token_budget FROM agents WHERE id = {agent})")
}

/// The model agent `agent`'s replies run on, for pricing them (text): NULL for a standard
/// agent (the chat route's), the premium model its owner chose for a premium one, or '' when
/// it runs on the premium route's.
pub fn chat_model(agent: &str) -> String {
    format!("(SELECT CASE WHEN tier = 'premium' THEN coalesce(premium_model, '') END FROM agents WHERE id = {agent})")
}

/// A query of the live agents' ids (one uuid column `id`).
pub fn live() -> String {
    "SELECT id FROM agents WHERE deleted_at IS NULL".to_string()
}

/// The name of agent `agent` (deleted or not; NULL when there is none).
pub fn name(agent: &str) -> String {
    format!("(SELECT name FROM agents WHERE id = {agent})")
}

/// A query of the live agents (`id`, `tenant_id`, `name`, `emoji`, `active`), for joins:
/// `JOIN (…) a ON a.id = …`.
pub fn directory() -> String {
    "SELECT id, tenant_id, name, emoji, active FROM agents WHERE deleted_at IS NULL".to_string()
}

/// A query of the ids of the live agents of tenant `tenant` (a uuid expression; NULL: every
/// tenant's).
pub fn in_scope(tenant: &str) -> String {
    format!("SELECT id FROM agents WHERE deleted_at IS NULL AND ({tenant}::uuid IS NULL OR tenant_id = {tenant})")
}

/// A query of the ids of every agent of tenant `tenant`, deleted ones awaiting their purge
/// included (NULL: every tenant's).
pub fn of_tenant(tenant: &str) -> String {
    format!("SELECT id FROM agents WHERE ({tenant}::uuid IS NULL OR tenant_id = {tenant})")
}

/// The tenant of agent `agent`, deleted or not (uuid; NULL when there is none).
pub fn tenant_any(agent: &str) -> String {
    format!("(SELECT tenant_id FROM agents WHERE id = {agent})")
}

/// How many live agents tenant `tenant` has (NULL: the platform), only the active ones when
/// `active_only` (bigint).
pub fn count(tenant: &str, active_only: bool) -> String {
    let active = if active_only { " AND active" } else { "" };
    format!(
        "(SELECT count(*) FROM agents WHERE deleted_at IS NULL{active} AND ({tenant}::uuid IS NULL OR tenant_id = {tenant}))"
    )
}
