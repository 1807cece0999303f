//! The rules of speaking first (seed 000 §5.4), pure: which dial level a gap needs, whether the
//! dial and the trust score let it through, how an outcome moves trust, what a reply to a
//! check-in says about it, and the valence of a message for the affect EMAs.

use chrono::{DateTime, Utc};

/// What a gap needs from the proactiveness dial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Approaching deadlines and reminders the user asked for: even `conservative` sends them.
    Urgent,
    /// Unanswered questions and stale goals: `moderate` and `eager`.
    Information,
    /// Follow-ups and observations the agent inferred: `eager` only.
    Speculative,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Urgent => "urgent",
            Level::Information => "information",
            Level::Speculative => "speculative",
        }
    }
}

/// The highest level a dial setting lets through.
pub fn dial_allows(dial: &str) -> Level {
    match dial {
        "conservative" => Level::Urgent,
        "eager" => Level::Speculative,
        _ => Level::Information,
    }
}

/// Below this trust the agent acts as if its dial were `conservative`.
pub const TRUST_FLOOR: f32 = 0.3;
/// Outcome deltas (seed 000 table 3): trust is hard to earn and easy to lose.
pub const ACCEPTED: f32 = 0.05;
pub const IGNORED: f32 = -0.02;
pub const DISMISSED: f32 = -0.05;
/// How long a sent check-in waits for an answer before it counts as ignored.
pub const ANSWER_WINDOW_HOURS: i64 = 24;

/// Whether a gap of `level` may go out under `dial` at `trust`: `Ok(rule)` naming the rule that
/// let it through, or `Err(reason)` naming the one that held it.
pub fn admit(level: Level, dial: &str, trust: f32) -> Result<String, String> {
    let allowed = dial_allows(dial);
    if level > allowed {
        return Err(format!("the dial is {dial}: {} items need {}", level.as_str(), needed(level)));
    }
    if level > Level::Urgent && trust < TRUST_FLOOR {
        return Err(format!(
            "trust {trust:.2} is below {TRUST_FLOOR}: only urgent items go out until the owner accepts some"
        ));
    }
    Ok(match level {
        Level::Urgent => "urgent items go out under every dial".to_string(),
        _ => format!("the dial is {dial} and trust is {trust:.2}: {} items may go out", level.as_str()),
    })
}

fn needed(level: Level) -> &'static str {
    match level {
        Level::Urgent => "any dial",
        Level::Information => "moderate or eager",
        Level::Speculative => "eager",
    }
}

/// Trust after an outcome, kept within [0, 1].
pub fn moved(trust: f32, delta: f32) -> f32 {
    (trust + delta).clamp(0.0, 1.0)
}

/// What the owner's answer to a check-in says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// "stop", "not now", "leave me alone": dismissed, and the dial drops to conservative.
    Stop,
    /// Anything else: the check-in was taken up.
    Accepted,
}

/// Reads the owner's first message after a check-in.
pub fn answer_of(text: &str) -> Answer {
    let t = text.to_lowercase();
    let words: Vec<&str> = t.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()).collect();
    let has = |phrase: &[&str]| words.windows(phrase.len()).any(|w| w == phrase);
    let stop = has(&["stop"])
        || has(&["not", "now"])
        || has(&["leave", "me", "alone"])
        || has(&["don't", "message", "me"])
        || has(&["don't", "remind", "me"])
        || has(&["no", "more", "reminders"])
        || has(&["too", "many", "messages"]);
    if stop { Answer::Stop } else { Answer::Accepted }
}

/// The valence of a message in [-1, 1]: positive and negative words, a negation flipping the
/// word after it. A small lexicon, enough to see a run of bad news (seed 000 §4.4).
pub fn valence(text: &str) -> f32 {
    const NEGATIVE: &[&str] = &[
        "sad",
        "upset",
        "angry",
        "anxious",
        "anxiety",
        "worried",
        "worry",
        "stressed",
        "stress",
        "depressed",
        "tired",
        "exhausted",
        "lonely",
        "alone",
        "awful",
        "terrible",
        "horrible",
        "hate",
        "hurt",
        "hurts",
        "pain",
        "crying",
        "cry",
        "scared",
        "afraid",
        "overwhelmed",
        "miserable",
        "hopeless",
        "frustrated",
        "furious",
        "grief",
        "died",
        "lost",
        "fired",
        "sick",
        "ill",
        "panic",
        "broke",
        "failed",
        "bad",
        "worse",
        "worst",
    ];
    const POSITIVE: &[&str] = &[
        "happy",
        "glad",
        "great",
        "good",
        "love",
        "loved",
        "excited",
        "wonderful",
        "amazing",
        "thanks",
        "thank",
        "calm",
        "relaxed",
        "proud",
        "fun",
        "enjoyed",
        "awesome",
        "nice",
        "better",
        "best",
        "grateful",
        "lovely",
    ];
    const NEGATIONS: &[&str] = &["not", "no", "never", "don't", "isn't", "wasn't", "can't", "won't", "didn't"];
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()).collect();
    let mut score = 0.0f32;
    let mut counted = 0usize;
    for (i, w) in words.iter().enumerate() {
        let sign = if NEGATIVE.contains(w) {
            -1.0
        } else if POSITIVE.contains(w) {
            1.0
        } else {
            continue;
        };
        let negated = i > 0 && NEGATIONS.contains(&words[i - 1]);
        score += if negated { -sign } else { sign };
        counted += 1;
    }
    if counted == 0 { 0.0 } else { (score / counted as f32).clamp(-1.0, 1.0) }
}

/// Half-lives of the fast and slow affect EMAs (seed 000 §4.4).
pub const FAST_HALF_LIFE_HOURS: f64 = 2.0;
pub const SLOW_HALF_LIFE_HOURS: f64 = 72.0;

/// One EMA step toward `value` after `hours` since the last one, with a half-life: the weight
/// `w = 1 - 2^(-Δt / half-life)`; the first observation is taken whole.
pub fn ema(previous: f32, value: f32, hours: Option<f64>, half_life_hours: f64) -> f32 {
    let w = match hours {
        None => 1.0,
        Some(h) => 1.0 - 0.5f64.powf(h.max(0.0) / half_life_hours),
    } as f32;
    previous + w * (value - previous)
}

/// Fast below slow by this much, and negative, is distress.
pub const DISTRESS_GAP: f32 = 0.25;

pub fn distressed(fast: f32, slow: f32) -> bool {
    fast < -0.2 && fast < slow - DISTRESS_GAP
}

/// Hours between two instants, for the EMA.
pub fn hours_between(from: Option<DateTime<Utc>>, to: DateTime<Utc>) -> Option<f64> {
    from.map(|f| (to - f).num_milliseconds() as f64 / 3_600_000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dial_and_trust_decide_what_goes_out() {
        assert!(admit(Level::Urgent, "conservative", 0.0).is_ok(), "urgent beats the dial and low trust");
        assert!(admit(Level::Information, "conservative", 0.9).is_err());
        assert!(admit(Level::Information, "moderate", 0.5).is_ok());
        let held = admit(Level::Speculative, "moderate", 0.9).unwrap_err();
        assert!(held.contains("need eager"), "{held}");
        assert!(admit(Level::Speculative, "eager", 0.5).is_ok());
        let held = admit(Level::Information, "eager", 0.2).unwrap_err();
        assert!(held.contains("trust 0.20"), "{held}");
    }

    #[test]
    fn outcomes_move_trust_by_the_stated_amounts_within_bounds() {
        assert!((moved(0.5, ACCEPTED) - 0.55).abs() < 1e-6);
        assert!((moved(0.5, IGNORED) - 0.48).abs() < 1e-6);
        assert!((moved(0.5, DISMISSED) - 0.45).abs() < 1e-6);
        assert_eq!(moved(0.99, ACCEPTED), 1.0);
        assert_eq!(moved(0.01, DISMISSED), 0.0);
    }

    #[test]
    fn stop_and_not_now_are_read_as_stop() {
        for t in ["Stop.", "not now please", "Please STOP messaging", "leave me alone", "no more reminders"] {
            assert_eq!(answer_of(t), Answer::Stop, "{t}");
        }
        for t in ["Thanks, good idea!", "Yes, it went well", "now is fine", "not bad, it's now done"] {
            assert_eq!(answer_of(t), Answer::Accepted, "{t}");
        }
    }

    #[test]
    fn valence_sees_negation_and_a_run_of_bad_news_is_distress() {
        assert!(valence("I am so sad and exhausted") < -0.9);
        assert!(valence("What a wonderful day, thanks!") > 0.9);
        assert!(valence("I'm not happy") < 0.0);
        assert_eq!(valence("The meeting is at 3"), 0.0);
        // Calm for days, then an afternoon of bad news, a message every half hour.
        let (mut fast, mut slow) = (0.3f32, 0.3f32);
        assert!(!distressed(fast, slow));
        for _ in 0..6 {
            fast = ema(fast, -1.0, Some(0.5), FAST_HALF_LIFE_HOURS);
            slow = ema(slow, -1.0, Some(0.5), SLOW_HALF_LIFE_HOURS);
        }
        assert!(distressed(fast, slow), "fast {fast} slow {slow}");
        // A long quiet stretch of good messages brings it back.
        fast = ema(fast, 0.5, Some(24.0), FAST_HALF_LIFE_HOURS);
        assert!(!distressed(fast, slow));
        assert_eq!(ema(0.0, -1.0, None, 2.0), -1.0, "the first observation is taken whole");
    }
}
