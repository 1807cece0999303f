//! What an agent can be set to: the input of create and PATCH, the defaults, and the
//! validation every stored setting passes (each error names its field).

use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use super::Agent;
use crate::tenancy::auth::signature;
use miniclaw_core::Error;

/// The daily token budget of an agent created without one.
pub const DEFAULT_DAILY_TOKEN_BUDGET: i32 = 100_000;
/// The daily token budgets an agent may be given.
pub const BUDGET_RANGE: std::ops::RangeInclusive<i32> = 1_000..=100_000_000;
/// What a self-service connect may grant unless the owner says otherwise: reading the agent and
/// chatting with it.
pub const DEFAULT_CONNECT_SCOPES: [&str; 4] = ["agent:read", "chat:read", "chat:write", "memories:read"];
/// The longest name, in characters.
pub const NAME_MAX: usize = 64;
/// The longest persona, in characters.
pub const PERSONA_MAX: usize = 4_000;

/// A daily quiet window, from `start` to `end`, in the agent's timezone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct QuietHours {
    /// `HH:MM`, in the agent's timezone.
    pub start: String,
    /// `HH:MM`; may be earlier than `start` (quiet overnight).
    pub end: String,
}

/// Tells a field given as `null` (`Some(None)`: clear it) from one left out (`None`: keep it).
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Ok(Some(Option::deserialize(d)?))
}

/// Settings to create an agent with, or to change (PATCH: absent fields stay as they are;
/// `null` clears a nullable one).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentInput {
    pub name: Option<String>,
    pub persona: Option<String>,
    pub emoji: Option<String>,
    pub tier: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub premium_model: Option<Option<String>>,
    pub daily_token_budget: Option<i32>,
    pub outreach_enabled: Option<bool>,
    pub outreach_auto_reply_confidence: Option<f32>,
    pub notification_mode: Option<String>,
    pub proactiveness: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<QuietHours>)]
    pub quiet_hours: Option<Option<QuietHours>>,
    pub timezone: Option<String>,
    pub active: Option<bool>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub evm_address: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub ed25519_public_key: Option<Option<String>>,
    /// The most a self-service connect may grant. Owner only.
    pub connect_scopes: Option<Vec<String>>,
}

impl AgentInput {
    /// The fields only the owner may set (identity, spending, what a connect may grant, and
    /// email to third parties): a key with `agent:write` changes the agent's behaviour, never
    /// who controls it, what it may spend or whom it writes to.
    pub fn owner_only_fields(&self) -> Vec<&'static str> {
        let set = [
            ("tier", self.tier.is_some()),
            ("premium_model", self.premium_model.is_some()),
            ("daily_token_budget", self.daily_token_budget.is_some()),
            ("active", self.active.is_some()),
            ("evm_address", self.evm_address.is_some()),
            ("ed25519_public_key", self.ed25519_public_key.is_some()),
            ("connect_scopes", self.connect_scopes.is_some()),
            // Who the agent writes to by email, and how sure it must be to answer on its own.
            ("outreach_enabled", self.outreach_enabled.is_some()),
            ("outreach_auto_reply_confidence", self.outreach_auto_reply_confidence.is_some()),
        ];
        set.into_iter().filter(|(_, given)| *given).map(|(f, _)| f).collect()
    }
}

/// The full, validated settings of an agent.
#[derive(Debug, Clone)]
pub(super) struct Settings {
    pub(super) name: String,
    pub(super) persona: String,
    pub(super) emoji: String,
    pub(super) tier: String,
    pub(super) premium_model: Option<String>,
    pub(super) daily_token_budget: i32,
    pub(super) outreach_enabled: bool,
    pub(super) outreach_auto_reply_confidence: f32,
    pub(super) notification_mode: String,
    pub(super) proactiveness: String,
    pub(super) quiet_hours: Option<QuietHours>,
    pub(super) timezone: String,
    pub(super) active: bool,
    pub(super) evm_address: Option<String>,
    pub(super) ed25519_public_key: Option<String>,
    pub(super) connect_scopes: Vec<String>,
}

impl Settings {
    /// The settings of an agent created with nothing but a name.
    pub(super) fn defaults() -> Self {
        Settings {
            name: String::new(),
            persona: String::new(),
            emoji: String::new(),
            tier: "free".into(),
            premium_model: None,
            daily_token_budget: DEFAULT_DAILY_TOKEN_BUDGET,
            outreach_enabled: false,
            outreach_auto_reply_confidence: 0.8,
            notification_mode: "smart".into(),
            proactiveness: "moderate".into(),
            quiet_hours: None,
            timezone: "UTC".into(),
            active: true,
            evm_address: None,
            ed25519_public_key: None,
            connect_scopes: DEFAULT_CONNECT_SCOPES.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// The settings an agent has now.
    pub(super) fn of(a: &Agent) -> Self {
        Settings {
            name: a.name.clone(),
            persona: a.persona.clone(),
            emoji: a.emoji.clone(),
            tier: a.tier.clone(),
            premium_model: a.premium_model.clone(),
            daily_token_budget: a.daily_token_budget,
            outreach_enabled: a.outreach_enabled,
            outreach_auto_reply_confidence: a.outreach_auto_reply_confidence,
            notification_mode: a.notification_mode.clone(),
            proactiveness: a.proactiveness.clone(),
            quiet_hours: a.quiet_hours.as_ref().map(|q| q.0.clone()),
            timezone: a.timezone.clone(),
            active: a.active,
            evm_address: a.evm_address.clone(),
            ed25519_public_key: a.ed25519_public_key.clone(),
            connect_scopes: a.connect_scopes.clone(),
        }
    }

    /// Applies an input on top and validates the result.
    pub(super) fn apply(mut self, i: AgentInput) -> Result<Self, Error> {
        if let Some(v) = i.name {
            self.name = v.trim().to_string();
        }
        if let Some(v) = i.persona {
            self.persona = v.trim().to_string();
        }
        if let Some(v) = i.emoji {
            self.emoji = v.trim().to_string();
        }
        if let Some(v) = i.tier {
            self.tier = v;
        }
        if let Some(v) = i.premium_model {
            self.premium_model = v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        }
        if let Some(v) = i.daily_token_budget {
            self.daily_token_budget = v;
        }
        if let Some(v) = i.outreach_enabled {
            self.outreach_enabled = v;
        }
        if let Some(v) = i.outreach_auto_reply_confidence {
            self.outreach_auto_reply_confidence = v;
        }
        if let Some(v) = i.notification_mode {
            self.notification_mode = v;
        }
        if let Some(v) = i.proactiveness {
            self.proactiveness = v;
        }
        if let Some(v) = i.quiet_hours {
            self.quiet_hours = v;
        }
        if let Some(v) = i.timezone {
            self.timezone = v.trim().to_string();
        }
        if let Some(v) = i.active {
            self.active = v;
        }
        if let Some(v) = i.evm_address {
            self.evm_address = match v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()) {
                None => None,
                Some(s) => Some(signature::normalize_evm_address(&s).ok_or_else(|| {
                    Error::validation("evm_address", "evm_address must be a 0x-prefixed 20-byte hex address")
                })?),
            };
        }
        if let Some(v) = i.ed25519_public_key {
            self.ed25519_public_key = match v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()) {
                None => None,
                Some(s) => {
                    Some(signature::normalize_ed25519_key(&s).map_err(|e| Error::validation("ed25519_public_key", e))?)
                }
            };
        }
        if let Some(v) = i.connect_scopes {
            self.connect_scopes =
                crate::tenancy::auth::scopes::parse_list(&v).map_err(|e| Error::validation("connect_scopes", e))?;
        }
        self.validate()?;
        Ok(self)
    }

    /// A premium agent's own model must be one the operator priced: an unknown model would run
    /// outside every spending limit (422 naming the field and the models to choose from).
    pub(super) fn check_model(&self, llm: &miniclaw_platform::llm::Gateway) -> Result<(), Error> {
        match &self.premium_model {
            Some(m) if !llm.choosable(m) => Err(Error::Unprocessable {
                code: "unpriced_model",
                message: format!(
                    "premium_model `{m}` is not a model this platform prices; choose one of: {}",
                    llm.choosable_models().join(", ")
                ),
                details: Some(serde_json::json!({ "field": "premium_model" })),
            }),
            _ => Ok(()),
        }
    }

    /// Each rule names the field that breaks it.
    fn validate(&self) -> Result<(), Error> {
        if self.name.is_empty() {
            return Err(Error::validation("name", format!("name must be 1–{NAME_MAX} characters")));
        }
        Error::check_length("name", &self.name, NAME_MAX)?;
        Error::check_length("persona", &self.persona, PERSONA_MAX)?;
        Error::check_length("emoji", &self.emoji, 8)?;
        if !["free", "premium"].contains(&self.tier.as_str()) {
            return Err(Error::validation("tier", "tier must be `free` or `premium`"));
        }
        if let Some(m) = &self.premium_model {
            Error::check_length("premium_model", m, 100)?;
        }
        if !BUDGET_RANGE.contains(&self.daily_token_budget) {
            return Err(Error::validation(
                "daily_token_budget",
                format!("daily_token_budget must be between {} and {}", BUDGET_RANGE.start(), BUDGET_RANGE.end()),
            ));
        }
        if !(0.0..=1.0).contains(&self.outreach_auto_reply_confidence) {
            return Err(Error::validation(
                "outreach_auto_reply_confidence",
                "outreach_auto_reply_confidence must be between 0 and 1",
            ));
        }
        if !["instant", "digest_only", "smart"].contains(&self.notification_mode.as_str()) {
            return Err(Error::validation(
                "notification_mode",
                "notification_mode must be `instant`, `digest_only` or `smart`",
            ));
        }
        if !["conservative", "moderate", "eager"].contains(&self.proactiveness.as_str()) {
            return Err(Error::validation(
                "proactiveness",
                "proactiveness must be `conservative`, `moderate` or `eager`",
            ));
        }
        if let Some(q) = &self.quiet_hours
            && (!is_hh_mm(&q.start) || !is_hh_mm(&q.end))
        {
            return Err(Error::validation("quiet_hours", "quiet_hours start and end must be HH:MM (24-hour)"));
        }
        if self.timezone.parse::<chrono_tz::Tz>().is_err() {
            return Err(Error::validation(
                "timezone",
                format!("`{}` is not an IANA timezone such as Europe/Vienna", self.timezone),
            ));
        }
        Ok(())
    }
}

/// `HH:MM` on a 24-hour clock.
fn is_hh_mm(s: &str) -> bool {
    chrono::NaiveTime::parse_from_str(s, "%H:%M").is_ok() && s.len() == 5
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(v: serde_json::Value) -> AgentInput {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn defaults_follow_the_spec() {
        let s = Settings::defaults().apply(input(serde_json::json!({ "name": "Ada" }))).unwrap();
        assert_eq!(s.daily_token_budget, 100_000);
        assert_eq!(s.tier, "free");
        assert_eq!(s.notification_mode, "smart");
    }

    #[test]
    fn each_invalid_setting_names_its_field() {
        let cases = [
            serde_json::json!({ "name": "" }),
            serde_json::json!({ "name": "x".repeat(65) }),
            serde_json::json!({ "tier": "gold" }),
            serde_json::json!({ "daily_token_budget": 10 }),
            serde_json::json!({ "outreach_auto_reply_confidence": 1.5 }),
            serde_json::json!({ "notification_mode": "loud" }),
            serde_json::json!({ "proactiveness": "pushy" }),
            serde_json::json!({ "quiet_hours": { "start": "25:00", "end": "07:00" } }),
            serde_json::json!({ "timezone": "Mars/Olympus" }),
            serde_json::json!({ "evm_address": "0x12" }),
            serde_json::json!({ "ed25519_public_key": "abc" }),
        ];
        for c in cases {
            let field = c.as_object().unwrap().keys().next().unwrap().clone();
            let mut base = serde_json::json!({ "name": "Ada" });
            base.as_object_mut().unwrap().extend(c.as_object().unwrap().clone());
            let err = Settings::defaults().apply(input(base)).unwrap_err();
            match err {
                // Over a length limit: 422 `too_long`; any other rule: 400.
                Error::Invalid { details: Some(d), .. } | Error::Unprocessable { details: Some(d), .. } => {
                    assert_eq!(d["field"], field.as_str())
                }
                other => panic!("{field}: {other:?}"),
            }
        }
    }

    #[test]
    fn null_clears_and_absent_keeps() {
        let s = Settings::defaults()
            .apply(input(
                serde_json::json!({ "name": "Ada", "evm_address": "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }),
            ))
            .unwrap();
        assert_eq!(s.evm_address.as_deref(), Some("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"));
        let kept = s.clone().apply(input(serde_json::json!({ "persona": "kind" }))).unwrap();
        assert!(kept.evm_address.is_some());
        let cleared = s.apply(input(serde_json::json!({ "evm_address": null }))).unwrap();
        assert!(cleared.evm_address.is_none());
    }
}
