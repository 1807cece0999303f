//! Who reads an agent's memories (SPEC H1), and the SQL condition that says so.

use miniclaw_core::Error;

use super::store;

/// Who reads an agent's memories (SPEC H1): the owner (and the owner's keys acting for no end
/// user) reads them all; an end user reads the agent's own knowledge and their own memories,
/// never another end user's; the agent's own work that others will see (the dossier, its
/// reflection on the soul, the feed) reads only its own knowledge.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Reader {
    #[default]
    All,
    /// Only the agent's own knowledge (`end_user` null).
    Agent,
    /// The agent's own knowledge and this end user's memories.
    EndUser(String),
    /// This end user's memories only (what their statements are compared with).
    Own(String),
}

impl Reader {
    /// The reader of a request or turn acting for `end_user` (none: the owner's).
    pub fn acting_for(end_user: Option<&str>) -> Reader {
        end_user.map_or(Reader::All, |u| Reader::EndUser(u.to_string()))
    }

    /// This reader asking for the memories of `filter` only (an API's `end_user` filter: an end
    /// user's id, or `store::AGENT_OWN` for the agent's own knowledge): what both allow. An end
    /// user asking for another's memories is refused (403 `end_user_mismatch`).
    pub fn narrowed(&self, filter: Option<&str>) -> Result<Reader, Error> {
        let Some(filter) = filter.map(str::trim) else { return Ok(self.clone()) };
        if filter == store::AGENT_OWN {
            return Ok(Reader::Agent);
        }
        let wanted = crate::tenancy::auth::end_user::parse("end_user", filter)?;
        if !self.reads(Some(&wanted)) {
            return Err(Error::Refused {
                code: "end_user_mismatch",
                message: "this request acts for another end user; it reads only theirs and the agent's own".into(),
            });
        }
        Ok(Reader::Own(wanted))
    }

    /// Whether every memory is readable (the first SQL argument of `condition`).
    pub fn all(&self) -> bool {
        matches!(self, Reader::All)
    }

    /// The end user whose memories are readable besides the agent's own (the second).
    pub fn end_user(&self) -> Option<&str> {
        match self {
            Reader::EndUser(u) | Reader::Own(u) => Some(u),
            _ => None,
        }
    }

    /// Exactly the memories of whoever `end_user` names: theirs, or (`None`) the agent's own.
    pub fn exactly(end_user: Option<&str>) -> Reader {
        end_user.map_or(Reader::Agent, |u| Reader::Own(u.to_string()))
    }

    /// Whether a memory learned from `end_user` is readable.
    pub fn reads(&self, end_user: Option<&str>) -> bool {
        match self {
            Reader::All => true,
            Reader::Agent => end_user.is_none(),
            Reader::EndUser(u) => end_user.is_none_or(|e| e == u),
            Reader::Own(u) => end_user == Some(u.as_str()),
        }
    }

    /// The condition on `agent_memories` (column prefix `prefix`: `"m."`, or `""`) for SQL
    /// arguments `all` (boolean, `Reader::all`) and `end_user` (text, `Reader::end_user`), for
    /// a statement built at run time. Compile-checked statements write
    /// `($n OR end_user IS NULL OR end_user = $m)`, which is this for every reader but `Own`.
    pub fn condition(&self, prefix: &str, all: &str, end_user: &str) -> String {
        match self {
            Reader::Own(_) => format!("{prefix}end_user = {end_user}::text"),
            _ => format!("({all}::boolean OR {prefix}end_user IS NULL OR {prefix}end_user = {end_user}::text)"),
        }
    }
}

/// 404 unless a request acting for `end_user` may reach memory `id` of `agent` (SPEC H1): it
/// reads the agent's own memories and that user's, and `write` changes only that user's (never
/// the agent's own knowledge, never another's). Acting for no end user, every memory.
pub async fn reachable(
    pool: &sqlx::PgPool,
    agent: miniclaw_core::ids::AgentId,
    end_user: Option<&str>,
    id: miniclaw_core::ids::MemoryId,
    write: bool,
) -> Result<(), Error> {
    let reader = Reader::acting_for(end_user);
    if reader.all() {
        return Ok(());
    }
    let m = store::get(pool, agent, id).await?;
    let whose = m.end_user.as_deref();
    let ok = if write { whose.is_some() && whose == end_user } else { reader.reads(whose) };
    if ok { Ok(()) } else { Err(Error::not_found("memory")) }
}
