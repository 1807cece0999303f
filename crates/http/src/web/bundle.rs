//! Export and import in the dashboard: the settings page offers the agent as a download
//! (`miniclaw.agent` bundle or Letta Agent File), and the import page makes an agent from an
//! uploaded file (a multipart form carrying the session's CSRF token).

use askama::Template;
use axum::extract::{FromRequest, Multipart, Query, Request, State};
use axum::response::Response;
use serde::Deserialize;

use super::extract::{WebAgent, WebOwner};
use super::pages::*;
use crate::api::bundle::{ExportFormat, export_response, import_bytes};
use crate::app::AppState;
use miniclaw_domain::bundle::Imported;

#[derive(Deserialize)]
pub struct ExportForm {
    #[serde(default)]
    format: ExportFormat,
    /// A checkbox: present (`on`) when ticked.
    conversations: Option<String>,
}

/// The download the settings page's "Export" form asks for.
pub async fn export(
    State(state): State<AppState>,
    WebAgent { owner: web, agent }: WebAgent,
    Query(f): Query<ExportForm>,
) -> PageResult {
    export_response(&state, web.owner.tenant_id, agent.id, f.format, f.conversations.is_some())
        .await
        .map_err(|e| api_error(e.0))
}

#[derive(Template)]
#[template(path = "web/agent_import.html")]
struct ImportPage {
    csrf: String,
    error: Option<String>,
    imported: Option<Imported>,
}

pub async fn show(web: WebOwner) -> Response {
    render(ImportPage { csrf: web.csrf, error: None, imported: None })
}

/// The upload: the `csrf` field checked, then the `file` field imported. A post that is not a
/// multipart form cannot carry the token, and is refused as any form without it.
pub async fn upload(State(state): State<AppState>, web: WebOwner, request: Request) -> PageResult {
    let Ok(mut form) = Multipart::from_request(request, &state).await else {
        return Err(forbidden_csrf());
    };
    let mut csrf = None;
    let mut file = None;
    loop {
        let field = match form.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return Ok(page(web.csrf, Some(format!("The upload could not be read: {e}")), None)),
        };
        match field.name() {
            Some("csrf") => csrf = field.text().await.ok(),
            Some("file") => match field.bytes().await {
                Ok(b) => file = Some(b),
                Err(e) => return Ok(page(web.csrf, Some(format!("The file could not be read: {e}")), None)),
            },
            _ => {}
        }
    }
    if !csrf.is_some_and(|t| state.session_keys().csrf_ok(web.owner.session_id, &t)) {
        return Err(forbidden_csrf());
    }
    let Some(file) = file.filter(|f| !f.is_empty()) else {
        return Ok(page(web.csrf, Some("Choose a file to import.".into()), None));
    };
    match import_bytes(&state, &web.owner, &file).await {
        Ok(imported) => Ok(page(web.csrf, None, Some(imported))),
        Err(e) => Ok(page(web.csrf, Some(shown(e.0)?), None)),
    }
}

fn page(csrf: String, error: Option<String>, imported: Option<Imported>) -> Response {
    render(ImportPage { csrf, error, imported })
}
