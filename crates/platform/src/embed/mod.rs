//! Embeddings (SPEC M5): one trait, three implementations — all-MiniLM-L6-v2 run in-process
//! with candle (the default), the OpenAI-compatible embeddings API, and a hashing embedder for
//! fast unit tests. Every stored vector records the model that made it; vectors of different
//! models are never compared.

pub mod batch;
mod bert;
pub mod hash;
pub mod minilm;
pub mod openai;

use std::sync::Arc;

use futures::future::BoxFuture;

use crate::config::{Config, EmbedderKind};
use crate::llm::Gateway;
use crate::llm::spend::Payer;

pub trait Embedder: Send + Sync {
    /// The model name recorded with every vector.
    fn model(&self) -> &str;
    fn dimensions(&self) -> usize;
    /// One unit-length vector per text, in order.
    fn embed<'a>(&'a self, texts: &'a [String]) -> BoxFuture<'a, anyhow::Result<Vec<Vec<f32>>>>;
}

/// The embedder the configuration asks for. The in-process model is served through a cache and,
/// with `MINICLAW_EMBED_BATCH` above 1, the micro-batcher (`batch`, SPEC B8); the API embedder
/// through the cache; the hashing one, cheaper than a lookup, as it is.
pub async fn from_config(config: &Config, llm: &Gateway) -> anyhow::Result<Arc<dyn Embedder>> {
    let tuning = config.embed_tuning;
    Ok(match config.embedder {
        EmbedderKind::MiniLm => {
            // One copy of the weights per process, however many app states are built from it.
            static LOADED: tokio::sync::Mutex<Vec<(std::path::PathBuf, Arc<minilm::MiniLm>)>> =
                tokio::sync::Mutex::const_new(Vec::new());
            let mut loaded = LOADED.lock().await;
            let model = match loaded.iter().find(|(dir, _)| *dir == config.model_dir) {
                Some((_, model)) => model.clone(),
                None => {
                    let model = Arc::new(minilm::MiniLm::load(config.model_dir.clone()).await?);
                    loaded.push((config.model_dir.clone(), model.clone()));
                    model
                }
            };
            Arc::new(batch::Served::new(model).cached(tuning.cache).batched(
                tuning.batch,
                tuning.window,
                batch::workers(),
            ))
        }
        EmbedderKind::OpenAi => {
            let base = config.openai_base_url.clone().unwrap_or_else(|| "https://api.openai.com/v1".into());
            let model = "text-embedding-3-small";
            let mut api = openai::OpenAiEmbedder::new(&base, config.openai_api_key.clone(), model, 1536);
            // Priced (the price table has the model): every call is admitted as paid work.
            if let Some(usd) = llm.price_of_prompt(model, 1_000_000).filter(|usd| *usd > 0.0) {
                api = api.metered(openai::Meter { spender: llm.spender(), usd_per_token: usd / 1_000_000.0 });
            }
            Arc::new(batch::Served::new(Arc::new(api)).cached(tuning.cache))
        }
        EmbedderKind::Hash => Arc::new(hash::HashEmbedder::new(384)),
    })
}

tokio::task_local! {
    static PAYER: Payer;
}

/// Runs `work` with the paid embeddings it makes charged to `payer` (`OpenAiEmbedder`'s
/// meter): a job to its agent, a request to the agent it serves. Work outside any `paid_by`
/// is the platform's, held to its daily cap alone.
pub async fn paid_by<F: std::future::Future>(payer: Payer, work: F) -> F::Output {
    PAYER.scope(payer, work).await
}

/// Who pays for the embeddings made now (`paid_by`).
fn payer() -> Payer {
    PAYER.try_with(|p| *p).unwrap_or_default()
}

/// Cosine similarity; 0 for empty or zero vectors.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (mut dot, mut na, mut nb) = (0f32, 0f32, 0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 { 0.0 } else { dot / (na.sqrt() * nb.sqrt()) }
}

/// Scales a vector to unit length (leaves a zero vector as it is).
pub fn normalize(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_and_normalize() {
        let mut v = vec![3.0, 4.0];
        normalize(&mut v);
        assert!((v[0] - 0.6).abs() < 1e-6 && (v[1] - 0.8).abs() < 1e-6);
        assert!((cosine(&[1.0, 0.0], &[1.0, 0.0]) - 1.0).abs() < 1e-6);
        assert_eq!(cosine(&[1.0, 0.0], &[0.0, 1.0]), 0.0);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
    }
}
