//! Proposals: an agent with outreach enabled proposes an email to a target for a purpose. When
//! no subject and body are given, the `outreach` role drafts them from the agent's soul and its
//! most important memories; with no model configured the offline engine fills its template
//! from the same input, and the proposal says so (`drafted_by: offline`). Every field that
//! becomes a header is checked for line breaks here, before anything is stored.

use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{BODY_MAX, PURPOSE_MAX, Thread, select_thread};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::email::headers;
use miniclaw_platform::llm::roles::Outreach;
use miniclaw_platform::llm::{CallContext, ChatRequest, Engine};

/// Memories given to the drafting role as context.
const CONTEXT_MEMORIES: i64 = 5;

/// A proposed outreach email. Leave `subject` and `body` out to have the agent draft them.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProposalInput {
    pub target_email: String,
    pub target_name: Option<String>,
    /// Why the agent writes (1–500 characters).
    pub purpose: String,
    pub subject: Option<String>,
    pub body: Option<String>,
}

/// Changes to a proposal (only while `proposed`).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EditInput {
    pub subject: Option<String>,
    pub body: Option<String>,
    pub target_name: Option<String>,
}

pub(super) fn check_subject(subject: &str) -> Result<(), Error> {
    if subject.trim().is_empty() {
        return Err(Error::validation("subject", "the subject is empty"));
    }
    headers::field("subject", subject).map_err(|m| Error::validation("subject", m))
}

pub(super) fn check_body(body: &str) -> Result<(), Error> {
    if body.trim().is_empty() {
        return Err(Error::validation("body", "the body is empty"));
    }
    Error::check_length("body", body, BODY_MAX)
}

fn check_target_name(name: &Option<String>) -> Result<(), Error> {
    match name {
        Some(n) => headers::name("target_name", n).map_err(|m| Error::validation("target_name", m)),
        None => Ok(()),
    }
}

/// Stores a proposal (drafting it first when no subject and body are given). 409 when the
/// agent's outreach is disabled; 422 for a bad address or a header field with a line break.
pub async fn propose(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: ProposalInput,
) -> Result<Thread, Error> {
    let thread = propose_from(deps, tenant, agent, origin, input, None).await?;
    thread.ok_or_else(|| Error::Internal(anyhow::anyhow!("a proposal with no source conflicted")))
}

/// `propose`, for a proposal the agent makes on its own from `proposed_from` (`suggest`):
/// `None` when it already proposed from that source.
pub async fn propose_from(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: ProposalInput,
    proposed_from: Option<&str>,
) -> Result<Option<Thread>, Error> {
    let target_email = headers::address(&input.target_email).map_err(|m| Error::validation("target_email", m))?;
    check_target_name(&input.target_name)?;
    if input.purpose.trim().is_empty() {
        return Err(Error::validation("purpose", "the purpose is empty"));
    }
    Error::check_length("purpose", &input.purpose, PURPOSE_MAX)?;
    let pool = &deps.pool;
    let row = crate::tenancy::agents::get(pool, tenant, agent).await?.ok_or_else(|| Error::not_found("agent"))?;
    if !row.outreach_enabled {
        return Err(Error::Conflict(
            "outreach is disabled for this agent (outreach_enabled: false); its owner can turn it on".into(),
        ));
    }
    let (subject, body, drafted_by) = match (input.subject, input.body) {
        (Some(s), Some(b)) => {
            (s, b, if matches!(origin.actor, crate::tenancy::auth::Actor::Owner(_)) { "owner" } else { "agent" })
        }
        (None, None) => {
            let d = draft(deps, tenant, agent, origin, &row.name, &input.target_name, &input.purpose).await?;
            (d.0, d.1, d.2)
        }
        _ => {
            return Err(Error::validation(
                "body",
                "give both subject and body, or neither to have the agent draft them",
            ));
        }
    };
    check_subject(&subject)?;
    check_body(&body)?;
    let mut tx = pool.begin().await?;
    let id = Uuid::now_v7();
    let stored = sqlx::query!(
        "INSERT INTO outreach_threads (agent_id, id, tenant_id, status, target_email, target_name, purpose, subject, body,
                                       drafted_by, proposed_from)
         VALUES ($1, $2, $3, 'proposed', $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (agent_id, proposed_from) WHERE proposed_from IS NOT NULL DO NOTHING",
        agent as _,
        id,
        tenant as _,
        target_email,
        input.target_name,
        input.purpose.trim(),
        subject.trim(),
        body,
        drafted_by,
        proposed_from
    )
    .execute(&mut *tx)
    .await?;
    if stored.rows_affected() == 0 {
        return Ok(None);
    }
    activity::record_agent(
        &mut tx,
        tenant,
        agent,
        origin,
        "outreach_proposed",
        json!({ "outreach_id": id, "target_email": target_email, "drafted_by": drafted_by, "to": "proposed",
                "proposed_from": proposed_from }),
    )
    .await?;
    let thread = select_thread!("WHERE agent_id = $1 AND id = $2", agent as _, id).fetch_one(&mut *tx).await?;
    tx.commit().await?;
    Ok(Some(thread))
}

/// Drafts subject and body with the `outreach` role; the third value is `model` or `offline`.
async fn draft(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    agent_name: &str,
    target_name: &Option<String>,
    purpose: &str,
) -> Result<(String, String, &'static str), Error> {
    let soul = crate::cognition::soul::current(&deps.pool, agent).await?.map(|s| s.content);
    let memories = crate::memory::weightiest(&deps.pool, agent, CONTEXT_MEMORIES).await?;
    let mut context: Vec<String> = Vec::new();
    if let Some(s) = soul.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        context.push(format!("Who the agent is: {}", s.chars().take(600).collect::<String>()));
    }
    if !memories.is_empty() {
        context.push(format!("What the agent knows: {}", memories.join("; ")));
    }
    let input = Outreach {
        agent_name: agent_name.to_string(),
        owner_name: None,
        target_name: target_name.clone(),
        purpose: purpose.trim().to_string(),
        context: (!context.is_empty()).then(|| context.join("\n")),
    };
    let ctx = CallContext::for_agent(tenant, agent, origin);
    let answer = deps.llm.complete(&ctx, ChatRequest::from_input(input)).await?;
    #[derive(Deserialize)]
    struct Drafted {
        subject: String,
        body: String,
    }
    let d: Drafted = serde_json::from_str(answer.content.trim()).map_err(|e| {
        Error::Upstream(format!("the model's draft was not the JSON {{subject, body}} it was asked for: {e}"))
    })?;
    // A drafted subject is one line whatever the model wrote.
    let subject = d.subject.split_whitespace().collect::<Vec<_>>().join(" ");
    let engine = if answer.engine == Engine::Offline { "offline" } else { "model" };
    Ok((subject.chars().take(headers::SUBJECT_MAX).collect(), d.body, engine))
}

/// Changes a proposal's subject, body or target name (409 unless it is `proposed`).
pub async fn edit(
    pool: &sqlx::PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    id: Uuid,
    input: EditInput,
) -> Result<Thread, Error> {
    if let Some(s) = &input.subject {
        check_subject(s)?;
    }
    if let Some(b) = &input.body {
        check_body(b)?;
    }
    check_target_name(&input.target_name)?;
    let mut tx = pool.begin().await?;
    let (thread, to) = super::lock(&mut tx, agent, id, super::Event::Edit).await?;
    sqlx::query!(
        "UPDATE outreach_threads SET subject = coalesce($3, subject), body = coalesce($4, body),
                target_name = coalesce($5, target_name), drafted_by = 'owner'
          WHERE agent_id = $1 AND id = $2",
        agent as _,
        id,
        input.subject.as_deref().map(str::trim),
        input.body,
        input.target_name
    )
    .execute(&mut *tx)
    .await?;
    let changed: Vec<&str> = [
        ("subject", input.subject.is_some()),
        ("body", input.body.is_some()),
        ("target_name", input.target_name.is_some()),
    ]
    .into_iter()
    .filter_map(|(f, c)| c.then_some(f))
    .collect();
    super::record(&mut tx, tenant, agent, origin, &thread, to, "outreach_edited", json!({ "changed": changed }))
        .await?;
    let thread = select_thread!("WHERE agent_id = $1 AND id = $2", agent as _, id).fetch_one(&mut *tx).await?;
    tx.commit().await?;
    Ok(thread)
}
