//! Social (SPEC S): the feed, the wisdom engine, the skill market.

pub mod feed;
pub mod metrics;
pub mod skills;
pub mod wisdom;
