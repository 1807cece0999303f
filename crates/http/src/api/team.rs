//! The team (SPEC H4): members and their roles, invitations by mailed link, joining and leaving.

use axum::extract::{FromRequestParts, Path, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::Response;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use super::auth::SessionResponse;
use super::extract::{Json, Query};
use crate::app::AppState;
use crate::auth::SignInDevice;
use crate::error::{ApiError, ApiResult, ErrorBody};
use miniclaw_core::Error;
use miniclaw_core::ids::UserId;
use miniclaw_domain::tenancy::auth::Owner;
use miniclaw_domain::tenancy::team::{self, Invitation, Member, Offer, Role, Team};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_team))
        .routes(routes!(invite_member))
        .routes(routes!(withdraw_invitation))
        .routes(routes!(invitation_offer, join_team))
        .routes(routes!(set_member_role, remove_member))
        .routes(routes!(leave_team))
}

/// A member of the caller's team named by the path's `{member}`: anyone else (another team's
/// member, an id that is no one's) is a 404 before the body is read.
struct TeamMember {
    owner: Owner,
    member: UserId,
}

impl FromRequestParts<AppState> for TeamMember {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let owner = Owner::from_request_parts(parts, state).await?;
        let Path(member) = Path::<UserId>::from_request_parts(parts, state).await.map_err(|_| Error::Invalid {
            code: "invalid_path",
            message: "`member` is a member id (a UUID)".into(),
            details: None,
        })?;
        team::role_of(state.pool(), member, owner.tenant_id).await?;
        Ok(TeamMember { owner, member })
    }
}

/// The team: its members with their roles, and the invitations still open. Any member may look.
#[utoipa::path(get, path = "/v1/team", tag = "team", security(("owner_session" = [])),
    responses((status = 200, body = Team), (status = 401, body = ErrorBody)))]
async fn get_team(State(state): State<AppState>, owner: Owner) -> ApiResult<Json<Team>> {
    Ok(Json(team::team(state.pool(), owner.tenant_id, owner.owner_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InvitationRequest {
    pub email: String,
    /// The role the invitation grants (only an owner may invite an owner).
    pub role: Role,
}

/// Mails an invitation to join the team (admins and owners). The link is valid a week, once;
/// a new invitation to the same address replaces the open one. 409 when the address signs in
/// to an account already; 503 when the platform sends no mail.
#[utoipa::path(post, path = "/v1/team/invitations", tag = "team", request_body = InvitationRequest,
    security(("owner_session" = [])),
    responses((status = 201, body = Invitation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 503, body = ErrorBody)))]
async fn invite_member(
    State(state): State<AppState>,
    owner: Owner,
    Json(req): Json<InvitationRequest>,
) -> ApiResult<(StatusCode, Json<Invitation>)> {
    let origin = owner.origin();
    let invitation = team::invite(state.deps(), owner.owner_id, owner.tenant_id, &origin, &req.email, req.role).await?;
    Ok((StatusCode::CREATED, Json(invitation)))
}

/// Withdraws an open invitation (its link stops working).
#[utoipa::path(delete, path = "/v1/team/invitations/{invitation}", tag = "team",
    params(("invitation" = Uuid, Path)), security(("owner_session" = [])),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn withdraw_invitation(
    State(state): State<AppState>,
    owner: Owner,
    Path(id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    team::withdraw(state.pool(), owner.owner_id, owner.tenant_id, &owner.origin(), id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OfferQuery {
    /// The `token` of the mailed link.
    pub token: String,
}

/// What an invitation link offers (the team, the address, the role), before it is accepted.
/// 400 for a link that is used, expired or mistyped.
#[utoipa::path(get, path = "/v1/team/join", tag = "team", params(OfferQuery),
    responses((status = 200, body = Offer), (status = 400, body = ErrorBody)))]
async fn invitation_offer(State(state): State<AppState>, Query(q): Query<OfferQuery>) -> ApiResult<Json<Offer>> {
    Ok(Json(team::offer(state.pool(), &q.token).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The `token` of the mailed link.
    pub token: String,
    /// The new member's password, 12–128 characters.
    pub password: String,
}

/// Accepts an invitation: the invited address becomes a member with the invitation's role and
/// this password, and is signed in. 400 for a link that is used, expired or mistyped; 409 when
/// the address signs in to another account.
#[utoipa::path(post, path = "/v1/team/join", tag = "team", request_body = JoinRequest,
    responses((status = 201, body = SessionResponse, description = "Joined; session cookies set"),
        (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn join_team(
    State(state): State<AppState>,
    SignInDevice(device): SignInDevice,
    Json(req): Json<JoinRequest>,
) -> ApiResult<Response> {
    let (member, tenant) = team::join(state.pool(), &req.token, req.password, device.request_id.as_deref()).await?;
    super::auth::signed_in(&state, StatusCode::CREATED, member, tenant, "invitation", &device).await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoleChange {
    pub role: Role,
}

/// Gives a member another role (admins and owners; only an owner makes or unmakes an owner).
/// 409 when the team would be left without one.
#[utoipa::path(patch, path = "/v1/team/members/{member}", tag = "team", request_body = RoleChange,
    params(("member" = Uuid, Path)), security(("owner_session" = [])),
    responses((status = 200, body = Member), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn set_member_role(
    State(state): State<AppState>,
    TeamMember { owner, member }: TeamMember,
    Json(req): Json<RoleChange>,
) -> ApiResult<Json<Member>> {
    let origin = owner.origin();
    Ok(Json(team::set_role(state.pool(), owner.owner_id, owner.tenant_id, &origin, member, req.role).await?))
}

/// Takes a member out of the team (admins, and owners for an owner): their sessions end and
/// their address is free; the activity still names them. 409 for the last owner.
#[utoipa::path(delete, path = "/v1/team/members/{member}", tag = "team",
    params(("member" = Uuid, Path)), security(("owner_session" = [])),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn remove_member(
    State(state): State<AppState>,
    TeamMember { owner, member }: TeamMember,
) -> ApiResult<StatusCode> {
    team::remove(state.pool(), owner.owner_id, owner.tenant_id, &owner.origin(), member).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Leaves the team (any member but the last owner): every session of the member ends.
#[utoipa::path(post, path = "/v1/team/leave", tag = "team", security(("owner_session" = [])),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn leave_team(State(state): State<AppState>, owner: Owner) -> ApiResult<StatusCode> {
    team::remove(state.pool(), owner.owner_id, owner.tenant_id, &owner.origin(), owner.owner_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
