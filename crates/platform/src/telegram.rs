//! A minimal Telegram Bot API client: `POST {base}/bot<token>/<method>` with a JSON body, and
//! the `{"ok": true, "result": …}` / `{"ok": false, "error_code", "description"}` answers. The
//! token is part of the URL, so no error ever carries the URL.

use std::time::Duration;

use serde_json::{Value, json};

use miniclaw_core::Error;

/// Telegram's limit on one message's text.
pub const MESSAGE_MAX_CHARS: usize = 4096;

#[derive(Clone)]
pub struct BotApi {
    client: reqwest::Client,
    base: String,
    token: String,
}

impl BotApi {
    pub fn new(base: &str, token: &str) -> anyhow::Result<BotApi> {
        let client = reqwest::Client::builder().timeout(Duration::from_secs(15)).build()?;
        Ok(BotApi { client, base: base.trim_end_matches('/').to_string(), token: token.to_string() })
    }

    /// Calls a method; the `result`. 422 when Telegram refuses (with its description), 502
    /// when it cannot be reached or answers something else.
    pub async fn call(&self, method: &str, body: Value) -> Result<Value, Error> {
        let resp = self
            .client
            .post(format!("{}/bot{}/{method}", self.base, self.token))
            .json(&body)
            .send()
            .await
            .map_err(|e| Error::Upstream(format!("the Telegram Bot API did not answer: {}", e.without_url())))?;
        let status = resp.status();
        let answer: Value = resp
            .json()
            .await
            .map_err(|_| Error::Upstream(format!("the Telegram Bot API answered {status} without JSON")))?;
        if answer["ok"].as_bool() == Some(true) {
            return Ok(answer["result"].clone());
        }
        let description = answer["description"].as_str().unwrap_or("no description").to_string();
        if status.is_server_error() || status.as_u16() == 429 {
            return Err(Error::Upstream(format!("Telegram's {method} failed ({status}): {description}")));
        }
        Err(Error::Unprocessable {
            code: "telegram_refused",
            message: format!("Telegram refused {method}: {description}"),
            details: Some(json!({ "error_code": answer["error_code"] })),
        })
    }

    /// Sends a text message (cut to Telegram's 4,096 characters).
    pub async fn send_message(&self, chat_id: i64, text: &str) -> Result<Value, Error> {
        let text: String = text.chars().take(MESSAGE_MAX_CHARS).collect();
        self.call("sendMessage", json!({ "chat_id": chat_id, "text": text })).await
    }
}
