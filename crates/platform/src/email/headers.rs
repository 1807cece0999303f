//! What goes into an email's header fields, checked before anything is queued or sent: no
//! field may carry a CR or LF (or any other control character), so no value can end its field
//! and start another (`Subject: hi\r\nBcc: …`). Addresses are checked for shape; Message-IDs
//! are generated here; subjects are normalised for threading. Pure functions.

use uuid::Uuid;

/// The longest subject accepted (RFC 5322 recommends lines under 78 characters; a longer
/// subject is folded by the transport, but anything past this is a mistake).
pub const SUBJECT_MAX: usize = 200;
/// The longest display name accepted.
pub const NAME_MAX: usize = 100;

/// Refuses a header value holding CR, LF or another control character (tab excepted), or
/// longer than `SUBJECT_MAX` characters. The message names the field.
pub fn field(name: &str, value: &str) -> Result<(), String> {
    if value.chars().any(|c| c == '\r' || c == '\n') {
        return Err(format!("{name} must be one line: line breaks (CR/LF) are not allowed in an email header"));
    }
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(format!("{name} must not contain control characters"));
    }
    if value.chars().count() > SUBJECT_MAX {
        return Err(format!("{name} must be at most {SUBJECT_MAX} characters"));
    }
    Ok(())
}

/// Checks an email address: one `local@domain`, no spaces, no angle brackets or quotes, a
/// domain with a dot (or `localhost`), at most 254 characters. Returns it lower-cased.
pub fn address(value: &str) -> Result<String, String> {
    field("address", value)?;
    let v = value.trim();
    if v.len() > 254 {
        return Err("an email address has at most 254 characters".into());
    }
    let Some((local, domain)) = v.rsplit_once('@') else {
        return Err(format!("`{v}` is not an email address (local@domain)"));
    };
    let bad_char =
        |c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | ',' | ';' | '(' | ')' | '[' | ']' | '\\');
    if local.is_empty() || local.len() > 64 || local.chars().any(bad_char) || local.contains('@') {
        return Err(format!("`{v}` is not an email address (local@domain)"));
    }
    let labels_ok = domain
        .split('.')
        .all(|l| !l.is_empty() && l.len() <= 63 && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    if !labels_ok || !(domain.contains('.') || domain.eq_ignore_ascii_case("localhost")) {
        return Err(format!("`{v}` has no valid domain"));
    }
    Ok(v.to_ascii_lowercase())
}

/// Checks a display name: one line, no control characters, at most `NAME_MAX` characters.
pub fn name(field_name: &str, value: &str) -> Result<(), String> {
    field(field_name, value)?;
    if value.chars().count() > NAME_MAX {
        return Err(format!("{field_name} must be at most {NAME_MAX} characters"));
    }
    Ok(())
}

/// A new Message-ID (without angle brackets) under the sender's domain.
pub fn message_id(from_address: &str) -> String {
    let domain = from_address.rsplit_once('@').map(|(_, d)| d).unwrap_or("miniclaw.localhost");
    format!("{}@{}", Uuid::now_v7().simple(), domain)
}

/// A Message-ID as written in a header, without its angle brackets and spaces.
pub fn bare_id(raw: &str) -> String {
    raw.trim().trim_start_matches('<').trim_end_matches('>').trim().to_string()
}

/// The Message-IDs of an `In-Reply-To` or `References` header (`<a@x> <b@y>`), in order.
pub fn ids_of(header: &str) -> Vec<String> {
    header.split(|c: char| c.is_whitespace() || c == ',').map(bare_id).filter(|id| !id.is_empty()).collect()
}

/// The subject of a reply: `Re: ` once, however often the thread went back and forth.
pub fn reply_subject(subject: &str) -> String {
    format!("Re: {}", normalise_subject(subject))
}

/// A subject without its reply and forward prefixes (`Re:`, `RE:`, `Fwd:`, `Fw:`, `AW:`,
/// `WG:`, repeated or bracketed counts such as `Re[2]:`), trimmed: two emails of one thread
/// have the same normalised subject.
pub fn normalise_subject(subject: &str) -> String {
    let mut s = subject.trim();
    loop {
        let lower = s.to_ascii_lowercase();
        let prefix = ["re", "fwd", "fw", "aw", "wg"].iter().find_map(|p| {
            let rest = lower.strip_prefix(p)?;
            let rest = match rest.strip_prefix('[') {
                Some(r) => {
                    r.split_once(']').map(|(n, r)| (n.chars().all(|c| c.is_ascii_digit()), r)).filter(|(ok, _)| *ok)?.1
                }
                None => rest,
            };
            rest.strip_prefix(':').map(|r| lower.len() - r.len())
        });
        match prefix {
            Some(cut) => s = s[cut..].trim_start(),
            None => return s.to_string(),
        }
    }
}

/// The sender's address out of a `From` value (`Name <a@b>` or `a@b`), lower-cased.
pub fn address_of(from: &str) -> Option<String> {
    let inner = match (from.rfind('<'), from.rfind('>')) {
        (Some(a), Some(b)) if a < b => &from[a + 1..b],
        _ => from,
    };
    address(inner.trim()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_in_a_header_are_refused() {
        for bad in ["Hello\r\nBcc: evil@example.com", "Hello\nBcc: x", "Hello\rX", "a\u{0}b", "a\u{85}b"] {
            assert!(field("subject", bad).is_err(), "{bad:?}");
        }
        assert!(field("subject", "Hello\twith a tab, ünïcode and — dashes").is_ok());
        assert!(field("subject", &"x".repeat(SUBJECT_MAX + 1)).is_err());
        assert!(name("from_name", "Ada\r\n").is_err());
    }

    #[test]
    fn addresses_are_checked_and_lower_cased() {
        assert_eq!(address(" Bob@Example.COM ").unwrap(), "bob@example.com");
        assert_eq!(address("agents@miniclaw.localhost").unwrap(), "agents@miniclaw.localhost");
        for bad in [
            "bob",
            "bob@",
            "@example.com",
            "bob@example",
            "bob smith@example.com",
            "bob@example.com\r\nBcc: x@y.z",
            "<bob@example.com>",
            "a,b@example.com",
            "bob@exa_mple.com",
        ] {
            assert!(address(bad).is_err(), "{bad:?}");
        }
        assert_eq!(address_of("Bob Smith <Bob@Example.com>").as_deref(), Some("bob@example.com"));
        assert_eq!(address_of("bob@example.com").as_deref(), Some("bob@example.com"));
        assert_eq!(address_of("Bob <not an address>"), None);
    }

    #[test]
    fn subjects_normalise_across_replies_and_forwards() {
        assert_eq!(normalise_subject("Re: RE: Fwd: Hello there"), "Hello there");
        assert_eq!(normalise_subject("re[2]: AW: Hello"), "Hello");
        assert_eq!(normalise_subject("Regarding the plan"), "Regarding the plan");
        assert_eq!(normalise_subject("  Hello  "), "Hello");
        assert_eq!(reply_subject("Re: Re: Hello"), "Re: Hello");
    }

    #[test]
    fn message_ids_are_unique_under_the_senders_domain() {
        let (a, b) = (message_id("agents@example.com"), message_id("agents@example.com"));
        assert!(a.ends_with("@example.com") && a != b);
        assert_eq!(ids_of("<a@x.com> <b@y.com>,<c@z.com>"), ["a@x.com", "b@y.com", "c@z.com"]);
        assert_eq!(bare_id(" <a@x.com> "), "a@x.com");
    }
}
