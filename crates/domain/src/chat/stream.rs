//! Replies are persisted as they stream (P1): each piece of text is appended to the message
//! row before it is announced, so a client that reconnects with `Last-Event-ID` (the byte
//! offset it has) gets the rest from the database and then follows the live announcements.
//! Generation runs in its own task: a client going away does not stop it. The followers of a
//! reply, and of an agent's replies, are counted so that resumes can be capped.

use miniclaw_core::ids::{AgentId, MessageId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use sqlx::PgPool;

use miniclaw_core::Error;
use tokio::sync::{broadcast, mpsc};

/// What a generation announces.
#[derive(Debug, Clone)]
pub enum Event {
    /// Text that was appended to the reply; it ends at byte `end`.
    Delta { end: usize, text: String },
    /// The reply is complete; the final metadata.
    Done(Value),
    /// Generation failed; the reply keeps what was produced and the error status.
    Failed { code: String, message: String },
}

/// Replies whose process died while writing them (no progress for `STALE_STREAM_SECS`) end as
/// failed, with the question they answer: both can be regenerated, and no follower waits on
/// them forever. Returns how many replies were swept.
pub async fn sweep_interrupted(pool: &PgPool) -> sqlx::Result<u64> {
    sweep_interrupted_after(pool, super::STALE_STREAM_SECS as u32).await
}

/// `sweep_interrupted` with another threshold (`MINICLAW_STREAM_STALE_SECS`).
pub async fn sweep_interrupted_after(pool: &PgPool, stale_secs: u32) -> sqlx::Result<u64> {
    let swept = sqlx::query_scalar!(
        r#"WITH stale AS (
            UPDATE chat_messages SET status = 'error', updated_at = now(),
                   error = 'the reply was interrupted (the server stopped while writing it); regenerate it'
             WHERE status = 'streaming' AND updated_at < now() - make_interval(secs => $1)
            RETURNING agent_id, reply_to
         ), questions AS (
            UPDATE chat_messages m SET status = 'error', updated_at = now(),
                   error = 'the reply to this message was interrupted; regenerate it'
              FROM stale WHERE m.agent_id = stale.agent_id AND m.id = stale.reply_to AND m.status = 'pending'
            RETURNING 1
         )
         SELECT count(*) AS "n!" FROM stale"#,
        stale_secs as f64
    )
    .fetch_one(pool)
    .await?;
    Ok(swept as u64)
}

/// The `chat_stream_sweep` cycle: every `stale_secs` (at most every 5 minutes), replies left
/// streaming that long by a process that died end as failed.
pub fn sweep_cycle(stale_secs: u32) -> miniclaw_platform::jobs::Cycle {
    use miniclaw_platform::jobs::registry::{Cycle, CycleScope, JobContext};
    Cycle::new(
        "chat_stream_sweep",
        CycleScope::Platform,
        "Ends replies left streaming by a process that died (no progress for 5 minutes, MINICLAW_STREAM_STALE_SECS) as failed, regenerable, and gives back the tokens their turns held.",
        move |ctx: JobContext| async move {
            let swept = sweep_interrupted_after(&ctx.pool, stale_secs).await?;
            let released = miniclaw_platform::llm::reservations::release_orphans(&ctx.pool, &crate::runtime::SQL).await?;
            Ok(serde_json::json!({ "swept": swept, "released": released }))
        },
    )
    .every(Duration::from_secs(u64::from(stale_secs.clamp(1, 300))))
}

/// Live generations of this process and mirrors of replies streaming elsewhere, by reply id;
/// the clients following replies; the relay of reply notices from every process.
#[derive(Default)]
pub struct Hub {
    live: Arc<Mutex<HashMap<MessageId, broadcast::Sender<Event>>>>,
    /// What stops each generation of this process early (a cancelled A2A task).
    stops: Arc<Mutex<HashMap<MessageId, tokio_util::sync::CancellationToken>>>,
    followers: Arc<Mutex<Followers>>,
    relay: Arc<super::relay::Relay>,
    /// Cancelled when the server shuts down: open event streams end, so that a graceful
    /// shutdown does not wait on them.
    closing: tokio_util::sync::CancellationToken,
}

/// How many clients follow each reply, and each agent's replies, in this process.
#[derive(Default)]
struct Followers {
    per_reply: HashMap<MessageId, usize>,
    per_agent: HashMap<AgentId, usize>,
}

/// Too many clients already follow this reply (or this agent's replies).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many clients are following {0}; try again shortly")]
pub struct Crowded(pub &'static str);

/// A client's place among a reply's followers, given back when dropped.
pub struct Follower {
    followers: Arc<Mutex<Followers>>,
    agent_id: AgentId,
    reply_id: MessageId,
}

impl Drop for Follower {
    fn drop(&mut self) {
        let mut f = self.followers.lock().expect("followers lock");
        release(&mut f.per_reply, self.reply_id);
        release(&mut f.per_agent, self.agent_id);
    }
}

fn release<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: K) {
    if let Some(n) = map.get_mut(&key) {
        *n -= 1;
        if *n == 0 {
            map.remove(&key);
        }
    }
}

impl Hub {
    /// Registers a generation before it starts, so that no follower misses its first event.
    pub fn open(&self, reply_id: MessageId) -> broadcast::Sender<Event> {
        let (tx, _) = broadcast::channel(256);
        self.live.lock().expect("hub lock").insert(reply_id, tx.clone());
        tx
    }

    pub fn close(&self, reply_id: MessageId) {
        self.live.lock().expect("hub lock").remove(&reply_id);
        self.stops.lock().expect("hub lock").remove(&reply_id);
    }

    /// What stops the generation of `reply_id` early, registered with it.
    pub fn stoppable(&self, reply_id: MessageId) -> tokio_util::sync::CancellationToken {
        let token = tokio_util::sync::CancellationToken::new();
        self.stops.lock().expect("hub lock").insert(reply_id, token.clone());
        token
    }

    /// Stops the generation of `reply_id` if this process runs it; false otherwise (it ended,
    /// or another process writes it).
    pub fn stop(&self, reply_id: MessageId) -> bool {
        match self.stops.lock().expect("hub lock").get(&reply_id) {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }

    /// The relay of reply notices (agent event streams subscribe to it).
    pub fn relay(&self) -> &Arc<super::relay::Relay> {
        &self.relay
    }

    /// Starts listening for reply notices on the database `pool` connects to.
    pub fn listen(&self, pool: PgPool) {
        self.relay.listen(pool);
    }

    /// Ends the open event streams (the server is shutting down).
    pub fn shut_down(&self) {
        self.closing.cancel();
    }

    /// Cancelled once the server shuts down.
    pub fn closing(&self) -> tokio_util::sync::CancellationToken {
        self.closing.clone()
    }

    /// The announcements of `reply_id`: its generation's, when this process runs it, or else
    /// those of its mirror here (started if it has none), which reads the row when the reply's
    /// process says it moved. Subscribe before reading the row: every announcement after the
    /// subscription continues the text from where the row was when it was announced.
    pub fn watch(&self, pool: &PgPool, agent_id: AgentId, reply_id: MessageId) -> broadcast::Receiver<Event> {
        let mut live = self.live.lock().expect("hub lock");
        if let Some(tx) = live.get(&reply_id) {
            return tx.subscribe();
        }
        let (tx, rx) = broadcast::channel(256);
        live.insert(reply_id, tx.clone());
        let mirror = super::mirror::Mirror {
            live: self.live.clone(),
            relay: self.relay.clone(),
            pool: pool.clone(),
            agent_id,
            reply_id,
        };
        tokio::spawn(mirror.run(tx));
        rx
    }

    /// A place among the followers of `reply_id` for a client resuming it, unless the reply, or
    /// its agent, has as many as `limits` allows.
    pub fn follow(
        &self,
        agent_id: AgentId,
        reply_id: MessageId,
        limits: &miniclaw_platform::config::StreamLimits,
    ) -> Result<Follower, Crowded> {
        let mut f = self.followers.lock().expect("followers lock");
        if f.per_reply.get(&reply_id).is_some_and(|n| *n >= limits.followers_per_reply) {
            return Err(Crowded("this reply"));
        }
        if f.per_agent.get(&agent_id).is_some_and(|n| *n >= limits.followers_per_agent) {
            return Err(Crowded("this agent's replies"));
        }
        Ok(self.enter(&mut f, agent_id, reply_id))
    }

    /// The place of the client that started the reply: never refused, but counted, so that
    /// resumes see it.
    pub fn follow_first(&self, agent_id: AgentId, reply_id: MessageId) -> Follower {
        let mut f = self.followers.lock().expect("followers lock");
        self.enter(&mut f, agent_id, reply_id)
    }

    fn enter(&self, f: &mut Followers, agent_id: AgentId, reply_id: MessageId) -> Follower {
        *f.per_reply.entry(reply_id).or_default() += 1;
        *f.per_agent.entry(agent_id).or_default() += 1;
        Follower { followers: self.followers.clone(), agent_id, reply_id }
    }
}

/// The SSE id of a reply's stream after `offset` bytes: `<reply id>:<offset>`.
pub fn event_id(reply_id: MessageId, offset: usize) -> String {
    format!("{reply_id}:{offset}")
}

/// Reads a `Last-Event-ID` as `event_id` writes it (surrounding whitespace ignored).
pub fn parse_event_id(raw: &str) -> Option<(MessageId, usize)> {
    let (id, offset) = raw.trim().split_once(':')?;
    // Digits only: `usize` parsing would also take a sign.
    if offset.is_empty() || !offset.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((id.parse().ok()?, offset.parse().ok()?))
}

/// A reply's row as a follower reads it.
pub(super) struct Row {
    content: String,
    status: String,
    error: Option<String>,
    meta: Value,
}

impl Row {
    /// What the row holds beyond byte `offset`, as the `Delta` that sends it; `None` when
    /// nothing is new (or `offset` is not a boundary this reply's stream sent).
    pub(super) fn delta_after(&self, offset: usize) -> Option<Event> {
        (self.content.len() > offset && self.content.is_char_boundary(offset))
            .then(|| Event::Delta { end: self.content.len(), text: self.content[offset..].to_string() })
    }
}

pub(super) async fn read(pool: &PgPool, agent_id: AgentId, reply_id: MessageId) -> sqlx::Result<Option<Row>> {
    sqlx::query_as!(
        Row,
        "SELECT content, status, error, meta FROM chat_messages WHERE agent_id = $1 AND id = $2 AND role = 'assistant'",
        agent_id as _,
        reply_id as _
    )
    .fetch_optional(pool)
    .await
}

/// Follows a reply for one client (`follow`) in a task of its own, from byte `offset`, holding
/// the client's place until the reply ends or the client goes away (drops the receiver): a
/// client gone from a stalled reply does not keep a follower polling for it.
pub fn spawn_follow(state: crate::runtime::Runtime, place: Follower, offset: usize) -> mpsc::Receiver<Event> {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(async move {
        let gone = tx.clone();
        let pool = state.pool().clone();
        tokio::select! {
            () = follow(pool, state.chat_streams(), place.agent_id, place.reply_id, offset, tx) => {}
            () = gone.closed() => {}
        }
        drop(place);
    });
    rx
}

pub(super) fn not_found() -> Event {
    Event::Failed { code: "not_found".into(), message: "reply not found".into() }
}

pub(super) fn read_failed(reply_id: MessageId, e: sqlx::Error) -> Event {
    tracing::warn!(reply_id = %reply_id, error = %e, "reading a reply for its stream failed");
    let error = Error::from(e);
    Event::Failed { code: error.code().into(), message: error.public_message() }
}

/// The final event of a reply whose row says it has ended.
pub(super) fn ending(row: Row) -> Option<Event> {
    match row.status.as_str() {
        "complete" => Some(Event::Done(row.meta)),
        "error" | "superseded" => Some(Event::Failed {
            code: "generation_failed".into(),
            message: row.error.unwrap_or_else(|| "the reply was replaced by a regenerated one".into()),
        }),
        _ => None,
    }
}

/// Follows a reply from byte `offset`: everything already persisted, then the announcements
/// (of its generation here, or of its mirror), until it is done or failed. Sends `Delta`s with
/// their end offsets, then one final event. Stops early when `out` is closed (the client went
/// away).
pub async fn follow(
    pool: PgPool,
    hub: &Hub,
    agent_id: AgentId,
    reply_id: MessageId,
    mut offset: usize,
    out: mpsc::Sender<Event>,
) {
    loop {
        // Subscribe first, then read: whatever is announced after the read is in the receiver,
        // and whatever was announced before it is in the row (text is stored before it is
        // announced).
        let mut live = hub.watch(&pool, agent_id, reply_id);
        let row = match read(&pool, agent_id, reply_id).await {
            Ok(Some(r)) => r,
            Ok(None) => {
                let _ = out.send(not_found()).await;
                return;
            }
            Err(e) => {
                let _ = out.send(read_failed(reply_id, e)).await;
                return;
            }
        };
        if let Some(delta @ Event::Delta { end, .. }) = row.delta_after(offset) {
            offset = end;
            if out.send(delta).await.is_err() {
                return;
            }
        }
        if let Some(end) = ending(row) {
            let _ = out.send(end).await;
            return;
        }
        loop {
            match live.recv().await {
                Ok(Event::Delta { end, text }) => {
                    if end <= offset {
                        continue;
                    }
                    let start = end - text.len();
                    if start > offset {
                        // A gap (it cannot happen with a subscription taken before the read,
                        // but the row is the truth): read it again.
                        break;
                    }
                    let piece = text[offset - start..].to_string();
                    offset = end;
                    if out.send(Event::Delta { end, text: piece }).await.is_err() {
                        return;
                    }
                }
                Ok(done @ (Event::Done(_) | Event::Failed { .. })) => {
                    let _ = out.send(done).await;
                    return;
                }
                // Fell behind, or the generation (or mirror) ended: the row has the truth.
                Err(_) => break,
            }
        }
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn an_event_id_reads_back_as_the_reply_and_offset_it_names(
            id in any::<u128>(), offset in any::<usize>(), pad in "[ \t]{0,3}"
        ) {
            let reply = MessageId(uuid::Uuid::from_u128(id));
            prop_assert_eq!(parse_event_id(&format!("{pad}{}{pad}", event_id(reply, offset))), Some((reply, offset)));
        }

        #[test]
        fn any_header_value_is_read_or_refused_without_panicking(raw in any::<String>()) {
            if let Some((reply, offset)) = parse_event_id(&raw) {
                prop_assert_eq!(parse_event_id(&event_id(reply, offset)), Some((reply, offset)));
            }
        }

        #[test]
        // (Whitespace around the whole value is trimmed, as a header's is: spaces go inside.)
        fn offsets_are_plain_digits(id in any::<u128>(), offset in "([+-][0-9]{1,3})?|[0-9]+[a-z.]+[0-9]*|[0-9]+ +[0-9]+|[1-9][0-9]{20,24}") {
            let raw = format!("{}:{offset}", uuid::Uuid::from_u128(id));
            prop_assert!(parse_event_id(&raw).is_none(), "{}", raw);
        }
    }

    #[test]
    fn followers_are_counted_per_reply_and_per_agent_and_given_back() {
        let hub = Hub::default();
        let limits = miniclaw_platform::config::StreamLimits {
            followers_per_reply: 2,
            followers_per_agent: 3,
            ..Default::default()
        };
        let (agent, r1, r2) = (AgentId::new(), MessageId::new(), MessageId::new());
        let first = hub.follow_first(agent, r1);
        let second = hub.follow(agent, r1, &limits).unwrap();
        assert_eq!(hub.follow(agent, r1, &limits).err(), Some(Crowded("this reply")));
        let other = hub.follow(agent, r2, &limits).unwrap();
        assert_eq!(hub.follow(agent, r2, &limits).err(), Some(Crowded("this agent's replies")));
        assert!(hub.follow(AgentId::new(), MessageId::new(), &limits).is_ok(), "other agents are not affected");
        drop(second);
        assert!(hub.follow(agent, r2, &limits).is_ok());
        drop((first, other));
        let f = hub.followers.lock().unwrap();
        assert!(f.per_reply.is_empty() && f.per_agent.is_empty(), "counts fall back to nothing");
    }
}
