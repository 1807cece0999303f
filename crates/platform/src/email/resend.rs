//! The Resend HTTP API: `POST /emails` sends (with our `Message-ID` and threading headers, and
//! the outbox row's id as `Idempotency-Key`, so a retried send is not delivered twice), and
//! `GET /emails/receiving/{id}` fetches an inbound email, whose `email.received` webhook event
//! carries no body. The base URL is configurable (`RESEND_BASE_URL`).

use std::collections::HashMap;
use std::time::Duration;

use serde::Deserialize;
use serde_json::json;

use super::{Outgoing, SendError};

#[derive(Clone)]
pub struct Resend {
    client: reqwest::Client,
    base: String,
    key: String,
}

/// An inbound email as `GET /emails/receiving/{id}` returns it (the fields miniclaw reads).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Received {
    #[serde(default)]
    pub from: String,
    #[serde(default)]
    pub to: Vec<String>,
    #[serde(default)]
    pub subject: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub html: Option<String>,
    #[serde(default)]
    pub message_id: Option<String>,
    /// Header name → value (`in-reply-to`, `references`, ...), when Resend includes them.
    #[serde(default)]
    pub headers: Option<HashMap<String, serde_json::Value>>,
}

impl Resend {
    pub fn new(base: &str, key: &str) -> anyhow::Result<Resend> {
        let client = reqwest::Client::builder().timeout(Duration::from_secs(20)).build()?;
        Ok(Resend { client, base: base.trim_end_matches('/').to_string(), key: key.to_string() })
    }

    /// Sends one email; returns Resend's id for it. 5xx, 429 and network errors are transient.
    pub async fn send(&self, email: &Outgoing, references: Option<String>) -> Result<String, SendError> {
        let mut headers = serde_json::Map::new();
        headers.insert("Message-ID".into(), json!(format!("<{}>", email.message_id)));
        if let Some(r) = &email.in_reply_to {
            headers.insert("In-Reply-To".into(), json!(format!("<{r}>")));
        }
        if let Some(r) = references {
            headers.insert("References".into(), json!(r));
        }
        let mut body = json!({
            "from": format!("{} <{}>", quoted(&email.from_name), email.from_address),
            "to": [email.to_address],
            "subject": email.subject,
            "text": email.body,
            "headers": headers,
        });
        if let Some(r) = &email.reply_to {
            body["reply_to"] = json!(r);
        }
        let resp = self
            .client
            .post(format!("{}/emails", self.base))
            .bearer_auth(&self.key)
            .header("Idempotency-Key", &email.idempotency_key)
            .json(&body)
            .send()
            .await
            .map_err(|e| SendError::Transient(format!("Resend did not answer: {}", e.without_url())))?;
        let status = resp.status();
        let text = resp.text().await.unwrap_or_default();
        if status.is_success() {
            #[derive(Deserialize)]
            struct Id {
                id: String,
            }
            return serde_json::from_str::<Id>(&text)
                .map(|i| i.id)
                .map_err(|_| SendError::Transient(format!("Resend answered {status} without an id")));
        }
        let message = format!("Resend answered {status}: {}", text.chars().take(300).collect::<String>());
        if status.is_server_error() || status.as_u16() == 429 {
            Err(SendError::Transient(message))
        } else {
            Err(SendError::Refused(message))
        }
    }

    /// Fetches an inbound email by its id. `Err` holds the reason (the webhook answers 502 so
    /// that Svix delivers the event again later).
    pub async fn received(&self, email_id: &str) -> Result<Received, String> {
        let id: String = url::form_urlencoded::byte_serialize(email_id.as_bytes()).collect();
        let resp = self
            .client
            .get(format!("{}/emails/receiving/{id}", self.base))
            .bearer_auth(&self.key)
            .send()
            .await
            .map_err(|e| format!("Resend did not answer: {}", e.without_url()))?;
        let status = resp.status();
        if !status.is_success() {
            return Err(format!("Resend answered {status} for the inbound email"));
        }
        resp.json().await.map_err(|e| format!("Resend's inbound email did not parse: {e}"))
    }
}

/// A display name as a quoted string when it holds characters that need it.
fn quoted(name: &str) -> String {
    if name.chars().all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '.') {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

impl Received {
    /// A header's value by case-insensitive name, as text.
    pub fn header(&self, name: &str) -> Option<String> {
        let headers = self.headers.as_ref()?;
        headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    }
}
