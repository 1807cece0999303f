//! The offline `gap_diagnosis` role: signals (deadlines, distress, open questions, stale
//! items) ranked into gaps by urgency, each with a suggestion and why.

use serde_json::{Value, json};

use miniclaw_platform::llm::roles::GapDiagnosis;

/// Gap diagnosis. Output `{"gaps": [{"gap", "urgency": "high"|"medium"|"low", "suggestion", "justification"}]}`
/// ranked by urgency: deadlines within 24 h and distress are high, deadlines within a week,
/// unresolved questions and stale items medium, the rest low.
pub fn gap_diagnosis(input: &GapDiagnosis) -> Value {
    let mut gaps: Vec<(u8, Value)> = input
        .signals
        .iter()
        .map(|s| {
            let kind = s.kind.as_str();
            let description = s.description.trim_end_matches('.');
            let due = s.due_in_hours;
            let age = s.age_days.unwrap_or(0.0);
            let (rank, urgency, suggestion, why) = match (kind, due) {
                (_, Some(h)) if h <= 24.0 => {
                    (0, "high", format!("Remind the user now: {description}."), format!("due in {h:.0} h"))
                }
                ("distress", _) => {
                    (0, "high", "Check in gently and offer help.".to_string(), "signs of distress".to_string())
                }
                (_, Some(h)) if h <= 168.0 => (
                    1,
                    "medium",
                    format!("Offer to plan the next step: {description}."),
                    format!("due in {:.0} days", h / 24.0),
                ),
                ("unresolved_question", _) => (
                    1,
                    "medium",
                    format!("Follow up on the open question: {description}."),
                    "asked and never answered".to_string(),
                ),
                ("stale", _) if age >= 14.0 => (
                    1,
                    "medium",
                    format!("Ask whether this still matters: {description}."),
                    format!("untouched for {age:.0} days"),
                ),
                _ => (
                    2,
                    "low",
                    format!("Mention it when it fits: {description}."),
                    "no deadline or urgency signal".to_string(),
                ),
            };
            (rank, json!({ "gap": description, "urgency": urgency, "suggestion": suggestion, "justification": why }))
        })
        .collect();
    gaps.sort_by_key(|(rank, _)| *rank);
    json!({ "gaps": gaps.into_iter().map(|(_, g)| g).collect::<Vec<_>>() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gap_diagnosis_ranks_by_urgency() {
        let input = serde_json::from_value(json!({ "signals": [
            { "kind": "stale", "description": "Guitar practice", "age_days": 30 },
            { "kind": "task", "description": "Tax return", "due_in_hours": 6 },
            { "kind": "other", "description": "Favourite colour unknown" },
        ]}))
        .unwrap();
        let g = gap_diagnosis(&input);
        let urgencies: Vec<&str> =
            g["gaps"].as_array().unwrap().iter().map(|g| g["urgency"].as_str().unwrap()).collect();
        assert_eq!(urgencies, ["high", "medium", "low"]);
    }
}
