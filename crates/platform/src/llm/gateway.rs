//! `Gateway::complete`: budgets, global cap and kill-switch check, then the route's targets in order, each
//! with retries on 429/5xx (honouring `Retry-After`) inside the role's timeout, skipping
//! providers whose circuit breaker is open (breaker). Every attempt is logged and priced.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tracing::Instrument as _;

use sqlx::PgPool;

use super::Role;
use super::breaker::Breakers;
use super::budget::{self, SpendCaps};
use super::call::{CallContext, LlmError};
use super::openai::{Completion, ProviderError};
use super::pricing::PriceTable;
use super::providers::Provider;
use super::reservations;
use super::routing::{OFFLINE, RoutingTable, Target};
use super::usage::{self, UsageRecord};
use super::{ChatRequest, ChatResponse, Engine, FinishReason, Usage};
use crate::config::Config;
use crate::domain_sql::DomainSql;
use miniclaw_core::ids::MessageId;

/// Retries on one target after the first attempt.
const MAX_RETRIES: u32 = 2;
/// A `Retry-After` longer than this is not waited for: the next target is tried instead.
const MAX_RETRY_WAIT: Duration = Duration::from_secs(10);

/// What answers when no provider is configured for a role (and what a route may name as its
/// last fallback): the offline engine, which answers from the role's typed input with the
/// domain's own rules. It lives above the domain (`miniclaw-offline`) and is handed in here.
pub trait Fallback: Send + Sync {
    /// The answer to `req`, in one piece.
    fn answer(&self, req: &ChatRequest) -> String;

    /// The functions (among `req.tools`) the engine calls instead of answering; none by default.
    fn tool_calls(&self, _req: &ChatRequest) -> Vec<super::ToolCall> {
        Vec::new()
    }
}

/// The one way to call a model: routes, budgets, retries, fallbacks, breakers and the usage log.
pub struct Gateway {
    pool: PgPool,
    offline: Arc<dyn Fallback>,
    routes: RoutingTable,
    prices: PriceTable,
    clients: HashMap<&'static str, Provider>,
    breakers: Breakers,
    /// The longest a streamed call may take in total (`MINICLAW_LLM_STREAM_DEADLINE_SECS`).
    stream_deadline: Duration,
    /// The operator's caps: `MINICLAW_GLOBAL_DAILY_USD` and the new accounts' allowances.
    caps: SpendCaps,
    /// The agents' and tenants' budgets, read from the domain's tables.
    domain: DomainSql,
}

impl Gateway {
    /// A gateway with the routes, prices and provider clients `config` sets, and the offline
    /// engine for the targets no provider serves; `domain` reads the budgets.
    pub fn new(pool: PgPool, config: &Config, offline: Arc<dyn Fallback>, domain: DomainSql) -> Result<Self, String> {
        let routes = RoutingTable::from_config(config)?;
        let prices = PriceTable::with_overrides(config.llm_prices.as_deref())?;
        let clients = Provider::configured(config);
        let stream_deadline = config.streams.llm_stream_deadline;
        let caps = SpendCaps::from_config(config);
        Ok(Gateway {
            pool,
            offline,
            routes,
            prices,
            clients,
            breakers: Breakers::default(),
            stream_deadline,
            caps,
            domain,
        })
    }

    /// The routing table every call follows.
    pub fn routes(&self) -> &RoutingTable {
        &self.routes
    }

    /// Whether the role's answers arrive piece by piece: not when its first target is the
    /// offline engine, which answers in one piece (then `complete` does the same work).
    pub fn streams(&self, role: Role) -> bool {
        self.routes.route(role).targets.first().is_some_and(|t| t.provider != OFFLINE)
    }

    /// Whether the role's calls go to a provider first (cost money and time), not to the
    /// offline engine.
    pub fn paid(&self, role: Role) -> bool {
        self.streams(role)
    }

    /// What a call's tokens cost on `model` (0 for the offline engine, `None` when unpriced).
    pub fn cost(&self, model: &str, usage: Usage) -> Option<f64> {
        if model == OFFLINE || model.starts_with("offline") {
            return Some(0.0);
        }
        self.prices.cost(model, usage.prompt_tokens, usage.completion_tokens)
    }

    /// The operator's spending caps every call is held to.
    pub fn caps(&self) -> SpendCaps {
        self.caps
    }

    /// Admits paid work that is not a model call against the same limits (`spend`).
    pub fn spender(&self) -> super::spend::Spender {
        super::spend::Spender::new(self.pool.clone(), self.domain, self.caps)
    }

    /// What `tokens` prompt tokens cost on `model` (an embedding model's price), `None` when
    /// it is unpriced.
    pub fn price_of_prompt(&self, model: &str, tokens: u64) -> Option<f64> {
        self.prices.cost(model, u32::try_from(tokens).unwrap_or(u32::MAX), 0)
    }

    /// Admits a call whose caller did not admit its work already (a chat turn admits itself):
    /// a call that may cost money holds its most expensive outcome — the prompt and the longest
    /// answer on the priciest model it may reach — against every limit (`reservations`), and
    /// is settled when it ends (`settle`); a free call (the offline engine only) is judged by
    /// the limits as they stand. The context the call runs under (held, knowing whether the
    /// account is new) and the hold to settle.
    async fn admit(&self, ctx: &CallContext, req: &ChatRequest) -> Result<(CallContext, Option<MessageId>), LlmError> {
        if ctx.admitted {
            return Ok((ctx.clone(), None));
        }
        let route = self.routes.route(req.role);
        let max_tokens = req.max_tokens.map_or(route.max_tokens, |m| m.min(route.max_tokens));
        let prompt = usage::count_request_tokens(req);
        let cost = reservations::Cost {
            tokens: i64::from(prompt) + i64::from(max_tokens),
            usd: self.max_cost(&targets(route, req), prompt, max_tokens),
        };
        if cost.usd <= 0.0 {
            return match budget::check(&self.pool, &self.domain, ctx.agent_id, ctx.tenant_id, self.caps).await? {
                Ok(limits) => Ok((CallContext { new_account: limits.established == Some(false), ..ctx.clone() }, None)),
                Err(refusal) => Err(refusal.into()),
            };
        }
        match reservations::admit(&self.pool, &self.domain, ctx.agent_id, ctx.tenant_id, ctx.key_id, cost, self.caps)
            .await?
        {
            Ok((hold, new_account)) => Ok((ctx.clone().admitted(new_account).held_by(hold), Some(hold))),
            Err(refusal) => Err(refusal.into()),
        }
    }

    /// Settles the hold `admit` made, if any; a failure is logged (the sweep settles it later).
    async fn settle(&self, ctx: &CallContext, hold: Option<MessageId>) {
        let Some(hold) = hold else { return };
        let agent = ctx.agent_id.map_or(reservations::NO_AGENT, |a| a.0);
        if let Err(e) = reservations::release_raw(&self.pool, agent, hold).await {
            tracing::warn!(error = %e, "could not settle a model call's hold");
        }
    }

    /// The most a call of `prompt` tokens answering at most `answer` tokens may cost on any of
    /// `targets` (those with a price: an unpriced one is never called).
    pub fn max_cost(&self, targets: &[Target], prompt: u32, answer: u32) -> f64 {
        targets
            .iter()
            .filter(|t| t.provider != OFFLINE)
            .filter_map(|t| self.prices.cost(&t.model, prompt, answer))
            .fold(0.0, f64::max)
    }

    /// The most a call of `role` may cost, with `model` instead of the route's first model when
    /// given (a premium agent's own): see `max_cost`.
    pub fn max_cost_of(&self, role: Role, model: Option<&str>, prompt: u32, answer: u32) -> f64 {
        let route = self.routes.route(role);
        let mut targets = route.targets.clone();
        if let (Some(model), Some(first)) = (model, targets.first_mut())
            && first.provider != OFFLINE
        {
            first.model = model.to_string();
        }
        self.max_cost(&targets, prompt, answer)
    }

    /// Whether `model` may be chosen for an agent (`premium_model`): only a model the operator
    /// priced (the default prices and `MINICLAW_LLM_PRICES`), so that no call is ever costed at
    /// zero because its price is unknown.
    pub fn choosable(&self, model: &str) -> bool {
        model != OFFLINE && self.prices.get(model).is_some()
    }

    /// The models an agent may choose, by name.
    pub fn choosable_models(&self) -> Vec<String> {
        self.prices.models().filter(|m| *m != OFFLINE).map(str::to_string).collect()
    }

    /// Runs one call for `ctx` through the role's route.
    pub async fn complete(&self, ctx: &CallContext, req: ChatRequest) -> Result<ChatResponse, LlmError> {
        let span = call_span(ctx, &req);
        async move {
            let (ctx, hold) = self.admit(ctx, &req).await?;
            let result = self.complete_admitted(ctx.clone(), req).await;
            self.settle(&ctx, hold).await;
            result
        }
        .instrument(span)
        .await
    }

    /// `complete` of a call admitted already.
    async fn complete_admitted(&self, ctx: CallContext, req: ChatRequest) -> Result<ChatResponse, LlmError> {
        let ctx = &ctx;
        let route = self.routes.route(req.role);
        let max_tokens = req.max_tokens.map_or(route.max_tokens, |m| m.min(route.max_tokens));
        let deadline = Instant::now() + route.timeout();
        let mut attempts = Vec::new();

        for target in targets(route, &req).iter() {
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
                        self.breakers.record_success(&target.provider);
                        return Ok(self.success(ctx, &req, target, c, started).await);
                    }
                    Err(e) => {
                        self.breakers.record_failure(&target.provider);
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
                        if self.breakers.is_open(&target.provider) {
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
        let span = call_span(ctx, &req);
        async move {
            let (ctx, hold) = self.admit(ctx, &req).await?;
            let result = self.alternate_admitted(ctx.clone(), req).await;
            self.settle(&ctx, hold).await;
            result
        }
        .instrument(span)
        .await
    }

    /// `complete_alternate` of a call admitted already.
    async fn alternate_admitted(&self, ctx: CallContext, req: ChatRequest) -> Result<ChatResponse, LlmError> {
        let ctx = &ctx;
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
                self.breakers.record_success(&target.provider);
                Ok(self.success(ctx, &req, &target, c, started).await)
            }
            Err(e) => {
                self.breakers.record_failure(&target.provider);
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
    /// client went away) the provider call is abandoned. Each piece must come within the role's
    /// timeout, and the whole call, fallbacks included, within the stream deadline: a provider
    /// that drips text forever cannot keep a turn open.
    pub async fn stream(
        &self,
        ctx: &CallContext,
        req: ChatRequest,
        deltas: tokio::sync::mpsc::Sender<String>,
    ) -> Result<ChatResponse, LlmError> {
        let span = call_span(ctx, &req);
        async move {
            let (ctx, hold) = self.admit(ctx, &req).await?;
            let result = self.stream_admitted(ctx.clone(), req, deltas).await;
            self.settle(&ctx, hold).await;
            result
        }
        .instrument(span)
        .await
    }

    /// `stream` of a call admitted already.
    async fn stream_admitted(
        &self,
        ctx: CallContext,
        req: ChatRequest,
        deltas: tokio::sync::mpsc::Sender<String>,
    ) -> Result<ChatResponse, LlmError> {
        use futures::StreamExt;

        let ctx = &ctx;
        let req = &req;
        let route = self.routes.route(req.role);
        let max_tokens = req.max_tokens.map_or(route.max_tokens, |m| m.min(route.max_tokens));
        let mut attempts = Vec::new();
        let deadline = tokio::time::Instant::now() + self.stream_deadline;
        for target in targets(route, req).iter() {
            if target.provider == OFFLINE {
                let r = self.offline(ctx, req, target).await;
                let _ = deltas.send(r.content.clone()).await;
                return Ok(r);
            }
            let remaining = deadline.saturating_duration_since(tokio::time::Instant::now());
            if remaining.is_zero() {
                attempts.push(format!("{}/{}: no time left in the stream deadline", target.provider, target.model));
                break;
            }
            let Some(client) = self.usable_client(target, &mut attempts) else { continue };
            let started = Instant::now();
            let fail = |e: String| async move {
                self.breakers.record_failure(&target.provider);
                let usage = Usage { prompt_tokens: usage::count_prompt_tokens(&req.messages), completion_tokens: 0 };
                self.log(ctx, req, target, usage, true, started, FinishReason::Error, Some(e.clone())).await;
                format!("{}/{}: {e}", target.provider, target.model)
            };
            let resp = match client.stream(req, &target.model, max_tokens, route.timeout().min(remaining)).await {
                Ok(r) => r,
                Err(e) => {
                    attempts.push(fail(e.to_string()).await);
                    continue;
                }
            };
            let mut body = resp.bytes_stream();
            let mut parser = client.parser();
            let (mut content, mut finish, mut reported) = (String::new(), FinishReason::Stop, None);
            let outcome: Result<(), String> = loop {
                let idle = tokio::time::Instant::now() + route.timeout();
                let next = match tokio::time::timeout_at(idle.min(deadline), body.next()).await {
                    Err(_) if idle < deadline => break Err(format!("no data for {:?}", route.timeout())),
                    Err(_) => break Err(format!("the stream ran past its deadline of {:?}", self.stream_deadline)),
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
                    self.breakers.record_success(&target.provider);
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
        if self.breakers.is_open(&target.provider) {
            attempts.push(format!("{}/{}: circuit open, skipped", target.provider, target.model));
            return None;
        }
        // A model without a price is never called: its cost could not be held or counted.
        if self.prices.get(&target.model).is_none() {
            attempts.push(format!(
                "{}/{}: no price for this model (MINICLAW_LLM_PRICES); not called",
                target.provider, target.model
            ));
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
        let tool_calls = if req.tools.is_empty() { Vec::new() } else { self.offline.tool_calls(req) };
        let (answer, finish) = if tool_calls.is_empty() {
            (self.offline.answer(req), FinishReason::Stop)
        } else {
            (String::new(), FinishReason::ToolCalls)
        };
        let usage = Usage {
            prompt_tokens: usage::count_prompt_tokens(&req.messages),
            completion_tokens: usage::count_tokens(&answer),
        };
        self.log(ctx, req, target, usage, true, started, finish, None).await;
        ChatResponse {
            content: answer,
            tool_calls,
            usage,
            finish_reason: finish,
            provider: OFFLINE.into(),
            model: OFFLINE.into(),
            engine: Engine::Offline,
        }
    }

    /// A provider's answer as a response, logged with its usage (counted here when the
    /// provider reported none).
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

    /// One priced row of the usage log; failing to write it is logged, never returned.
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
            new_account: ctx.new_account,
            held_by: ctx.held_by,
            key_id: ctx.key_id,
        };
        // The call's span (`call_span`) says what the last attempt was and what it cost.
        let span = tracing::Span::current();
        crate::telemetry::rename(&span, format!("chat {}", record.model));
        span.record("gen_ai.system", record.provider.as_str());
        span.record("gen_ai.request.model", record.model.as_str());
        span.record("gen_ai.usage.input_tokens", record.usage.prompt_tokens as i64);
        span.record("gen_ai.usage.output_tokens", record.usage.completion_tokens as i64);
        span.record("miniclaw.tokens_estimated", record.tokens_estimated);
        span.record("miniclaw.cost_usd", record.cost_usd.unwrap_or(0.0));
        if record.error.is_some() {
            span.record("otel.status_code", "ERROR");
        }
        // Accounting must not break the call it accounts for.
        if let Err(e) = usage::record(&self.pool, &record).await {
            tracing::error!(error = %e, role = req.role.as_str(), "could not write the LLM usage log");
        }
    }
}

/// The route's targets for `req`: its primary target runs the request's model when it names one.
/// Borrowed as they are unless the request overrides the model (no copy per call otherwise).
fn targets<'a>(route: &'a super::routing::Route, req: &ChatRequest) -> std::borrow::Cow<'a, [Target]> {
    match (&req.model, route.targets.first()) {
        (Some(model), Some(first)) if first.provider != OFFLINE => {
            let mut targets = route.targets.clone();
            targets[0].model = model.clone();
            std::borrow::Cow::Owned(targets)
        }
        _ => std::borrow::Cow::Borrowed(&route.targets),
    }
}

/// A model call's span: its role and who it is for; `log` records the provider, model, tokens
/// and cost of the attempt that answered (or of the last that failed). Never the messages.
fn call_span(ctx: &CallContext, req: &ChatRequest) -> tracing::Span {
    let field = |id: Option<String>| id.unwrap_or_default();
    tracing::info_span!(
        "llm.call",
        otel.name = "chat",
        otel.kind = "client",
        otel.status_code = tracing::field::Empty,
        gen_ai.operation.name = "chat",
        miniclaw.role = req.role.as_str(),
        miniclaw.background = ctx.background,
        tenant.id = %field(ctx.tenant_id.map(|t| t.to_string())),
        agent.id = %field(ctx.agent_id.map(|a| a.to_string())),
        gen_ai.system = tracing::field::Empty,
        gen_ai.request.model = tracing::field::Empty,
        gen_ai.usage.input_tokens = tracing::field::Empty,
        gen_ai.usage.output_tokens = tracing::field::Empty,
        miniclaw.tokens_estimated = tracing::field::Empty,
        miniclaw.cost_usd = tracing::field::Empty,
    )
}
