//! The product's closed vocabularies as types: memory status and source, the built-in memory
//! categories, triage intents, reflection triggers and knowledge-gap statuses. Each is written
//! once here, serialised as the same lower-case string the API has always used, stored as that
//! text, and parsed with an error that lists the allowed values. Code compares variants, not
//! strings, and lists (for validation, forms, prompts) come from `ALL`.

use std::fmt;
use std::str::FromStr;

/// Declares a closed vocabulary: the enum, its strings (`as_str`, `NAMES`, `ALL`), parsing,
/// `Display`, serde as the string, OpenAPI as a string enum, and sqlx as `text`.
macro_rules! vocabulary {
    ($(#[$meta:meta])* $name:ident, $what:literal { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        // The strings are the variants in snake_case (serde and the OpenAPI schema derive them
        // from the names; a test checks they agree with `as_str`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// Every value, in the documented order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every value's string, in the same order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The strings of some values, in a constant (for SQL filters and prompts).
            pub const fn names<const N: usize>(values: [$name; N]) -> [&'static str; N] {
                let mut out = [""; N];
                let mut i = 0;
                while i < N {
                    out[i] = values[i].as_str();
                    i += 1;
                }
                out
            }
        }

        impl FromStr for $name {
            type Err = UnknownValue;
            fn from_str(s: &str) -> Result<Self, UnknownValue> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(UnknownValue { what: $what, allowed: $name::NAMES }),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl sqlx::Type<sqlx::Postgres> for $name {
            fn type_info() -> sqlx::postgres::PgTypeInfo {
                <&str as sqlx::Type<sqlx::Postgres>>::type_info()
            }
            fn compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
                <&str as sqlx::Type<sqlx::Postgres>>::compatible(ty)
            }
        }

        impl sqlx::Encode<'_, sqlx::Postgres> for $name {
            fn encode_by_ref(
                &self,
                buf: &mut sqlx::postgres::PgArgumentBuffer,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <&str as sqlx::Encode<sqlx::Postgres>>::encode_by_ref(&self.as_str(), buf)
            }
        }

        impl sqlx::Decode<'_, sqlx::Postgres> for $name {
            fn decode(value: sqlx::postgres::PgValueRef<'_>) -> Result<Self, sqlx::error::BoxDynError> {
                let text = <&str as sqlx::Decode<sqlx::Postgres>>::decode(value)?;
                Ok(text.parse()?)
            }
        }
    };
}

/// Parses an input field into a vocabulary value: a 400 naming the field and the allowed values.
pub fn parse<T: FromStr<Err = UnknownValue>>(field: &'static str, value: &str) -> Result<T, crate::error::Error> {
    value.parse().map_err(|e: UnknownValue| crate::error::Error::validation(field, e.to_string()))
}

/// A string that is not one of a vocabulary's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} must be one of {}", .allowed.join(", "))]
pub struct UnknownValue {
    pub what: &'static str,
    pub allowed: &'static [&'static str],
}

vocabulary!(
    /// A memory's lifecycle status (SPEC R5, X2): search and chat use `active` and `dormant`
    /// memories (prominence above 0.5, and 0.1–0.5); `archived` ones are set aside, restorable.
    MemoryStatus, "status" {
        Active => "active",
        Dormant => "dormant",
        Archived => "archived",
        Deprecated => "deprecated",
    }
);

vocabulary!(
    /// Where a memory came from (SPEC R1).
    MemorySource, "source" {
        Conversation => "conversation",
        Derived => "derived",
        Uploaded => "uploaded",
        Url => "url",
        Reflection => "reflection",
        Fusion => "fusion",
        Owner => "owner",
        Api => "api",
    }
);

impl MemoryStatus {
    /// The statuses search and chat use.
    pub const LIVE: [MemoryStatus; 2] = [MemoryStatus::Active, MemoryStatus::Dormant];

    pub fn is_live(self) -> bool {
        Self::LIVE.contains(&self)
    }
}

impl MemorySource {
    /// What the agent learned about its user, by any path (as opposed to uploaded knowledge).
    pub const LEARNED: [MemorySource; 6] = [
        MemorySource::Conversation,
        MemorySource::Derived,
        MemorySource::Owner,
        MemorySource::Api,
        MemorySource::Reflection,
        MemorySource::Fusion,
    ];
    /// Knowledge: text uploads and fetched pages.
    pub const KNOWLEDGE: [MemorySource; 2] = [MemorySource::Uploaded, MemorySource::Url];
}

vocabulary!(
    /// The built-in memory categories. Owners and keys may use categories of their own (any
    /// lower-case word); these are the ones the pipeline knows.
    Category, "category" {
        Identity => "identity",
        Goal => "goal",
        Preference => "preference",
        Interest => "interest",
        Context => "context",
        /// The agent's own conclusions (extraction's insights).
        Insight => "insight",
        /// Uploaded or fetched knowledge.
        Knowledge => "knowledge",
    }
);

impl Category {
    /// What extraction and triage sort facts about the user into (001 §3.3).
    pub const USER_FACTS: [Category; 5] =
        [Category::Identity, Category::Goal, Category::Interest, Category::Preference, Category::Context];
}

vocabulary!(
    /// What a message is about, as triage classifies it (001 §3.3).
    Intent, "intent" {
        CasualChat => "casual_chat",
        ProjectQuestion => "project_question",
        TaskRequest => "task_request",
        CreativeBrainstorm => "creative_brainstorm",
        EconomyAction => "economy_action",
        InformationLookup => "information_lookup",
        EmotionalSupport => "emotional_support",
        MetaQuestion => "meta_question",
        SmallTalk => "small_talk",
    }
);

vocabulary!(
    /// What started a deep reflection (SPEC C2).
    ReflectionTrigger, "trigger" {
        /// The recurring 12-hour cycle (background work).
        Schedule => "schedule",
        /// An operator's `run-cycle` or admin route.
        Admin => "admin",
        /// The owner, from the dashboard or the API.
        Owner => "owner",
        /// A key with `soul:write`.
        ApiKey => "api_key",
    }
);

vocabulary!(
    /// A knowledge gap's status (SPEC C5).
    GapStatus, "status" {
        Open => "open",
        /// Kept by later lints.
        Confirmed => "confirmed",
        /// Hidden and not proposed again.
        Dismissed => "dismissed",
    }
);

vocabulary!(
    /// A human-verification provider (SPEC I3): Self.xyz (zero-knowledge passport proof) or
    /// Talent Protocol (builder credentials and score).
    VerificationProvider, "provider" {
        SelfXyz => "self_xyz",
        TalentProtocol => "talent_protocol",
    }
);

vocabulary!(
    /// The outcome of a human verification (SPEC I3).
    VerificationStatus, "status" {
        Verified => "verified",
        Pending => "pending",
        Failed => "failed",
        /// A verification withdrawn later (the provider or the operator revoked it).
        Revoked => "revoked",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T>(all: &[T])
    where
        T: Copy + PartialEq + std::fmt::Debug + FromStr<Err = UnknownValue> + serde::Serialize + fmt::Display,
        T: serde::de::DeserializeOwned,
    {
        for v in all {
            let text = v.to_string();
            assert_eq!(text.parse::<T>(), Ok(*v));
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(text), "serde writes the same string");
            assert_eq!(serde_json::from_value::<T>(serde_json::json!(text)).unwrap(), *v);
        }
    }

    #[test]
    fn each_value_round_trips_through_its_string() {
        round_trips(MemoryStatus::ALL);
        round_trips(MemorySource::ALL);
        round_trips(Category::ALL);
        round_trips(Intent::ALL);
        round_trips(ReflectionTrigger::ALL);
        round_trips(GapStatus::ALL);
        round_trips(VerificationProvider::ALL);
        round_trips(VerificationStatus::ALL);
        assert_eq!(MemorySource::NAMES.len(), MemorySource::ALL.len());
        assert_eq!(
            Category::USER_FACTS.map(Category::as_str),
            ["identity", "goal", "interest", "preference", "context"]
        );
    }

    #[test]
    fn unknown_strings_name_the_allowed_values() {
        let e = "paused".parse::<MemoryStatus>().unwrap_err();
        assert_eq!(e.to_string(), "status must be one of active, dormant, archived, deprecated");
        assert!(serde_json::from_value::<GapStatus>(serde_json::json!("maybe")).is_err());
    }
}
