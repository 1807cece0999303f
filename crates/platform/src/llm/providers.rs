//! The provider clients the gateway calls: one per configured provider, of either API family
//! (OpenAI-compatible or Anthropic), each answering in one piece or as a stream.

use std::collections::HashMap;
use std::time::Duration;

use super::ChatRequest;
use super::anthropic::AnthropicClient;
use super::openai::{Completion, OpenAiClient, ProviderError, SseParser};
use crate::config::Config;

/// A provider client of either API family.
pub(super) enum Provider {
    OpenAi(OpenAiClient),
    Anthropic(AnthropicClient),
}

impl Provider {
    /// The clients of the providers `config` names, by provider name (`openai`, `xai`,
    /// `anthropic`); none when no key or base URL is set.
    pub(super) fn configured(config: &Config) -> HashMap<&'static str, Provider> {
        let mut clients = HashMap::new();
        if config.openai_api_key.is_some() || config.openai_base_url.is_some() {
            let base = config.openai_base_url.clone().unwrap_or_else(|| "https://api.openai.com/v1".into());
            clients
                .insert("openai", Provider::OpenAi(OpenAiClient::new("openai", &base, config.openai_api_key.clone())));
        }
        if let Some(key) = &config.xai_api_key {
            clients.insert("xai", Provider::OpenAi(OpenAiClient::new("xai", "https://api.x.ai/v1", Some(key.clone()))));
        }
        if let Some(key) = &config.anthropic_api_key {
            let base = config.anthropic_base_url.clone().unwrap_or_else(|| "https://api.anthropic.com/v1".into());
            clients.insert("anthropic", Provider::Anthropic(AnthropicClient::new(&base, key.clone())));
        }
        clients
    }

    /// One call, answered in one piece.
    pub(super) async fn complete(
        &self,
        req: &ChatRequest,
        model: &str,
        max_tokens: u32,
        timeout: Duration,
    ) -> Result<Completion, ProviderError> {
        match self {
            Provider::OpenAi(c) => c.complete(req, model, max_tokens, timeout).await,
            Provider::Anthropic(c) => c.complete(req, model, max_tokens, timeout).await,
        }
    }

    /// One call, answered as a stream of server-sent events (read them with `parser`).
    pub(super) async fn stream(
        &self,
        req: &ChatRequest,
        model: &str,
        max_tokens: u32,
        timeout: Duration,
    ) -> Result<reqwest::Response, ProviderError> {
        match self {
            Provider::OpenAi(c) => c.stream(req, model, max_tokens, timeout).await,
            Provider::Anthropic(c) => c.stream(req, model, max_tokens, timeout).await,
        }
    }

    /// A parser for the events of this provider's streams.
    pub(super) fn parser(&self) -> SseParser {
        match self {
            Provider::OpenAi(_) => SseParser::default(),
            Provider::Anthropic(_) => SseParser::anthropic(),
        }
    }
}
