//! The memories the offline memory-maintenance roles are given (`roles::MemoryItem`), and the
//! word rules those roles share: near-duplicates, category hints, single-valued facts. Actions
//! refer to memories by their position in the input's list (`index`).

use std::collections::HashSet;

use miniclaw_core::text::jaccard;
use miniclaw_core::vocabulary::Category;
use miniclaw_platform::llm::roles::MemoryItem;

/// Word overlap at which two memories say the same thing.
const NEAR_DUPLICATE: f64 = 0.6;
/// The dossier's sections: the facts about the user, then the agent's insights.
pub(super) const CATEGORIES: [&str; 6] = Category::names([
    Category::Identity,
    Category::Goal,
    Category::Preference,
    Category::Interest,
    Category::Context,
    Category::Insight,
]);

/// One memory as the maintenance roles work with it.
#[derive(Debug, Clone)]
pub(super) struct Memory {
    pub(super) content: String,
    pub(super) category: String,
    pub(super) confidence: f64,
    pub(super) mentions: i64,
    pub(super) importance: f64,
    pub(super) age_days: f64,
    pub(super) expired: bool,
    pub(super) pinned: bool,
}

/// The input's memories, in order (an index in the result is the memory's `index`).
pub(super) fn memories(items: &[MemoryItem]) -> Vec<Memory> {
    items
        .iter()
        .map(|m| Memory {
            content: m.content.trim().to_string(),
            category: m.category.clone(),
            confidence: m.confidence,
            mentions: m.mention_count,
            importance: m.importance,
            age_days: m.age_days,
            expired: m.expired,
            pinned: m.pinned,
        })
        .collect()
}

/// Pairs `(keep, drop)` of near-duplicate memories in the same category; the kept one is the
/// more confident, then the more mentioned, then the newer. A memory is dropped at most once.
pub(super) fn near_duplicates(ms: &[Memory]) -> Vec<(usize, usize)> {
    let mut dropped = HashSet::new();
    let mut pairs = Vec::new();
    for i in 0..ms.len() {
        for j in i + 1..ms.len() {
            if dropped.contains(&i) || dropped.contains(&j) || ms[i].category != ms[j].category {
                continue;
            }
            if ms[i].pinned && ms[j].pinned {
                continue;
            }
            if jaccard(&ms[i].content, &ms[j].content) < NEAR_DUPLICATE {
                continue;
            }
            let rank =
                |m: &Memory| (m.pinned, (m.confidence * 1000.0) as i64, m.mentions, -(m.age_days * 1000.0) as i64);
            let (keep, drop) = if rank(&ms[j]) > rank(&ms[i]) { (j, i) } else { (i, j) };
            dropped.insert(drop);
            pairs.push((keep, drop));
        }
    }
    pairs
}

/// The category a fact's wording suggests, when it clearly suggests one.
pub(super) fn category_hint(content: &str) -> Option<&'static str> {
    let lower = content.to_lowercase();
    let has = |ws: &[&str]| ws.iter().any(|w| lower.contains(w));
    if has(&["name is", "lives in", "is from", "works as", "works at", "works for", "years old", "was born"]) {
        Some("identity")
    } else if has(&["wants to", "plans to", "goal is", "hopes to", "is trying to", "aims to"]) {
        Some("goal")
    } else if has(&["prefers", "dislikes", "would rather", "hates", "can't stand"]) {
        Some("preference")
    } else if has(&["likes", "loves", "enjoys", "is interested in", "is into"]) {
        Some("interest")
    } else {
        None
    }
}

/// A fact's subject and value when it follows one of the single-valued identity patterns
/// ("The user lives in X"): two memories with the same subject and different values contradict.
pub(super) fn single_valued(content: &str) -> Option<(&'static str, String)> {
    let lower = content.to_lowercase();
    for subject in ["name is", "lives in", "is from", "works as", "works at", "works for"] {
        if let Some(pos) = lower.find(subject) {
            let value = lower[pos + subject.len()..].trim().trim_end_matches('.').to_string();
            if !value.is_empty() {
                return Some((subject, value));
            }
        }
    }
    None
}
