//! Channels (SPEC O): outreach by email, notifications, proactive behaviours, Telegram.

pub mod notifications;
pub mod outreach;
pub mod proactive;
pub mod telegram;
