//! The order state machine (pure): which step each party may take from each status.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where an order stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Offered,
    Accepted,
    Delivered,
    Settled,
    Disputed,
    Refunded,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Offered => "offered",
            Status::Accepted => "accepted",
            Status::Delivered => "delivered",
            Status::Settled => "settled",
            Status::Disputed => "disputed",
            Status::Refunded => "refunded",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        [Status::Offered, Status::Accepted, Status::Delivered, Status::Settled, Status::Disputed, Status::Refunded]
            .into_iter()
            .find(|x| x.as_str() == s)
    }
}

/// A step one of the parties (or the operator) takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Seller: takes the order on.
    Accept,
    /// Seller: turns it down (refunded).
    Decline,
    /// Buyer: withdraws an offer not yet accepted, or an accepted order past its deadline.
    Cancel,
    /// Seller: hands over the result (`delivery`).
    Deliver,
    /// Buyer: accepts the delivery; the held price goes to the seller.
    Settle,
    /// Buyer: contests the delivery (`reason`); the operator resolves it.
    Dispute,
    /// Seller: gives the price back.
    Refund,
}

/// Who takes a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Buyer,
    Seller,
    Operator,
}

/// The status after `action` by `role` from `from` (`overdue`: the delivery deadline passed),
/// or why not.
pub fn next(from: Status, role: Role, action: Action, overdue: bool) -> Result<Status, String> {
    use Action::*;
    use Status::*;
    let to = match (from, role, action) {
        (Offered, Role::Seller, Accept) => Accepted,
        (Offered, Role::Seller, Decline) | (Offered, Role::Buyer, Cancel) => Refunded,
        (Accepted, Role::Seller, Deliver) => Delivered,
        (Accepted, Role::Buyer, Cancel) if overdue => Refunded,
        (Accepted | Delivered | Disputed, Role::Seller, Refund) => Refunded,
        (Delivered, Role::Buyer, Settle) => Settled,
        (Delivered, Role::Buyer, Dispute) => Disputed,
        (Disputed, Role::Operator, Settle) => Settled,
        (Disputed, Role::Operator, Refund) => Refunded,
        _ => {
            let allowed = allowed(from, role, overdue);
            let who = match role {
                Role::Buyer => "the buyer",
                Role::Seller => "the seller",
                Role::Operator => "the operator",
            };
            return Err(if allowed.is_empty() {
                format!("the order is {}: {who} can take no step now", from.as_str())
            } else {
                let names: Vec<_> = allowed.iter().map(|a| format!("{a:?}").to_lowercase()).collect();
                format!("the order is {}: {who} can {}", from.as_str(), names.join(" or "))
            });
        }
    };
    Ok(to)
}

/// The steps `role` may take from `from`.
pub fn allowed(from: Status, role: Role, overdue: bool) -> Vec<Action> {
    use Action::*;
    [Accept, Decline, Cancel, Deliver, Settle, Dispute, Refund]
        .into_iter()
        .filter(|&a| {
            matches!(
                (from, role, a),
                (Status::Offered, Role::Seller, Accept | Decline)
                    | (Status::Offered, Role::Buyer, Cancel)
                    | (Status::Accepted, Role::Seller, Deliver | Refund)
                    | (Status::Delivered | Status::Disputed, Role::Seller, Refund)
                    | (Status::Delivered, Role::Buyer, Settle | Dispute)
                    | (Status::Disputed, Role::Operator, Settle | Refund)
            ) || (from == Status::Accepted && role == Role::Buyer && a == Cancel && overdue)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Action::*;
    use super::*;

    const ALL: [Status; 6] =
        [Status::Offered, Status::Accepted, Status::Delivered, Status::Settled, Status::Disputed, Status::Refunded];
    const ACTIONS: [Action; 7] = [Accept, Decline, Cancel, Deliver, Settle, Dispute, Refund];

    #[test]
    fn the_happy_path_and_the_dispute_path() {
        let s = next(Status::Offered, Role::Seller, Accept, false).unwrap();
        let s = next(s, Role::Seller, Deliver, false).unwrap();
        assert_eq!(next(s, Role::Buyer, Settle, false), Ok(Status::Settled));
        let d = next(s, Role::Buyer, Dispute, false).unwrap();
        assert_eq!(next(d, Role::Operator, Refund, false), Ok(Status::Refunded));
        assert_eq!(next(d, Role::Operator, Settle, false), Ok(Status::Settled));
        assert!(next(d, Role::Buyer, Settle, false).is_err(), "a disputed order is the operator's to settle");
    }

    #[test]
    fn settled_and_refunded_orders_are_final() {
        for from in [Status::Settled, Status::Refunded] {
            for role in [Role::Buyer, Role::Seller, Role::Operator] {
                for a in ACTIONS {
                    assert!(next(from, role, a, true).is_err(), "{from:?} {role:?} {a:?}");
                }
            }
        }
    }

    #[test]
    fn a_buyer_cancels_an_accepted_order_only_past_its_deadline() {
        assert!(next(Status::Accepted, Role::Buyer, Cancel, false).unwrap_err().contains("can take no step"));
        assert_eq!(next(Status::Accepted, Role::Buyer, Cancel, true), Ok(Status::Refunded));
    }

    #[test]
    fn allowed_agrees_with_next_everywhere() {
        for from in ALL {
            for role in [Role::Buyer, Role::Seller, Role::Operator] {
                for overdue in [false, true] {
                    let allowed = allowed(from, role, overdue);
                    for a in ACTIONS {
                        assert_eq!(
                            next(from, role, a, overdue).is_ok(),
                            allowed.contains(&a),
                            "{from:?} {role:?} {a:?}"
                        );
                    }
                }
            }
        }
        let e = next(Status::Offered, Role::Buyer, Settle, false).unwrap_err();
        assert_eq!(e, "the order is offered: the buyer can cancel");
    }
}
