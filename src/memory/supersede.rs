//! Supersession (SPEC R7, X3 `updates`): a new memory that gives a slot an older one fills a new
//! value ("we moved, I live in Lisbon now" after "I live in Porto") replaces it. The new memory
//! gets an `updates` relation to the old one, and the old one gets `invalid_at`: search and chat
//! see only the current value, while the old one stays readable with its history and through the
//! relation ("what was it before?").
//!
//! The detector is offline and explainable: both statements must speak of the same slot (a
//! single-valued one such as where the user lives, their job, a favourite thing, a dated
//! appointment), the new one must bring a value the old one lacks, and it must not be additive
//! ("I also ..."), hypothetical ("I'd love to live in ...") or about the past ("I used to ...").
//! Slots that hold one thing of many kinds (a favourite band and a favourite food; the dentist
//! and the hairdresser) need a shared object word besides the slot's own words. Every write path
//! runs it (API, bulk, extraction); where a `dedup` model is configured, extraction also follows
//! its `update` decisions (`link`).

use crate::ids::{AgentId, MemoryId};
use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use sqlx::PgConnection;
use utoipa::ToSchema;

use super::{Memory, MemorySource, terms, vector};
use crate::activity::Origin;
use crate::error::ApiError;

/// A slot: the words that name it, and whether one such slot exists per object ("favourite"
/// needs "band" or "food" in both statements) or per user ("where I live").
struct Slot {
    name: &'static str,
    pattern: Regex,
    per_object: bool,
    /// Without a stated change, a shared object is needed (a job has a title and an employer).
    needs_change: bool,
}

static SLOTS: LazyLock<Vec<Slot>> = LazyLock::new(|| {
    let s = |name, p: &str, per_object| Slot {
        name,
        pattern: Regex::new(p).expect("static pattern"),
        per_object,
        needs_change: name == "work",
    };
    vec![
        s("home", r"\b(live|lives|living|moved|moving|relocat\w*|based in|settled in)\b", false),
        s(
            "work",
            r"\b(work(s|ing)? (at|for|as)|job|employer|hired|quit|joined|new position|employed|gig as|started at)\b",
            false,
        ),
        s("name", r"\b(name is|named|called|call me|goes by)\b", true),
        s(
            "partner",
            r"\b(partner|girlfriend|boyfriend|wife|husband|fianc[eé]e?|dating|seeing someone|broke up|split up|married)\b",
            false,
        ),
        s("favourite", r"\b(favou?rite|go-to|top pick)\b", true),
        s(
            "appointment",
            r"\b(appointment|dentist|doctor|check-?up|visit|meeting|interview|flight|booked|scheduled|rescheduled|postponed|pushed (?:back|to)|on (mon|tues|wednes|thurs|fri|satur|sun)day)\b",
            true,
        ),
        s("diet", r"\b(vegetarian|vegan|pescatarian|diet|keto|gluten|eat(ing)? meat|dairy)\b", false),
        s("vehicle", r"\b(car|drive|drives|driving|motorbike|scooter|e-?bike)\b", true),
        s("commute", r"\b(commute|commuting)\b", false),
        s("age", r"\b(years old|turned \d+|birthday)\b", true),
        s("phone", r"\b(phone|iphone|android|pixel)\b", false),
        s("budget", r"\b(budget|salary|rent|paid|earn|saving for)\b", true),
        s(
            "routine",
            r"\b(every (morning|evening|night|day|week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|routine|gym)\b",
            true,
        ),
    ]
});

/// Words that say the new statement changes something.
static CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(now|anymore|any more|no longer|not .{0,30} anymore|moved|switched|changed|replaced|instead|rescheduled|postponed|pushed|quit|left|sold|broke up|split up|actually|these days|nowadays|turns out|from now on|new|stopped|cancell?ed|upgraded|gave up|given up|cleared|renewed|overtaken|bumped|handed in|finally|no more|not any ?more)\b",
    )
    .expect("static pattern")
});
/// Words that add a second value rather than replace the first.
static ADDITIVE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(also|another|as well|in addition|besides|too)\b").expect("static pattern"));
/// Words that make a statement a wish or a possibility, not a fact.
static HYPOTHETICAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(someday|some day|one day|would love|'d love|wish (?:i|to)|dream|maybe|hope to|want to|wanna|thinking about|considering|if i)\b")
        .expect("static pattern")
});
/// Words that put a statement in the past.
static PAST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(used to|previously|before that|back then|years ago|as a kid|when i was|growing up|in the past)\b")
        .expect("static pattern")
});
/// Strong change words that outweigh an additive one ("I also quit my job").
static STRONG_CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(no longer|anymore|replaced|instead|rescheduled|postponed|quit|sold|broke up|switched)\b")
        .expect("static pattern")
});

/// Terms that never count as a shared object: they belong to a slot's own vocabulary.
static SLOT_TERMS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    terms::terms(
        "live lives living moved moving relocated based settled work works working job employer hired quit joined \
         position employed gig started name named called call goes partner girlfriend boyfriend wife husband fiance \
         fiancee dating seeing someone broke split married favourite favorite go-to top pick appointment booked \
         scheduled rescheduled postponed pushed diet eat eating car drive drives driving commute commuting years old turned birthday phone budget salary rent paid earn saving every \
         morning evening night day week weekend routine gym now anymore longer switched changed replaced instead sold \
         actually days nowadays turns new user really",
    )
    .into_iter()
    .collect()
});

/// Terms that can be a new value but never a shared object: pronouns, dates and times, and
/// words too common to name a thing.
static GENERIC_TERMS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    terms::terms(
        "i'm i've i'd i'll it's that's he's she's that this his her him she he it they them their something thing \
         things month months week weeks day year years time times most just get got go going one help back still \
         first last next since until monday tuesday wednesday thursday friday saturday sunday january february \
         march april may june july august september october november december morning evening night",
    )
    .into_iter()
    .collect()
});

/// A statement about someone else ("my sister lives in Lisbon", "Raj's birthday is ..."): its
/// slot words are about them, not about the user.
static THIRD_PARTY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\W*(?:\w+\W+){0,2}?(?:(?i:my|our) (?:(?i:older|younger|little|big|best|new|old) )?",
        r"(?i:sister|brother|mum|mom|dad|father|mother|nan|gran|grandma|grandpa|grandad|friend|boss|manager|colleague|",
        r"cousin|aunt|uncle|niece|nephew|neighbour|neighbor|son|daughter|kids?|",
        r"dog|cat|flatmate|housemate|landlord|landlady)\b|[A-Z][\w-]+'s\b)"
    ))
    .expect("static pattern")
});

fn about_someone_else(text: &str) -> bool {
    THIRD_PARTY.is_match(text.trim_start_matches(|c: char| !c.is_alphanumeric()))
}

/// Why one statement updates another, for the relation and the version history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub slot: &'static str,
    pub reason: String,
    /// Words naming the same thing in both (not slot words, dates or pronouns).
    pub shared: usize,
}

fn lower(text: &str) -> String {
    text.to_lowercase().replace(['’', '‘'], "'")
}

/// Whether `new` gives a slot `old` fills a new value. `cosine` is their similarity when both
/// have vectors of one model (a weak "same topic" hint; the slot words decide).
pub fn judge(old: &str, new: &str, cosine: Option<f64>) -> Option<Verdict> {
    let (o, n) = (lower(old), lower(new));
    if HYPOTHETICAL.is_match(&n) != HYPOTHETICAL.is_match(&o) || PAST.is_match(&n) {
        return None;
    }
    if ADDITIVE.is_match(&n) && !STRONG_CHANGE.is_match(&n) {
        return None;
    }
    let (old_terms, new_terms): (HashSet<String>, HashSet<String>) =
        (terms::terms(&o).into_iter().collect(), terms::terms(&n).into_iter().collect());
    // A new value: a word the old statement does not have, other than the slot's own words.
    let fresh: Vec<&String> = new_terms.difference(&old_terms).filter(|t| !SLOT_TERMS.contains(*t)).collect();
    if fresh.is_empty() {
        return None;
    }
    let shared_objects: Vec<&String> = new_terms
        .intersection(&old_terms)
        .filter(|t| {
            !SLOT_TERMS.contains(*t) && !GENERIC_TERMS.contains(*t) && !t.starts_with(|c: char| c.is_ascii_digit())
        })
        .collect();
    let changed = CHANGE.is_match(&n);
    let value = fresh.iter().take(3).map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
    let object = shared_objects.first().map(|o| format!(", same object ({o})")).unwrap_or_default();
    let change = if changed { ", stated as a change" } else { "" };
    // Slot words speak of the user only when both statements do; about someone else, the
    // same person must be named and a change stated.
    let (old_other, new_other) = (about_someone_else(old), about_someone_else(new));
    let slots_apply = old_other == new_other && (!new_other || (changed && !shared_objects.is_empty()));
    for slot in SLOTS.iter().filter(|_| slots_apply) {
        if !(slot.pattern.is_match(&o) && slot.pattern.is_match(&n)) {
            continue;
        }
        let needs_object = slot.per_object || (slot.needs_change && !changed);
        if needs_object && shared_objects.is_empty() && !(changed && cosine.is_some_and(|c| c >= SAME_TOPIC)) {
            continue;
        }
        let reason = format!("same slot ({}){object}, new value ({value}){change}", slot.name);
        return Some(Verdict { slot: slot.name, reason, shared: shared_objects.len() });
    }
    // No slot word in common, but the newer statement says something changed, about the same
    // thing (a shared name or noun, and the vectors agree), or in nearly the same words.
    if changed {
        let close = cosine.is_some_and(|c| c >= CHANGED_SAME_OBJECT);
        let very_close = cosine.is_some_and(|c| c >= SAME_TOPIC);
        if (!shared_objects.is_empty() && close) || (shared_objects.len() >= 2 && cosine.is_none()) || very_close {
            let reason = format!("same topic{object}, new value ({value}){change}");
            return Some(Verdict { slot: "topic", reason, shared: shared_objects.len() });
        }
    }
    None
}

/// Cosine (MiniLM) above which two statements are about the same thing even without a shared
/// slot word, when the newer says it changes something.
const SAME_TOPIC: f64 = 0.65;
/// Cosine above which a shared object and a change marker are enough.
const CHANGED_SAME_OBJECT: f64 = 0.5;

/// Creates a memory, then lets it replace the memories it updates: the write path of user facts
/// (API, bulk, dashboard, extraction). Returns the memory and the ids it replaced.
pub async fn create_current(
    conn: &mut PgConnection,
    agent_id: AgentId,
    origin: &Origin,
    new: super::NewMemory,
    reason: Option<&str>,
) -> Result<(Memory, Vec<MemoryId>), ApiError> {
    let vector = new.embedding.as_ref().map(|(v, _)| v.clone());
    let memory = super::create(conn, agent_id, origin, new, reason).await?;
    let replaced = after_write(conn, agent_id, origin, &memory, vector.as_deref()).await?;
    Ok((memory, replaced))
}

/// One relation of a memory as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Related {
    /// `updates`, `extends` or `derives`.
    pub kind: String,
    /// `outgoing`: this memory updates/extends/derives from the other; `incoming`: the other
    /// does so from this one.
    pub direction: String,
    pub reason: Option<String>,
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub memory: Memory,
}

/// How many live memories near the new one are compared with it.
const CANDIDATES: i64 = 8;
/// Neighbours less similar than this are about something else.
const MIN_COSINE: f64 = 0.3;

/// Runs the detector for a memory just written: the nearest live memory of the user-fact
/// categories (or, without a vector, of those sharing its rarest words) that it updates is
/// invalidated and linked. Owner and API memories are authoritative: a memory learned from
/// conversation never replaces one of theirs; pinned memories are never replaced. Returns the
/// replaced ids.
pub async fn after_write(
    conn: &mut PgConnection,
    agent_id: AgentId,
    origin: &Origin,
    new: &Memory,
    vector: Option<&[f32]>,
) -> Result<Vec<MemoryId>, ApiError> {
    if !is_fact_category(&new.category) || new.knowledge_id.is_some() {
        return Ok(Vec::new());
    }
    let candidates: Vec<(MemoryId, Option<f64>)> = match (vector, &new.embedding_model) {
        (Some(v), Some(model)) => {
            let f = vector::Filters { categories: USER_FACTS.map(String::from).to_vec(), ..vector::Filters::default() };
            vector::nearest(conn, agent_id, model, v, CANDIDATES + 1, &f)
                .await?
                .into_iter()
                .filter(|(id, sim)| *id != new.id && *sim >= MIN_COSINE)
                .map(|(id, sim)| (id, Some(sim)))
                .collect()
        }
        _ => terms::bm25(conn, agent_id, &terms::terms(&new.content), None, CANDIDATES + 1)
            .await?
            .into_iter()
            .filter(|(id, _)| *id != new.id)
            .map(|(id, _)| (id, None))
            .collect(),
    };
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<MemoryId> = candidates.iter().map(|(id, _)| *id).collect();
    let olds = super::query_memories!(
        "SELECT",
        "FROM agent_memories WHERE agent_id = $1 AND id = ANY($2) AND status = 'active' AND invalid_at IS NULL
            AND NOT pinned AND created_at <= $3",
        agent_id as _,
        &ids as &[MemoryId],
        new.created_at
    )
    .fetch_all(&mut *conn)
    .await?;
    let learned = !authoritative(new.source);
    // A statement gives one slot a new value: of the memories it could update, the one with a
    // shared slot word first, then the most words naming the same thing, then the nearest.
    let mut judged: Vec<(Verdict, f64, MemoryId)> = Vec::new();
    for (id, cosine) in &candidates {
        let Some(old) = olds.iter().find(|m| m.id == *id) else { continue };
        if !is_fact_category(&old.category) || (learned && authoritative(old.source)) {
            continue;
        }
        if let Some(v) = judge(&old.content, &new.content, *cosine) {
            judged.push((v, cosine.unwrap_or(0.0), old.id));
        }
    }
    let best = judged.into_iter().max_by(|a, b| {
        (a.0.slot != "topic", a.0.shared).cmp(&(b.0.slot != "topic", b.0.shared)).then(a.1.total_cmp(&b.1))
    });
    match best {
        Some((v, _, old)) => {
            link(conn, agent_id, origin, new.id, old, &v.reason).await?;
            Ok(vec![old])
        }
        None => Ok(Vec::new()),
    }
}

/// `new` replaces `old` (a model's `update` decision, or the detector's): the relation, then
/// `old` leaves search, its version history naming the newer memory.
pub async fn link(
    conn: &mut PgConnection,
    agent_id: AgentId,
    origin: &Origin,
    new: MemoryId,
    old: MemoryId,
    reason: &str,
) -> Result<(), ApiError> {
    sqlx::query!(
        "INSERT INTO memory_relations (agent_id, from_id, to_id, kind, reason) VALUES ($1, $2, $3, 'updates', $4)
         ON CONFLICT DO NOTHING",
        agent_id as _,
        new as _,
        old as _,
        reason
    )
    .execute(&mut *conn)
    .await?;
    super::invalidate(conn, agent_id, old, origin, &format!("updated by memory {new}: {reason}")).await?;
    Ok(())
}

/// What the owner or a miniapp wrote: only they replace it.
pub fn authoritative(source: MemorySource) -> bool {
    matches!(source, MemorySource::Owner | MemorySource::Api)
}

/// The categories of facts about the user: the ones a newer value can replace.
const USER_FACTS: [&str; 5] = super::Category::names(super::Category::USER_FACTS);

/// Makes a replaced or contradicted memory current again: when the detector (or a model) was
/// wrong, or the old value holds once more. Its `updates` relations go; the memory that replaced
/// it stays, since both may be true. 409 when the memory is current already.
pub async fn restore(
    conn: &mut PgConnection,
    agent_id: AgentId,
    id: MemoryId,
    origin: &Origin,
    reason: Option<&str>,
) -> Result<Memory, ApiError> {
    let before = super::get_for_update(conn, agent_id, id).await?;
    if before.invalid_at.is_none() {
        return Err(ApiError::Conflict("the memory is current: nothing was replaced or contradicted".into()));
    }
    let after = super::query_memories!(
        "UPDATE agent_memories SET invalid_at = NULL, updated_at = now() WHERE agent_id = $1 AND id = $2 RETURNING",
        "",
        agent_id as _,
        id as _
    )
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query!(
        "DELETE FROM memory_relations WHERE agent_id = $1 AND to_id = $2 AND kind = 'updates'",
        agent_id as _,
        id as _
    )
    .execute(&mut *conn)
    .await?;
    super::terms::sync(conn, &after).await?;
    super::record_version(conn, &after, "restore", origin, reason.or(Some("made current again"))).await?;
    Ok(after)
}

fn is_fact_category(category: &str) -> bool {
    USER_FACTS.contains(&category)
}

/// A memory with its relations.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Relations {
    pub memory: Memory,
    /// Newest first, at most `RELATIONS_MAX`.
    pub relations: Vec<Related>,
    /// Whether the memory has more relations than were listed.
    pub truncated: bool,
}

/// Most relations listed for one memory.
pub const RELATIONS_MAX: i64 = 200;

/// Every relation of a memory, both ways, newest first.
pub async fn relations(pool: &sqlx::PgPool, agent_id: AgentId, id: MemoryId) -> Result<Relations, ApiError> {
    let memory = super::get(pool, agent_id, id).await?;
    let rows = sqlx::query!(
        r#"SELECT from_id AS "from_id: MemoryId", to_id AS "to_id: MemoryId", kind, reason, created_at
             FROM memory_relations WHERE agent_id = $1 AND (from_id = $2 OR to_id = $2)
            ORDER BY created_at DESC, kind LIMIT $3"#,
        agent_id as _,
        id as _,
        RELATIONS_MAX + 1
    )
    .fetch_all(pool)
    .await?;
    let truncated = rows.len() as i64 > RELATIONS_MAX;
    let rows: Vec<_> = rows.into_iter().take(RELATIONS_MAX as usize).collect();
    let others: Vec<MemoryId> = rows.iter().map(|r| if r.from_id == id { r.to_id } else { r.from_id }).collect();
    let memories = super::query_memories!(
        "SELECT",
        "FROM agent_memories WHERE agent_id = $1 AND id = ANY($2)",
        agent_id as _,
        &others as &[MemoryId]
    )
    .fetch_all(pool)
    .await?;
    let relations = rows
        .into_iter()
        .zip(others)
        .filter_map(|(r, other)| {
            let memory = memories.iter().find(|m| m.id == other)?.clone();
            Some(Related {
                kind: r.kind,
                direction: if r.from_id == id { "outgoing" } else { "incoming" }.into(),
                reason: r.reason,
                created_at: r.created_at,
                memory,
            })
        })
        .collect();
    Ok(Relations { memory, relations, truncated })
}

/// For each memory, the contents it replaced, newest first: what the value was before.
pub async fn previous_values(
    conn: &mut PgConnection,
    agent_id: AgentId,
    ids: &[MemoryId],
) -> sqlx::Result<Vec<(MemoryId, String)>> {
    Ok(sqlx::query!(
        r#"SELECT r.from_id AS "from_id: MemoryId", m.content
             FROM memory_relations r JOIN agent_memories m ON m.id = r.to_id
            WHERE r.agent_id = $1 AND r.from_id = ANY($2) AND r.kind = 'updates'
            ORDER BY m.created_at DESC"#,
        agent_id as _,
        ids as &[MemoryId]
    )
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .map(|r| (r.from_id, r.content))
    .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn updates(old: &str, new: &str) -> bool {
        judge(old, new, None).is_some()
    }

    #[test]
    fn a_changed_value_of_one_slot_updates_it() {
        assert!(updates("I live in Porto.", "We moved again, I live in Lisbon now."));
        assert!(updates("I work at Acme as a designer.", "I quit Acme, now I work at Globex."));
        assert!(updates("My favourite band is Radiohead.", "Wilco has replaced Radiohead as my favourite band."));
        assert!(updates("The dentist appointment is on March 3.", "Actually the dentist moved to Thursday."));
        assert!(updates("I'm vegetarian.", "I switched to a vegan diet last month."));
        assert!(updates("My girlfriend is Mia.", "Mia and I broke up; I'm dating Sam now."));
    }

    #[test]
    fn additions_wishes_the_past_and_other_objects_do_not() {
        // a second value of a slot that holds many
        assert!(!updates("I love hiking.", "I also love climbing."));
        assert!(!updates("The user likes jazz", "The user likes hiking"));
        // different objects of a per-object slot
        assert!(!updates("My favourite band is Radiohead.", "My favourite food is ramen."));
        assert!(!updates("The dentist appointment is on March 3.", "I have a haircut booked for Friday."));
        // a wish, and the past
        assert!(!updates("I live in Porto.", "I'd love to live in Japan someday."));
        assert!(!updates("I work at Globex.", "I used to work at a bakery when I was a student."));
        // the same statement again
        assert!(!updates("I live in Porto.", "I live in Porto!"));
        // unrelated
        assert!(!updates("I live in Porto.", "My dog is called Rex."));
        // someone else's slot
        assert!(!updates("I live in Manchester.", "My nan is 88 and lives in a care home in Stockport."));
        assert!(!updates("I've been vegetarian for years.", "It was Biscuit's birthday, he got a vegan sausage."));
        // a job has an employer and a title: one does not replace the other
        assert!(!updates("I work at Halden Logistics.", "My job title is data analyst."));
        // dates and pronouns are not a shared object
        assert!(!updates(
            "I'm sitting the AWS exam on Tuesday 29 April.",
            "I've booked an eye test for Tuesday 8 April."
        ));
    }

    #[test]
    fn the_reason_names_the_slot_and_the_value() {
        let v = judge("I live in Porto.", "I live in Lisbon now.", Some(0.7)).unwrap();
        assert_eq!(v.slot, "home");
        assert!(v.reason.contains("lisbon") && v.reason.contains("change"), "{}", v.reason);
    }
}
