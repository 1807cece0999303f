//! BM25 postings (X1): each live memory's terms with their frequency, and per agent the
//! number of indexed memories and their total length. Kept in step with the row by every
//! write; `bm25` scores a query against them in one statement.

use std::collections::HashMap;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

use sqlx::PgConnection;
use uuid::Uuid;

use super::Memory;
use super::score::{B, K1};

/// The terms BM25 counts: lower-case words of two or more characters, without stop words or
/// the possessive `'s`, reduced to their English (Snowball) stem so that "lives" finds "live".
pub fn terms(text: &str) -> Vec<String> {
    static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));
    crate::llm::offline::text::content_words(text)
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
    let (keys, counts): (Vec<&str>, Vec<i32>) = tf.into_iter().unzip();
    let len = words.len() as i32;
    sqlx::query(
        "INSERT INTO memory_terms (agent_id, term, memory_id, tf, doc_len)
         SELECT $1, t, $2, c, $5 FROM unnest($3::text[], $4::int[]) AS x(t, c)",
    )
    .bind(m.agent_id)
    .bind(m.id)
    .bind(&keys)
    .bind(&counts)
    .bind(len)
    .execute(&mut *conn)
    .await?;
    sqlx::query("UPDATE agent_memories SET term_count = $2 WHERE id = $1")
        .bind(m.id)
        .bind(len)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO memory_corpus_stats AS s (agent_id, docs, total_length) VALUES ($1, 1, $2)
         ON CONFLICT (agent_id) DO UPDATE SET docs = s.docs + 1, total_length = s.total_length + $2",
    )
    .bind(m.agent_id)
    .bind(len as i64)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Takes a memory out of the corpus (no-op when it is not in it).
pub async fn remove(conn: &mut PgConnection, m: &Memory) -> sqlx::Result<()> {
    let old: Option<i32> = sqlx::query_scalar(
        "UPDATE agent_memories a SET term_count = 0 FROM (SELECT id, term_count FROM agent_memories WHERE id = $1) old
          WHERE a.id = old.id AND old.term_count > 0 RETURNING old.term_count",
    )
    .bind(m.id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(len) = old {
        sqlx::query("DELETE FROM memory_terms WHERE memory_id = $1").bind(m.id).execute(&mut *conn).await?;
        sqlx::query(
            "UPDATE memory_corpus_stats SET docs = greatest(docs - 1, 0), total_length = greatest(total_length - $2, 0)
              WHERE agent_id = $1",
        )
        .bind(m.agent_id)
        .bind(len as i64)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// BM25 scores of an agent's memories for the query terms, best first: over the whole corpus
/// (`only: None`, top `limit`) or for the given memories. Idf, k1 and b as in `score`.
pub async fn bm25(
    conn: &mut PgConnection,
    agent_id: Uuid,
    query_terms: &[String],
    only: Option<&[Uuid]>,
    limit: i64,
) -> sqlx::Result<Vec<(Uuid, f64)>> {
    let mut unique: Vec<&str> = query_terms.iter().map(String::as_str).collect();
    unique.sort();
    unique.dedup();
    if unique.is_empty() {
        return Ok(Vec::new());
    }
    sqlx::query_as(
        "WITH stats AS (SELECT docs::float8 AS n, total_length::float8 / greatest(docs, 1) AS avgdl
                          FROM memory_corpus_stats WHERE agent_id = $1),
              df AS (SELECT term, count(*)::float8 AS df FROM memory_terms
                      WHERE agent_id = $1 AND term = ANY($2) GROUP BY term)
         SELECT p.memory_id,
                sum(ln(1 + (stats.n - df.df + 0.5) / (df.df + 0.5))
                    * p.tf * ($5 + 1) / (p.tf + $5 * (1 - $6 + $6 * p.doc_len / stats.avgdl))) AS score
           FROM memory_terms p JOIN df USING (term) CROSS JOIN stats
          WHERE p.agent_id = $1 AND p.term = ANY($2) AND ($3::uuid[] IS NULL OR p.memory_id = ANY($3))
          GROUP BY p.memory_id
          ORDER BY score DESC, p.memory_id
          LIMIT $4",
    )
    .bind(agent_id)
    .bind(&unique)
    .bind(only)
    .bind(limit)
    .bind(K1)
    .bind(B)
    .fetch_all(&mut *conn)
    .await
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
