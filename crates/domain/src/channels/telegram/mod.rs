//! Telegram (SPEC O6, seed 001 §10.6): an agent's own bot. The owner gives the bot token; it is
//! sealed under the master key (`telegram:<agent id>`) and never shown again. Connecting calls
//! `setWebhook` with a random secret token, which Telegram then sends with every update as
//! `X-Telegram-Bot-Api-Secret-Token` (only its SHA-256 is stored; a request without the right
//! one is refused). Messages run through the agent's chat pipeline (channel `telegram`, one
//! conversation per chat, each chat its own end user) and the reply goes back by `sendMessage`.
//! The owner links their own chat with `/start <link code>`; notifications go there. The Bot
//! API's base URL is `TELEGRAM_API_BASE`.

mod updates;

pub use miniclaw_platform::telegram::BotApi;
pub use updates::{Handled, Update, cycle as answer_cycle, handle};

use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;

/// The header Telegram sends the webhook's secret token in.
pub const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

/// The bot token to connect with.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectInput {
    /// The token @BotFather gave (`123456:ABC…`).
    pub bot_token: String,
}

/// The agent's bot, as the owner sees it (never the token).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TelegramStatus {
    pub connected: bool,
    pub bot_username: Option<String>,
    /// Send `/start <link_code>` to the bot from your own Telegram to receive notifications there.
    pub link_code: Option<String>,
    pub owner_linked: bool,
    /// Where Telegram delivers the bot's updates.
    pub webhook_url: Option<String>,
}

fn vault_name(agent: AgentId) -> String {
    format!("telegram:{agent}")
}

fn webhook_url(base_url: &str, agent: AgentId) -> String {
    format!("{}/webhooks/telegram/{agent}", base_url.trim_end_matches('/'))
}

/// Whether a bot token has Telegram's shape (`<bot id>:<35 characters>`): anything else could
/// not be one, and would end up in a URL path.
pub fn token_shape_ok(token: &str) -> bool {
    match token.split_once(':') {
        Some((id, secret)) => {
            !id.is_empty()
                && id.len() <= 20
                && id.bytes().all(|b| b.is_ascii_digit())
                && (20..=100).contains(&secret.len())
                && secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        }
        None => false,
    }
}

fn random_text(len: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut bytes = vec![0u8; len];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect()
}

/// Connects (or reconnects) the agent's bot: checks the token with `getMe`, registers the
/// webhook with a new secret token, and stores the token sealed. 400 for a token of the wrong
/// shape, 422 when Telegram refuses it, 502 when the Bot API cannot be reached.
pub async fn connect(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    input: ConnectInput,
) -> Result<TelegramStatus, Error> {
    let token = input.bot_token.trim();
    if !token_shape_ok(token) {
        return Err(Error::validation("bot_token", "a bot token looks like 123456789:AA… (as @BotFather gives it)"));
    }
    let api = BotApi::new(&deps.email.telegram_api_base, token)?;
    let me = api.call("getMe", json!({})).await?;
    let username = me["username"].as_str().map(str::to_string);
    let secret = random_text(48);
    let link_code = random_text(10);
    let url = webhook_url(&deps.base_url, agent);
    api.call("setWebhook", json!({ "url": url, "secret_token": secret, "allowed_updates": ["message"] })).await?;
    let sealed = deps.vault.seal(&vault_name(agent), token.as_bytes());
    let mut tx = deps.pool.begin().await?;
    sqlx::query!(
        "INSERT INTO agent_telegram_bots (agent_id, sealed_token, bot_username, secret_hash, link_code)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (agent_id) DO UPDATE SET sealed_token = $2, bot_username = $3, secret_hash = $4, link_code = $5,
             owner_chat_id = NULL, updated_at = now()",
        agent as _,
        sealed,
        username,
        Sha256::digest(secret.as_bytes()).to_vec(),
        link_code
    )
    .execute(&mut *tx)
    .await?;
    activity::record_agent(&mut tx, tenant, agent, origin, "telegram_connected", json!({ "bot_username": username }))
        .await?;
    tx.commit().await?;
    status(deps, agent).await
}

/// The agent's bot, if connected.
pub async fn status(deps: &Deps, agent: AgentId) -> Result<TelegramStatus, Error> {
    let row = sqlx::query!(
        "SELECT bot_username, link_code, owner_chat_id FROM agent_telegram_bots WHERE agent_id = $1",
        agent as _
    )
    .fetch_optional(&deps.pool)
    .await?;
    Ok(match row {
        None => TelegramStatus {
            connected: false,
            bot_username: None,
            link_code: None,
            owner_linked: false,
            webhook_url: None,
        },
        Some(r) => TelegramStatus {
            connected: true,
            bot_username: r.bot_username,
            link_code: Some(r.link_code),
            owner_linked: r.owner_chat_id.is_some(),
            webhook_url: Some(webhook_url(&deps.base_url, agent)),
        },
    })
}

/// The agent's Bot API client and the owner's chat, when a bot is connected.
pub(crate) async fn bot(deps: &Deps, agent: AgentId) -> anyhow::Result<Option<(BotApi, Option<i64>)>> {
    let Some(row) =
        sqlx::query!("SELECT sealed_token, owner_chat_id FROM agent_telegram_bots WHERE agent_id = $1", agent as _)
            .fetch_optional(&deps.pool)
            .await?
    else {
        return Ok(None);
    };
    let opened = deps.vault.open(&vault_name(agent), &row.sealed_token).map_err(anyhow::Error::from)?;
    let token = String::from_utf8(opened.plain).map_err(|_| anyhow::anyhow!("the sealed bot token is not text"))?;
    Ok(Some((BotApi::new(&deps.email.telegram_api_base, &token)?, row.owner_chat_id)))
}

/// Disconnects the bot: the webhook is removed (when Telegram answers) and the token forgotten.
pub async fn disconnect(deps: &Deps, tenant: TenantId, agent: AgentId, origin: &Origin) -> Result<(), Error> {
    let Some((api, _)) = bot(deps, agent).await? else {
        return Err(Error::not_found("telegram bot"));
    };
    if let Err(e) = api.call("deleteWebhook", json!({})).await {
        tracing::warn!(agent.id = %agent, error = %e.public_message(), "deleteWebhook failed; forgetting the bot anyway");
    }
    let mut tx = deps.pool.begin().await?;
    sqlx::query!("DELETE FROM agent_telegram_bots WHERE agent_id = $1", agent as _).execute(&mut *tx).await?;
    activity::record_agent(&mut tx, tenant, agent, origin, "telegram_disconnected", json!({})).await?;
    tx.commit().await?;
    Ok(())
}

/// Sends `text` to the owner's linked chat. `Ok(false)` when no bot or no owner chat is linked.
/// The job that sends one notification (or digest) to the owner's linked chat.
pub const NOTIFY_JOB: &str = "telegram_notify";
/// With the queue's backoff (5 s doubling): about an hour and a half of attempts.
const NOTIFY_ATTEMPTS: i32 = 11;

pub fn notify_cycle() -> miniclaw_platform::jobs::Cycle {
    use miniclaw_platform::jobs::{Cycle, CycleScope};
    Cycle::new(
        NOTIFY_JOB,
        CycleScope::Agent,
        "Sends a notification to the owner's linked Telegram chat, retried like an email (queued by the dispatch).",
        notify_job,
    )
    .max_attempts(NOTIFY_ATTEMPTS)
}

/// Queues `text` for the owner's linked chat (in the caller's transaction), for the
/// notifications `ids`; `None` when no chat is linked. The job retries a failed send with the
/// queue's backoff and records the outcome on the notifications.
pub async fn queue_to_owner(
    conn: &mut sqlx::PgConnection,
    agent: AgentId,
    text: &str,
    ids: &[uuid::Uuid],
) -> sqlx::Result<Option<uuid::Uuid>> {
    let linked = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM agent_telegram_bots WHERE agent_id = $1 AND owner_chat_id IS NOT NULL) AS "x!""#,
        agent as _
    )
    .fetch_one(&mut *conn)
    .await?;
    if !linked {
        return Ok(None);
    }
    let job = miniclaw_platform::jobs::queue::NewJob::new(NOTIFY_JOB)
        .agent(agent)
        .payload(json!({ "text": text, "notifications": ids }))
        .max_attempts(NOTIFY_ATTEMPTS);
    Ok(Some(miniclaw_platform::jobs::queue::enqueue_in(conn, job).await?.id))
}

async fn notify_job(ctx: miniclaw_platform::jobs::JobContext) -> anyhow::Result<serde_json::Value> {
    let deps = ctx.deps()?;
    let agent = AgentId(ctx.job.agent_id.ok_or_else(|| anyhow::anyhow!("`{NOTIFY_JOB}` needs an agent"))?);
    let text = ctx.job.payload["text"].as_str().unwrap_or_default();
    let ids: Vec<uuid::Uuid> = serde_json::from_value(ctx.job.payload["notifications"].clone()).unwrap_or_default();
    let last = ctx.job.attempts >= ctx.job.max_attempts;
    let (status, outcome) = match send_to_owner(deps, agent, text).await {
        Ok(true) => (json!({ "status": "sent" }), Ok(())),
        Ok(false) => (json!({ "status": "skipped", "reason": "no Telegram chat is linked any more" }), Ok(())),
        Err(e) if last => (json!({ "status": "failed", "error": e.to_string(), "attempts": ctx.job.attempts }), Ok(())),
        Err(e) => (json!({ "status": "retrying", "error": e.to_string(), "attempts": ctx.job.attempts }), Err(e)),
    };
    crate::channels::notifications::telegram_outcome(&ctx.pool, agent, &ids, &status).await?;
    outcome?;
    Ok(status)
}

pub async fn send_to_owner(deps: &Deps, agent: AgentId, text: &str) -> anyhow::Result<bool> {
    let Some((api, Some(chat))) = bot(deps, agent).await? else {
        return Ok(false);
    };
    api.send_message(chat, text).await.map_err(|e| anyhow::anyhow!("{}", e.public_message()))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_token_shaped_strings_are_tokens() {
        assert!(token_shape_ok("123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"));
        for bad in [
            "",
            "123456789",
            "abc:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
            "1:short",
            "1:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/../x",
        ] {
            assert!(!token_shape_ok(bad), "{bad}");
        }
        assert_eq!(random_text(48).len(), 48);
        assert_ne!(random_text(10), random_text(10));
    }
}
