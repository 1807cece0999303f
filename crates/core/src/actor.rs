//! Who acts: the `Actor` of every recorded change and the `Origin` (actor and request id) that
//! the activity log, memory history and soul versions carry.

use crate::ids::{KeyId, UserId};

/// Who performed an action, as recorded in the activity log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    Owner(UserId),
    ApiKey(KeyId),
    Job(String),
    Admin,
    System,
}

impl Actor {
    pub fn kind(&self) -> &'static str {
        match self {
            Actor::Owner(_) => "owner",
            Actor::ApiKey(_) => "api_key",
            Actor::Job(_) => "job",
            Actor::Admin => "admin",
            Actor::System => "system",
        }
    }

    pub fn id(&self) -> Option<String> {
        match self {
            Actor::Owner(id) => Some(id.to_string()),
            Actor::ApiKey(id) => Some(id.to_string()),
            Actor::Job(kind) => Some(kind.clone()),
            Actor::Admin | Actor::System => None,
        }
    }
}

/// Who is acting, and under which request: what every recorded change carries.
#[derive(Debug, Clone)]
pub struct Origin {
    pub actor: Actor,
    pub request_id: Option<String>,
}

impl Origin {
    pub fn new(actor: Actor, request_id: Option<String>) -> Self {
        Origin { actor, request_id }
    }
}
