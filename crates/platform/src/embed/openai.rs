//! The OpenAI-compatible embeddings API: at most 100 inputs per call, each cut at 2,000
//! characters (001 §7.3, 002 §5.7).

use std::time::Duration;

use futures::future::BoxFuture;
use serde::Deserialize;

use super::{Embedder, normalize};
use crate::config::Secret;
use crate::llm::spend::Spender;

pub const BATCH: usize = 100;
pub const MAX_CHARS: usize = 2000;

pub struct OpenAiEmbedder {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<Secret>,
    model: String,
    dims: usize,
    /// Admits each call as paid work, at the model's price per prompt token (`None`: free, as
    /// for a local server the operator runs).
    meter: Option<Meter>,
}

/// What a paid embedding call is admitted with: the spender, and dollars per prompt token.
pub struct Meter {
    pub spender: Spender,
    pub usd_per_token: f64,
}

impl OpenAiEmbedder {
    pub fn new(base_url: &str, api_key: Option<Secret>, model: &str, dims: usize) -> Self {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(60)).build().expect("static client settings");
        let base_url = base_url.trim_end_matches('/').into();
        OpenAiEmbedder { http, base_url, api_key, model: model.into(), dims, meter: None }
    }

    /// Each call holds its most expensive outcome (one token per byte of input, which no
    /// tokenizer exceeds) before it is made, and books what the API says it used after.
    pub fn metered(mut self, meter: Meter) -> Self {
        self.meter = Some(meter);
        self
    }

    async fn batch(&self, texts: &[String]) -> anyhow::Result<Vec<Vec<f32>>> {
        let input: Vec<String> = texts.iter().map(|t| t.chars().take(MAX_CHARS).collect()).collect();
        let held = match &self.meter {
            None => None,
            Some(m) => {
                let bytes: usize = input.iter().map(String::len).sum();
                m.spender.hold(super::payer(), bytes as f64 * m.usd_per_token).await??
            }
        };
        let result = self.call(&input).await;
        if let Some(m) = &self.meter {
            let used = result.as_ref().map_or(0, |(_, tokens)| *tokens);
            m.spender.spent(held, used as f64 * m.usd_per_token).await;
        }
        result.map(|(vectors, _)| vectors)
    }

    /// One call: the vectors, in order, and the prompt tokens the API counted (estimated from
    /// the text when it does not say).
    async fn call(&self, input: &[String]) -> anyhow::Result<(Vec<Vec<f32>>, u64)> {
        let mut call = self
            .http
            .post(format!("{}/embeddings", self.base_url))
            .json(&serde_json::json!({ "model": self.model, "input": input }));
        if let Some(k) = &self.api_key {
            call = call.bearer_auth(k.expose());
        }
        let resp = call.send().await?;
        let status = resp.status();
        let text = resp.text().await?;
        if !status.is_success() {
            anyhow::bail!("embeddings API answered {status}: {}", text.chars().take(300).collect::<String>());
        }
        #[derive(Deserialize)]
        struct Item {
            index: usize,
            embedding: Vec<f32>,
        }
        #[derive(Deserialize)]
        struct Used {
            prompt_tokens: u64,
        }
        #[derive(Deserialize)]
        struct Wire {
            data: Vec<Item>,
            usage: Option<Used>,
        }
        let mut wire: Wire =
            serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("malformed embeddings response: {e}"))?;
        if wire.data.len() != input.len() {
            anyhow::bail!("embeddings API returned {} vectors for {} inputs", wire.data.len(), input.len());
        }
        wire.data.sort_by_key(|i| i.index);
        let tokens =
            wire.usage.map_or_else(|| input.iter().map(|t| t.len().div_ceil(4) as u64).sum(), |u| u.prompt_tokens);
        let vectors = wire
            .data
            .into_iter()
            .map(|i| {
                let mut v = i.embedding;
                normalize(&mut v);
                v
            })
            .collect();
        Ok((vectors, tokens))
    }
}

impl Embedder for OpenAiEmbedder {
    fn model(&self) -> &str {
        &self.model
    }
    fn dimensions(&self) -> usize {
        self.dims
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> BoxFuture<'a, anyhow::Result<Vec<Vec<f32>>>> {
        Box::pin(async move {
            let mut out = Vec::with_capacity(texts.len());
            for chunk in texts.chunks(BATCH) {
                out.extend(self.batch(chunk).await?);
            }
            Ok(out)
        })
    }
}
