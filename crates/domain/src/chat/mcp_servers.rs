//! MCP servers an owner attaches to an agent (a URL and an optional secret, sealed under the
//! master key): their tools are offered to the chat model when triage says tools are needed,
//! named `mcp_<server>_<tool>`. A call runs within `mcp_client::TIMEOUT`, its answer is cut to
//! `RESULT_CHARS` for the model, and it is recorded with who was speaking (in `agent_mcp_calls`
//! and the activity log). With the server's `approval` at `writes`, a tool that does not declare
//! itself read-only does not run when the agent calls it: the call waits for the owner's
//! decision, and the agent says so. A server's tools are offered only to the speakers its owner
//! made it available to (`available_to`; the owner in person alone by default): they run with
//! the owner's secret (`policy`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgPool;
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::llm::Tool;
use miniclaw_platform::mcp_client::{RemoteTool, Session, TIMEOUT};

use super::policy::{Speaker, may_use_server};

/// Servers an agent may have.
pub const MAX_SERVERS: i64 = 10;
/// Tools offered to the model from all of an agent's servers together.
pub const MAX_TOOLS: usize = 32;
/// A tool's answer, as the model reads it, is cut here.
pub const RESULT_CHARS: usize = 4000;

/// An attached server (its secret never leaves the database).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct McpServer {
    pub id: Uuid,
    /// 1–24 lower-case letters, digits and dashes; the tools are offered as `mcp_<name>_<tool>`.
    pub name: String,
    pub url: String,
    pub has_secret: bool,
    /// `writes` (tools not marked read-only wait for the owner's approval) or `never`.
    pub approval: String,
    /// The speakers whose turns may run its tools: `owner` (always), and any of `owner_key`,
    /// `end_user`, `correspondent`, `peer`, `payer`.
    pub available_to: Vec<String>,
    /// The tools as the server last listed them.
    pub tools: Vec<RemoteTool>,
    pub tools_listed_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct McpServerInput {
    pub name: String,
    /// The server's Streamable HTTP endpoint (http or https, a public address unless the
    /// operator allows it in `MINICLAW_URL_ALLOWLIST`).
    pub url: String,
    /// Sent as `Authorization: Bearer <secret>`; stored sealed.
    pub secret: Option<String>,
    /// `writes` (default) or `never`.
    pub approval: Option<String>,
    /// The speakers whose turns may run its tools besides the owner in person (default: none):
    /// `owner_key`, `end_user`, `correspondent`, `peer`, `payer`.
    pub available_to: Option<Vec<String>>,
}

/// A change to an attached server's settings.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct McpServerPatch {
    /// `writes` or `never`.
    pub approval: Option<String>,
    /// As in `McpServerInput`.
    pub available_to: Option<Vec<String>>,
}

/// A call the agent made, or asked to make, to one of these tools.
#[derive(Debug, Clone, Serialize, ToSchema, sqlx::FromRow)]
pub struct McpCall {
    pub id: Uuid,
    pub server_id: Uuid,
    pub tool: String,
    #[schema(value_type = Object)]
    pub arguments: Value,
    /// pending (waits for the owner), running, done, failed or rejected.
    pub status: String,
    pub result: Option<String>,
    /// Who was speaking when the agent called it: owner, api_key, ...
    pub actor_type: String,
    /// The turn's speaker (`owner`, `owner_key`, `end_user`, `correspondent`, `peer`, `payer`).
    pub speaker: Option<String>,
    pub actor_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
}

fn vault_name(server: Uuid) -> String {
    format!("mcp_server_secret:{server}")
}

fn check(input: &McpServerInput) -> Result<String, Error> {
    let name = input.name.trim();
    let ok = !name.is_empty()
        && name.len() <= 24
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-');
    if !ok {
        return Err(Error::validation(
            "name",
            "a name is 1–24 lower-case letters, digits and dashes, not starting with a dash",
        ));
    }
    Error::check_length("url", &input.url, 2000)?;
    if let Some(s) = &input.secret {
        Error::check_length("secret", s, 4000)?;
    }
    check_approval(input.approval.as_deref())?;
    Ok(name.to_string())
}

fn check_approval(approval: Option<&str>) -> Result<(), Error> {
    match approval {
        None | Some("writes") | Some("never") => Ok(()),
        Some(_) => Err(Error::validation("approval", "approval is `writes` or `never`")),
    }
}

fn check_available_to(list: Option<&[String]>) -> Result<Vec<String>, Error> {
    super::policy::check_available_to(list.unwrap_or_default()).map_err(|e| Error::validation("available_to", e))
}

fn server_of(row: ServerRow) -> McpServer {
    McpServer {
        id: row.id,
        name: row.name,
        url: row.url,
        has_secret: row.sealed_secret.is_some(),
        approval: row.approval,
        available_to: row.available_to,
        tools: serde_json::from_value(row.tools).unwrap_or_default(),
        tools_listed_at: row.tools_listed_at,
        created_at: row.created_at,
    }
}

#[derive(sqlx::FromRow)]
struct ServerRow {
    id: Uuid,
    name: String,
    url: String,
    sealed_secret: Option<Vec<u8>>,
    approval: String,
    available_to: Vec<String>,
    tools: Value,
    tools_listed_at: Option<DateTime<Utc>>,
    created_at: DateTime<Utc>,
}

const COLUMNS: &str = "id, name, url, sealed_secret, approval, available_to, tools, tools_listed_at, created_at";

/// Attaches a server: it must answer `initialize` and `tools/list` now (422 otherwise).
pub async fn add(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: McpServerInput,
) -> Result<McpServer, Error> {
    let name = check(&input)?;
    let available_to = check_available_to(input.available_to.as_deref())?;
    let secret = input.secret.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    let mut session = Session::open(&input.url, secret.clone(), &deps.url_allowlist, TIMEOUT).await?;
    let tools = session.tools().await?;
    let id = Uuid::now_v7();
    let sealed = secret.map(|s| deps.vault.seal(&vault_name(id), s.as_bytes()));
    let mut tx = deps.pool.begin().await?;
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM agent_mcp_servers WHERE agent_id = $1")
        .bind(agent)
        .fetch_one(&mut *tx)
        .await?;
    if count >= MAX_SERVERS {
        return Err(Error::Conflict(format!("an agent has at most {MAX_SERVERS} MCP servers")));
    }
    let inserted = sqlx::query(
        "INSERT INTO agent_mcp_servers (id, agent_id, tenant_id, name, url, sealed_secret, approval, tools, tools_listed_at,
            available_to)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), $9) ON CONFLICT (agent_id, name) DO NOTHING",
    )
    .bind(id)
    .bind(agent)
    .bind(tenant)
    .bind(&name)
    .bind(input.url.trim())
    .bind(sealed)
    .bind(input.approval.as_deref().unwrap_or("writes"))
    .bind(serde_json::to_value(&tools).map_err(|e| Error::Internal(e.into()))?)
    .bind(&available_to)
    .execute(&mut *tx)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(Error::Conflict(format!("the agent already has an MCP server named `{name}`")));
    }
    let details = json!({ "server": id, "name": name, "url": input.url.trim(), "tools": tools.len() });
    activity::record_agent(&mut tx, tenant, agent, origin, "mcp_server.added", details).await?;
    tx.commit().await?;
    get(&deps.pool, agent, id).await
}

/// Every server of the agent (at most `MAX_SERVERS`), by name.
pub async fn list(pool: &PgPool, agent: AgentId) -> Result<Vec<McpServer>, Error> {
    let rows: Vec<ServerRow> =
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM agent_mcp_servers WHERE agent_id = $1 ORDER BY name"))
            .bind(agent)
            .fetch_all(pool)
            .await?;
    Ok(rows.into_iter().map(server_of).collect())
}

/// `limit` rows (`columns`) of the agent's in `table`, newest first, made before `before` (an id).
async fn newest<T>(
    pool: &PgPool,
    (columns, table): (&str, &str),
    agent: AgentId,
    limit: i64,
    before: Option<Uuid>,
) -> sqlx::Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    sqlx::query_as(&format!(
        "SELECT {columns} FROM {table} WHERE agent_id = $1 AND ($2::uuid IS NULL OR id < $2) ORDER BY id DESC LIMIT $3"
    ))
    .bind(agent)
    .bind(before)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A page of the agent's servers, newest first, attached before `before` (an id).
pub async fn page(pool: &PgPool, agent: AgentId, limit: i64, before: Option<Uuid>) -> Result<Vec<McpServer>, Error> {
    let rows: Vec<ServerRow> = newest(pool, (COLUMNS, "agent_mcp_servers"), agent, limit, before).await?;
    Ok(rows.into_iter().map(server_of).collect())
}

pub async fn get(pool: &PgPool, agent: AgentId, id: Uuid) -> Result<McpServer, Error> {
    let row: Option<ServerRow> =
        sqlx::query_as(&format!("SELECT {COLUMNS} FROM agent_mcp_servers WHERE agent_id = $1 AND id = $2"))
            .bind(agent)
            .bind(id)
            .fetch_optional(pool)
            .await?;
    row.map(server_of).ok_or_else(|| Error::not_found("MCP server"))
}

/// Detaches a server (its call records go with it).
pub async fn remove(pool: &PgPool, tenant: TenantId, agent: AgentId, origin: &Origin, id: Uuid) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    let name: Option<String> =
        sqlx::query_scalar("DELETE FROM agent_mcp_servers WHERE agent_id = $1 AND id = $2 RETURNING name")
            .bind(agent)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let name = name.ok_or_else(|| Error::not_found("MCP server"))?;
    activity::record_agent(&mut tx, tenant, agent, origin, "mcp_server.removed", json!({ "server": id, "name": name }))
        .await?;
    tx.commit().await?;
    Ok(())
}

/// Changes a server's approval and who may use it (recorded in the activity log).
pub async fn update(
    pool: &PgPool,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    id: Uuid,
    patch: McpServerPatch,
) -> Result<McpServer, Error> {
    check_approval(patch.approval.as_deref())?;
    let available_to = patch.available_to.as_deref().map(|l| check_available_to(Some(l))).transpose()?;
    let mut tx = pool.begin().await?;
    let name: Option<String> = sqlx::query_scalar(
        "UPDATE agent_mcp_servers SET approval = coalesce($3, approval), available_to = coalesce($4, available_to)
          WHERE agent_id = $1 AND id = $2 RETURNING name",
    )
    .bind(agent)
    .bind(id)
    .bind(patch.approval.as_deref())
    .bind(available_to.as_ref())
    .fetch_optional(&mut *tx)
    .await?;
    let name = name.ok_or_else(|| Error::not_found("MCP server"))?;
    let details = json!({ "server": id, "name": name, "approval": patch.approval, "available_to": available_to });
    activity::record_agent(&mut tx, tenant, agent, origin, "mcp_server.updated", details).await?;
    tx.commit().await?;
    get(pool, agent, id).await
}

/// Lists the server's tools again.
pub async fn refresh(deps: &Deps, agent: AgentId, id: Uuid) -> Result<McpServer, Error> {
    let server = get(&deps.pool, agent, id).await?;
    let mut session = connect(deps, &server).await?;
    let tools = session.tools().await?;
    sqlx::query("UPDATE agent_mcp_servers SET tools = $3, tools_listed_at = now() WHERE agent_id = $1 AND id = $2")
        .bind(agent)
        .bind(id)
        .bind(serde_json::to_value(&tools).map_err(|e| Error::Internal(e.into()))?)
        .execute(&deps.pool)
        .await?;
    get(&deps.pool, agent, id).await
}

async fn connect(deps: &Deps, server: &McpServer) -> Result<Session, Error> {
    let sealed: Option<Vec<u8>> = sqlx::query_scalar("SELECT sealed_secret FROM agent_mcp_servers WHERE id = $1")
        .bind(server.id)
        .fetch_one(&deps.pool)
        .await?;
    let secret = match sealed {
        Some(sealed) => {
            let opened = deps
                .vault
                .open(&vault_name(server.id), &sealed)
                .map_err(|e| Error::Internal(anyhow::anyhow!("the secret of MCP server {}: {e}", server.id)))?;
            if opened.stale {
                let resealed = deps.vault.seal(&vault_name(server.id), &opened.plain);
                sqlx::query("UPDATE agent_mcp_servers SET sealed_secret = $2 WHERE id = $1")
                    .bind(server.id)
                    .bind(resealed)
                    .execute(&deps.pool)
                    .await?;
            }
            Some(String::from_utf8_lossy(&opened.plain).into_owned())
        }
        None => None,
    };
    Session::open(&server.url, secret, &deps.url_allowlist, TIMEOUT).await
}

/// The name a server's tool is offered to the model under (`[A-Za-z0-9_-]`, at most 64).
fn offered_name(server: &str, tool: &str) -> String {
    let tool: String =
        tool.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
    format!("mcp_{}_{tool}", server.replace('-', "_")).chars().take(64).collect()
}

/// The tools of the agent's servers, for the chat model.
pub async fn offered(pool: &PgPool, agent: AgentId, speaker: Speaker) -> Result<Vec<Tool>, Error> {
    let mut tools = Vec::new();
    for server in list(pool, agent).await?.into_iter().filter(|s| may_use_server(speaker, &s.available_to)) {
        for t in &server.tools {
            let approval = if server.approval == "writes" && !t.read_only {
                " (changes things: runs only once the owner approves)"
            } else {
                ""
            };
            tools.push(Tool {
                name: offered_name(&server.name, &t.name),
                description: format!("[{} MCP server]{approval} {}", server.name, t.description),
                parameters: t.input_schema.clone(),
            });
        }
    }
    tools.truncate(MAX_TOOLS);
    Ok(tools)
}

/// Runs the agent's call of `offered` (a name from `offered`), for the turn of `origin` whose
/// speaker is `speaker`; what the model reads back. `None` when the name is no MCP tool of the
/// agent's that `speaker` may use.
pub async fn run(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    (origin, speaker): (&Origin, Speaker),
    offered: &str,
    args: &Value,
) -> Option<String> {
    let servers = list(&deps.pool, agent).await.ok()?;
    let (server, tool) = servers
        .iter()
        .filter(|s| may_use_server(speaker, &s.available_to))
        .find_map(|s| s.tools.iter().find(|t| offered_name(&s.name, &t.name) == offered).map(|t| (s, t)))?;
    let waits = server.approval == "writes" && !tool.read_only;
    let who = Who { deps, tenant, agent, origin, speaker: Some(speaker) };
    let what = Call { server, tool: &tool.name, args };
    let call = record(&who, &what, waits).await;
    let call = match call {
        Ok(id) => id,
        Err(e) => return Some(format!("the call could not be recorded: {}", e.public_message())),
    };
    if waits {
        return Some(format!(
            "This tool changes things outside, so the call waits for your owner's approval (call {call}); it has not run yet."
        ));
    }
    Some(execute(&who, &what, call).await)
}

/// Whose turn called a tool: the agent, and who was speaking.
struct Who<'a> {
    deps: &'a Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &'a Origin,
    /// The turn's speaker (none for the owner's decision on a waiting call).
    speaker: Option<Speaker>,
}

/// Which tool of which server, with what.
struct Call<'a> {
    server: &'a McpServer,
    tool: &'a str,
    args: &'a Value,
}

async fn record(who: &Who<'_>, what: &Call<'_>, waits: bool) -> Result<Uuid, Error> {
    let (&Who { deps, tenant, agent, origin, speaker }, &Call { server, tool, args }) = (who, what);
    let id = Uuid::now_v7();
    let mut tx = deps.pool.begin().await?;
    sqlx::query(
        "INSERT INTO agent_mcp_calls (id, agent_id, server_id, tool, arguments, status, actor_type, actor_id, speaker)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(id)
    .bind(agent)
    .bind(server.id)
    .bind(tool)
    .bind(args)
    .bind(if waits { "pending" } else { "running" })
    .bind(origin.actor.kind())
    .bind(origin.actor.id())
    .bind(speaker.map(Speaker::as_str))
    .execute(&mut *tx)
    .await?;
    let action = if waits { "mcp_call.awaiting_approval" } else { "mcp_call.made" };
    let details = json!({ "call": id, "server": server.name, "tool": tool, "speaker": speaker.map(Speaker::as_str) });
    activity::record_agent(&mut tx, tenant, agent, origin, action, details).await?;
    tx.commit().await?;
    Ok(id)
}

/// Runs a recorded call and stores how it went; the text the model reads.
async fn execute(who: &Who<'_>, what: &Call<'_>, call: Uuid) -> String {
    let (&Who { deps, tenant, agent, origin, .. }, &Call { server, tool, args }) = (who, what);
    let outcome = async {
        let mut session = connect(deps, server).await?;
        session.call(tool, args.clone()).await
    }
    .await;
    let (status, text) = match outcome {
        Ok(answer) if answer.is_error => ("failed", format!("the tool reported a failure: {}", answer.text)),
        Ok(answer) => ("done", answer.text),
        Err(e) => ("failed", format!("the tool could not be called: {}", e.public_message())),
    };
    let mut text: String = text.chars().take(RESULT_CHARS).collect();
    if text.is_empty() {
        text = "(no content)".into();
    }
    let stored = sqlx::query(
        "UPDATE agent_mcp_calls SET status = $2, result = $3, decided_at = coalesce(decided_at, now()) WHERE id = $1",
    )
    .bind(call)
    .bind(status)
    .bind(&text)
    .execute(&deps.pool)
    .await;
    if let Err(e) = stored {
        tracing::warn!(%call, error = %e, "could not record an MCP tool call's outcome");
    }
    if status == "failed" {
        let mut tx = match deps.pool.begin().await {
            Ok(tx) => tx,
            Err(_) => return text,
        };
        let details = json!({ "call": call, "server": server.name, "tool": tool });
        if activity::record_agent(&mut tx, tenant, agent, origin, "mcp_call.failed", details).await.is_ok() {
            let _ = tx.commit().await;
        }
    }
    text
}

const CALL_COLUMNS: &str =
    "id, server_id, tool, arguments, status, result, actor_type, actor_id, speaker, created_at, decided_at";

/// A page of the agent's tool calls, newest first, made before `before` (an id).
pub async fn calls(pool: &PgPool, agent: AgentId, limit: i64, before: Option<Uuid>) -> Result<Vec<McpCall>, Error> {
    Ok(newest(pool, (CALL_COLUMNS, "agent_mcp_calls"), agent, limit, before).await?)
}

/// The owner's decision on a pending call: approved, it runs now; rejected, it never does.
pub async fn decide(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    call: Uuid,
    approve: bool,
) -> Result<McpCall, Error> {
    let claimed: Option<(Uuid, String, Value)> = sqlx::query_as(
        "UPDATE agent_mcp_calls SET status = CASE WHEN $3 THEN 'running' ELSE 'rejected' END, decided_at = now()
          WHERE agent_id = $1 AND id = $2 AND status = 'pending' RETURNING server_id, tool, arguments",
    )
    .bind(agent)
    .bind(call)
    .bind(approve)
    .fetch_optional(&deps.pool)
    .await?;
    let Some((server_id, tool, args)) = claimed else {
        let exists: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM agent_mcp_calls WHERE agent_id = $1 AND id = $2)")
                .bind(agent)
                .bind(call)
                .fetch_one(&deps.pool)
                .await?;
        return Err(if exists {
            Error::Conflict("the call was already decided".into())
        } else {
            Error::not_found("MCP call")
        });
    };
    let mut tx = deps.pool.begin().await?;
    let action = if approve { "mcp_call.approved" } else { "mcp_call.rejected" };
    activity::record_agent(&mut tx, tenant, agent, origin, action, json!({ "call": call, "tool": tool })).await?;
    tx.commit().await?;
    if approve {
        let server = get(&deps.pool, agent, server_id).await?;
        let who = Who { deps, tenant, agent, origin, speaker: None };
        execute(&who, &Call { server: &server, tool: &tool, args: &args }, call).await;
    }
    let row: McpCall = sqlx::query_as(&format!("SELECT {CALL_COLUMNS} FROM agent_mcp_calls WHERE id = $1"))
        .bind(call)
        .fetch_one(&deps.pool)
        .await?;
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offered_names_fit_what_models_accept() {
        assert_eq!(offered_name("weather-eu", "get forecast"), "mcp_weather_eu_get_forecast");
        let long = offered_name("a", &"x".repeat(100));
        assert_eq!(long.len(), 64);
        assert!(long.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
    }
}
