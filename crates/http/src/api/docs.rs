//! The human-readable API reference, rendered on the server from the same OpenAPI document as
//! `/openapi.json`, with local styles only (it works with no internet): `/docs` is the index
//! (every operation, grouped by area, each linking to its area's page), `/docs/{area}` one
//! area's operations with the types they use as tables of fields. Descriptions are Markdown
//! (code spans, emphasis, links, paragraphs), rendered here.

use askama::Template;
use axum::Router;
use axum::response::Html;
use axum::routing::get;
use serde_json::Value;

use crate::app::AppState;
use crate::error::ApiError;
use crate::markdown::{markdown, markdown_line};

pub fn routes() -> Router<AppState> {
    Router::new().route("/docs", get(index)).route("/docs/{area}", get(area))
}

#[derive(Template)]
#[template(path = "api_reference.html")]
struct Index {
    title: String,
    version: String,
    description: String,
    groups: Vec<Group>,
}

#[derive(Template)]
#[template(path = "api_area.html")]
struct AreaPage {
    title: String,
    groups: Vec<Group>,
    group: Group,
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

/// A type: its fields as a table, or (enumerations, unions) its JSON Schema.
struct SchemaView {
    name: String,
    description: String,
    fields: Vec<Field>,
    /// The types whose fields it has too.
    extends: Vec<String>,
    /// The values an enumeration takes.
    variants: Vec<String>,
    json: Option<String>,
}

struct Field {
    name: String,
    kind: String,
    /// The type's own schema when it names one (a link).
    link: Option<String>,
    required: bool,
    description: String,
}

async fn index() -> Result<Html<String>, ApiError> {
    let doc = serde_json::to_value(super::openapi()).map_err(anyhow::Error::from)?;
    let built = build(&doc);
    let page =
        Index { title: built.title, version: built.version, description: built.description, groups: built.groups };
    Ok(Html(page.render().map_err(anyhow::Error::from)?))
}

async fn area(axum::extract::Path(area): axum::extract::Path<String>) -> Result<Html<String>, ApiError> {
    let doc = serde_json::to_value(super::openapi()).map_err(anyhow::Error::from)?;
    let mut built = build(&doc);
    let Some(at) = built.groups.iter().position(|g| g.name == area) else {
        return Err(ApiError::not_found("API area"));
    };
    let group = built.groups.remove(at);
    let schemas = schemas_of(&doc, &group);
    let page = AreaPage { title: built.title, groups: built.groups, group, schemas };
    Ok(Html(page.render().map_err(anyhow::Error::from)?))
}

/// The types an area's operations use, and the types those use, by name.
fn schemas_of(doc: &Value, group: &Group) -> Vec<SchemaView> {
    let all = &doc["components"]["schemas"];
    let mut todo: Vec<String> = group
        .operations
        .iter()
        .flat_map(|op| op.request.iter().chain(op.responses.iter().filter_map(|r| r.schema.as_ref())))
        .map(|n| n.trim_matches(['[', ']']).to_string())
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    while let Some(name) = todo.pop() {
        if all.get(&name).is_none() || !seen.insert(name.clone()) {
            continue;
        }
        collect_refs(&all[&name], &mut todo);
    }
    seen.into_iter().map(|name| schema_view(&name, &all[&name])).collect()
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                out.push(r.rsplit('/').next().unwrap_or(r).to_string());
            }
            m.values().for_each(|x| collect_refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}

fn schema_view(name: &str, s: &Value) -> SchemaView {
    // A type made of others (`allOf`): their fields by link, its own as rows.
    let parts: Vec<&Value> = match s["allOf"].as_array() {
        Some(all) => all.iter().collect(),
        None => vec![s],
    };
    let extends: Vec<String> = parts
        .iter()
        .filter_map(|p| p.get("$ref").and_then(Value::as_str))
        .map(|r| r.rsplit('/').next().unwrap_or(r).to_string())
        .collect();
    let fields: Vec<Field> = parts.iter().flat_map(|part| fields_of(part)).collect();
    let variants: Vec<String> = s["enum"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
        .collect();
    let json = (fields.is_empty() && extends.is_empty() && variants.is_empty()).then(|| {
        let mut bare = s.clone();
        if let Some(o) = bare.as_object_mut() {
            o.remove("description");
        }
        serde_json::to_string_pretty(&bare).unwrap_or_default()
    });
    SchemaView {
        name: name.to_string(),
        description: markdown(&text(s, "description")),
        fields,
        extends,
        variants,
        json,
    }
}

fn fields_of(s: &Value) -> Vec<Field> {
    let required: Vec<&str> = s["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    s["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(field, p)| {
            let inner = p.get("items").unwrap_or(p);
            let link = inner
                .get("$ref")
                .or_else(|| inner["oneOf"].as_array().and_then(|o| o.iter().find_map(|x| x.get("$ref"))))
                .and_then(Value::as_str)
                .map(|r| r.rsplit('/').next().unwrap_or(r).to_string());
            let kind = match (&link, p.get("items")) {
                (Some(l), Some(_)) => format!("[{l}]"),
                (Some(l), None) => l.clone(),
                _ => schema_name(p),
            };
            Field {
                name: field.clone(),
                kind,
                link,
                required: required.contains(&field.as_str()),
                description: markdown(&text(p, "description")),
            }
        })
        .collect()
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

/// The document's areas and operations (descriptions rendered).
struct Built {
    title: String,
    version: String,
    description: String,
    groups: Vec<Group>,
}

fn build(doc: &Value) -> Built {
    let info = &doc["info"];
    let mut groups: Vec<Group> = doc["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| Group {
            name: text(t, "name"),
            description: markdown(&text(t, "description")),
            operations: Vec::new(),
        })
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
                    description: markdown(&text(p, "description")),
                })
                .collect();
            let responses = op["responses"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(status, r)| ResponseView {
                    status: status.clone(),
                    description: markdown(&text(r, "description")),
                    schema: body_schema(r.get("content")),
                })
                .collect();
            let summary = markdown_line(&text(op, "summary"));
            let operation = Operation {
                anchor: format!("{method}-{}", path.replace(['/', '{', '}'], "-")),
                method: method.to_uppercase(),
                path: path.clone(),
                description: markdown(&text(op, "description")),
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
    Built {
        title: text(info, "title"),
        version: text(info, "version"),
        description: markdown(&text(info, "description")),
        groups,
    }
}
