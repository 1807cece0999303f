//! Key scopes: one per endpoint family and access level (SPEC A3). `family:write` implies
//! `family:read`; `*` grants everything.

use std::fmt;

/// Every scope a key can hold, in the order the dashboard shows them.
pub const ALL: &[(&str, &str)] = &[
    ("agent:read", "Read the agent's settings and activity"),
    ("agent:write", "Change the agent's settings"),
    ("chat:read", "Read conversations"),
    ("chat:write", "Chat with the agent"),
    ("memories:read", "Read and search memories"),
    ("memories:write", "Add, edit and delete memories and knowledge"),
    ("soul:read", "Read the soul and reflections"),
    ("soul:write", "Propose soul rewrites, trigger reflection"),
    ("outreach:read", "Read outreach proposals and threads"),
    ("outreach:write", "Create and act on outreach"),
    ("analytics:read", "Read analytics"),
    ("identity:read", "Read the on-chain identity"),
    ("identity:write", "Register the agent on chain and edit its registration file"),
    ("wallet:read", "Read wallet balance and history"),
    ("wallet:write", "Send from the agent's wallet"),
    ("economy:read", "Read the agent's economy: tips, services, orders, stakes"),
    ("economy:write", "Tip, sell, order, pay and stake as the agent"),
    ("tasks:read", "Read tasks"),
    ("tasks:write", "Create and update tasks"),
    ("proactive:read", "Read the agent's proactive check-ins, suggestions and trust"),
    ("proactive:write", "Accept or dismiss proactive check-ins"),
    ("skills:read", "Read installed skills and the agent's credits"),
    ("skills:write", "Publish, install, rate and remove skills (buying one needs the owner)"),
    ("feed:read", "Read the feed and comments"),
    ("feed:write", "Post, like and comment as the agent"),
    ("webhooks:read", "Read the agent's webhook endpoints and their deliveries"),
    ("webhooks:write", "Register, change, replay and remove the agent's webhook endpoints"),
    ("*", "Everything above"),
];

/// A scope name a route requires, e.g. `Scope("memories:read")`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scope(pub &'static str);

impl Scope {
    pub const AGENT_READ: Scope = Scope("agent:read");
    pub const AGENT_WRITE: Scope = Scope("agent:write");
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

pub fn is_known(scope: &str) -> bool {
    ALL.iter().any(|(s, _)| *s == scope)
}

/// Whether `granted` covers `required`.
pub fn allows(granted: &[String], required: Scope) -> bool {
    let (family, level) = required.0.split_once(':').unwrap_or((required.0, ""));
    granted.iter().any(|g| g == "*" || g == required.0 || (level == "read" && g.strip_suffix(":write") == Some(family)))
}

/// Whether a key holding exactly `ceiling` could grant `scope` (`*` only from `*`).
pub fn within(ceiling: &[String], scope: &str) -> bool {
    ceiling.iter().any(|c| {
        c == "*" || c == scope || scope.strip_suffix(":read").is_some_and(|f| c.strip_suffix(":write") == Some(f))
    })
}

/// Validates and normalises a requested scope list (sorted, deduplicated, non-empty).
pub fn parse_list(requested: &[String]) -> Result<Vec<String>, String> {
    if requested.is_empty() {
        return Err("at least one scope is required".into());
    }
    let mut out = Vec::with_capacity(requested.len());
    for s in requested {
        let s = s.trim();
        if !is_known(s) {
            return Err(format!("unknown scope `{s}`"));
        }
        out.push(s.to_string());
    }
    out.sort();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn write_implies_read_of_the_same_family_only() {
        assert!(allows(&v(&["memories:write"]), Scope("memories:read")));
        assert!(allows(&v(&["memories:write"]), Scope("memories:write")));
        assert!(!allows(&v(&["memories:read"]), Scope("memories:write")));
        assert!(!allows(&v(&["memories:write"]), Scope("soul:read")));
        assert!(allows(&v(&["*"]), Scope("wallet:write")));
        assert!(!allows(&v(&[]), Scope("agent:read")));
    }

    #[test]
    fn scope_lists_are_validated() {
        assert_eq!(
            parse_list(&v(&["chat:write", "agent:read", "chat:write"])).unwrap(),
            v(&["agent:read", "chat:write"])
        );
        assert!(parse_list(&v(&["chat:execute"])).unwrap_err().contains("chat:execute"));
        assert!(parse_list(&v(&[])).is_err());
    }
}
