//! How one variable is read and checked: every problem names its variable (`ConfigError`),
//! booleans and numbers are parsed with their allowed range, URLs by their scheme.

/// A configuration problem, always tied to the variable that caused it.
#[derive(Debug, thiserror::Error)]
#[error("invalid configuration: {var}: {message}")]
pub struct ConfigError {
    pub var: &'static str,
    pub message: String,
}

pub(super) fn bad(var: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError { var, message: message.into() }
}

pub(super) fn check_pg_url(var: &'static str, v: &str) -> Result<(), ConfigError> {
    let parsed = url::Url::parse(v).map_err(|_| bad(var, "is not a URL such as postgres://user@host:5432/db"))?;
    if !matches!(parsed.scheme(), "postgres" | "postgresql") {
        return Err(bad(var, "scheme must be postgres or postgresql"));
    }
    Ok(())
}

pub(super) fn check_http_url(var: &'static str, v: &str) -> Result<(), ConfigError> {
    let parsed = url::Url::parse(v).map_err(|_| bad(var, format!("`{v}` is not a URL")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(bad(var, "scheme must be http or https"));
    }
    Ok(())
}

pub(super) fn parse_bool(
    get: &impl Fn(&str) -> Option<String>,
    var: &'static str,
    default: bool,
) -> Result<bool, ConfigError> {
    match get(var).map(|v| v.to_ascii_lowercase()).as_deref() {
        None => Ok(default),
        Some("1" | "true" | "yes" | "on") => Ok(true),
        Some("0" | "false" | "no" | "off") => Ok(false),
        Some(other) => Err(bad(var, format!("`{other}` is not a boolean (true/false)"))),
    }
}

pub(super) fn parse_num<T>(
    get: &impl Fn(&str) -> Option<String>,
    var: &'static str,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, ConfigError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let Some(raw) = get(var) else { return Ok(default) };
    let v: T = raw.parse().map_err(|_| bad(var, format!("`{raw}` is not a number")))?;
    if !range.contains(&v) {
        return Err(bad(var, format!("{v} is outside {}..={}", range.start(), range.end())));
    }
    Ok(v)
}

/// A dollar cap that can be turned off: a number in `0..=max` (default `default`), where `0`
/// or `off` means no cap (`None`).
pub(super) fn parse_cap(
    get: &impl Fn(&str) -> Option<String>,
    var: &'static str,
    default: f64,
    max: f64,
) -> Result<Option<f64>, ConfigError> {
    if get(var).is_some_and(|v| v.eq_ignore_ascii_case("off")) {
        return Ok(None);
    }
    Ok(Some(parse_num(get, var, default, 0.0..=max)?).filter(|usd| *usd > 0.0))
}
