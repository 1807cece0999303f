//! The strict parsing of the extraction model's answer (its prompt: `llm::roles::Extraction`).

use serde_json::Value;

use crate::chat::triage::ALL_CATEGORIES;

/// An extracted candidate, before dedup.
#[derive(Debug, Clone)]
pub(crate) struct Extracted {
    pub content: String,
    pub category: String,
    pub confidence: f32,
    /// 0–10, when the answer gives one.
    pub importance: Option<f32>,
    pub insight: bool,
}

/// Parses the extraction model's answer: `{"facts": [{content, category, confidence?, importance?}],
/// "insights": [{content} | "text"]}`. Facts of unknown categories and empty or overlong
/// entries are dropped; anything that is not that shape is an error.
pub(crate) fn parse_extraction(text: &str) -> anyhow::Result<Vec<Extracted>> {
    let v: Value = serde_json::from_str(text.trim())?;
    let o = v.as_object().ok_or_else(|| anyhow::anyhow!("extraction output is not a JSON object"))?;
    let mut out = Vec::new();
    for f in o.get("facts").and_then(Value::as_array).into_iter().flatten() {
        let content = f.get("content").or_else(|| f.get("fact")).and_then(Value::as_str).unwrap_or("").trim();
        let category = f.get("category").and_then(Value::as_str).unwrap_or("").to_lowercase();
        if content.is_empty() || content.chars().count() > 500 || !ALL_CATEGORIES.contains(&category.as_str()) {
            continue;
        }
        let confidence = f.get("confidence").and_then(Value::as_f64).unwrap_or(0.8).clamp(0.0, 1.0) as f32;
        let importance = f.get("importance").and_then(Value::as_f64).map(|i| i.clamp(0.0, 10.0) as f32);
        out.push(Extracted { content: content.to_string(), category, confidence, importance, insight: false });
    }
    for i in o.get("insights").and_then(Value::as_array).into_iter().flatten() {
        let content = i.as_str().or_else(|| i.get("content").and_then(Value::as_str)).unwrap_or("").trim();
        if content.is_empty() || content.chars().count() > 500 {
            continue;
        }
        out.push(Extracted {
            content: content.to_string(),
            category: "insight".into(),
            confidence: 0.7,
            importance: None,
            insight: true,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extraction_output_is_validated() {
        let got = parse_extraction(
            r#"{"facts":[{"content":"The user's name is Alice","category":"Identity","confidence":3},
                         {"content":"x","category":"astrology"},{"content":"","category":"goal"}],
                "insights":["Short daily runs suit the user's schedule", {"content":"Try intervals"}]}"#,
        )
        .unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!((got[0].category.as_str(), got[0].confidence), ("identity", 1.0));
        assert!(got[1].insight && got[2].insight && got[2].confidence == 0.7);
        assert!(parse_extraction("[]").is_err());
        assert!(parse_extraction("facts: none").is_err());
    }
}
