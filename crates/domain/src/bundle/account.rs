//! Everything the platform holds about a member, taken out (SPEC H2, for owners): their
//! account, the devices they signed in from, the team, the account's activity, and — for the
//! owners and admins, whose account it is to carry away — every agent as a `miniclaw.agent`
//! bundle with its conversations.

use chrono::{DateTime, Utc};
use miniclaw_core::Error;
use miniclaw_core::ids::{AgentId, TenantId, UserId};
use serde::Serialize;
use utoipa::ToSchema;

use super::{Bundle, ExportOptions};
use crate::runtime::Runtime;
use crate::tenancy::accounts::{self, OwnerView, TenantView};
use crate::tenancy::signins::{self, SignInDevice};
use crate::tenancy::team::{self, Role, Team};
use miniclaw_platform::activity::{self, ActivityEntry};

/// The most activity entries an export carries (the newest).
const ACTIVITY_MAX: i64 = 100_000;

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AccountExport {
    /// `miniclaw.account`.
    pub format: &'static str,
    pub exported_at: DateTime<Utc>,
    pub member: OwnerView,
    pub role: Role,
    pub account: TenantView,
    pub devices: Vec<SignInDevice>,
    pub team: Team,
    /// The account's activity, newest first, each entry naming the member who acted.
    pub activity: Vec<ActivityEntry>,
    /// Every agent of the account with its conversations; for owners and admins only (empty for
    /// members and viewers, whose account it is not to carry away).
    pub agents: Vec<Bundle>,
}

/// The export of `member`'s data in `tenant`.
pub async fn export(rt: &Runtime, tenant: TenantId, member: UserId) -> Result<AccountExport, Error> {
    let pool = rt.pool();
    let me = accounts::me(pool, member, tenant).await?;
    let role = team::role_of(pool, member, tenant).await?;
    let mut log = activity::list_tenant(pool, tenant, ACTIVITY_MAX, None).await?;
    team::name_actors(pool, tenant, &mut log).await?;
    let mut agents = Vec::new();
    if role >= Role::Admin {
        let ids: Vec<AgentId> =
            crate::tenancy::agents::list(pool, tenant, 10_000, None).await?.into_iter().map(|a| a.id).collect();
        for id in ids {
            agents.push(super::export(rt, tenant, id, ExportOptions { conversations: true }).await?);
        }
    }
    Ok(AccountExport {
        format: "miniclaw.account",
        exported_at: Utc::now(),
        member: me.owner,
        role,
        account: me.tenant,
        devices: signins::devices(pool, member).await?,
        team: team::team(pool, tenant, member).await?,
        activity: log,
        agents,
    })
}
