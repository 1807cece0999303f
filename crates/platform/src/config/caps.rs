//! How much an agent may accumulate (hardening, finding 10): conversations, memories, keys and
//! soul versions per agent, and how long deleted conversations are kept. Each bound has a
//! default a careful operator would pick and is documented in the README's configuration table.

use super::ConfigError;
use super::parse::parse_num;

/// Growth bounds per agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// `MINICLAW_CONVERSATIONS_PER_AGENT`: live (not deleted) conversations an agent may have;
    /// starting one more is 409.
    pub conversations_per_agent: i64,
    /// `MINICLAW_CONVERSATION_RETENTION_DAYS`: how long a deleted conversation is kept (hidden)
    /// before it is purged with its messages.
    pub conversation_retention_days: u32,
    /// `MINICLAW_MEMORIES_PER_AGENT`: memories an agent may hold; adding beyond is 409.
    pub memories_per_agent: i64,
    /// `MINICLAW_KEYS_PER_AGENT`: live keys an owner may issue for an agent (connect keys have
    /// their own cap); issuing beyond is 409.
    pub keys_per_agent: i64,
    /// `MINICLAW_SOUL_VERSIONS_KEPT`: soul versions kept per agent; older ones are pruned.
    pub soul_versions_kept: i64,
    /// `MINICLAW_SIGNUP_CREDITS`: platform credits a new tenant is granted (skills, tips); 0
    /// grants none.
    pub signup_credits: i64,
    /// `MINICLAW_AUTH_CACHE`: keep verified keys and live sessions in the process, invalidated
    /// across processes by LISTEN/NOTIFY (`auth::cache`); `false` reads the database on every
    /// request.
    pub auth_cache: bool,
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            conversations_per_agent: 10_000,
            conversation_retention_days: 30,
            memories_per_agent: 50_000,
            keys_per_agent: 50,
            soul_versions_kept: 200,
            signup_credits: 100,
            auth_cache: true,
        }
    }
}

impl Caps {
    pub(super) fn read(get: &impl Fn(&str) -> Option<String>) -> Result<Caps, ConfigError> {
        let d = Caps::default();
        Ok(Caps {
            conversations_per_agent: parse_num(
                get,
                "MINICLAW_CONVERSATIONS_PER_AGENT",
                d.conversations_per_agent,
                1..=10_000_000,
            )?,
            conversation_retention_days: parse_num(
                get,
                "MINICLAW_CONVERSATION_RETENTION_DAYS",
                d.conversation_retention_days,
                0..=3650,
            )?,
            memories_per_agent: parse_num(get, "MINICLAW_MEMORIES_PER_AGENT", d.memories_per_agent, 1..=10_000_000)?,
            keys_per_agent: parse_num(get, "MINICLAW_KEYS_PER_AGENT", d.keys_per_agent, 1..=10_000)?,
            soul_versions_kept: parse_num(get, "MINICLAW_SOUL_VERSIONS_KEPT", d.soul_versions_kept, 1..=100_000)?,
            signup_credits: parse_num(get, "MINICLAW_SIGNUP_CREDITS", d.signup_credits, 0..=1_000_000_000)?,
            auth_cache: super::parse::parse_bool(get, "MINICLAW_AUTH_CACHE", d.auth_cache)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn read(vars: &[(&str, &str)]) -> Result<Caps, ConfigError> {
        let env: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Caps::read(&|k: &str| env.get(k).cloned())
    }

    #[test]
    fn caps_default_and_refuse_out_of_range_values_by_name() {
        assert_eq!(read(&[]).unwrap(), Caps::default());
        let c = read(&[("MINICLAW_KEYS_PER_AGENT", "3"), ("MINICLAW_CONVERSATION_RETENTION_DAYS", "0")]).unwrap();
        assert_eq!((c.keys_per_agent, c.conversation_retention_days), (3, 0));
        for (var, value) in [
            ("MINICLAW_CONVERSATIONS_PER_AGENT", "0"),
            ("MINICLAW_MEMORIES_PER_AGENT", "lots"),
            ("MINICLAW_SOUL_VERSIONS_KEPT", "0"),
            ("MINICLAW_CONVERSATION_RETENTION_DAYS", "-1"),
        ] {
            assert_eq!(read(&[(var, value)]).unwrap_err().var, var);
        }
    }
}
