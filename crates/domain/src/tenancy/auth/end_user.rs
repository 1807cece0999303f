//! End users of a miniapp (hardening, finding 4): one agent, many people chatting with it
//! through a miniapp. A request names the person it acts for with the `X-Miniclaw-User` header
//! (or the `user` field of the OpenAI format); a key may be bound to one end user for good.
//! Conversations remember the end user they were started for, and a key sees only the
//! conversations of the end user it acts for.

use miniclaw_core::Error;

/// The header that names the end user a request acts for.
pub const HEADER: &str = "x-miniclaw-user";
/// The longest end-user id, in characters.
pub const MAX_CHARS: usize = 128;

/// Checks an end-user id: 1–128 characters, no control characters; surrounding whitespace is
/// dropped. `field` names where it came from in the error.
pub fn parse(field: &str, raw: &str) -> Result<String, Error> {
    let id = raw.trim();
    if id.is_empty() {
        return Err(Error::validation(field, format!("`{field}` must not be empty")));
    }
    Error::check_length(field, id, MAX_CHARS)?;
    if id.chars().any(char::is_control) {
        return Err(Error::validation(field, format!("`{field}` must not contain control characters")));
    }
    Ok(id.to_string())
}

/// Combines who a request acts for so far (`current`, from a key's binding or the header)
/// with another naming of it (`named`, e.g. the OpenAI `user`). A key bound to an end user
/// acts for that user only: naming another is 403. Two different names in one request are a
/// client mistake (400).
pub fn combine(
    current: Option<String>,
    bound: bool,
    named: Option<String>,
    field: &str,
) -> Result<Option<String>, Error> {
    match (current, named) {
        (Some(c), Some(n)) if c != n => Err(if bound {
            Error::Refused {
                code: "end_user_mismatch",
                message: "this key is bound to one end user; the request names another".into(),
            }
        } else {
            Error::validation(field, format!("`{field}` names another end user than X-Miniclaw-User"))
        }),
        (c, n) => Ok(c.or(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_user_ids_are_checked_and_bindings_hold() {
        assert_eq!(parse("user", "  alice-42 ").unwrap(), "alice-42");
        assert_eq!(parse("user", "").unwrap_err().code(), "validation_failed");
        assert_eq!(parse("user", "a\nb").unwrap_err().code(), "validation_failed");
        assert_eq!(parse("user", &"x".repeat(129)).unwrap_err().code(), "too_long");
        let a = || Some("alice".to_string());
        let b = || Some("bob".to_string());
        assert_eq!(combine(a(), true, a(), "user").unwrap(), a());
        assert_eq!(combine(None, false, b(), "user").unwrap(), b());
        assert_eq!(combine(a(), false, None, "user").unwrap(), a());
        assert_eq!(combine(a(), true, b(), "user").unwrap_err().code(), "end_user_mismatch");
        assert_eq!(combine(a(), false, b(), "user").unwrap_err().code(), "validation_failed");
    }
}
