//! Memory actions proposed by deep reflection (C2) and lint (C5): parsed strictly against the
//! snapshot the model saw (an unknown action, a bad index, a bad value or a memory touched after
//! it was removed rejects the whole list), then applied in the caller's transaction, each with a
//! memory version and an activity entry. Constitutional memories (pinned, or identity: the one
//! rule is `memory::lifecycle::constitutional`, which forgetting and fusion follow too) are never
//! merged, deprecated, deleted or moved to another category by these actions: such an action is
//! recorded as skipped, and a contradiction against one lowers its confidence without letting it
//! expire, so the owner decides.

use chrono::{Duration, Utc};
use miniclaw_core::ids::{AgentId, TenantId};
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::PgConnection;

use crate::memory::{self, Memory, MemoryPatch, NewMemory};
use miniclaw_core::Error;
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::llm::roles::MemoryItem;

/// Most actions one run may apply.
pub const MAX_ACTIONS: usize = 50;

/// How a deprecated memory goes: marked deprecated, expired now, or deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeprecateMode {
    Mark,
    Expire,
    Delete,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    Merge { keep: usize, remove: usize, content: Option<String> },
    Recategorize { index: usize, category: String },
    UpgradeConfidence { index: usize, confidence: f32 },
    Deprecate { index: usize, mode: DeprecateMode },
    SetImportance { index: usize, importance: f32 },
    Create { content: String, category: String, expires_in_days: Option<i64> },
    FlagContradiction { indices: [usize; 2], weaker: usize },
}

fn index(a: &Value, key: &str, n: usize) -> Result<usize, String> {
    let i = a.get(key).and_then(Value::as_u64).ok_or_else(|| format!("`{key}` must be a memory index"))? as usize;
    if i >= n {
        return Err(format!("`{key}` {i} is out of range (the snapshot has {n} memories)"));
    }
    Ok(i)
}

fn category(a: &Value) -> Result<String, String> {
    let c = a.get("category").and_then(Value::as_str).ok_or("`category` is missing")?.trim().to_lowercase();
    memory::validate(None, Some(&c), None, None).map_err(|e| e.to_string())?;
    Ok(c)
}

/// Parses `actions` strictly. `allowed` names the action kinds this caller accepts; `n` is the
/// size of the snapshot the indices refer to.
pub fn parse(actions: &Value, allowed: &[&str], n: usize) -> Result<Vec<Action>, String> {
    let list = actions.as_array().ok_or("`actions` must be an array")?;
    if list.len() > MAX_ACTIONS {
        return Err(format!("{} actions proposed; at most {MAX_ACTIONS} may be applied", list.len()));
    }
    let mut out = Vec::with_capacity(list.len());
    let mut removed: Vec<usize> = Vec::new();
    for (k, a) in list.iter().enumerate() {
        let kind = a.get("action").and_then(Value::as_str).unwrap_or("");
        let fail = |e: String| format!("action {k} ({kind}): {e}");
        if !allowed.contains(&kind) {
            return Err(fail(format!("unknown action; expected one of {}", allowed.join(", "))));
        }
        let action = match kind {
            "merge" => {
                let (keep, remove) = (index(a, "keep", n).map_err(fail)?, index(a, "remove", n).map_err(fail)?);
                if keep == remove {
                    return Err(fail("keep and remove are the same memory".into()));
                }
                let content = a.get("content").and_then(Value::as_str).map(str::trim).filter(|c| !c.is_empty());
                if let Some(c) = content {
                    memory::validate(Some(c), None, None, None).map_err(|e| fail(e.to_string()))?;
                }
                Action::Merge { keep, remove, content: content.map(str::to_string) }
            }
            "recategorize" => Action::Recategorize {
                index: index(a, "index", n).map_err(fail)?,
                category: category(a).map_err(fail)?,
            },
            "upgrade_confidence" => {
                let c = a
                    .get("confidence")
                    .and_then(Value::as_f64)
                    .ok_or_else(|| fail("`confidence` is missing".into()))?;
                if !(0.0..=1.0).contains(&c) {
                    return Err(fail(format!("confidence {c} is not between 0 and 1")));
                }
                Action::UpgradeConfidence { index: index(a, "index", n).map_err(fail)?, confidence: c as f32 }
            }
            "deprecate" => {
                let mode = match a.get("mode").and_then(Value::as_str).unwrap_or("mark") {
                    "mark" => DeprecateMode::Mark,
                    "expire" => DeprecateMode::Expire,
                    "delete" => DeprecateMode::Delete,
                    other => return Err(fail(format!("unknown mode `{other}` (mark, expire, delete)"))),
                };
                Action::Deprecate { index: index(a, "index", n).map_err(fail)?, mode }
            }
            "set_importance" => {
                let i = a
                    .get("importance")
                    .and_then(Value::as_f64)
                    .ok_or_else(|| fail("`importance` is missing".into()))?;
                if !(0.0..=10.0).contains(&i) {
                    return Err(fail(format!("importance {i} is not between 0 and 10")));
                }
                Action::SetImportance { index: index(a, "index", n).map_err(fail)?, importance: i as f32 }
            }
            "create" => {
                let content = a.get("content").and_then(Value::as_str).unwrap_or("").trim().to_string();
                memory::validate(Some(&content), None, None, None).map_err(|e| fail(e.to_string()))?;
                let days = match a.get("expires_in_days") {
                    None | Some(Value::Null) => None,
                    Some(d) => Some(d.as_i64().filter(|d| (1..=3650).contains(d)).ok_or_else(|| {
                        fail("`expires_in_days` must be a whole number of days between 1 and 3650".into())
                    })?),
                };
                Action::Create { content, category: category(a).map_err(fail)?, expires_in_days: days }
            }
            "flag_contradiction" => {
                let pair =
                    a.get("indices").and_then(Value::as_array).ok_or_else(|| fail("`indices` is missing".into()))?;
                if pair.len() != 2 {
                    return Err(fail("`indices` must name two memories".into()));
                }
                let idx = |v: &Value| -> Result<usize, String> {
                    let i = v.as_u64().ok_or("indices must be numbers")? as usize;
                    if i >= n { Err(format!("index {i} is out of range")) } else { Ok(i) }
                };
                let indices = [idx(&pair[0]).map_err(fail)?, idx(&pair[1]).map_err(fail)?];
                let weaker = index(a, "weaker", n).map_err(fail)?;
                if indices[0] == indices[1] || !indices.contains(&weaker) {
                    return Err(fail("`weaker` must be one of two different `indices`".into()));
                }
                Action::FlagContradiction { indices, weaker }
            }
            _ => unreachable!("checked against `allowed`"),
        };
        // A memory that an earlier action removed cannot be touched again.
        let touched: Vec<usize> = match &action {
            Action::Merge { keep, remove, .. } => vec![*keep, *remove],
            Action::Recategorize { index, .. }
            | Action::UpgradeConfidence { index, .. }
            | Action::Deprecate { index, .. }
            | Action::SetImportance { index, .. } => vec![*index],
            Action::FlagContradiction { indices, .. } => indices.to_vec(),
            Action::Create { .. } => vec![],
        };
        if let Some(i) = touched.iter().find(|i| removed.contains(i)) {
            return Err(fail(format!("memory {i} was already removed by an earlier action")));
        }
        match &action {
            Action::Merge { remove, .. } => removed.push(*remove),
            Action::Deprecate { index, mode: DeprecateMode::Delete } => removed.push(*index),
            _ => {}
        }
        out.push(action);
    }
    Ok(out)
}

/// An `f32` field as a two-decimal number for logs and pages.
fn round2(x: f32) -> f64 {
    (f64::from(x) * 100.0).round() / 100.0
}

fn internal(e: Error) -> anyhow::Error {
    e.into()
}

/// Who applies actions, and how they are labelled.
pub struct Applying<'a> {
    pub tenant_id: TenantId,
    pub agent_id: AgentId,
    pub origin: &'a Origin,
    /// The activity entries' action (`reflection.action`, `memory_lint_action`).
    pub activity: &'a str,
    /// The memory versions' reason.
    pub reason: &'a str,
}

/// Why an action on a constitutional memory was not applied.
const PROTECTED: &str =
    "pinned and identity memories are never merged, deprecated, deleted or recategorised by reflection or lint";

fn action_name(action: &Action) -> &'static str {
    match action {
        Action::Merge { .. } => "merge",
        Action::Recategorize { .. } => "recategorize",
        Action::UpgradeConfidence { .. } => "upgrade_confidence",
        Action::Deprecate { .. } => "deprecate",
        Action::SetImportance { .. } => "set_importance",
        Action::Create { .. } => "create",
        Action::FlagContradiction { .. } => "flag_contradiction",
    }
}

/// Applies parsed actions to the snapshot's memories in `tx`. Returns what was done.
pub async fn apply(
    tx: &mut PgConnection,
    by: &Applying<'_>,
    snapshot: &[Memory],
    actions: &[Action],
) -> anyhow::Result<Vec<Value>> {
    let Applying { tenant_id, agent_id, origin, activity: activity_action, reason } = *by;
    let mut log = Vec::with_capacity(actions.len());
    let kept = |i: usize| memory::lifecycle::constitutional(snapshot[i].pinned, &snapshot[i].category);
    for action in actions {
        let id = |i: usize| snapshot[i].id;
        let protected = match action {
            Action::Merge { keep, remove, .. } => [*keep, *remove].into_iter().find(|&i| kept(i)),
            Action::Recategorize { index, .. } | Action::Deprecate { index, .. } => Some(*index).filter(|&i| kept(i)),
            _ => None,
        };
        if let Some(i) = protected {
            let detail = json!({ "action": action_name(action), "skipped": PROTECTED, "memory": id(i),
                                 "content": snapshot[i].content });
            activity::record_agent(tx, tenant_id, agent_id, origin, activity_action, detail.clone()).await?;
            log.push(detail);
            continue;
        }
        let detail = match action {
            Action::Merge { keep, remove, content } => {
                let (k, r) = (&snapshot[*keep], &snapshot[*remove]);
                let merged = memory::add_mentions(tx, agent_id, k.id, r.mention_count)
                    .await?
                    .ok_or_else(|| anyhow::anyhow!("memory {} disappeared during the run", k.id))?;
                let why = format!("{reason}: merged with \"{}\"", r.content);
                memory::record_version(tx, &merged, "merge", origin, Some(&why)).await?;
                if let Some(c) = content.as_ref().filter(|c| **c != k.content) {
                    let patch = MemoryPatch { content: Some(c.clone()), ..MemoryPatch::default() };
                    memory::update(tx, agent_id, k.id, origin, patch, Some(&why)).await.map_err(internal)?;
                }
                memory::delete(tx, agent_id, r.id, origin, Some(&format!("{reason}: merged into {}", k.id)))
                    .await
                    .map_err(internal)?;
                json!({ "action": "merge", "keep": k.id, "removed": r.id, "removed_content": r.content })
            }
            Action::Recategorize { index, category } => {
                let patch = MemoryPatch { category: Some(category.clone()), ..MemoryPatch::default() };
                memory::update(tx, agent_id, id(*index), origin, patch, Some(reason)).await.map_err(internal)?;
                json!({ "action": "recategorize", "memory": id(*index), "content": snapshot[*index].content,
                        "from": snapshot[*index].category, "to": category })
            }
            Action::UpgradeConfidence { index, confidence } => {
                let patch = MemoryPatch { confidence: Some(*confidence), ..MemoryPatch::default() };
                memory::update(tx, agent_id, id(*index), origin, patch, Some(reason)).await.map_err(internal)?;
                json!({ "action": "upgrade_confidence", "memory": id(*index), "content": snapshot[*index].content,
                        "from": round2(snapshot[*index].confidence), "to": round2(*confidence) })
            }
            Action::SetImportance { index, importance } => {
                let patch = MemoryPatch { importance: Some(*importance), ..MemoryPatch::default() };
                memory::update(tx, agent_id, id(*index), origin, patch, Some(reason)).await.map_err(internal)?;
                json!({ "action": "set_importance", "memory": id(*index), "content": snapshot[*index].content,
                        "from": round2(snapshot[*index].importance), "to": round2(*importance) })
            }
            Action::Deprecate { index, mode } => {
                match mode {
                    DeprecateMode::Delete => {
                        memory::delete(tx, agent_id, id(*index), origin, Some(reason)).await.map_err(internal)?;
                    }
                    DeprecateMode::Mark | DeprecateMode::Expire => {
                        let patch = MemoryPatch {
                            status: Some(memory::MemoryStatus::Deprecated),
                            expires_at: (*mode == DeprecateMode::Expire).then(|| Some(Utc::now())),
                            ..MemoryPatch::default()
                        };
                        memory::update(tx, agent_id, id(*index), origin, patch, Some(reason))
                            .await
                            .map_err(internal)?;
                    }
                }
                json!({ "action": "deprecate", "memory": id(*index), "mode": mode, "content": snapshot[*index].content })
            }
            Action::Create { content, category, expires_in_days } => {
                let new = NewMemory {
                    expires_at: expires_in_days.map(|d| Utc::now() + Duration::days(d)),
                    ..NewMemory::new(content.clone(), category.clone(), memory::MemorySource::Reflection)
                };
                let m = memory::create(tx, agent_id, origin, new, Some(reason)).await.map_err(internal)?;
                json!({ "action": "create", "memory": m.id, "content": content, "category": category })
            }
            Action::FlagContradiction { indices, weaker } => {
                let other = if indices[0] == *weaker { indices[1] } else { indices[0] };
                // A constitutional memory is doubted, never set to expire: the owner decides.
                let patch = MemoryPatch {
                    confidence: Some(0.3),
                    expires_at: (!kept(*weaker)).then(|| Some(Utc::now() + Duration::days(14))),
                    ..MemoryPatch::default()
                };
                let why = format!("{reason}: contradicts \"{}\"", snapshot[other].content);
                memory::update(tx, agent_id, id(*weaker), origin, patch, Some(&why)).await.map_err(internal)?;
                json!({ "action": "flag_contradiction", "weaker": id(*weaker), "stronger": id(other),
                        "content": snapshot[*weaker].content, "contradicts": snapshot[other].content })
            }
        };
        activity::record_agent(tx, tenant_id, agent_id, origin, activity_action, detail.clone()).await?;
        log.push(detail);
    }
    Ok(log)
}

/// The live memories of an agent as the cycles' models see them (what it learned, not its
/// uploaded knowledge base): newest first, at most `limit`.
pub async fn snapshot(conn: &mut PgConnection, agent_id: AgentId, limit: i64) -> sqlx::Result<Vec<Memory>> {
    memory::recently_updated_learned(conn, agent_id, limit).await
}

/// A snapshot as the memories of a role's input (mentor, compile, lint), in order.
pub fn memories_input(snapshot: &[Memory]) -> Vec<MemoryItem> {
    let now = Utc::now();
    snapshot
        .iter()
        .map(|m| MemoryItem {
            content: m.content.clone(),
            category: m.category.clone(),
            confidence: f64::from(m.confidence),
            mention_count: i64::from(m.mention_count),
            importance: f64::from(m.importance),
            age_days: ((now - m.created_at).num_seconds() as f64 / 86_400.0 * 10.0).round() / 10.0,
            expired: m.expires_at.is_some_and(|e| e <= now),
            pinned: m.pinned,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [&str; 7] =
        ["merge", "recategorize", "upgrade_confidence", "deprecate", "set_importance", "create", "flag_contradiction"];

    #[test]
    fn valid_actions_parse() {
        let v = json!([
            { "action": "merge", "keep": 0, "remove": 1, "content": "The user lives in Vienna" },
            { "action": "upgrade_confidence", "index": 2, "confidence": 0.95 },
            { "action": "create", "content": "The user is preparing a half marathon", "category": "goal", "expires_in_days": 90 },
            { "action": "flag_contradiction", "indices": [2, 3], "weaker": 3 },
        ]);
        let got = parse(&v, &ALL, 4).unwrap();
        assert_eq!(got.len(), 4);
        assert_eq!(got[3], Action::FlagContradiction { indices: [2, 3], weaker: 3 });
    }

    #[test]
    fn anything_invalid_rejects_the_whole_list() {
        let cases = [
            json!([{ "action": "teleport", "index": 0 }]),
            json!([{ "action": "deprecate", "index": 9 }]),
            json!([{ "action": "upgrade_confidence", "index": 0, "confidence": 3 }]),
            json!([{ "action": "merge", "keep": 0, "remove": 0 }]),
            json!([{ "action": "merge", "keep": 0, "remove": 1 }, { "action": "recategorize", "index": 1, "category": "goal" }]),
            json!([{ "action": "recategorize", "index": 0, "category": "Not A Category" }]),
            json!([{ "action": "flag_contradiction", "indices": [0, 1], "weaker": 2 }]),
            json!({ "action": "merge" }),
        ];
        for c in cases {
            assert!(parse(&c, &ALL, 3).is_err(), "{c}");
        }
        let many: Vec<Value> =
            (0..51).map(|_| json!({ "action": "set_importance", "index": 0, "importance": 5 })).collect();
        assert!(parse(&json!(many), &ALL, 1).unwrap_err().contains("at most 50"));
        // A caller that does not allow an action refuses it.
        assert!(parse(&json!([{ "action": "create", "content": "x", "category": "goal" }]), &["merge"], 1).is_err());
    }
}
