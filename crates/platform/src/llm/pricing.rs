//! Prices per model in dollars per million tokens (001 §9.3 as defaults; `MINICLAW_LLM_PRICES`
//! overrides or adds models).

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// Dollars per million prompt tokens.
    pub input: f64,
    /// Dollars per million completion tokens.
    pub output: f64,
}

#[derive(Debug, Clone)]
pub struct PriceTable(BTreeMap<String, Price>);

impl PriceTable {
    pub fn defaults() -> Self {
        let p = |input, output| Price { input, output };
        PriceTable(BTreeMap::from([
            ("gpt-5-mini".to_string(), p(0.30, 1.20)),
            ("grok-4-1-fast-non-reasoning".to_string(), p(0.20, 0.50)),
            ("grok-4-1-fast".to_string(), p(0.20, 0.50)),
            ("grok-4.20-0309-non-reasoning".to_string(), p(2.00, 6.00)),
            ("grok-4.20-0309-reasoning".to_string(), p(2.00, 6.00)),
            ("gpt-5.4".to_string(), p(2.50, 10.00)),
            ("o3-mini".to_string(), p(1.10, 4.40)),
            ("claude-haiku-4-5".to_string(), p(1.00, 5.00)),
            ("claude-sonnet-4-5".to_string(), p(3.00, 15.00)),
            ("text-embedding-3-small".to_string(), p(0.02, 0.0)),
            ("offline".to_string(), p(0.0, 0.0)),
        ]))
    }

    /// Defaults plus the overrides in `MINICLAW_LLM_PRICES` (`{"model": {"input": .., "output": ..}}`).
    pub fn with_overrides(json: Option<&str>) -> Result<Self, String> {
        let mut table = Self::defaults();
        if let Some(json) = json {
            let extra: BTreeMap<String, Price> =
                serde_json::from_str(json).map_err(|e| format!("not valid JSON prices: {e}"))?;
            for (model, price) in extra {
                if !(price.input >= 0.0 && price.output >= 0.0 && price.input.is_finite() && price.output.is_finite()) {
                    return Err(format!("prices for {model} must be finite and not negative"));
                }
                table.0.insert(model, price);
            }
        }
        Ok(table)
    }

    /// The priced models, by name.
    pub fn models(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    pub fn get(&self, model: &str) -> Option<Price> {
        self.0.get(model).copied()
    }

    /// Cost in dollars; `None` when the model has no price (logged as unpriced).
    pub fn cost(&self, model: &str, prompt_tokens: u32, completion_tokens: u32) -> Option<f64> {
        let p = self.get(model)?;
        Some((prompt_tokens as f64 * p.input + completion_tokens as f64 * p.output) / 1_000_000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_follow_the_seed_prices() {
        let t = PriceTable::defaults();
        // 1M prompt + 1M completion tokens of gpt-5-mini: $0.30 + $1.20.
        assert!((t.cost("gpt-5-mini", 1_000_000, 1_000_000).unwrap() - 1.50).abs() < 1e-9);
        // 1,200 prompt + 300 completion tokens of grok-4-1-fast: 1200*0.2/1e6 + 300*0.5/1e6.
        assert!((t.cost("grok-4-1-fast-non-reasoning", 1200, 300).unwrap() - 0.00039).abs() < 1e-12);
        assert_eq!(t.cost("offline", 500, 500), Some(0.0));
        assert_eq!(t.cost("mystery-model", 1, 1), None);
    }

    #[test]
    fn overrides_replace_and_add() {
        let t = PriceTable::with_overrides(Some(
            r#"{"gpt-5-mini": {"input": 1, "output": 2}, "local": {"input": 0, "output": 0}}"#,
        ))
        .unwrap();
        assert_eq!(t.get("gpt-5-mini"), Some(Price { input: 1.0, output: 2.0 }));
        assert_eq!(t.cost("local", 10, 10), Some(0.0));
        assert!(PriceTable::with_overrides(Some(r#"{"x": {"input": -1, "output": 0}}"#)).is_err());
        assert!(PriceTable::with_overrides(Some("[")).is_err());
    }
}
