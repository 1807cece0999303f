//! The services domain code runs on, built once per process: the database pool, the model
//! gateway, the embedder, the vault of sealed secrets, the chain and the clock. `serve`,
//! `worker`, `run-cycle`, the HTTP handlers and the jobs all hand this one bundle around;
//! nothing assembles the services a second time.

use std::sync::Arc;

use anyhow::Context;
use sqlx::PgPool;

use crate::addresses::Allowlist;
use crate::chain::Chain;
use crate::config::{Caps, Config, EmailSettings};
use crate::domain_sql::DomainSql;
use crate::email::{Mailer, Outgoing, SendError, Sent};
use crate::embed::Embedder;
use crate::llm::spend::Payer;
use crate::llm::{Fallback, Gateway};
use crate::secrets::Vault;
pub use miniclaw_core::clock::Clock;

#[derive(Clone)]
pub struct Deps {
    pub pool: PgPool,
    /// Connections that keep a session (LISTEN, session advisory locks): `pool` itself, or
    /// direct ones when `pool` goes through a transaction pooler (`DATABASE_DIRECT_URL`).
    pub session_pool: PgPool,
    /// A streaming replica for reads that tolerate staleness (`DATABASE_READ_URL`).
    pub replica: Option<Arc<crate::db::replica::Replica>>,
    /// Every LLM call goes through it (budgets, routing, fallbacks, usage log).
    pub llm: Arc<Gateway>,
    /// Every stored and queried vector comes from it.
    pub embedder: Arc<dyn Embedder>,
    /// Seals and opens secrets at rest (wallet keys) under the master key.
    pub vault: Arc<Vault>,
    /// The EVM node, when `EVM_RPC_URL` is set.
    pub chain: Option<Arc<Chain>>,
    /// The externally visible base URL (registration files are served under it).
    pub base_url: String,
    pub clock: Clock,
    /// What an agent may accumulate (soul versions kept, ...).
    pub caps: Caps,
    /// The email transport the outbox drains into (SMTP or Resend; `None` when neither is set).
    pub mailer: Arc<Mailer>,
    /// The email and Telegram settings (default sender, Resend and Bot API base URLs).
    pub email: Arc<EmailSettings>,
    /// The most knowledge entries an agent may hold (`MINICLAW_KNOWLEDGE_CAP`).
    pub knowledge_cap: i64,
    /// Private addresses the operator lets URL ingestion and outbound calls reach
    /// (`MINICLAW_URL_ALLOWLIST`).
    pub url_allowlist: Allowlist,
    /// Where TXT records are looked up (`MINICLAW_DNS_SERVER`, else this machine's resolver).
    pub dns: crate::dns::Resolver,
}

impl Deps {
    pub fn new(pool: PgPool, llm: Arc<Gateway>, embedder: Arc<dyn Embedder>, vault: Arc<Vault>) -> Deps {
        Deps {
            session_pool: pool.clone(),
            replica: None,
            pool,
            llm,
            embedder,
            vault,
            chain: None,
            base_url: String::new(),
            clock: Clock::System,
            caps: Caps::default(),
            mailer: Arc::new(Mailer::None),
            email: Arc::new(EmailSettings::default()),
            knowledge_cap: 20,
            url_allowlist: Allowlist::default(),
            dns: crate::dns::Resolver::new(None),
        }
    }

    /// The gateway (with `offline` for the targets no provider serves), the embedder (loading
    /// the embedding model), the master key and the chain
    /// the configuration asks for. A chain node that answers must be on `EVM_CHAIN_ID` and hold
    /// a registry at the configured address, else the process does not start; one that does not
    /// answer yet is checked again by the jobs that need it.
    pub async fn from_config(
        pool: PgPool,
        config: &Config,
        offline: Arc<dyn Fallback>,
        domain: DomainSql,
    ) -> anyhow::Result<Deps> {
        let llm = Arc::new(
            Gateway::new(pool.clone(), config, offline, domain).map_err(|e| anyhow::anyhow!("model gateway: {e}"))?,
        );
        let embedder = crate::embed::from_config(config, &llm).await.context("loading the embedding model")?;
        let vault = Arc::new(Vault::from_config(config).context("opening the master key")?);
        let chain = match &config.chain {
            None => None,
            Some(settings) => {
                let chain = Chain::new(settings).context("EVM_RPC_URL")?;
                match chain.verify().await {
                    Ok(version) => tracing::info!(
                        chain.id = chain.chain_id,
                        registry = %chain.registry,
                        registry.version = %version,
                        "chain checked"
                    ),
                    Err(e) if e.is_transient() => {
                        tracing::warn!(error = %e, "the chain node does not answer yet; identity jobs check it when they run")
                    }
                    Err(e) => return Err(e.into()),
                }
                Some(Arc::new(chain))
            }
        };
        let mailer = Arc::new(Mailer::from_settings(&config.email).context("SMTP_URL")?);
        Ok(Deps {
            chain,
            base_url: config.base_url(),
            caps: config.caps,
            mailer,
            email: Arc::new(config.email.clone()),
            knowledge_cap: config.knowledge_cap,
            url_allowlist: config.url_allowlist.clone(),
            dns: crate::dns::Resolver::new(config.dns_server),
            ..Deps::new(pool, llm, embedder, vault)
        })
    }

    /// Sends one email as paid work (SPEC T1): priced (`MINICLAW_EMAIL_USD`), it is held
    /// against the spending limits of `payer` first and booked once sent. A limit reached is a
    /// transient failure: the mail waits in the outbox and is tried again, nothing is lost.
    pub async fn send_mail(&self, payer: Payer, email: &Outgoing) -> anyhow::Result<Result<Sent, SendError>> {
        let spender = self.llm.spender();
        let held = match spender.hold(payer, self.email.price_usd).await? {
            Ok(held) => held,
            Err(refusal) => return Ok(Err(SendError::Transient(refusal.to_string()))),
        };
        let sent = self.mailer.send(email).await;
        spender.spent(held, if sent.is_ok() { self.email.price_usd } else { 0.0 }).await;
        Ok(sent)
    }

    pub fn with_clock(self, clock: Clock) -> Deps {
        Deps { clock, ..self }
    }

    /// Direct connections for what needs a session, beside a pooled `pool`.
    pub fn with_session_pool(self, session_pool: PgPool) -> Deps {
        Deps { session_pool, ..self }
    }

    /// The streaming replica reads may go to.
    pub fn with_replica(self, replica: Option<Arc<crate::db::replica::Replica>>) -> Deps {
        Deps { replica, ..self }
    }

    pub fn embedder(&self) -> &dyn Embedder {
        self.embedder.as_ref()
    }
}
