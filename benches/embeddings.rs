//! MiniLM embedding latency and throughput (issue: model gateway benchmarks).
//!
//!     cargo bench --bench embeddings            # prints one JSON line
//!     scripts/bench_embeddings.sh               # ours and sentence-transformers side by side
//!
//! Single sentences: 200 calls, p50/p99 latency. Batched: 512 sentences in batches of 32,
//! sentences per second. Sentences cycle through `benches/sentences.txt`.

use std::time::Instant;

use miniclaw::embed::Embedder;
use miniclaw::embed::minilm::MiniLm;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
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

        let mut single = Vec::new();
        for i in 0..200 {
            let s = &sentences[i % sentences.len()..=i % sentences.len()];
            let t = Instant::now();
            model.embed(s).await.unwrap();
            single.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        single.sort_by(|a, b| a.partial_cmp(b).unwrap());

        let batch: Vec<String> = (0..512).map(|i| sentences[i % sentences.len()].clone()).collect();
        let t = Instant::now();
        model.embed(&batch).await.unwrap();
        let per_sec = batch.len() as f64 / t.elapsed().as_secs_f64();

        println!(
            "{{\"impl\":\"miniclaw-candle\",\"single_p50_ms\":{:.2},\"single_p99_ms\":{:.2},\"batched_sentences_per_s\":{:.1}}}",
            percentile(&single, 0.5),
            percentile(&single, 0.99),
            per_sec
        );
    });
}
