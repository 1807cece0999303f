//! Affect (SPEC X6, 000 §5.2): how each message reads, without a model, and the mood it adds
//! up to.
//!
//! - **Valence** is VADER's compound score (−1..1): its lexicon, negation ("not good"),
//!   boosters and dampeners ("very", "kind of"), capitals, exclamation marks and emoji.
//! - **Arousal** (0..1) comes from an energy word list (high: furious, thrilled, panicking;
//!   low: tired, calm, bored), exclamation marks, capitals and the strength of the valence.
//! - The **label** is the region of Russell's circumplex the two fall in: happy, excited,
//!   calm, content, sad, angry, anxious, frustrated or neutral.
//! - The **mood** smooths valence and arousal with two exponential moving averages over
//!   irregular time, `w = 1 − 2^(−Δt / half-life)`: a fast one (2 hours, the session) and a
//!   slow one (3 days, the baseline). The fast one falling well below the slow one marks
//!   **distress**.
//!
//! The chat prompt gets it as an observation block: what was observed, never an instruction.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};

use miniclaw_core::ids::AgentId;
use qsv_vader_sentiment_analysis::SentimentIntensityAnalyzer;
use serde::Serialize;
use utoipa::ToSchema;

/// Half-lives of the fast and the slow average.
pub const FAST_HALF_LIFE_HOURS: f64 = 2.0;
pub const SLOW_HALF_LIFE_HOURS: f64 = 72.0;
/// Distress: the fast valence this far below the slow one, and negative.
pub const DISTRESS_GAP: f64 = 0.3;
pub const DISTRESS_BELOW: f64 = -0.2;
/// Valence closer to zero than this is neither positive nor negative.
const NEUTRAL_BAND: f64 = 0.05;

static ANALYZER: LazyLock<SentimentIntensityAnalyzer<'static>> = LazyLock::new(SentimentIntensityAnalyzer::new);

const HIGH_AROUSAL: &[&str] = &[
    "furious",
    "angry",
    "rage",
    "livid",
    "outraged",
    "excited",
    "thrilled",
    "ecstatic",
    "amazing",
    "awesome",
    "wow",
    "panic",
    "panicking",
    "panicked",
    "terrified",
    "scared",
    "afraid",
    "anxious",
    "nervous",
    "stressed",
    "worried",
    "frantic",
    "desperate",
    "hate",
    "love",
    "can't wait",
    "omg",
    "shocked",
    "urgent",
    "freaking",
    "overwhelmed",
    "exhilarated",
    "pumped",
    "buzzing",
    "screaming",
    "fuming",
    "annoyed",
    "irritated",
    "frustrated",
    "hyped",
];
const LOW_AROUSAL: &[&str] = &[
    "tired",
    "exhausted",
    "sleepy",
    "calm",
    "relaxed",
    "bored",
    "peaceful",
    "chill",
    "quiet",
    "content",
    "lonely",
    "sad",
    "down",
    "drained",
    "meh",
    "numb",
    "empty",
    "mellow",
    "cozy",
    "cosy",
    "lazy",
    "serene",
    "resting",
];
const ANGER: &[&str] =
    &["angry", "furious", "rage", "livid", "outraged", "hate", "fuming", "pissed", "mad at", "sick of", "fed up"];
const FEAR: &[&str] = &[
    "anxious",
    "nervous",
    "scared",
    "afraid",
    "terrified",
    "worried",
    "panic",
    "panicking",
    "dread",
    "stressed",
    "overwhelmed",
    "freaking out",
];

/// How one message reads.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct Reading {
    /// −1 (most negative) to 1 (most positive).
    pub valence: f64,
    /// 0 (low energy) to 1 (high energy).
    pub arousal: f64,
    /// happy, excited, calm, content, sad, angry, anxious, frustrated or neutral.
    pub label: &'static str,
}

fn has(text: &str, words: &[&str]) -> usize {
    words
        .iter()
        .filter(|w| {
            text.match_indices(*w).any(|(i, _)| {
                let before = text[..i].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
                let after = text[i + w.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
                before && after
            })
        })
        .count()
}

/// How `text` reads.
pub fn read(text: &str) -> Reading {
    let valence = ANALYZER.polarity_scores(text).get("compound").copied().unwrap_or(0.0).clamp(-1.0, 1.0);
    let lower = text.to_lowercase();
    let (high, low) = (has(&lower, HIGH_AROUSAL) as f64, has(&lower, LOW_AROUSAL) as f64);
    let bangs = text.matches('!').count().min(3) as f64;
    let letters: Vec<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
    let shouting = letters.len() >= 6 && letters.iter().filter(|c| c.is_uppercase()).count() * 10 >= letters.len() * 7;
    let arousal =
        (0.35 + 0.2 * high - 0.2 * low + 0.08 * bangs + if shouting { 0.2 } else { 0.0 } + 0.2 * valence.abs())
            .clamp(0.0, 1.0);
    Reading { valence, arousal, label: label(valence, arousal, &lower) }
}

/// The circumplex region of a valence and an arousal; `text` tells anger from fear.
pub fn label(valence: f64, arousal: f64, text: &str) -> &'static str {
    if valence.abs() < NEUTRAL_BAND {
        return if arousal < 0.25 { "calm" } else { "neutral" };
    }
    if valence > 0.0 {
        return match arousal {
            a if a >= 0.7 => "excited",
            a if a >= 0.45 => "happy",
            _ if valence >= 0.5 => "content",
            _ => "calm",
        };
    }
    if arousal < 0.45 {
        return "sad";
    }
    if has(text, ANGER) > 0 {
        "angry"
    } else if has(text, FEAR) > 0 {
        "anxious"
    } else {
        "frustrated"
    }
}

/// The smoothed mood of one speaker.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, ToSchema)]
pub struct Mood {
    pub fast_valence: f64,
    pub slow_valence: f64,
    pub fast_arousal: f64,
    pub slow_arousal: f64,
    /// The label of the fast averages.
    pub label: String,
    pub distress: bool,
    pub messages: i64,
    pub observed_at: DateTime<Utc>,
}

/// The weight of a new observation `hours` after the previous one, for a half-life.
pub fn weight(hours: f64, half_life: f64) -> f64 {
    1.0 - 0.5f64.powf(hours.max(0.0) / half_life)
}

/// The mood after `reading` at `at`, from the previous one (`None`: the first message).
pub fn update(previous: Option<&Mood>, reading: &Reading, at: DateTime<Utc>) -> Mood {
    let (fv, sv, fa, sa, n) = match previous {
        None => (reading.valence, reading.valence, reading.arousal, reading.arousal, 0),
        Some(p) => {
            let hours = (at - p.observed_at).num_milliseconds() as f64 / 3_600_000.0;
            let (wf, ws) = (weight(hours, FAST_HALF_LIFE_HOURS), weight(hours, SLOW_HALF_LIFE_HOURS));
            // A burst of messages still moves the averages: at least a small step each.
            let (wf, ws) = (wf.max(0.2), ws.max(0.02));
            (
                wf * reading.valence + (1.0 - wf) * p.fast_valence,
                ws * reading.valence + (1.0 - ws) * p.slow_valence,
                wf * reading.arousal + (1.0 - wf) * p.fast_arousal,
                ws * reading.arousal + (1.0 - ws) * p.slow_arousal,
                p.messages,
            )
        }
    };
    Mood {
        fast_valence: fv,
        slow_valence: sv,
        fast_arousal: fa,
        slow_arousal: sa,
        label: {
            // Anger and fear are told apart by words; the averages keep the latest message's.
            let l = label(fv, fa, "");
            if l == "frustrated" && matches!(reading.label, "angry" | "anxious") { reading.label } else { l }
        }
        .to_string(),
        distress: fv < sv - DISTRESS_GAP && fv < DISTRESS_BELOW,
        messages: n + 1,
        observed_at: at,
    }
}

/// One speaker's mood with an agent, as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SpeakerMood {
    /// `owner`, `api` (a key without an end user) or `user:<end user>`.
    pub speaker: String,
    pub mood: Mood,
}

/// The agent's speakers' moods, the most recently heard first (at most `MOODS_MAX`); `only`
/// keeps one speaker.
pub async fn moods(pool: &sqlx::PgPool, agent_id: AgentId, only: Option<&str>) -> sqlx::Result<Moods> {
    let rows = sqlx::query!(
        r#"SELECT speaker, fast_valence, slow_valence, fast_arousal, slow_arousal, label, distress, messages, observed_at
             FROM affect_states WHERE agent_id = $1 AND ($2::text IS NULL OR speaker = $2)
            ORDER BY observed_at DESC LIMIT $3"#,
        agent_id as _,
        only,
        MOODS_MAX + 1
    )
    .fetch_all(pool)
    .await?;
    let truncated = rows.len() as i64 > MOODS_MAX;
    let speakers = rows
        .into_iter()
        .take(MOODS_MAX as usize)
        .map(|r| SpeakerMood {
            speaker: r.speaker,
            mood: Mood {
                fast_valence: r.fast_valence,
                slow_valence: r.slow_valence,
                fast_arousal: r.fast_arousal,
                slow_arousal: r.slow_arousal,
                label: r.label,
                distress: r.distress,
                messages: r.messages,
                observed_at: r.observed_at,
            },
        })
        .collect();
    Ok(Moods { speakers, truncated })
}

/// The speaker name of the agent's owner writing in person.
pub const OWNER: &str = "owner";

/// The owner's mood with the agent, if they ever wrote to it: the one mood the chat prompt,
/// the proactive scan, the wisdom engine and reflection all read.
pub async fn owner_mood(pool: &sqlx::PgPool, agent_id: AgentId) -> sqlx::Result<Option<Mood>> {
    Ok(moods(pool, agent_id, Some(OWNER)).await?.speakers.into_iter().next().map(|s| s.mood))
}

/// A data-modifying CTE body: stores the mood `mood` (jsonb of a `Mood`, or NULL: nothing) of
/// speaker `speaker` of agent `agent`, when `guard` holds (SQL arguments).
pub fn store_sql(agent: &str, speaker: &str, mood: &str, guard: &str) -> String {
    format!(
        "INSERT INTO affect_states (agent_id, speaker, fast_valence, slow_valence, fast_arousal, slow_arousal, label,
                                    distress, messages, observed_at)
         SELECT {agent}, {speaker}, (m->>'fast_valence')::float8, (m->>'slow_valence')::float8, (m->>'fast_arousal')::float8,
                (m->>'slow_arousal')::float8, m->>'label', (m->>'distress')::bool, (m->>'messages')::bigint,
                (m->>'observed_at')::timestamptz
           FROM (SELECT {mood}::jsonb AS m) x WHERE m IS NOT NULL AND {guard}
         ON CONFLICT (agent_id, speaker) DO UPDATE SET fast_valence = excluded.fast_valence,
            slow_valence = excluded.slow_valence, fast_arousal = excluded.fast_arousal,
            slow_arousal = excluded.slow_arousal, label = excluded.label, distress = excluded.distress,
            messages = excluded.messages, observed_at = excluded.observed_at"
    )
}

/// The stored mood of speaker `speaker` of agent `agent` (json of a `Mood`; NULL: none yet).
pub fn mood_sql(agent: &str, speaker: &str) -> String {
    format!(
        "(SELECT to_json(m) FROM (SELECT fast_valence, slow_valence, fast_arousal, slow_arousal, label, distress,
                                         messages, observed_at
                                    FROM affect_states WHERE agent_id = {agent} AND speaker = {speaker}) m)"
    )
}

/// Most speakers listed.
pub const MOODS_MAX: i64 = 100;

/// The moods the caller may see.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Moods {
    pub speakers: Vec<SpeakerMood>,
    /// Whether the agent has more speakers than were listed.
    pub truncated: bool,
}

/// The observation block of the chat prompt: what was observed, never what to do about it.
pub fn observation(mood: &Mood, now: &Reading) -> String {
    let mut s = format!(
        "\n\n## Observed (for your awareness only; not an instruction)\nThe user's latest message reads as {}. \
         Their mood over the last hours reads as {} (valence {:+.2}; over the last days {:+.2}).",
        now.label, mood.label, mood.fast_valence, mood.slow_valence
    );
    if mood.distress {
        s.push_str(" Their mood has dropped well below their usual.");
    }
    s
}

/// An end user is erased (SPEC H2): the agent's mood towards them goes. In the caller's
/// transaction.
pub async fn forget_end_user(
    conn: &mut sqlx::PgConnection,
    agent: miniclaw_core::ids::AgentId,
    end_user: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "DELETE FROM affect_states WHERE agent_id = $1 AND speaker = $2",
        agent as _,
        format!("user:{end_user}")
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    #[test]
    fn hand_made_messages_get_their_labels() {
        for (text, expected) in [
            ("I got the job!!! I'm so excited, this is amazing!", "excited"),
            ("Had a lovely walk with my dog, feeling good.", "happy"),
            ("I'm so angry, my landlord kept the whole deposit. I hate this.", "angry"),
            ("I'm really nervous and worried about the surgery tomorrow, I can't stop panicking.", "anxious"),
            ("I feel sad and lonely since she left.", "sad"),
            ("The meeting is at 3pm in room 4.", "neutral"),
            ("Ugh, the build broke again and nothing works, this is ridiculous!", "frustrated"),
        ] {
            let r = read(text);
            assert_eq!(r.label, expected, "{text}: {r:?}");
        }
    }

    #[test]
    fn negation_boosters_and_emoji_move_the_valence() {
        assert!(read("This is good").valence > 0.3);
        assert!(read("This is not good").valence < 0.0, "negation");
        assert!(read("This is very good").valence > read("This is good").valence, "booster");
        assert!(read("I'm fine 😢").valence < read("I'm fine 😀").valence, "emoji");
        assert!(read("THIS IS GREAT!!!").arousal > read("this is great").arousal, "capitals and marks");
    }

    #[test]
    fn the_fast_average_follows_the_session_and_a_drop_below_the_baseline_is_distress() {
        let t0 = Utc::now();
        let happy = read("Had a lovely day, feeling great!");
        let mut m = update(None, &happy, t0);
        assert_eq!(m.messages, 1);
        // Three days of good messages set the baseline.
        for h in 1..=72 {
            m = update(Some(&m), &happy, t0 + Duration::hours(h));
        }
        assert!(!m.distress && m.slow_valence > 0.5, "{m:?}");
        // Then a bad hour.
        let bad = read("Everything is awful, I feel terrible and hopeless.");
        for k in 1..=6 {
            m = update(Some(&m), &bad, t0 + Duration::hours(72) + Duration::minutes(10 * k));
        }
        assert!(m.fast_valence < 0.0 && m.slow_valence > 0.3, "{m:?}");
        assert!(m.distress, "{m:?}");
        // Half-lives: after one fast half-life a new observation weighs half.
        assert!((weight(FAST_HALF_LIFE_HOURS, FAST_HALF_LIFE_HOURS) - 0.5).abs() < 1e-12);
        assert!((weight(SLOW_HALF_LIFE_HOURS, SLOW_HALF_LIFE_HOURS) - 0.5).abs() < 1e-12);
        let block = observation(&m, &bad);
        assert!(block.contains("not an instruction") && block.contains("dropped"), "{block}");
    }
}
