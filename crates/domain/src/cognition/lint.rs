//! Memory lint (SPEC C5): daily for agents with at least 5 memories, over the 200 most recent.
//! The `lint` role proposes merges (mentions summed, the weaker deleted), deprecations (expired
//! or deleted), recategorisations and contradictions (the weaker gets confidence 0.3 and
//! expires in 14 days), plus up to 10 knowledge gaps: questions worth asking the user. Open gaps
//! are replaced by each run; gaps the owner confirmed are kept. Every action is logged
//! (`memory_lint_action`) and versioned.

use miniclaw_core::ids::{AgentId, TenantId};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use super::actions;
use miniclaw_core::vocabulary::GapStatus;
use miniclaw_platform::activity::Origin;
use miniclaw_platform::deps::Deps;
use miniclaw_platform::llm::roles::Lint;
use miniclaw_platform::llm::{CallContext, ChatRequest};

pub const MIN_MEMORIES: i64 = 5;
pub const SNAPSHOT: i64 = 200;
pub const MAX_GAPS: usize = 10;
const ALLOWED: [&str; 4] = ["merge", "deprecate", "recategorize", "flag_contradiction"];

#[derive(Debug, Clone, Serialize, sqlx::FromRow, ToSchema)]
pub struct KnowledgeGap {
    pub id: Uuid,
    pub question: String,
    pub context: Option<String>,
    pub status: GapStatus,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct LintReport {
    pub skipped: Option<String>,
    pub memories: usize,
    pub actions: Vec<Value>,
    pub gaps: usize,
    pub error: Option<String>,
}

/// The agent's gaps that are not dismissed, confirmed ones first, newest first: `limit` of them,
/// after gap `before` in that order if given.
pub async fn gaps(
    pool: &PgPool,
    agent_id: AgentId,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<KnowledgeGap>> {
    sqlx::query_as!(
        KnowledgeGap,
        r#"SELECT id, question, context, status AS "status: GapStatus", created_at FROM knowledge_gaps
            WHERE agent_id = $1 AND status <> 'dismissed'
              AND ($3::uuid IS NULL OR (status = 'confirmed', created_at, id)
                   < (SELECT p.status = 'confirmed', p.created_at, p.id FROM knowledge_gaps p WHERE p.agent_id = $1 AND p.id = $3))
            ORDER BY status = 'confirmed' DESC, created_at DESC, id DESC LIMIT $2"#,
        agent_id as _,
        limit,
        before
    )
    .fetch_all(pool)
    .await
}

/// Sets a gap's status; `None` when the agent has no such gap.
pub async fn set_gap_status(
    pool: &PgPool,
    agent_id: AgentId,
    gap_id: Uuid,
    status: &str,
) -> Result<Option<KnowledgeGap>, miniclaw_core::Error> {
    let status: GapStatus = miniclaw_core::vocabulary::parse("status", status)?;
    Ok(sqlx::query_as!(
        KnowledgeGap,
        r#"UPDATE knowledge_gaps SET status = $3, updated_at = now() WHERE agent_id = $1 AND id = $2
           RETURNING id, question, context, status AS "status: GapStatus", created_at"#,
        agent_id as _,
        gap_id,
        status.as_str()
    )
    .fetch_optional(pool)
    .await?)
}

/// Runs lint for one agent.
pub async fn run(deps: &Deps, tenant_id: TenantId, agent_id: AgentId, origin: &Origin) -> anyhow::Result<LintReport> {
    let (pool, llm) = (&deps.pool, deps.llm.as_ref());
    let mut conn = pool.acquire().await?;
    let snapshot = actions::snapshot(&mut conn, agent_id, SNAPSHOT).await?;
    drop(conn);
    if (snapshot.len() as i64) < MIN_MEMORIES {
        return Ok(LintReport {
            skipped: Some(format!("{} memories; lint needs at least {MIN_MEMORIES}", snapshot.len())),
            memories: snapshot.len(),
            ..LintReport::default()
        });
    }
    let req = ChatRequest::from_input(Lint { memories: actions::memories_input(&snapshot) });
    let ctx = CallContext::job(agent_id, Some(tenant_id));
    let answer = llm.complete(&ctx, req).await?;
    let mut report = LintReport { memories: snapshot.len(), ..LintReport::default() };
    type Parsed = (Vec<actions::Action>, Vec<(String, Option<String>)>);
    let parsed: Result<Parsed, String> = (|| {
        let v: Value =
            serde_json::from_str(answer.content.trim()).map_err(|e| format!("lint output is not JSON: {e}"))?;
        let acts = actions::parse(v.get("actions").unwrap_or(&json!([])), &ALLOWED, snapshot.len())?;
        let gaps = v
            .get("knowledge_gaps")
            .and_then(Value::as_array)
            .map(|gs| {
                gs.iter()
                    .filter_map(|g| {
                        let q = g.get("question").and_then(Value::as_str)?.trim();
                        (!q.is_empty()).then(|| {
                            (
                                q.chars().take(300).collect(),
                                g.get("context").and_then(Value::as_str).map(|c| c.chars().take(500).collect()),
                            )
                        })
                    })
                    .take(MAX_GAPS)
                    .collect()
            })
            .unwrap_or_default();
        Ok((acts, gaps))
    })();
    let (acts, new_gaps) = match parsed {
        Ok(p) => p,
        Err(e) => {
            // Nothing is applied; the verbatim error goes to the activity log.
            let mut tx = pool.begin().await?;
            miniclaw_platform::activity::record_agent(
                &mut tx,
                tenant_id,
                agent_id,
                origin,
                "memory_lint.rejected",
                json!({ "error": e, "output": answer.content.chars().take(2000).collect::<String>() }),
            )
            .await?;
            tx.commit().await?;
            report.error = Some(e);
            return Ok(report);
        }
    };
    let mut tx = pool.begin().await?;
    let by = actions::Applying { tenant_id, agent_id, origin, activity: "memory_lint_action", reason: "memory lint" };
    report.actions = actions::apply(&mut tx, &by, &snapshot, &acts).await?;
    // Open gaps are replaced; confirmed ones stay, and a new gap that repeats one is dropped.
    sqlx::query!("DELETE FROM knowledge_gaps WHERE agent_id = $1 AND status = 'open'", agent_id as _)
        .execute(&mut *tx)
        .await?;
    let kept = sqlx::query!(
        r#"SELECT lower(question) AS "question!", status FROM knowledge_gaps WHERE agent_id = $1 AND status <> 'open'"#,
        agent_id as _
    )
    .fetch_all(&mut *tx)
    .await?;
    let confirmed = kept.iter().filter(|g| g.status == "confirmed").count();
    let kept: Vec<String> = kept.into_iter().map(|g| g.question).collect();
    for (q, c) in
        new_gaps.into_iter().filter(|(q, _)| !kept.contains(&q.to_lowercase())).take(MAX_GAPS.saturating_sub(confirmed))
    {
        sqlx::query!(
            "INSERT INTO knowledge_gaps (id, agent_id, question, context) VALUES ($1, $2, $3, $4)",
            Uuid::now_v7(),
            agent_id as _,
            q,
            c
        )
        .execute(&mut *tx)
        .await?;
        report.gaps += 1;
    }
    tx.commit().await?;
    Ok(report)
}
