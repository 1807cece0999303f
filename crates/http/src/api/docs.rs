//! The human-readable API reference at `/docs`, rendered on the server from the same OpenAPI
//! document as `/openapi.json`, with local styles only (it works with no internet).

use askama::Template;
use axum::Router;
use axum::response::Html;
use axum::routing::get;
use serde_json::Value;

use crate::app::AppState;
use crate::error::ApiError;

pub fn routes() -> Router<AppState> {
    Router::new().route("/docs", get(reference))
}

#[derive(Template)]
#[template(path = "api_reference.html")]
struct Reference {
    title: String,
    version: String,
    description: String,
    groups: Vec<Group>,
    schemas: Vec<SchemaView>,
}

struct Group {
    name: String,
    description: String,
    operations: Vec<Operation>,
}

struct Operation {
    anchor: String,
    method: String,
    path: String,
    summary: String,
    description: String,
    auth: String,
    params: Vec<Param>,
    request: Option<String>,
    responses: Vec<ResponseView>,
}

struct Param {
    name: String,
    location: String,
    required: bool,
    kind: String,
    description: String,
}

struct ResponseView {
    status: String,
    description: String,
    schema: Option<String>,
}

struct SchemaView {
    name: String,
    json: String,
}

async fn reference() -> Result<Html<String>, ApiError> {
    let doc = serde_json::to_value(super::openapi()).map_err(anyhow::Error::from)?;
    let page = build(&doc);
    Ok(Html(page.render().map_err(anyhow::Error::from)?))
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

/// `#/components/schemas/Job` → `Job`; arrays as `[Job]`; inline types by their `type`.
fn schema_name(schema: &Value) -> String {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_string();
    }
    if let Some(items) = schema.get("items") {
        return format!("[{}]", schema_name(items));
    }
    match schema.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" | "),
        _ => "object".into(),
    }
}

fn body_schema(content: Option<&Value>) -> Option<String> {
    let content = content?.as_object()?;
    let (ctype, media) = content.iter().next()?;
    Some(match media.get("schema") {
        Some(s) => schema_name(s),
        None => ctype.clone(),
    })
}

fn build(doc: &Value) -> Reference {
    let info = &doc["info"];
    let mut groups: Vec<Group> = doc["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| Group { name: text(t, "name"), description: text(t, "description"), operations: Vec::new() })
        .collect();

    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            let tag = op["tags"].get(0).and_then(Value::as_str).unwrap_or("other").to_string();
            let auth = op["security"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s.as_object()?.keys().next().cloned())
                .collect::<Vec<_>>()
                .join(", ");
            let params = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| Param {
                    name: text(p, "name"),
                    location: text(p, "in"),
                    required: p["required"].as_bool().unwrap_or(false),
                    kind: p.get("schema").map(schema_name).unwrap_or_default(),
                    description: text(p, "description"),
                })
                .collect();
            let responses = op["responses"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(status, r)| ResponseView {
                    status: status.clone(),
                    description: text(r, "description"),
                    schema: body_schema(r.get("content")),
                })
                .collect();
            let summary = text(op, "summary");
            let operation = Operation {
                anchor: format!("{method}-{}", path.replace(['/', '{', '}'], "-")),
                method: method.to_uppercase(),
                path: path.clone(),
                description: text(op, "description"),
                summary,
                auth,
                params,
                request: body_schema(op["requestBody"].get("content")),
                responses,
            };
            match groups.iter_mut().find(|g| g.name == tag) {
                Some(g) => g.operations.push(operation),
                None => groups.push(Group { name: tag, description: String::new(), operations: vec![operation] }),
            }
        }
    }
    groups.retain(|g| !g.operations.is_empty());

    let schemas = doc["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, s)| SchemaView { name: name.clone(), json: serde_json::to_string_pretty(s).unwrap_or_default() })
        .collect();

    Reference {
        title: text(info, "title"),
        version: text(info, "version"),
        description: text(info, "description"),
        groups,
        schemas,
    }
}
