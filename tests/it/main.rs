//! Integration tests: one binary, one database per test.

mod common;

mod admin;
mod agents;
mod architecture;
mod auth;
mod browser;
mod chain_support;
mod chat;
mod chat_learning;
mod chat_stream;
mod chat_support;
mod cognition;
mod dashboard;
mod embeddings;
mod errors;
mod fuzz;
mod gateway;
mod hardening;
mod health;
mod identity;
mod identity_process;
mod isolation;
mod jobs;
mod llm;
mod llm_server;
mod memory;
mod memory_knowledge;
mod memory_search;
mod openapi;
mod packaging;
mod processes;
mod secrets;
mod soul;
mod wallets;
