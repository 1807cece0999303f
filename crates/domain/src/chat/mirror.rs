//! Mirrors of replies that stream in another server process: one per reply per process, fed by
//! the relay's notices, re-announcing the text to this process's followers (`Hub::watch`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::broadcast;

use super::relay::{self, Relay};
use super::stream::{Event, ending, not_found, read, read_failed};
use miniclaw_core::ids::{AgentId, MessageId};

/// How often a mirror reads its reply while the relay is disconnected, and how long it waits
/// for progress before giving up on a reply whose process died.
const POLL_EVERY: Duration = Duration::from_millis(250);
const POLL_FOR: Duration = Duration::from_secs(180);

/// Re-announces, in this process, a reply that streams in another: reads the row whenever the
/// relay says it moved (or every `FALLBACK` / `POLL_EVERY`), and announces the new text from
/// byte 0 on, so every follower gets a contiguous continuation of what it read. Ends with the
/// reply, when it stops progressing for `POLL_FOR`, or when no follower is left.
pub(super) struct Mirror {
    pub(super) live: Arc<Mutex<HashMap<MessageId, broadcast::Sender<Event>>>>,
    pub(super) relay: Arc<Relay>,
    pub(super) pool: PgPool,
    pub(super) agent_id: AgentId,
    pub(super) reply_id: MessageId,
}

impl Mirror {
    pub(super) async fn run(self, tx: broadcast::Sender<Event>) {
        let wake = self.relay.watch(self.reply_id);
        let (mut offset, mut deadline) = (0, tokio::time::Instant::now() + POLL_FOR);
        let last = loop {
            match read(&self.pool, self.agent_id, self.reply_id).await {
                Ok(Some(row)) => {
                    if let Some(delta @ Event::Delta { end, .. }) = row.delta_after(offset) {
                        deadline = tokio::time::Instant::now() + POLL_FOR;
                        offset = end;
                        let _ = tx.send(delta);
                    }
                    if let Some(end) = ending(row) {
                        break Some(end);
                    }
                }
                Ok(None) => break Some(not_found()),
                Err(e) => break Some(read_failed(self.reply_id, e)),
            }
            if tx.receiver_count() == 0 {
                break None;
            }
            if tokio::time::Instant::now() >= deadline {
                break Some(Event::Failed {
                    code: "stream_timeout".into(),
                    message: "the reply stopped progressing".into(),
                });
            }
            let wait = if self.relay.is_connected() { relay::FALLBACK } else { POLL_EVERY };
            let _ = tokio::time::timeout(wait, wake.notified()).await;
        };
        if let Some(last) = last {
            let _ = tx.send(last);
        }
        self.relay.unwatch(self.reply_id, &wake);
        let mut live = self.live.lock().expect("hub lock");
        if live.get(&self.reply_id).is_some_and(|t| t.same_channel(&tx)) {
            live.remove(&self.reply_id);
        }
    }
}
