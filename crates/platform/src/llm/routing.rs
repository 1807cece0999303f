//! The routing table (SPEC M1): role → provider + model, ordered fallbacks, timeout and max
//! tokens. Defaults follow 001 §4.1 (cheap model for triage, extraction, summaries and guards;
//! chat by tier; a reasoning model for reflection); `MINICLAW_LLM_ROUTES` overrides any role.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::Role;
use crate::config::Config;

pub const OFFLINE: &str = "offline";

/// Providers with a client in this build, in the order "first configured" is read.
pub const PROVIDERS: [&str; 3] = ["openai", "xai", "anthropic"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Target {
    /// `openai`, `xai`, `anthropic` or `offline`.
    pub provider: String,
    pub model: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Route {
    pub role: Role,
    /// The primary target first, then the fallbacks in order.
    pub targets: Vec<Target>,
    pub timeout_ms: u64,
    pub max_tokens: u32,
}

impl Route {
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }
}

/// One role's override in `MINICLAW_LLM_ROUTES`; absent fields keep the default.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteOverride {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub fallbacks: Option<Vec<Target>>,
    pub timeout_ms: Option<u64>,
    pub max_tokens: Option<u32>,
}

/// Parses `MINICLAW_LLM_ROUTES` (a JSON object keyed by role name).
pub fn parse_overrides(json: &str) -> Result<BTreeMap<Role, RouteOverride>, String> {
    let raw: BTreeMap<String, RouteOverride> =
        serde_json::from_str(json).map_err(|e| format!("not valid JSON routes: {e}"))?;
    let mut out = BTreeMap::new();
    for (name, o) in raw {
        let role = Role::parse(&name).ok_or_else(|| format!("unknown role `{name}`"))?;
        let providers = o.provider.iter().chain(o.fallbacks.iter().flatten().map(|t| &t.provider));
        for p in providers {
            if !is_provider(p) {
                return Err(format!("unknown provider `{p}` for role {name}"));
            }
        }
        if o.timeout_ms.is_some_and(|t| !(100..=600_000).contains(&t)) {
            return Err(format!("timeout_ms for {name} must be 100–600000"));
        }
        if o.max_tokens.is_some_and(|t| !(1..=200_000).contains(&t)) {
            return Err(format!("max_tokens for {name} must be 1–200000"));
        }
        out.insert(role, o);
    }
    Ok(out)
}

fn is_provider(p: &str) -> bool {
    p == OFFLINE || PROVIDERS.contains(&p)
}

/// The default model of a provider for a role (001 §4.1 and §9.3).
pub fn default_model(provider: &str, role: Role) -> &'static str {
    match (provider, role) {
        ("openai", Role::ChatPremium | Role::Spawn) => "gpt-5.4",
        ("openai", Role::Mentor) => "o3-mini",
        ("openai", _) => "gpt-5-mini",
        ("xai", Role::ChatPremium) => "grok-4.20-0309-non-reasoning",
        ("xai", Role::Mentor | Role::Spawn) => "grok-4.20-0309-reasoning",
        ("xai", _) => "grok-4-1-fast-non-reasoning",
        ("anthropic", Role::ChatPremium | Role::Mentor | Role::Spawn) => "claude-sonnet-4-5",
        ("anthropic", _) => "claude-haiku-4-5",
        _ => "offline",
    }
}

fn default_timeout(role: Role) -> u64 {
    match role {
        Role::Triage => 3_000,
        Role::Mentor | Role::Compile | Role::Lint | Role::Spawn => 120_000,
        Role::Chat | Role::ChatPremium | Role::Skill => 60_000,
        _ => 30_000,
    }
}

fn default_max_tokens(role: Role) -> u32 {
    match role {
        Role::Triage => 150,
        Role::Chat | Role::ChatPremium | Role::Skill | Role::Mentor => 4_000,
        Role::Compile | Role::Lint | Role::Extraction => 1_500,
        Role::Summarization | Role::Guard | Role::Dedup | Role::Rerank | Role::DreamJudge => 400,
        _ => 1_000,
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoutingTable {
    pub routes: Vec<Route>,
}

impl RoutingTable {
    /// Every role on the first configured provider, the other configured ones as fallbacks,
    /// the offline engine when none is; then the operator's overrides.
    pub fn from_config(config: &Config) -> Result<Self, String> {
        let configured: Vec<&str> =
            PROVIDERS.iter().copied().filter(|p| config.configured_providers().contains(p)).collect();
        let overrides = match &config.llm_routes {
            Some(json) => parse_overrides(json)?,
            None => BTreeMap::new(),
        };
        let mut routes = Vec::new();
        for role in Role::ALL {
            let model_for = |p: &str| match (&config.openai_model, p) {
                (Some(m), "openai") => m.clone(),
                _ => default_model(p, role).to_string(),
            };
            let mut targets: Vec<Target> =
                configured.iter().map(|p| Target { provider: p.to_string(), model: model_for(p) }).collect();
            if targets.is_empty() {
                targets.push(Target { provider: OFFLINE.into(), model: OFFLINE.into() });
            }
            let mut route =
                Route { role, targets, timeout_ms: default_timeout(role), max_tokens: default_max_tokens(role) };
            if let Some(o) = overrides.get(&role) {
                if o.provider.is_some() || o.model.is_some() {
                    let provider = o.provider.clone().unwrap_or_else(|| route.targets[0].provider.clone());
                    let model = o.model.clone().unwrap_or_else(|| model_for(&provider));
                    route.targets[0] = Target { provider, model };
                }
                if let Some(f) = &o.fallbacks {
                    route.targets.truncate(1);
                    route.targets.extend(f.iter().cloned());
                }
                if let Some(t) = o.timeout_ms {
                    route.timeout_ms = t;
                }
                if let Some(m) = o.max_tokens {
                    route.max_tokens = m;
                }
            }
            for t in &route.targets {
                if t.provider != OFFLINE && !configured.contains(&t.provider.as_str()) {
                    return Err(format!(
                        "role {} routes to `{}`, which has no key or base URL configured",
                        role.as_str(),
                        t.provider
                    ));
                }
            }
            routes.push(route);
        }
        Ok(RoutingTable { routes })
    }

    pub fn route(&self, role: Role) -> &Route {
        self.routes.iter().find(|r| r.role == role).expect("every role has a route")
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn config(pairs: &[(&str, &str)]) -> Config {
        let env: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_map(&env).unwrap()
    }

    #[test]
    fn no_provider_means_offline_for_every_role() {
        let t = RoutingTable::from_config(&config(&[])).unwrap();
        assert_eq!(t.routes.len(), 19);
        assert!(
            t.routes.iter().all(|r| r.targets == vec![Target { provider: "offline".into(), model: "offline".into() }])
        );
        assert_eq!(t.route(Role::Triage).timeout_ms, 3_000);
        assert_eq!(t.route(Role::Triage).max_tokens, 150);
    }

    #[test]
    fn first_configured_provider_leads_and_the_others_follow() {
        let t = RoutingTable::from_config(&config(&[("OPENAI_API_KEY", "sk"), ("XAI_API_KEY", "xk")])).unwrap();
        let chat = t.route(Role::Chat);
        assert_eq!(chat.targets[0], Target { provider: "openai".into(), model: "gpt-5-mini".into() });
        assert_eq!(chat.targets[1], Target { provider: "xai".into(), model: "grok-4-1-fast-non-reasoning".into() });
        assert_eq!(t.route(Role::Mentor).targets[0].model, "o3-mini");
        assert_eq!(t.route(Role::ChatPremium).targets[1].model, "grok-4.20-0309-non-reasoning");
    }

    #[test]
    fn overrides_apply_and_are_validated() {
        let routes = r#"{"chat": {"model": "local-llama", "fallbacks": [{"provider": "offline", "model": "offline"}], "timeout_ms": 5000}}"#;
        let t = RoutingTable::from_config(&config(&[
            ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"),
            ("MINICLAW_LLM_ROUTES", routes),
            ("MINICLAW_LLM_PRICES", r#"{"local-llama": {"input": 0, "output": 0}}"#),
        ]))
        .unwrap();
        let chat = t.route(Role::Chat);
        assert_eq!(chat.targets[0], Target { provider: "openai".into(), model: "local-llama".into() });
        assert_eq!(chat.targets[1].provider, "offline");
        assert_eq!(chat.timeout_ms, 5000);

        assert!(parse_overrides(r#"{"chitchat": {}}"#).unwrap_err().contains("chitchat"));
        assert!(parse_overrides(r#"{"chat": {"provider": "acme"}}"#).unwrap_err().contains("acme"));
        assert!(parse_overrides(r#"{"chat": {"timeout_ms": 1}}"#).is_err());
        let unconfigured = r#"{"chat": {"provider": "xai"}}"#;
        let env: HashMap<String, String> = [("MINICLAW_LLM_ROUTES".to_string(), unconfigured.to_string())].into();
        let err = Config::from_map(&env).unwrap_err();
        assert_eq!(err.var, "MINICLAW_LLM_ROUTES");
        assert!(err.message.contains("xai"), "{err}");
    }
}
