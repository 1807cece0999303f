//! The pure scoring functions of memory: importance (R2, 001 §6.1), the chat context ranking
//! (P4, 001 §6.2), BM25 (X1) and the hybrid combination (X1). No database, no clock: callers
//! pass ages in days.

/// BM25 parameters (X1).
pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;

/// Hybrid weights (X1).
pub const W_BM25: f64 = 0.4;
pub const W_SEMANTIC: f64 = 0.4;
pub const W_PROMINENCE: f64 = 0.2;

/// Rerank blend (X1): `0.4*hybrid + 0.6*llm`.
pub const W_RERANK_HYBRID: f64 = 0.4;
pub const W_RERANK_LLM: f64 = 0.6;

/// Composite importance in [0, 1] (R2):
/// `0.5*conf*min(1, 0.3+0.1*mentions)*max(0.1, 1-days/180) + 0.5*importance/10`, where
/// `days` counts from when the memory was last touched.
pub fn importance(confidence: f64, mentions: i64, days_since_touched: f64, importance_0_10: f64) -> f64 {
    let freq = (0.3 + 0.1 * mentions as f64).min(1.0);
    let decay = (1.0 - days_since_touched.max(0.0) / 180.0).max(0.1);
    0.5 * confidence * freq * decay + 0.5 * importance_0_10 / 10.0
}

/// Categories pinned into the chat context with a boost (P4).
pub fn pinned_category(category: &str) -> bool {
    matches!(category, "identity" | "context")
}

/// Chat-context ranking (P4):
/// `relevance*0.5 + importance*0.3 + pinnedBoost + (1-isPinned)*0.2*relevance`, relevance 0.5
/// for unembedded memories, pinnedBoost 0.3 for identity/context memories.
pub fn context_rank(relevance: Option<f64>, importance: f64, category: &str) -> f64 {
    let relevance = relevance.unwrap_or(0.5);
    let pinned = pinned_category(category);
    let boost = if pinned { 0.3 } else { 0.0 };
    relevance * 0.5 + importance * 0.3 + boost + if pinned { 0.0 } else { 0.2 * relevance }
}

/// Inverse document frequency, the non-negative form: `ln(1 + (N - df + 0.5) / (df + 0.5))`.
pub fn idf(docs: f64, df: f64) -> f64 {
    (1.0 + (docs - df + 0.5) / (df + 0.5)).ln()
}

/// One term's BM25 contribution to a document.
pub fn bm25_term(idf: f64, tf: f64, doc_len: f64, avg_len: f64) -> f64 {
    let norm = if avg_len > 0.0 { doc_len / avg_len } else { 1.0 };
    idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * norm))
}

/// BM25 of every document for a query, computed directly from the token lists: the reference
/// the SQL implementation is tested against.
pub fn bm25_reference(docs: &[Vec<String>], query: &[String]) -> Vec<f64> {
    let n = docs.len() as f64;
    let avg = docs.iter().map(Vec::len).sum::<usize>() as f64 / n.max(1.0);
    let mut unique: Vec<&String> = query.iter().collect();
    unique.sort();
    unique.dedup();
    docs.iter()
        .map(|d| {
            unique
                .iter()
                .map(|t| {
                    let tf = d.iter().filter(|w| w == t).count() as f64;
                    if tf == 0.0 {
                        return 0.0;
                    }
                    let df = docs.iter().filter(|x| x.contains(t)).count() as f64;
                    bm25_term(idf(n, df), tf, d.len() as f64, avg)
                })
                .sum()
        })
        .collect()
}

/// The hybrid score (X1) from signals already normalised to [0, 1].
pub fn hybrid(bm25: f64, semantic: f64, prominence: f64) -> f64 {
    W_BM25 * bm25 + W_SEMANTIC * semantic + W_PROMINENCE * prominence
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn importance_by_hand() {
        // conf 0.8, 1 mention, touched today, importance 5: 0.5*0.8*0.4*1 + 0.5*0.5 = 0.41
        assert!(close(importance(0.8, 1, 0.0, 5.0), 0.41));
        // 7 mentions saturate the frequency factor; 90 days halve the decay: 0.5*1*1*0.5 + 0.5
        assert!(close(importance(1.0, 7, 90.0, 10.0), 0.75));
        // past 180 days the decay floor 0.1 holds: 0.5*0.5*0.5*0.1 + 0
        assert!(close(importance(0.5, 2, 400.0, 0.0), 0.0125));
    }

    #[test]
    fn context_rank_by_hand() {
        // identity, relevance 0.8, importance 0.41: 0.4 + 0.123 + 0.3 = 0.823
        assert!(close(context_rank(Some(0.8), 0.41, "identity"), 0.823));
        // interest, same: 0.4 + 0.123 + 0.16 = 0.683
        assert!(close(context_rank(Some(0.8), 0.41, "interest"), 0.683));
        // unembedded: relevance 0.5 → 0.25 + 0.15 + 0.1 = 0.5
        assert!(close(context_rank(None, 0.5, "goal"), 0.5));
    }

    #[test]
    fn bm25_by_hand() {
        let docs: Vec<Vec<String>> = ["jazz vienna", "jazz jazz concert hall tonight", "rust compiler"]
            .iter()
            .map(|d| d.split(' ').map(String::from).collect())
            .collect();
        let s = bm25_reference(&docs, &["jazz".to_string()]);
        // N 3, df 2: idf = ln(1 + 1.5/2.5) = ln 1.6; avgdl = 9/3 = 3
        let idf = 1.6f64.ln();
        assert!(close(s[0], idf * 2.2 / (1.0 + 1.2 * (0.25 + 0.75 * 2.0 / 3.0))));
        assert!(close(s[1], idf * 2.0 * 2.2 / (2.0 + 1.2 * (0.25 + 0.75 * 5.0 / 3.0))));
        assert_eq!(s[2], 0.0);
        assert!(close(hybrid(1.0, 0.5, 0.25), 0.4 + 0.2 + 0.05));
    }
}
