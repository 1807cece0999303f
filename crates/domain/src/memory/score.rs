//! The pure scoring functions of memory: importance (R2, 001 §6.1), the chat context ranking
//! (P4, 001 §6.2), BM25 (X1) and the hybrid combination (X1). No database, no clock: callers
//! pass ages in days.

/// BM25 parameters (X1).
pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;

/// Hybrid weights (X1). Tuned on the development split of B9 (real multi-session dialogue,
/// docs/BENCHMARKS.md), where exact words (names, dates, rare nouns) carry many questions: the
/// earlier 0.1/0.85/0.05, tuned on our own B6 scenario, trailed a plain `0.5·cos + 0.5·BM25`
/// there. Prominence breaks near-ties; the time a query names adds to the sum.
pub const W_BM25: f64 = 0.5;
pub const W_SEMANTIC: f64 = 0.5;
pub const W_PROMINENCE: f64 = 0.05;
/// The formula as the search explanation shows it.
pub const HYBRID_FORMULA: &str = "min(1, 0.5*bm25 + 0.5*semantic + 0.05*prominence) + 0.3*time";
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

/// Weight of the time signal: a memory of the time the query names (`when`). The signal is 1
/// for a memory of the day a query names and `WIDE_TIME` for one within a longer time it names
/// (a week, a month): on the development split of B9 a named day earned 0.3 (dated questions'
/// R@5 rose with it up to 0.3), a month's worth of memories only the 0.1 it had.
pub const W_TIME: f64 = 0.3;
pub const WIDE_TIME: f64 = 1.0 / 3.0;

/// The hybrid score (X1) from signals already normalised to [0, 1]; `time` is 1 for a memory
/// of the time the query names.
pub fn hybrid(bm25: f64, semantic: f64, prominence: f64, time: f64) -> f64 {
    // The weights of the first three sum to 1.05: a full match on words and meaning that is
    // also prominent stays a unit score (the time a query names still adds to it).
    (W_BM25 * bm25 + W_SEMANTIC * semantic + W_PROMINENCE * prominence).min(1.0) + W_TIME * time
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
        assert!(close(hybrid(1.0, 0.5, 0.2, 0.0), 0.5 + 0.25 + 0.01));
        assert!(close(hybrid(0.0, 0.0, 0.0, 1.0), 0.3));
        assert!(close(hybrid(0.0, 0.0, 0.0, WIDE_TIME), 0.1));
        assert_eq!(
            HYBRID_FORMULA,
            format!("min(1, {W_BM25}*bm25 + {W_SEMANTIC}*semantic + {W_PROMINENCE}*prominence) + {W_TIME}*time")
        );
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    fn unit() -> impl Strategy<Value = f64> {
        0.0..=1.0f64
    }

    /// Documents of words from a small vocabulary, so that terms repeat across them.
    fn corpus() -> impl Strategy<Value = Vec<Vec<String>>> {
        let word = prop::sample::select(vec!["jazz", "vienna", "rust", "tea", "hall", "cat"]).prop_map(String::from);
        prop::collection::vec(prop::collection::vec(word, 0..12), 1..12)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn importance_stays_in_0_1_and_decays_with_age(
            conf in unit(), mentions in 0i64..10_000, days in 0.0..10_000.0f64, later in 0.0..10_000.0f64, imp in 0.0..=10.0f64
        ) {
            let now = importance(conf, mentions, days, imp);
            prop_assert!((0.0..=1.0).contains(&now), "{now}");
            prop_assert!(importance(conf, mentions, days + later, imp) <= now, "older is never more important");
            prop_assert!(importance(conf, mentions + 1, days, imp) >= now, "a mention never lowers it");
            // The decay floor: a memory never loses more than 90 % of its frequency term.
            prop_assert!(now >= 0.5 * conf * (0.3f64 + 0.1 * mentions as f64).min(1.0) * 0.1 + 0.5 * imp / 10.0 - 1e-12);
            // A future touch time (clock skew) counts as today.
            prop_assert_eq!(importance(conf, mentions, -days, imp), importance(conf, mentions, 0.0, imp));
        }

        #[test]
        fn context_rank_is_bounded_and_pinned_categories_never_rank_lower(
            relevance in proptest::option::of(unit()), imp in unit(), category in "[a-z]{1,10}"
        ) {
            let plain = context_rank(relevance, imp, "interest");
            let pinned = context_rank(relevance, imp, "identity");
            prop_assert!((0.0..=1.0).contains(&plain), "{plain}");
            prop_assert!((0.0..=1.1).contains(&pinned), "{pinned}");
            prop_assert!(pinned >= plain);
            let any = context_rank(relevance, imp, &category);
            prop_assert!(any == plain || any == pinned);
            prop_assert!(context_rank(relevance.map(|r| (r + 0.1).min(1.0)), imp, &category) >= any);
        }

        #[test]
        fn idf_is_positive_and_falls_as_a_term_gets_common(docs in 1u32..100_000, df in 0u32..100_000) {
            let (n, df) = (f64::from(docs), f64::from(df.min(docs)));
            prop_assert!(idf(n, df) > 0.0);
            if df < n {
                prop_assert!(idf(n, df + 1.0) < idf(n, df));
            }
        }

        #[test]
        fn a_term_scores_more_the_more_often_it_occurs_never_past_its_saturation(
            idf_v in 0.0..20.0f64, tf in 1u32..1000, len in 1u32..10_000, avg in 0.0..10_000.0f64
        ) {
            let (tf, len) = (f64::from(tf), f64::from(len.max(tf)));
            let s = bm25_term(idf_v, tf, len, avg);
            prop_assert!(s >= 0.0 && s <= idf_v * (K1 + 1.0) + 1e-9, "{s}");
            prop_assert!(bm25_term(idf_v, tf + 1.0, len, avg) >= s);
            // Longer documents with the same count score no higher.
            prop_assert!(bm25_term(idf_v, tf, len + 1.0, avg) <= s + 1e-12);
        }

        #[test]
        fn bm25_scores_only_documents_with_a_query_term_and_ignores_query_order(
            docs in corpus(), query in prop::collection::vec("(jazz|vienna|tea|owl)", 1..4)
        ) {
            let scores = bm25_reference(&docs, &query);
            prop_assert_eq!(scores.len(), docs.len());
            for (d, s) in docs.iter().zip(&scores) {
                prop_assert!(s.is_finite() && *s >= 0.0);
                prop_assert_eq!(*s > 0.0, d.iter().any(|w| query.contains(w)), "{:?} {}", d, s);
            }
            let mut reversed = query.clone();
            reversed.reverse();
            reversed.extend(query.iter().cloned());
            prop_assert_eq!(bm25_reference(&docs, &reversed), scores, "order and repeats of query terms do not count");
        }

        #[test]
        fn hybrid_of_unit_signals_is_a_unit_score_rising_in_each(b in unit(), s in unit(), p in unit(), d in 0.0..0.5f64) {
            let h = hybrid(b, s, p, 0.0);
            prop_assert!((0.0..=1.0 + 1e-12).contains(&h), "{h}");
            prop_assert!(hybrid((b + d).min(1.0), s, p, 0.0) >= h);
            prop_assert!(hybrid(b, (s + d).min(1.0), p, 0.0) >= h);
            prop_assert!(hybrid(b, s, (p + d).min(1.0), 0.0) >= h);
            prop_assert!(hybrid(b, s, p, 1.0) >= h);
            let reranked = W_RERANK_HYBRID * h + W_RERANK_LLM * s;
            prop_assert!((0.0..=1.0 + 1e-12).contains(&reranked));
        }
    }
}
