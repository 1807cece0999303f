//! SPEC B9: memory on real multi-session dialogue that no one here wrote, miniclaw beside the
//! simple formulas in one run.
//!
//!     B9_DATA=<dir with the REALTALK Chat_*.json files> cargo bench --bench memory_dialogue
//!     B9_SPLIT=dev|test|all (default test)   B9_VARIANTS=1 (other fusions of miniclaw's signals)
//!
//! The data: REALTALK (Lee et al., 2025), ten 21-day conversations between real people on a
//! messaging app, with memory-probing questions whose evidence is a list of dialogue turns.
//! Its repository states no licence, so nothing of it is committed here: the bench reads a
//! copy of the repository's `data/Chat_*.json` from `B9_DATA` (default
//! `~/.cache/miniclaw/b9`). That repository also carries a copy of another benchmark under
//! `data/locomo/`; this bench never reads it.
//!
//! Split: chats 1–5 are the development split (tuning), chats 6–10 the test split (reported).
//!
//! Per chat, a new agent; every turn is stored through `POST …/memories/bulk` as
//! `"<speaker>: <text>"` with its own time as `occurred_at` and the category the offline
//! extractor gives it (`context` when none), so supersession runs as it does for any write.
//! Every question is a `POST …/memories/search` (limit 10). The baselines rank every stored
//! turn with the same MiniLM vectors (read back from the database): plain cosine, BM25,
//! `0.7·cos + 0.3·BM25/max` and `0.5·cos + 0.5·BM25/max`. Turn-level evidence Recall@5,
//! Recall@10, Hit@5 and MRR (first evidence turn in the top 10), overall and per question
//! category (the data set's: 1 multi-hop, 2 temporal, 3 inferential).

#[path = "support/app.rs"]
mod app;
#[path = "support/score.rs"]
mod score;
mod support;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use chrono::{DateTime, NaiveDateTime, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

use score::{cosine, mean};

const DB: &str = "miniclaw_bench_b9";
const TOP: usize = 10;
const BULK: usize = 500;

struct Turn {
    dia: String,
    content: String,
    text: String,
    at: DateTime<Utc>,
}

struct Question {
    text: String,
    evidence: HashSet<String>,
    category: i64,
}

struct Chat {
    name: String,
    turns: Vec<Turn>,
    questions: Vec<Question>,
}

fn load(path: &std::path::Path) -> anyhow::Result<Chat> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let obj = v.as_object().ok_or_else(|| anyhow::anyhow!("{}: not an object", path.display()))?;
    let mut sessions: Vec<(u32, &Vec<Value>)> =
        obj.iter().filter_map(|(k, v)| Some((k.strip_prefix("session_")?.parse().ok()?, v.as_array()?))).collect();
    sessions.sort_by_key(|(n, _)| *n);
    let mut turns = Vec::new();
    for (_, session) in sessions {
        for t in session {
            let text = t["clean_text"].as_str().unwrap_or("").trim().to_string();
            if text.is_empty() {
                continue;
            }
            let at = NaiveDateTime::parse_from_str(t["date_time"].as_str().unwrap_or(""), "%d.%m.%Y, %H:%M:%S")?;
            let speaker = t["speaker"].as_str().unwrap_or("someone");
            turns.push(Turn {
                dia: t["dia_id"].as_str().unwrap_or("").to_string(),
                content: format!("{speaker}: {text}"),
                text,
                at: at.and_utc(),
            });
        }
    }
    let questions = v["qa"]
        .as_array()
        .map(|qs| {
            qs.iter()
                .filter_map(|q| {
                    let evidence: HashSet<String> =
                        q["evidence"].as_array()?.iter().filter_map(|e| e.as_str().map(String::from)).collect();
                    (!evidence.is_empty()).then(|| Question {
                        text: q["question"].as_str().unwrap_or("").to_string(),
                        evidence,
                        category: q["category"].as_i64().unwrap_or(0),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let name = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
    Ok(Chat { name, turns, questions })
}

/// The number in `Chat_<n>_...`.
fn chat_number(name: &str) -> u32 {
    name.split('_').nth(1).and_then(|n| n.parse().ok()).unwrap_or(0)
}

#[derive(Default, Clone)]
struct Scores {
    r5: Vec<f64>,
    r10: Vec<f64>,
    hit5: Vec<f64>,
    rr: Vec<f64>,
}

impl Scores {
    fn add(&mut self, evidence: &HashSet<String>, ranked: &[String]) {
        let recall = |k: usize| {
            let found: HashSet<&String> = ranked.iter().take(k).filter(|d| evidence.contains(*d)).collect();
            found.len() as f64 / evidence.len() as f64
        };
        self.r5.push(recall(5));
        self.r10.push(recall(10));
        let first = ranked.iter().take(TOP).position(|d| evidence.contains(d));
        self.hit5.push(f64::from(u8::from(first.is_some_and(|p| p < 5))));
        self.rr.push(first.map_or(0.0, |p| 1.0 / (p as f64 + 1.0)));
    }

    fn extend(&mut self, o: &Scores) {
        self.r5.extend(&o.r5);
        self.r10.extend(&o.r10);
        self.hit5.extend(&o.hit5);
        self.rr.extend(&o.rr);
    }
}

/// Scores of one system: overall and per category.
#[derive(Default, Clone)]
struct System {
    all: Scores,
    by_category: BTreeMap<i64, Scores>,
}

impl System {
    fn add(&mut self, q: &Question, ranked: &[String]) {
        let mut s = Scores::default();
        s.add(&q.evidence, ranked);
        self.all.extend(&s);
        self.by_category.entry(q.category).or_default().extend(&s);
    }

    fn row(&self, name: &str, categories: &[i64]) -> String {
        let per: Vec<String> =
            categories.iter().map(|c| format!("{:.3}", self.by_category.get(c).map_or(0.0, |s| mean(&s.r5)))).collect();
        format!(
            "| {name} | {:.3} | {:.3} | {:.3} | {:.3} | {} |",
            mean(&self.all.r5),
            mean(&self.all.r10),
            mean(&self.all.hit5),
            mean(&self.all.rr),
            per.join(" | ")
        )
    }

    fn json(&self, name: &str, split: &str) -> Value {
        let cats: BTreeMap<String, Value> = self
            .by_category
            .iter()
            .map(|(c, s)| {
                (
                    c.to_string(),
                    json!({ "questions": s.r5.len(), "r5": mean(&s.r5), "r10": mean(&s.r10), "mrr": mean(&s.rr) }),
                )
            })
            .collect();
        json!({
            "bench": "B9", "split": split, "system": name, "questions": self.all.r5.len(),
            "r5": mean(&self.all.r5), "r10": mean(&self.all.r10), "hit5": mean(&self.all.hit5),
            "mrr": mean(&self.all.rr), "categories": cats,
        })
    }
}

/// BM25 over a fixed corpus, document frequencies counted once.
struct Bm25 {
    docs: Vec<HashMap<String, f64>>,
    lens: Vec<f64>,
    avg: f64,
    df: HashMap<String, f64>,
}

impl Bm25 {
    fn new(texts: &[String]) -> Self {
        let mut df: HashMap<String, f64> = HashMap::new();
        let mut docs = Vec::with_capacity(texts.len());
        let mut lens = Vec::with_capacity(texts.len());
        for t in texts {
            let terms = miniclaw::memory::terms::terms(t);
            lens.push(terms.len() as f64);
            let mut tf: HashMap<String, f64> = HashMap::new();
            for w in terms {
                *tf.entry(w).or_default() += 1.0;
            }
            for w in tf.keys() {
                *df.entry(w.clone()).or_default() += 1.0;
            }
            docs.push(tf);
        }
        let avg = lens.iter().sum::<f64>() / (lens.len().max(1) as f64);
        Bm25 { docs, lens, avg, df }
    }

    fn scores(&self, query: &str) -> Vec<f64> {
        use miniclaw::memory::score::{bm25_term, idf};
        let mut q = miniclaw::memory::terms::terms(query);
        q.sort();
        q.dedup();
        let n = self.docs.len() as f64;
        self.docs
            .iter()
            .zip(&self.lens)
            .map(|(d, len)| {
                q.iter()
                    .filter_map(|t| {
                        let tf = *d.get(t)?;
                        Some(bm25_term(idf(n, self.df[t]), tf, *len, self.avg))
                    })
                    .sum()
            })
            .collect()
    }
}

/// Parses pgvector's text form `[0.1,0.2,...]`.
fn parse_vector(s: &str) -> Vec<f32> {
    s.trim_matches(|c| c == '[' || c == ']').split(',').filter_map(|x| x.trim().parse().ok()).collect()
}

/// A fusion of miniclaw's returned signals (bm25/best, semantic, prominence, time), for
/// `B9_VARIANTS`.
type Fusion = fn(&Value) -> f64;

fn sig(s: &Value, k: &str) -> f64 {
    s[k].as_f64().unwrap_or(0.0)
}

const VARIANTS: &[(&str, Fusion)] = &[
    ("score as returned", |s| sig(s, "score")),
    ("0.1/0.85/0.05 (before)", |s| 0.1 * sig(s, "bm25") + 0.85 * sig(s, "semantic") + 0.05 * sig(s, "prominence")),
    // Saturating BM25 (a single rare-word match stops counting as a full match), the same
    // fusions as B6's VARIANTS: weights that might hold on both data sets.
    ("0.5·sem + 0.5·raw/(raw+4)", |s| 0.5 * sig(s, "semantic") + 0.5 * sat(s, 4.0)),
    ("0.5·sem + 0.5·raw/(raw+8)", |s| 0.5 * sig(s, "semantic") + 0.5 * sat(s, 8.0)),
    ("0.6·sem + 0.4·raw/(raw+4)", |s| 0.6 * sig(s, "semantic") + 0.4 * sat(s, 4.0)),
    ("0.7·sem + 0.3·raw/(raw+2)", |s| 0.7 * sig(s, "semantic") + 0.3 * sat(s, 2.0)),
    ("0.5·sem + 0.5·bm25·raw/(raw+4)", |s| 0.5 * sig(s, "semantic") + 0.5 * sig(s, "bm25") * sat(s, 4.0)),
];

/// BM25's raw score saturated at `k`: `raw / (raw + k)`.
fn sat(s: &Value, k: f64) -> f64 {
    let raw = sig(s, "bm25_raw");
    raw / (raw + k)
}

/// Fusions computed in the bench over every stored turn (no candidate limit), to choose the
/// search's weights on the development split: `(w_bm25, w_time, w_context)`, cosine weighted
/// `1 - w_bm25`; context is the better base score of the turns just before and after (within
/// 30 minutes).
const GRID: &[(f64, f64, f64)] = &[
    (0.3, 0.0, 0.0),
    (0.5, 0.0, 0.0),
    (0.6, 0.0, 0.0),
    (0.5, 0.1, 0.0),
    (0.3, 0.0, 0.3),
    (0.4, 0.0, 0.3),
    (0.5, 0.0, 0.2),
    (0.5, 0.0, 0.3),
    (0.5, 0.0, 0.5),
    (0.5, 0.1, 0.3),
    (0.6, 0.0, 0.3),
    (0.6, 0.1, 0.3),
];

fn main() -> anyhow::Result<()> {
    miniclaw::embed::minilm::one_thread_per_pass();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(run())
}

async fn run() -> anyhow::Result<()> {
    let dir = std::env::var("B9_DATA").map(std::path::PathBuf::from).unwrap_or_else(|_| {
        std::path::PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/miniclaw/b9")
    });
    let split = std::env::var("B9_SPLIT").unwrap_or_else(|_| "test".into());
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| {
            anyhow::anyhow!(
                "{}: {e}; copy the Chat_*.json files of the REALTALK repository's data/ folder there, or set B9_DATA",
                dir.display()
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("Chat_")))
        .collect();
    files.sort_by_key(|p| chat_number(&p.file_stem().unwrap_or_default().to_string_lossy()));
    let chats: Vec<Chat> = files
        .iter()
        .map(|p| load(p))
        .collect::<anyhow::Result<Vec<_>>>()?
        .into_iter()
        .filter(|c| match split.as_str() {
            "dev" => chat_number(&c.name) <= 5,
            "test" => chat_number(&c.name) > 5,
            _ => true,
        })
        .collect();
    anyhow::ensure!(!chats.is_empty(), "no REALTALK chats for split {split} in {}", dir.display());
    let variants_on = std::env::var("B9_VARIANTS").is_ok();
    let limit = if variants_on { 50 } else { TOP };

    let app::App { client: c, state, pool, cancel } = app::start(DB, "minilm", &[]).await?;
    let names = [
        "miniclaw search",
        "plain cosine",
        "BM25",
        "0.7·cos + 0.3·BM25",
        "0.5·cos + 0.5·BM25",
        "miniclaw, traversal off",
    ];
    let mut systems: Vec<System> = vec![System::default(); names.len()];
    let mut variants: Vec<System> = vec![System::default(); VARIANTS.len()];
    let mut grid: Vec<System> = vec![System::default(); GRID.len()];
    let (mut turns_total, mut replaced_total, mut questions_total) = (0usize, 0i64, 0usize);
    let mut latencies: Vec<f64> = Vec::new();
    // The hand-labelled supersession sample: (chat, new turn) → the turn it replaces, if any.
    let labels: HashMap<(String, String), Option<String>> =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/b9_supersession.jsonl"))?
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| {
                Some((
                    (v["chat"].as_str()?.to_string(), v["new"].as_str()?.to_string()),
                    v["replaces"].as_str().map(String::from),
                ))
            })
            .collect();
    let (mut labelled, mut false_replacements, mut true_found, mut true_total) = (0usize, 0usize, 0usize, 0usize);
    // The false ones, by turn id (chat, new → old), to read against the data set.
    let mut false_pairs: Vec<String> = Vec::new();
    let t0 = Instant::now();
    for chat in &chats {
        let agent: Uuid = c.agent(&chat.name).await?.parse()?;
        let mut dia_of: HashMap<Uuid, String> = HashMap::new();
        for batch in chat.turns.chunks(BULK) {
            let memories: Vec<Value> = batch
                .iter()
                .map(|t| {
                    let category = miniclaw::offline::extraction::extract(&t.text)
                        .first()
                        .map_or("context", |f| f.category)
                        .to_string();
                    json!({ "content": t.content, "category": category, "occurred_at": t.at })
                })
                .collect();
            let r =
                c.post(&format!("/v1/hosted-agents/{agent}/memories/bulk"), json!({ "memories": memories })).await?;
            for (m, t) in r["memories"].as_array().into_iter().flatten().zip(batch) {
                dia_of.insert(m["id"].as_str().unwrap_or_default().parse()?, t.dia.clone());
            }
        }
        let rows: Vec<(Uuid, Option<String>, bool)> = sqlx::query_as(
            "SELECT id, embedding::text, invalid_at IS NOT NULL FROM agent_memories WHERE agent_id = $1",
        )
        .bind(agent)
        .fetch_all(&pool)
        .await?;
        replaced_total += rows.iter().filter(|r| r.2).count() as i64;
        // What the detector linked: new turn → the turn it replaced, checked against the labels.
        let links: Vec<(Uuid, Uuid)> =
            sqlx::query_as("SELECT from_id, to_id FROM memory_relations WHERE agent_id = $1 AND kind = 'updates'")
                .bind(agent)
                .fetch_all(&pool)
                .await?;
        let replaced_by: HashMap<String, String> =
            links.iter().filter_map(|(new, old)| Some((dia_of.get(new)?.clone(), dia_of.get(old)?.clone()))).collect();
        for ((label_chat, new), replaces) in &labels {
            if label_chat != &chat.name {
                continue;
            }
            labelled += 1;
            let found = replaced_by.get(new);
            match (replaces, found) {
                (Some(want), Some(got)) if want == got => true_found += 1,
                (_, Some(got)) => {
                    false_replacements += 1;
                    false_pairs.push(format!("{label_chat} {new} → {got}"));
                }
                _ => {}
            }
            true_total += usize::from(replaces.is_some());
        }
        turns_total += chat.turns.len();
        let vectors: HashMap<Uuid, Vec<f32>> =
            rows.into_iter().map(|(id, v, _)| (id, v.as_deref().map(parse_vector).unwrap_or_default())).collect();
        // The baselines' corpus: every stored turn, in the order written.
        let id_of: HashMap<&String, Uuid> = dia_of.iter().map(|(id, dia)| (dia, *id)).collect();
        let corpus: Vec<(String, String, Vec<f32>)> = chat
            .turns
            .iter()
            .filter_map(|t| {
                let id = id_of.get(&t.dia)?;
                Some((t.dia.clone(), t.content.clone(), vectors.get(id).cloned().unwrap_or_default()))
            })
            .collect();
        let times: Vec<DateTime<Utc>> =
            chat.turns.iter().filter(|t| id_of.contains_key(&t.dia)).map(|t| t.at).collect();
        let bm25 = Bm25::new(&corpus.iter().map(|(_, t, _)| t.clone()).collect::<Vec<_>>());

        for q in &chat.questions {
            questions_total += 1;
            let t = Instant::now();
            let r = c
                .post(&format!("/v1/hosted-agents/{agent}/memories/search"), json!({ "query": q.text, "limit": limit }))
                .await?;
            latencies.push(t.elapsed().as_secs_f64() * 1000.0);
            let results: Vec<&Value> = r["results"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
            let dia = |v: &Value| -> String {
                v["memory"]["id"]
                    .as_str()
                    .and_then(|id| id.parse().ok())
                    .and_then(|id| dia_of.get(&id).cloned())
                    .unwrap_or_default()
            };
            let ours: Vec<String> = results.iter().take(TOP).map(|v| dia(v)).collect();
            systems[0].add(q, &ours);
            if variants_on {
                for (i, (_, f)) in VARIANTS.iter().enumerate() {
                    let mut scored: Vec<(f64, String)> = results
                        .iter()
                        .map(|v| {
                            let mut s = v["signals"].clone();
                            s["score"] = v["score"].clone();
                            (f(&s), dia(v))
                        })
                        .collect();
                    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
                    variants[i].add(q, &scored.into_iter().map(|(_, d)| d).collect::<Vec<_>>());
                }
            }
            let qv = state.embedder().embed(std::slice::from_ref(&q.text)).await?.pop().unwrap_or_default();
            let cos: Vec<f64> = corpus.iter().map(|(_, _, v)| cosine(&qv, v)).collect();
            let b = bm25.scores(&q.text);
            let best = b.iter().copied().fold(0.0, f64::max);
            let norm: Vec<f64> = b.iter().map(|x| if best > 0.0 { x / best } else { 0.0 }).collect();
            let rank = |score: &dyn Fn(usize) -> f64| -> Vec<String> {
                let mut idx: Vec<usize> = (0..corpus.len()).collect();
                idx.sort_by(|x, y| score(*y).total_cmp(&score(*x)));
                idx.into_iter().take(TOP).map(|i| corpus[i].0.clone()).collect()
            };
            systems[1].add(q, &rank(&|i| cos[i]));
            systems[2].add(q, &rank(&|i| b[i]));
            systems[3].add(q, &rank(&|i| 0.7 * cos[i] + 0.3 * norm[i]));
            systems[4].add(q, &rank(&|i| 0.5 * cos[i] + 0.5 * norm[i]));
            // The same search without bridging and learned traversal: what they add or cost.
            let plain = c
                .post(
                    &format!("/v1/hosted-agents/{agent}/memories/search"),
                    json!({ "query": q.text, "limit": TOP, "traversal": false }),
                )
                .await?;
            let plain: Vec<String> =
                plain["results"].as_array().map(|a| a.iter().map(dia).collect()).unwrap_or_default();
            systems[5].add(q, &plain);
            if variants_on {
                let window = miniclaw::memory::when::window(&q.text, Utc::now());
                let near = |a: usize, b: usize| (times[a] - times[b]).num_minutes().abs() <= 30;
                for (g, (wb, wt, wc)) in grid.iter_mut().zip(GRID) {
                    let base: Vec<f64> = (0..corpus.len())
                        .map(|i| {
                            let t = f64::from(u8::from(window.as_ref().is_some_and(|w| w.contains(times[i]))));
                            (1.0 - wb) * cos[i].max(0.0) + wb * norm[i] + wt * t
                        })
                        .collect();
                    let ctx = |i: usize| {
                        let prev = if i > 0 && near(i, i - 1) { base[i - 1] } else { 0.0 };
                        let next = if i + 1 < base.len() && near(i, i + 1) { base[i + 1] } else { 0.0 };
                        prev.max(next)
                    };
                    g.add(q, &rank(&|i| base[i] + wc * ctx(i)));
                }
            }
        }
        eprintln!(
            "{}: {} turns, {} questions ({:.0} s)",
            chat.name,
            chat.turns.len(),
            chat.questions.len(),
            t0.elapsed().as_secs_f64()
        );
    }
    cancel.cancel();

    let categories: Vec<i64> = {
        let mut c: Vec<i64> = systems[0].by_category.keys().copied().collect();
        c.sort();
        c
    };
    let counts: Vec<String> = categories
        .iter()
        .map(|c| format!("cat {c} R@5 (n={})", systems[0].by_category.get(c).map_or(0, |s| s.r5.len())))
        .collect();
    latencies.sort_by(f64::total_cmp);
    let pct = |p: f64| latencies.get(((latencies.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(0.0);
    println!(
        "\nB9 on REALTALK, split {split}: {} chats, {turns_total} turns, {questions_total} questions; \
         {replaced_total} turns marked replaced ({:.1}%); search p50 {:.1} ms, p90 {:.1} ms\n",
        chats.len(),
        100.0 * replaced_total as f64 / turns_total.max(1) as f64,
        pct(0.5),
        pct(0.9)
    );
    if labelled > 0 {
        println!(
            "Supersession on the {labelled} hand-labelled writes: {false_replacements} false replacements ({:.1}% of writes), \
             {true_found} of {true_total} true replacements found\n",
            100.0 * false_replacements as f64 / labelled as f64
        );
        false_pairs.sort();
        for pair in &false_pairs {
            println!("  false replacement: {pair}");
        }
    }
    println!("| system | R@5 | R@10 | Hit@5 | MRR | {} |", counts.join(" | "));
    println!("|---|---|---|---|---|{}", "---|".repeat(categories.len()));
    for (s, n) in systems.iter().zip(names) {
        println!("{}", s.row(n, &categories));
    }
    if variants_on {
        println!("\nOther fusions of the signals miniclaw returned (top {limit} re-ranked):\n");
        for (s, (n, _)) in variants.iter().zip(VARIANTS) {
            println!("{}", s.row(n, &categories));
        }
        println!("\nFusions over every stored turn, (1-w)·cos + w·BM25/max + w_t·time + w_c·context:\n");
        for (s, (wb, wt, wc)) in grid.iter().zip(GRID) {
            println!("{}", s.row(&format!("w {wb} · time {wt} · context {wc}"), &categories));
        }
    }
    println!();
    for (s, n) in systems.iter().zip(names) {
        println!("{}", s.json(n, &split));
    }
    Ok(())
}
