//! The sub-signals of each dimension and the points they earn. The signals are seed 001 §6.6's
//! (six per dimension); the seed names them without points, so the points are ours: each
//! dimension's maxima add up to 100, the most for what is hardest to fake (a passport proof, an
//! on-chain identity, commerce revenue, validations). A signal whose source does not exist here
//! (a market price for agent tokens, liquidity pools, badges), or cannot be read now (a wallet's
//! balance with no chain configured), is listed as "not available" with the reason and left out
//! of its dimension's weighting; it is never estimated and never counted as a zero.

use serde_json::{Value, json};

use super::score::{self, Score, Signal, SignalStatus};
use miniclaw_core::vocabulary::VerificationProvider;

/// What the platform measured about an agent (`gather`), the input of `assess`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measurements {
    /// Providers whose latest record says `verified`, with the provider's score if it gave one.
    pub verified: Vec<(VerificationProvider, Option<f64>)>,
    /// Whole days since the agent was created.
    pub age_days: i64,
    /// Which optional profile parts are filled in (the name always is).
    pub persona: bool,
    pub avatar: bool,
    pub soul: bool,
    /// Days, of the last 7, on which the agent's users wrote to it.
    pub active_days_7d: u32,
    /// The agent's wallet: a server-managed one, or else an owner-held one listed by address.
    pub wallet: Option<WalletKind>,
    /// The agent's ERC-8004 identity: its registration status once requested, and its agentId
    /// once registered.
    pub erc8004: Option<(String, Option<i64>)>,
    /// The agent on the feed.
    pub social: Social,
    /// The agent's published skills.
    pub market: Market,
    /// What the agent earned and sold (tips, orders, paid calls).
    pub commerce: Commerce,
    /// The conviction stakes behind the agent; `None` before anyone staked on it.
    pub stakes: Option<Stakes>,
    /// The native balance of the agent's wallet.
    pub funding: Funding,
}

/// What the agent's wallet holds, as read from the chain.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Funding {
    /// The agent has no wallet: nothing to fund.
    #[default]
    NoWallet,
    /// No chain is configured, or the node did not answer: left out of the weighting.
    Unread,
    /// The balance, in the chain's native unit (ETH).
    Balance(f64),
}

/// A balance of this much native currency (ETH) earns full wallet-funding points.
pub const FULL_FUNDING: f64 = 0.01;

/// What an agent earned and how its service orders went.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Commerce {
    /// Credits received from tips, settled orders and paid calls.
    pub revenue_credits: i64,
    /// The agent's token: its deployment's status (`deploying`, `deployed`, `failed`).
    pub token: Option<&'static str>,
    pub active_services: u32,
    /// Orders it sold that were settled, and that were refunded.
    pub settled: u32,
    pub refunded: u32,
    /// The average rating buyers gave when settling, and how many ratings.
    pub rating: Option<(f64, u32)>,
}

/// The conviction stakes behind an agent.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stakes {
    /// Stakes active or validated.
    pub count: u32,
    pub validated: u32,
    pub slashed: u32,
    /// Credits ever staked on it (withdrawn stakes excluded).
    pub volume: i64,
    /// Credits in active stakes: the score's backing.
    pub active: i64,
}

/// What an agent did on the feed (hidden posts do not count, nor its own likes and comments on them).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Social {
    pub posts: u32,
    /// Likes and comments its posts received from others.
    pub likes: u32,
    pub comments: u32,
    /// Likes and comments it gave to others' posts.
    pub given: u32,
    /// Posts the feed digest wrote.
    pub digests: u32,
}

/// What an agent's published skills did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Market {
    pub published: u32,
    /// Credits its skills sold for.
    pub sales_credits: i64,
    /// The average rating of its skills and how many ratings.
    pub rating: Option<(f64, u32)>,
}

/// Which wallet an agent has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalletKind {
    ServerManaged,
    OwnerHeld,
}

impl WalletKind {
    pub fn as_str(self) -> &'static str {
        match self {
            WalletKind::ServerManaged => "server-managed",
            WalletKind::OwnerHeld => "owner-held",
        }
    }
}

/// Days after which an agent's age earns full points.
pub const FULL_AGE_DAYS: i64 = 90;
/// A Talent Protocol score at or above this earns full points.
pub const FULL_TALENT_SCORE: f64 = 100.0;

/// `floor(max × part / whole)`, `part` clamped to `0..=whole`.
fn share(max: u32, part: f64, whole: f64) -> u32 {
    if whole <= 0.0 || part.is_nan() {
        return 0;
    }
    (f64::from(max) * part.clamp(0.0, whole) / whole).floor() as u32
}

fn measured(key: &'static str, label: &'static str, max: u32, source: &'static str, rule: &'static str) -> Signal {
    Signal { key, label, value: Value::Null, points: 0, max, source, status: SignalStatus::Measured, rule }
}

/// A signal the platform cannot measure, with the reason: left out of its dimension's weighting.
fn not_available(key: &'static str, label: &'static str, max: u32, source: &'static str, why: &'static str) -> Signal {
    Signal { key, label, value: Value::Null, points: 0, max, source, status: SignalStatus::NotAvailable, rule: why }
}

/// Why the token-market signals are left out.
const NO_MARKET: &str =
    "left out of the weighting: agent tokens are not listed on an exchange, so there is no pool or price to read";

impl Signal {
    fn with(mut self, value: Value, points: u32) -> Signal {
        self.value = value;
        self.points = points.min(self.max);
        self
    }
}

fn identity(m: &Measurements) -> Vec<Signal> {
    let level = m
        .verified
        .iter()
        .map(|(p, _)| match p {
            VerificationProvider::SelfXyz => (*p, 30),
            VerificationProvider::TalentProtocol => (*p, 20),
        })
        .max_by_key(|(_, points)| *points);
    let talent = m.verified.iter().find(|(p, _)| *p == VerificationProvider::TalentProtocol).and_then(|(_, s)| *s);
    let filled = 1 + u32::from(m.persona) + u32::from(m.avatar) + u32::from(m.soul);
    let mut missing = Vec::new();
    for (set, name) in [(m.persona, "persona"), (m.avatar, "avatar"), (m.soul, "soul")] {
        if !set {
            missing.push(name);
        }
    }
    vec![
        measured(
            "verification_level",
            "Verification level",
            30,
            "verification records",
            "30 for a Self.xyz passport proof, 20 for Talent Protocol; the best current verification counts",
        )
        .with(level.map_or(Value::Null, |(p, _)| json!(p)), level.map_or(0, |(_, points)| points)),
        measured(
            "talent_score",
            "Talent score",
            10,
            "verification records (Talent Protocol)",
            "10 × score / 100, full at a builder score of 100",
        )
        .with(json!(talent), talent.map_or(0, |s| share(10, s, FULL_TALENT_SCORE))),
        measured(
            "wallet",
            "Wallet registration",
            15,
            "agent wallets",
            "15 for a wallet: server-managed, or owner-held and listed by address",
        )
        .with(m.wallet.map_or(Value::Null, |w| json!(w.as_str())), if m.wallet.is_some() { 15 } else { 0 }),
        measured(
            "erc8004",
            "ERC-8004 identity",
            20,
            "ERC-8004 registration",
            "20 once the agent is registered on the IdentityRegistry; nothing while pending or failed",
        )
        .with(
            match &m.erc8004 {
                None => Value::Null,
                Some((status, Some(id))) => json!(format!("{status}, agentId {id}")),
                Some((status, None)) => json!(status),
            },
            if m.erc8004.as_ref().is_some_and(|(s, _)| s == "registered") { 20 } else { 0 },
        ),
        measured("account_age", "Account age", 10, "the agent's creation date", "10 × days / 90, full at 90 days")
            .with(json!(m.age_days), share(10, m.age_days as f64, FULL_AGE_DAYS as f64)),
        measured(
            "profile_completeness",
            "Profile completeness",
            15,
            "the agent's profile: name, persona, avatar, soul",
            "15 × filled / 4",
        )
        .with(json!({ "filled": filled, "of": 4, "missing": missing }), share(15, f64::from(filled), 4.0)),
    ]
}

/// A count scored linearly up to the count that earns full points.
fn counted(signal: Signal, n: u32, full: u32) -> Signal {
    let max = signal.max;
    signal.with(json!(n), share(max, f64::from(n), f64::from(full)))
}

fn social(m: &Measurements) -> Vec<Signal> {
    let f = &m.social;
    vec![
        counted(measured("posts", "Posts", 20, "the agent feed", "20 × posts / 20"), f.posts, 20),
        counted(measured("likes", "Likes received", 15, "the agent feed", "15 × likes / 50"), f.likes, 50),
        counted(measured("comments", "Comments received", 15, "the agent feed", "15 × comments / 30"), f.comments, 30),
        measured(
            "recent_activity",
            "Activity in the last 7 days",
            25,
            "chat messages from the agent's users",
            "25 × active days / 7",
        )
        .with(json!(m.active_days_7d), share(25, f64::from(m.active_days_7d), 7.0)),
        counted(
            measured(
                "interactions_given",
                "Interactions given",
                15,
                "the agent feed",
                "15 × likes and comments given / 30",
            ),
            f.given,
            30,
        ),
        counted(
            measured("feed_digests", "Feed digests", 10, "the agent feed", "10 × digest posts / 10"),
            f.digests,
            10,
        ),
    ]
}

fn economy(m: &Measurements) -> Vec<Signal> {
    let revenue = m.commerce.revenue_credits;
    let token =
        measured("token_deployment", "Token deployed", 20, "agent tokens", "20 once the agent's ERC-20 is deployed");
    vec![
        token.with(json!(m.commerce.token), if m.commerce.token == Some("deployed") { 20 } else { 0 }),
        funding(m.funding),
        not_available("liquidity_pools", "Liquidity pools", 15, "agent tokens", NO_MARKET),
        not_available("live_pricing", "Live pricing", 10, "agent tokens", NO_MARKET),
        not_available("price_history", "Price history", 10, "agent tokens", NO_MARKET),
        measured(
            "commerce_revenue",
            "Commerce revenue",
            25,
            "tips, settled service orders and paid calls",
            "25 × credits received / 1,000",
        )
        .with(json!(revenue), share(25, revenue as f64, 1_000.0)),
    ]
}

fn funding(f: Funding) -> Signal {
    const RULE: &str = "20 × balance / 0.01 ETH, full at 0.01; no wallet: 0";
    match f {
        Funding::NoWallet => measured("wallet_funding", "Wallet funding", 20, "the agent wallet's balance", RULE),
        Funding::Unread => not_available(
            "wallet_funding",
            "Wallet funding",
            20,
            "the agent wallet's balance",
            "left out of the weighting: no chain is configured, or the node did not answer, so the balance cannot be read",
        ),
        Funding::Balance(eth) => measured("wallet_funding", "Wallet funding", 20, "the agent wallet's balance", RULE)
            .with(json!(eth), share(20, eth, FULL_FUNDING)),
    }
}

/// The average of every rating the agent received, its skills' reviews and its orders' ratings
/// together, weighted by how many of each.
fn all_reviews(m: &Measurements) -> Option<(f64, u32)> {
    let (sum, n) = [m.market.rating, m.commerce.rating]
        .into_iter()
        .flatten()
        .fold((0.0, 0u32), |(sum, n), (avg, k)| (sum + avg * f64::from(k), n + k));
    (n > 0).then(|| (((sum / f64::from(n)) * 10.0).round() / 10.0, n))
}

fn skills(m: &Measurements) -> Vec<Signal> {
    let k = &m.market;
    let rating =
        measured("average_rating", "Average rating", 15, "the skill market", "15 × (average − 1) / 4; none yet: 0");
    let rating = match k.rating {
        Some((avg, n)) => rating.with(json!({ "average": avg, "ratings": n }), share(15, avg - 1.0, 4.0)),
        None => rating,
    };
    let sales = measured("sales_volume", "Sales volume", 20, "the skill market", "20 × credits earned / 1,000");
    vec![
        counted(
            measured("published_skills", "Published skills", 25, "the skill market", "25 × skills / 5"),
            k.published,
            5,
        ),
        sales.with(json!(k.sales_credits), share(20, k.sales_credits as f64, 1_000.0)),
        rating,
        counted(
            measured("active_services", "Active services", 15, "the agent's services", "15 × services on offer / 3"),
            m.commerce.active_services,
            3,
        ),
        fulfilment(&m.commerce),
        commerce_rating(&m.commerce),
    ]
}

fn fulfilment(c: &Commerce) -> Signal {
    let s = measured(
        "service_fulfillment",
        "Service fulfilment",
        15,
        "service orders sold",
        "15 × settled / (settled + refunded); none closed yet: 0",
    );
    let closed = c.settled + c.refunded;
    let value = json!({ "settled": c.settled, "refunded": c.refunded });
    s.with(value, share(15, f64::from(c.settled), f64::from(closed)))
}

fn commerce_rating(c: &Commerce) -> Signal {
    let s = measured(
        "commerce_ratings",
        "Commerce ratings",
        10,
        "ratings of settled service orders",
        "10 × (average − 1) / 4; none yet: 0",
    );
    match c.rating {
        Some((avg, n)) => s.with(json!({ "average": avg, "ratings": n }), share(10, avg - 1.0, 4.0)),
        None => s,
    }
}

fn reputation(m: &Measurements) -> Vec<Signal> {
    let st = m.stakes.unwrap_or_default();
    let resolved = st.validated + st.slashed;
    vec![
        counted(
            measured("stake_count", "Stakes", 20, "conviction stakes", "20 × stakes active or validated / 10"),
            st.count,
            10,
        ),
        measured(
            "validation_rate",
            "Validation rate",
            25,
            "stake validations",
            "25 × validated / (validated + slashed); none resolved yet: 0",
        )
        .with(
            json!({ "validated": st.validated, "slashed": st.slashed }),
            share(25, f64::from(st.validated), f64::from(resolved)),
        ),
        measured(
            "slash_penalties",
            "Slash penalties",
            0,
            "stake validations",
            "earns nothing; each slash lowers the validation rate and takes its stake out of the volume",
        )
        .with(json!(st.slashed), 0),
        not_available(
            "badges",
            "Badges earned",
            20,
            "reputation badges",
            "left out of the weighting: miniclaw awards no badges; the PoC grade is the agent's reputation mark",
        ),
        {
            let s = measured(
                "average_review",
                "Average review",
                20,
                "reviews of its skills and ratings of its orders",
                "20 × (average − 1) / 4 over every review and rating received; none yet: 0",
            );
            match all_reviews(m) {
                Some((avg, n)) => s.with(json!({ "average": avg, "reviews": n }), share(20, avg - 1.0, 4.0)),
                None => s,
            }
        },
        measured("stake_volume", "Stake volume", 15, "conviction stakes", "15 × credits staked (not slashed) / 10,000")
            .with(json!(st.volume), share(15, st.volume as f64, 10_000.0)),
    ]
}

/// The score of an agent from what was measured.
pub fn assess(m: &Measurements) -> Score {
    let signals = [identity(m), social(m), economy(m), skills(m), reputation(m)];
    let dimensions = score::WEIGHTS
        .iter()
        .zip(signals)
        .map(|(&(key, label, weight), signals)| score::dimension(key, label, weight, signals))
        .collect();
    let backing = m.stakes.map(|s| s.active as f64);
    score::combine(dimensions, backing, "credits in active stakes backing the agent")
}

#[cfg(test)]
mod tests;
