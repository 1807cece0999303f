//! A tenant is a team (SPEC H4): its members sign in each with their own address and password,
//! and each has a role. An owner may do everything, an admin everything but hand out or take
//! away ownership, a member the agents' work (chat, memories, soul, tasks, outreach), a viewer
//! only look. What each request needs is decided where it comes in (`Need`, by route, in the
//! HTTP layer); what a team change may touch is decided here.
//!
//! Members join by invitation: a single-use link mailed to their address (a week), kept like
//! every link (`verify`), with the role it grants. The last owner can neither leave nor lose
//! the role. A member who leaves or is removed keeps their row without an address or a
//! password, so the activity still names them and what they wrote stays.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use miniclaw_core::Error;
use miniclaw_core::ids::{TenantId, UserId};
use miniclaw_platform::activity::{self, Origin};
use miniclaw_platform::deps::Deps;

use super::accounts::{OwnerView, TenantView};
use super::auth::password;
use super::verify::{self, Purpose};

/// A member's role in the team, from least to most trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = TeamRole)]
pub enum Role {
    Viewer,
    Member,
    Admin,
    Owner,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Owner, Role::Admin, Role::Member, Role::Viewer];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::Member => "member",
            Role::Viewer => "viewer",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Whether this role may make a request that needs `need`.
    pub fn may(self, need: Need) -> bool {
        match need {
            Need::Read | Need::Account => true,
            Need::Work => self >= Role::Member,
            Need::Manage => self >= Role::Admin,
            Need::Own => self == Role::Owner,
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a request needs of the member making it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Looking: any member.
    Read,
    /// The member's own account (sign out, password, second factor, leaving): any member.
    Account,
    /// The agents' work: members and up.
    Work,
    /// Credentials, money, the team and the account's shape: admins and owners.
    Manage,
    /// Ownership itself (deleting the account): owners.
    Own,
}

impl Need {
    /// The role a request needs at least.
    pub fn least(self) -> Role {
        match self {
            Need::Read | Need::Account => Role::Viewer,
            Need::Work => Role::Member,
            Need::Manage => Role::Admin,
            Need::Own => Role::Owner,
        }
    }
}

/// 403 for a member whose role is short of `need`.
pub fn refused(role: Role, need: Need) -> Error {
    Error::Refused {
        code: "role_forbidden",
        message: format!("this needs the {} role or higher; your role in this team is {role}", need.least()),
    }
}

/// One member, as the team page lists them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Member {
    pub id: UserId,
    pub email: Option<String>,
    pub evm_address: Option<String>,
    pub role: Role,
    pub created_at: DateTime<Utc>,
    pub last_login_at: Option<DateTime<Utc>>,
    /// This is the member asking.
    pub you: bool,
}

/// An invitation not yet followed.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Invitation {
    pub id: Uuid,
    pub email: String,
    pub role: Role,
    /// The address of the member who sent it, while they are one.
    pub invited_by: Option<String>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// The team: its members and the invitations still open.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Team {
    pub members: Vec<Member>,
    pub invitations: Vec<Invitation>,
}

fn role_of_row(role: &str) -> Role {
    Role::parse(role).unwrap_or(Role::Viewer)
}

/// The member's role in the tenant; 404 for someone who is not (or no longer) a member.
pub async fn role_of<'e>(db: impl sqlx::PgExecutor<'e>, member: UserId, tenant: TenantId) -> Result<Role, Error> {
    let role = sqlx::query_scalar!(
        "SELECT role FROM owners WHERE id = $1 AND tenant_id = $2 AND removed_at IS NULL",
        member as _,
        tenant as _
    )
    .fetch_optional(db)
    .await?
    .ok_or_else(|| Error::not_found("member"))?;
    Ok(role_of_row(&role))
}

/// The member asking, with a role of at least `need`'s; 403 otherwise.
pub async fn require<'e>(
    db: impl sqlx::PgExecutor<'e>,
    member: UserId,
    tenant: TenantId,
    need: Need,
) -> Result<Role, Error> {
    let role = role_of(db, member, tenant).await?;
    if role.may(need) { Ok(role) } else { Err(refused(role, need)) }
}

/// The team as `me` sees it (any member may look).
pub async fn team(pool: &PgPool, tenant: TenantId, me: UserId) -> Result<Team, Error> {
    let members = sqlx::query!(
        r#"SELECT id AS "id: UserId", email, evm_address, role, created_at, last_login_at FROM owners
            WHERE tenant_id = $1 AND removed_at IS NULL ORDER BY created_at"#,
        tenant as _
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| Member {
        you: r.id == me,
        id: r.id,
        email: r.email,
        evm_address: r.evm_address,
        role: role_of_row(&r.role),
        created_at: r.created_at,
        last_login_at: r.last_login_at,
    })
    .collect();
    let invitations = sqlx::query!(
        r#"SELECT i.id, i.email, i.role, i.created_at, v.expires_at, o.email AS "invited_by?"
             FROM team_invitations i
             JOIN email_verifications v ON v.token_hash = i.token_hash
             LEFT JOIN owners o ON o.id = i.invited_by AND o.removed_at IS NULL
            WHERE i.tenant_id = $1 AND v.used_at IS NULL AND v.expires_at > now()
            ORDER BY i.created_at DESC"#,
        tenant as _
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| Invitation {
        id: r.id,
        email: r.email,
        role: role_of_row(&r.role),
        invited_by: r.invited_by,
        created_at: r.created_at,
        expires_at: r.expires_at,
    })
    .collect();
    Ok(Team { members, invitations })
}

/// Who each member of the tenant is, by id, for naming them in the activity: their address
/// (or the one they had, for a member who left), else their wallet.
pub async fn names(pool: &PgPool, tenant: TenantId) -> sqlx::Result<std::collections::HashMap<String, String>> {
    let rows = sqlx::query!(
        r#"SELECT id::text AS "id!", coalesce(email, released_email, evm_address, '') AS "name!",
                  removed_at IS NOT NULL AS "removed!"
             FROM owners WHERE tenant_id = $1"#,
        tenant as _
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .filter(|r| !r.name.is_empty())
        .map(|r| (r.id, if r.removed { format!("{} (left the team)", r.name) } else { r.name }))
        .collect())
}

/// Names the members who acted in `entries` (SPEC H4: the activity names the member).
pub async fn name_actors(
    pool: &PgPool,
    tenant: TenantId,
    entries: &mut [miniclaw_platform::activity::ActivityEntry],
) -> sqlx::Result<()> {
    if !entries.iter().any(|e| e.actor_type == "owner") {
        return Ok(());
    }
    let names = names(pool, tenant).await?;
    for e in entries.iter_mut().filter(|e| e.actor_type == "owner") {
        e.actor_name = e.actor_id.as_ref().and_then(|id| names.get(id).cloned());
    }
    Ok(())
}

/// Mails an invitation to `email` for `role` (admins and owners; only an owner invites an
/// owner). 409 when the address is a member already or another account's; 503 when the
/// platform sends no mail. An open invitation to the same address is replaced.
pub async fn invite(
    deps: &Deps,
    by: UserId,
    tenant: TenantId,
    origin: &Origin,
    email: &str,
    role: Role,
) -> Result<Invitation, Error> {
    let email = super::accounts::validate_email(email)?;
    if !deps.email.configured() {
        return Err(Error::Unavailable("this platform sends no email, so it cannot mail an invitation".into()));
    }
    let mut tx = deps.pool.begin().await?;
    let mine = require(&mut *tx, by, tenant, Need::Manage).await?;
    if role == Role::Owner && mine != Role::Owner {
        return Err(refused(mine, Need::Own));
    }
    if super::accounts::address_taken(&mut *tx, &email).await? {
        return Err(Error::Conflict(format!(
            "{email} signs in to a miniclaw account already (one address belongs to one account); invite another address"
        )));
    }
    revoke_open(&mut tx, tenant, Some(&email), None).await?;
    let token_hash = verify::send_link_in(&mut tx, deps, tenant, None, Purpose::Invitation, &email).await?;
    let id = Uuid::now_v7();
    let created_at = sqlx::query_scalar!(
        "INSERT INTO team_invitations (id, tenant_id, token_hash, email, role, invited_by)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at",
        id,
        tenant as _,
        token_hash,
        email,
        role.as_str(),
        by as _
    )
    .fetch_one(&mut *tx)
    .await?;
    activity::record_tenant(&mut tx, tenant, None, origin, "team.invited", json!({ "email": email, "role": role }))
        .await?;
    let invited_by = sqlx::query_scalar!("SELECT email FROM owners WHERE id = $1", by as _).fetch_one(&mut *tx).await?;
    tx.commit().await?;
    Ok(Invitation { id, email, role, invited_by, created_at, expires_at: created_at + Purpose::Invitation.ttl() })
}

/// Ends the open invitations of the tenant to `email`, or the one with `id`: their links are
/// used up. Returns how many ended.
async fn revoke_open(
    tx: &mut PgConnection,
    tenant: TenantId,
    email: Option<&str>,
    id: Option<Uuid>,
) -> sqlx::Result<u64> {
    Ok(sqlx::query!(
        "UPDATE email_verifications v SET used_at = now() FROM team_invitations i
          WHERE v.token_hash = i.token_hash AND i.tenant_id = $1 AND v.used_at IS NULL
            AND ($2::text IS NULL OR lower(i.email) = lower($2)) AND ($3::uuid IS NULL OR i.id = $3)",
        tenant as _,
        email,
        id
    )
    .execute(&mut *tx)
    .await?
    .rows_affected())
}

/// Withdraws an open invitation (admins and owners); 404 for one that is not open.
pub async fn withdraw(pool: &PgPool, by: UserId, tenant: TenantId, origin: &Origin, id: Uuid) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    require(&mut *tx, by, tenant, Need::Manage).await?;
    if revoke_open(&mut tx, tenant, None, Some(id)).await? == 0 {
        return Err(Error::not_found("invitation"));
    }
    activity::record_tenant(&mut tx, tenant, None, origin, "team.invitation_withdrawn", json!({ "invitation": id }))
        .await?;
    tx.commit().await?;
    Ok(())
}

/// What an invitation link offers, shown before it is accepted.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Offer {
    /// The team's (tenant's) name.
    pub team: String,
    pub email: String,
    pub role: Role,
    pub invited_by: Option<String>,
    pub expires_at: DateTime<Utc>,
}

/// What the link of `token` offers; 400 for a link that is not a live invitation.
pub async fn offer(pool: &PgPool, token: &str) -> Result<Offer, Error> {
    if !verify::well_formed(token) {
        return Err(verify::invalid_link());
    }
    let r = sqlx::query!(
        r#"SELECT t.name, i.email, i.role, v.expires_at, o.email AS "invited_by?"
             FROM team_invitations i
             JOIN email_verifications v ON v.token_hash = i.token_hash
             JOIN tenants t ON t.id = i.tenant_id
             LEFT JOIN owners o ON o.id = i.invited_by AND o.removed_at IS NULL
            WHERE i.token_hash = $1 AND v.used_at IS NULL AND v.expires_at > now()"#,
        verify::hash(token)
    )
    .fetch_optional(pool)
    .await?
    .ok_or_else(verify::invalid_link)?;
    Ok(Offer {
        team: r.name,
        email: r.email,
        role: role_of_row(&r.role),
        invited_by: r.invited_by,
        expires_at: r.expires_at,
    })
}

/// Accepts an invitation: the invited address becomes a member with the invitation's role
/// and `password` (its address proven by the link). 400 for a link that is not live, 409 when
/// the address signed up elsewhere meanwhile.
pub async fn join(
    pool: &PgPool,
    token: &str,
    password_plain: String,
    request_id: Option<&str>,
) -> Result<(OwnerView, TenantView), Error> {
    super::passwords::check_new("password", &password_plain)?;
    let hash = password::hash(password_plain).await?;
    let mut tx = pool.begin().await?;
    let link = verify::consume(&mut tx, token, Purpose::Invitation).await?.ok_or_else(verify::invalid_link)?;
    let invitation = sqlx::query!(
        "SELECT role, invited_by FROM team_invitations WHERE token_hash = $1 AND tenant_id = $2",
        verify::hash(token),
        link.tenant as _
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(verify::invalid_link)?;
    let role = role_of_row(&invitation.role);
    let owner = sqlx::query_as!(
        OwnerView,
        "INSERT INTO owners (id, tenant_id, email, password_hash, role, email_verified_at)
         VALUES ($1, $2, $3, $4, $5, now()) RETURNING id, email, evm_address, created_at",
        Uuid::now_v7(),
        link.tenant as _,
        link.address,
        hash,
        role.as_str()
    )
    .fetch_one(&mut *tx)
    .await;
    let owner = match owner {
        Err(sqlx::Error::Database(e)) if e.constraint() == Some("owners_email") => {
            return Err(Error::Conflict(format!(
                "{} signs in to a miniclaw account already; sign in there instead",
                link.address
            )));
        }
        other => other?,
    };
    let tenant =
        sqlx::query_as!(TenantView, "SELECT id, name, created_at FROM tenants WHERE id = $1", link.tenant as _)
            .fetch_one(&mut *tx)
            .await?;
    let origin = Origin::new(miniclaw_core::actor::Actor::Owner(owner.id), request_id.map(str::to_string));
    let details = json!({ "email": owner.email, "role": role, "invited_by": invitation.invited_by });
    activity::record_tenant(&mut tx, link.tenant, None, &origin, "team.joined", details).await?;
    tx.commit().await?;
    Ok((owner, tenant))
}

/// Whether an owner is left if `member` stops being one; 409 when none would be.
async fn keep_an_owner(tx: &mut PgConnection, tenant: TenantId, member: UserId) -> Result<(), Error> {
    super::accounts::lock_tenant(tx, tenant).await?;
    let others = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM owners WHERE tenant_id = $1 AND role = 'owner' AND removed_at IS NULL AND id <> $2"#,
        tenant as _,
        member as _
    )
    .fetch_one(&mut *tx)
    .await?;
    if others == 0 {
        return Err(Error::Conflict(
            "the team's last owner cannot leave or lose the role; make another member an owner first".into(),
        ));
    }
    Ok(())
}

/// Gives `member` the role `role` (admins and owners; only an owner makes or unmakes an owner;
/// the last owner keeps the role). 404 for someone who is not a member.
pub async fn set_role(
    pool: &PgPool,
    by: UserId,
    tenant: TenantId,
    origin: &Origin,
    member: UserId,
    role: Role,
) -> Result<Member, Error> {
    let mut tx = pool.begin().await?;
    let mine = require(&mut *tx, by, tenant, Need::Manage).await?;
    let theirs = role_of(&mut *tx, member, tenant).await?;
    if (theirs == Role::Owner || role == Role::Owner) && mine != Role::Owner {
        return Err(refused(mine, Need::Own));
    }
    if theirs == Role::Owner && role != Role::Owner {
        keep_an_owner(&mut tx, tenant, member).await?;
    }
    sqlx::query!(
        "UPDATE owners SET role = $3 WHERE id = $1 AND tenant_id = $2",
        member as _,
        tenant as _,
        role.as_str()
    )
    .execute(&mut *tx)
    .await?;
    let details = json!({ "member": member, "from": theirs, "to": role });
    activity::record_tenant(&mut tx, tenant, None, origin, "team.role_changed", details).await?;
    // Every process reads the member's role anew.
    super::auth::cache::announce(&mut tx, "clear".into()).await?;
    tx.commit().await?;
    team(pool, tenant, by).await?.members.into_iter().find(|m| m.id == member).ok_or_else(|| Error::not_found("member"))
}

/// Takes `member` out of the team: themselves (leaving, any role), or another (admins, and
/// owners for an owner). The last owner cannot go. Their sessions end; their row stays
/// without an address or password (the address is free for another account).
pub async fn remove(pool: &PgPool, by: UserId, tenant: TenantId, origin: &Origin, member: UserId) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    let theirs = role_of(&mut *tx, member, tenant).await?;
    if member != by {
        let mine = require(&mut *tx, by, tenant, Need::Manage).await?;
        if theirs == Role::Owner && mine != Role::Owner {
            return Err(refused(mine, Need::Own));
        }
    }
    if theirs == Role::Owner {
        keep_an_owner(&mut tx, tenant, member).await?;
    }
    let email = sqlx::query_scalar!(
        "UPDATE owners SET removed_at = now(), released_email = coalesce(email, released_email), email = NULL,
                email_released_at = coalesce(email_released_at, now()), password_hash = NULL, evm_address = NULL
          WHERE id = $1 AND tenant_id = $2 RETURNING released_email",
        member as _,
        tenant as _
    )
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query!(
        "UPDATE owner_sessions SET revoked_at = now() WHERE owner_id = $1 AND revoked_at IS NULL",
        member as _
    )
    .execute(&mut *tx)
    .await?;
    let action = if member == by { "team.left" } else { "team.removed" };
    activity::record_tenant(&mut tx, tenant, None, origin, action, json!({ "member": member, "email": email })).await?;
    super::auth::cache::announce(&mut tx, "clear".into()).await?;
    tx.commit().await?;
    Ok(())
}
