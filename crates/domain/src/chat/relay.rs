//! Reply notices across processes (SPEC §14, B3): one LISTEN connection per server, fanned out
//! to every client of this process that waits for a reply.
//!
//! A reply announces itself on `CHANNEL` when it starts, ends or fails (a trigger on
//! `chat_messages`, delivered at commit) and, while it streams, with progress notices its
//! process sends at most every `PROGRESS_EVERY`. The relay hands them to:
//! - the agent event streams of this process (`subscribe`): one broadcast channel per agent with
//!   clients, so an idle stream costs a receiver and no query;
//! - the mirrors of replies streaming in another process (`Hub::watch`): one task per reply that
//!   reads the row when told it moved and re-announces the new text to all of its followers, so
//!   N followers cost one read per notice, not N polls.
//!
//! Notices sent while the connection is down are lost: the relay wakes every mirror when it
//! reconnects, and mirrors read their row every `FALLBACK` anyway (`POLL_EVERY` while
//! disconnected), so a lost notice delays a follower but never strands it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio::sync::{Notify, broadcast};
use tokio_util::sync::CancellationToken;
use utoipa::ToSchema;

use super::Audience;
use miniclaw_core::ids::{AgentId, ConversationId, MessageId};

pub const CHANNEL: &str = "miniclaw_replies";
/// The least time between two progress notices of one streaming reply.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);
/// How often a mirror reads its reply when no notice comes (the listener is connected).
pub const FALLBACK: Duration = Duration::from_secs(5);

/// A notice as the trigger (or the generating process) sends it.
#[derive(Debug, Clone, Deserialize)]
struct Notice {
    agent_id: AgentId,
    message_id: MessageId,
    conversation_id: Option<ConversationId>,
    reply_to: Option<MessageId>,
    status: String,
    #[serde(default)]
    end_user: Option<String>,
    #[serde(default)]
    owner_private: bool,
    /// A progress notice of a streaming reply: for its mirrors only.
    #[serde(default)]
    progress: bool,
}

/// What an agent event stream says of a reply: it started (`streaming`), or ended (`complete`,
/// `error`, or `superseded` by a regeneration). Fetch the message, or follow it with the reply
/// stream, to read its text.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ReplyEvent {
    pub conversation_id: ConversationId,
    pub message_id: MessageId,
    /// The user message the reply answers.
    pub reply_to: Option<MessageId>,
    pub status: String,
    #[serde(skip)]
    end_user: Option<String>,
    #[serde(skip)]
    owner_private: bool,
}

impl ReplyEvent {
    /// Whether a client acting as `audience` may see the conversation (as `chat::conversations`).
    pub fn visible_to(&self, audience: &Audience) -> bool {
        audience.sees_all() || (!self.owner_private && self.end_user == audience.end_user)
    }
}

/// The payload of a progress notice for `reply_id` of `agent_id`.
pub fn progress_payload(agent_id: AgentId, reply_id: MessageId) -> String {
    serde_json::json!({ "agent_id": agent_id, "message_id": reply_id, "status": "streaming", "progress": true })
        .to_string()
}

/// Too many event streams are open for this agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many event streams are open for this agent; try again shortly")]
pub struct TooManyStreams;

#[derive(Default)]
pub struct Relay {
    agents: Mutex<HashMap<AgentId, broadcast::Sender<Arc<ReplyEvent>>>>,
    replies: Mutex<HashMap<MessageId, Arc<Notify>>>,
    connected: AtomicBool,
    stop: CancellationToken,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

/// An agent event stream's place: its receiver, given back (and the agent's channel dropped
/// with the last one) when the client goes away.
pub struct Subscription {
    relay: Arc<Relay>,
    agent_id: AgentId,
    pub events: broadcast::Receiver<Arc<ReplyEvent>>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut agents = self.relay.agents.lock().expect("relay lock");
        // This receiver is still alive: it is the last one when the count is 1.
        if agents.get(&self.agent_id).is_some_and(|tx| tx.receiver_count() <= 1) {
            agents.remove(&self.agent_id);
        }
    }
}

impl Relay {
    /// Whether notices arrive (otherwise mirrors poll).
    pub fn is_connected(&self) -> bool {
        self.connected.load(Ordering::Acquire)
    }

    /// Opens an event stream for `agent_id`, unless it already has `limit` of them here.
    pub fn subscribe(self: &Arc<Self>, agent_id: AgentId, limit: usize) -> Result<Subscription, TooManyStreams> {
        let mut agents = self.agents.lock().expect("relay lock");
        let tx = agents.entry(agent_id).or_insert_with(|| broadcast::channel(64).0);
        if tx.receiver_count() >= limit {
            return Err(TooManyStreams);
        }
        let events = tx.subscribe();
        Ok(Subscription { relay: self.clone(), agent_id, events })
    }

    /// How many event streams are open for `agent_id` in this process.
    pub fn streams(&self, agent_id: AgentId) -> usize {
        self.agents.lock().expect("relay lock").get(&agent_id).map_or(0, |tx| tx.receiver_count())
    }

    /// The wake-up of a mirror of `reply_id`, registered until `unwatch`.
    pub(super) fn watch(&self, reply_id: MessageId) -> Arc<Notify> {
        self.replies.lock().expect("relay lock").entry(reply_id).or_default().clone()
    }

    pub(super) fn unwatch(&self, reply_id: MessageId, wake: &Arc<Notify>) {
        let mut replies = self.replies.lock().expect("relay lock");
        if replies.get(&reply_id).is_some_and(|w| Arc::ptr_eq(w, wake)) {
            replies.remove(&reply_id);
        }
    }

    fn wake_all(&self) {
        self.replies.lock().expect("relay lock").values().for_each(|w| w.notify_one());
    }

    fn dispatch(&self, payload: &str) {
        let notice: Notice = match serde_json::from_str(payload) {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!(error = %e, "an unreadable reply notice");
                return;
            }
        };
        if let Some(wake) = self.replies.lock().expect("relay lock").get(&notice.message_id) {
            wake.notify_one();
        }
        let Some(conversation_id) = notice.conversation_id.filter(|_| !notice.progress) else { return };
        if let Some(tx) = self.agents.lock().expect("relay lock").get(&notice.agent_id) {
            let _ = tx.send(Arc::new(ReplyEvent {
                conversation_id,
                message_id: notice.message_id,
                reply_to: notice.reply_to,
                status: notice.status,
                end_user: notice.end_user,
                owner_private: notice.owner_private,
            }));
        }
    }

    /// Listens on the database `pool` connects to until the relay is dropped; reconnects after
    /// a pause, waking every mirror (what was sent meanwhile is lost).
    pub fn listen(self: &Arc<Self>, pool: PgPool) {
        let (relay, stop) = (Arc::downgrade(self), self.stop.clone());
        tokio::spawn(async move {
            tokio::select! {
                _ = listen(relay, pool) => {}
                () = stop.cancelled() => {}
            }
        });
    }
}

/// The listening loop; ends (`None`) when the relay is gone.
async fn listen(relay: Weak<Relay>, pool: PgPool) -> Option<()> {
    loop {
        if let Ok(mut listener) = PgListener::connect_with(&pool).await
            && listener.listen(CHANNEL).await.is_ok()
        {
            relay.upgrade()?.connected.store(true, Ordering::Release);
            relay.upgrade()?.wake_all();
            loop {
                match listener.try_recv().await {
                    Ok(Some(n)) => relay.upgrade()?.dispatch(n.payload()),
                    Ok(None) => relay.upgrade()?.wake_all(),
                    Err(_) => break,
                }
            }
            let r = relay.upgrade()?;
            r.connected.store(false, Ordering::Release);
            r.wake_all();
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(agent: AgentId, reply: MessageId, status: &str, end_user: Option<&str>, progress: bool) -> String {
        serde_json::json!({
            "agent_id": agent, "conversation_id": if progress { None } else { Some(ConversationId::new()) },
            "message_id": reply, "reply_to": null, "status": status, "end_user": end_user,
            "owner_private": false, "progress": progress,
        })
        .to_string()
    }

    #[tokio::test]
    async fn notices_reach_the_agents_streams_and_wake_the_replys_mirror() {
        let relay = Arc::new(Relay::default());
        let (agent, reply) = (AgentId::new(), MessageId::new());
        let mut sub = relay.subscribe(agent, 2).unwrap();
        let _second = relay.subscribe(agent, 2).unwrap();
        assert!(relay.subscribe(agent, 2).is_err(), "the cap is per agent");
        assert!(relay.subscribe(AgentId::new(), 2).is_ok(), "other agents are not affected");
        let wake = relay.watch(reply);

        relay.dispatch(&notice(agent, reply, "streaming", Some("ada"), true));
        assert!(sub.events.try_recv().is_err(), "progress is for mirrors only");
        tokio::time::timeout(Duration::from_secs(1), wake.notified()).await.expect("the mirror is woken");

        relay.dispatch(&notice(agent, reply, "complete", Some("ada"), false));
        let event = sub.events.try_recv().unwrap();
        assert_eq!((event.message_id, event.status.as_str()), (reply, "complete"));
        let ada = Audience { owner: false, end_user: Some("ada".into()) };
        let bob = Audience { owner: false, end_user: Some("bob".into()) };
        let owner = Audience { owner: true, end_user: None };
        assert!(event.visible_to(&ada) && event.visible_to(&owner) && !event.visible_to(&bob));

        relay.dispatch("not json");
        relay.dispatch(&notice(AgentId::new(), MessageId::new(), "complete", None, false));
        assert!(sub.events.try_recv().is_err(), "nothing else reached this agent's stream");

        relay.unwatch(reply, &wake);
        assert!(relay.replies.lock().unwrap().is_empty());
        drop((sub, _second));
        assert_eq!(relay.streams(agent), 0);
        assert!(!relay.agents.lock().unwrap().contains_key(&agent), "the agent's channel goes with its last stream");
    }
}
