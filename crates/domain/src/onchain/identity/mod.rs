//! ERC-8004 identities (SPEC I1): an agent registered on the IdentityRegistry from its
//! server-managed wallet, by a durable job, with its registration file served publicly.
//!
//! - `file`: the registration file and the URI the registry points at.
//! - `jobs`: `identity_register` (register, idempotent across crashes) and `identity_update`
//!   (`setAgentURI` after profile changes).

pub mod file;
pub mod jobs;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;

use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;
use miniclaw_platform::jobs::{NewJob, queue};

/// An agent's identity as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Identity {
    /// `none` (never requested), `pending` (the job is at work or retrying), `registered`, or
    /// `failed` (see `reason`).
    pub status: String,
    /// Why it failed; while pending, the last transient problem being retried.
    pub reason: Option<String>,
    /// Pending, but its job gave up retrying (the node stayed unreachable for about a day):
    /// requesting the registration again resumes it where it stopped, without a second
    /// registration.
    pub stalled: bool,
    /// The registry's agentId (its ERC-721 token id; ids start at 0), not miniclaw's agent id.
    pub erc8004_agent_id: Option<i64>,
    /// `eip155:<chain id>:<registry address>`.
    pub agent_registry: Option<String>,
    pub chain_id: Option<i64>,
    /// The registration transaction.
    pub tx_hash: Option<String>,
    /// The transaction on a block explorer, for the chains miniclaw knows.
    pub explorer_tx_url: Option<String>,
    /// The address owning the identity token (the agent's wallet, or the sponsor wallet).
    pub owner: Option<String>,
    /// The URI registered on chain.
    pub agent_uri: Option<String>,
    /// Where this platform serves the registration file (public once registration is requested).
    pub registration_url: String,
    pub profile: Profile,
    /// How the profile's domain is proven, while it has one.
    pub domain_proof: Option<DomainProof>,
    pub requested_at: Option<DateTime<Utc>>,
    pub registered_at: Option<DateTime<Utc>>,
}

/// The TXT record that proves the agent's domain is its owner's. Until it is found (`POST
/// …/identity/domain/verify`), the domain serves nothing, is not registered on chain and
/// reserves nothing.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DomainProof {
    pub verified: bool,
    pub verified_at: Option<DateTime<Utc>>,
    /// The name to put the record at: `_miniclaw.<domain>`.
    pub txt_name: String,
    /// The record's text: `miniclaw-verify=<token>`.
    pub txt_value: String,
}

/// The name and text of the TXT record proving `domain` with `token`.
pub fn domain_record(domain: &str, token: &str) -> (String, String) {
    (format!("_miniclaw.{domain}"), format!("miniclaw-verify={token}"))
}

/// What the registration file says beyond the agent's settings.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct Profile {
    /// A domain of the agent's that serves `/.well-known/agent-registration.json` (from here,
    /// by Host); when set, the registered URI points there.
    pub domain: Option<String>,
    /// Image URL (http or https).
    pub image: Option<String>,
    /// Description; default: the agent's persona (first 500 characters).
    pub description: Option<String>,
    /// Email address listed as a service while outreach is enabled and configured.
    pub email: Option<String>,
}

/// The longest description (characters).
pub const DESCRIPTION_MAX: usize = 2000;

/// Explorer link of a transaction on the chains miniclaw knows.
pub fn explorer_tx_url(chain_id: i64, hash: &str) -> Option<String> {
    let base = match chain_id {
        8453 => "https://basescan.org",
        84532 => "https://sepolia.basescan.org",
        42220 => "https://celoscan.io",
        11142220 => "https://celo-sepolia.blockscout.com",
        _ => return None,
    };
    Some(format!("{base}/tx/{hash}"))
}

/// When the agent was registered on ERC-8004, and its token id.
pub async fn registered_at(pool: &PgPool, agent: AgentId) -> sqlx::Result<Option<(DateTime<Utc>, Option<i64>)>> {
    let row = sqlx::query!(
        "SELECT registered_at, erc8004_id FROM agent_identities WHERE agent_id = $1 AND status = 'registered'",
        agent as _
    )
    .fetch_optional(pool)
    .await?;
    Ok(row.and_then(|r| Some((r.registered_at?, r.erc8004_id))))
}

/// The agent's ERC-8004 registration as stored: its status (`none` before any request) and the
/// token id once registered; `None` when it has no identity row.
pub async fn registration(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<Option<(String, Option<i64>)>> {
    let row = sqlx::query!("SELECT status, erc8004_id FROM agent_identities WHERE agent_id = $1", agent as _)
        .fetch_optional(conn)
        .await?;
    Ok(row.map(|r| (r.status, r.erc8004_id)))
}

/// The agent's identity (`none` when never requested).
pub async fn get(pool: &PgPool, base_url: &str, agent: AgentId) -> sqlx::Result<Identity> {
    let row = sqlx::query!(
        "SELECT status, error, erc8004_id, chain_id, registry, tx_hash, owner_address, agent_uri, domain, image,
                description, email, requested_at, registered_at, domain_token, domain_verified_at
           FROM agent_identities WHERE agent_id = $1",
        agent as _
    )
    .fetch_optional(pool)
    .await?;
    let registration_url = file::public_url(base_url, agent);
    let Some(r) = row else {
        return Ok(Identity {
            status: "none".into(),
            reason: None,
            stalled: false,
            erc8004_agent_id: None,
            agent_registry: None,
            chain_id: None,
            tx_hash: None,
            explorer_tx_url: None,
            owner: None,
            agent_uri: None,
            registration_url,
            profile: Profile::default(),
            domain_proof: None,
            requested_at: None,
            registered_at: None,
        });
    };
    let stalled = r.status == "pending" && !job_alive(pool, agent).await?;
    let agent_registry = match (r.chain_id, r.registry.as_deref().and_then(|a| a.parse().ok())) {
        (Some(chain), Some(address)) => Some(miniclaw_platform::chain::registry::agent_registry(chain as u64, address)),
        _ => None,
    };
    Ok(Identity {
        status: r.status,
        reason: r.error,
        stalled,
        erc8004_agent_id: r.erc8004_id,
        agent_registry,
        chain_id: r.chain_id,
        explorer_tx_url: r.chain_id.zip(r.tx_hash.as_deref()).and_then(|(c, h)| explorer_tx_url(c, h)),
        tx_hash: r.tx_hash,
        owner: r.owner_address,
        agent_uri: r.agent_uri,
        registration_url,
        domain_proof: r.domain.as_deref().zip(r.domain_token.as_deref()).map(|(domain, token)| {
            let (txt_name, txt_value) = domain_record(domain, token);
            DomainProof {
                verified: r.domain_verified_at.is_some(),
                verified_at: r.domain_verified_at,
                txt_name,
                txt_value,
            }
        }),
        profile: Profile { domain: r.domain, image: r.image, description: r.description, email: r.email },
        requested_at: r.requested_at,
        registered_at: r.registered_at,
    })
}

/// Whether a registration job of the agent is queued or running.
async fn job_alive<'c>(conn: impl sqlx::PgExecutor<'c>, agent: AgentId) -> sqlx::Result<bool> {
    miniclaw_platform::jobs::queue::alive(conn, agent, jobs::REGISTER).await
}

/// Asks for the agent's registration: makes its wallet if it has none (unless the sponsor
/// wallet registers, `MINICLAW_IDENTITY_SIGNER=sponsor`), marks the identity
/// `pending` and queues the job, in one transaction. A pending registration whose job gave up
/// (`stalled`) is resumed: the job is queued again and settles the transaction it recorded, if
/// any, instead of signing another. 409 when it is registered, or pending with its job at work.
pub async fn request_registration(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
) -> Result<Identity, Error> {
    let chain = deps.chain.as_ref().ok_or_else(|| Error::Unprocessable {
        code: "chain_not_configured",
        message: "no chain is configured: set EVM_RPC_URL and EVM_CHAIN_ID (and ERC8004_REGISTRY_ADDRESS for a chain \
                  without a known registry)"
            .into(),
        details: None,
    })?;
    crate::onchain::wallets::require_master_key(&deps.vault)?;
    let mut tx = deps.pool.begin().await?;
    let wallet = if chain.settings.sponsor {
        sponsor_registration_allowed(&mut tx, tenant, chain.settings.sponsor_registrations_per_day).await?;
        "sponsor".to_string()
    } else {
        crate::onchain::wallets::ensure(&mut tx, &deps.vault, tenant, agent, origin).await?
    };
    let registry = format!("{:#x}", chain.registry);
    let marked = sqlx::query_scalar!(
        "INSERT INTO agent_identities (agent_id, status, chain_id, registry, requested_at)
         VALUES ($1, 'pending', $2, $3, now())
         ON CONFLICT (agent_id) DO UPDATE
            SET status = 'pending', chain_id = $2, registry = $3, requested_at = now(), error = NULL, tx_id = NULL,
                tx_hash = NULL, owner_address = NULL, erc8004_id = NULL, registered_at = NULL, updated_at = now()
          WHERE agent_identities.status IN ('none', 'failed')
         RETURNING agent_id",
        agent as _,
        chain.chain_id as i64,
        registry
    )
    .fetch_optional(&mut *tx)
    .await?;
    if marked.is_none() {
        let status =
            sqlx::query_scalar!("SELECT status FROM agent_identities WHERE agent_id = $1 FOR UPDATE", agent as _)
                .fetch_one(&mut *tx)
                .await?;
        if status != "pending" || job_alive(&mut *tx, agent).await? {
            return Err(Error::Conflict(format!("the agent's identity is already {status}")));
        }
        queue::enqueue_in(&mut tx, NewJob::new(jobs::REGISTER).agent(agent).max_attempts(jobs::MAX_ATTEMPTS)).await?;
        activity::record_agent(&mut tx, tenant, agent, origin, "identity.registration_resumed", serde_json::json!({}))
            .await?;
        tx.commit().await?;
        return Ok(get(&deps.pool, &deps.base_url, agent).await?);
    }
    queue::enqueue_in(&mut tx, NewJob::new(jobs::REGISTER).agent(agent).max_attempts(jobs::MAX_ATTEMPTS)).await?;
    let details = serde_json::json!({ "chain_id": chain.chain_id, "registry": registry, "wallet": wallet });
    activity::record_agent(&mut tx, tenant, agent, origin, "identity.registration_requested", details).await?;
    tx.commit().await?;
    Ok(get(&deps.pool, &deps.base_url, agent).await?)
}

/// With the sponsor wallet paying, an account's registrations asked today (UTC) stay within
/// `cap` (429 past it, until midnight): the tenant row is locked, so concurrent requests count
/// each other.
async fn sponsor_registration_allowed(conn: &mut sqlx::PgConnection, tenant: TenantId, cap: u32) -> Result<(), Error> {
    if !crate::tenancy::accounts::lock_tenant(&mut *conn, tenant).await? {
        return Err(Error::not_found("tenant"));
    }
    let asked: i64 = sqlx::query_scalar(&format!(
        "SELECT count(*) FROM agent_identities
          WHERE agent_id IN ({}) AND requested_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'",
        crate::tenancy::agents::sql::of_tenant("$1")
    ))
    .bind(tenant)
    .fetch_one(&mut *conn)
    .await?;
    if asked >= i64::from(cap) {
        return Err(Error::limited_until_midnight(format!(
            "the platform pays for {cap} registrations of an account a day (MINICLAW_SPONSOR_REGISTRATIONS_PER_DAY); ask again after midnight UTC"
        )));
    }
    Ok(())
}

/// Validates and stores the profile fields that are present (an empty string clears one); a registered agent's registry
/// entry is refreshed (`setAgentURI`) by a debounced job.
pub async fn update_profile(
    deps: &Deps,
    tenant: TenantId,
    agent: AgentId,
    origin: &Origin,
    patch: Profile,
) -> Result<Identity, Error> {
    let domain = patch.domain.map(|d| d.trim().trim_end_matches('.').to_ascii_lowercase());
    if let Some(d) = domain.as_ref().filter(|d| !d.is_empty()) {
        let label_ok = |l: &str| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        };
        if d.len() > 253 || !d.contains('.') || !d.split('.').all(label_ok) {
            return Err(Error::validation("domain", "domain must be a host name such as agent.example.com"));
        }
        // The platform's own host (and every name under it) serves the platform, not an agent.
        let platform = url::Url::parse(&deps.base_url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase));
        if platform.is_some_and(|p| *d == p || d.ends_with(&format!(".{p}"))) {
            return Err(Error::Unprocessable {
                code: "domain_refused",
                message: "the platform's own host and the names under it cannot be an agent's domain".into(),
                details: Some(serde_json::json!({ "field": "domain" })),
            });
        }
    }
    let image = patch.image.map(|i| i.trim().to_string());
    if let Some(i) = image.as_ref().filter(|i| !i.is_empty()) {
        let ok = url::Url::parse(i).is_ok_and(|u| matches!(u.scheme(), "http" | "https")) && i.len() <= 2000;
        if !ok {
            return Err(Error::validation("image", "image must be an http(s) URL of at most 2,000 characters"));
        }
    }
    let description = patch.description.map(|d| d.trim().to_string());
    if let Some(n) = description.as_ref().map(|d| d.chars().count()).filter(|n| *n > DESCRIPTION_MAX) {
        return Err(Error::too_long("description", DESCRIPTION_MAX, n));
    }
    let email = patch.email.map(|e| e.trim().to_string());
    if email
        .as_ref()
        .is_some_and(|e| !e.is_empty() && (e.len() > 254 || !e.contains('@') || e.contains(char::is_whitespace)))
    {
        return Err(Error::validation("email", "email must be an address such as agent@example.com"));
    }
    let mut tx = deps.pool.begin().await?;
    let taken = match domain.as_ref().filter(|d| !d.is_empty()) {
        Some(d) => sqlx::query_scalar!(
            "SELECT agent_id FROM agent_identities
              WHERE lower(domain) = $1 AND agent_id <> $2 AND domain_verified_at IS NOT NULL",
            d,
            agent as _
        )
        .fetch_optional(&mut *tx)
        .await?
        .is_some(),
        None => false,
    };
    if taken {
        return Err(Error::Conflict("another agent already uses this domain".into()));
    }
    // A new domain gets a new challenge and is unproven; the same one keeps its proof.
    let token = {
        use rand::RngCore;
        let mut raw = [0u8; 16];
        rand::rng().fill_bytes(&mut raw);
        hex::encode(raw)
    };
    sqlx::query!(
        "INSERT INTO agent_identities (agent_id, domain, image, description, email, domain_token)
         VALUES ($1, nullif($2, ''), nullif($3, ''), nullif($4, ''), nullif($5, ''), CASE WHEN nullif($2, '') IS NOT NULL THEN $6 END)
         ON CONFLICT (agent_id) DO UPDATE
            SET domain = CASE WHEN $2::text IS NULL THEN agent_identities.domain ELSE nullif($2, '') END,
                domain_token = CASE WHEN $2::text IS NULL OR lower(agent_identities.domain) IS NOT DISTINCT FROM nullif($2, '')
                                    THEN agent_identities.domain_token
                                    WHEN nullif($2, '') IS NOT NULL THEN $6 END,
                domain_verified_at = CASE WHEN $2::text IS NULL OR lower(agent_identities.domain) IS NOT DISTINCT FROM nullif($2, '')
                                          THEN agent_identities.domain_verified_at END,
                image = CASE WHEN $3::text IS NULL THEN agent_identities.image ELSE nullif($3, '') END,
                description = CASE WHEN $4::text IS NULL THEN agent_identities.description ELSE nullif($4, '') END,
                email = CASE WHEN $5::text IS NULL THEN agent_identities.email ELSE nullif($5, '') END,
                updated_at = now()",
        agent as _,
        domain,
        image,
        description,
        email,
        token
    )
    .execute(&mut *tx)
    .await?;
    activity::record_agent(&mut tx, tenant, agent, origin, "identity.profile_updated", serde_json::json!({})).await?;
    profile_changed(&mut tx, agent).await?;
    tx.commit().await?;
    Ok(get(&deps.pool, &deps.base_url, agent).await?)
}

/// Looks for the TXT record that proves the agent's domain (`domain_record`) and, found, makes
/// the domain the agent's: it serves the registration file and, once registered, the registry
/// points at it. 404 without a domain, 409 when another agent proved it first, 422
/// `domain_unproven` (with the record to add) when the record is not there or the DNS server
/// does not answer (`lookup_error` says so).
pub async fn prove_domain(deps: &Deps, tenant: TenantId, agent: AgentId, origin: &Origin) -> Result<Identity, Error> {
    let row = sqlx::query!(
        "SELECT domain, domain_token, domain_verified_at IS NOT NULL AS \"verified!\"
           FROM agent_identities WHERE agent_id = $1 AND domain IS NOT NULL",
        agent as _
    )
    .fetch_optional(&deps.pool)
    .await?;
    let Some((domain, token, verified)) = row.and_then(|r| Some((r.domain?, r.domain_token?, r.verified))) else {
        return Err(Error::NotFound("the agent has no domain to prove; set one first".into()));
    };
    if verified {
        return Ok(get(&deps.pool, &deps.base_url, agent).await?);
    }
    let (name, value) = domain_record(&domain, &token);
    // A lookup that fails proves nothing either: the same answer, with why.
    let (records, lookup_error) = match deps.dns.txt(&name).await {
        Ok(records) => (records, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    if !records.iter().any(|r| r.trim() == value) {
        let message = match &lookup_error {
            Some(e) => format!("{name} could not be looked up ({e}); try again shortly"),
            None => format!("no TXT record at {name} says {value}; add it, wait for it to be served, and try again"),
        };
        return Err(Error::Unprocessable {
            code: "domain_unproven",
            message,
            details: Some(
                serde_json::json!({ "txt_name": name, "txt_value": value, "found": records, "lookup_error": lookup_error }),
            ),
        });
    }
    let mut tx = deps.pool.begin().await?;
    let proven = sqlx::query!(
        "UPDATE agent_identities SET domain_verified_at = now(), updated_at = now()
          WHERE agent_id = $1 AND domain = $2 AND domain_token = $3 AND domain_verified_at IS NULL",
        agent as _,
        domain,
        token
    )
    .execute(&mut *tx)
    .await;
    match proven {
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("agent_identities_domain") => {
            return Err(Error::Conflict("another agent proved this domain first".into()));
        }
        other => other?,
    };
    let details = serde_json::json!({ "domain": domain });
    activity::record_agent(&mut tx, tenant, agent, origin, "identity.domain_proven", details).await?;
    profile_changed(&mut tx, agent).await?;
    tx.commit().await?;
    Ok(get(&deps.pool, &deps.base_url, agent).await?)
}

/// Queues the refresh of a registered agent's registry entry after its profile changed
/// (name, persona, activity, identity profile); debounced so a burst of edits sends one
/// transaction. Nothing for an agent without a registered identity.
pub async fn profile_changed(conn: &mut PgConnection, agent: AgentId) -> sqlx::Result<()> {
    let registered = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM agent_identities WHERE agent_id = $1 AND status = 'registered') AS "x!""#,
        agent as _
    )
    .fetch_one(&mut *conn)
    .await?;
    if registered {
        queue::enqueue_debounced(conn, jobs::UPDATE, &[agent], jobs::UPDATE_DEBOUNCE_SECS, 600).await?;
    }
    Ok(())
}
