//! `Gateway::complete`: budget and kill-switch check, then the route's targets in order, each
//! with retries on 429/5xx (honouring `Retry-After`) inside the role's timeout, skipping
//! providers whose circuit breaker is open. Every attempt is logged and priced.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sqlx::PgPool;
use uuid::Uuid;

use super::Role;
use super::anthropic::AnthropicClient;
use super::budget::{self, Refusal};
use super::openai::{Completion, OpenAiClient, ProviderError};
use super::pricing::PriceTable;
use super::routing::{OFFLINE, RoutingTable, Target};
use super::usage::{self, UsageRecord};
use super::{ChatRequest, ChatResponse, Engine, FinishReason, Usage, offline};
use crate::config::Config;

/// Retries on one target after the first attempt.
const MAX_RETRIES: u32 = 2;
/// Consecutive failures that open a provider's breaker, and how long it stays open.
const BREAKER_THRESHOLD: u32 = 5;
const BREAKER_OPEN_FOR: Duration = Duration::from_secs(30);
/// A `Retry-After` longer than this is not waited for: the next target is tried instead.
const MAX_RETRY_WAIT: Duration = Duration::from_secs(10);

/// Who a call is for, and whether a user is waiting on it.
#[derive(Debug, Clone, Default)]
pub struct CallContext {
    pub agent_id: Option<Uuid>,
    pub tenant_id: Option<Uuid>,
    /// Background work honours the kill switch; foreground (chat) does not.
    pub background: bool,
    pub request_id: Option<String>,
    /// The caller checked the budgets a moment ago for the whole unit of work (a chat turn is
    /// admitted once, answering 429 before anything is stored), so its calls are not checked
    /// again one by one. They are still logged and counted.
    pub admitted: bool,
}

impl CallContext {
    /// Calls made for an agent on behalf of `origin`: a job's calls are background work (the
    /// kill switch applies), anyone else's foreground; the request id travels along.
    pub fn for_agent(tenant_id: Uuid, agent_id: Uuid, origin: &crate::activity::Origin) -> CallContext {
        CallContext {
            agent_id: Some(agent_id),
            tenant_id: Some(tenant_id),
            background: matches!(origin.actor, crate::auth::Actor::Job(_)),
            request_id: origin.request_id.clone(),
            admitted: false,
        }
    }

    /// Says whether the calls are background work, whoever asked for them.
    pub fn background(self, background: bool) -> CallContext {
        CallContext { background, ..self }
    }

    /// The budgets admitted the whole unit of work already (a chat turn): see `admitted`.
    pub fn admitted(self) -> CallContext {
        CallContext { admitted: true, ..self }
    }

    /// A background job's calls for an agent: the kill switch applies, no request to trace.
    pub fn job(agent_id: Uuid, tenant_id: Option<Uuid>) -> CallContext {
        CallContext { agent_id: Some(agent_id), tenant_id, background: true, ..CallContext::default() }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// Every target failed; one line per attempt.
    #[error("every model for this role failed: {}", .attempts.join("; "))]
    AllFailed { attempts: Vec<String> },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A provider client of either API family.
enum Provider {
    OpenAi(OpenAiClient),
    Anthropic(AnthropicClient),
}

impl Provider {
    async fn complete(
        &self,
        req: &ChatRequest,
        model: &str,
        max_tokens: u32,
        timeout: Duration,
    ) -> Result<Completion, ProviderError> {
        match self {
            Provider::OpenAi(c) => c.complete(req, model, max_tokens, timeout).await,
            Provider::Anthropic(c) => c.complete(req, model, max_tokens, timeout).await,
        }
    }

    async fn stream(
        &self,
        req: &ChatRequest,
        model: &str,
        max_tokens: u32,
        timeout: Duration,
    ) -> Result<reqwest::Response, ProviderError> {
        match self {
            Provider::OpenAi(c) => c.stream(req, model, max_tokens, timeout).await,
            Provider::Anthropic(c) => c.stream(req, model, max_tokens, timeout).await,
        }
    }
}

#[derive(Default)]
struct Breaker {
    consecutive_failures: u32,
    open_until: Option<Instant>,
}

pub struct Gateway {
    pool: PgPool,
    routes: RoutingTable,
    prices: PriceTable,
    clients: HashMap<&'static str, Provider>,
    breakers: Mutex<HashMap<String, Breaker>>,
}

impl Gateway {
    pub fn new(pool: PgPool, config: &Config) -> Result<Self, String> {
        let routes = RoutingTable::from_config(config)?;
        let prices = PriceTable::with_overrides(config.llm_prices.as_deref())?;
        let mut clients = HashMap::new();
        if config.openai_api_key.is_some() || config.openai_base_url.is_some() {
            let base = config.openai_base_url.clone().unwrap_or_else(|| "https://api.openai.com/v1".into());
            clients
                .insert("openai", Provider::OpenAi(OpenAiClient::new("openai", &base, config.openai_api_key.clone())));
        }
        if let Some(key) = &config.xai_api_key {
            clients.insert("xai", Provider::OpenAi(OpenAiClient::new("xai", "https://api.x.ai/v1", Some(key.clone()))));
        }
        if let Some(key) = &config.anthropic_api_key {
            let base = config.anthropic_base_url.clone().unwrap_or_else(|| "https://api.anthropic.com/v1".into());
            clients.insert("anthropic", Provider::Anthropic(AnthropicClient::new(&base, key.clone())));
        }
        Ok(Gateway { pool, routes, prices, clients, breakers: Mutex::new(HashMap::new()) })
    }

    pub fn routes(&self) -> &RoutingTable {
        &self.routes
    }

    /// Whether the role's answers arrive piece by piece: not when its first target is the
    /// offline engine, which answers in one piece (then `complete` does the same work).
    pub fn streams(&self, role: Role) -> bool {
        self.routes.route(role).targets.first().is_some_and(|t| t.provider != OFFLINE)
    }

    /// What a call's tokens cost on `model` (0 for the offline engine, `None` when unpriced).
    pub fn cost(&self, model: &str, usage: Usage) -> Option<f64> {
        if model == OFFLINE || model.starts_with("offline") {
            return Some(0.0);
        }
        self.prices.cost(model, usage.prompt_tokens, usage.completion_tokens)
    }

    /// The budgets and the kill switch, unless the caller already admitted the call's work.
    async fn admit(&self, ctx: &CallContext) -> Result<(), LlmError> {
        if ctx.admitted {
            return Ok(());
        }
        match budget::check(&self.pool, ctx.agent_id, ctx.tenant_id, ctx.background).await? {
            Ok(()) => Ok(()),
            Err(refusal) => Err(refusal.into()),
        }
    }

    /// Runs one call for `ctx` through the role's route.
    pub async fn complete(&self, ctx: &CallContext, req: ChatRequest) -> Result<ChatResponse, LlmError> {
        self.admit(ctx).await?;
        let route = self.routes.route(req.role);
        let max_tokens = req.max_tokens.map_or(route.max_tokens, |m| m.min(route.max_tokens));
        let deadline = Instant::now() + route.timeout();
        let mut attempts = Vec::new();

        for target in &route.targets {
            if target.provider == OFFLINE {
                return Ok(self.offline(ctx, &req, target).await);
            }
            let Some(client) = self.usable_client(target, &mut attempts) else { continue };
            let mut retry = 0;
            loop {
                let remaining = deadline.saturating_duration_since(Instant::now());
                if remaining.is_zero() {
                    attempts.push(format!("{}/{}: no time left in the role's timeout", target.provider, target.model));
                    break;
                }
                let started = Instant::now();
                let result = client.complete(&req, &target.model, max_tokens, remaining).await;
                match result {
                    Ok(c) => {
                        self.breaker_success(&target.provider);
                        return Ok(self.success(ctx, &req, target, c, started).await);
                    }
                    Err(e) => {
                        self.breaker_failure(&target.provider);
                        let prompt = usage::count_prompt_tokens(&req.messages);
                        let usage = Usage { prompt_tokens: prompt, completion_tokens: 0 };
                        self.log(ctx, &req, target, usage, true, started, FinishReason::Error, Some(e.to_string()))
                            .await;
                        attempts.push(format!("{}/{}: {e}", target.provider, target.model));
                        let wait = match &e {
                            ProviderError::Retryable { retry_after, .. } if retry < MAX_RETRIES => {
                                retry_after.unwrap_or(Duration::from_millis(500 * 2u64.pow(retry)))
                            }
                            _ => break,
                        };
                        if wait > MAX_RETRY_WAIT || Instant::now() + wait >= deadline {
                            break;
                        }
                        if self.breaker_open(&target.provider) {
                            attempts.push(format!("{}: circuit opened, not retried", target.provider));
                            break;
                        }
                        tokio::time::sleep(wait).await;
                        retry += 1;
                    }
                }
            }
        }
        Err(LlmError::AllFailed { attempts })
    }

    /// A second opinion for comparisons (the calibration shadow): the route's first fallback
    /// target, or the offline engine when the route has none. One attempt, budgeted and logged.
    pub async fn complete_alternate(&self, ctx: &CallContext, req: ChatRequest) -> Result<ChatResponse, LlmError> {
        self.admit(ctx).await?;
        let route = self.routes.route(req.role);
        let target =
            route.targets.get(1).cloned().unwrap_or(Target { provider: OFFLINE.into(), model: OFFLINE.into() });
        if target.provider == OFFLINE {
            return Ok(self.offline(ctx, &req, &target).await);
        }
        let mut attempts = Vec::new();
        let Some(client) = self.usable_client(&target, &mut attempts) else {
            return Err(LlmError::AllFailed { attempts });
        };
        let max_tokens = req.max_tokens.map_or(route.max_tokens, |m| m.min(route.max_tokens));
        let started = Instant::now();
        match client.complete(&req, &target.model, max_tokens, route.timeout()).await {
            Ok(c) => {
                self.breaker_success(&target.provider);
                Ok(self.success(ctx, &req, &target, c, started).await)
            }
            Err(e) => {
                self.breaker_failure(&target.provider);
                let usage = Usage { prompt_tokens: usage::count_prompt_tokens(&req.messages), completion_tokens: 0 };
                self.log(ctx, &req, &target, usage, true, started, FinishReason::Error, Some(e.to_string())).await;
                Err(LlmError::AllFailed { attempts: vec![format!("{}/{}: {e}", target.provider, target.model)] })
            }
        }
    }

    /// Like `complete`, but sends the answer's text to `deltas` as it is produced, and returns
    /// the whole response at the end. A target that fails before its first piece of text falls
    /// back to the next one; once text has been sent, a failure ends the call with an error
    /// (the caller decides what to do with the partial answer). If `deltas` is closed (the
    /// client went away) the provider call is abandoned.
    pub async fn stream(
        &self,
        ctx: &CallContext,
        req: ChatRequest,
        deltas: tokio::sync::mpsc::Sender<String>,
    ) -> Result<ChatResponse, LlmError> {
        use futures::StreamExt;

        self.admit(ctx).await?;
        let req = &req;
        let route = self.routes.route(req.role);
        let max_tokens = req.max_tokens.map_or(route.max_tokens, |m| m.min(route.max_tokens));
        let mut attempts = Vec::new();
        for target in &route.targets {
            if target.provider == OFFLINE {
                let r = self.offline(ctx, req, target).await;
                let _ = deltas.send(r.content.clone()).await;
                return Ok(r);
            }
            let Some(client) = self.usable_client(target, &mut attempts) else { continue };
            let started = Instant::now();
            let fail = |e: String| async move {
                self.breaker_failure(&target.provider);
                let usage = Usage { prompt_tokens: usage::count_prompt_tokens(&req.messages), completion_tokens: 0 };
                self.log(ctx, req, target, usage, true, started, FinishReason::Error, Some(e.clone())).await;
                format!("{}/{}: {e}", target.provider, target.model)
            };
            let resp = match client.stream(req, &target.model, max_tokens, route.timeout()).await {
                Ok(r) => r,
                Err(e) => {
                    attempts.push(fail(e.to_string()).await);
                    continue;
                }
            };
            let mut body = resp.bytes_stream();
            let mut parser = match client {
                Provider::OpenAi(_) => super::openai::SseParser::default(),
                Provider::Anthropic(_) => super::openai::SseParser::anthropic(),
            };
            let (mut content, mut finish, mut reported) = (String::new(), FinishReason::Stop, None);
            let outcome: Result<(), String> = loop {
                let next = match tokio::time::timeout(route.timeout(), body.next()).await {
                    Err(_) => break Err(format!("no data for {:?}", route.timeout())),
                    Ok(None) if parser.done => break Ok(()),
                    Ok(None) => break Err("stream ended without [DONE]".into()),
                    Ok(Some(Err(e))) => break Err(format!("stream broke: {e}")),
                    Ok(Some(Ok(bytes))) => bytes,
                };
                let pieces = match parser.feed(&next) {
                    Ok(p) => p,
                    Err(e) => break Err(e.to_string()),
                };
                let mut gone = false;
                for piece in pieces {
                    match piece {
                        super::openai::StreamPiece::Delta(text) => {
                            content.push_str(&text);
                            gone |= deltas.send(text).await.is_err();
                        }
                        super::openai::StreamPiece::Finish(f) => finish = f,
                        super::openai::StreamPiece::Usage(u) => reported = Some(u),
                    }
                }
                if gone {
                    break Err("the caller went away; stream abandoned".into());
                }
            };
            match outcome {
                Ok(()) => {
                    self.breaker_success(&target.provider);
                    let c = Completion { content, tool_calls: Vec::new(), usage: reported, finish_reason: finish };
                    return Ok(self.success(ctx, req, target, c, started).await);
                }
                Err(e) if content.is_empty() => attempts.push(fail(e).await),
                Err(e) => {
                    // Text already reached the caller: no silent switch to another model.
                    let line = fail(e).await;
                    return Err(LlmError::AllFailed { attempts: vec![line] });
                }
            }
        }
        Err(LlmError::AllFailed { attempts })
    }

    /// The target's client, unless its breaker is open or it has none (noted in `attempts`).
    fn usable_client(&self, target: &Target, attempts: &mut Vec<String>) -> Option<&Provider> {
        if self.breaker_open(&target.provider) {
            attempts.push(format!("{}/{}: circuit open, skipped", target.provider, target.model));
            return None;
        }
        let client = self.clients.get(target.provider.as_str());
        if client.is_none() {
            attempts.push(format!("{}: no client configured", target.provider));
        }
        client
    }

    /// The offline engine's answer, logged like any call.
    async fn offline(&self, ctx: &CallContext, req: &ChatRequest, target: &Target) -> ChatResponse {
        let started = Instant::now();
        let answer = offline::answer(req);
        let usage = Usage {
            prompt_tokens: usage::count_prompt_tokens(&req.messages),
            completion_tokens: usage::count_tokens(&answer),
        };
        self.log(ctx, req, target, usage, true, started, FinishReason::Stop, None).await;
        ChatResponse {
            content: answer,
            tool_calls: Vec::new(),
            usage,
            finish_reason: FinishReason::Stop,
            provider: OFFLINE.into(),
            model: OFFLINE.into(),
            engine: Engine::Offline,
        }
    }

    async fn success(
        &self,
        ctx: &CallContext,
        req: &ChatRequest,
        target: &Target,
        c: Completion,
        started: Instant,
    ) -> ChatResponse {
        let (usage, estimated) = match c.usage {
            Some(u) => (u, false),
            None => (
                Usage {
                    prompt_tokens: usage::count_prompt_tokens(&req.messages),
                    completion_tokens: usage::count_tokens(&c.content),
                },
                true,
            ),
        };
        self.log(ctx, req, target, usage, estimated, started, c.finish_reason, None).await;
        ChatResponse {
            content: c.content,
            tool_calls: c.tool_calls,
            usage,
            finish_reason: c.finish_reason,
            provider: target.provider.clone(),
            model: target.model.clone(),
            engine: Engine::Model,
        }
    }

    #[expect(clippy::too_many_arguments, reason = "one log line has this many facts")]
    async fn log(
        &self,
        ctx: &CallContext,
        req: &ChatRequest,
        target: &Target,
        usage: Usage,
        estimated: bool,
        started: Instant,
        finish_reason: FinishReason,
        error: Option<String>,
    ) {
        let record = UsageRecord {
            agent_id: ctx.agent_id,
            tenant_id: ctx.tenant_id,
            role: req.role,
            background: ctx.background,
            provider: target.provider.clone(),
            model: target.model.clone(),
            usage,
            tokens_estimated: estimated,
            latency_ms: started.elapsed().as_millis() as u64,
            finish_reason,
            cost_usd: self.prices.cost(&target.model, usage.prompt_tokens, usage.completion_tokens),
            error,
            request_id: ctx.request_id.clone(),
        };
        if record.cost_usd.is_none() {
            tracing::warn!(model = %target.model, "no price for this model; cost logged as 0 (set MINICLAW_LLM_PRICES)");
        }
        // Accounting must not break the call it accounts for.
        if let Err(e) = usage::record(&self.pool, &record).await {
            tracing::error!(error = %e, role = req.role.as_str(), "could not write the LLM usage log");
        }
    }

    fn breaker_open(&self, provider: &str) -> bool {
        let mut b = self.breakers.lock().unwrap_or_else(|e| e.into_inner());
        let entry = b.entry(provider.to_string()).or_default();
        match entry.open_until {
            Some(t) if Instant::now() < t => true,
            Some(_) => {
                // Half-open: let one call through; a failure re-opens at once.
                entry.open_until = None;
                entry.consecutive_failures = BREAKER_THRESHOLD - 1;
                false
            }
            None => false,
        }
    }

    fn breaker_failure(&self, provider: &str) {
        let mut b = self.breakers.lock().unwrap_or_else(|e| e.into_inner());
        let entry = b.entry(provider.to_string()).or_default();
        entry.consecutive_failures += 1;
        if entry.consecutive_failures >= BREAKER_THRESHOLD {
            tracing::warn!(provider, "circuit breaker open for {:?}", BREAKER_OPEN_FOR);
            entry.open_until = Some(Instant::now() + BREAKER_OPEN_FOR);
        }
    }

    fn breaker_success(&self, provider: &str) {
        let mut b = self.breakers.lock().unwrap_or_else(|e| e.into_inner());
        b.insert(provider.to_string(), Breaker::default());
    }
}
