//! Agent bundles: one agent taken out of the platform, or brought in, whole. The bundle format
//! (`miniclaw.agent`, version 1) is documented JSON: the agent's settings, its soul with every
//! version, its memories with their history and relations (knowledge entries included), the
//! dossier, the tasks, the skills installed and, when asked for, the conversations. It never
//! carries a secret: no keys, no wallet, no webhook or bot secret, no vectors (they are
//! recomputed on import with this platform's embedder).
//!
//! Import validates the whole bundle before it stores anything, names the first bad field,
//! and stores everything in one transaction (nothing half-created). The same bytes imported
//! again by the same account return the agent the first import made (while it exists).
//! Letta Agent Files (`.af`) are read and written by `letta`.

pub mod account;
pub mod letta;
pub mod person;

use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::chat::portable::{self as chat_portable, PortableConversation};
use crate::cognition::portable::{self as cognition_portable, PortableDossier, PortableSoulVersion, PortableTask};
use crate::memory::portable::{self as memory_portable, PortableMemory, PortableRelation};
use crate::runtime::Runtime;
use crate::social::skills::installs;
use crate::tenancy::agents::{self, Agent, AgentInput, QuietHours};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::jobs::Registry;

/// The value of a bundle's `format`.
pub const FORMAT: &str = "miniclaw.agent";
/// The bundle format's version this platform writes and reads.
pub const VERSION: u32 = 1;

/// One agent, whole: the `miniclaw.agent` format, version 1.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    /// Always `miniclaw.agent`.
    pub format: String,
    /// The format's version: 1.
    pub version: u32,
    pub exported_at: DateTime<Utc>,
    pub agent: PortableAgent,
    /// Every version of the soul, oldest first; the last is the current one.
    pub soul: Vec<PortableSoulVersion>,
    /// Every memory, live or not, with its history.
    pub memories: Vec<PortableMemory>,
    #[serde(default)]
    pub relations: Vec<PortableRelation>,
    #[serde(default)]
    pub dossier: Option<PortableDossier>,
    #[serde(default)]
    pub tasks: Vec<PortableTask>,
    /// Skills installed from this platform's market, by slug.
    #[serde(default)]
    pub skills: Vec<PortableSkill>,
    /// Present only when the export was asked for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversations: Option<Vec<PortableConversation>>,
}

/// The agent's settings (the owner's connection keys and identity stay behind).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortableAgent {
    pub name: String,
    #[serde(default)]
    pub persona: String,
    #[serde(default)]
    pub emoji: Option<String>,
    #[serde(default)]
    pub tier: Option<String>,
    #[serde(default)]
    pub premium_model: Option<String>,
    #[serde(default)]
    pub daily_token_budget: Option<i32>,
    #[serde(default)]
    pub outreach_enabled: Option<bool>,
    #[serde(default)]
    pub outreach_auto_reply_confidence: Option<f32>,
    #[serde(default)]
    pub notification_mode: Option<String>,
    #[serde(default)]
    pub proactiveness: Option<String>,
    #[serde(default)]
    pub quiet_hours: Option<QuietHours>,
    #[serde(default)]
    pub timezone: Option<String>,
}

/// A skill the agent had installed.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortableSkill {
    pub slug: String,
    pub version: String,
}

/// What an import made.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Imported {
    pub agent: Agent,
    /// `false` when these bytes were imported before and that agent is returned.
    pub created: bool,
    /// `miniclaw.agent` or `letta`.
    pub format: String,
    pub memories: usize,
    pub soul_versions: usize,
    pub tasks: usize,
    pub messages: usize,
    /// Skills installed again from this platform's market.
    pub skills: Vec<String>,
    /// What did not come along, and why (a skill not on this market, a Letta tool, ...).
    pub notes: Vec<String>,
}

/// What to export.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExportOptions {
    pub conversations: bool,
}

/// The agent's bundle; 404 for an agent the tenant does not have.
pub async fn export(rt: &Runtime, tenant: TenantId, agent: AgentId, options: ExportOptions) -> Result<Bundle, Error> {
    let pool = rt.pool();
    let a = agents::get(pool, tenant, agent).await?.ok_or_else(|| Error::not_found("agent"))?;
    let (soul, dossier, tasks) = cognition_portable::export(pool, agent).await?;
    let (memories, relations) = memory_portable::export(pool, agent).await?;
    let skills = installs::installed(pool, agent, None, 1000, None)
        .await?
        .into_iter()
        .map(|s| PortableSkill { slug: s.slug, version: s.version })
        .collect();
    let conversations = if options.conversations { Some(chat_portable::export(pool, agent).await?) } else { None };
    Ok(Bundle {
        format: FORMAT.into(),
        version: VERSION,
        exported_at: Utc::now(),
        agent: PortableAgent {
            name: a.name,
            persona: a.persona,
            emoji: Some(a.emoji),
            tier: Some(a.tier),
            premium_model: a.premium_model,
            daily_token_budget: Some(a.daily_token_budget),
            outreach_enabled: Some(a.outreach_enabled),
            outreach_auto_reply_confidence: Some(a.outreach_auto_reply_confidence),
            notification_mode: Some(a.notification_mode),
            proactiveness: Some(a.proactiveness),
            quiet_hours: a.quiet_hours.map(|q| q.0),
            timezone: Some(a.timezone),
        },
        soul,
        memories,
        relations,
        dossier,
        tasks,
        skills,
        conversations,
    })
}

/// Reads an uploaded document: a `miniclaw.agent` bundle, or a Letta Agent File (either
/// generation of the format, also as a JSON string holding the document). 400 naming the
/// first bad field otherwise.
pub fn read(doc: serde_json::Value) -> Result<(Bundle, &'static str, Vec<String>), Error> {
    if doc.get("format").is_some() {
        let bundle: Bundle = serde_path_to_error::deserialize(doc).map_err(|e| {
            let path = e.path().to_string();
            Error::validation(&path, format!("`{path}`: {}", e.into_inner()))
        })?;
        if bundle.format != FORMAT {
            return Err(Error::validation("format", format!("format must be `{FORMAT}`")));
        }
        if bundle.version != VERSION {
            return Err(Error::validation(
                "version",
                format!("bundle version {} is not one this platform reads (it reads {VERSION})", bundle.version),
            ));
        }
        // Every soul version passes the screen a soul rewrite passes: a bundle file can be
        // anyone's text.
        if let Some((n, why)) = bundle
            .soul
            .iter()
            .enumerate()
            .find_map(|(n, s)| crate::cognition::soul::screen(&s.content).map(|why| (n, why)))
        {
            return Err(Error::Unprocessable {
                code: "soul_refused",
                message: format!("soul[{n}] is not imported: {why}"),
                details: Some(serde_json::json!({ "field": format!("soul[{n}]") })),
            });
        }
        return Ok((bundle, FORMAT, Vec::new()));
    }
    let (bundle, notes) = letta::read(doc)?;
    Ok((bundle, "letta", notes))
}

/// The caps an imported agent starts under: the same as for one built here.
struct Caps {
    memories: i64,
    knowledge: i64,
    conversations: i64,
}

fn validate(b: &Bundle, caps: &Caps) -> Result<(), Error> {
    let max_memories = caps.memories;
    if b.agent.name.trim().is_empty() {
        return Err(Error::validation("agent.name", "the agent's name must not be empty"));
    }
    if b.memories.len() as i64 > max_memories {
        return Err(Error::validation(
            "memories",
            format!(
                "the bundle has {} memories; an agent here may hold {max_memories} (MINICLAW_MEMORIES_PER_AGENT)",
                b.memories.len()
            ),
        ));
    }
    let entries = b.memories.iter().filter_map(|m| m.knowledge_id).collect::<std::collections::HashSet<_>>().len();
    if entries as i64 > caps.knowledge {
        return Err(Error::validation(
            "memories",
            format!(
                "the bundle has {entries} knowledge entries; an agent here may hold {} (MINICLAW_KNOWLEDGE_CAP)",
                caps.knowledge
            ),
        ));
    }
    let conversations = b.conversations.as_ref().map_or(0, Vec::len);
    if conversations as i64 > caps.conversations {
        return Err(Error::validation(
            "conversations",
            format!(
                "the bundle has {conversations} conversations; an agent here may hold {} (MINICLAW_CONVERSATIONS_PER_AGENT)",
                caps.conversations
            ),
        ));
    }
    cognition_portable::validate(&b.soul, b.dossier.as_ref(), &b.tasks)?;
    memory_portable::validate(&b.memories, &b.relations)?;
    if let Some(c) = &b.conversations {
        chat_portable::validate(c)?;
    }
    for (i, s) in b.skills.iter().enumerate() {
        Error::check_length("slug", &s.slug, 64).map_err(|e| e.within(&format!("skills[{i}]")))?;
    }
    Ok(())
}

/// Creates an agent from an uploaded document (`read`), for `tenant`. `bytes` are the upload
/// as sent: the same bytes again return the agent they made (`created: false`).
pub async fn import(
    rt: &Runtime,
    registry: &Registry,
    tenant: TenantId,
    origin: &Origin,
    bytes: &[u8],
    doc: serde_json::Value,
    max_agents: i64,
) -> Result<Imported, Error> {
    let (bundle, format, mut notes) = read(doc)?;
    let deps = rt.deps();
    let caps = Caps {
        memories: deps.caps.memories_per_agent,
        knowledge: deps.knowledge_cap,
        conversations: deps.caps.conversations_per_agent,
    };
    validate(&bundle, &caps)?;
    let digest = hex::encode(Sha256::digest(bytes));
    // The cheap refusals before the embedder runs: the account's imports of the day and its
    // agent cap (checked again when the agent is made).
    {
        let mut conn = rt.pool().acquire().await?;
        admissible(&mut conn, tenant, &digest, max_agents).await?;
    }
    // Vectors first, outside the transaction (the embedder may be slow); a failure stores the
    // memories without vectors and the embedding job fills them in.
    let texts: Vec<String> = bundle.memories.iter().map(|m| m.content.trim().to_string()).collect();
    let mut vectors = Vec::with_capacity(texts.len());
    for chunk in texts.chunks(64) {
        vectors.extend(crate::memory::ingest::embed_all(rt, chunk).await);
    }

    let mut tx = rt.pool().begin().await?;
    // The tenant's row orders imports (and agent creations) of one account.
    if !crate::tenancy::accounts::lock_tenant(&mut tx, tenant).await? {
        return Err(Error::not_found("tenant"));
    }
    if let Some(existing) = earlier(&mut tx, tenant, &digest).await?
        && let Some(agent) = agents::get(&mut *tx, tenant, existing).await?
    {
        return Ok(Imported {
            agent,
            created: false,
            format: format.into(),
            memories: bundle.memories.len(),
            soul_versions: bundle.soul.len(),
            tasks: bundle.tasks.len(),
            messages: bundle.conversations.iter().flatten().map(|c| c.messages.len()).sum(),
            skills: Vec::new(),
            notes: vec!["these bytes were imported before; this is the agent they made".into()],
        });
    }
    let a = &bundle.agent;
    let input = AgentInput {
        name: Some(a.name.clone()),
        persona: Some(a.persona.clone()),
        emoji: a.emoji.clone(),
        tier: a.tier.clone(),
        premium_model: a.premium_model.clone().map(Some),
        daily_token_budget: a.daily_token_budget,
        outreach_enabled: a.outreach_enabled,
        outreach_auto_reply_confidence: a.outreach_auto_reply_confidence,
        notification_mode: a.notification_mode.clone(),
        proactiveness: a.proactiveness.clone(),
        quiet_hours: a.quiet_hours.clone().map(Some),
        timezone: a.timezone.clone(),
        ..AgentInput::default()
    };
    let agent = agents::create(&mut tx, registry, rt.llm(), tenant, origin, input, max_agents)
        .await
        .map_err(|e| e.within("agent"))?;
    cognition_portable::restore(&mut tx, agent.id, &bundle.soul, bundle.dossier.as_ref(), &bundle.tasks).await?;
    let memories = memory_portable::restore(&mut tx, agent.id, &bundle.memories, vectors, &bundle.relations).await?;
    let messages = match &bundle.conversations {
        Some(c) => chat_portable::restore(&mut tx, agent.id, c).await?,
        None => 0,
    };
    let mut skills = Vec::new();
    for s in &bundle.skills {
        match installs::install_in(&mut tx, tenant, agent.id, origin, &s.slug, false).await {
            Ok(()) => skills.push(s.slug.clone()),
            // Not on this market, not usable here, or paid (an import buys nothing): a note.
            Err(e @ (Error::NotFound(_) | Error::Unprocessable { .. } | Error::Refused { .. })) => {
                notes.push(format!("skill `{}` was not installed: {e}", s.slug))
            }
            Err(e) => return Err(e),
        }
    }
    remember(&mut tx, tenant, &digest, agent.id, format).await?;
    let details = serde_json::json!({
        "format": format, "memories": memories, "soul_versions": bundle.soul.len(),
        "tasks": bundle.tasks.len(), "messages": messages, "skills": skills.len(),
    });
    activity::record_agent(&mut tx, tenant, agent.id, origin, "agent.imported", details).await?;
    tx.commit().await?;
    Ok(Imported {
        agent,
        created: true,
        format: format.into(),
        memories,
        soul_versions: bundle.soul.len(),
        tasks: bundle.tasks.len(),
        messages,
        skills,
        notes,
    })
}

/// Agent imports an account may make per UTC day (the same bytes again count once).
pub const IMPORTS_PER_DAY: i64 = 20;

/// Whether an import of `digest` may go on to the expensive part (embedding its memories): 429
/// past `IMPORTS_PER_DAY` new imports today, 409 when the account is at its agent cap (the same
/// bytes imported before pass: they return the agent they made).
async fn admissible(
    conn: &mut sqlx::PgConnection,
    tenant: TenantId,
    digest: &str,
    max_agents: i64,
) -> Result<(), Error> {
    if earlier(&mut *conn, tenant, digest).await?.is_some() {
        return Ok(());
    }
    let today: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM agent_imports
          WHERE tenant_id = $1 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'",
    )
    .bind(tenant)
    .fetch_one(&mut *conn)
    .await?;
    if today >= IMPORTS_PER_DAY {
        return Err(Error::limited_until_midnight(format!(
            "an account imports {IMPORTS_PER_DAY} agents a day; import again after midnight UTC"
        )));
    }
    let agents: i64 = sqlx::query_scalar(&format!("SELECT {}", crate::tenancy::agents::sql::count("$1", false)))
        .bind(tenant)
        .fetch_one(&mut *conn)
        .await?;
    if agents >= max_agents {
        return Err(Error::Conflict(format!(
            "this account already has {agents} agents, the most allowed (MINICLAW_AGENTS_PER_TENANT); delete one first"
        )));
    }
    Ok(())
}

/// The agent an earlier import of the same bytes made, if any.
async fn earlier(conn: &mut sqlx::PgConnection, tenant: TenantId, digest: &str) -> sqlx::Result<Option<AgentId>> {
    sqlx::query_scalar("SELECT agent_id FROM agent_imports WHERE tenant_id = $1 AND digest = $2")
        .bind(tenant)
        .bind(digest)
        .fetch_optional(conn)
        .await
}

async fn remember(
    conn: &mut sqlx::PgConnection,
    tenant: TenantId,
    digest: &str,
    agent: AgentId,
    format: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO agent_imports (tenant_id, digest, agent_id, format) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, digest) DO UPDATE SET agent_id = EXCLUDED.agent_id, format = EXCLUDED.format, created_at = now()",
    )
    .bind(tenant)
    .bind(digest)
    .bind(agent)
    .bind(format)
    .execute(conn)
    .await?;
    Ok(())
}
