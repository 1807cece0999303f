//! The outreach state machine (SPEC O1, seed 001 §10.2):
//!
//! ```text
//! proposed ──approve──▶ approved ──delivered──▶ sent ──reply──▶ replied ──escalate──▶ escalated
//!    │ edit (stays)                               ▲                │                    │
//!    └──reject──▶ rejected                        └──delivered─────┴── (auto-)reply ─────┘
//! any of approved, sent, replied, escalated ──close──▶ closed
//! ```
//!
//! A reply queued by the agent (auto-reply) or the owner is delivered through the outbox; its
//! delivery takes the thread back to `sent`, waiting for the next reply. `rejected` and
//! `closed` are final. Pure: the database code asks `next` and stores its answer.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Proposed,
    Approved,
    Sent,
    Replied,
    Escalated,
    Closed,
    Rejected,
}

impl Status {
    pub const ALL: [Status; 7] = [
        Status::Proposed,
        Status::Approved,
        Status::Sent,
        Status::Replied,
        Status::Escalated,
        Status::Closed,
        Status::Rejected,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Proposed => "proposed",
            Status::Approved => "approved",
            Status::Sent => "sent",
            Status::Replied => "replied",
            Status::Escalated => "escalated",
            Status::Closed => "closed",
            Status::Rejected => "rejected",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|st| st.as_str() == s)
    }
}

/// What happens to a thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The owner changes the draft.
    Edit,
    Approve,
    Reject,
    /// The outbox delivered an email of the thread.
    Delivered,
    /// An inbound reply arrived.
    Reply,
    /// The agent was not confident enough: the owner decides.
    Escalate,
    /// A reply is queued (by the agent, automatically, or by the owner).
    Respond,
    Close,
}

impl Event {
    pub fn as_str(self) -> &'static str {
        match self {
            Event::Edit => "be edited",
            Event::Approve => "be approved",
            Event::Reject => "be rejected",
            Event::Delivered => "be delivered",
            Event::Reply => "receive a reply",
            Event::Escalate => "be escalated",
            Event::Respond => "be replied to",
            Event::Close => "be closed",
        }
    }
}

/// An event the current state does not allow (409 naming the state).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the outreach is {}: it cannot {} now", .from.as_str(), .event.as_str())]
pub struct Illegal {
    pub from: Status,
    pub event: Event,
}

/// The state after `event`, or why it is not allowed.
pub fn next(from: Status, event: Event) -> Result<Status, Illegal> {
    use Event as E;
    use Status as S;
    let to = match (from, event) {
        (S::Proposed, E::Edit) => S::Proposed,
        (S::Proposed, E::Approve) => S::Approved,
        (S::Proposed, E::Reject) => S::Rejected,
        // The first email, or a reply, has gone out.
        (S::Approved | S::Replied | S::Escalated | S::Sent, E::Delivered) => S::Sent,
        // A reply may come while the agent's previous answer is still queued.
        (S::Sent | S::Replied | S::Escalated, E::Reply) => S::Replied,
        (S::Replied, E::Escalate) => S::Escalated,
        // A reply stays `replied`/`escalated` until its delivery moves the thread to `sent`.
        (S::Replied | S::Escalated, E::Respond) => from,
        (S::Approved | S::Sent | S::Replied | S::Escalated, E::Close) => S::Closed,
        _ => return Err(Illegal { from, event }),
    };
    Ok(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Event as E;
    use Status as S;

    #[test]
    fn the_happy_path_runs_from_proposal_to_close() {
        let mut s = S::Proposed;
        for (event, expected) in [
            (E::Edit, S::Proposed),
            (E::Approve, S::Approved),
            (E::Delivered, S::Sent),
            (E::Reply, S::Replied),
            (E::Respond, S::Replied),
            (E::Delivered, S::Sent),
            (E::Reply, S::Replied),
            (E::Escalate, S::Escalated),
            (E::Respond, S::Escalated),
            (E::Delivered, S::Sent),
            (E::Close, S::Closed),
        ] {
            s = next(s, event).unwrap();
            assert_eq!(s, expected, "{event:?}");
        }
    }

    #[test]
    fn final_states_allow_nothing() {
        for event in [E::Edit, E::Approve, E::Reject, E::Delivered, E::Reply, E::Escalate, E::Respond, E::Close] {
            for from in [S::Closed, S::Rejected] {
                let err = next(from, event).unwrap_err();
                assert!(err.to_string().contains(from.as_str()), "{err}");
            }
        }
    }

    #[test]
    fn only_a_proposal_can_be_edited_approved_or_rejected() {
        for from in [S::Approved, S::Sent, S::Replied, S::Escalated] {
            for event in [E::Edit, E::Approve, E::Reject] {
                assert_eq!(next(from, event), Err(Illegal { from, event }));
            }
        }
        assert_eq!(
            next(S::Proposed, E::Reply).unwrap_err().to_string(),
            "the outreach is proposed: it cannot receive a reply now"
        );
        assert!(next(S::Proposed, E::Close).is_err());
        assert!(next(S::Sent, E::Escalate).is_err());
        assert!(next(S::Sent, E::Respond).is_err());
    }

    #[test]
    fn statuses_read_back_from_their_names() {
        for s in S::ALL {
            assert_eq!(S::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(S::parse("lost"), None);
    }
}
