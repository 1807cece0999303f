//! miniclaw: a multi-tenant hosted platform for persistent AI agents.
//!
//! Layout: `api` is the HTTP surface, `jobs` the durable queue and its cycles, `db` the
//! database (including the embedded cluster), `config` the environment, `doctor` the health
//! checks behind `miniclaw doctor`. docs/ARCHITECTURE.md walks through a request and a job.

pub mod accounts;
pub mod activity;
pub mod agents;
pub mod analytics;
pub mod api;
pub mod app;
pub mod auth;
pub mod chain;
pub mod chat;
pub mod cognition;
pub mod config;
pub mod credits;
pub mod db;
pub mod deps;
pub mod doctor;
pub mod economy;
pub mod email;
pub mod embed;
pub mod error;
pub mod feed;
pub mod identity;
pub mod ids;
pub mod jobs;
pub mod llm;
pub mod memory;
pub mod notifications;
pub mod outreach;
pub mod poc;
pub mod proactive;
pub mod secrets;
pub mod skills;
pub mod soul;
pub mod telegram;
pub mod telemetry;
pub mod text;
pub mod verification;
pub mod vocabulary;
pub mod wallets;
pub mod web;
pub mod wisdom;
