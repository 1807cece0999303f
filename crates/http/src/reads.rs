//! Which database a read goes to, when `DATABASE_READ_URL` names a streaming replica
//! (`miniclaw_platform::db::replica` holds the rules).
//!
//! A handler whose read tolerates a little staleness takes `Reads` and runs its read through
//! `read!`; every other handler reads the primary. The writer of a request is its
//! credential (the bearer token or the session cookie): `remember_writes` notes when each one
//! last wrote, and tells the caller too (`Miniclaw-Wrote-At`, and the `mc_wrote` cookie for
//! browser sessions), so a caller whose next request lands on another process still reads its
//! own writes.

use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::SystemTime;

use axum::body::Body;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt;
use miniclaw_core::Error;
use miniclaw_core::ids::AgentId;
use miniclaw_domain::tenancy::auth::session::SESSION_COOKIE;
use miniclaw_platform::db::replica::{self, Replica, Target};
use sqlx::PgPool;

use crate::app::AppState;

/// The response header carrying when the request wrote (milliseconds since the epoch); a
/// client that sends it back on its reads reads its own writes from any process.
pub const WROTE_AT: &str = "miniclaw-wrote-at";
/// The same, for browsers.
pub const WROTE_COOKIE: &str = "mc_wrote";

/// Where this request's staleness-tolerant reads go.
pub struct Reads {
    primary: PgPool,
    replica: Option<(Arc<Replica>, Option<SystemTime>)>,
}

impl FromRequestParts<AppState> for Reads {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let primary = state.pool().clone();
        let Some(replica) = state.deps().replica.clone() else { return Ok(Reads { primary, replica: None }) };
        let remembered = writer(&parts.headers).and_then(|w| replica.last_write(w));
        let told = [
            parts.headers.get(WROTE_AT).and_then(|v| v.to_str().ok()),
            crate::auth::cookie(&parts.headers, WROTE_COOKIE),
        ]
        .into_iter()
        .flatten()
        .filter_map(|v| v.trim().parse::<u64>().ok())
        .map(replica::from_epoch_millis);
        let wrote = remembered.into_iter().chain(told).max();
        Ok(Reads { primary, replica: Some((replica, wrote)) })
    }
}

impl Reads {
    /// Whether a replica is configured (then reads may be stale within its bound, and what
    /// they read is not cached).
    pub fn has_replica(&self) -> bool {
        self.replica.is_some()
    }

    /// The replica, when it is fresh enough for this caller.
    pub fn replica(&self) -> Option<&PgPool> {
        let (replica, wrote) = self.replica.as_ref()?;
        (replica.route(*wrote) == Target::Replica).then(|| replica.pool())
    }

    /// The primary, for a read the replica was not fit for (or failed).
    pub fn primary(&self) -> &PgPool {
        if self.replica.is_some() {
            counted(Target::Primary);
        }
        &self.primary
    }

    /// What a read on the replica gave: kept (`Some`), or `None` when it must be read again on
    /// the primary: the replica went away, or cancelled the statement for a conflict with its
    /// recovery (then it is not read until a later tick finds it well).
    pub fn kept<T>(&self, result: Result<T, Error>) -> Option<Result<T, Error>> {
        let (replica, _) = self.replica.as_ref()?;
        match result {
            Ok(v) => {
                counted(Target::Replica);
                Some(Ok(v))
            }
            Err(Error::Unavailable(why)) => {
                replica.unusable(&format!("a read on the replica failed: {why}"));
                None
            }
            Err(Error::Internal(e)) => {
                tracing::warn!(error = ?e, "a read on the replica failed; reading the primary");
                None
            }
            Err(e) => Some(Err(e)),
        }
    }
}

/// `read!(reads, db => expression)`: the expression (which reads through `db` and gives a
/// `Result`) on the replica when it is fresh enough for this caller, else (or when the replica
/// fails it) on the primary.
#[macro_export]
macro_rules! read {
    ($reads:expr, $db:ident => $body:expr) => {{
        let reads: &$crate::reads::Reads = &$reads;
        let on_replica = match reads.replica() {
            Some($db) => reads.kept($body.map_err(::miniclaw_core::Error::from)),
            None => None,
        };
        match on_replica {
            Some(result) => result,
            None => {
                let $db = reads.primary();
                $body.map_err(::miniclaw_core::Error::from)
            }
        }
    }};
}

fn counted(target: Target) {
    metrics::counter!("db_reads_total", "target" => target.as_str()).increment(1);
}

/// The credential a request writes as, digested (the map of recent writers keeps no secret).
fn writer(headers: &HeaderMap) -> Option<u64> {
    let credential = crate::auth::bearer(headers).or_else(|| crate::auth::cookie(headers, SESSION_COOKIE))?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    credential.hash(&mut h);
    Some(h.finish())
}

/// A write request this process answers forgets the cached memory pages (`auth::cache`) of the
/// agent its path names, or of every agent when it names none (`/mcp`, the OpenAI-compatible
/// route), before its response leaves: its caller's next list reads what it wrote. Writes of
/// the job worker and of other processes are forgotten by the database's notice at commit.
pub async fn forget_pages_on_write(req: Request, next: Next) -> Response {
    if req.method().is_safe() {
        return next.run(req).await;
    }
    let agent = agent_in_path(req.uri().path());
    let resp = next.run(req).await;
    miniclaw_domain::tenancy::auth::cache::cache().forget_pages(agent);
    resp
}

/// The agent id after `hosted-agents/` or `agents/` in a path.
pub(crate) fn agent_in_path(path: &str) -> Option<AgentId> {
    let mut parts = path.split('/');
    while let Some(p) = parts.next() {
        if p == "hosted-agents" || p == "agents" {
            return parts.next()?.parse::<uuid::Uuid>().ok().map(AgentId);
        }
    }
    None
}

/// Notes the time every write request (any method but GET, HEAD and OPTIONS) ended, for its
/// credential, and tells the caller; an event stream's write ends with its stream.
pub async fn remember_writes(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(replica) = state.deps().replica.clone() else { return next.run(req).await };
    if req.method().is_safe() {
        return next.run(req).await;
    }
    let Some(writer) = writer(req.headers()) else { return next.run(req).await };
    let browser = crate::auth::cookie(req.headers(), SESSION_COOKIE).is_some();
    let resp = next.run(req).await;
    let now = SystemTime::now();
    replica.note_write(writer, now);
    let (mut parts, body) = resp.into_parts();
    let streaming = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("text/event-stream"));
    let ms = replica::epoch_millis(now);
    parts.headers.insert(WROTE_AT, HeaderValue::from(ms));
    if browser {
        let max_age = replica.max_lag().as_secs() + 1;
        let secure = if state.config().secure_cookies { "; Secure" } else { "" };
        let cookie = format!("{WROTE_COOKIE}={ms}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}");
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            parts.headers.append(header::SET_COOKIE, v);
        }
    }
    if !streaming {
        return Response::from_parts(parts, body);
    }
    // The reply is written as it streams: the write ends when the stream does.
    let ended = WriteEnds { replica, writer };
    let body = body.into_data_stream().map(move |chunk| {
        let _ = &ended;
        chunk
    });
    Response::from_parts(parts, Body::from_stream(body))
}

struct WriteEnds {
    replica: Arc<Replica>,
    writer: u64,
}

impl Drop for WriteEnds {
    fn drop(&mut self) {
        self.replica.note_write(self.writer, SystemTime::now());
    }
}
