//! What a dashboard page says after a post that redirected to it (post/redirect/get). The
//! redirect carries a code (`?notice=stored:3`), never text, and a page shows only the notices
//! it knows: a link someone sends cannot make the dashboard say what it wants.

use serde::Deserialize;

use crate::vocabulary::GapStatus;

/// The query of a page that shows notices: `?notice=<code>`.
#[derive(Debug, Default, Deserialize)]
pub struct NoticeQuery {
    #[serde(default)]
    pub notice: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    MemoryAdded,
    Pinned,
    Unpinned,
    MemoryDeleted,
    /// Knowledge text stored as this many chunks.
    Stored(u32),
    /// A page fetched and stored as this many chunks.
    Fetched(u32),
    Compiled {
        memories: u32,
        words: u32,
    },
    NothingToCompile,
    /// A reflection applied this many actions.
    ReflectionApplied(u32),
    Gap(GapStatus),
    UnknownGapStatus,
    RegistrationRequested,
    ProfileSaved,
    WalletCreated,
    LimitsSaved,
    SendQueued,
    SendAwaitingConfirmation,
    SendConfirmed,
    SendCancelled,
    ExternalAdded,
    ExternalRemoved,
    TaskAdded,
    TaskMoved,
}

impl Notice {
    /// The code in the URL.
    pub fn code(self) -> String {
        match self {
            Notice::MemoryAdded => "memory_added".into(),
            Notice::Pinned => "pinned".into(),
            Notice::Unpinned => "unpinned".into(),
            Notice::MemoryDeleted => "memory_deleted".into(),
            Notice::Stored(n) => format!("stored:{n}"),
            Notice::Fetched(n) => format!("fetched:{n}"),
            Notice::Compiled { memories, words } => format!("compiled:{memories}:{words}"),
            Notice::NothingToCompile => "nothing_to_compile".into(),
            Notice::ReflectionApplied(n) => format!("reflection_applied:{n}"),
            Notice::Gap(status) => format!("gap:{status}"),
            Notice::UnknownGapStatus => "unknown_gap_status".into(),
            Notice::RegistrationRequested => "registration_requested".into(),
            Notice::ProfileSaved => "profile_saved".into(),
            Notice::WalletCreated => "wallet_created".into(),
            Notice::LimitsSaved => "limits_saved".into(),
            Notice::SendQueued => "send_queued".into(),
            Notice::SendAwaitingConfirmation => "send_awaiting_confirmation".into(),
            Notice::SendConfirmed => "send_confirmed".into(),
            Notice::SendCancelled => "send_cancelled".into(),
            Notice::ExternalAdded => "external_added".into(),
            Notice::ExternalRemoved => "external_removed".into(),
            Notice::TaskAdded => "task_added".into(),
            Notice::TaskMoved => "task_moved".into(),
        }
    }

    /// The notice a code names; `None` for anything else.
    pub fn parse(code: &str) -> Option<Notice> {
        let mut parts = code.split(':');
        let name = parts.next()?;
        let args: Vec<&str> = parts.collect();
        let num = |i: usize| args.get(i).and_then(|a| a.parse::<u32>().ok());
        let notice = match (name, args.len()) {
            ("memory_added", 0) => Notice::MemoryAdded,
            ("pinned", 0) => Notice::Pinned,
            ("unpinned", 0) => Notice::Unpinned,
            ("memory_deleted", 0) => Notice::MemoryDeleted,
            ("stored", 1) => Notice::Stored(num(0)?),
            ("fetched", 1) => Notice::Fetched(num(0)?),
            ("compiled", 2) => Notice::Compiled { memories: num(0)?, words: num(1)? },
            ("nothing_to_compile", 0) => Notice::NothingToCompile,
            ("reflection_applied", 1) => Notice::ReflectionApplied(num(0)?),
            ("gap", 1) => Notice::Gap(args[0].parse().ok()?),
            ("unknown_gap_status", 0) => Notice::UnknownGapStatus,
            ("registration_requested", 0) => Notice::RegistrationRequested,
            ("profile_saved", 0) => Notice::ProfileSaved,
            ("wallet_created", 0) => Notice::WalletCreated,
            ("limits_saved", 0) => Notice::LimitsSaved,
            ("send_queued", 0) => Notice::SendQueued,
            ("send_awaiting_confirmation", 0) => Notice::SendAwaitingConfirmation,
            ("send_confirmed", 0) => Notice::SendConfirmed,
            ("send_cancelled", 0) => Notice::SendCancelled,
            ("external_added", 0) => Notice::ExternalAdded,
            ("external_removed", 0) => Notice::ExternalRemoved,
            ("task_added", 0) => Notice::TaskAdded,
            ("task_moved", 0) => Notice::TaskMoved,
            _ => return None,
        };
        Some(notice)
    }

    /// What the page says.
    pub fn message(self) -> String {
        match self {
            Notice::MemoryAdded => "Memory added.".into(),
            Notice::Pinned => "Pinned.".into(),
            Notice::Unpinned => "Unpinned.".into(),
            Notice::MemoryDeleted => {
                "Deleted. The same fact will not be re-learned unless the user says it again.".into()
            }
            Notice::Stored(n) => format!("Stored as {n} chunk(s)."),
            Notice::Fetched(n) => format!("Fetched and stored as {n} chunk(s)."),
            Notice::Compiled { memories, words } => {
                format!("Dossier compiled from {memories} memories ({words} words).")
            }
            Notice::NothingToCompile => "Nothing to compile: the agent has no memories yet.".into(),
            Notice::ReflectionApplied(n) => format!("Reflection applied: {n} actions."),
            Notice::Gap(status) => format!("Gap {status}."),
            Notice::UnknownGapStatus => "Unknown gap status.".into(),
            Notice::RegistrationRequested => {
                "Registration requested: the transaction is on its way; this page follows it.".into()
            }
            Notice::ProfileSaved => "Profile saved. A registered agent's entry is refreshed on chain shortly.".into(),
            Notice::WalletCreated => {
                "Wallet created. Its key stays sealed on the server; fund the address to use it.".into()
            }
            Notice::LimitsSaved => "Limits saved.".into(),
            Notice::SendQueued => "Send queued: it is signed and broadcast by the next worker.".into(),
            Notice::SendAwaitingConfirmation => {
                "The send is above your confirmation threshold: confirm it below to send it.".into()
            }
            Notice::SendConfirmed => "Confirmed: the send is queued.".into(),
            Notice::SendCancelled => "Send cancelled.".into(),
            Notice::ExternalAdded => "Owner-held wallet added.".into(),
            Notice::ExternalRemoved => "Owner-held wallet removed.".into(),
            Notice::TaskAdded => "Task added: it waits for your approval on the board.".into(),
            Notice::TaskMoved => "Task updated.".into(),
        }
    }

    /// The message of the `?notice=` a page was given, if it is a known code.
    pub fn message_of(code: &str) -> Option<String> {
        Notice::parse(code).map(Notice::message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_nothing_else_is_shown() {
        let all = [
            Notice::MemoryAdded,
            Notice::Pinned,
            Notice::Unpinned,
            Notice::MemoryDeleted,
            Notice::Stored(3),
            Notice::Fetched(1),
            Notice::Compiled { memories: 12, words: 340 },
            Notice::NothingToCompile,
            Notice::ReflectionApplied(4),
            Notice::Gap(GapStatus::Confirmed),
            Notice::UnknownGapStatus,
            Notice::RegistrationRequested,
            Notice::ProfileSaved,
            Notice::WalletCreated,
            Notice::LimitsSaved,
            Notice::SendQueued,
            Notice::SendAwaitingConfirmation,
            Notice::SendConfirmed,
            Notice::SendCancelled,
            Notice::ExternalAdded,
            Notice::ExternalRemoved,
            Notice::TaskAdded,
            Notice::TaskMoved,
        ];
        for n in all {
            assert_eq!(Notice::parse(&n.code()), Some(n), "{}", n.code());
        }
        for code in [
            "",
            "Your account is locked, call +1 555 0100",
            "<script>alert(1)</script>",
            "stored",
            "stored:x",
            "stored:-1",
            "stored:1:2",
            "compiled:1",
            "gap:hacked",
            "pinned:1",
        ] {
            assert_eq!(Notice::parse(code), None, "{code}");
        }
    }
}
