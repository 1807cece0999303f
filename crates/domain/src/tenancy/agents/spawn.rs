//! Spawning (SPEC S6): the `spawn` role drafts a new agent (name, persona, first soul,
//! suggested skills) from the owner's brief; the draft is stored, shown, editable, and nothing
//! is created until the owner confirms it. Confirming creates the agent and its first soul in
//! one transaction; a draft is confirmed (or discarded) once.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{Agent, AgentInput};
use miniclaw_core::Error;
use miniclaw_core::ids::TenantId;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::Registry;
use miniclaw_platform::llm::roles::Spawn;
use miniclaw_platform::llm::{CallContext, ChatRequest, Engine};

pub const BRIEF_MAX: usize = 2000;

/// A drafted agent, waiting for the owner.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct Draft {
    pub id: Uuid,
    pub brief: String,
    pub name: String,
    pub persona: String,
    /// The first soul document.
    pub soul: String,
    /// Skills the drafter suggests (names; the skill market installs them once it exists).
    #[schema(value_type = Vec<String>)]
    pub suggested_skills: Value,
    /// `model`, or `offline` (the offline engine's template).
    pub engine: String,
    /// pending, confirmed, discarded
    pub status: String,
    /// The agent a confirmed draft became.
    pub agent_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

/// What the owner changes before confirming (absent fields keep the draft's).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Confirm {
    pub name: Option<String>,
    pub persona: Option<String>,
    pub soul: Option<String>,
}

const COLUMNS: &str = "id, brief, name, persona, soul, suggested_skills, engine, status, agent_id, created_at";

fn text(v: &Value, key: &str, max: usize) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(|s| s.chars().take(max).collect())
}

/// Drafts an agent from `brief` (a tenant-level model call, under the tenant's budget).
pub async fn draft(deps: &Deps, tenant: TenantId, origin: &Origin, brief: &str) -> Result<Draft, Error> {
    let brief = brief.trim();
    if brief.is_empty() {
        return Err(Error::validation("brief", "describe the agent you want"));
    }
    Error::check_length("brief", brief, BRIEF_MAX)?;
    let ctx = CallContext { tenant_id: Some(tenant), request_id: origin.request_id.clone(), ..CallContext::default() };
    let answer = deps.llm.complete(&ctx, ChatRequest::from_input(Spawn { brief: brief.to_string() })).await?;
    let v: Value = serde_json::from_str(answer.content.trim()).unwrap_or(Value::Null);
    let (Some(name), Some(persona), Some(soul)) =
        (text(&v, "name", 64), text(&v, "persona", 500), text(&v, "soul", 4000))
    else {
        return Err(Error::Unprocessable {
            code: "draft_unusable",
            message:
                "the drafting model did not answer with a name, a persona and a soul; try again or reword the brief"
                    .into(),
            details: None,
        });
    };
    let skills: Vec<String> = v
        .get("skills")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|s| text(&serde_json::json!({ "s": s }), "s", 64)).take(10).collect())
        .unwrap_or_default();
    let engine = match answer.engine {
        Engine::Model => "model",
        Engine::Offline => "offline",
    };
    let draft: Draft = sqlx::query_as(&format!(
        "INSERT INTO agent_spawn_drafts (id, tenant_id, brief, name, persona, soul, suggested_skills, engine)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {COLUMNS}"
    ))
    .bind(Uuid::now_v7())
    .bind(tenant)
    .bind(brief)
    .bind(&name)
    .bind(&persona)
    .bind(&soul)
    .bind(serde_json::json!(skills))
    .bind(engine)
    .fetch_one(&deps.pool)
    .await?;
    Ok(draft)
}

/// One of the tenant's drafts.
pub async fn get(pool: &sqlx::PgPool, tenant: TenantId, id: Uuid) -> sqlx::Result<Option<Draft>> {
    sqlx::query_as(&format!("SELECT {COLUMNS} FROM agent_spawn_drafts WHERE tenant_id = $1 AND id = $2"))
        .bind(tenant)
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// Creates the agent of a pending draft (with the owner's changes) and its first soul; 409 when
/// the draft was confirmed or discarded already.
pub async fn confirm(
    deps: &Deps,
    registry: &Registry,
    tenant: TenantId,
    origin: &Origin,
    id: Uuid,
    changes: Confirm,
    max_agents: i64,
) -> Result<Agent, Error> {
    let mut tx = deps.pool.begin().await?;
    let d: Draft = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM agent_spawn_drafts WHERE tenant_id = $1 AND id = $2 FOR UPDATE"
    ))
    .bind(tenant)
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::not_found("draft"))?;
    if d.status != "pending" {
        return Err(Error::Conflict(format!("the draft is {} already", d.status)));
    }
    let soul = changes.soul.map(|s| s.trim().to_string()).unwrap_or(d.soul);
    crate::cognition::soul::validate(&soul)?;
    let input = AgentInput {
        name: Some(changes.name.unwrap_or(d.name)),
        persona: Some(changes.persona.unwrap_or(d.persona)),
        ..AgentInput::default()
    };
    let agent = super::create(&mut tx, registry, &deps.llm, tenant, origin, input, max_agents).await?;
    crate::cognition::soul::write_first(&mut tx, tenant, agent.id, &soul, origin).await?;
    sqlx::query("UPDATE agent_spawn_drafts SET status = 'confirmed', agent_id = $3 WHERE tenant_id = $1 AND id = $2")
        .bind(tenant)
        .bind(id)
        .bind(agent.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(agent)
}
