//! The services miniclaw's areas run on, below the domain and above `miniclaw-core`: the
//! configuration (`config`), the database and its embedded cluster (`db`), the durable job queue
//! and its worker (`jobs`), the model gateway (`llm`, with the `Fallback` trait the offline
//! engine implements), embeddings (`embed`), the EVM chain client (`chain`), the email transport
//! and outbox (`email`), the Telegram Bot API client (`telegram`), the master-key vault
//! (`secrets`), outbound address rules (`addresses`), the activity log every area writes to
//! (`activity`), tracing and metrics (`telemetry`), and `Deps`, the bundle of them.

pub mod activity;
pub mod addresses;
pub mod chain;
pub mod config;
pub mod db;
pub mod deps;
pub mod dns;
pub mod domain_sql;
pub mod email;
pub mod embed;
pub mod idempotency;
pub mod jobs;
pub mod llm;
pub mod mcp_client;
pub mod secrets;
pub mod telegram;
pub mod telemetry;
