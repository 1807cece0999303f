//! What an inbound-email delivery carries (SPEC O3): a Resend `email.received` event (metadata
//! only; the body is fetched from Resend's API) or the plain JSON form other providers send,
//! turned into one `InboundEmail`; and the reply's own text without the message it quotes.

use serde::Deserialize;
use utoipa::ToSchema;

use miniclaw_core::Error;

/// An inbound email, whatever provider delivered it.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct InboundEmail {
    /// The `From` value (`Name <address>` or an address).
    pub from: String,
    #[serde(default)]
    pub to: Vec<String>,
    #[serde(default)]
    pub subject: String,
    /// The plain-text body.
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub message_id: Option<String>,
    /// `In-Reply-To` (one id, or several space-separated).
    #[serde(default)]
    pub in_reply_to: Option<String>,
    /// `References` (space-separated ids).
    #[serde(default)]
    pub references: Option<String>,
}

/// The body without the quoted earlier message (lines starting with `>`, and everything from an
/// `On … wrote:` line or an `-----Original Message-----` marker on).
pub fn without_quote(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("-----Original Message-----") || (t.starts_with("On ") && t.ends_with("wrote:")) {
            break;
        }
        if !t.starts_with('>') {
            out.push(line);
        }
    }
    out.join("\n").trim().to_string()
}

/// What the webhook received: a Resend `email.received` event (metadata only: the body is
/// fetched by `email_id`), another Resend event (ignored), or the plain JSON form.
#[derive(Debug, Clone)]
pub enum Payload {
    ResendReceived { email_id: String },
    OtherEvent(String),
    Plain(InboundEmail),
}

/// Reads a delivery's JSON body (400 naming the problem when it is neither form).
pub fn parse(body: &serde_json::Value) -> Result<Payload, Error> {
    if let Some(kind) = body.get("type").and_then(|t| t.as_str()) {
        if kind != "email.received" {
            return Ok(Payload::OtherEvent(kind.to_string()));
        }
        let email_id = body["data"]["email_id"]
            .as_str()
            .filter(|id| !id.trim().is_empty())
            .ok_or_else(|| Error::validation("data.email_id", "an email.received event names its email_id"))?;
        return Ok(Payload::ResendReceived { email_id: email_id.to_string() });
    }
    let email: InboundEmail = serde_json::from_value(body.clone())
        .map_err(|e| Error::bad_request(format!("neither a Resend event nor the plain form (from, to, subject, text, message_id, in_reply_to, references): {e}")))?;
    Ok(Payload::Plain(email))
}

/// The inbound email Resend's receiving API returned (the text body, else the HTML as text).
pub fn from_resend(r: miniclaw_platform::email::resend::Received) -> InboundEmail {
    let text = match (&r.text, &r.html) {
        (Some(t), _) if !t.trim().is_empty() => t.clone(),
        (_, Some(h)) => crate::memory::knowledge::html_to_text(h),
        _ => String::new(),
    };
    InboundEmail {
        in_reply_to: r.header("in-reply-to"),
        references: r.header("references"),
        from: r.from,
        to: r.to,
        subject: r.subject.unwrap_or_default(),
        text,
        message_id: r.message_id,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_quoted_earlier_message_is_left_out() {
        let text =
            "Sounds good, Tuesday works.\n\nOn Mon, 23 Nov 2026 Ada <agents@example.com> wrote:\n> Hello Bob,\n> ...";
        assert_eq!(without_quote(text), "Sounds good, Tuesday works.");
        assert_eq!(without_quote("Yes.\n> quoted\nThanks"), "Yes.\nThanks");
        assert_eq!(without_quote("Fine\n-----Original Message-----\nFrom: x"), "Fine");
    }

    #[test]
    fn resend_events_and_the_plain_form_are_told_apart() {
        let event =
            json!({ "type": "email.received", "data": { "email_id": "56761188", "from": "Bob <bob@example.org>" } });
        assert!(matches!(parse(&event).unwrap(), Payload::ResendReceived { email_id } if email_id == "56761188"));
        assert!(
            matches!(parse(&json!({ "type": "email.delivered", "data": {} })).unwrap(), Payload::OtherEvent(k) if k == "email.delivered")
        );
        assert!(parse(&json!({ "type": "email.received", "data": {} })).is_err());
        let plain = json!({ "from": "bob@example.org", "to": ["agents@example.com"], "subject": "Re: Hi", "text": "Yes",
            "in_reply_to": "<abc@example.com>" });
        assert!(
            matches!(parse(&plain).unwrap(), Payload::Plain(e) if e.in_reply_to.as_deref() == Some("<abc@example.com>"))
        );
        assert!(parse(&json!({ "subject": "no sender" })).is_err());
    }
}
