//! Database access: connecting (to `DATABASE_URL` or the embedded cluster), migrations, readiness.

pub mod embedded;
pub mod replica;

use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::PgPool;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};

use crate::config::Config;
use embedded::EmbeddedCluster;

pub static MIGRATOR: Migrator = sqlx::migrate!("../../migrations");

/// Name of the database the embedded cluster serves.
pub const EMBEDDED_DB: &str = "miniclaw";

/// Where the database lives: an external server (perhaps behind a transaction pooler, with a
/// direct address beside it), or the private cluster this process runs.
pub enum Database {
    External { opts: Box<PgConnectOptions>, direct: Option<Box<PgConnectOptions>> },
    Embedded(EmbeddedCluster),
}

impl Database {
    /// Resolves the configured database. Without `DATABASE_URL` this starts (or attaches to)
    /// the embedded cluster; it must be called before the async runtime starts, on the main
    /// thread, because the cluster is tied to the lifetime of that thread.
    pub fn open(config: &Config) -> anyhow::Result<Self> {
        match &config.database_url {
            Some(url) => {
                let opts = PgConnectOptions::from_str(url.expose()).context("DATABASE_URL could not be parsed")?;
                let direct = match &config.database_direct_url {
                    Some(d) => Some(Box::new(
                        PgConnectOptions::from_str(d.expose()).context("DATABASE_DIRECT_URL could not be parsed")?,
                    )),
                    None => None,
                };
                Ok(Database::External { opts: Box::new(opts), direct })
            }
            None => Ok(Database::Embedded(EmbeddedCluster::start(&config.data_dir)?)),
        }
    }

    /// The options every statement connects with. Behind a transaction pooler, statements
    /// are still prepared by name: the pooler (PgBouncer 1.21+, `max_prepared_statements`)
    /// prepares them again on whichever server session runs the next transaction.
    pub fn connect_options(&self) -> PgConnectOptions {
        match self {
            Database::External { opts, .. } => (**opts).clone(),
            Database::Embedded(c) => c.connect_options(EMBEDDED_DB),
        }
    }

    /// Creates the embedded database if needed and returns a pool.
    pub async fn pool(&self, max_connections: u32) -> anyhow::Result<PgPool> {
        if let Database::Embedded(c) = self {
            c.ensure_database(EMBEDDED_DB).await?;
        }
        connect(self.connect_options(), max_connections).await
    }

    /// The connections that keep a session: LISTEN, session advisory locks, migrations. Behind
    /// a pooler, a few direct ones (`DATABASE_DIRECT_URL`); otherwise `pool` itself.
    pub async fn session_pool(&self, pool: &PgPool) -> anyhow::Result<PgPool> {
        match self {
            Database::External { direct: Some(d), .. } => {
                connect((**d).clone(), 4).await.context("could not connect to DATABASE_DIRECT_URL")
            }
            _ => Ok(pool.clone()),
        }
    }

    /// The streaming replica `DATABASE_READ_URL` names, connected lazily: a replica that is down
    /// at start is read once it answers. Its watch is not started here (`Replica::watch`).
    pub fn replica(&self, config: &Config) -> anyhow::Result<Option<replica::Replica>> {
        let Some(url) = &config.database_read_url else { return Ok(None) };
        let opts = PgConnectOptions::from_str(url.expose()).context("DATABASE_READ_URL could not be parsed")?;
        // A read that waits long for a replica connection is better repeated on the primary.
        let pool = pool_options(10).min_connections(0).acquire_timeout(Duration::from_secs(1));
        let pool = pool.connect_lazy_with(opts.application_name("miniclaw"));
        Ok(Some(replica::Replica::new(pool, config.read_max_lag)))
    }

    /// Stops the embedded cluster, if this process started it.
    pub fn shutdown(self) {
        if let Database::Embedded(c) = self {
            c.stop();
        }
    }
}

pub async fn connect(opts: PgConnectOptions, max_connections: u32) -> anyhow::Result<PgPool> {
    pool_options(max_connections)
        .connect_with(opts.application_name("miniclaw"))
        .await
        .context("could not connect to PostgreSQL")
}

/// The pool settings of every process. A connection is pinged before use only when it sat idle
/// for a while (the ones a server restart or a firewall may have cut): pinging on every acquire
/// cost a round trip per query on the chat path, which makes about twenty.
pub fn pool_options(max_connections: u32) -> PgPoolOptions {
    PgPoolOptions::new()
        .max_connections(max_connections)
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(5))
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for > Duration::from_secs(10) {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
}

/// Checks pgvector is installed on the server, then applies pending migrations.
pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    let available = sqlx::query_scalar!(
        r#"SELECT default_version AS "default_version!" FROM pg_available_extensions WHERE name = 'vector'"#
    )
    .fetch_optional(pool)
    .await?;
    if available.is_none() {
        anyhow::bail!(
            "the pgvector extension is not installed on this PostgreSQL server; run `scripts/setup.sh` (or `make run`) to build it"
        );
    }
    MIGRATOR.run(pool).await.context("applying migrations failed")?;
    Ok(())
}

/// Applied and pending migration counts, for `/readyz` and `doctor`.
#[derive(Debug, Clone, Copy)]
pub struct MigrationStatus {
    pub applied: usize,
    pub pending: usize,
}

pub async fn migration_status(pool: &PgPool) -> anyhow::Result<MigrationStatus> {
    let table = sqlx::query_scalar!("SELECT to_regclass('_sqlx_migrations')::text").fetch_one(pool).await?;
    let applied: Vec<i64> = if table.is_some() {
        sqlx::query_scalar!("SELECT version FROM _sqlx_migrations WHERE success").fetch_all(pool).await?
    } else {
        Vec::new()
    };
    let pending =
        MIGRATOR.iter().filter(|m| !m.migration_type.is_down_migration() && !applied.contains(&m.version)).count();
    Ok(MigrationStatus { applied: applied.len(), pending })
}

/// Installed pgvector version in the current database, if the extension exists.
pub async fn pgvector_version(pool: &PgPool) -> anyhow::Result<Option<String>> {
    Ok(sqlx::query_scalar!("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetch_optional(pool).await?)
}
