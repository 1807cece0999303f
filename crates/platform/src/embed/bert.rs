//! The BERT encoder all-MiniLM-L6-v2 is (six layers, 384 wide, 12 heads), on candle's tensors
//! and layers: token + position + segment embeddings, then per layer self-attention and a GELU
//! feed-forward block, each followed by a residual sum and layer norm (post-norm, as BERT has
//! it). Only what sentence embedding needs: no pooler, no dropout, no heads.

use anyhow::{Context, ensure};
use candle_core::{DType, Module, Tensor};
use candle_nn::{Embedding, LayerNorm, Linear, VarBuilder, embedding, layer_norm, linear};
use serde::Deserialize;

/// The fields of the model's `config.json` the encoder reads.
#[derive(Debug, Clone, Deserialize)]
pub struct Config {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
}

impl Config {
    fn check(&self) -> anyhow::Result<()> {
        // "gelu" is the exact (erf) GELU in the reference implementation.
        ensure!(
            self.hidden_act == "gelu",
            "config.json: hidden_act {:?} is not supported (only \"gelu\")",
            self.hidden_act
        );
        ensure!(
            self.num_attention_heads > 0 && self.hidden_size.is_multiple_of(self.num_attention_heads),
            "config.json: hidden_size {} does not split into {} attention heads",
            self.hidden_size,
            self.num_attention_heads
        );
        Ok(())
    }
}

pub struct Bert {
    words: Embedding,
    positions: Embedding,
    segments: Embedding,
    norm: LayerNorm,
    layers: Vec<Layer>,
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
    heads: usize,
}

impl Bert {
    pub fn load(vb: VarBuilder, config: &Config) -> anyhow::Result<Self> {
        config.check()?;
        let (h, eps) = (config.hidden_size, config.layer_norm_eps);
        let e = vb.pp("embeddings");
        let layers = (0..config.num_hidden_layers)
            .map(|i| Layer::load(vb.pp(format!("encoder.layer.{i}")), config))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Bert {
            words: embedding(config.vocab_size, h, e.pp("word_embeddings")).context("word embeddings")?,
            positions: embedding(config.max_position_embeddings, h, e.pp("position_embeddings"))
                .context("position embeddings")?,
            segments: embedding(config.type_vocab_size, h, e.pp("token_type_embeddings"))
                .context("token type embeddings")?,
            norm: layer_norm(h, eps, e.pp("LayerNorm")).context("embedding layer norm")?,
            layers,
        })
    }

    /// The last hidden states, `(batch, tokens, hidden)`, for token ids and an attention mask
    /// (1 for a real token, 0 for padding), both `(batch, tokens)`. All segment ids are 0.
    pub fn forward(&self, ids: &Tensor, mask: &Tensor) -> anyhow::Result<Tensor> {
        let (_, tokens) = ids.dims2()?;
        let positions = Tensor::arange(0u32, tokens as u32, ids.device())?.unsqueeze(0)?;
        let segments = ids.zeros_like()?;
        let embedded = self
            .words
            .forward(ids)?
            .broadcast_add(&self.positions.forward(&positions)?)?
            .broadcast_add(&self.segments.forward(&segments)?)?;
        let mut hidden = self.norm.forward(&embedded)?;
        // Padding gets a large negative score before the softmax, so no token attends to it:
        // (batch, 1, 1, tokens), broadcast over heads and query positions.
        let bias = ((mask.to_dtype(DType::F32)? - 1.0)? * 1e9)?.unsqueeze(1)?.unsqueeze(1)?;
        for layer in &self.layers {
            hidden = layer.forward(&hidden, &bias)?;
        }
        Ok(hidden)
    }
}

impl Layer {
    fn load(vb: VarBuilder, config: &Config) -> anyhow::Result<Self> {
        let (h, eps) = (config.hidden_size, config.layer_norm_eps);
        let attention = vb.pp("attention");
        Ok(Layer {
            query: linear(h, h, attention.pp("self.query"))?,
            key: linear(h, h, attention.pp("self.key"))?,
            value: linear(h, h, attention.pp("self.value"))?,
            attention_out: linear(h, h, attention.pp("output.dense"))?,
            attention_norm: layer_norm(h, eps, attention.pp("output.LayerNorm"))?,
            intermediate: linear(h, config.intermediate_size, vb.pp("intermediate.dense"))?,
            output: linear(config.intermediate_size, h, vb.pp("output.dense"))?,
            output_norm: layer_norm(h, eps, vb.pp("output.LayerNorm"))?,
            heads: config.num_attention_heads,
        })
    }

    fn forward(&self, hidden: &Tensor, bias: &Tensor) -> anyhow::Result<Tensor> {
        let (batch, tokens, width) = hidden.dims3()?;
        let head_dim = width / self.heads;
        // (batch, tokens, width) -> (batch, heads, tokens, head_dim)
        let split = |t: Tensor| -> candle_core::Result<Tensor> {
            t.reshape((batch, tokens, self.heads, head_dim))?.transpose(1, 2)?.contiguous()
        };
        let q = split(self.query.forward(hidden)?)?;
        let k = split(self.key.forward(hidden)?)?;
        let v = split(self.value.forward(hidden)?)?;
        let scores = (q.matmul(&k.t()?)? / (head_dim as f64).sqrt())?.broadcast_add(bias)?;
        let weights = candle_nn::ops::softmax_last_dim(&scores)?;
        let context = weights.matmul(&v)?.transpose(1, 2)?.contiguous()?.reshape((batch, tokens, width))?;
        let attended = self.attention_norm.forward(&(self.attention_out.forward(&context)? + hidden)?)?;
        let inner = self.intermediate.forward(&attended)?.gelu_erf()?;
        Ok(self.output_norm.forward(&(self.output.forward(&inner)? + &attended)?)?)
    }
}
