//! Typed ids: one newtype per kind of row, so a call like `revoke(tenant, agent, key)` cannot
//! take its arguments in the wrong order. Each is a UUID on the wire (serde), in the database
//! (sqlx, transparent) and in the OpenAPI document (a `uuid` string), so no client sees a change.
//!
//! In the compile-checked `sqlx::query!` macros an id is bound with `id as _` (the column's type is
//! still checked by the database; the macro takes the value as it is, which encodes as `uuid`).

use std::fmt;
use std::str::FromStr;

use uuid::Uuid;

macro_rules! ids {
    ($($(#[$meta:meta])* $name:ident),+ $(,)?) => {$(
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default,
            serde::Serialize, serde::Deserialize, sqlx::Type,
        )]
        #[serde(transparent)]
        #[sqlx(transparent)]
        pub struct $name(pub Uuid);

        impl $name {
            /// A fresh, time-ordered id (UUIDv7, as every table's default).
            pub fn new() -> Self {
                $name(Uuid::now_v7())
            }

            pub const fn uuid(self) -> Uuid {
                self.0
            }
        }

        impl From<Uuid> for $name {
            fn from(id: Uuid) -> Self {
                $name(id)
            }
        }

        impl From<$name> for Uuid {
            fn from(id: $name) -> Uuid {
                id.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = uuid::Error;
            fn from_str(s: &str) -> Result<Self, uuid::Error> {
                Uuid::parse_str(s).map($name)
            }
        }

        impl PartialEq<Uuid> for $name {
            fn eq(&self, other: &Uuid) -> bool {
                self.0 == *other
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid)))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}
    )+};
}

ids! {
    /// A tenant (an account: one owner and their agents).
    TenantId,
    /// A signed-in person (the owner of a tenant).
    UserId,
    /// A hosted agent.
    AgentId,
    /// A long-term memory of an agent.
    MemoryId,
    /// A gateway key (`mck_…`).
    KeyId,
    /// A conversation of an agent.
    ConversationId,
    /// One message of a conversation.
    MessageId,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_a_uuid_on_the_wire() {
        let raw = Uuid::now_v7();
        let id = AgentId(raw);
        assert_eq!(serde_json::to_value(id).unwrap(), serde_json::json!(raw.to_string()));
        assert_eq!(serde_json::from_value::<AgentId>(serde_json::json!(raw.to_string())).unwrap(), id);
        assert_eq!(id.to_string().parse::<AgentId>().unwrap(), id);
        assert!("not-a-uuid".parse::<AgentId>().is_err());
        let schema = serde_json::to_value(<AgentId as utoipa::PartialSchema>::schema()).unwrap();
        assert_eq!(schema, serde_json::json!({ "type": "string", "format": "uuid" }));
    }
}
