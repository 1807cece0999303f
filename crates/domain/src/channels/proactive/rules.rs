//! The rules of speaking first (seed 000 §5.4), pure: which dial level a gap needs, whether the
//! dial and the trust score let it through, how an outcome moves trust, what a reply to a
//! check-in says about it. The owner's mood is the affect engine's (`cognition::affect`).

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
}
