//! SPEC B7: multi-hop retrieval. Supporting-fact recall SP@5 of vector-only, hybrid and learned
//! traversal side by side in one run, before and after a round of feedback, and the latency of
//! a traversal at 2,000 and 20,000 nodes.
//!
//!     cargo bench --bench traversal                    # MiniLM embeddings (the default)
//!     B7_EMBEDDER=hash cargo bench --bench traversal   # the hashing embedder
//!     B7_QUICK=1 cargo bench --bench traversal         # before feedback only (tuning)
//!
//! The facts (seed 7, generated here): 200 questions from four templates, each answered only by
//! two or three facts together ("Where does the partner of Ilvo's cousin work?" needs "Ilvo's
//! cousin is Marel", "Marel is married to Sunni" and "Sunni works at the Cedar Clinic"). Every
//! person also has a workplace, a town and an instrument, so each question has many facts of
//! the same shape that do not answer it (the distractor setting of HotPotQA), and 100 more
//! people add noise. About 1,700 memories of one agent, stored through the API, its graph grown
//! by the `memory_graph` cycle's function.
//!
//! Methods: **vector** (the 5 nearest by cosine), **hybrid** (the search API with traversal
//! off: BM25 + cosine + prominence, spreading activation) and **traversal** (the same search
//! with bridging through names and learned traversal on). **Feedback round:** each question is asked in the chat (a new
//! conversation each), and the reply is rated `good` when its context held the fact with the
//! answer, `bad` otherwise (`POST …/feedback`). Then every question is searched again, as asked
//! and paraphrased (other words, same people).
//!
//! Latency: agents with 2,000 and 20,000 nodes and 5 random edges each (weights in the
//! habitual and reflex tiers), 300 traversals from 4 random seeds: the neighbourhood read plus
//! the traversal, and the traversal alone (what 002's 1.88 ms at 2,000 nodes measures).

#[path = "support/app.rs"]
mod app;
mod support;

use std::collections::HashSet;
use std::time::Instant;

use miniclaw::ids::{AgentId, MemoryId};
use miniclaw::memory::graph;
use miniclaw::memory::vector::{self, Filters};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use uuid::Uuid;

const DB: &str = "miniclaw_bench_b7";
const PER_TEMPLATE: usize = 50;
const NOISE_PEOPLE: usize = 100;
const TOP: usize = 5;

struct Question {
    asked: String,
    paraphrase: String,
    /// The supporting facts (indices into the fact list), the answer-bearing one last.
    facts: Vec<usize>,
}

struct World {
    facts: Vec<String>,
    questions: Vec<Question>,
}

fn names(rng: &mut StdRng, n: usize) -> Vec<String> {
    let first = ["ka", "lo", "mi", "ren", "tu", "sa", "vel", "dor", "ni", "pa", "qua", "ze", "bri", "fo", "gan", "hil"];
    let rest = ["ra", "mo", "li", "vo", "na", "tek", "sun", "del", "bo", "ri", "mar", "zo", "wen", "ly"];
    let mut out = HashSet::new();
    while out.len() < n {
        let mut s = first[rng.random_range(0..first.len())].to_string();
        for _ in 0..rng.random_range(1..3) {
            s.push_str(rest[rng.random_range(0..rest.len())]);
        }
        let mut c = s.chars();
        let name = c.next().unwrap().to_uppercase().collect::<String>() + c.as_str();
        out.insert(name);
    }
    let mut v: Vec<String> = out.into_iter().collect();
    v.sort();
    v.shuffle(rng);
    v
}

impl World {
    fn new() -> World {
        let mut rng = StdRng::seed_from_u64(7);
        let places: Vec<String> =
            ["Harbour", "Maple", "Northgate", "Riverside", "Cedar", "Summit", "Old Mill", "Lantern"]
                .iter()
                .flat_map(|a| {
                    ["Clinic", "Bakery", "Library", "Garage", "Studio", "Brewery"]
                        .iter()
                        .map(move |b| format!("the {a} {b}"))
                })
                .collect();
        let towns = [
            "Aldmere",
            "Brackwater",
            "Corrin",
            "Dunholt",
            "Eastvale",
            "Fernby",
            "Galloway",
            "Hartwell",
            "Ivybridge",
            "Kestrel",
        ];
        let instruments =
            ["violin", "cello", "piano", "drums", "trumpet", "flute", "harp", "banjo", "clarinet", "accordion"];
        let relations = ["cousin", "brother", "sister", "neighbour", "colleague", "mentor", "landlord", "dentist"];
        let animals = ["cat", "dog", "parrot", "tortoise", "rabbit", "ferret"];
        let people = names(&mut rng, 4 * PER_TEMPLATE * 3 + NOISE_PEOPLE + 50);
        let pets = names(&mut rng, PER_TEMPLATE + 10);
        let mut next = people.into_iter();
        let mut facts: Vec<String> = Vec::new();
        let add = |facts: &mut Vec<String>, s: String| {
            facts.push(s);
            facts.len() - 1
        };
        let pick = |rng: &mut StdRng, xs: &[&str]| xs[rng.random_range(0..xs.len())].to_string();
        // Everyone's everyday facts: the distractors.
        let everyday = |rng: &mut StdRng, facts: &mut Vec<String>, p: &str| {
            let place = places[rng.random_range(0..places.len())].clone();
            add(facts, format!("{p} works at {place}"));
            add(facts, format!("{p} lives in {}", pick(rng, &towns)));
            add(facts, format!("{p} plays the {}", pick(rng, &instruments)));
        };
        let mut questions = Vec::new();
        for pet in pets.iter().take(PER_TEMPLATE) {
            // Two hops: a relation, a marriage, a workplace.
            let (a, b, c) = (next.next().unwrap(), next.next().unwrap(), next.next().unwrap());
            let rel = pick(&mut rng, &relations);
            let place = places[rng.random_range(0..places.len())].clone();
            let f1 = add(&mut facts, format!("{a}'s {rel} is {b}"));
            let f2 = add(&mut facts, format!("{b} is married to {c}"));
            let f3 = add(&mut facts, format!("{c} is employed as a nurse at {place}"));
            everyday(&mut rng, &mut facts, &a);
            add(&mut facts, format!("{b} lives in {}", pick(&mut rng, &towns)));
            add(&mut facts, format!("{c} plays the {}", pick(&mut rng, &instruments)));
            questions.push(Question {
                asked: format!("Where does the spouse of {a}'s {rel} work?"),
                paraphrase: format!("At which place is the husband or wife of {a}'s {rel} employed?"),
                facts: vec![f1, f2, f3],
            });
            // A bridge through a pet.
            let (owner, animal) = (next.next().unwrap(), pick(&mut rng, &animals));
            let town = pick(&mut rng, &towns);
            let f1 = add(&mut facts, format!("{pet} the {animal} belongs to {owner}"));
            let f2 = add(&mut facts, format!("{owner} has a flat in {town}"));
            add(&mut facts, format!("{owner} works at {}", places[rng.random_range(0..places.len())]));
            add(&mut facts, format!("{owner} plays the {}", pick(&mut rng, &instruments)));
            questions.push(Question {
                asked: format!("In which town does the owner of {pet} the {animal} live?"),
                paraphrase: format!("{pet} the {animal}: whose pet is it, and where is their home?"),
                facts: vec![f1, f2],
            });
            // A bridge through a workplace's manager.
            let manager = next.next().unwrap();
            let place =
                format!("{}'s {}", names(&mut rng, 1)[0], pick(&mut rng, &["workshop", "gallery", "cafe", "bookshop"]));
            let instrument = pick(&mut rng, &instruments);
            let f1 = add(&mut facts, format!("{manager} manages {place}"));
            let f2 = add(&mut facts, format!("{manager} has played the {instrument} since school"));
            add(&mut facts, format!("{manager} lives in {}", pick(&mut rng, &towns)));
            questions.push(Question {
                asked: format!("What instrument does the manager of {place} play?"),
                paraphrase: format!("The person who runs {place} makes music on what?"),
                facts: vec![f1, f2],
            });
            // Two hops: a teacher, a childhood friend, a town.
            let (a, b, c) = (next.next().unwrap(), next.next().unwrap(), next.next().unwrap());
            let town = pick(&mut rng, &towns);
            let f1 = add(&mut facts, format!("{a} learned to paint from {b}"));
            let f2 = add(&mut facts, format!("{b} grew up next door to {c}"));
            let f3 = add(&mut facts, format!("{c} moved to {town} last spring"));
            everyday(&mut rng, &mut facts, &a);
            add(&mut facts, format!("{b} works at {}", places[rng.random_range(0..places.len())]));
            add(&mut facts, format!("{c} works at {}", places[rng.random_range(0..places.len())]));
            questions.push(Question {
                asked: format!("Which town does the childhood friend of {a}'s painting teacher live in now?"),
                paraphrase: format!("{a} has a painting teacher; where did that teacher's old neighbour move?"),
                facts: vec![f1, f2, f3],
            });
        }
        for _ in 0..NOISE_PEOPLE {
            let p = next.next().unwrap();
            everyday(&mut rng, &mut facts, &p);
        }
        World { facts, questions }
    }
}

/// Supporting-fact recall of a top list, and whether it holds them all.
fn recall(top: &[MemoryId], support: &[MemoryId]) -> (f64, bool) {
    let hit = support.iter().filter(|s| top.contains(s)).count();
    (hit as f64 / support.len() as f64, hit == support.len())
}

#[derive(Default, Clone, Copy)]
struct Score {
    sp: f64,
    full: f64,
    n: usize,
}

impl Score {
    fn add(&mut self, (sp, full): (f64, bool)) {
        self.sp += sp;
        self.full += full as u8 as f64;
        self.n += 1;
    }
    fn sp(&self) -> f64 {
        self.sp / self.n.max(1) as f64
    }
    fn full(&self) -> f64 {
        self.full / self.n.max(1) as f64
    }
}

struct Bench {
    app: app::App,
    agent: String,
    ids: Vec<MemoryId>,
}

impl Bench {
    async fn search(&self, query: &str, traversal: bool) -> anyhow::Result<Vec<MemoryId>> {
        let body = json!({ "query": query, "limit": TOP, "traversal": traversal });
        let r = self.app.client.post(&format!("/v1/hosted-agents/{}/memories/search", self.agent), body).await?;
        Ok(r["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["memory"]["id"].as_str().unwrap().parse().unwrap())
            .collect())
    }

    async fn vector(&self, query: &str) -> anyhow::Result<Vec<MemoryId>> {
        let embedder = self.app.state.embedder();
        let v = embedder.embed(&[query.to_string()]).await?.pop().unwrap();
        let mut conn = self.app.pool.acquire().await?;
        let agent = AgentId(self.agent.parse()?);
        let found = vector::nearest(&mut conn, agent, embedder.model(), &v, TOP as i64, &Filters::default()).await?;
        Ok(found.into_iter().map(|(id, _)| id).collect())
    }

    /// SP@5 of the three methods over every question, as asked or paraphrased; then the same
    /// over the two-hop questions alone (three supporting facts).
    async fn evaluate(&self, world: &World, paraphrased: bool) -> anyhow::Result<[Score; 6]> {
        let mut s = [Score::default(); 6];
        for q in &world.questions {
            let text = if paraphrased { &q.paraphrase } else { &q.asked };
            let support: Vec<MemoryId> = q.facts.iter().map(|i| self.ids[*i]).collect();
            let got = [
                recall(&self.vector(text).await?, &support),
                recall(&self.search(text, false).await?, &support),
                recall(&self.search(text, true).await?, &support),
            ];
            for (i, r) in got.into_iter().enumerate() {
                s[i].add(r);
                if q.facts.len() == 3 {
                    s[3 + i].add(r);
                }
            }
        }
        Ok(s)
    }

    /// Each question in the chat, rated by whether the reply's context held the answer; which
    /// were rated good.
    async fn feedback_round(&self, world: &World) -> anyhow::Result<Vec<bool>> {
        let mut rated = Vec::new();
        for q in &world.questions {
            let reply = self
                .app
                .client
                .post(&format!("/v1/hosted-agents/{}/chat", self.agent), json!({ "message": q.asked }))
                .await?;
            let answer = self.ids[*q.facts.last().unwrap()].to_string();
            let held = reply["memories_used"].as_array().is_some_and(|u| u.iter().any(|m| m["id"] == answer));
            let path = format!(
                "/v1/hosted-agents/{}/conversations/{}/messages/{}/feedback",
                self.agent,
                reply["conversation_id"].as_str().unwrap(),
                reply["message_id"].as_str().unwrap()
            );
            self.app.client.post(&path, json!({ "rating": if held { "good" } else { "bad" } })).await?;
            rated.push(held);
        }
        Ok(rated)
    }

    /// Traversal's SP@5 over the questions rated `good` and over the rest.
    async fn split(&self, world: &World, rated: &[bool]) -> anyhow::Result<[Score; 2]> {
        let mut s = [Score::default(); 2];
        for (q, good) in world.questions.iter().zip(rated) {
            let support: Vec<MemoryId> = q.facts.iter().map(|i| self.ids[*i]).collect();
            s[usize::from(!*good)].add(recall(&self.search(&q.asked, true).await?, &support));
        }
        Ok(s)
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// An agent with `n` synthetic nodes and 5 random edges each; traversal latency over 300 runs.
async fn latency(b: &Bench, n: usize) -> anyhow::Result<Value> {
    let agent = b.app.client.agent(&format!("Scale {n}")).await?;
    let agent_id = AgentId(agent.parse()?);
    let pool = &b.app.pool;
    let ids: Vec<Uuid> = (0..n).map(|_| Uuid::now_v7()).collect();
    sqlx::query(
        "INSERT INTO agent_memories (id, agent_id, content, category, source, content_hash)
         SELECT id, $1, 'Synthetic node ' || ord || ' of the scale graph, about sixty characters.', 'context', 'api', md5(id::text)
           FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, ord)",
    )
    .bind(agent_id)
    .bind(&ids)
    .execute(pool)
    .await?;
    let mut rng = StdRng::seed_from_u64(n as u64);
    let (mut s, mut t, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for (i, id) in ids.iter().enumerate() {
        let mut targets = HashSet::new();
        while targets.len() < 5 {
            let j = rng.random_range(0..n);
            if j != i {
                targets.insert(j);
            }
        }
        for j in targets {
            s.push(*id);
            t.push(ids[j]);
            w.push(rng.random_range(0.2f32..0.9));
        }
    }
    sqlx::query(
        "INSERT INTO memory_edges (agent_id, source_id, target_id, kind, weight, prior)
         SELECT $1, s, t, 'mention', w, w FROM unnest($2::uuid[], $3::uuid[], $4::real[]) AS e(s, t, w)",
    )
    .bind(agent_id)
    .bind(&s)
    .bind(&t)
    .bind(&w)
    .execute(pool)
    .await?;
    sqlx::query("INSERT INTO memory_graphs (agent_id) VALUES ($1) ON CONFLICT DO NOTHING")
        .bind(agent_id)
        .execute(pool)
        .await?;
    sqlx::query("ANALYZE memory_edges").execute(pool).await?;
    let p = graph::Params::default();
    let (mut total, mut pure, mut reached) = (Vec::new(), Vec::new(), 0usize);
    let mut conn = pool.acquire().await?;
    for round in 0..320 {
        let seeds: Vec<(MemoryId, f64)> =
            (0..p.beam).map(|_| (MemoryId(ids[rng.random_range(0..n)]), rng.random_range(0.3..0.9))).collect();
        let seed_ids: Vec<MemoryId> = seeds.iter().map(|(id, _)| *id).collect();
        let started = Instant::now();
        let edges = graph::neighbourhood(&mut conn, agent_id, &seed_ids, p.max_hops).await?;
        let fetched = Instant::now();
        let trace = graph::traverse(&seeds, &edges, &p);
        let done = Instant::now();
        if round >= 20 {
            total.push((done - started).as_secs_f64() * 1000.0);
            pure.push((done - fetched).as_secs_f64() * 1000.0);
            reached += trace.reached.len();
        }
    }
    total.sort_by(f64::total_cmp);
    pure.sort_by(f64::total_cmp);
    Ok(json!({
        "bench": "b7_latency", "nodes": n, "edges": s.len(), "runs": total.len(),
        "p50_ms": percentile(&total, 0.5), "p95_ms": percentile(&total, 0.95),
        "traverse_only_p50_ms": percentile(&pure, 0.5), "traverse_only_p95_ms": percentile(&pure, 0.95),
        "avg_reached": reached as f64 / total.len() as f64,
    }))
}

fn main() -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(run())
}

async fn run() -> anyhow::Result<()> {
    let embedder = std::env::var("B7_EMBEDDER").unwrap_or_else(|_| "minilm".into());
    let app = app::start(DB, &embedder, &[]).await?;
    let agent = app.client.agent("Multi-hop").await?;
    let world = World::new();
    let started = Instant::now();
    let mut ids = Vec::with_capacity(world.facts.len());
    for chunk in world.facts.chunks(400) {
        let memories: Vec<Value> = chunk.iter().map(|f| json!({ "content": f, "category": "context" })).collect();
        let r = app
            .client
            .post(&format!("/v1/hosted-agents/{agent}/memories/bulk"), json!({ "memories": memories }))
            .await?;
        ids.extend(
            r["memories"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap().parse::<MemoryId>().unwrap()),
        );
    }
    let load_s = started.elapsed().as_secs_f64();
    let agent_id = AgentId(agent.parse()?);
    let live: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM agent_memories WHERE agent_id = $1 AND status = 'active' AND invalid_at IS NULL",
    )
    .bind(agent_id)
    .fetch_one(&app.pool)
    .await?;
    let growth = graph::grow(&mut *app.pool.acquire().await?, agent_id).await?;
    let b = Bench { app, agent, ids };
    let health = graph::health(&b.app.pool, agent_id).await?;
    println!(
        "{}",
        json!({ "bench": "b7_world", "embedder": embedder, "facts": world.facts.len(), "live": live,
                "questions": world.questions.len(), "load_s": load_s, "growth": growth, "edges": health.edges })
    );

    let before = b.evaluate(&world, false).await?;
    let before_para = b.evaluate(&world, true).await?;
    let methods = ["vector", "hybrid", "traversal"];
    println!("\nB7 before feedback, two-hop questions only (three supporting facts): SP@{TOP} (full-hit@{TOP})");
    for (i, m) in methods.iter().enumerate() {
        let (a, p) = (&before[3 + i], &before_para[3 + i]);
        println!("{m:<10} {:.3} ({:.3})  paraphrased {:.3} ({:.3})", a.sp(), a.full(), p.sp(), p.full());
        println!(
            "{}",
            json!({ "bench": "b7_two_hop", "method": m, "questions": a.n, "before": a.sp(),
                    "before_paraphrase": p.sp(), "full_before": a.full() })
        );
    }
    // B7_QUICK=1: the figures before feedback only (for tuning).
    if std::env::var("B7_QUICK").is_ok() {
        for (i, m) in methods.iter().enumerate() {
            println!(
                "{m:<10} all: {:.3} ({:.3})  paraphrased {:.3}",
                before[i].sp(),
                before[i].full(),
                before_para[i].sp()
            );
        }
        b.app.cancel.cancel();
        return Ok(());
    }
    let rated = b.feedback_round(&world).await?;
    let (good, bad) = (rated.iter().filter(|g| **g).count(), rated.iter().filter(|g| !**g).count());
    let after = b.evaluate(&world, false).await?;
    let after_para = b.evaluate(&world, true).await?;
    let [after_good, after_bad] = b.split(&world, &rated).await?;
    let health = graph::health(&b.app.pool, agent_id).await?;

    println!("\nB7 multi-hop SP@{TOP} (full-hit@{TOP}), {} questions, embedder {embedder}", world.questions.len());
    println!("{:<10} {:>16} {:>16} {:>16} {:>16}", "method", "before", "before (para)", "after", "after (para)");
    for (i, m) in methods.iter().enumerate() {
        let cell = |s: &Score| format!("{:.3} ({:.3})", s.sp(), s.full());
        println!(
            "{m:<10} {:>16} {:>16} {:>16} {:>16}",
            cell(&before[i]),
            cell(&before_para[i]),
            cell(&after[i]),
            cell(&after_para[i])
        );
        println!(
            "{}",
            json!({ "bench": "b7_sp", "method": m, "embedder": embedder,
                    "before": before[i].sp(), "before_paraphrase": before_para[i].sp(),
                    "after": after[i].sp(), "after_paraphrase": after_para[i].sp(),
                    "full_before": before[i].full(), "full_after": after[i].full(),
                    "full_after_paraphrase": after_para[i].full() })
        );
    }
    println!(
        "{}",
        json!({ "bench": "b7_feedback", "good": good, "bad": bad,
                "traversal_after_rated_good": after_good.sp(), "traversal_after_rated_bad": after_bad.sp(),
                "full_after_rated_good": after_good.full(), "reflex": health.reflex, "habitual": health.habitual,
                "dormant": health.dormant, "inhibitory": health.inhibitory, "queries": health.queries,
                "avg_nodes_fired_per_query": health.avg_nodes_fired_per_query.value })
    );
    for n in [2_000, 20_000] {
        println!("{}", latency(&b, n).await?);
    }
    b.app.cancel.cancel();
    Ok(())
}
