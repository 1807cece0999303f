//! Configuration from environment variables (optionally a `.env` file), validated once at start.
//!
//! Every variable is documented in the README with its default. A bad value stops the process
//! with a message that names the variable, so nobody has to guess which setting is wrong.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

mod caps;
mod chain;
mod email;
mod embedding;
mod parse;
mod secret;
mod streams;

pub use caps::Caps;

pub use chain::{ChainSettings, KNOWN_REGISTRIES, chain_name};
pub use email::{EmailSettings, SmtpTls};
pub use embedding::{EmbedTuning, EmbedderKind};

pub use parse::ConfigError;
use parse::{bad, check_http_url, check_pg_url, parse_bool, parse_cap, parse_num, shared_secret};
pub use secret::Secret;
pub use streams::StreamLimits;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone)]
pub struct Config {
    /// `MINICLAW_ADDR`
    pub addr: SocketAddr,
    /// `DATABASE_URL`; `None` runs the embedded cluster under `data_dir`.
    pub database_url: Option<Secret>,
    /// `DATABASE_DIRECT_URL`: when `DATABASE_URL` is a transaction pooler (PgBouncer), a direct
    /// connection to the same database for what needs a session (LISTEN, session locks,
    /// migrations).
    pub database_direct_url: Option<Secret>,
    /// `DATABASE_READ_URL`: a streaming replica of the same database. Reads that tolerate
    /// staleness (lists, analytics, search) go to it while it keeps up; see `db::replica`.
    pub database_read_url: Option<Secret>,
    /// `MINICLAW_READ_MAX_LAG_MS`: the most a replica may trail the primary and still be read.
    pub read_max_lag: Duration,
    /// `MINICLAW_DATA_DIR`
    pub data_dir: PathBuf,
    /// `ADMIN_PASSWORD`; `None` disables every admin route (403).
    pub admin_password: Option<Secret>,
    /// `DEBUG_SHADOW`
    pub debug_shadow: bool,
    /// `MINICLAW_MASTER_KEY`: 32 bytes (64 hex characters) for encrypting secrets at rest.
    pub master_key: Option<Secret>,
    /// `MINICLAW_MASTER_KEY_PREVIOUS`: earlier master keys (comma-separated), accepted while
    /// the secrets sealed under them are sealed again under the current one.
    pub master_key_previous: Vec<Secret>,
    pub openai_api_key: Option<Secret>,
    pub openai_base_url: Option<String>,
    pub anthropic_api_key: Option<Secret>,
    /// `ANTHROPIC_BASE_URL`: another Messages-API endpoint (a proxy); default Anthropic's.
    pub anthropic_base_url: Option<String>,
    pub xai_api_key: Option<Secret>,
    /// `MINICLAW_EMBEDDER`
    pub embedder: EmbedderKind,
    /// `MINICLAW_MODEL_DIR`: where the MiniLM safetensors + tokenizer live.
    pub model_dir: PathBuf,
    /// How the in-process model is served (`embed::batch`): the cache, the micro-batches.
    pub embed_tuning: EmbedTuning,
    /// Outgoing and inbound email, and Telegram (`SMTP_URL`, `RESEND_*`, `MINICLAW_EMAIL_FROM`, ...).
    pub email: EmailSettings,
    /// `MINICLAW_VERIFICATION_WEBHOOK_SECRET`: HMAC key of `POST /webhooks/verification` (unset: 503).
    pub verification_webhook_secret: Option<Secret>,
    /// `EVM_RPC_URL`, `EVM_CHAIN_ID`, `ERC8004_REGISTRY_ADDRESS`, ...: unset without a node.
    pub chain: Option<ChainSettings>,
    /// `MINICLAW_WORKER`: run the background worker inside `serve`.
    pub run_worker: bool,
    /// `MINICLAW_WORKER_CONCURRENCY`
    pub worker_concurrency: usize,
    /// `MINICLAW_WORKER_TENANT_SHARE`: how many of the worker's slots one tenant's jobs may hold
    /// at once (default: half of `MINICLAW_WORKER_CONCURRENCY`, at least 1): another tenant's
    /// work finds a slot. A platform serving one account may give it every slot.
    pub worker_tenant_share: usize,
    /// `MINICLAW_WORKER_POLL_MS`: polling fallback when no notification arrives.
    pub worker_poll: Duration,
    /// `MINICLAW_JOB_LEASE_SECS`: a job's lease, renewed every third of it while the job runs.
    pub job_lease: Duration,
    /// `MINICLAW_STREAM_STALE_SECS`: a reply without progress this long was left by a dead process.
    pub stream_stale_secs: u32,
    /// `MINICLAW_BODY_LIMIT`: largest accepted request body in bytes.
    pub body_limit: usize,
    /// `MINICLAW_LOG_FORMAT`
    pub log_format: LogFormat,
    /// `MINICLAW_RATE_LIMIT_IP`: requests per minute per client address (0 disables).
    pub rate_limit_ip: u32,
    /// `MINICLAW_RATE_LIMIT_KEY`: requests per minute per API key (0 disables).
    pub rate_limit_key: u32,
    /// `MINICLAW_URL_ALLOWLIST`: IPs or CIDR ranges that URL ingestion may fetch although they
    /// are internal (loopback, private, ...). Empty by default.
    pub url_allowlist: crate::addresses::Allowlist,
    /// `MINICLAW_AGENT_RETENTION_DAYS`: how long a deleted agent stays restorable before it is
    /// purged.
    pub agent_retention_days: u32,
    /// `MINICLAW_ACCOUNT_GRACE_DAYS`: how long a closed account can be reopened before it is
    /// purged with everything it holds.
    pub account_grace_days: u32,
    /// `MINICLAW_SESSION_SECS`: lifetime of a dashboard or API session token (the refresh
    /// cookie renews it for 30 days).
    pub session_secs: u32,
    /// `MINICLAW_CONNECT_KEY_DAYS`: lifetime of a key issued by self-service connect (the signer
    /// may ask for less, never more).
    pub connect_key_days: u32,
    /// `MINICLAW_CONNECT_KEYS_PER_AGENT`: live connect-issued keys an agent may have.
    pub connect_keys_per_agent: i64,
    /// `MINICLAW_TRUSTED_PROXIES`: addresses or CIDR ranges of the reverse proxies in front of
    /// miniclaw. Only from these is `X-Forwarded-For` believed (for per-address rate limits).
    pub trusted_proxies: crate::addresses::Allowlist,
    /// `MINICLAW_METRICS_TOKEN`: the bearer token `/metrics` requires. Without it `/metrics`
    /// answers only direct requests from this machine (loopback, not forwarded by a proxy).
    pub metrics_token: Option<Secret>,
    /// `MINICLAW_AGENTS_PER_TENANT`: agents a tenant may have (deleted ones awaiting their purge
    /// count too).
    pub agents_per_tenant: i64,
    /// `MINICLAW_TENANT_MONTHLY_USD`: the monthly model budget a new tenant starts with, in
    /// dollars (0 means none; an operator can change a tenant's budget later).
    pub tenant_monthly_usd: f64,
    /// `MINICLAW_GLOBAL_DAILY_USD`: the platform's model spending per UTC day, in dollars, past
    /// which every model call is refused until midnight (`None`: off, set with `0` or `off`).
    pub global_daily_usd: Option<f64>,
    /// `MINICLAW_NEW_ACCOUNT_DAILY_USD`: what one new account may spend on model calls per UTC
    /// day, in dollars (`None`: no allowance of its own, with `0` or `off`). An account is new
    /// until its owner's email is verified and it is `new_account_days` old.
    pub new_account_daily_usd: Option<f64>,
    /// `MINICLAW_NEW_ACCOUNTS_SHARE`: the share (0–1) of the global daily cap all new accounts
    /// together may spend; the rest is kept for established accounts.
    pub new_accounts_share: f64,
    /// `MINICLAW_NEW_ACCOUNT_DAYS`: how many days an account stays new (with a verified email).
    pub new_account_days: u32,
    /// `MINICLAW_NEW_ACCOUNT_TURNS`: how many chat turns a new account may have in progress at
    /// once (`None`: any, with `0` or `off`).
    pub new_account_turns: Option<u32>,
    /// `MINICLAW_DNS_SERVER`: the DNS server (`ip:port`) TXT records are looked up on when a
    /// domain is proven; default the first `nameserver` of /etc/resolv.conf.
    pub dns_server: Option<std::net::SocketAddr>,
    /// `MINICLAW_KNOWLEDGE_CAP`: knowledge entries (uploads and URLs) per agent (R3).
    pub knowledge_cap: i64,
    /// What an agent may accumulate (conversations, memories, keys, soul versions).
    pub caps: Caps,
    /// `MINICLAW_SECURE_COOKIES`: mark cookies `Secure`; by default, when `MINICLAW_PUBLIC_URL`
    /// is an `https://` URL.
    pub secure_cookies: bool,
    /// `MINICLAW_PUBLIC_URL`: the URL people and miniapps use; default `http://MINICLAW_ADDR`.
    pub public_url: Option<String>,
    /// `MINICLAW_LLM_ROUTES`: JSON overrides of the routing table, keyed by role.
    pub llm_routes: Option<String>,
    /// `MINICLAW_LLM_PRICES`: JSON prices per model (dollars per million tokens).
    pub llm_prices: Option<String>,
    /// `MINICLAW_OPENAI_MODEL`: the model every OpenAI-compatible route uses by default
    /// (for servers such as vLLM or llama.cpp that serve one model under their own name).
    pub openai_model: Option<String>,
    /// Deadlines for slow peers and caps on stream followers (`StreamLimits`).
    pub streams: StreamLimits,
}

impl Config {
    /// Reads the process environment (after loading `.env` if there is one).
    pub fn from_env() -> Result<Self, ConfigError> {
        // A missing .env is normal; a malformed one is a problem worth stopping for.
        match dotenvy::dotenv() {
            Ok(_) => {}
            Err(e) if e.not_found() => {}
            Err(e) => return Err(bad("MINICLAW_DOTENV", format!(".env could not be read: {e}"))),
        }
        Self::from_map(&std::env::vars().collect())
    }

    /// Builds a config from explicit variables; used by `from_env` and by tests.
    pub fn from_map(env: &HashMap<String, String>) -> Result<Self, ConfigError> {
        let get = |k: &str| env.get(k).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let secret = |k: &str| get(k).map(Secret::new);

        let addr = match get("MINICLAW_ADDR") {
            None => SocketAddr::from(([127, 0, 0, 1], 8080)),
            Some(v) => v
                .parse()
                .map_err(|_| bad("MINICLAW_ADDR", format!("`{v}` is not a socket address such as 127.0.0.1:8080")))?,
        };

        let database_url = match get("DATABASE_URL") {
            None => None,
            Some(v) => {
                check_pg_url("DATABASE_URL", &v)?;
                Some(Secret::new(v))
            }
        };
        // A second PostgreSQL address, meaningful only beside DATABASE_URL (`beside` names it).
        let beside_primary = |var: &'static str, beside: &str| -> Result<Option<Secret>, ConfigError> {
            match get(var) {
                None => Ok(None),
                Some(_) if database_url.is_none() => Err(bad(var, format!("needs DATABASE_URL ({beside}) beside it"))),
                Some(v) => {
                    check_pg_url(var, &v)?;
                    Ok(Some(Secret::new(v)))
                }
            }
        };
        // Behind a transaction pooler (PgBouncer), what needs a session of its own (LISTEN, the
        // migrations' and reflection's session locks) goes to a direct connection.
        let database_direct_url = beside_primary("DATABASE_DIRECT_URL", "the pooler's address")?;
        // A streaming replica for reads that tolerate staleness (docs/SCALING.md).
        let database_read_url = beside_primary("DATABASE_READ_URL", "the primary")?;

        let data_dir = PathBuf::from(get("MINICLAW_DATA_DIR").unwrap_or_else(|| ".miniclaw".into()));

        let is_key = |k: &str| k.len() == 64 && k.bytes().all(|b| b.is_ascii_hexdigit());
        let master_key = secret("MINICLAW_MASTER_KEY");
        if master_key.as_ref().is_some_and(|k| !is_key(k.expose())) {
            return Err(bad(
                "MINICLAW_MASTER_KEY",
                "must be 32 bytes written as 64 hex characters (try `openssl rand -hex 32`)",
            ));
        }
        let master_key_previous: Vec<Secret> = get("MINICLAW_MASTER_KEY_PREVIOUS")
            .map(|v| v.split(',').map(str::trim).filter(|k| !k.is_empty()).map(Secret::new).collect())
            .unwrap_or_default();
        if master_key_previous.iter().any(|k| !is_key(k.expose())) {
            return Err(bad(
                "MINICLAW_MASTER_KEY_PREVIOUS",
                "must be master keys (64 hex characters each), separated by commas",
            ));
        }

        let openai_base_url = get("OPENAI_BASE_URL");
        if let Some(u) = &openai_base_url {
            check_http_url("OPENAI_BASE_URL", u)?;
        }

        let embedder = EmbedderKind::read(&get, openai_base_url.is_some())?;

        let model_dir = match get("MINICLAW_MODEL_DIR") {
            Some(d) => PathBuf::from(d),
            None => default_cache_dir().join("models/all-MiniLM-L6-v2"),
        };

        let email = EmailSettings::read(&get)?;

        let chain = ChainSettings::parse(&get)?;

        let worker_concurrency = parse_num(&get, "MINICLAW_WORKER_CONCURRENCY", 4usize, 1..=256)?;
        let worker_tenant_share = parse_num(
            &get,
            "MINICLAW_WORKER_TENANT_SHARE",
            crate::jobs::worker::tenant_share(worker_concurrency),
            1..=worker_concurrency,
        )?;
        let poll_ms = parse_num(&get, "MINICLAW_WORKER_POLL_MS", 1000u64, 10..=60_000)?;
        let body_limit = parse_num(&get, "MINICLAW_BODY_LIMIT", 1024 * 1024usize, 1024..=64 * 1024 * 1024)?;

        let log_format = match get("MINICLAW_LOG_FORMAT").as_deref() {
            None | Some("text") => LogFormat::Text,
            Some("json") => LogFormat::Json,
            Some(other) => return Err(bad("MINICLAW_LOG_FORMAT", format!("`{other}` is not one of text, json"))),
        };

        let public_url = get("MINICLAW_PUBLIC_URL").map(|u| u.trim_end_matches('/').to_string());
        if let Some(u) = &public_url {
            check_http_url("MINICLAW_PUBLIC_URL", u)?;
        }

        let anthropic_base_url = get("ANTHROPIC_BASE_URL");
        if let Some(u) = &anthropic_base_url {
            check_http_url("ANTHROPIC_BASE_URL", u)?;
        }
        let config = Config {
            anthropic_base_url,
            llm_routes: get("MINICLAW_LLM_ROUTES"),
            llm_prices: get("MINICLAW_LLM_PRICES"),
            openai_model: get("MINICLAW_OPENAI_MODEL"),
            streams: StreamLimits::read(&get)?,
            rate_limit_ip: parse_num(&get, "MINICLAW_RATE_LIMIT_IP", 600u32, 0..=1_000_000)?,
            rate_limit_key: parse_num(&get, "MINICLAW_RATE_LIMIT_KEY", 1200u32, 0..=1_000_000)?,
            agent_retention_days: parse_num(&get, "MINICLAW_AGENT_RETENTION_DAYS", 30u32, 0..=3650)?,
            account_grace_days: parse_num(&get, "MINICLAW_ACCOUNT_GRACE_DAYS", 14u32, 0..=3650)?,
            connect_key_days: parse_num(&get, "MINICLAW_CONNECT_KEY_DAYS", 30u32, 1..=3650)?,
            session_secs: parse_num(&get, "MINICLAW_SESSION_SECS", 900u32, 10..=86_400)?,
            connect_keys_per_agent: parse_num(&get, "MINICLAW_CONNECT_KEYS_PER_AGENT", 10i64, 1..=10_000)?,
            url_allowlist: crate::addresses::Allowlist::parse(&get("MINICLAW_URL_ALLOWLIST").unwrap_or_default())
                .map_err(|e| bad("MINICLAW_URL_ALLOWLIST", e))?,
            trusted_proxies: crate::addresses::Allowlist::parse(&get("MINICLAW_TRUSTED_PROXIES").unwrap_or_default())
                .map_err(|e| bad("MINICLAW_TRUSTED_PROXIES", e))?,
            metrics_token: get("MINICLAW_METRICS_TOKEN").map(Secret::new),
            agents_per_tenant: parse_num(&get, "MINICLAW_AGENTS_PER_TENANT", 25i64, 1..=100_000)?,
            tenant_monthly_usd: parse_num(&get, "MINICLAW_TENANT_MONTHLY_USD", 20f64, 0.0..=1_000_000.0)?,
            global_daily_usd: parse_cap(&get, "MINICLAW_GLOBAL_DAILY_USD", 50.0, 1_000_000_000.0)?,
            new_account_daily_usd: parse_cap(&get, "MINICLAW_NEW_ACCOUNT_DAILY_USD", 1.0, 1_000_000_000.0)?,
            new_accounts_share: parse_num(&get, "MINICLAW_NEW_ACCOUNTS_SHARE", 0.25f64, 0.0..=1.0)?,
            new_account_days: parse_num(&get, "MINICLAW_NEW_ACCOUNT_DAYS", 7u32, 0..=365)?,
            new_account_turns: parse_cap(&get, "MINICLAW_NEW_ACCOUNT_TURNS", 3.0, 1_000.0)?.map(|n| n as u32),
            dns_server: match get("MINICLAW_DNS_SERVER") {
                None => None,
                Some(v) => {
                    Some(v.parse().map_err(|_| bad("MINICLAW_DNS_SERVER", "must be an ip:port such as 127.0.0.1:53"))?)
                }
            },
            knowledge_cap: parse_num(&get, "MINICLAW_KNOWLEDGE_CAP", 20i64, 1..=10_000)?,
            caps: Caps::read(&get)?,
            // Served over HTTPS (as the public URL says): cookies are `Secure` unless told otherwise.
            secure_cookies: parse_bool(
                &get,
                "MINICLAW_SECURE_COOKIES",
                public_url.as_deref().is_some_and(|u| u.to_ascii_lowercase().starts_with("https://")),
            )?,
            public_url,
            addr,
            database_url,
            database_direct_url,
            database_read_url,
            read_max_lag: Duration::from_millis(parse_num(&get, "MINICLAW_READ_MAX_LAG_MS", 2000u64, 100..=600_000)?),
            data_dir,
            admin_password: secret("ADMIN_PASSWORD"),
            debug_shadow: parse_bool(&get, "DEBUG_SHADOW", false)?,
            master_key,
            master_key_previous,
            openai_api_key: secret("OPENAI_API_KEY"),
            openai_base_url,
            anthropic_api_key: secret("ANTHROPIC_API_KEY"),
            xai_api_key: secret("XAI_API_KEY"),
            embedder,
            model_dir,
            embed_tuning: EmbedTuning::read(&get)?,
            email,
            verification_webhook_secret: shared_secret(&get, "MINICLAW_VERIFICATION_WEBHOOK_SECRET", 16)?,
            chain,
            run_worker: parse_bool(&get, "MINICLAW_WORKER", true)?,
            worker_concurrency,
            worker_tenant_share,
            worker_poll: Duration::from_millis(poll_ms),
            job_lease: Duration::from_secs(parse_num(&get, "MINICLAW_JOB_LEASE_SECS", 60u64, 3..=3600)?),
            stream_stale_secs: parse_num(&get, "MINICLAW_STREAM_STALE_SECS", 300u32, 2..=86_400)?,
            body_limit,
            log_format,
        };
        let prices = crate::llm::pricing::PriceTable::with_overrides(config.llm_prices.as_deref())
            .map_err(|m| bad("MINICLAW_LLM_PRICES", m))?;
        let routes =
            crate::llm::routing::RoutingTable::from_config(&config).map_err(|m| bad("MINICLAW_LLM_ROUTES", m))?;
        // A routed model without a price would be called at an unknown cost: refused at start.
        for route in &routes.routes {
            for t in route.targets.iter().filter(|t| t.provider != crate::llm::routing::OFFLINE) {
                if prices.get(&t.model).is_none() {
                    return Err(bad(
                        "MINICLAW_LLM_ROUTES",
                        format!(
                            "model `{}` ({} for {}) has no price; add it to MINICLAW_LLM_PRICES",
                            t.model,
                            t.provider,
                            route.role.as_str()
                        ),
                    ));
                }
            }
        }
        Ok(config)
    }

    /// The externally visible base URL (`MINICLAW_PUBLIC_URL`, else `http://MINICLAW_ADDR`),
    /// without a trailing slash.
    pub fn base_url(&self) -> String {
        self.public_url.clone().unwrap_or_else(|| format!("http://{}", self.addr))
    }

    /// Names of the LLM providers that have credentials or a base URL configured.
    pub fn configured_providers(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.openai_api_key.is_some() || self.openai_base_url.is_some() {
            out.push("openai");
        }
        if self.anthropic_api_key.is_some() {
            out.push("anthropic");
        }
        if self.xai_api_key.is_some() {
            out.push("xai");
        }
        out
    }
}

/// `$XDG_CACHE_HOME/miniclaw` or `~/.cache/miniclaw`, as used by `scripts/setup.sh`.
pub fn default_cache_dir() -> PathBuf {
    if let Ok(d) = std::env::var("MINICLAW_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Ok(d) = std::env::var("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("miniclaw");
    }
    let home = std::env::var("HOME").unwrap_or_else(|_| "/tmp".into());
    PathBuf::from(home).join(".cache/miniclaw")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        let c = Config::from_map(&env(&[])).unwrap();
        assert_eq!(c.addr.to_string(), "127.0.0.1:8080");
        assert!(c.database_url.is_none());
        assert_eq!(c.data_dir, PathBuf::from(".miniclaw"));
        assert_eq!(c.embedder, EmbedderKind::MiniLm);
        assert!(c.run_worker);
        assert_eq!((c.worker_concurrency, c.worker_tenant_share), (4, 2));
        let one = Config::from_map(&env(&[("MINICLAW_WORKER_CONCURRENCY", "1")])).unwrap();
        assert_eq!(one.worker_tenant_share, 1, "at least one slot");
        let over = Config::from_map(&env(&[("MINICLAW_WORKER_TENANT_SHARE", "5")])).unwrap_err();
        assert_eq!(over.var, "MINICLAW_WORKER_TENANT_SHARE");
        assert_eq!((c.job_lease, c.stream_stale_secs), (Duration::from_secs(60), 300));
        assert!(c.admin_password.is_none());
        assert!(c.configured_providers().is_empty());
        assert_eq!(c.global_daily_usd, Some(50.0));
        assert_eq!((c.new_account_daily_usd, c.new_accounts_share, c.new_account_days), (Some(1.0), 0.25, 7));
        assert_eq!(c.embed_tuning, EmbedTuning { cache: 4096, batch: 1, window: Duration::ZERO });
    }

    #[test]
    fn the_global_daily_cap_can_be_turned_off() {
        let cap = |v: &str| Config::from_map(&env(&[("MINICLAW_GLOBAL_DAILY_USD", v)])).map(|c| c.global_daily_usd);
        assert_eq!(cap("0.5").unwrap(), Some(0.5));
        assert_eq!((cap("0").unwrap(), cap("off").unwrap(), cap("OFF").unwrap()), (None, None, None));
        assert_eq!(cap("-1").unwrap_err().var, "MINICLAW_GLOBAL_DAILY_USD");
        assert_eq!(cap("lots").unwrap_err().var, "MINICLAW_GLOBAL_DAILY_USD");
    }

    #[test]
    fn a_routed_model_needs_a_price() {
        let routes = ("MINICLAW_LLM_ROUTES", r#"{"chat": {"provider": "openai", "model": "mystery-model"}}"#);
        let key = ("OPENAI_API_KEY", "sk-test");
        let err = Config::from_map(&env(&[key, routes])).unwrap_err().to_string();
        assert!(err.contains("MINICLAW_LLM_ROUTES") && err.contains("`mystery-model`"), "{err}");
        let priced = ("MINICLAW_LLM_PRICES", r#"{"mystery-model": {"input": 1, "output": 2}}"#);
        assert!(Config::from_map(&env(&[key, routes, priced])).is_ok());
        // The offline engine needs none.
        let offline = ("MINICLAW_LLM_ROUTES", r#"{"chat": {"provider": "offline", "model": "offline"}}"#);
        assert!(Config::from_map(&env(&[offline])).is_ok());
    }

    #[test]
    fn each_bad_value_names_its_variable() {
        let cases = [
            ("MINICLAW_ADDR", "not-an-addr"),
            ("DATABASE_URL", "mysql://x"),
            ("MINICLAW_EMBEDDER", "bert"),
            ("MINICLAW_MASTER_KEY", "short"),
            ("MINICLAW_MASTER_KEY_PREVIOUS", "abc,def"),
            ("OPENAI_BASE_URL", "ftp://x"),
            ("SMTP_URL", "http://x"),
            ("EVM_CHAIN_ID", "base"),
            ("ERC8004_REGISTRY_ADDRESS", "0x12"),
            ("DEBUG_SHADOW", "maybe"),
            ("MINICLAW_WORKER_CONCURRENCY", "0"),
            ("MINICLAW_JOB_LEASE_SECS", "1"),
            ("MINICLAW_STREAM_STALE_SECS", "soon"),
            ("MINICLAW_BODY_LIMIT", "12kb"),
            ("MINICLAW_URL_ALLOWLIST", "localhost"),
            ("MINICLAW_KNOWLEDGE_CAP", "0"),
            ("MINICLAW_LOG_FORMAT", "xml"),
            ("MINICLAW_LLM_ROUTES", "{\"chat\": {\"provider\": \"acme\"}}"),
            ("MINICLAW_LLM_PRICES", "{\"m\": 3}"),
            // A replica without its primary.
            ("DATABASE_READ_URL", "postgres://replica/db"),
            ("MINICLAW_READ_MAX_LAG_MS", "10"),
            // Without DATABASE_URL (a pooler), a direct address has nothing to stand beside.
            ("DATABASE_DIRECT_URL", "postgres://db/miniclaw"),
            ("MINICLAW_VERIFICATION_WEBHOOK_SECRET", "too-short"),
            ("MINICLAW_EMBED_CACHE", "-1"),
            ("MINICLAW_EMBED_BATCH", "0"),
            ("MINICLAW_EMBED_BATCH_WINDOW_MS", "51"),
        ];
        for (var, value) in cases {
            let err = Config::from_map(&env(&[(var, value)])).unwrap_err();
            assert_eq!(err.var, var, "{value}");
            assert!(err.to_string().contains(var));
        }
    }

    #[test]
    fn cookies_are_secure_by_default_behind_an_https_public_url() {
        let secure = |vars: &[(&str, &str)]| Config::from_map(&env(vars)).unwrap().secure_cookies;
        assert!(!secure(&[]));
        assert!(!secure(&[("MINICLAW_PUBLIC_URL", "http://example.com")]));
        assert!(secure(&[("MINICLAW_PUBLIC_URL", "https://example.com")]));
        assert!(secure(&[("MINICLAW_SECURE_COOKIES", "true")]));
        assert!(!secure(&[("MINICLAW_PUBLIC_URL", "https://example.com"), ("MINICLAW_SECURE_COOKIES", "false")]));
    }

    #[test]
    fn openai_embedder_needs_a_provider() {
        let err = Config::from_map(&env(&[("MINICLAW_EMBEDDER", "openai")])).unwrap_err();
        assert_eq!(err.var, "MINICLAW_EMBEDDER");
        let ok =
            Config::from_map(&env(&[("MINICLAW_EMBEDDER", "openai"), ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")]));
        assert!(ok.is_ok());
    }

    #[test]
    fn secrets_do_not_print() {
        let c = Config::from_map(&env(&[("ADMIN_PASSWORD", "hunter2"), ("OPENAI_API_KEY", "sk-live")])).unwrap();
        let dbg = format!("{c:?}");
        assert!(!dbg.contains("hunter2") && !dbg.contains("sk-live"), "{dbg}");
    }
}
