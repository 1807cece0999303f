//! The Wallet tab (SPEC I2): the agent's server-managed wallet (create it, its address and
//! balance), the owner's limits, the send form with its confirmation step, the transaction
//! history (the page reloads itself while a transaction is on its way), and owner-held wallets.
//! Amounts are entered and shown in ETH; the API speaks wei.

use alloy::primitives::U256;
use alloy::primitives::utils::{format_ether, parse_ether};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect};
use miniclaw_core::Error;
use serde::Deserialize;
use uuid::Uuid;

use super::extract::{Posted, WebAgent, WebOwner};
use super::forms::Form;
use super::notice::{Notice, NoticeQuery};
use super::pages::{LIST_SHOWN, PageResult, api_error, internal, message_of, render};
use crate::app::AppState;
use miniclaw_domain::onchain::wallets::external::{self, ExternalInput, ExternalWallet};
use miniclaw_domain::onchain::wallets::send::{self, LimitsInput, SendRequest};
use miniclaw_domain::onchain::wallets::transactions::{self, WalletTransaction};
use miniclaw_domain::onchain::wallets::{self, Wallet};
use miniclaw_domain::tenancy::agents::Agent;

/// A wei amount as ETH for reading: `1.5`, `0.000000000000000001`, `0`.
pub fn eth(wei: &str) -> String {
    match wei.parse::<U256>() {
        Ok(v) => {
            let s = format_ether(v);
            let s = s.trim_end_matches('0').trim_end_matches('.');
            if s.is_empty() { "0".into() } else { s.to_string() }
        }
        Err(_) => wei.to_string(),
    }
}

/// An ETH amount typed into a form, in wei; `Ok(None)` for an empty field.
pub fn wei_of(field: &str, text: &str) -> Result<Option<String>, Error> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let decimals = t.split_once('.').map_or(0, |(_, d)| d.len());
    let plain = t.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && t.bytes().filter(|b| *b == b'.').count() <= 1
        && decimals <= 18;
    let bad =
        || Error::validation(field, format!("{field}: write an amount in ETH such as 0.05 (at most 18 decimals)"));
    if !plain || t == "." || t.len() > 96 {
        return Err(bad());
    }
    parse_ether(t).map(|v| Some(v.to_string())).map_err(|_| bad())
}

pub struct TxView {
    pub t: WalletTransaction,
    pub eth: String,
    pub explorer: Option<String>,
}

pub struct ExternalView {
    pub w: ExternalWallet,
    pub eth: Option<String>,
}

#[derive(Template)]
#[template(path = "web/wallet.html")]
struct WalletPage {
    csrf: String,
    agent: Agent,
    tab: &'static str,
    wallet: Option<Wallet>,
    chain_id: Option<u64>,
    /// The balance in ETH, or why it cannot be read.
    balance: Result<String, String>,
    /// The limits in ETH (empty when unset), for the limits form.
    limits: [String; 3],
    transactions: Vec<TxView>,
    /// Whether a transaction is on its way (the page reloads itself).
    in_flight: bool,
    external: Vec<ExternalView>,
    /// The send form's values after an error.
    send_to: String,
    send_eth: String,
    notice: Option<String>,
    error: Option<String>,
    /// Why no wallet can be made on this server (no master key in its environment), said
    /// instead of offering a button that would fail.
    cannot_create: Option<String>,
}

/// What a failed post leaves in the send form.
#[derive(Default)]
struct Draft {
    to: String,
    amount: String,
}

async fn page(
    state: &AppState,
    web: WebOwner,
    agent: Agent,
    notice: Option<String>,
    error: Option<String>,
    draft: Draft,
) -> PageResult {
    let pool = state.pool();
    let chain = state.deps().chain.as_deref();
    let wallet = wallets::get(pool, agent.id).await.map_err(internal)?;
    let balance = match &wallet {
        Some(w) => wallets::balance(chain, &w.address).await.map(|b| eth(&b)),
        None => Err(String::new()),
    };
    let limits = wallet.as_ref().map_or_else(Default::default, |w| {
        let show = |v: &Option<String>| v.as_deref().map(eth).unwrap_or_default();
        [show(&w.limits.max_per_tx_wei), show(&w.limits.max_per_day_wei), show(&w.limits.confirm_above_wei)]
    });
    let transactions: Vec<TxView> = transactions::list(pool, agent.id, LIST_SHOWN.min(transactions::LIST_MAX), None)
        .await
        .map_err(internal)?
        .into_iter()
        .map(|t| TxView {
            eth: eth(&t.value_wei),
            explorer: t
                .tx_hash
                .as_deref()
                .and_then(|h| miniclaw_domain::onchain::identity::explorer_tx_url(t.chain_id, h)),
            t,
        })
        .collect();
    let in_flight = transactions.iter().any(|x| matches!(x.t.status.as_str(), "queued" | "signed"));
    let external = external::list(pool, chain, agent.id, external::MAX, None)
        .await
        .map_err(internal)?
        .into_iter()
        .map(|w| ExternalView { eth: w.balance_wei.as_deref().map(eth), w })
        .collect();
    Ok(render(WalletPage {
        csrf: web.csrf,
        tab: "wallet",
        wallet,
        chain_id: chain.map(|c| c.chain_id),
        balance,
        limits,
        transactions,
        in_flight,
        external,
        send_to: draft.to,
        send_eth: draft.amount,
        notice,
        error,
        cannot_create: wallets::require_master_key(&state.deps().vault)
            .err()
            .map(|e| e.public_message().replace('`', "")),
        agent,
    }))
}

pub async fn show(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(q): Query<NoticeQuery>,
) -> PageResult {
    page(&state, web, agent, Notice::message_of(&q.notice), None, Draft::default()).await
}

fn back(agent: &Agent, notice: Notice) -> axum::response::Response {
    Redirect::to(&format!("/agents/{}/wallet?notice={}", agent.id, notice.code())).into_response()
}

/// The page again with what went wrong (a refusal the owner can act on), or the error page.
async fn refused(state: &AppState, web: WebOwner, agent: Agent, e: Error, draft: Draft) -> PageResult {
    match message_of(&e) {
        Some(m) => page(state, web, agent, None, Some(m), draft).await,
        None => Err(api_error(e)),
    }
}

pub async fn create(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    let created = async {
        let mut tx = state.pool().begin().await?;
        let w =
            wallets::create(&mut tx, &state.deps().vault, web.owner.tenant_id, agent.id, &web.owner.origin()).await?;
        tx.commit().await?;
        w.ok_or_else(|| Error::Conflict("the agent already has a wallet".into()))
    }
    .await;
    match created {
        Ok(_) => Ok(back(&agent, Notice::WalletCreated)),
        Err(e) => refused(&state, web, agent, e, Draft::default()).await,
    }
}

fn limits_of(f: &Form) -> Result<LimitsInput, Error> {
    Ok(LimitsInput {
        max_per_tx_wei: wei_of("max per transaction", &f.text("max_per_tx"))?,
        max_per_day_wei: wei_of("max per 24 hours", &f.text("max_per_day"))?,
        confirm_above_wei: wei_of("confirm above", &f.text("confirm_above"))?,
    })
}

pub async fn limits(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let saved = match limits_of(&f) {
        Ok(input) => send::set_limits(state.pool(), web.owner.tenant_id, agent.id, &web.owner.origin(), input).await,
        Err(e) => Err(e),
    };
    match saved {
        Ok(_) => Ok(back(&agent, Notice::LimitsSaved)),
        Err(e) => refused(&state, web, agent, e, Draft::default()).await,
    }
}

pub async fn send_value(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let draft = Draft { to: f.text("to"), amount: f.text("amount") };
    let sent = match wei_of("amount", &draft.amount) {
        Ok(Some(value_wei)) => {
            let input = SendRequest { to: draft.to.clone(), value_wei };
            send::request(state.deps(), web.owner.tenant_id, agent.id, &web.owner.origin(), input).await
        }
        Ok(None) => Err(Error::validation("amount", "amount: write how much ETH to send")),
        Err(e) => Err(e),
    };
    match sent {
        Ok(t) if t.status == "awaiting_confirmation" => Ok(back(&agent, Notice::SendAwaitingConfirmation)),
        Ok(_) => Ok(back(&agent, Notice::SendQueued)),
        Err(e) => refused(&state, web, agent, e, draft).await,
    }
}

/// The transaction in `/agents/{id}/wallet/transactions/{tid}` (the agent's `{id}` is
/// `WebAgent`'s).
#[derive(Deserialize)]
pub struct TxPath {
    tid: Uuid,
}

/// Confirms (`decision=confirm`) or cancels (anything else) a send waiting for the owner.
pub async fn decide(
    State(state): State<AppState>,
    Path(TxPath { tid }): Path<TxPath>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let confirm = f.get("decision") == Some("confirm");
    match send::decide(state.pool(), web.owner.tenant_id, agent.id, &web.owner.origin(), tid, confirm).await {
        Ok(_) => Ok(back(&agent, if confirm { Notice::SendConfirmed } else { Notice::SendCancelled })),
        Err(e) => refused(&state, web, agent, e, Draft::default()).await,
    }
}

pub async fn add_external(
    State(state): State<AppState>,
    Posted { who: WebAgent { owner: web, agent }, form: f }: Posted<WebAgent>,
) -> PageResult {
    let label = f.text("label");
    let input = ExternalInput { address: f.text("address"), label: (!label.trim().is_empty()).then_some(label) };
    let chain = state.deps().chain.as_deref();
    match external::add(state.pool(), chain, web.owner.tenant_id, agent.id, &web.owner.origin(), input).await {
        Ok(_) => Ok(back(&agent, Notice::ExternalAdded)),
        Err(e) => refused(&state, web, agent, e, Draft::default()).await,
    }
}

/// The owner-held wallet in `/agents/{id}/wallet/external/{eid}/remove`.
#[derive(Deserialize)]
pub struct ExternalPath {
    eid: Uuid,
}

pub async fn remove_external(
    State(state): State<AppState>,
    Path(ExternalPath { eid }): Path<ExternalPath>,
    Posted { who: WebAgent { owner: web, agent }, .. }: Posted<WebAgent>,
) -> PageResult {
    external::remove(state.pool(), web.owner.tenant_id, agent.id, &web.owner.origin(), eid).await.map_err(internal)?;
    Ok(back(&agent, Notice::ExternalRemoved))
}

#[cfg(test)]
mod tests {
    use super::{eth, wei_of};

    #[test]
    fn amounts_read_in_eth_and_are_typed_in_eth() {
        assert_eq!(eth("0"), "0");
        assert_eq!(eth("1000000000000000000"), "1");
        assert_eq!(eth("1500000000000000000"), "1.5");
        assert_eq!(eth("1"), "0.000000000000000001");
        assert_eq!(eth("12000000000000000000000"), "12000");
        assert_eq!(wei_of("amount", "").unwrap(), None);
        assert_eq!(wei_of("amount", " 0.05 ").unwrap().as_deref(), Some("50000000000000000"));
        assert_eq!(wei_of("amount", "2").unwrap().as_deref(), Some("2000000000000000000"));
        assert_eq!(wei_of("amount", ".5").unwrap().as_deref(), Some("500000000000000000"));
        for bad in ["-1", "1e18", "0x10", "1.2.3", ".", "one", "0.0000000000000000001", "1,5"] {
            assert!(wei_of("amount", bad).is_err(), "{bad}");
        }
    }
}
