//! What the benches share: a scratch database on the PostgreSQL server they measure against.

use sqlx::{Connection, Executor, PgConnection};

/// The server's admin URL: `DATABASE_URL`, or 127.0.0.1:5432 as `postgres`.
pub fn admin_url() -> String {
    std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// Drops and recreates database `name`; returns its URL.
pub async fn fresh_database(name: &str) -> anyhow::Result<url::Url> {
    let admin_url = admin_url();
    let mut admin = PgConnection::connect(&admin_url).await?;
    admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await?;
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await?;
    let mut url: url::Url = admin_url.parse()?;
    url.set_path(name);
    Ok(url)
}
