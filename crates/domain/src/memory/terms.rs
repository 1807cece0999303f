//! BM25 postings (X1): each live memory's terms with their frequency, and per agent the
//! number of indexed memories and their total length. Kept in step with the row by every
//! write; `bm25` scores a query against them in one statement.

use miniclaw_core::ids::{AgentId, MemoryId};
use std::collections::HashMap;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

use sqlx::PgConnection;

use super::Memory;
use super::score;

/// The terms BM25 counts: lower-case words of two or more characters, without stop words or
/// the possessive `'s`, reduced to their English (Snowball) stem so that "lives" finds "live".
pub fn terms(text: &str) -> Vec<String> {
    static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));
    miniclaw_core::text::content_words(text)
        .into_iter()
        .map(|w| w.strip_suffix("'s").map(str::to_string).unwrap_or(w))
        .filter(|w| w.chars().count() > 1)
        .map(|w| STEMMER.stem(&w).into_owned())
        .collect()
}

/// Whether a memory belongs in the BM25 corpus: active, valid, not expired.
fn indexable(m: &Memory) -> bool {
    m.is_live(chrono::Utc::now())
}

/// Rewrites a memory's postings after a change (or removes them if it is no longer live).
pub async fn sync(conn: &mut PgConnection, m: &Memory) -> sqlx::Result<()> {
    remove(conn, m).await?;
    if !indexable(m) {
        return Ok(());
    }
    let words = terms(&m.content);
    if words.is_empty() {
        return Ok(());
    }
    let mut tf: HashMap<&str, i32> = HashMap::new();
    for w in &words {
        *tf.entry(w.as_str()).or_default() += 1;
    }
    // Sorted, so that concurrent writers lock the shared statistics rows in the same order.
    let mut tf: Vec<(&str, i32)> = tf.into_iter().collect();
    tf.sort_unstable();
    let (keys, counts): (Vec<&str>, Vec<i32>) = tf.into_iter().unzip();
    let len = words.len() as i32;
    sqlx::query!(
        "INSERT INTO memory_terms (agent_id, term, memory_id, tf, doc_len)
         SELECT $1, t, $2, c, $5 FROM unnest($3::text[], $4::int[]) AS x(t, c)",
        m.agent_id as _,
        m.id as _,
        &keys as &[&str],
        &counts,
        len
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "INSERT INTO memory_term_stats AS s (agent_id, term, df, max_tf, min_doc_len)
         SELECT $1, t, 1, c, $4 FROM unnest($2::text[], $3::int[]) AS x(t, c)
         ON CONFLICT (agent_id, term) DO UPDATE SET df = s.df + 1, max_tf = greatest(s.max_tf, excluded.max_tf),
            min_doc_len = least(s.min_doc_len, excluded.min_doc_len)",
        m.agent_id as _,
        &keys as &[&str],
        &counts,
        len
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "UPDATE agent_memories SET term_count = $3 WHERE agent_id = $1 AND id = $2",
        m.agent_id as _,
        m.id as _,
        len
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "INSERT INTO memory_corpus_stats AS s (agent_id, docs, total_length) VALUES ($1, 1, $2)
         ON CONFLICT (agent_id) DO UPDATE SET docs = s.docs + 1, total_length = s.total_length + $2",
        m.agent_id as _,
        i64::from(len)
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Takes a memory out of the corpus (no-op when it is not in it).
pub async fn remove(conn: &mut PgConnection, m: &Memory) -> sqlx::Result<()> {
    let old = sqlx::query_scalar!(
        "UPDATE agent_memories a SET term_count = 0
           FROM (SELECT agent_id, id, term_count FROM agent_memories WHERE agent_id = $1 AND id = $2) old
          WHERE a.agent_id = old.agent_id AND a.id = old.id AND old.term_count > 0 RETURNING old.term_count",
        m.agent_id as _,
        m.id as _
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(len) = old {
        // Locks in the order every writer takes them: first the agent's corpus row (an addition
        // or an edit takes it in the memory row's change-time trigger, before its postings),
        // then the term statistics in byte order (`COLLATE "C"`, the order `sync` writes them
        // in). Locking a term first and the corpus row second deadlocked with a concurrent
        // addition sharing that term.
        sqlx::query!(
            "UPDATE memory_corpus_stats SET docs = greatest(docs - 1, 0), total_length = greatest(total_length - $2, 0)
              WHERE agent_id = $1",
            m.agent_id as _,
            i64::from(len)
        )
        .execute(&mut *conn)
        .await?;
        // The term statistics lose one document per term (max_tf and min_doc_len stay: still
        // upper bounds).
        sqlx::query!(
            r#"UPDATE memory_term_stats s SET df = s.df - 1
               FROM (SELECT s2.term FROM memory_term_stats s2
                       JOIN memory_terms mt ON mt.agent_id = s2.agent_id AND mt.term = s2.term
                      WHERE mt.agent_id = $2 AND mt.memory_id = $1
                      ORDER BY s2.term COLLATE "C" FOR UPDATE OF s2) t
              WHERE s.agent_id = $2 AND s.term = t.term"#,
            m.id as _,
            m.agent_id as _
        )
        .execute(&mut *conn)
        .await?;
        sqlx::query!("DELETE FROM memory_terms WHERE agent_id = $1 AND memory_id = $2", m.agent_id as _, m.id as _)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Postings read in full below this many (the query's terms together); above it, a search
/// first scores the documents of the rarer terms and skips common terms that cannot reach the
/// top results (MaxScore).
const FULL_SCAN_POSTINGS: i64 = 4_000;

/// One query term's corpus statistics.
struct TermStats {
    term: String,
    idf: f64,
    /// The most this term can add to any document's score.
    upper: f64,
    df: i64,
}

/// One term of one memory: its frequency there and the memory's length.
#[derive(Debug, Clone)]
struct Posting {
    memory_id: MemoryId,
    term: String,
    tf: i32,
    doc_len: i32,
}

async fn postings(
    conn: &mut PgConnection,
    agent_id: AgentId,
    terms: &[&str],
    only: Option<&[MemoryId]>,
) -> sqlx::Result<Vec<Posting>> {
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    match only {
        None => {
            sqlx::query_as!(
                Posting,
                "SELECT memory_id, term, tf, doc_len FROM memory_terms WHERE agent_id = $1 AND term = ANY($2)",
                agent_id as _,
                terms as &[&str]
            )
            .fetch_all(&mut *conn)
            .await
        }
        // One primary-key probe per (term, memory): the planner would otherwise read every
        // posting of each memory through the memory_id index, or every posting of each term.
        Some(ids) => {
            sqlx::query_as!(
                Posting,
                "SELECT p.memory_id, p.term, p.tf, p.doc_len
                   FROM unnest($2::text[]) AS t(term) CROSS JOIN unnest($3::uuid[]) AS m(id)
                   JOIN LATERAL (SELECT memory_id, term, tf, doc_len FROM memory_terms
                                  WHERE agent_id = $1 AND term = t.term AND memory_id = m.id) p ON true",
                agent_id as _,
                terms as &[&str],
                ids as _
            )
            .fetch_all(&mut *conn)
            .await
        }
    }
}

/// Sums each document's BM25 over the postings given.
fn scores(ps: &[Posting], stats: &[TermStats], avgdl: f64) -> HashMap<MemoryId, f64> {
    let idf: HashMap<&str, f64> = stats.iter().map(|t| (t.term.as_str(), t.idf)).collect();
    let mut out: HashMap<MemoryId, f64> = HashMap::new();
    for p in ps {
        if let Some(idf) = idf.get(p.term.as_str()) {
            *out.entry(p.memory_id).or_default() +=
                score::bm25_term(*idf, f64::from(p.tf), f64::from(p.doc_len), avgdl);
        }
    }
    out
}

/// Best first (ties by id), at most `limit`.
fn top(scores: HashMap<MemoryId, f64>, limit: i64) -> Vec<(MemoryId, f64)> {
    let mut v: Vec<(MemoryId, f64)> = scores.into_iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    v.truncate(limit.max(0) as usize);
    v
}

/// BM25 scores of an agent's memories for the query terms, best first: over the whole corpus
/// (`only: None`, top `limit`) or for the given memories. Idf, k1 and b as in `score`; the
/// scores are exact. Over the whole corpus, when the terms' postings are many, the documents
/// of the rarest terms are scored first and the commonest terms are added only while their
/// largest possible contribution could still change the top `limit` (MaxScore).
pub async fn bm25(
    conn: &mut PgConnection,
    agent_id: AgentId,
    query_terms: &[String],
    only: Option<&[MemoryId]>,
    limit: i64,
) -> sqlx::Result<Vec<(MemoryId, f64)>> {
    scored(conn, agent_id, query_terms, only, limit, limit).await
}

/// The best `limit` by BM25 over the whole corpus, of which only the first `precise` must be
/// the true top: MaxScore stops once the terms not yet read cannot change those, and the rest
/// of the list is the best of the documents already scored (each with its exact score). A
/// search that fuses a deep candidate list but shows only the first few asks for this: a query
/// whose rarest word is in 50 memories settles a top 20 from those 50, where a true top 100
/// would read every posting of its next, perhaps commonest, word (B2).
pub async fn bm25_deep(
    conn: &mut PgConnection,
    agent_id: AgentId,
    query_terms: &[String],
    limit: i64,
    precise: i64,
) -> sqlx::Result<Vec<(MemoryId, f64)>> {
    scored(conn, agent_id, query_terms, None, limit, precise.clamp(1, limit.max(1))).await
}

async fn scored(
    conn: &mut PgConnection,
    agent_id: AgentId,
    query_terms: &[String],
    only: Option<&[MemoryId]>,
    limit: i64,
    precise: i64,
) -> sqlx::Result<Vec<(MemoryId, f64)>> {
    let mut unique: Vec<&str> = query_terms.iter().map(String::as_str).collect();
    unique.sort();
    unique.dedup();
    if unique.is_empty() {
        return Ok(Vec::new());
    }
    let corpus = sqlx::query!(
        r#"SELECT docs::bigint AS "docs!", total_length FROM memory_corpus_stats WHERE agent_id = $1"#,
        agent_id as _
    )
    .fetch_optional(&mut *conn)
    .await?
    .map(|c| (c.docs, c.total_length));
    let Some((docs, total)) = corpus.filter(|(d, _)| *d > 0) else { return Ok(Vec::new()) };
    let (n, avgdl) = (docs as f64, total as f64 / docs as f64);
    let rows = sqlx::query!(
        "SELECT term, df, max_tf, min_doc_len FROM memory_term_stats WHERE agent_id = $1 AND term = ANY($2) AND df > 0",
        agent_id as _,
        &unique as &[&str]
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut stats: Vec<TermStats> = rows
        .into_iter()
        .map(|r| {
            let idf = score::idf(n, f64::from(r.df));
            let upper = score::bm25_term(idf, f64::from(r.max_tf), f64::from(r.min_doc_len), avgdl);
            TermStats { term: r.term, idf, upper, df: i64::from(r.df) }
        })
        .collect();
    if stats.is_empty() {
        return Ok(Vec::new());
    }
    let all: Vec<&str> = stats.iter().map(|t| t.term.as_str()).collect();
    if let Some(ids) = only {
        let ps = postings(conn, agent_id, &all, Some(ids)).await?;
        return Ok(top(scores(&ps, &stats, avgdl), limit));
    }
    if stats.iter().map(|t| t.df).sum::<i64>() <= FULL_SCAN_POSTINGS || stats.len() == 1 {
        let ps = postings(conn, agent_id, &all, None).await?;
        return Ok(top(scores(&ps, &stats, avgdl), limit));
    }
    // MaxScore: essential terms (largest possible contribution first) supply the candidates;
    // a document with none of them scores at most the sum of the other terms' bounds.
    stats.sort_by(|a, b| b.upper.total_cmp(&a.upper).then(a.df.cmp(&b.df)));
    let mut essential_postings: Vec<Posting> = Vec::new();
    for e in 1..=stats.len() {
        let new_term = [stats[e - 1].term.as_str()];
        essential_postings.extend(postings(conn, agent_id, &new_term, None).await?);
        let rest: Vec<&str> = stats[e..].iter().map(|t| t.term.as_str()).collect();
        let rest_bound: f64 = stats[e..].iter().map(|t| t.upper).sum();
        let mut candidates: Vec<MemoryId> = essential_postings.iter().map(|p| p.memory_id).collect();
        candidates.sort_unstable();
        candidates.dedup();
        let mut ps = postings(conn, agent_id, &rest, Some(&candidates)).await?;
        ps.extend(essential_postings.iter().cloned());
        let best = top(scores(&ps, &stats, avgdl), limit);
        // The score a document needs to enter the part that must be exact.
        let threshold = usize::try_from(precise - 1).ok().and_then(|i| best.get(i)).map_or(0.0, |b| b.1);
        if rest.is_empty() || rest_bound < threshold {
            return Ok(best);
        }
    }
    unreachable!("the last round has no remaining terms")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_drop_stop_words_and_possessives() {
        assert_eq!(
            terms("The user's favourite city is Vienna, Austria's capital!"),
            ["user", "favourit", "citi", "vienna", "austria", "capit"]
        );
        assert_eq!(terms("Which city? She lives here"), terms("city she live here"));
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_text_gives_lower_case_terms_without_panicking(text in any::<String>()) {
            for t in terms(&text) {
                prop_assert!(!t.is_empty());
                prop_assert_eq!(t.to_lowercase(), t.clone());
            }
        }

        #[test]
        fn terms_ignore_ascii_case(text in "[ -~]{0,80}") {
            prop_assert_eq!(terms(&text.to_ascii_uppercase()), terms(&text));
        }

        #[test]
        fn the_terms_of_two_texts_side_by_side_are_the_terms_of_each(a in any::<String>(), b in any::<String>()) {
            let mut both = terms(&a);
            both.extend(terms(&b));
            prop_assert_eq!(terms(&format!("{a} {b}")), both);
        }
    }
}
