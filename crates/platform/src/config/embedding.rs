//! Which embedder runs (SPEC M5) and how the in-process model is served (SPEC B8).

use std::time::Duration;

use super::parse::{ConfigError, bad, parse_num};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbedderKind {
    MiniLm,
    OpenAi,
    Hash,
}

impl EmbedderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EmbedderKind::MiniLm => "minilm",
            EmbedderKind::OpenAi => "openai",
            EmbedderKind::Hash => "hash",
        }
    }

    /// `MINICLAW_EMBEDDER` (default `minilm`); `openai` needs an API key or a base URL.
    pub(super) fn read(get: &impl Fn(&str) -> Option<String>, openai_base_url: bool) -> Result<Self, ConfigError> {
        let embedder = match get("MINICLAW_EMBEDDER").as_deref() {
            None | Some("minilm") => EmbedderKind::MiniLm,
            Some("openai") => EmbedderKind::OpenAi,
            Some("hash") => EmbedderKind::Hash,
            Some(other) => {
                return Err(bad("MINICLAW_EMBEDDER", format!("`{other}` is not one of minilm, openai, hash")));
            }
        };
        if embedder == EmbedderKind::OpenAi && get("OPENAI_API_KEY").is_none() && !openai_base_url {
            return Err(bad("MINICLAW_EMBEDDER", "`openai` needs OPENAI_API_KEY or OPENAI_BASE_URL"));
        }
        Ok(embedder)
    }
}

/// How the in-process embedding model is served (SPEC B8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmbedTuning {
    /// `MINICLAW_EMBED_CACHE`: vectors of recent texts kept in memory (0: none).
    pub cache: usize,
    /// `MINICLAW_EMBED_BATCH`: the most texts one forward pass takes from concurrent requests
    /// (1, the default: every request runs alone; see docs/BENCHMARKS.md "B8" for why).
    pub batch: usize,
    /// `MINICLAW_EMBED_BATCH_WINDOW_MS`: how long a pass waits for more requests before it
    /// starts (0: it takes what is queued and starts at once).
    pub window: Duration,
}

impl EmbedTuning {
    pub(super) fn read(get: &impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        Ok(EmbedTuning {
            cache: parse_num(get, "MINICLAW_EMBED_CACHE", 4096usize, 0..=1_000_000)?,
            batch: parse_num(get, "MINICLAW_EMBED_BATCH", 1usize, 1..=256)?,
            window: Duration::from_millis(parse_num(get, "MINICLAW_EMBED_BATCH_WINDOW_MS", 0u64, 0..=50)?),
        })
    }
}
