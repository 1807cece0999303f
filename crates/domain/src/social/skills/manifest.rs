//! The SKILL.md format (seed 000 §3.2, OpenClaw's): a YAML front matter between two `---` lines
//! (name, description, triggers, `metadata.openclaw` with requirements and install steps),
//! then the markdown instructions. Parsing keeps every problem with the line of the file it is
//! on and the field it is about, so an author can fix a file from the message alone.

use serde::{Deserialize, Serialize};
use serde_norway::Value;
use utoipa::ToSchema;

/// A parsed skill file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Manifest {
    /// The skill's slug: lower-case letters, digits, `-` and `_`, at most 64.
    pub name: String,
    pub description: String,
    /// `MAJOR.MINOR.PATCH`; `1.0.0` when the file does not say.
    pub version: String,
    /// Words or phrases that bring the instructions into a conversation.
    pub triggers: Vec<String>,
    pub emoji: Option<String>,
    pub requires: Requires,
    /// Operating systems the skill runs on (`linux`, `darwin`, `win32`); empty: any.
    pub os: Vec<String>,
    /// How an operator would meet the requirements (shown, never run by the platform).
    pub install: Vec<InstallStep>,
}

/// What a skill needs from the deployment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct Requires {
    /// Environment variables that must be set.
    pub env: Vec<String>,
    /// Programs that must all be on the PATH.
    pub bins: Vec<String>,
    /// Programs of which at least one must be on the PATH.
    #[serde(rename = "anyBins", alias = "any_bins")]
    pub any_bins: Vec<String>,
    /// OpenClaw configuration keys; this platform has none, so a skill that needs one is
    /// unavailable here.
    pub config: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InstallStep {
    /// `npm`, `brew`, `go`, `uv`, `download`, …
    #[serde(alias = "kind")]
    pub installer: String,
    #[serde(default, alias = "formula", alias = "module", alias = "url")]
    pub package: Option<String>,
    #[serde(default)]
    pub label: Option<String>,
}

/// A parsed file: its manifest and its instructions.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillFile {
    pub manifest: Manifest,
    pub body: String,
}

/// One thing wrong with a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Problem {
    /// 1-based line of the file.
    pub line: usize,
    /// The field, as a dotted path (`metadata.openclaw.requires.env`), when the problem is one.
    pub field: Option<String>,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "line {}: {field}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

pub const FILE_MAX: usize = 50_000;
pub const BODY_MAX: usize = 20_000;
pub const DESCRIPTION_MAX: usize = 500;
pub const TRIGGERS_MAX: usize = 20;

#[derive(Deserialize)]
struct RawFront {
    name: Option<Value>,
    description: Option<Value>,
    version: Option<Value>,
    triggers: Option<Value>,
    metadata: Option<RawMetadata>,
}

#[derive(Deserialize)]
struct RawMetadata {
    #[serde(default)]
    openclaw: Option<RawOpenclaw>,
}

#[derive(Deserialize)]
struct RawOpenclaw {
    #[serde(default)]
    emoji: Option<String>,
    #[serde(default)]
    requires: Requires,
    #[serde(default)]
    os: Vec<String>,
    #[serde(default)]
    install: Vec<InstallStep>,
}

/// Parses and validates a SKILL.md file; every problem found, each with its line.
pub fn parse(text: &str) -> Result<SkillFile, Vec<Problem>> {
    let at =
        |line: usize, field: Option<&str>, message: String| Problem { line, field: field.map(str::to_string), message };
    if text.len() > FILE_MAX {
        return Err(vec![at(1, None, format!("the file has {} bytes; the limit is {FILE_MAX}", text.len()))]);
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return Err(vec![at(1, None, "a SKILL.md starts with a `---` line that opens its YAML front matter".into())]);
    }
    let Some(close) = lines.iter().skip(1).position(|l| l.trim_end() == "---").map(|i| i + 1) else {
        return Err(vec![at(1, None, "the front matter opened on line 1 is never closed by a `---` line".into())]);
    };
    let front = lines[1..close].join("\n");
    // Front matter line n is file line n + 1.
    let line_of = |path: &[&str]| key_line(&front, path).map_or(1, |l| l + 1);
    let raw: RawFront = match serde_norway::from_str::<Option<RawFront>>(&front) {
        Ok(Some(raw)) => raw,
        Ok(None) => {
            return Err(vec![at(2, None, "the front matter is empty; it needs at least name and description".into())]);
        }
        Err(e) => {
            let (line, message) = yaml_problem(&e);
            let line = line.clamp(1, close.saturating_sub(1).max(1)) + 1;
            return Err(vec![at(line, None, format!("the front matter is not valid YAML: {message}"))]);
        }
    };
    let mut problems = Vec::new();
    let text_field = |v: &Option<Value>, field: &str, problems: &mut Vec<Problem>| -> Option<String> {
        match v {
            None | Some(Value::Null) => {
                problems.push(at(2, Some(field), format!("`{field}` is required")));
                None
            }
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
            Some(Value::Number(n)) if field == "version" => Some(n.to_string()),
            Some(_) => {
                problems.push(at(line_of(&[field]), Some(field), format!("`{field}` must be a non-empty string")));
                None
            }
        }
    };
    let name = text_field(&raw.name, "name", &mut problems);
    if let Some(n) = &name
        && !valid_slug(n)
    {
        problems.push(at(
            line_of(&["name"]),
            Some("name"),
            format!("`{n}` is not a skill name: use 1–64 lower-case letters, digits, `-` or `_`, starting with a letter or digit"),
        ));
    }
    let description = text_field(&raw.description, "description", &mut problems);
    if let Some(d) = &description
        && d.chars().count() > DESCRIPTION_MAX
    {
        problems.push(at(
            line_of(&["description"]),
            Some("description"),
            format!("at most {DESCRIPTION_MAX} characters"),
        ));
    }
    let version = match raw.version {
        None | Some(Value::Null) => Some("1.0.0".to_string()),
        v => text_field(&v, "version", &mut problems),
    };
    if let Some(v) = &version
        && semver(v).is_none()
    {
        problems.push(at(
            line_of(&["version"]),
            Some("version"),
            format!("`{v}` is not MAJOR.MINOR.PATCH, e.g. 1.2.0"),
        ));
    }
    let triggers = match &raw.triggers {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => s.split(',').map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect(),
        Some(Value::Sequence(items)) => {
            let mut out = Vec::new();
            for item in items {
                match item {
                    Value::String(s) if !s.trim().is_empty() && s.chars().count() <= 60 => {
                        out.push(s.trim().to_string())
                    }
                    _ => problems.push(at(
                        line_of(&["triggers"]),
                        Some("triggers"),
                        "each trigger is a word or phrase of 1–60 characters".into(),
                    )),
                }
            }
            out
        }
        Some(_) => {
            problems.push(at(
                line_of(&["triggers"]),
                Some("triggers"),
                "`triggers` is a list of words or phrases".into(),
            ));
            Vec::new()
        }
    };
    // A trigger fires on the messages that name it: one made of stop words or short letters
    // (`the`, `a`, `i`) would put the skill's text into nearly every turn.
    for t in &triggers {
        if !miniclaw_core::text::content_words(t).iter().any(|w| w.chars().count() >= 3) {
            problems.push(at(
                line_of(&["triggers"]),
                Some("triggers"),
                format!("the trigger `{t}` needs a word of at least three letters that is not a stop word"),
            ));
        }
    }
    if triggers.len() > TRIGGERS_MAX {
        problems.push(at(line_of(&["triggers"]), Some("triggers"), format!("at most {TRIGGERS_MAX} triggers")));
    }
    let oc = raw.metadata.and_then(|m| m.openclaw);
    let (emoji, requires, os, install) = match oc {
        Some(o) => (o.emoji, o.requires, o.os, o.install),
        None => (None, Requires::default(), Vec::new(), Vec::new()),
    };
    for env in &requires.env {
        if !env.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') || env.is_empty() {
            problems.push(at(
                line_of(&["metadata", "openclaw", "requires", "env"]),
                Some("metadata.openclaw.requires.env"),
                format!("`{env}` is not an environment variable name (A–Z, 0–9, _)"),
            ));
        }
    }
    for bin in requires.bins.iter().chain(&requires.any_bins) {
        if bin.is_empty() || bin.contains(['/', '\\']) || bin.chars().any(char::is_whitespace) {
            problems.push(at(
                line_of(&["metadata", "openclaw", "requires"]),
                Some("metadata.openclaw.requires.bins"),
                format!("`{bin}` is not a program name (no path, no spaces)"),
            ));
        }
    }
    let body = lines[close + 1..].join("\n").trim().to_string();
    if body.is_empty() {
        problems.push(at(close + 1, None, "the instructions (the markdown after the front matter) are empty".into()));
    } else if body.chars().count() > BODY_MAX {
        problems.push(at(close + 2, None, format!("the instructions are longer than {BODY_MAX} characters")));
    }
    if !problems.is_empty() {
        problems.sort_by_key(|p| p.line);
        return Err(problems);
    }
    let manifest = Manifest {
        name: name.unwrap_or_default(),
        description: description.unwrap_or_default(),
        version: version.unwrap_or_default(),
        triggers,
        emoji,
        requires,
        os,
        install,
    };
    Ok(SkillFile { manifest, body })
}

/// The line (of the front matter) and message of a YAML error, without the locations the
/// parser writes into its message (the file's own line is given instead). When the parser names
/// the construct it was inside ("while parsing a flow sequence at line 3"), that construct's
/// line is where the author has to look, so it is the line given.
fn yaml_problem(e: &serde_norway::Error) -> (usize, String) {
    let s = e.to_string();
    let strip = |t: &str| t.find(" at line ").map_or(t, |i| &t[..i]).to_string();
    let line_in = |t: &str| t.rsplit_once(" at line ")?.1.split_whitespace().next()?.parse::<usize>().ok();
    if let Some((main, inside)) = s.split_once(", while parsing ")
        && let Some(line) = line_in(inside)
    {
        return (line, format!("{} (in {} that starts on this line)", strip(main), strip(inside)));
    }
    (e.location().map_or(1, |l| l.line()), strip(&s))
}

pub fn valid_slug(s: &str) -> bool {
    let mut chars = s.chars();
    s.len() <= 64
        && chars.next().is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// `MAJOR.MINOR.PATCH` as numbers, for ordering versions.
pub fn semver(v: &str) -> Option<(u64, u64, u64)> {
    let mut parts = v.split('.').map(|p| if p.is_empty() || p.len() > 9 { None } else { p.parse::<u64>().ok() });
    let out = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(out)
}

/// The 1-based line (of `front`) where the key at `path` is, following indentation; the line
/// of the deepest key found when the path ends earlier (a flow mapping holds the rest).
fn key_line(front: &str, path: &[&str]) -> Option<usize> {
    let mut found = None;
    let mut depth = 0;
    let mut parent_indent: Option<usize> = None;
    for (i, line) in front.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if parent_indent.is_some_and(|p| indent <= p) && depth > 0 {
            // Left the mapping we were inside without finding the next key.
            return found;
        }
        let key = trimmed.split(':').next().unwrap_or("").trim().trim_matches(['"', '\'']);
        if depth < path.len() && key == path[depth] && trimmed.contains(':') {
            found = Some(i + 1);
            depth += 1;
            parent_indent = Some(indent);
            if depth == path.len() {
                return found;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = "---
name: web_search
description: Search the web using Brave Search API
triggers: [search, look up, find online, google]
metadata:
  openclaw:
    emoji: \"🔍\"
    requires:
      env: [BRAVE_SEARCH_API_KEY]
    install:
      - installer: npm
        package: \"@anthropic-ai/brave-search\"
---
# Web search

When the user asks to look something up, search first and cite what you found.
";

    #[test]
    fn the_seed_format_parses() {
        let f = parse(SEED).unwrap();
        let m = &f.manifest;
        assert_eq!(m.name, "web_search");
        assert_eq!(m.version, "1.0.0");
        assert_eq!(m.triggers, ["search", "look up", "find online", "google"]);
        assert_eq!(m.emoji.as_deref(), Some("🔍"));
        assert_eq!(m.requires.env, ["BRAVE_SEARCH_API_KEY"]);
        assert_eq!(m.install[0].installer, "npm");
        assert_eq!(m.install[0].package.as_deref(), Some("@anthropic-ai/brave-search"));
        assert!(f.body.starts_with("# Web search"));
    }

    #[test]
    fn openclaw_inline_json_metadata_parses() {
        let text = "---\nname: gh\ndescription: GitHub from the command line\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"gh\"]}, \"os\": [\"linux\", \"darwin\"], \"install\": [{\"id\": \"brew\", \"kind\": \"brew\", \"formula\": \"gh\"}]}}\n---\nUse gh.\n";
        let m = parse(text).unwrap().manifest;
        assert_eq!(m.requires.bins, ["gh"]);
        assert_eq!(m.os, ["linux", "darwin"]);
        assert_eq!((m.install[0].installer.as_str(), m.install[0].package.as_deref()), ("brew", Some("gh")));
    }

    fn problems(text: &str) -> Vec<String> {
        parse(text).unwrap_err().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn triggers_that_would_fire_on_every_message_are_refused() {
        let p =
            problems("---\nname: everywhere\ndescription: fine\ntriggers: [the, a, i, to do, look up]\n---\nbody\n");
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p[0].contains("`the` needs a word of at least three letters"), "{p:?}");
        assert!(parse("---\nname: ok\ndescription: fine\ntriggers: [look up, umbrella]\n---\nbody\n").is_ok());
    }

    #[test]
    fn malformed_files_name_the_line_and_field() {
        assert_eq!(
            problems("# no front matter\n"),
            ["line 1: a SKILL.md starts with a `---` line that opens its YAML front matter"]
        );
        assert_eq!(
            problems("---\nname: x\n"),
            ["line 1: the front matter opened on line 1 is never closed by a `---` line"]
        );
        // YAML syntax: the unclosed flow sequence is reported on its own line of the file.
        let p = problems("---\nname: ok\ndescription: fine\ntriggers: [a, b\n---\nbody\n");
        assert_eq!(p.len(), 1);
        assert_eq!(
            p,
            [
                "line 4: the front matter is not valid YAML: did not find expected ',' or ']' (in a flow sequence that starts on this line)"
            ]
        );
        let p = problems("---\nname: ok\ndescription: a: b\n---\nbody\n");
        assert_eq!(p, ["line 3: the front matter is not valid YAML: mapping values are not allowed in this context"]);
        let p = problems("---\ndescription: fine\nname: Not A Slug\nversion: two\n---\nbody\n");
        assert_eq!(
            p,
            [
                "line 3: name: `Not A Slug` is not a skill name: use 1–64 lower-case letters, digits, `-` or `_`, starting with a letter or digit",
                "line 4: version: `two` is not MAJOR.MINOR.PATCH, e.g. 1.2.0",
            ]
        );
        let p = problems("---\nname: x\n---\nbody\n");
        assert_eq!(p, ["line 2: description: `description` is required"]);
        let p = problems(
            "---\nname: x\ndescription: d\nmetadata:\n  openclaw:\n    requires:\n      env: [lower_case]\n---\nbody\n",
        );
        assert_eq!(
            p,
            ["line 7: metadata.openclaw.requires.env: `lower_case` is not an environment variable name (A–Z, 0–9, _)"]
        );
        let p = problems("---\nname: x\ndescription: d\n---\n\n");
        assert_eq!(p, ["line 4: the instructions (the markdown after the front matter) are empty"]);
        // A wrongly typed nested field is a YAML error with its line.
        let p = problems("---\nname: x\ndescription: d\nmetadata:\n  openclaw:\n    os: linux\n---\nbody\n");
        assert!(p[0].starts_with("line 6:") || p[0].starts_with("line 5:"), "{p:?}");
    }

    #[test]
    fn versions_order_as_numbers() {
        assert!(semver("1.10.0") > semver("1.9.3"));
        assert_eq!(semver("1.2"), None);
        assert_eq!(semver("1.2.3.4"), None);
        assert_eq!(semver("v1.2.3"), None);
    }
}
