//! Email (SPEC O2, O3): outgoing mail through one transport chosen by configuration — SMTP via
//! lettre (`SMTP_URL`: STARTTLS, TLS or none) or the Resend HTTP API (`RESEND_API_KEY`) — in
//! plain text with a generated `Message-ID` and `In-Reply-To`/`References` for threading.
//! Every email goes through the outbox (`outbox`), drained by a job that retries while the
//! transport is down. Header fields are checked (`headers`) before a message is built, so no
//! value can inject a header. `svix` verifies the inbound webhook; `resend` talks to Resend.

pub mod headers;
pub mod outbox;
pub mod resend;
pub mod sender;
pub mod svix;

use std::time::Duration;
use tracing::Instrument as _;

use lettre::message::{Mailbox, header::ContentType};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use crate::config::{EmailSettings, SmtpTls};

/// One email to send, as the outbox holds it. Message-IDs are bare (no angle brackets).
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub from_name: String,
    pub from_address: String,
    pub to_address: String,
    /// Where replies go when not to the From address (a sender address not yet verified).
    pub reply_to: Option<String>,
    pub subject: String,
    pub body: String,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    /// Makes a provider's retry of the same email a no-op (Resend's `Idempotency-Key`).
    pub idempotency_key: String,
}

impl Outgoing {
    /// Checks every header field (one line, no control characters) and both addresses.
    pub fn check(&self) -> Result<(), String> {
        headers::name("from_name", &self.from_name)?;
        headers::address(&self.from_address)?;
        headers::address(&self.to_address)?;
        if let Some(r) = &self.reply_to {
            headers::address(r)?;
        }
        headers::field("subject", &self.subject)?;
        headers::field("message_id", &self.message_id)?;
        if let Some(r) = &self.in_reply_to {
            headers::field("in_reply_to", r)?;
        }
        for r in &self.references {
            headers::field("references", r)?;
        }
        Ok(())
    }

    /// The `References` value: each id in angle brackets, space-separated.
    fn references_header(&self) -> Option<String> {
        (!self.references.is_empty())
            .then(|| self.references.iter().map(|r| format!("<{r}>")).collect::<Vec<_>>().join(" "))
    }

    /// The message as lettre builds it (plain text, UTF-8).
    fn to_lettre(&self) -> Result<lettre::Message, SendError> {
        self.check().map_err(SendError::Refused)?;
        let from = Mailbox::new(
            Some(self.from_name.clone()),
            self.from_address.parse().map_err(|e| SendError::Refused(format!("from address: {e}")))?,
        );
        let to: Mailbox = self.to_address.parse().map_err(|e| SendError::Refused(format!("to address: {e}")))?;
        let mut b = lettre::Message::builder()
            .from(from)
            .to(to)
            .subject(self.subject.clone())
            .message_id(Some(format!("<{}>", self.message_id)))
            .header(ContentType::TEXT_PLAIN);
        if let Some(r) = &self.in_reply_to {
            b = b.in_reply_to(format!("<{r}>"));
        }
        if let Some(r) = &self.reply_to {
            b = b.reply_to(r.parse().map_err(|e| SendError::Refused(format!("reply-to address: {e}")))?);
        }
        if let Some(refs) = self.references_header() {
            b = b.references(refs);
        }
        b.body(self.body.clone()).map_err(|e| SendError::Refused(e.to_string()))
    }
}

/// Why a send failed: `Transient` ones are retried by the outbox job, `Refused` ones are not.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("{0}")]
    Transient(String),
    #[error("refused: {0}")]
    Refused(String),
}

/// What sent an email, and the provider's id for it.
#[derive(Debug, Clone)]
pub struct Sent {
    pub transport: &'static str,
    pub provider_id: Option<String>,
}

/// The configured transport. SMTP wins when both are configured.
#[derive(Clone)]
pub enum Mailer {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Resend(resend::Resend),
    /// Neither `SMTP_URL` nor `RESEND_API_KEY` is set: email stays queued in the outbox.
    None,
}

impl Mailer {
    pub fn from_settings(settings: &EmailSettings) -> anyhow::Result<Mailer> {
        if let Some(url) = &settings.smtp_url {
            return Ok(Mailer::Smtp(smtp(url.expose(), settings.smtp_tls)?));
        }
        if let Some(key) = &settings.resend_api_key {
            return Ok(Mailer::Resend(resend::Resend::new(&settings.resend_base_url, key.expose())?));
        }
        Ok(Mailer::None)
    }

    pub fn name(&self) -> &'static str {
        match self {
            Mailer::Smtp(_) => "smtp",
            Mailer::Resend(_) => "resend",
            Mailer::None => "none",
        }
    }

    pub async fn send(&self, email: &Outgoing) -> Result<Sent, SendError> {
        let span = tracing::info_span!("email.send", otel.kind = "client", email.transport = self.name());
        self.send_now(email).instrument(span).await
    }

    async fn send_now(&self, email: &Outgoing) -> Result<Sent, SendError> {
        match self {
            Mailer::Smtp(t) => {
                let message = email.to_lettre()?;
                match t.send(message).await {
                    Ok(_) => Ok(Sent { transport: "smtp", provider_id: None }),
                    // A permanent SMTP reply (5xx) will not change by retrying.
                    Err(e) if e.is_permanent() => Err(SendError::Refused(e.to_string())),
                    Err(e) => Err(SendError::Transient(e.to_string())),
                }
            }
            Mailer::Resend(r) => {
                email.check().map_err(SendError::Refused)?;
                let id = r.send(email, email.references_header()).await?;
                Ok(Sent { transport: "resend", provider_id: Some(id) })
            }
            Mailer::None => {
                Err(SendError::Transient("no email transport is configured (SMTP_URL or RESEND_API_KEY)".into()))
            }
        }
    }
}

/// An SMTP transport for `smtp[s]://[user:pass@]host[:port]`.
fn smtp(url: &str, tls: SmtpTls) -> anyhow::Result<AsyncSmtpTransport<Tokio1Executor>> {
    let parsed = url::Url::parse(url)?;
    let host = parsed.host_str().ok_or_else(|| anyhow::anyhow!("SMTP_URL names no host"))?.to_string();
    let port = parsed.port().unwrap_or(match tls {
        SmtpTls::Tls => 465,
        SmtpTls::StartTls => 587,
        SmtpTls::None => 25,
    });
    let params = || TlsParameters::new(host.clone());
    let tls = match tls {
        SmtpTls::Tls => Tls::Wrapper(params()?),
        SmtpTls::StartTls => Tls::Required(params()?),
        SmtpTls::None => Tls::None,
    };
    let mut b = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host.as_str())
        .port(port)
        .tls(tls)
        .timeout(Some(Duration::from_secs(20)));
    if !parsed.username().is_empty() {
        let decode = |s: &str| percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned();
        b = b.credentials(Credentials::new(decode(parsed.username()), decode(parsed.password().unwrap_or(""))));
    }
    Ok(b.build())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn email() -> Outgoing {
        Outgoing {
            from_name: "Ada".into(),
            from_address: "agents@example.com".into(),
            to_address: "bob@example.org".into(),
            reply_to: None,
            subject: "Hello".into(),
            body: "Hi Bob".into(),
            message_id: "abc@example.com".into(),
            in_reply_to: Some("prev@example.org".into()),
            references: vec!["first@example.com".into(), "prev@example.org".into()],
            idempotency_key: "k".into(),
        }
    }

    #[test]
    fn a_message_carries_its_threading_headers() {
        let raw = String::from_utf8(email().to_lettre().unwrap().formatted()).unwrap();
        assert!(raw.contains("Message-ID: <abc@example.com>\r\n"), "{raw}");
        assert!(raw.contains("In-Reply-To: <prev@example.org>\r\n"), "{raw}");
        assert!(raw.contains("References: <first@example.com> <prev@example.org>\r\n"), "{raw}");
        assert!(raw.contains("Content-Type: text/plain; charset=utf-8\r\n"), "{raw}");
        assert!(!raw.contains("\r\nReply-To:"), "{raw}");
        let replied = Outgoing { reply_to: Some("ada@acme.example".into()), ..email() };
        let raw = String::from_utf8(replied.to_lettre().unwrap().formatted()).unwrap();
        assert!(raw.contains("Reply-To: ada@acme.example\r\n"), "{raw}");
    }

    #[test]
    fn no_header_field_can_carry_a_line_break() {
        let cases: Vec<fn(&mut Outgoing)> = vec![
            |e| e.subject = "Hi\r\nBcc: evil@example.net".into(),
            |e| e.from_name = "Ada\nBcc: evil@example.net".into(),
            |e| e.to_address = "bob@example.org\r\nBcc: evil@example.net".into(),
            |e| e.in_reply_to = Some("x@y.z>\r\nBcc: evil@example.net".into()),
            |e| e.references = vec!["x@y.z\rBcc: evil@example.net".into()],
            |e| e.reply_to = Some("ada@acme.example\r\nBcc: evil@example.net".into()),
        ];
        for change in cases {
            let mut e = email();
            change(&mut e);
            assert!(matches!(e.to_lettre(), Err(SendError::Refused(_))), "{e:?}");
        }
    }
}
