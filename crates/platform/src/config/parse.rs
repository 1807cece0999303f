//! How one variable is read and checked: every problem names its variable (`ConfigError`),
//! booleans and numbers are parsed with their allowed range, URLs by their scheme.

/// A configuration problem, always tied to the variable that caused it.
#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {var}: {message}")]
pub struct ConfigError {
    pub var: &'static str,
    pub message: String,
}

pub(super) fn bad(var: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError { var, message: message.into() }
}

pub(super) fn check_pg_url(var: &'static str, v: &str) -> Result<(), ConfigError> {
    let parsed = url::Url::parse(v).map_err(|_| bad(var, "is not a URL such as postgres://user@host:5432/db"))?;
    if !matches!(parsed.scheme(), "postgres" | "postgresql") {
        return Err(bad(var, "scheme must be postgres or postgresql"));
    }
    Ok(())
}

pub(super) fn check_http_url(var: &'static str, v: &str) -> Result<(), ConfigError> {
    let parsed = url::Url::parse(v).map_err(|_| bad(var, format!("`{v}` is not a URL")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad(var, "scheme must be http or https"));
    }
    Ok(())
}

/// A shared secret (a webhook's HMAC key): unset, or at least `min` characters.
pub(super) fn shared_secret(
    get: &impl Fn(&str) -> Option<String>,
    var: &'static str,
    min: usize,
) -> Result<Option<super::Secret>, ConfigError> {
    match get(var) {
        Some(v) if v.chars().count() < min => {
            Err(bad(var, format!("must be at least {min} characters (try `openssl rand -hex 32`)")))
        }
        v => Ok(v.map(super::Secret::new)),
    }
}

pub(super) fn parse_bool(
    get: &impl Fn(&str) -> Option<String>,
    var: &'static str,
    default: bool,
) -> Result<bool, ConfigError> {
    match get(var).map(|v| v.to_ascii_lowercase()).as_deref() {
        None => Ok(default),
        Some("1" | "true" | "yes" | "on") => Ok(true),
        Some("0" | "false" | "no" | "off") => Ok(false),
        Some(other) => Err(bad(var, format!("`{other}` is not a boolean (true/false)"))),
    }
}

pub(super) fn parse_num<T>(
    get: &impl Fn(&str) -> Option<String>,
    var: &'static str,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, ConfigError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let Some(raw) = get(var) else { return Ok(default) };
    let v: T = raw.parse().map_err(|_| bad(var, format!("`{raw}` is not a number")))?;
    if !range.contains(&v) {
        return Err(bad(var, format!("{v} is outside {}..={}", range.start(), range.end())));
    }
    Ok(v)
}

/// A dollar cap that can be turned off: a number in `0..=max` (default `default`), where `0`
/// or `off` means no cap (`None`).
pub(super) fn parse_cap(
    get: &impl Fn(&str) -> Option<String>,
    var: &'static str,
    default: f64,
    max: f64,
) -> Result<Option<f64>, ConfigError> {
    if get(var).is_some_and(|v| v.eq_ignore_ascii_case("off")) {
        return Ok(None);
    }
    Ok(Some(parse_num(get, var, default, 0.0..=max)?).filter(|usd| *usd > 0.0))
}

#[cfg(test)]
mod props {
    use std::collections::HashMap;

    use super::*;
    use proptest::prelude::*;

    fn one(var: &str, value: &str) -> impl Fn(&str) -> Option<String> {
        let (var, value) = (var.to_string(), value.to_string());
        move |k: &str| (k == var).then(|| value.clone())
    }

    /// Variables the configuration reads, with values that are sometimes right.
    const VARS: &[&str] = &[
        "MINICLAW_ADDR",
        "DATABASE_URL",
        "MINICLAW_MASTER_KEY",
        "OPENAI_BASE_URL",
        "MINICLAW_EMBEDDER",
        "SMTP_URL",
        "EVM_RPC_URL",
        "EVM_CHAIN_ID",
        "ERC8004_REGISTRY_ADDRESS",
        "MINICLAW_WORKER",
        "MINICLAW_WORKER_CONCURRENCY",
        "MINICLAW_WORKER_TENANT_SHARE",
        "MINICLAW_BODY_LIMIT",
        "MINICLAW_LOG_FORMAT",
        "MINICLAW_PUBLIC_URL",
        "MINICLAW_RATE_LIMIT_IP",
        "MINICLAW_URL_ALLOWLIST",
        "MINICLAW_TRUSTED_PROXIES",
        "MINICLAW_TENANT_MONTHLY_USD",
        "MINICLAW_GLOBAL_DAILY_USD",
        "MINICLAW_NEW_ACCOUNT_DAILY_USD",
        "MINICLAW_NEW_ACCOUNTS_SHARE",
        "MINICLAW_NEW_ACCOUNT_DAYS",
        "MINICLAW_NEW_ACCOUNT_TURNS",
        "MINICLAW_DNS_SERVER",
        "MINICLAW_SECURE_COOKIES",
        "MINICLAW_LLM_ROUTES",
        "MINICLAW_LLM_PRICES",
        "MINICLAW_LLM_STREAM_DEADLINE_SECS",
        "MINICLAW_REQUEST_BODY_TIMEOUT_SECS",
        "MINICLAW_FOLLOWERS_PER_REPLY",
        "MINICLAW_FOLLOWERS_PER_AGENT",
    ];

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            "-?[0-9]{1,12}(\\.[0-9]{1,3})?",
            "(true|false|yes|no|on|off|TRUE|maybe)",
            "(https?|ftp|postgres|smtp)://[a-z0-9.:@/]{0,20}",
            "[0-9a-fA-F]{60,66}|0x[0-9a-f]{38,42}",
            "(minilm|openai|hash|text|json|bert)",
            "\\{\"[a-z_]{1,12}\": ?(\\{\\}|[0-9]{1,3}|\"[a-z]{1,5}\")\\}",
            "([0-9]{1,3}\\.){3}[0-9]{1,3}(/[0-9]{1,2})?(,::1)?",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn numbers_are_read_within_their_range_or_refused_naming_the_variable(raw in any::<String>(), n in 0u64..10_000) {
            match parse_num(&one("N", &raw), "N", 7u64, 1..=1000) {
                Ok(v) => prop_assert!((1..=1000).contains(&v) && raw.parse::<u64>() == Ok(v)),
                Err(e) => prop_assert_eq!(e.var, "N"),
            }
            let read = parse_num(&one("N", &n.to_string()), "N", 7u64, 1..=1000);
            prop_assert_eq!(read.ok(), (1..=1000).contains(&n).then_some(n));
            prop_assert_eq!(parse_num(&one("OTHER", &raw), "N", 7u64, 1..=1000).ok(), Some(7));
        }

        #[test]
        fn booleans_take_the_usual_spellings_in_any_case(
            word in prop::sample::select(vec!["1", "0", "true", "false", "yes", "no", "on", "off"]),
            upper in any::<u8>(),
            junk in any::<String>(),
        ) {
            // Some letters upper-case, as the bits of `upper` say.
            let word: String = word
                .chars()
                .enumerate()
                .map(|(i, c)| if upper >> (i % 8) & 1 == 1 { c.to_ascii_uppercase() } else { c })
                .collect();
            let expected = matches!(word.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on");
            prop_assert_eq!(parse_bool(&one("B", &word), "B", !expected).ok(), Some(expected));
            if let Ok(b) = parse_bool(&one("B", &junk), "B", false) {
                prop_assert!(matches!(junk.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on" | "0" | "false" | "no" | "off") && b == matches!(junk.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on"));
            }
        }

        #[test]
        fn any_environment_gives_a_config_or_an_error_naming_a_variable_it_set(
            env in prop::collection::hash_map(prop::sample::select(VARS), value(), 0..6)
        ) {
            let map: HashMap<String, String> = env.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
            if let Err(e) = crate::config::Config::from_map(&map) {
                // The variable to fix is one that was set, or one that a variable that was set
                // requires (`EVM_CHAIN_ID is required with EVM_RPC_URL`): then the message names
                // the one that was set.
                let named = env.contains_key(e.var) || env.keys().any(|k| e.message.contains(k));
                prop_assert!(named, "{} blamed but neither it nor what requires it is set in {:?}: {}", e.var, env, e.message);
            }
        }
    }
}
