//! JSON shown to a person: an object as labelled fields, a list as a list, `true` as "yes".

use serde_json::Value;

/// A field name as words: `bot_username` → "bot username".
pub fn label(key: &str) -> String {
    key.replace(['_', '.'], " ")
}

/// A value as text: nothing as "—", lists joined, objects as "label: value; …".
pub fn text(v: &Value) -> String {
    match v {
        Value::Null => "—".into(),
        Value::Bool(b) => (if *b { "yes" } else { "no" }).into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(a) if a.is_empty() => "none".into(),
        Value::Array(a) => a.iter().map(text).collect::<Vec<_>>().join(", "),
        Value::Object(o) => o.iter().map(|(k, v)| format!("{}: {}", label(k), text(v))).collect::<Vec<_>>().join("; "),
    }
}

/// An object's fields as (label, text) pairs; anything else as one unlabelled pair (none for
/// an empty object or nothing).
pub fn fields(v: &Value) -> Vec<(String, String)> {
    match v {
        Value::Object(o) => o.iter().map(|(k, v)| (label(k), text(v))).collect(),
        Value::Null => Vec::new(),
        other => vec![(String::new(), text(other))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_reads_as_fields() {
        let v = json!({"bot_username": "ada_bot", "scopes": ["chat:read", "agent:read"], "pinned": true, "n": 3, "x": null});
        let mut got = fields(&v);
        got.sort();
        assert_eq!(
            got,
            vec![
                ("bot username".to_string(), "ada_bot".to_string()),
                ("n".into(), "3".into()),
                ("pinned".into(), "yes".into()),
                ("scopes".into(), "chat:read, agent:read".into()),
                ("x".into(), "—".into()),
            ]
        );
        assert_eq!(text(&json!({"of": 4})), "of: 4");
        assert!(fields(&json!({})).is_empty());
    }
}
