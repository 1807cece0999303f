//! SPEC B6: memory quality over a long horizon, miniclaw beside three baselines in one run.
//!
//!     cargo bench --bench memory_quality                    # MiniLM embeddings (the default)
//!     B6_EMBEDDER=hash cargo bench --bench memory_quality   # the hashing embedder
//!
//! The scenario (`benches/data/b6_scenario.json`, checked by `check_b6.py` beside it) is one
//! person's 64 days with their assistant: statements of fact, small talk, and questions about
//! themself asked along the way, some of them about facts that changed (a move, a new job, a
//! rescheduled appointment) and some paraphrased so that they share no word with the answer.
//!
//! The app runs in-process on a scratch database (`miniclaw_bench_b6`, recreated each run)
//! with the offline engine. Two agents hear the same days:
//! - **API path**: each statement is stored as a memory (`POST …/memories`, category from the
//!   offline extractor), each question is a search (`POST …/memories/search`);
//! - **chat path**: statements and small talk are chat messages (`POST …/chat`) and memories are
//!   whatever extraction makes of them; the questions are the same searches.
//!
//! Days pass by moving every stored timestamp of both agents back a day, so ages, recency and
//! the order of writes are those of the scenario. The baselines rank, at each question, every
//! statement stored so far on the API path (they never replace anything) with the same vectors:
//! plain cosine (Mem0's ranking), OpenClaw's `0.7·cos + 0.3·BM25/max` and the seed formula
//! `0.4·BM25/max + 0.4·cos + 0.2·prominence` (prominence: the R2 importance of a fresh memory of
//! that age). Reports MRR, Hit@1, Hit@5, nDCG@5 over the top 10, fresh@1 (the current value
//! first, for questions about changed facts), stale@1 (a replaced value first), the paraphrase
//! MRR and extraction's keep rates, as a table and as JSON lines.

#[path = "support/app.rs"]
mod app;
#[path = "support/score.rs"]
mod score;
mod support;

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use score::{cosine, mean};

const DB: &str = "miniclaw_bench_b6";
const TOP: usize = 10;

#[derive(Deserialize)]
struct Scenario {
    events: Vec<Event>,
}

#[derive(Deserialize, Clone)]
struct Event {
    day: i64,
    kind: String,
    id: Option<String>,
    say: Option<String>,
    ask: Option<String>,
    #[serde(default)]
    answers: Vec<String>,
    #[serde(default)]
    stale: Vec<String>,
    #[serde(default)]
    paraphrase: bool,
}

/// Ranked fact ids per question, for one system.
#[derive(Default)]
struct Scores {
    rr: Vec<f64>,
    hit1: Vec<f64>,
    hit5: Vec<f64>,
    ndcg5: Vec<f64>,
    fresh1: Vec<f64>,
    stale1: Vec<f64>,
    para_rr: Vec<f64>,
}

impl Scores {
    fn add(&mut self, q: &Event, ranked: &[Option<String>]) {
        let rel = |f: &Option<String>| f.as_ref().is_some_and(|f| q.answers.contains(f));
        let first = ranked.iter().take(TOP).position(rel);
        let rr = first.map_or(0.0, |p| 1.0 / (p as f64 + 1.0));
        self.rr.push(rr);
        self.hit1.push(f64::from(u8::from(first == Some(0))));
        self.hit5.push(f64::from(u8::from(first.is_some_and(|p| p < 5))));
        // Binary nDCG@5, each answer fact counted once.
        let mut seen = HashSet::new();
        let dcg: f64 = ranked
            .iter()
            .take(5)
            .enumerate()
            .filter(|(_, f)| rel(f) && seen.insert((*f).clone()))
            .map(|(i, _)| 1.0 / (i as f64 + 2.0).log2())
            .sum();
        let ideal: f64 = (0..q.answers.len().min(5)).map(|i| 1.0 / (i as f64 + 2.0).log2()).sum();
        self.ndcg5.push(if ideal > 0.0 { dcg / ideal } else { 0.0 });
        if !q.stale.is_empty() {
            self.fresh1.push(f64::from(u8::from(first == Some(0))));
            let top_stale = ranked.first().and_then(|f| f.as_ref()).is_some_and(|f| q.stale.contains(f));
            self.stale1.push(f64::from(u8::from(top_stale)));
        }
        if q.paraphrase {
            self.para_rr.push(rr);
        }
    }

    fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            mean(&self.rr),
            mean(&self.hit1),
            mean(&self.hit5),
            mean(&self.ndcg5),
            mean(&self.fresh1),
            mean(&self.stale1),
            mean(&self.para_rr)
        )
    }

    fn json(&self, name: &str) -> Value {
        json!({
            "system": name, "questions": self.rr.len(), "mrr": mean(&self.rr), "hit1": mean(&self.hit1),
            "hit5": mean(&self.hit5), "ndcg5": mean(&self.ndcg5), "fresh1": mean(&self.fresh1),
            "stale1": mean(&self.stale1), "paraphrase_mrr": mean(&self.para_rr),
        })
    }
}

/// A fusion of (bm25/best, bm25 raw, semantic, prominence, rank in miniclaw's answer).
type Fusion = fn(f64, f64, f64, f64, usize) -> f64;

const VARIANTS: &[(&str, Fusion)] = &[
    ("0.4/0.4/0.2", |b, _, s, p, _| 0.4 * b + 0.4 * s + 0.2 * p),
    ("0.2/0.7/0.1", |b, _, s, p, _| 0.2 * b + 0.7 * s + 0.1 * p),
    ("0.1/0.85/0.05", |b, _, s, p, _| 0.1 * b + 0.85 * s + 0.05 * p),
    ("semantic only", |_, _, s, _, _| s),
    ("sem + 0.15·raw/(raw+2)", |_, r, s, _, _| s + 0.15 * r / (r + 2.0)),
    ("sem + 0.1·raw/(raw+2) + 0.05·p", |_, r, s, p, _| s + 0.1 * r / (r + 2.0) + 0.05 * p),
    ("sem + 0.25·raw/(raw+4)", |_, r, s, _, _| s + 0.25 * r / (r + 4.0)),
    // The same fusions as B9's VARIANTS: weights that might hold on both data sets.
    ("0.5/0.5/0.05 (now)", |b, _, s, p, _| 0.5 * b + 0.5 * s + 0.05 * p),
    ("0.5·sem + 0.5·raw/(raw+4)", |_, r, s, _, _| 0.5 * s + 0.5 * r / (r + 4.0)),
    ("0.5·sem + 0.5·raw/(raw+8)", |_, r, s, _, _| 0.5 * s + 0.5 * r / (r + 8.0)),
    ("0.6·sem + 0.4·raw/(raw+4)", |_, r, s, _, _| 0.6 * s + 0.4 * r / (r + 4.0)),
    ("0.7·sem + 0.3·raw/(raw+2)", |_, r, s, _, _| 0.7 * s + 0.3 * r / (r + 2.0)),
    ("0.5·sem + 0.5·bm25·raw/(raw+4)", |b, r, s, _, _| 0.5 * s + 0.5 * b * r / (r + 4.0)),
];

/// One statement stored on the API path, as the baselines see it.
struct Stored {
    fact: String,
    terms: Vec<String>,
    vector: Vec<f32>,
    day: i64,
}

/// The baselines' rankings of everything stored so far.
fn baselines(stored: &[Stored], query: &str, qv: &[f32], today: i64) -> [Vec<Option<String>>; 3] {
    let q_terms = miniclaw::memory::terms::terms(query);
    let docs: Vec<Vec<String>> = stored.iter().map(|s| s.terms.clone()).collect();
    let bm25 = miniclaw::memory::score::bm25_reference(&docs, &q_terms);
    let best = bm25.iter().copied().fold(0.0, f64::max);
    let norm: Vec<f64> = bm25.iter().map(|b| if best > 0.0 { b / best } else { 0.0 }).collect();
    let cos: Vec<f64> = stored.iter().map(|s| cosine(qv, &s.vector)).collect();
    let rank = |score: &dyn Fn(usize) -> f64| -> Vec<Option<String>> {
        let mut idx: Vec<usize> = (0..stored.len()).collect();
        idx.sort_by(|a, b| score(*b).total_cmp(&score(*a)));
        idx.into_iter().take(TOP).map(|i| Some(stored[i].fact.clone())).collect()
    };
    let prominence = |i: usize| miniclaw::memory::score::importance(0.8, 1, (today - stored[i].day) as f64, 5.0);
    [
        rank(&|i| cos[i]),
        rank(&|i| 0.7 * cos[i] + 0.3 * norm[i]),
        rank(&|i| 0.4 * norm[i] + 0.4 * cos[i].max(0.0) + 0.2 * prominence(i)),
    ]
}

/// Moves every stored time of the agents back by `days`: the scenario's clock advancing.
async fn advance(pool: &sqlx::PgPool, agents: &[Uuid], days: i64) -> anyhow::Result<()> {
    if days <= 0 {
        return Ok(());
    }
    sqlx::query(
        "UPDATE agent_memories SET created_at = created_at - make_interval(days => $2),
                updated_at = updated_at - make_interval(days => $2),
                last_mentioned_at = last_mentioned_at - make_interval(days => $2),
                last_retrieved_at = last_retrieved_at - make_interval(days => $2),
                invalid_at = invalid_at - make_interval(days => $2)
          WHERE agent_id = ANY($1)",
    )
    .bind(agents)
    .bind(days as i32)
    .execute(pool)
    .await?;
    Ok(())
}

/// Waits (bounded) until the agent's extraction queue is empty and no extraction job is
/// pending or running.
async fn settle(pool: &sqlx::PgPool, agent: Uuid) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let busy: i64 = sqlx::query_scalar(
            "SELECT (SELECT count(*) FROM extraction_queue WHERE agent_id = $1)
                  + (SELECT count(*) FROM jobs WHERE agent_id = $1 AND kind = 'chat_extract' AND status IN ('queued', 'running'))",
        )
        .bind(agent)
        .fetch_one(pool)
        .await?;
        if busy == 0 {
            return Ok(());
        }
        anyhow::ensure!(Instant::now() < deadline, "extraction did not settle in 60 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn memory_ids(pool: &sqlx::PgPool, agent: Uuid) -> anyhow::Result<HashSet<Uuid>> {
    Ok(sqlx::query_scalar("SELECT id FROM agent_memories WHERE agent_id = $1")
        .bind(agent)
        .fetch_all(pool)
        .await?
        .into_iter()
        .collect())
}

fn main() -> anyhow::Result<()> {
    miniclaw::embed::minilm::one_thread_per_pass();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(run())
}

async fn run() -> anyhow::Result<()> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/b6_scenario.json");
    let scenario: Scenario = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let embedder = std::env::var("B6_EMBEDDER").unwrap_or_else(|_| "minilm".into());
    let app::App { client: c, state, pool, cancel } = app::start(DB, &embedder, &[]).await?;
    let mut agents: Vec<Uuid> = Vec::new();
    for name in ["Api", "Chat"] {
        agents.push(c.agent(name).await?.parse()?);
    }
    let (api, chat) = (agents[0], agents[1]);

    let t = Instant::now();
    let mut today = 1;
    let mut api_fact: HashMap<Uuid, String> = HashMap::new();
    let mut chat_fact: HashMap<Uuid, String> = HashMap::new();
    let mut known_chat: HashSet<Uuid> = HashSet::new();
    let mut stored: Vec<Stored> = Vec::new();
    let (mut facts, mut facts_kept, mut talk, mut talk_stored) = (0, 0, 0, 0);
    let mut conversation: Option<String> = None;
    let names = [
        "miniclaw (API path)",
        "miniclaw (chat path, offline engine)",
        "plain cosine",
        "OpenClaw 0.7·cos+0.3·BM25",
        "seed 0.4/0.4/0.2",
    ];
    let mut scores: Vec<Scores> = names.iter().map(|_| Scores::default()).collect();
    let mut misses: Vec<String> = Vec::new();
    let variants_on = std::env::var("B6_VARIANTS").is_ok();
    let mut variant_scores: Vec<Scores> = VARIANTS.iter().map(|_| Scores::default()).collect();
    let mut extraction_errors: Vec<String> = Vec::new();
    for e in &scenario.events {
        if e.day > today {
            advance(&pool, &agents, e.day - today).await?;
            today = e.day;
            conversation = None;
        }
        match e.kind.as_str() {
            "fact" | "smalltalk" => {
                let say = e.say.clone().unwrap_or_default();
                let label = e.id.clone().unwrap_or_else(|| format!("talk@{}", e.day));
                if e.kind == "fact" {
                    facts += 1;
                    let category = miniclaw::offline::extraction::extract(&say)
                        .first()
                        .map_or("context", |f| f.category)
                        .to_string();
                    let m = c
                        .post(
                            &format!("/v1/hosted-agents/{api}/memories"),
                            json!({ "content": say, "category": category }),
                        )
                        .await?;
                    let id: Uuid = m["id"].as_str().unwrap().parse()?;
                    api_fact.insert(id, label.clone());
                    let vector: Vec<f32> =
                        state.embedder().embed(std::slice::from_ref(&say)).await?.pop().unwrap_or_default();
                    stored.push(Stored {
                        fact: label.clone(),
                        terms: miniclaw::memory::terms::terms(&say),
                        vector,
                        day: e.day,
                    });
                } else {
                    talk += 1;
                }
                let r = c
                    .post(
                        &format!("/v1/hosted-agents/{chat}/chat"),
                        json!({ "message": say, "conversation_id": conversation }),
                    )
                    .await?;
                conversation = r["conversation_id"].as_str().map(str::to_string);
                settle(&pool, chat).await?;
                let now = memory_ids(&pool, chat).await?;
                let new: Vec<Uuid> = now.difference(&known_chat).copied().collect();
                match (e.kind == "fact", new.is_empty()) {
                    (true, false) => facts_kept += 1,
                    (false, false) => {
                        talk_stored += 1;
                        extraction_errors.push(format!("small talk stored: \"{say}\""));
                    }
                    (true, true) => extraction_errors.push(format!("fact dropped: \"{say}\"")),
                    (false, true) => {}
                }
                for id in new {
                    chat_fact.insert(id, label.clone());
                }
                known_chat = now;
            }
            "question" => {
                let ask = e.ask.clone().unwrap_or_default();
                for (i, (agent, map)) in [(api, &api_fact), (chat, &chat_fact)].into_iter().enumerate() {
                    let r = c
                        .post(
                            &format!("/v1/hosted-agents/{agent}/memories/search"),
                            json!({ "query": ask, "limit": 50 }),
                        )
                        .await?;
                    let results: Vec<&Value> = r["results"].as_array().into_iter().flatten().collect();
                    let fact_of = |x: &Value| {
                        x["memory"]["id"]
                            .as_str()
                            .and_then(|s| s.parse::<Uuid>().ok())
                            .and_then(|id| map.get(&id).cloned())
                    };
                    let ranked: Vec<Option<String>> = results.iter().take(TOP).map(|x| fact_of(x)).collect();
                    scores[i].add(e, &ranked);
                    // Other fusions of the same candidates and signals (B6_VARIANTS=1).
                    if i == 0 && variants_on {
                        for (k, (_, f)) in VARIANTS.iter().enumerate() {
                            let mut scored: Vec<(f64, Option<String>)> = results
                                .iter()
                                .enumerate()
                                .map(|(rank, x)| {
                                    let g = |k: &str| x["signals"][k].as_f64().unwrap_or(0.0);
                                    (f(g("bm25"), g("bm25_raw"), g("semantic"), g("prominence"), rank), fact_of(x))
                                })
                                .collect();
                            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
                            let ranked: Vec<Option<String>> = scored.into_iter().take(TOP).map(|(_, f)| f).collect();
                            variant_scores[k].add(e, &ranked);
                        }
                    }
                    if i == 0 && ranked.first().cloned().flatten().is_none_or(|f| !e.answers.contains(&f)) {
                        let top = r["results"][0]["memory"]["content"].as_str().unwrap_or("(nothing)").to_string();
                        misses.push(format!("{} \"{ask}\" → \"{top}\"", e.id.clone().unwrap_or_default()));
                    }
                }
                let qv: Vec<f32> = state.embedder().embed(std::slice::from_ref(&ask)).await?.pop().unwrap_or_default();
                for (k, ranked) in baselines(&stored, &ask, &qv, today).into_iter().enumerate() {
                    scores[2 + k].add(e, &ranked);
                }
            }
            other => anyhow::bail!("unknown event kind {other}"),
        }
    }
    cancel.cancel();

    println!(
        "\nB6 memory quality: {} questions, {} statements of fact, {} of small talk, {today} days, embedder {embedder}, {:.0} s\n",
        scores[0].rr.len(),
        facts,
        talk,
        t.elapsed().as_secs_f64()
    );
    println!("| system | MRR | Hit@1 | Hit@5 | nDCG@5 | fresh@1 | stale@1 | paraphrase MRR |");
    println!("|---|---|---|---|---|---|---|---|");
    for (s, n) in scores.iter().zip(names) {
        println!("{}", s.row(n));
    }
    if variants_on {
        println!("\nOther fusions of the API path's candidates:\n");
        for (s, (n, _)) in variant_scores.iter().zip(VARIANTS) {
            println!("{}", s.row(n));
        }
    }
    let keep = f64::from(facts_kept) / f64::from(facts.max(1));
    let noise = f64::from(talk_stored) / f64::from(talk.max(1));
    println!(
        "\nchat path extraction: kept {facts_kept}/{facts} statements of fact ({:.1}%), stored {talk_stored}/{talk} small talk ({:.1}%)",
        keep * 100.0,
        noise * 100.0
    );
    if std::env::var("B6_MISSES").is_ok() {
        println!("\nAPI path, questions whose first result is not an answer:");
        for m in &misses {
            println!("  {m}");
        }
        println!("\nchat path extraction errors:");
        for m in &extraction_errors {
            println!("  {m}");
        }
    }
    println!();
    for (s, n) in scores.iter().zip(names) {
        println!("{}", s.json(n));
    }
    println!("{}", json!({ "extraction_keep": keep, "small_talk_stored": noise, "facts": facts, "small_talk": talk }));
    Ok(())
}
