//! The email and messaging settings (SPEC O2, O3, O6): which transport sends mail (SMTP or the
//! Resend HTTP API), the default sender, the inbound webhook's Svix secret, and the Telegram
//! Bot API's base URL.

use super::Secret;
use super::parse::{ConfigError, bad, check_http_url, parse_num};

/// How SMTP connections are secured (`SMTP_URL`'s scheme and `?tls=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// `smtps://`: TLS from the first byte (usually port 465).
    Tls,
    /// `smtp://` (default): STARTTLS required (usually port 587).
    StartTls,
    /// `smtp://…?tls=none`: plain text, for a relay on this machine or a test server.
    None,
}

#[derive(Debug, Clone)]
pub struct EmailSettings {
    /// `SMTP_URL`: `smtp://user:pass@host:587` (STARTTLS), `smtps://…:465` (TLS) or
    /// `smtp://host:25?tls=none`.
    pub smtp_url: Option<Secret>,
    pub smtp_tls: SmtpTls,
    /// `RESEND_API_KEY`: sends through the Resend HTTP API (used when `SMTP_URL` is unset) and
    /// fetches inbound bodies.
    pub resend_api_key: Option<Secret>,
    /// `RESEND_BASE_URL`: default `https://api.resend.com`.
    pub resend_base_url: String,
    /// `RESEND_WEBHOOK_SECRET`: the `whsec_…` signing secret of `POST /webhooks/inbound-email`.
    pub resend_webhook_secret: Option<Secret>,
    /// `MINICLAW_EMAIL_FROM`: the default sender address (a tenant may set its own).
    pub from_address: String,
    /// `MINICLAW_EMAIL_FROM_NAME`: the default sender name (default: the agent's name).
    pub from_name: Option<String>,
    /// `TELEGRAM_API_BASE`: default `https://api.telegram.org`.
    pub telegram_api_base: String,
    /// `MINICLAW_EMAIL_ACCOUNT_DAILY`: emails one account may send per UTC day (its agents'
    /// outreach and notifications, its verification links).
    pub account_daily: i32,
    /// `MINICLAW_EMAIL_PLATFORM_DAILY`: emails the whole platform may send per UTC day (links
    /// proving an address do not count: a crowd of signups cannot stop them).
    pub platform_daily: i32,
    /// `MINICLAW_EMAIL_UNPROVEN_DAILY`: emails an account may send per UTC day until one of its
    /// owners proved their address (or the operator vouched for it), its links included.
    pub unproven_daily: i32,
    /// `MINICLAW_EMAIL_USD`: what one email costs the platform, in dollars (0–1, default 0:
    /// free, as on the operator's own SMTP relay). Priced, each email is paid work: held
    /// against the same spending limits as a model call before it is sent (`Deps::send_mail`).
    pub price_usd: f64,
}

impl Default for EmailSettings {
    /// The settings with no variable set.
    fn default() -> Self {
        EmailSettings::read(&|_: &str| None).expect("the defaults are valid")
    }
}

impl EmailSettings {
    /// The platform's own mail domain (of `MINICLAW_EMAIL_FROM`): no account sends as it or
    /// as one of its subdomains.
    pub fn own_domain(&self) -> &str {
        self.from_address.rsplit_once('@').map_or("", |(_, d)| d)
    }

    /// Whether outgoing email has a transport.
    pub fn configured(&self) -> bool {
        self.smtp_url.is_some() || self.resend_api_key.is_some()
    }

    pub(super) fn read(get: &impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let smtp_url = get("SMTP_URL").map(Secret::new);
        let mut smtp_tls = SmtpTls::StartTls;
        if let Some(u) = &smtp_url {
            let parsed = url::Url::parse(u.expose())
                .map_err(|_| bad("SMTP_URL", "is not a URL such as smtp://user:pass@host:587"))?;
            smtp_tls = match parsed.scheme() {
                "smtps" => SmtpTls::Tls,
                "smtp" => SmtpTls::StartTls,
                _ => return Err(bad("SMTP_URL", "scheme must be smtp or smtps")),
            };
            if parsed.host_str().is_none_or(str::is_empty) {
                return Err(bad("SMTP_URL", "names no host"));
            }
            for (k, v) in parsed.query_pairs() {
                match (k.as_ref(), v.as_ref()) {
                    ("tls", "none") if smtp_tls == SmtpTls::StartTls => smtp_tls = SmtpTls::None,
                    ("tls", "starttls") if smtp_tls == SmtpTls::StartTls => {}
                    ("tls", _) => return Err(bad("SMTP_URL", "tls= must be starttls or none (smtps:// is TLS)")),
                    _ => return Err(bad("SMTP_URL", format!("unknown parameter `{k}` (only tls=)"))),
                }
            }
        }
        let resend_base_url =
            get("RESEND_BASE_URL").unwrap_or_else(|| "https://api.resend.com".into()).trim_end_matches('/').to_string();
        check_http_url("RESEND_BASE_URL", &resend_base_url)?;
        let resend_webhook_secret = get("RESEND_WEBHOOK_SECRET").map(Secret::new);
        if let Some(s) = &resend_webhook_secret
            && crate::email::svix::key_of(s.expose()).is_none()
        {
            return Err(bad("RESEND_WEBHOOK_SECRET", "must be the whsec_… signing secret (base64 after the prefix)"));
        }
        let from_address = get("MINICLAW_EMAIL_FROM").unwrap_or_else(|| "agents@miniclaw.localhost".into());
        crate::email::headers::address(&from_address)
            .map_err(|m| bad("MINICLAW_EMAIL_FROM", format!("is not an email address: {m}")))?;
        let from_name = get("MINICLAW_EMAIL_FROM_NAME");
        if let Some(n) = &from_name {
            crate::email::headers::field("from_name", n).map_err(|m| bad("MINICLAW_EMAIL_FROM_NAME", m))?;
        }
        let telegram_api_base = get("TELEGRAM_API_BASE")
            .unwrap_or_else(|| "https://api.telegram.org".into())
            .trim_end_matches('/')
            .to_string();
        check_http_url("TELEGRAM_API_BASE", &telegram_api_base)?;
        Ok(EmailSettings {
            smtp_url,
            smtp_tls,
            resend_api_key: get("RESEND_API_KEY").map(Secret::new),
            resend_base_url,
            resend_webhook_secret,
            from_address: from_address.to_ascii_lowercase(),
            from_name,
            telegram_api_base,
            account_daily: parse_num(get, "MINICLAW_EMAIL_ACCOUNT_DAILY", 100i32, 1..=1_000_000)?,
            platform_daily: parse_num(get, "MINICLAW_EMAIL_PLATFORM_DAILY", 5_000i32, 1..=100_000_000)?,
            unproven_daily: parse_num(get, "MINICLAW_EMAIL_UNPROVEN_DAILY", 5i32, 1..=1_000_000)?,
            price_usd: parse_num(get, "MINICLAW_EMAIL_USD", 0.0f64, 0.0..=1.0)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn read(pairs: &[(&str, &str)]) -> Result<EmailSettings, ConfigError> {
        let env: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        EmailSettings::read(&|k: &str| env.get(k).cloned())
    }

    #[test]
    fn the_smtp_url_says_how_the_connection_is_secured() {
        let tls = |u: &str| read(&[("SMTP_URL", u)]).map(|s| s.smtp_tls);
        assert_eq!(tls("smtp://u:p@mail.example.com:587").unwrap(), SmtpTls::StartTls);
        assert_eq!(tls("smtps://u:p@mail.example.com:465").unwrap(), SmtpTls::Tls);
        assert_eq!(tls("smtp://127.0.0.1:2525?tls=none").unwrap(), SmtpTls::None);
        for bad in ["http://x", "smtps://h:465?tls=none", "smtp://h?tls=maybe", "smtp://h?port=1"] {
            assert_eq!(tls(bad).unwrap_err().var, "SMTP_URL", "{bad}");
        }
    }

    #[test]
    fn bad_email_values_name_their_variable() {
        for (var, value) in [
            ("RESEND_WEBHOOK_SECRET", "not-a-whsec"),
            ("MINICLAW_EMAIL_FROM", "nobody"),
            ("MINICLAW_EMAIL_FROM_NAME", "Ada\r\nBcc: x@example.com"),
            ("RESEND_BASE_URL", "ftp://x"),
            ("TELEGRAM_API_BASE", "nope"),
        ] {
            assert_eq!(read(&[(var, value)]).unwrap_err().var, var, "{value}");
        }
        let ok = read(&[("RESEND_WEBHOOK_SECRET", "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD")]).unwrap();
        assert!(ok.resend_webhook_secret.is_some() && !ok.configured());
    }
}
