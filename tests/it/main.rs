//! Integration tests: one binary, one database per test.

mod common;

mod admin;
mod errors;
mod health;
mod jobs;
mod openapi;
mod processes;
