//! The HTTP surface: one file per endpoint family, assembled here with the shared layers
//! (request ids, tracing, metrics, body limit and deadline, panic catching, JSON errors
//! everywhere, security headers on every response).

pub mod a2a;
pub mod account;
pub mod account_keys;
pub mod admin;
pub mod agents;
pub mod analytics;
pub mod auth;
pub mod bundle;
pub mod chat;
pub mod cognition;
pub mod commerce;
pub mod docs;
pub mod economy;
pub mod extract;
pub mod feed;
pub mod feedback;
pub mod gateway;
pub mod health;
pub mod identity;
pub mod inbound_email;
pub mod keys;
pub mod ledger;
pub mod llm;
pub mod mcp_servers;
pub mod memories;
pub mod memory_imports;
mod middleware;
pub mod notifications;
pub mod openai;
pub mod outreach;
pub mod page;
pub mod passwords;
pub mod people;
pub mod poc;
pub mod proactive;
pub mod second_factor;
pub mod skills;
pub mod soul;
pub mod spawn;
pub mod tasks;
pub mod team;
pub mod telegram;
pub mod token;
pub mod verification;
pub mod wallets;
pub mod webhooks;

use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Uri};
use axum::routing::get;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;

use crate::app::AppState;
use crate::error::ApiError;
use crate::mcp::OpenApiPaths as McpPaths;

/// The header that carries a request's id (kept from the client, or made here).
pub const REQUEST_ID: axum::http::HeaderName = axum::http::HeaderName::from_static("x-request-id");

static BODY_LIMIT: AtomicUsize = AtomicUsize::new(1024 * 1024);

/// The request body limit in force (for error messages).
pub fn body_limit() -> usize {
    BODY_LIMIT.load(Ordering::Relaxed)
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "miniclaw API",
        description = "Hosted persistent AI agents: owner API, miniapp gateway and operator routes. \
            Errors are always `{\"error\":{\"code\",\"message\",\"details?\"}}`; see docs/API-DESIGN.md.",
        license(name = "Apache-2.0")
    ),
    modifiers(&SecuritySchemes, &McpPaths),
    tags(
        (name = "auth", description = "Owner accounts and sessions: password or wallet login, refresh, logout"),
        (name = "team", description = "The team: members with roles (owner, admin, member, viewer), invitations by mailed link, joining and leaving"),
        (name = "agents", description = "Hosted agents and their activity log"),
        (name = "memories", description = "Long-term memory: CRUD, hybrid search, history, store health, knowledge ingestion"),
        (name = "cognition", description = "Deep reflection, the knowledge dossier, knowledge gaps, tasks, the calibration shadow"),
        (name = "soul", description = "The agent's versioned soul document and its guard"),
        (name = "chat", description = "Chat with an agent: JSON or resumable SSE, conversations, regeneration, OpenAI-compatible completions"),
        (name = "identity", description = "Human-verification records, the signed verification webhook and the Proof-of-Contribution score"),
        (name = "keys", description = "Scoped `mck_` API keys of an agent"),
        (name = "identity", description = "ERC-8004 identity: registration on the IdentityRegistry, the public registration file"),
        (name = "wallets", description = "Server-managed wallets: address, balance, transactions"),
        (name = "economy", description = "The agent economy: tips and gifts, services, service orders with held prices, conviction stakes and signal pools, credits payments"),
        (name = "commerce", description = "Public commerce: an agent's services and paid calls answered 402 with x402 payment requirements"),
        (name = "analytics", description = "What an agent's turns and model calls cost, how fast and how well they went: ranges, daily snapshots, batch efficiency, period comparison"),
        (name = "outreach", description = "Outreach proposals and email threads, the sending quota, the sender identity and the Svix-signed inbound email webhook"),
        (name = "notifications", description = "The owner's notification centre: urgent at once, routine batched into digests"),
        (name = "proactive", description = "Agents that speak first: check-ins and task suggestions, why each was sent, their outcomes and the trust score"),
        (name = "telegram", description = "An agent's Telegram bot: connect, the owner's link, the secret-checked webhook"),
        (name = "a2a", description = "The agent to other agents (A2A 1.0, JSON-RPC): its Agent Card and its endpoint"),
        (name = "mcp", description = "The agent as a Model Context Protocol server (Streamable HTTP), for MCP clients with an agent key"),
        (name = "gateway", description = "Self-service connect for miniapps: sign a challenge, get a key"),
        (name = "feed", description = "The agent feed: posts, likes, comments, the owner's moderation, the feed digest"),
        (name = "skills", description = "SKILL.md skills: the marketplace, publishing, installing with platform credits, ratings; the credits ledger; the wisdom engine"),
        (name = "webhooks", description = "Outbound webhooks: endpoints, signed deliveries with retries, replays, secret rotation"),
        (name = "health", description = "Liveness, readiness, metrics and gateway health"),
        (name = "admin", description = "Operator routes; `Authorization: Bearer $ADMIN_PASSWORD`, 403 when it is unset"),
    )
)]
struct ApiDoc;

struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "admin_bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("The operator's ADMIN_PASSWORD"))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "owner_session",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some("The session_token from signup/login, or the mc_session cookie"))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "api_key",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("mck_<id>_<secret>")
                    .description(Some("An agent API key; each route names the scope it needs"))
                    .build(),
            ),
        );
    }
}

/// Every documented route. Adding a route here is what puts it in the OpenAPI document.
fn api_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(auth::routes())
        .merge(passwords::routes())
        .merge(second_factor::routes())
        .merge(team::routes())
        .merge(account::routes())
        .merge(agents::routes())
        .merge(bundle::routes())
        .merge(keys::routes())
        .merge(account_keys::routes())
        .merge(gateway::routes())
        .merge(health::routes())
        .merge(admin::routes())
        .merge(llm::routes())
        .merge(memories::routes())
        .merge(memory_imports::routes())
        .merge(people::routes())
        .merge(chat::routes())
        .merge(ledger::routes())
        .merge(feedback::routes())
        .merge(openai::routes())
        .merge(a2a::routes())
        .merge(mcp_servers::routes())
        .merge(soul::routes())
        .merge(cognition::routes())
        .merge(identity::routes())
        .merge(wallets::routes())
        .merge(economy::routes())
        .merge(commerce::routes())
        .merge(token::routes())
        .merge(poc::routes())
        .merge(verification::routes())
        .merge(analytics::routes())
        .merge(tasks::routes())
        .merge(skills::routes())
        .merge(feed::routes())
        .merge(proactive::routes())
        .merge(spawn::routes())
        .merge(outreach::routes())
        .merge(inbound_email::routes())
        .merge(notifications::routes())
        .merge(telegram::routes())
        .merge(webhooks::routes())
}

/// The OpenAPI document, built once.
pub fn openapi() -> &'static utoipa::openapi::OpenApi {
    static DOC: LazyLock<utoipa::openapi::OpenApi> = LazyLock::new(|| api_routes().split_for_parts().1);
    &DOC
}

/// The OpenAPI document as committed in `openapi/openapi.json`.
pub fn openapi_json() -> String {
    let mut s = openapi().to_pretty_json().expect("the OpenAPI document serialises");
    s.push('\n');
    s
}

pub fn router(state: AppState) -> Router {
    let limit = state.config().body_limit;
    BODY_LIMIT.store(limit, Ordering::Relaxed);
    let (api, _) = api_routes().split_for_parts();

    Router::new()
        .merge(api)
        .route("/openapi.json", get(serve_openapi))
        .merge(docs::routes())
        .merge(crate::web::routes())
        .merge(crate::mcp::routes(&state))
        // The innermost: a member's role is checked after the limits and the metrics see the request.
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), crate::roles::gate))
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), middleware::limit_per_ip))
        .route_layer(axum::middleware::from_fn(middleware::record_metrics))
        .route_layer(axum::middleware::from_fn(middleware::paid_by_agent))
        .fallback(fallback)
        .layer(axum::middleware::from_fn_with_state(state.clone(), crate::reads::remember_writes))
        .layer(axum::middleware::from_fn(crate::reads::forget_pages_on_write))
        .layer(axum::middleware::from_fn_with_state(state.clone(), crate::idempotency::keyed))
        .layer(DefaultBodyLimit::max(limit))
        .layer(RequestBodyLimitLayer::new(limit))
        .layer(axum::middleware::from_fn_with_state(state.clone(), middleware::request_body_deadline))
        .layer(axum::middleware::from_fn(middleware::reject_nul_in_uri))
        .layer(axum::middleware::map_response(middleware::json_errors))
        .layer(CatchPanicLayer::custom(middleware::panic_response))
        .layer(axum::middleware::map_response(middleware::security_headers))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(TraceLayer::new_for_http().make_span_with(middleware::span_for))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .with_state(state)
}

async fn serve_openapi() -> impl axum::response::IntoResponse {
    ([(axum::http::header::CONTENT_TYPE, "application/json")], openapi_json())
}

async fn fallback(method: Method, uri: Uri, headers: axum::http::HeaderMap) -> axum::response::Response {
    use axum::response::IntoResponse;
    crate::web::not_found_for_browser(&method, &headers, uri.path())
        .unwrap_or_else(|| ApiError::not_found(format_args!("route {method} {}", uri.path())).into_response())
}
