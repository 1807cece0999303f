//! The agent registration file (ERC-8004 `registration-v1`), what an agent's `agentURI` points
//! to. It is built fresh from the agent's settings at every request, so a profile change shows
//! at once; `setAgentURI` tells indexers to fetch it again.

use serde_json::{Value, json};
use sqlx::PgPool;

use miniclaw_core::ids::AgentId;

/// The `type` of a registration file.
pub const TYPE: &str = "https://eips.ethereum.org/EIPS/eip-8004#registration-v1";
/// The path a domain serves its agent's registration file at.
pub const WELL_KNOWN: &str = "/.well-known/agent-registration.json";
/// The newest MCP revision the agent's MCP endpoint speaks (it negotiates older ones), as its
/// service entry lists it.
pub const MCP_VERSION: &str = "2026-07-28";
/// The path of the MCP endpoint, under the platform's base URL.
pub const MCP_PATH: &str = "/mcp";
/// The A2A protocol version the agents speak.
pub const A2A_VERSION: &str = "1.0";
/// A description no longer than this (the persona can be long).
const DESCRIPTION_MAX: usize = 500;

/// The public URL of the agent's registration file on this platform.
pub fn public_url(base_url: &str, agent: AgentId) -> String {
    format!("{base_url}/agents/{agent}/registration.json")
}

/// Where agent `agent`'s A2A Agent Card is: the A2A well-known path under the agent's own base
/// URL on this platform.
pub fn a2a_card_url(base_url: &str, agent: AgentId) -> String {
    format!("{base_url}/agents/{agent}/.well-known/agent-card.json")
}

/// The URI registered on chain: the agent's own domain when it has one, else this platform.
pub fn agent_uri(base_url: &str, agent: AgentId, domain: Option<&str>) -> String {
    match domain {
        Some(d) => format!("https://{d}{WELL_KNOWN}"),
        None => public_url(base_url, agent),
    }
}

/// Everything a registration file is made of.
#[derive(Debug, Clone)]
pub struct Inputs {
    pub agent: AgentId,
    pub name: String,
    pub persona: String,
    pub active: bool,
    pub description: Option<String>,
    pub image: Option<String>,
    /// The agent's address for email, listed when outreach is enabled and configured.
    pub email: Option<String>,
    /// The on-chain registration: (agentId, `eip155:<chain>:<registry>`).
    pub registration: Option<(i64, String)>,
    /// The agent sells services whose paid calls answer with x402 payment requirements.
    pub x402: bool,
}

/// The registration file of `inputs`, served under `base_url`.
pub fn build(base_url: &str, inputs: &Inputs) -> Value {
    let description = inputs.description.clone().filter(|d| !d.trim().is_empty()).unwrap_or_else(|| {
        let persona = inputs.persona.trim();
        if persona.is_empty() {
            format!("{}, a persistent AI agent hosted on miniclaw.", inputs.name)
        } else {
            persona.chars().take(DESCRIPTION_MAX).collect()
        }
    });
    let mut services = vec![
        json!({ "name": "web", "endpoint": format!("{base_url}/v1/hosted-agents/{}/chat", inputs.agent) }),
        json!({ "name": "OpenAI", "endpoint": format!("{base_url}/v1/chat/completions"), "version": "v1" }),
        // One endpoint for every agent: an agent key chooses the agent.
        json!({ "name": "MCP", "endpoint": format!("{base_url}{MCP_PATH}"), "version": MCP_VERSION }),
        json!({ "name": "A2A", "endpoint": a2a_card_url(base_url, inputs.agent), "version": A2A_VERSION }),
    ];
    if let Some(email) = &inputs.email {
        services.push(json!({ "name": "email", "endpoint": email }));
    }
    let registrations: Vec<Value> =
        inputs.registration.iter().map(|(id, registry)| json!({ "agentId": id, "agentRegistry": registry })).collect();
    let mut file = json!({
        "type": TYPE,
        "name": inputs.name,
        "description": description,
        "services": services,
        "x402Support": inputs.x402,
        "active": inputs.active,
        "registrations": registrations,
        // None of the ERC-8004 trust models (reputation, crypto-economic, TEE attestation) is
        // offered yet: an empty list says "discovery only", as the standard reads it.
        "supportedTrust": [],
    });
    if let Some(image) = &inputs.image {
        file["image"] = json!(image);
    }
    file
}

/// The inputs of an agent whose owner asked for an identity (none otherwise: an agent is not
/// published until then). `outreach_configured` says whether outbound email is configured.
pub async fn inputs(pool: &PgPool, agent: AgentId, outreach_configured: bool) -> sqlx::Result<Option<Inputs>> {
    let Some(a) = crate::tenancy::agents::by_id(pool, agent).await? else { return Ok(None) };
    let row = sqlx::query!(
        // Whether it sells: its paid calls then answer with x402 requirements.
        r#"SELECT description, image, email, erc8004_id, chain_id, registry, status,
                  EXISTS (SELECT 1 FROM agent_services WHERE agent_id = $1 AND active) AS "x402!"
           FROM agent_identities WHERE agent_id = $1 AND status <> 'none'"#,
        agent as _
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|r| Inputs {
        agent,
        name: a.name,
        persona: a.persona,
        active: a.active,
        description: r.description,
        image: r.image,
        email: r.email.filter(|_| a.outreach_enabled && outreach_configured),
        registration: match (r.status.as_str(), r.erc8004_id, r.chain_id, r.registry) {
            ("registered", Some(id), Some(chain), Some(registry)) => registry
                .parse()
                .ok()
                .map(|address| (id, miniclaw_platform::chain::registry::agent_registry(chain as u64, address))),
            _ => None,
        },
        x402: r.x402,
    }))
}

/// The agent's registration file as it is served now; `None` until its owner asks for an
/// identity. Email is listed only while outbound email is configured (SMTP or Resend).
pub async fn current(
    pool: &PgPool,
    base_url: &str,
    config: &miniclaw_platform::config::Config,
    agent: AgentId,
) -> sqlx::Result<Option<Value>> {
    let outreach = config.email.configured();
    Ok(inputs(pool, agent, outreach).await?.map(|i| build(base_url, &i)))
}

/// The SHA-256 of the agent's registration file as it is served now (with email listed when
/// `outreach_configured`); `None` until its owner asks for an identity.
pub async fn digest(
    pool: &PgPool,
    base_url: &str,
    agent: AgentId,
    outreach_configured: bool,
) -> sqlx::Result<Option<Vec<u8>>> {
    use sha2::Digest;
    Ok(inputs(pool, agent, outreach_configured).await?.map(|i| {
        let file = build(base_url, &i);
        sha2::Sha256::digest(file.to_string().as_bytes()).to_vec()
    }))
}

/// The agent whose identity lists `host` (lower-case, without a port) as its proven domain.
pub async fn agent_of_domain(pool: &PgPool, host: &str) -> sqlx::Result<Option<AgentId>> {
    let ids = sqlx::query_scalar!(
        r#"SELECT agent_id AS "agent_id: AgentId" FROM agent_identities
            WHERE lower(domain) = lower($1) AND domain_verified_at IS NOT NULL"#,
        host
    )
    .fetch_all(pool)
    .await?;
    for id in ids {
        if crate::tenancy::agents::tenant_of(pool, id).await?.is_some() {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> Inputs {
        Inputs {
            agent: AgentId(uuid::Uuid::nil()),
            name: "Ada".into(),
            persona: "A careful research assistant.".into(),
            active: true,
            description: None,
            image: None,
            email: None,
            registration: None,
            x402: false,
        }
    }

    #[test]
    fn a_file_names_its_type_services_and_registrations() {
        let base = "https://claw.example";
        let pending = build(base, &inputs());
        assert_eq!(pending["type"], TYPE);
        assert_eq!(pending["description"], "A careful research assistant.");
        assert_eq!(pending["registrations"], json!([]));
        assert!(pending.get("image").is_none());
        assert_eq!(pending["services"][0]["endpoint"], format!("{base}/v1/hosted-agents/{}/chat", uuid::Uuid::nil()));

        let mut registered = inputs();
        registered.registration = Some((0, "eip155:8453:0x8004A169FB4a3325136EB29fA0ceB6D2e539a432".into()));
        registered.image = Some("https://claw.example/ada.png".into());
        registered.email = Some("agent@ada.example".into());
        let file = build(base, &registered);
        assert_eq!(file["registrations"][0]["agentId"], 0);
        assert_eq!(file["image"], "https://claw.example/ada.png");
        assert_eq!(
            file["services"][2],
            json!({ "name": "MCP", "endpoint": "https://claw.example/mcp", "version": MCP_VERSION })
        );
        assert_eq!(
            file["services"][3],
            json!({ "name": "A2A", "endpoint": a2a_card_url(base, registered.agent), "version": A2A_VERSION })
        );
        assert_eq!(file["services"][4], json!({ "name": "email", "endpoint": "agent@ada.example" }));
    }

    #[test]
    fn the_uri_is_the_agents_domain_when_it_has_one() {
        let agent = AgentId(uuid::Uuid::nil());
        assert_eq!(
            agent_uri("https://claw.example", agent, None),
            format!("https://claw.example/agents/{}/registration.json", uuid::Uuid::nil())
        );
        assert_eq!(
            agent_uri("https://claw.example", agent, Some("ada.example")),
            "https://ada.example/.well-known/agent-registration.json"
        );
    }
}
