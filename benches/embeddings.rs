//! MiniLM embedding latency and throughput (issue: model gateway benchmarks).
//!
//!     cargo bench --bench embeddings            # prints one JSON line
//!     scripts/bench_embeddings.sh               # ours and sentence-transformers side by side
//!
//! Single sentences: 200 calls, p50/p99 latency and sentences/s. Batches of 8 and of 32: 512 sentences,
//! sentences per second. Sentences cycle through `benches/sentences.txt`.
//!
//!     cargo bench --bench embeddings -- concurrency     # B8: the micro-batcher
//!
//! prints, for 1, 4, 8 and 16 concurrent callers each embedding one sentence at a time (as
//! chat turns and searches do), sentences/s and p50/p99 latency with every call run alone and
//! through the micro-batcher (`embed::batch::Served::batched`, 32 texts a pass at most) with one and
//! with two workers, in one run.
//! Sentences are made distinct (a counter appended), so nothing is a repeat.

use std::time::Instant;

use miniclaw::embed::Embedder;
use miniclaw::embed::minilm::MiniLm;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// `callers` tasks embedding one sentence at a time, `per_caller` each: (sentences/s, p50, p99).
async fn curve(model: std::sync::Arc<dyn Embedder>, sentences: &[String], callers: usize) -> (f64, f64, f64) {
    let per_caller = 240 / callers.max(1);
    let t = Instant::now();
    let tasks: Vec<_> = (0..callers)
        .map(|c| {
            let model = model.clone();
            let sentences = sentences.to_vec();
            tokio::spawn(async move {
                let mut ms = Vec::new();
                for i in 0..per_caller {
                    let text = vec![format!("{} ({c}-{i})", sentences[(c * 7 + i) % sentences.len()])];
                    let start = Instant::now();
                    model.embed(&text).await.unwrap();
                    ms.push(start.elapsed().as_secs_f64() * 1000.0);
                }
                ms
            })
        })
        .collect();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.unwrap());
    }
    let per_sec = all.len() as f64 / t.elapsed().as_secs_f64();
    all.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (per_sec, percentile(&all, 0.5), percentile(&all, 0.99))
}

fn main() {
    let sentences: Vec<String> =
        include_str!("sentences.txt").lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect();
    let dir = std::env::var("MINICLAW_MODEL_DIR")
        .map(Into::into)
        .unwrap_or_else(|_| miniclaw::config::default_cache_dir().join("models/all-MiniLM-L6-v2"));
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let model = MiniLm::load(dir).await.expect("model installed by scripts/setup.sh");
        // Warm-up.
        model.embed(&sentences[..8]).await.unwrap();
        if std::env::args().any(|a| a == "concurrency") {
            use miniclaw::embed::batch::Served;
            let alone: std::sync::Arc<dyn Embedder> = std::sync::Arc::new(model);
            let batched = |workers| -> std::sync::Arc<dyn Embedder> {
                std::sync::Arc::new(Served::new(alone.clone()).batched(32, std::time::Duration::ZERO, workers))
            };
            let (one, two) = (batched(1), batched(2));
            for callers in [1, 4, 8, 16] {
                for (name, m) in [("alone", &alone), ("batched-1-worker", &one), ("batched-2-workers", &two)] {
                    let (per_sec, p50, p99) = curve(m.clone(), &sentences, callers).await;
                    println!(
                        "{{\"serving\":\"{name}\",\"callers\":{callers},\"sentences_per_s\":{per_sec:.1},\"p50_ms\":{p50:.1},\"p99_ms\":{p99:.1}}}"
                    );
                }
            }
            return;
        }

        let mut single = Vec::new();
        let started = Instant::now();
        for i in 0..200 {
            let s = &sentences[i % sentences.len()..=i % sentences.len()];
            let t = Instant::now();
            model.embed(s).await.unwrap();
            single.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        let single_per_sec = 200.0 / started.elapsed().as_secs_f64();
        single.sort_by(|a, b| a.partial_cmp(b).unwrap());

        let batch: Vec<String> = (0..512).map(|i| sentences[i % sentences.len()].clone()).collect();
        let t = Instant::now();
        for chunk in batch.chunks(8) {
            model.embed(chunk).await.unwrap();
        }
        let batch8_per_sec = batch.len() as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        model.embed(&batch).await.unwrap();
        let per_sec = batch.len() as f64 / t.elapsed().as_secs_f64();

        println!(
            "{{\"impl\":\"miniclaw-candle\",\"single_p50_ms\":{:.2},\"single_p99_ms\":{:.2},\"single_sentences_per_s\":{:.1},\"batch8_sentences_per_s\":{:.1},\"batched_sentences_per_s\":{:.1}}}",
            percentile(&single, 0.5),
            percentile(&single, 0.99),
            single_per_sec,
            batch8_per_sec,
            per_sec
        );
    });
}
