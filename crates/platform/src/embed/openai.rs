//! The OpenAI-compatible embeddings API: at most 100 inputs per call, each cut at 2,000
//! characters (001 §7.3, 002 §5.7).

use std::time::Duration;

use futures::future::BoxFuture;
use serde::Deserialize;

use super::{Embedder, normalize};
use crate::config::Secret;

pub const BATCH: usize = 100;
pub const MAX_CHARS: usize = 2000;

pub struct OpenAiEmbedder {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<Secret>,
    model: String,
    dims: usize,
}

impl OpenAiEmbedder {
    pub fn new(base_url: &str, api_key: Option<Secret>, model: &str, dims: usize) -> Self {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(60)).build().expect("static client settings");
        OpenAiEmbedder { http, base_url: base_url.trim_end_matches('/').into(), api_key, model: model.into(), dims }
    }

    async fn batch(&self, texts: &[String]) -> anyhow::Result<Vec<Vec<f32>>> {
        let input: Vec<String> = texts.iter().map(|t| t.chars().take(MAX_CHARS).collect()).collect();
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
        struct Wire {
            data: Vec<Item>,
        }
        let mut wire: Wire =
            serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("malformed embeddings response: {e}"))?;
        if wire.data.len() != texts.len() {
            anyhow::bail!("embeddings API returned {} vectors for {} inputs", wire.data.len(), texts.len());
        }
        wire.data.sort_by_key(|i| i.index);
        Ok(wire
            .data
            .into_iter()
            .map(|i| {
                let mut v = i.embedding;
                normalize(&mut v);
                v
            })
            .collect())
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
