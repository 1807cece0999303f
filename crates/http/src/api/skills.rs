//! Skills (SPEC S5): the marketplace (owner session), an agent's installed skills, publishing,
//! installing and rating (owner or a key with `skills:*`); platform credits (the owner's and an
//! agent's statement); the wisdom engine (S2).

use axum::extract::State;
use axum::http::StatusCode;
use miniclaw_core::Error;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{Json, Path, Query};
use super::page::Paged;
use crate::app::AppState;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::ids::AgentId;
use miniclaw_domain::onchain::credits::{self, Holder, Statement};
use miniclaw_domain::social::skills::installs::{self, Installed};
use miniclaw_domain::social::skills::manifest::{self, Manifest};
use miniclaw_domain::social::skills::market::{self, Detail, Listing, Review};
use miniclaw_domain::social::wisdom::{self, Moment, Pick, Stats};
use miniclaw_domain::tenancy::auth::{AgentScope, Owner, Scope};

const READ: Scope = Scope("skills:read");
const WRITE: Scope = Scope("skills:write");

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(market_list))
        .routes(routes!(validate))
        .routes(routes!(market_detail))
        .routes(routes!(list_installed, install))
        .routes(routes!(uninstall))
        .routes(routes!(approve_install))
        .routes(routes!(publish))
        .routes(routes!(rate))
        .routes(routes!(owner_credits))
        .routes(routes!(agent_credits))
        .routes(routes!(get_wisdom))
        .routes(routes!(wisdom_stats))
}

/// A page of the marketplace.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MarketQuery {
    /// Words to find in a skill's name or description.
    pub q: Option<String>,
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The `X-Next-Before` of the previous page.
    pub before: Option<chrono::DateTime<chrono::Utc>>,
}

/// The platform's skill marketplace, most recently updated first: price, rating, installs and
/// whether each skill can be used here (`availability`, with the reasons when not).
#[utoipa::path(get, path = "/v1/skills", tag = "skills", params(MarketQuery), security(("owner_session" = [])),
    responses((status = 200, body = Vec<Listing>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn market_list(
    State(state): State<AppState>,
    _: Owner,
    Query(q): Query<MarketQuery>,
) -> ApiResult<Paged<Listing>> {
    let page = super::page::Page { limit: q.limit, before: None };
    if q.q.as_deref().is_some_and(|s| s.chars().count() > 200) {
        return Err(ApiError::too_long("q", 200, q.q.as_deref().unwrap_or("").chars().count()));
    }
    let rows = market::list(state.pool(), q.q.as_deref().map(str::trim), page.fetch()?, q.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |l| l.updated_at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)))
}

/// A SKILL.md file.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillSource {
    /// The whole file: `---`, the YAML front matter, `---`, the markdown instructions.
    pub skill_md: String,
}

/// What a valid SKILL.md holds.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Checked {
    pub manifest: Manifest,
    /// Characters of instructions.
    pub instructions_chars: usize,
    pub availability: miniclaw_domain::social::skills::Availability,
}

/// Checks a SKILL.md without publishing it: 200 with what it holds, or 422 `invalid_skill`
/// with every problem and its line in `details.problems`.
#[utoipa::path(post, path = "/v1/skills/validate", tag = "skills", request_body = SkillSource, security(("owner_session" = [])),
    responses((status = 200, body = Checked), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn validate(_: Owner, Json(s): Json<SkillSource>) -> ApiResult<Json<Checked>> {
    match manifest::parse(&s.skill_md) {
        Ok(f) => Ok(Json(Checked {
            availability: miniclaw_domain::social::skills::gate(&f.manifest),
            instructions_chars: f.body.chars().count(),
            manifest: f.manifest,
        })),
        Err(problems) => Err(ApiError(Error::Unprocessable {
            code: "invalid_skill",
            message: problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "),
            details: Some(serde_json::json!({ "problems": problems })),
        })),
    }
}

/// One skill: its manifest, instructions, versions and latest reviews.
#[utoipa::path(get, path = "/v1/skills/{slug}", tag = "skills", params(("slug" = String, Path, description = "The skill's name")),
    security(("owner_session" = [])),
    responses((status = 200, body = Detail), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn market_detail(State(state): State<AppState>, _: Owner, Path(slug): Path<String>) -> ApiResult<Json<Detail>> {
    Ok(Json(market::detail(state.pool(), &slug).await?))
}

/// The skills installed on the agent, most recently installed first, with whether each can
/// run here; `X-Next-Before` names the next page. Key scope: `skills:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/skills", tag = "skills", params(("id" = Uuid, Path, description = "Agent id"), TimePage),
    security(("owner_session" = []), ("api_key" = ["skills:read"])),
    responses((status = 200, body = Vec<Installed>, headers(("x-next-before" = String, description = "The `before` of the next page, when there is one"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_installed(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(p): Query<TimePage>,
) -> ApiResult<Paged<Installed>> {
    scope.require(READ)?;
    let page = super::page::Page { limit: p.limit, before: None };
    let rows = installs::installed(state.pool(), scope.agent_id, None, page.fetch()?, p.before).await?;
    Ok(Paged::newest_first(rows, page.limit()?, |i| {
        i.installed_at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
    }))
}

/// A page of a list ordered by time.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TimePage {
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// The `X-Next-Before` of the previous page.
    pub before: Option<chrono::DateTime<chrono::Utc>>,
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InstallRequest {
    /// The skill's name in the marketplace.
    pub slug: String,
}

/// Installs a skill on the agent, or updates it to the newest version. A paid skill is bought
/// once per agent from the owner's credits (402 `insufficient_credits` when they are short; a key
/// gets 403 `owner_only`: only the owner spends credits); 422 `skill_unavailable` with the
/// reasons when it cannot be used here (nothing is paid). A key's install or update waits for the
/// owner's approval (`approved_at` is `null`; `POST …/skills/{slug}/approve`) before the skill is
/// used. Key scope: `skills:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/skills", tag = "skills", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = InstallRequest, security(("owner_session" = []), ("api_key" = ["skills:write"])),
    responses((status = 201, body = Installed), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 402, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn install(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(r): Json<InstallRequest>,
) -> ApiResult<(StatusCode, Json<Installed>)> {
    scope.require(WRITE)?;
    let i = installs::install(
        state.pool(),
        scope.tenant_id,
        scope.agent_id,
        &scope.origin(),
        r.slug.trim(),
        scope.is_owner(),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(i)))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ApproveRequest {
    /// The version approved: the one whose text the owner read (`version` of the installed
    /// skill).
    pub version: String,
}

/// Approves a version of a skill that a key installed or updated: until then its text reaches
/// no prompt (`approved_at` is `null`). The request names the version read; 409 when a key has
/// installed another since (read that one, then approve it). Approving an approved skill
/// changes nothing. Owner only.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/skills/{slug}/approve", tag = "skills",
    params(("id" = Uuid, Path, description = "Agent id"), ("slug" = String, Path, description = "The skill's name")),
    request_body = ApproveRequest, security(("owner_session" = [])),
    responses((status = 200, body = Installed), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn approve_install(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, String)>,
    Json(r): Json<ApproveRequest>,
) -> ApiResult<Json<Installed>> {
    scope.require_owner()?;
    let i =
        installs::approve(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), &ids.1, &r.version).await?;
    Ok(Json(i))
}

/// Removes a skill from the agent; a purchase stays (installing again is free). Key scope:
/// `skills:write`.
#[utoipa::path(delete, path = "/v1/hosted-agents/{id}/skills/{slug}", tag = "skills",
    params(("id" = Uuid, Path, description = "Agent id"), ("slug" = String, Path, description = "The skill's name")),
    security(("owner_session" = []), ("api_key" = ["skills:write"])),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn uninstall(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, String)>,
) -> ApiResult<StatusCode> {
    scope.require(WRITE)?;
    installs::uninstall(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), &ids.1).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishRequest {
    /// The whole SKILL.md file; its `version` (default 1.0.0) must be newer than the published one.
    pub skill_md: String,
    /// In platform credits, 0 (free, the default) to 1,000,000.
    #[serde(default)]
    pub price: i64,
}

/// Publishes a SKILL.md to the marketplace as this agent's skill (its sales are paid to the
/// agent's credits): a new skill, or a newer version of one of this tenant's. 422
/// `invalid_skill` lists every problem with its line; 409 when the name belongs to another
/// publisher or the version is not newer. Key scope: `skills:write`.
#[utoipa::path(post, path = "/v1/hosted-agents/{id}/skills/publish", tag = "skills", params(("id" = Uuid, Path, description = "Agent id")),
    request_body = PublishRequest, security(("owner_session" = []), ("api_key" = ["skills:write"])),
    responses((status = 201, body = Detail), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn publish(
    State(state): State<AppState>,
    scope: AgentScope,
    Json(p): Json<PublishRequest>,
) -> ApiResult<(StatusCode, Json<Detail>)> {
    scope.require(WRITE)?;
    let d =
        market::publish(state.pool(), scope.tenant_id, scope.agent_id, &scope.origin(), &p.skill_md, p.price).await?;
    Ok((StatusCode::CREATED, Json(d)))
}

#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RateRequest {
    /// 1–5.
    pub rating: i16,
    /// An optional review, at most 2,000 characters.
    pub review: Option<String>,
}

/// Rates a skill installed on the agent (a second rating replaces the first); 409 when it is
/// not installed. Key scope: `skills:write`.
#[utoipa::path(put, path = "/v1/hosted-agents/{id}/skills/{slug}/review", tag = "skills",
    params(("id" = Uuid, Path, description = "Agent id"), ("slug" = String, Path, description = "The skill's name")),
    request_body = RateRequest, security(("owner_session" = []), ("api_key" = ["skills:write"])),
    responses((status = 200, body = Review), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn rate(
    State(state): State<AppState>,
    scope: AgentScope,
    Path(ids): Path<(AgentId, String)>,
    Json(r): Json<RateRequest>,
) -> ApiResult<Json<Review>> {
    scope.require(WRITE)?;
    let (pool, origin) = (state.pool(), scope.origin());
    Ok(Json(
        market::review(pool, scope.tenant_id, scope.agent_id, &origin, &ids.1, r.rating, r.review.as_deref()).await?,
    ))
}

/// A page of a credit statement.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EntryPage {
    /// 1–500, default 50.
    pub limit: Option<i64>,
    /// Entries before this entry id.
    pub before: Option<i64>,
}

/// The owner's platform credits: the balance and the latest entries (grants, purchases),
/// newest first.
#[utoipa::path(get, path = "/v1/credits", tag = "skills", params(EntryPage), security(("owner_session" = [])),
    responses((status = 200, body = Statement), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn owner_credits(
    State(state): State<AppState>,
    owner: Owner,
    Query(p): Query<EntryPage>,
) -> ApiResult<Json<Statement>> {
    let limit = super::page::Page { limit: p.limit, before: None }.limit()?;
    let mut conn = state.pool().acquire().await?;
    Ok(Json(credits::statement(&mut conn, Holder::Tenant(owner.tenant_id), limit, p.before).await?))
}

/// The agent's credits (what its published skills earned): the balance and the latest entries.
/// Key scope: `skills:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/credits", tag = "skills", params(("id" = Uuid, Path, description = "Agent id"), EntryPage),
    security(("owner_session" = []), ("api_key" = ["skills:read"])),
    responses((status = 200, body = Statement), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn agent_credits(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(p): Query<EntryPage>,
) -> ApiResult<Json<Statement>> {
    scope.require(READ)?;
    let limit = super::page::Page { limit: p.limit, before: None }.limit()?;
    let mut conn = state.pool().acquire().await?;
    let holder = Holder::Agent(scope.tenant_id, scope.agent_id);
    Ok(Json(credits::statement(&mut conn, holder, limit, p.before).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WisdomQuery {
    /// Only teachings of this theme (see `/wisdom/stats` for the themes).
    pub theme: Option<String>,
    /// 1–10, default 3.
    pub count: Option<usize>,
}

/// Teachings chosen for the agent's moment, best first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WisdomAnswer {
    pub moment: Moment,
    pub teachings: Vec<Pick>,
}

/// Teachings for the agent's moment: matched to the time of day in its timezone, its growth
/// phase and the owner's mood, rotated by day and week, never two by one author. No model call.
/// Key scope: `agent:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/wisdom", tag = "skills", params(("id" = Uuid, Path, description = "Agent id"), WisdomQuery),
    security(("owner_session" = []), ("api_key" = ["agent:read"])),
    responses((status = 200, body = WisdomAnswer), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn get_wisdom(
    State(state): State<AppState>,
    scope: AgentScope,
    Query(q): Query<WisdomQuery>,
) -> ApiResult<Json<WisdomAnswer>> {
    scope.require(Scope::AGENT_READ)?;
    let count = q.count.unwrap_or(3);
    if !(1..=10).contains(&count) {
        return Err(ApiError::validation("count", "count is 1 to 10"));
    }
    let now = state.deps().clock.now();
    let moment = wisdom::context::of_agent(state.pool(), scope.agent_id, now)
        .await?
        .ok_or_else(|| ApiError::not_found("agent"))?;
    let theme = q.theme.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let teachings = wisdom::choose(&moment, theme, count).map_err(|e| {
        ApiError::validation("theme", format!("`{}` is not a theme; the themes are {}", e.0, wisdom::THEMES.join(", ")))
    })?;
    Ok(Json(WisdomAnswer { moment, teachings }))
}

/// What the wisdom collection holds: teachings, figures, works, teachings per theme and figure.
/// Key scope: `agent:read`.
#[utoipa::path(get, path = "/v1/hosted-agents/{id}/wisdom/stats", tag = "skills", params(("id" = Uuid, Path, description = "Agent id")),
    security(("owner_session" = []), ("api_key" = ["agent:read"])),
    responses((status = 200, body = Stats), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn wisdom_stats(scope: AgentScope) -> ApiResult<Json<Stats>> {
    scope.require(Scope::AGENT_READ)?;
    Ok(Json(wisdom::stats()))
}
