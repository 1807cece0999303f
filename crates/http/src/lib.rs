//! miniclaw's HTTP surface: the REST API (`api`), the dashboard (`web`, with `templates/` and
//! `static/`), who is calling (`auth`: the extractors), the rate limiters, the roles each route needs
//! (`roles`), the application state (`app`), the MCP server (`mcp`) and `ApiError`, which maps the domain error to statuses and the one error shape.
//! Handlers extract, call one domain function and map its result; no SQL lives here.

pub mod api;
pub mod app;
pub mod auth;
pub mod error;
pub mod idempotency;
mod markdown;
pub mod mcp;
pub mod ratelimit;
pub mod reads;
pub mod roles;
pub mod web;
