//! What authentication reads on every request, kept in the process (SPEC B3): verified API keys
//! and live owner sessions, so an authenticated read does not pay a database round trip for its
//! credentials; and agent rows and owners' accounts, so reading an agent or `/v1/me` pays none
//! at all.
//!
//! Revocation stays immediate across processes. Whatever ends a key or a session (revoking a
//! key, signing out, deleting an agent) forgets it here at once and sends `pg_notify` on
//! `CHANNEL` in its own transaction; every process LISTENs and forgets what it is told when the
//! change commits. Agent rows are forgotten by triggers on `agents` and `verification_records`
//! (`row:<id>`), whatever statement changes them, and here at once by the writes of this
//! process that know they change one; accounts by triggers on `owners` and `tenants`. Pages of
//! an agent's memory list (the JSON `GET …/memories` answers, by filter) are forgotten by a
//! trigger on `agent_memories` (`memories:<agent>`), whatever statement changes a memory, and
//! here at once by every write request the process answers (`forget_pages`). A listener that
//! is not connected turns the cache off (every request reads the database) until it is back,
//! and a reconnect starts from an empty cache, since notifications sent meanwhile are lost. A
//! generation counter, bumped by every forget, keeps a lookup that raced a revocation from
//! putting the old row back (pages keep a counter of their own). Entries also expire after `TTL`, and the
//! cache holds at most `MAX_ENTRIES` of each kind (it starts over when full).
//!
//! One cache per process, shared by every server the process runs (one in production; tests run
//! several, each on its own database, and each listens to its own).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, RwLock};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use sqlx::postgres::PgListener;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::keys::KeyGrant;
use crate::tenancy::accounts::Account;
use crate::tenancy::agents::Agent;
use miniclaw_core::ids::{AgentId, KeyId, TenantId, UserId};

pub const CHANNEL: &str = "miniclaw_auth";
pub const TTL: Duration = Duration::from_secs(30);
pub const MAX_ENTRIES: usize = 100_000;

/// A verified key: what it grants and what each use checks again.
#[derive(Debug, Clone)]
pub struct CachedKey {
    pub grant: KeyGrant,
    pub secret_hash: Vec<u8>,
    pub expires_at: Option<DateTime<Utc>>,
    /// When this process last wrote `last_used_at` (at most once a minute).
    pub used_written: Instant,
    at: Instant,
}

#[derive(Debug, Clone, Copy)]
struct CachedSession {
    owner: UserId,
    tenant: TenantId,
    expires_at: DateTime<Utc>,
    role: crate::tenancy::team::Role,
    at: Instant,
}

#[derive(Debug, Clone)]
struct CachedAgent {
    tenant: TenantId,
    agent: Agent,
    at: Instant,
}

/// Most pages kept for one agent (filters and cursors); its pages start over when full.
pub const PAGES_PER_AGENT: usize = 64;
/// Most bytes of pages kept in all (their JSON); the pages start over when full, and a page
/// larger than this is not kept.
pub const PAGE_BYTES: usize = 64 << 20;

#[derive(Debug, Clone)]
struct CachedPage {
    json: Arc<str>,
    at: Instant,
}

#[derive(Debug, Clone)]
struct CachedAccount {
    account: Account,
    at: Instant,
}

pub struct AuthCache {
    keys: RwLock<HashMap<KeyId, CachedKey>>,
    sessions: RwLock<HashMap<Uuid, CachedSession>>,
    /// Agent rows as `GET /v1/hosted-agents/{id}` answers them, with their tenant.
    agents: RwLock<HashMap<AgentId, CachedAgent>>,
    /// Owners with their tenants, as `GET /v1/me` answers them.
    accounts: RwLock<HashMap<UserId, CachedAccount>>,
    /// Pages of agents' memory lists, by agent and then by the list's filter.
    pages: RwLock<HashMap<AgentId, HashMap<String, CachedPage>>>,
    /// The bytes of the pages held (changed only under `pages`' write lock).
    page_bytes: AtomicUsize,
    generation: AtomicU64,
    /// Bumped by every forget of pages (memories change far more often than credentials, so
    /// they keep their own count and do not stop credential lookups from being stored).
    page_generation: AtomicU64,
    /// Listeners started, and how many of them are connected.
    listeners: AtomicUsize,
    connected: AtomicUsize,
    enabled: AtomicBool,
}

static CACHE: LazyLock<AuthCache> = LazyLock::new(|| AuthCache {
    keys: RwLock::default(),
    sessions: RwLock::default(),
    agents: RwLock::default(),
    accounts: RwLock::default(),
    pages: RwLock::default(),
    page_bytes: AtomicUsize::new(0),
    generation: AtomicU64::new(0),
    page_generation: AtomicU64::new(0),
    listeners: AtomicUsize::new(0),
    connected: AtomicUsize::new(0),
    enabled: AtomicBool::new(true),
});

fn size_of_pages(pages: &HashMap<String, CachedPage>) -> usize {
    pages.values().map(|p| p.json.len()).sum()
}

pub fn cache() -> &'static AuthCache {
    &CACHE
}

impl AuthCache {
    /// Whether entries may be used: on, with every listener connected.
    fn usable(&self) -> bool {
        let started = self.listeners.load(Ordering::Acquire);
        self.enabled.load(Ordering::Relaxed) && started > 0 && self.connected.load(Ordering::Acquire) == started
    }

    /// `MINICLAW_AUTH_CACHE=false` turns it off (every request reads the database).
    pub fn set_enabled(&self, on: bool) {
        self.enabled.store(on, Ordering::Relaxed);
        self.clear();
    }

    /// The generation a lookup starts at; pass it to `put_*` so a lookup that raced a forget
    /// stores nothing.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    pub fn key(&self, id: KeyId) -> Option<CachedKey> {
        if !self.usable() {
            return None;
        }
        let found = self.keys.read().ok()?.get(&id).cloned()?;
        (found.at.elapsed() < TTL).then_some(found)
    }

    pub fn put_key(&self, generation: u64, grant: KeyGrant, secret_hash: Vec<u8>, expires_at: Option<DateTime<Utc>>) {
        let now = Instant::now();
        let entry = CachedKey { grant, secret_hash, expires_at, used_written: now, at: now };
        self.store(&self.keys, generation, entry.grant.key_id, entry);
    }

    /// Stores an entry looked up at `generation`, unless the cache is off or something was
    /// forgotten since (the lookup may have read what was forgotten); starts the map over when
    /// it is full.
    fn store<K: std::hash::Hash + Eq, V>(&self, map: &RwLock<HashMap<K, V>>, generation: u64, key: K, value: V) {
        if !self.usable() {
            return;
        }
        let Ok(mut entries) = map.write() else { return };
        if self.generation() != generation {
            return;
        }
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, value);
    }

    /// Notes that `last_used_at` was written now; whether it was due (a minute since the last).
    pub fn use_due(&self, id: KeyId) -> bool {
        let Ok(mut keys) = self.keys.write() else { return true };
        match keys.get_mut(&id) {
            Some(k) if k.used_written.elapsed() < Duration::from_secs(60) => false,
            Some(k) => {
                k.used_written = Instant::now();
                true
            }
            None => true,
        }
    }

    /// The member's role when the session is known live for this owner and tenant,
    /// `Some(None)` when it is known not theirs (`None`: ask the database).
    pub fn session(
        &self,
        id: Uuid,
        owner: UserId,
        tenant: TenantId,
        now: DateTime<Utc>,
    ) -> Option<Option<crate::tenancy::team::Role>> {
        if !self.usable() {
            return None;
        }
        let s = *self.sessions.read().ok()?.get(&id)?;
        (s.at.elapsed() < TTL && s.expires_at > now)
            .then_some((s.owner == owner && s.tenant == tenant).then_some(s.role))
    }

    pub fn put_session(
        &self,
        generation: u64,
        id: Uuid,
        owner: UserId,
        tenant: TenantId,
        expires_at: DateTime<Utc>,
        role: crate::tenancy::team::Role,
    ) {
        let entry = CachedSession { owner, tenant, expires_at, role, at: Instant::now() };
        self.store(&self.sessions, generation, id, entry);
    }

    /// The agent's row, when cached for this tenant (`None`: ask the database).
    pub fn agent(&self, tenant: TenantId, id: AgentId) -> Option<Agent> {
        if !self.usable() {
            return None;
        }
        let found = self.agents.read().ok()?.get(&id).cloned()?;
        (found.at.elapsed() < TTL && found.tenant == tenant).then_some(found.agent)
    }

    pub fn put_agent(&self, generation: u64, tenant: TenantId, agent: Agent) {
        self.store(&self.agents, generation, agent.id, CachedAgent { tenant, agent, at: Instant::now() });
    }

    /// Forgets an agent's row (it changed): here at once; other processes hear of it from the
    /// trigger on `agents` when the change commits.
    pub fn forget_agent_row(&self, id: AgentId) {
        self.bump();
        if let Ok(mut agents) = self.agents.write() {
            agents.remove(&id);
        }
    }

    /// The owner and its tenant, when cached (`None`: ask the database).
    pub fn account(&self, owner: UserId, tenant: TenantId) -> Option<Account> {
        if !self.usable() {
            return None;
        }
        let found = self.accounts.read().ok()?.get(&owner).cloned()?;
        (found.at.elapsed() < TTL && found.account.tenant.id == tenant).then_some(found.account)
    }

    pub fn put_account(&self, generation: u64, account: Account) {
        let owner = account.owner.id;
        self.store(&self.accounts, generation, owner, CachedAccount { account, at: Instant::now() });
    }

    /// Forgets the owner's account here at once (a change this process made: the notice reaches
    /// the other processes).
    pub fn forget_owner(&self, owner: UserId) {
        self.forget_accounts(|a| a.account.owner.id != owner);
    }

    /// The generation a page lookup starts at; pass it to `put_page`.
    pub fn page_generation(&self) -> u64 {
        self.page_generation.load(Ordering::Acquire)
    }

    /// A page of the agent's memory list as JSON, when cached for this filter (`None`: ask the
    /// database).
    pub fn page(&self, agent: AgentId, filter: &str) -> Option<Arc<str>> {
        if !self.usable() {
            return None;
        }
        let found = self.pages.read().ok()?.get(&agent)?.get(filter).cloned()?;
        (found.at.elapsed() < TTL).then_some(found.json)
    }

    /// Stores a page read at `generation`, unless the cache is off or the agent's memories (or
    /// anyone's) were forgotten since.
    pub fn put_page(&self, generation: u64, agent: AgentId, filter: String, json: Arc<str>) {
        if !self.usable() {
            return;
        }
        if json.len() > PAGE_BYTES {
            return;
        }
        let Ok(mut pages) = self.pages.write() else { return };
        if self.page_generation() != generation {
            return;
        }
        let bytes = &self.page_bytes;
        if pages.len() >= MAX_ENTRIES || bytes.load(Ordering::Relaxed) + json.len() > PAGE_BYTES {
            pages.clear();
            bytes.store(0, Ordering::Relaxed);
        }
        let agent_pages = pages.entry(agent).or_default();
        if agent_pages.len() >= PAGES_PER_AGENT {
            bytes.fetch_sub(size_of_pages(agent_pages), Ordering::Relaxed);
            agent_pages.clear();
        }
        bytes.fetch_add(json.len(), Ordering::Relaxed);
        if let Some(old) = agent_pages.insert(filter, CachedPage { json, at: Instant::now() }) {
            bytes.fetch_sub(old.json.len(), Ordering::Relaxed);
        }
    }

    /// The bytes of the memory-list pages held.
    pub fn page_bytes(&self) -> usize {
        self.page_bytes.load(Ordering::Relaxed)
    }

    /// Forgets the pages of an agent's memory list (one of its memories changed), or of every
    /// agent (`None`: a write whose agent the caller cannot name).
    pub fn forget_pages(&self, agent: Option<AgentId>) {
        self.page_generation.fetch_add(1, Ordering::AcqRel);
        if let Ok(mut pages) = self.pages.write() {
            match agent {
                Some(a) => {
                    if let Some(removed) = pages.remove(&a) {
                        self.page_bytes.fetch_sub(size_of_pages(&removed), Ordering::Relaxed);
                    }
                }
                None => {
                    pages.clear();
                    self.page_bytes.store(0, Ordering::Relaxed);
                }
            }
        }
    }

    fn forget_accounts(&self, keep: impl Fn(&CachedAccount) -> bool) {
        self.bump();
        if let Ok(mut accounts) = self.accounts.write() {
            accounts.retain(|_, a| keep(a));
        }
    }

    fn bump(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    pub fn forget_key(&self, id: KeyId) {
        self.bump();
        if let Ok(mut keys) = self.keys.write() {
            keys.remove(&id);
        }
    }

    pub fn forget_session(&self, id: Uuid) {
        self.bump();
        if let Ok(mut sessions) = self.sessions.write() {
            sessions.remove(&id);
        }
    }

    pub fn forget_agent(&self, agent: AgentId) {
        self.bump();
        if let Ok(mut keys) = self.keys.write() {
            keys.retain(|_, k| k.grant.reach.agent() != Some(agent));
        }
        if let Ok(mut agents) = self.agents.write() {
            agents.remove(&agent);
        }
    }

    pub fn clear(&self) {
        self.bump();
        if let Ok(mut keys) = self.keys.write() {
            keys.clear();
        }
        if let Ok(mut sessions) = self.sessions.write() {
            sessions.clear();
        }
        if let Ok(mut agents) = self.agents.write() {
            agents.clear();
        }
        if let Ok(mut accounts) = self.accounts.write() {
            accounts.clear();
        }
        self.forget_pages(None);
    }

    /// Applies a notification's payload: `key:<id>`, `session:<id>`, `agent:<id>` (deleted),
    /// `row:<id>` (the agent's row changed), `owner:<id>` or `tenant:<id>` (their rows changed),
    /// `memories:<agent id>` (one of its memories changed); anything else clears everything.
    fn apply(&self, payload: &str) {
        let parsed = payload.split_once(':').and_then(|(kind, id)| Some((kind, id.parse::<Uuid>().ok()?)));
        match parsed {
            Some(("key", id)) => self.forget_key(KeyId(id)),
            Some(("session", id)) => self.forget_session(id),
            Some(("agent", id)) => self.forget_agent(AgentId(id)),
            Some(("row", id)) => self.forget_agent_row(AgentId(id)),
            Some(("owner", id)) => self.forget_owner(UserId(id)),
            Some(("tenant", id)) => self.forget_accounts(|a| a.account.tenant.id != TenantId(id)),
            Some(("memories", id)) => self.forget_pages(Some(AgentId(id))),
            _ => self.clear(),
        }
    }

    /// Whether every listener is connected, waiting up to `within` for it: a server started
    /// under load would otherwise answer its first requests with the cache off (and cache
    /// nothing from them) until its listener has connected.
    pub async fn listening(&self, within: Duration) -> bool {
        let until = Instant::now() + within;
        loop {
            let started = self.listeners.load(Ordering::Acquire);
            if started > 0 && self.connected.load(Ordering::Acquire) >= started {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Listens for invalidations on the database `pool` connects to, for as long as the
    /// process runs; reconnects with a pause, starting from an empty cache each time.
    pub fn listen(&'static self, pool: PgPool) {
        self.listeners.fetch_add(1, Ordering::AcqRel);
        tokio::spawn(async move {
            loop {
                if let Ok(mut listener) = PgListener::connect_with(&pool).await
                    && listener.listen(CHANNEL).await.is_ok()
                {
                    self.clear();
                    self.connected.fetch_add(1, Ordering::AcqRel);
                    loop {
                        match listener.try_recv().await {
                            Ok(Some(n)) => self.apply(n.payload()),
                            // The connection dropped; `try_recv` reconnects next time, and what
                            // was sent meanwhile is lost: start over.
                            Ok(None) => self.clear(),
                            Err(_) => break,
                        }
                    }
                    self.connected.fetch_sub(1, Ordering::AcqRel);
                    self.clear();
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }
}

/// Forgets locally and tells every process, in the caller's transaction (delivered at commit).
pub async fn announce(conn: &mut PgConnection, payload: String) -> sqlx::Result<()> {
    cache().apply(&payload);
    sqlx::query!("SELECT pg_notify($1, $2)", CHANNEL, payload).execute(&mut *conn).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh() -> AuthCache {
        AuthCache {
            keys: RwLock::default(),
            sessions: RwLock::default(),
            agents: RwLock::default(),
            accounts: RwLock::default(),
            pages: RwLock::default(),
            page_bytes: AtomicUsize::new(0),
            generation: AtomicU64::new(0),
            page_generation: AtomicU64::new(0),
            listeners: AtomicUsize::new(1),
            connected: AtomicUsize::new(1),
            enabled: AtomicBool::new(true),
        }
    }

    fn grant(agent: Uuid) -> KeyGrant {
        KeyGrant {
            key_id: KeyId(Uuid::now_v7()),
            reach: super::super::keys::Reach::Agent(AgentId(agent)),
            tenant_id: TenantId(Uuid::now_v7()),
            scopes: vec!["*".into()],
            end_user: None,
            rate_per_minute: None,
        }
    }

    #[test]
    fn pages_are_held_within_their_byte_bound() {
        let c = fresh();
        let agents: Vec<AgentId> = (0..3).map(|_| AgentId(Uuid::now_v7())).collect();
        let big: Arc<str> = "x".repeat(PAGE_BYTES / 2 - 10).into();
        c.put_page(c.page_generation(), agents[0], "a".into(), big.clone());
        c.put_page(c.page_generation(), agents[0], "a".into(), big.clone());
        assert_eq!(c.page_bytes(), big.len(), "a page stored again replaces itself");
        c.put_page(c.page_generation(), agents[1], "a".into(), big.clone());
        assert_eq!(c.page_bytes(), 2 * big.len());
        // A third would pass the bound: the pages start over.
        c.put_page(c.page_generation(), agents[2], "a".into(), big.clone());
        assert_eq!(c.page_bytes(), big.len());
        assert!(c.page(agents[0], "a").is_none() && c.page(agents[2], "a").is_some());
        c.forget_pages(Some(agents[2]));
        assert_eq!(c.page_bytes(), 0);
        let huge: Arc<str> = "x".repeat(PAGE_BYTES + 1).into();
        c.put_page(c.page_generation(), agents[0], "b".into(), huge);
        assert!(c.page(agents[0], "b").is_none(), "a page over the bound is not kept");
    }

    #[test]
    fn a_lookup_that_raced_a_forget_stores_nothing() {
        let c = fresh();
        let g = grant(Uuid::now_v7());
        let before = c.generation();
        c.forget_key(g.key_id);
        c.put_key(before, g.clone(), vec![1], None);
        assert!(c.key(g.key_id).is_none());
        c.put_key(c.generation(), g.clone(), vec![1], None);
        assert!(c.key(g.key_id).is_some());
    }

    #[test]
    fn notifications_forget_keys_sessions_and_an_agents_keys() {
        let c = fresh();
        let agent = Uuid::now_v7();
        let (a, b) = (grant(agent), grant(Uuid::now_v7()));
        for g in [&a, &b] {
            c.put_key(c.generation(), g.clone(), vec![1], None);
        }
        let (sid, owner, tenant) = (Uuid::now_v7(), UserId(Uuid::now_v7()), TenantId(Uuid::now_v7()));
        let later = Utc::now() + chrono::Duration::hours(1);
        c.put_session(c.generation(), sid, owner, tenant, later, crate::tenancy::team::Role::Admin);
        assert_eq!(c.session(sid, owner, tenant, Utc::now()), Some(Some(crate::tenancy::team::Role::Admin)));
        assert_eq!(c.session(sid, UserId(Uuid::now_v7()), tenant, Utc::now()), Some(None), "another owner's token");
        assert_eq!(c.session(sid, owner, tenant, later), None, "expired: ask the database");
        c.apply(&format!("agent:{agent}"));
        assert!(c.key(a.key_id).is_none() && c.key(b.key_id).is_some());
        c.apply(&format!("session:{sid}"));
        assert_eq!(c.session(sid, owner, tenant, Utc::now()), None);
        c.apply("garbage");
        assert!(c.key(b.key_id).is_none());
    }

    #[test]
    fn notifications_forget_accounts_by_owner_and_by_tenant() {
        use crate::tenancy::accounts::{OwnerView, TenantView};
        let c = fresh();
        let (tenant, other) = (TenantId(Uuid::now_v7()), TenantId(Uuid::now_v7()));
        let account = |tenant: TenantId| {
            let owner =
                OwnerView { id: UserId(Uuid::now_v7()), email: None, evm_address: None, created_at: Utc::now() };
            let tenant = TenantView { id: tenant, name: "t".into(), created_at: Utc::now() };
            Account { owner, tenant, email_verified: false }
        };
        let (mine, theirs) = (account(tenant), account(other));
        for a in [&mine, &theirs] {
            c.put_account(c.generation(), a.clone());
        }
        assert!(c.account(mine.owner.id, other).is_none());
        c.apply(&format!("tenant:{}", tenant.0));
        assert!(c.account(mine.owner.id, tenant).is_none());
        assert!(c.account(theirs.owner.id, other).is_some(), "other tenants' owners stay");
        c.apply(&format!("owner:{}", theirs.owner.id.0));
        assert!(c.account(theirs.owner.id, other).is_none());
        // A change made here is forgotten at once, before its notice.
        c.put_account(c.generation(), mine.clone());
        assert!(c.account(mine.owner.id, tenant).is_some());
        c.forget_owner(mine.owner.id);
        assert!(c.account(mine.owner.id, tenant).is_none());
    }

    #[test]
    fn memory_pages_are_forgotten_by_agent_and_a_raced_lookup_stores_nothing() {
        let c = fresh();
        let (a, b) = (AgentId(Uuid::now_v7()), AgentId(Uuid::now_v7()));
        for agent in [a, b] {
            c.put_page(c.page_generation(), agent, "all".into(), "[]".into());
        }
        assert_eq!(c.page(a, "all").as_deref(), Some("[]"));
        assert!(c.page(a, "category=fact").is_none(), "another filter is another page");
        c.apply(&format!("memories:{}", a.0));
        assert!(c.page(a, "all").is_none());
        assert!(c.page(b, "all").is_some(), "another agent's pages stay");
        let before = c.page_generation();
        c.forget_pages(Some(b));
        c.put_page(before, a, "all".into(), "[1]".into());
        assert!(c.page(a, "all").is_none(), "read before a forget: not stored");
        let key_lookup = c.generation();
        c.forget_pages(None);
        assert_eq!(c.generation(), key_lookup, "pages do not hold back credential lookups");
        for i in 0..=PAGES_PER_AGENT {
            c.put_page(c.page_generation(), a, format!("before={i}"), "[]".into());
        }
        assert_eq!(c.pages.read().unwrap()[&a].len(), 1, "a full agent starts over");
    }

    #[test]
    fn a_disconnected_listener_turns_the_cache_off() {
        let c = fresh();
        let g = grant(Uuid::now_v7());
        c.put_key(c.generation(), g.clone(), vec![1], None);
        c.connected.store(0, Ordering::Release);
        assert!(c.key(g.key_id).is_none());
        c.put_key(c.generation(), grant(Uuid::now_v7()), vec![1], None);
        c.connected.store(1, Ordering::Release);
        assert_eq!(c.keys.read().unwrap().len(), 1, "nothing was stored while off");
        c.set_enabled(false);
        assert!(c.key(g.key_id).is_none());
    }
}
