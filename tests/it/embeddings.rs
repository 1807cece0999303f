//! SPEC M5: the in-process MiniLM matches the reference implementation; the OpenAI-compatible
//! embedder batches and cuts inputs as specified.

use miniclaw::config::default_cache_dir;
use miniclaw::embed::minilm::MiniLm;
use miniclaw::embed::openai::OpenAiEmbedder;
use miniclaw::embed::{Embedder, cosine};
use serde_json::Value;

use crate::llm_server::LlmServer;

#[tokio::test]
async fn minilm_matches_sentence_transformers() {
    let fixture: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/minilm_reference.json"
    )))
    .unwrap();
    let sentences: Vec<String> =
        fixture["sentences"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    let reference: Vec<Vec<f32>> = fixture["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect())
        .collect();

    let dir = std::env::var("MINICLAW_MODEL_DIR")
        .map(Into::into)
        .unwrap_or_else(|_| default_cache_dir().join("models/all-MiniLM-L6-v2"));
    let model = MiniLm::load(dir).await.expect("model files installed by scripts/setup.sh");
    assert_eq!((model.model(), model.dimensions()), ("all-MiniLM-L6-v2", 384));

    // All at once (padded batches) and one by one must both match.
    let batched = model.embed(&sentences).await.unwrap();
    for (i, (ours, theirs)) in batched.iter().zip(&reference).enumerate() {
        let c = cosine(ours, theirs);
        assert!(c >= 0.999, "sentence {i} ({:?}): cosine {c}", sentences[i].chars().take(40).collect::<String>());
        assert!((ours.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-4, "unit length");
    }
    for i in [0, 1, 19] {
        let single = model.embed(&sentences[i..=i]).await.unwrap();
        assert!(cosine(&single[0], &reference[i]) >= 0.999, "sentence {i} alone");
    }
    // Meaning, not spelling: a paraphrase is closer than an unrelated sentence.
    let v = model
        .embed(&["I reside in Vienna, my name is Alice".to_string(), "The stock market fell sharply".to_string()])
        .await
        .unwrap();
    assert!(cosine(&v[0], &batched[0]) > cosine(&v[1], &batched[0]) + 0.3);
}

#[tokio::test]
async fn openai_embeddings_are_batched_by_100_and_cut_at_2000_chars() {
    let server = LlmServer::start().await;
    let e = OpenAiEmbedder::new(&server.base_url(), None, "text-embedding-3-small", 3);
    let mut texts: Vec<String> = (0..250).map(|i| "x".repeat(i % 7 + 1)).collect();
    texts[3] = "y".repeat(5000);
    let out = e.embed(&texts).await.unwrap();
    assert_eq!(out.len(), 250);
    let sizes: Vec<usize> = server.requests().iter().map(|r| r["input"].as_array().unwrap().len()).collect();
    assert_eq!(sizes, vec![100, 100, 50]);
    assert_eq!(server.requests()[0]["input"][3].as_str().unwrap().len(), 2000, "cut at 2,000 characters");
    // Order is restored from `index` and vectors are unit length: [len, 1, 0] normalised.
    let expected = |n: f32| n / (n * n + 1.0).sqrt();
    assert!((out[1][0] - expected(2.0)).abs() < 1e-6);
    assert!((out[3][0] - expected(2000.0)).abs() < 1e-6);
}
