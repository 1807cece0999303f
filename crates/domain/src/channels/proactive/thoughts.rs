//! Inner thoughts (seed 000 §5.4.2): once a session has ended (no owner message for 30
//! minutes), at most every six hours, the owner's own words become follow-ups, to-dos and
//! reminders (zero model calls), acted on like the scanner's findings; while the owner seems
//! distressed they are kept, held back, with the reason.

use chrono::{DateTime, Duration, Utc};

use super::found::{Found, one_line};
use super::scan::{AgentRow, Verdict, act};
use super::timing::Day;
use miniclaw_core::ids::AgentId;

/// A session has ended when the owner has not written for this long.
pub const SESSION_GAP_MINUTES: i64 = 30;
/// At most one round of inner thoughts per agent in this many hours.
pub const THOUGHT_COOLDOWN_HOURS: i64 = 6;

/// A session's follow-ups and to-dos, from the owner's own words (zero model calls).
pub fn thoughts_of(text: &str) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for sentence in text.split(['.', '!', '?', '\n']).map(str::trim).filter(|s| s.len() > 3) {
        let lower = sentence.to_lowercase();
        if let Some(rest) = after_any(&lower, sentence, &["remind me to ", "remind me "]) {
            out.push(("reminder", capitalised(rest)));
        } else if let Some(rest) = after_any(&lower, sentence, &["i need to ", "i have to ", "i must ", "i should "]) {
            out.push(("todo", capitalised(rest)));
        } else if [
            " tomorrow",
            " tonight",
            " next week",
            " this weekend",
            " on monday",
            " on tuesday",
            " on wednesday",
            " on thursday",
            " on friday",
            " on saturday",
            " on sunday",
        ]
        .iter()
        .any(|w| format!(" {lower}").contains(w))
            && (lower.starts_with("i ")
                || lower.starts_with("i'm ")
                || lower.starts_with("my ")
                || lower.contains(" i have "))
        {
            out.push(("follow_up", one_line(sentence, 200)));
        }
    }
    out
}

fn after_any<'a>(lower: &str, original: &'a str, markers: &[&str]) -> Option<&'a str> {
    markers.iter().find_map(|m| lower.find(m).map(|i| original[i + m.len()..].trim())).filter(|r| r.len() > 2)
}

/// A task title from the owner's words (tasks take 200 characters at most).
fn capitalised(s: &str) -> String {
    let s = one_line(s, 180);
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => s,
    }
}

/// Inner thoughts over the session that ended (no owner message for 30 minutes), with the
/// cooldown; suppressed, and said so, while the owner seems distressed. Returns how many
/// thoughts were stored.
pub(super) async fn inner_thoughts(
    pool: &sqlx::PgPool,
    agent: AgentId,
    a: &AgentRow,
    day: &Day,
    now: DateTime<Utc>,
    distressed: bool,
) -> anyhow::Result<usize> {
    let mut tx = pool.begin().await?;
    let last =
        sqlx::query_scalar!("SELECT last_thought_at FROM agent_proactive WHERE agent_id = $1 FOR UPDATE", agent as _)
            .fetch_one(&mut *tx)
            .await?;
    if last.is_some_and(|t| t > now - Duration::hours(THOUGHT_COOLDOWN_HOURS)) {
        return Ok(0);
    }
    let after = last.unwrap_or(now - Duration::days(2));
    let messages = crate::chat::records::owner_messages(&mut tx, agent, Some(after), now, 50).await?;
    let Some(newest) = messages.last() else { return Ok(0) };
    if newest.created_at > now - Duration::minutes(SESSION_GAP_MINUTES) {
        return Ok(0); // the session is still going
    }
    let mut stored = 0;
    for m in &messages {
        for (i, (signal, description)) in thoughts_of(&m.content).into_iter().enumerate() {
            let f = Found {
                signal,
                description,
                due_in_hours: None,
                age_days: None,
                dedup_key: format!("thought:{}:{i}", m.id),
                conversation_id: Some(m.conversation_id),
                said_at: Some(m.created_at),
            };
            let hold = distressed.then_some("the owner seems distressed: no unprompted suggestions for now");
            let verdict =
                Verdict { justification: "from the owner's own words in the last session", hold, ..Verdict::default() };
            if act(&mut tx, agent, a, day, now, &f, verdict).await?.is_some() {
                stored += 1;
            }
        }
    }
    sqlx::query!(
        "UPDATE agent_proactive SET last_thought_at = $2, updated_at = now() WHERE agent_id = $1",
        agent as _,
        now
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_owners_words_become_follow_ups_todos_and_reminders() {
        let t =
            thoughts_of("I have a job interview tomorrow. Remind me to call the dentist! I need to renew my passport.");
        assert_eq!(
            t,
            vec![
                ("follow_up", "I have a job interview tomorrow".to_string()),
                ("reminder", "Call the dentist".to_string()),
                ("todo", "Renew my passport".to_string()),
            ]
        );
        assert!(thoughts_of("The weather is nice. What is the capital of Peru?").is_empty());
    }
}
