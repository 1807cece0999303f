//! The mentor's answer (deep reflection, C2), validated strictly before anything is applied:
//! actions that name memories of the snapshot, a calibration profile with at least two triage
//! hints, clarity in 0–100, an optional soul rewrite and tasks.

use serde_json::{Value, json};

use super::actions;

const ALLOWED: [&str; 6] = ["merge", "recategorize", "upgrade_confidence", "deprecate", "set_importance", "create"];

/// The validated parts of a mentor answer.
pub(super) struct Output {
    pub(super) actions: Vec<actions::Action>,
    pub(super) calibration: Value,
    pub(super) clarity: i32,
    pub(super) soul_rewrite: Option<String>,
    pub(super) tasks: Vec<(String, Option<String>)>,
}

fn strings(v: Option<&Value>, max: usize, field: &str) -> Result<Vec<String>, String> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| {
                x.as_str().map(|s| s.trim().chars().take(200).collect()).ok_or(format!("`{field}` must hold strings"))
            })
            .collect::<Result<Vec<String>, String>>()
            .map(|v| v.into_iter().filter(|s| !s.is_empty()).take(max).collect()),
        Some(_) => Err(format!("`{field}` must be an array of strings")),
    }
}

pub(super) fn validate(text: &str, n: usize) -> Result<Output, String> {
    let v: Value = serde_json::from_str(text.trim()).map_err(|e| format!("mentor output is not JSON: {e}"))?;
    let o = v.as_object().ok_or("mentor output is not a JSON object")?;
    let actions = actions::parse(o.get("actions").unwrap_or(&json!([])), &ALLOWED, n)?;
    let c = o.get("calibration").and_then(Value::as_object).ok_or("`calibration` must be an object")?;
    let hints = strings(c.get("triage_hints"), 5, "calibration.triage_hints")?;
    if !(2..=5).contains(&hints.len()) {
        return Err(format!("`calibration.triage_hints` must hold 2 to 5 hints, not {}", hints.len()));
    }
    let calibration = json!({
        "triage_hints": hints,
        "always_save": strings(c.get("always_save"), 10, "calibration.always_save")?,
        "never_save": strings(c.get("never_save"), 10, "calibration.never_save")?,
        "response_defaults": c.get("response_defaults").and_then(Value::as_str).map(|s| s.chars().take(300).collect::<String>()),
    });
    let clarity = o.get("clarity").and_then(Value::as_f64).ok_or("`clarity` must be a number from 0 to 100")?;
    if !(0.0..=100.0).contains(&clarity) {
        return Err(format!("`clarity` {clarity} is not between 0 and 100"));
    }
    let soul_rewrite = match o.get("soul_rewrite") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.trim().is_empty() => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err("`soul_rewrite` must be a string or null".into()),
    };
    let tasks = match o.get("tasks") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(ts)) => ts
            .iter()
            .take(10)
            .map(|t| {
                let title =
                    t.get("title").and_then(Value::as_str).or(t.as_str()).map(str::trim).filter(|s| !s.is_empty());
                let title = title.ok_or("each task needs a `title`")?;
                let reason = t.get("reason").or_else(|| t.get("detail")).and_then(Value::as_str);
                Ok((title.chars().take(200).collect(), reason.map(|r| r.chars().take(500).collect())))
            })
            .collect::<Result<Vec<_>, String>>()?,
        Some(_) => return Err("`tasks` must be an array".into()),
    };
    Ok(Output { actions, calibration, clarity: clarity.round() as i32, soul_rewrite, tasks })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentor_output_is_validated_strictly() {
        let ok = r#"{"actions":[{"action":"set_importance","index":0,"importance":8}],
            "calibration":{"triage_hints":["short answers","mostly goals"],"always_save":["running"]},
            "clarity":72.4,"soul_rewrite":null,"tasks":[{"title":"Ask about the race date"}]}"#;
        let o = validate(ok, 1).unwrap();
        assert_eq!((o.actions.len(), o.clarity, o.tasks.len()), (1, 72, 1));
        assert_eq!(o.calibration["always_save"], json!(["running"]));
        for bad in [
            "not json",
            r#"{"actions":[{"action":"explode","index":0}],"calibration":{"triage_hints":["a","b"]},"clarity":5}"#,
            r#"{"actions":[{"action":"deprecate","index":4}],"calibration":{"triage_hints":["a","b"]},"clarity":5}"#,
            r#"{"actions":[],"calibration":{"triage_hints":["only one"]},"clarity":5}"#,
            r#"{"actions":[],"calibration":{"triage_hints":["a","b"]},"clarity":500}"#,
            r#"{"actions":[],"calibration":{"triage_hints":["a","b"]},"clarity":5,"soul_rewrite":42}"#,
        ] {
            assert!(validate(bad, 1).is_err(), "{bad}");
        }
    }
}
