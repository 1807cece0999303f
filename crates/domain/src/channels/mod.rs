//! Channels (SPEC O): outreach by email, notifications, proactive behaviours, Telegram, and
//! outbound webhooks.

pub mod notifications;
pub mod outreach;
pub mod proactive;
pub mod telegram;
pub mod webhooks;
