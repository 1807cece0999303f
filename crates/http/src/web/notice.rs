//! What a dashboard page says after a post that redirected to it (post/redirect/get). The
//! redirect carries a code (`?notice=stored:3`), never text, and a page shows only the notices
//! it knows: a link someone sends cannot make the dashboard say what it wants.

use serde::Deserialize;

use miniclaw_core::vocabulary::GapStatus;

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
    /// A transcript of this many messages queued for import.
    ImportQueued(u32),
    /// The transcript was imported before: nothing new.
    ImportDuplicate,
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
    ProposalReady,
    ProposalSaved,
    OutreachApproved,
    OutreachRejected,
    ReplyQueued,
    ThreadClosed,
    SenderSaved,
    KeyRevoked,
    NotificationRead,
    /// This many notifications marked read.
    AllRead(u32),
    TelegramConnected,
    TelegramDisconnected,
    ProactiveSaved,
    ProactiveAccepted,
    ProactiveDismissed,
    FeedPosted,
    DigestPosted,
    PostChanged,
    PostDeleted,
    Liked,
    Unliked,
    Commented,
    CommentDeleted,
    SkillInstalled,
    SkillRemoved,
    SkillApproved,
    SkillRated,
    SkillPublished,
    EconomyDone,
    TipGiven,
    TipConfirmed,
    TipCancelled,
    ServiceSaved,
    OrderPlaced,
    OrderStepped,
    Staked,
    StakeWithdrawn,
    TokenRequested,
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
            Notice::ImportQueued(n) => format!("import_queued:{n}"),
            Notice::ImportDuplicate => "import_duplicate".into(),
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
            Notice::ProposalReady => "proposal_ready".into(),
            Notice::ProposalSaved => "proposal_saved".into(),
            Notice::OutreachApproved => "outreach_approved".into(),
            Notice::OutreachRejected => "outreach_rejected".into(),
            Notice::ReplyQueued => "reply_queued".into(),
            Notice::ThreadClosed => "thread_closed".into(),
            Notice::SenderSaved => "sender_saved".into(),
            Notice::KeyRevoked => "key_revoked".into(),
            Notice::NotificationRead => "notification_read".into(),
            Notice::AllRead(n) => format!("all_read:{n}"),
            Notice::TelegramConnected => "telegram_connected".into(),
            Notice::TelegramDisconnected => "telegram_disconnected".into(),
            Notice::ProactiveSaved => "proactive_saved".into(),
            Notice::ProactiveAccepted => "proactive_accepted".into(),
            Notice::ProactiveDismissed => "proactive_dismissed".into(),
            Notice::FeedPosted => "feed_posted".into(),
            Notice::DigestPosted => "digest_posted".into(),
            Notice::PostChanged => "post_changed".into(),
            Notice::PostDeleted => "post_deleted".into(),
            Notice::Liked => "liked".into(),
            Notice::Unliked => "unliked".into(),
            Notice::Commented => "commented".into(),
            Notice::CommentDeleted => "comment_deleted".into(),
            Notice::SkillInstalled => "skill_installed".into(),
            Notice::SkillRemoved => "skill_removed".into(),
            Notice::SkillApproved => "skill_approved".into(),
            Notice::SkillRated => "skill_rated".into(),
            Notice::SkillPublished => "skill_published".into(),
            Notice::EconomyDone => "economy_done".into(),
            Notice::TipGiven => "tip_given".into(),
            Notice::TipConfirmed => "tip_confirmed".into(),
            Notice::TipCancelled => "tip_cancelled".into(),
            Notice::ServiceSaved => "service_saved".into(),
            Notice::OrderPlaced => "order_placed".into(),
            Notice::OrderStepped => "order_stepped".into(),
            Notice::Staked => "staked".into(),
            Notice::StakeWithdrawn => "stake_withdrawn".into(),
            Notice::TokenRequested => "token_requested".into(),
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
            ("import_queued", 1) => Notice::ImportQueued(num(0)?),
            ("import_duplicate", 0) => Notice::ImportDuplicate,
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
            ("proposal_ready", 0) => Notice::ProposalReady,
            ("proposal_saved", 0) => Notice::ProposalSaved,
            ("outreach_approved", 0) => Notice::OutreachApproved,
            ("outreach_rejected", 0) => Notice::OutreachRejected,
            ("reply_queued", 0) => Notice::ReplyQueued,
            ("thread_closed", 0) => Notice::ThreadClosed,
            ("sender_saved", 0) => Notice::SenderSaved,
            ("key_revoked", 0) => Notice::KeyRevoked,
            ("notification_read", 0) => Notice::NotificationRead,
            ("all_read", 1) => Notice::AllRead(num(0)?),
            ("telegram_connected", 0) => Notice::TelegramConnected,
            ("telegram_disconnected", 0) => Notice::TelegramDisconnected,
            ("proactive_saved", 0) => Notice::ProactiveSaved,
            ("proactive_accepted", 0) => Notice::ProactiveAccepted,
            ("proactive_dismissed", 0) => Notice::ProactiveDismissed,
            ("feed_posted", 0) => Notice::FeedPosted,
            ("digest_posted", 0) => Notice::DigestPosted,
            ("post_changed", 0) => Notice::PostChanged,
            ("post_deleted", 0) => Notice::PostDeleted,
            ("liked", 0) => Notice::Liked,
            ("unliked", 0) => Notice::Unliked,
            ("commented", 0) => Notice::Commented,
            ("comment_deleted", 0) => Notice::CommentDeleted,
            ("skill_installed", 0) => Notice::SkillInstalled,
            ("skill_removed", 0) => Notice::SkillRemoved,
            ("skill_approved", 0) => Notice::SkillApproved,
            ("skill_rated", 0) => Notice::SkillRated,
            ("skill_published", 0) => Notice::SkillPublished,
            ("economy_done", 0) => Notice::EconomyDone,
            ("tip_given", 0) => Notice::TipGiven,
            ("tip_confirmed", 0) => Notice::TipConfirmed,
            ("tip_cancelled", 0) => Notice::TipCancelled,
            ("service_saved", 0) => Notice::ServiceSaved,
            ("order_placed", 0) => Notice::OrderPlaced,
            ("order_stepped", 0) => Notice::OrderStepped,
            ("staked", 0) => Notice::Staked,
            ("stake_withdrawn", 0) => Notice::StakeWithdrawn,
            ("token_requested", 0) => Notice::TokenRequested,
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
            Notice::ImportQueued(n) => {
                format!("Importing {n} message(s): extraction runs in the background; progress is under Imports.")
            }
            Notice::ImportDuplicate => "This transcript was imported before; nothing new was stored.".into(),
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
            Notice::ProposalReady => "Proposal ready: read it, edit it if you like, then approve or reject it.".into(),
            Notice::ProposalSaved => "Proposal saved.".into(),
            Notice::OutreachApproved => "Approved: the email is in the outbox and goes out shortly.".into(),
            Notice::OutreachRejected => "Proposal rejected.".into(),
            Notice::ReplyQueued => "Reply queued: it goes out in this thread shortly.".into(),
            Notice::ThreadClosed => "Thread closed: later replies are not answered.".into(),
            Notice::SenderSaved => "Sender identity saved for all your agents.".into(),
            Notice::KeyRevoked => "Key revoked: requests with it are refused from now on.".into(),
            Notice::NotificationRead => "Marked read.".into(),
            Notice::AllRead(n) => format!("{n} notification(s) marked read."),
            Notice::TelegramConnected => {
                "Bot connected: send it the /start message below from your own Telegram to get notifications there."
                    .into()
            }
            Notice::TelegramDisconnected => "Bot disconnected: its token is forgotten.".into(),
            Notice::ProactiveSaved => "Saved.".into(),
            Notice::ProactiveAccepted => "Thanks: trust +0.05.".into(),
            Notice::ProactiveDismissed => "Noted: trust −0.05.".into(),
            Notice::FeedPosted => "Posted.".into(),
            Notice::DigestPosted => "The feed digest wrote a post.".into(),
            Notice::PostChanged => "Post updated.".into(),
            Notice::PostDeleted => "Post deleted.".into(),
            Notice::Liked => "Liked.".into(),
            Notice::Unliked => "Like taken back.".into(),
            Notice::Commented => "Comment added.".into(),
            Notice::CommentDeleted => "Comment deleted.".into(),
            Notice::SkillInstalled => "Skill installed.".into(),
            Notice::SkillRemoved => "Skill removed; installing it again is free.".into(),
            Notice::SkillApproved => "Skill approved: it joins the chat when a message names its triggers.".into(),
            Notice::SkillRated => "Thanks for rating.".into(),
            Notice::SkillPublished => "Published to the marketplace.".into(),
            Notice::EconomyDone => "Done.".into(),
            Notice::TipGiven => "Tip sent.".into(),
            Notice::TipConfirmed => "Tip confirmed and paid.".into(),
            Notice::TipCancelled => "Tip cancelled; nothing moved.".into(),
            Notice::ServiceSaved => "Service saved.".into(),
            Notice::OrderPlaced => "Order placed; its price is held until it is settled or refunded.".into(),
            Notice::OrderStepped => "Order updated.".into(),
            Notice::Staked => "Staked.".into(),
            Notice::StakeWithdrawn => "Stake withdrawn; the credits are back.".into(),
            Notice::TokenRequested => "Token deployment requested; it appears here once mined.".into(),
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
            Notice::ImportQueued(3),
            Notice::ImportDuplicate,
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
            Notice::ProposalReady,
            Notice::ProposalSaved,
            Notice::OutreachApproved,
            Notice::OutreachRejected,
            Notice::ReplyQueued,
            Notice::ThreadClosed,
            Notice::SenderSaved,
            Notice::KeyRevoked,
            Notice::NotificationRead,
            Notice::AllRead(7),
            Notice::TelegramConnected,
            Notice::TelegramDisconnected,
            Notice::ProactiveSaved,
            Notice::ProactiveAccepted,
            Notice::ProactiveDismissed,
            Notice::FeedPosted,
            Notice::DigestPosted,
            Notice::PostChanged,
            Notice::PostDeleted,
            Notice::Liked,
            Notice::Unliked,
            Notice::Commented,
            Notice::CommentDeleted,
            Notice::SkillInstalled,
            Notice::SkillRemoved,
            Notice::SkillApproved,
            Notice::SkillRated,
            Notice::SkillPublished,
            Notice::EconomyDone,
            Notice::TipGiven,
            Notice::TipConfirmed,
            Notice::TipCancelled,
            Notice::ServiceSaved,
            Notice::OrderPlaced,
            Notice::OrderStepped,
            Notice::Staked,
            Notice::StakeWithdrawn,
            Notice::TokenRequested,
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
