//! A hashing embedder for unit tests only: lower-cased word and word-bigram features hashed
//! into signed buckets. Deterministic and fast; similar wording gives similar vectors, but it
//! knows nothing of meaning.

use futures::future::BoxFuture;
use sha2::{Digest, Sha256};

use super::{Embedder, normalize};

pub struct HashEmbedder {
    dims: usize,
    name: String,
}

impl HashEmbedder {
    pub fn new(dims: usize) -> Self {
        HashEmbedder { dims: dims.max(8), name: format!("hash-{}", dims.max(8)) }
    }

    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let words: Vec<String> =
            text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
        let mut v = vec![0f32; self.dims];
        let features = words.iter().cloned().chain(words.windows(2).map(|w| format!("{} {}", w[0], w[1])));
        for f in features {
            let h = Sha256::digest(f.as_bytes());
            let bucket = u64::from_le_bytes(h[..8].try_into().expect("8 bytes")) as usize % self.dims;
            let sign = if h[8] & 1 == 0 { 1.0 } else { -1.0 };
            v[bucket] += sign;
        }
        normalize(&mut v);
        v
    }
}

impl Embedder for HashEmbedder {
    fn model(&self) -> &str {
        &self.name
    }
    fn dimensions(&self) -> usize {
        self.dims
    }
    fn embed<'a>(&'a self, texts: &'a [String]) -> BoxFuture<'a, anyhow::Result<Vec<Vec<f32>>>> {
        Box::pin(async move { Ok(texts.iter().map(|t| self.embed_one(t)).collect()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::cosine;

    #[test]
    fn deterministic_unit_vectors_with_overlap_similarity() {
        let e = HashEmbedder::new(384);
        let a = e.embed_one("I live in Vienna");
        assert_eq!(a, e.embed_one("i live in vienna!"));
        assert!((a.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-5);
        let close = cosine(&a, &e.embed_one("I live in Vienna now"));
        let far = cosine(&a, &e.embed_one("completely unrelated words here"));
        assert!(close > 0.6 && far < 0.3, "{close} {far}");
    }
}
