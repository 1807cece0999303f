//! Svix webhook signatures, as Resend signs its webhooks:
//!
//! ```text
//! svix-id:        msg_27UH4WbU6Z5A5EzD8u03UvzRbpk
//! svix-timestamp: 1649367553                         (Unix seconds)
//! svix-signature: v1,<base64> v1,<base64>            (any one may match)
//! ```
//!
//! The signature is base64(HMAC-SHA256(key, "{id}.{timestamp}.{raw body}")) where the key is
//! the base64-decoded part of the `whsec_…` secret. A timestamp more than five minutes from
//! the server's clock is refused, so a captured delivery cannot be replayed later; within the
//! window the caller deduplicates by `svix-id`. Comparisons are constant-time
//! (`Mac::verify_slice`). Pure.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const ID_HEADER: &str = "svix-id";
pub const TIMESTAMP_HEADER: &str = "svix-timestamp";
pub const SIGNATURE_HEADER: &str = "svix-signature";
/// How far a delivery's timestamp may be from now.
pub const TOLERANCE_SECS: i64 = 300;

type HmacSha256 = Hmac<Sha256>;

/// The HMAC key of a `whsec_…` secret (`None` when it is not one).
pub fn key_of(secret: &str) -> Option<Vec<u8>> {
    let b64 = secret.trim().strip_prefix("whsec_")?;
    STANDARD.decode(b64).ok().filter(|k| !k.is_empty())
}

fn mac(key: &[u8], id: &str, timestamp: &str, body: &[u8]) -> HmacSha256 {
    let mut m = HmacSha256::new_from_slice(key).expect("HMAC takes keys of any length");
    m.update(id.as_bytes());
    m.update(b".");
    m.update(timestamp.as_bytes());
    m.update(b".");
    m.update(body);
    m
}

/// The `svix-signature` value for a delivery (what Svix computes).
pub fn sign(key: &[u8], id: &str, timestamp: i64, body: &[u8]) -> String {
    format!("v1,{}", STANDARD.encode(mac(key, id, &timestamp.to_string(), body).finalize().into_bytes()))
}

/// Why a delivery was refused (each is a 401; the message says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("missing svix-id, svix-timestamp or svix-signature header")]
    Missing,
    #[error("svix-timestamp must be Unix seconds and svix-signature `v1,<base64>` entries")]
    Malformed,
    #[error("no signature matches the body, id and timestamp")]
    Mismatch,
    #[error("svix-timestamp is more than 5 minutes from the server's clock")]
    Stale,
}

/// Checks a delivery's headers against its raw body at `now` (Unix seconds): accepted when any
/// `v1` entry of the signature header matches and the timestamp is within five minutes.
pub fn verify(
    key: &[u8],
    id: Option<&str>,
    timestamp: Option<&str>,
    signature: Option<&str>,
    body: &[u8],
    now: i64,
) -> Result<(), Rejection> {
    let (Some(id), Some(timestamp), Some(signature)) =
        (id.map(str::trim), timestamp.map(str::trim), signature.map(str::trim))
    else {
        return Err(Rejection::Missing);
    };
    if id.is_empty() || signature.is_empty() {
        return Err(Rejection::Missing);
    }
    let ts: i64 = timestamp.parse().map_err(|_| Rejection::Malformed)?;
    let expected = mac(key, id, timestamp, body);
    let mut any_v1 = false;
    let mut matched = false;
    for entry in signature.split_whitespace() {
        let Some(b64) = entry.strip_prefix("v1,") else { continue };
        let Ok(sig) = STANDARD.decode(b64) else { continue };
        any_v1 = true;
        // Every entry is checked (no early exit), each in constant time.
        matched |= expected.clone().verify_slice(&sig).is_ok();
    }
    if !any_v1 {
        return Err(Rejection::Malformed);
    }
    if !matched {
        return Err(Rejection::Mismatch);
    }
    if (now - ts).abs() > TOLERANCE_SECS {
        return Err(Rejection::Stale);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Svix's published test vector.
    const SECRET: &str = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
    const ID: &str = "msg_27UH4WbU6Z5A5EzD8u03UvzRbpk";
    const TS: i64 = 1649367553;
    const BODY: &[u8] = br#"{"email":"test@example.com","username":"test_user"}"#;
    const SIGNATURE: &str = "v1,tZ1I4/hDygAJgO5TYxiSd6Sd0kDW6hPenDe+bTa3Kkw=";

    fn check(sig: &str, body: &[u8], now: i64) -> Result<(), Rejection> {
        verify(&key_of(SECRET).unwrap(), Some(ID), Some(&TS.to_string()), Some(sig), body, now)
    }

    #[test]
    fn the_published_svix_test_vector_verifies() {
        assert_eq!(sign(&key_of(SECRET).unwrap(), ID, TS, BODY), SIGNATURE);
        assert_eq!(check(SIGNATURE, BODY, TS), Ok(()));
    }

    #[test]
    fn any_of_several_signatures_may_match() {
        let other = "v1,Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmE=";
        assert_eq!(check(&format!("{other} {SIGNATURE}"), BODY, TS), Ok(()));
        assert_eq!(check(&format!("v2,abc {SIGNATURE} {other}"), BODY, TS), Ok(()));
        assert_eq!(check(other, BODY, TS), Err(Rejection::Mismatch));
    }

    #[test]
    fn a_changed_body_a_stale_timestamp_or_missing_headers_are_refused() {
        assert_eq!(
            check(SIGNATURE, br#"{"email":"evil@example.com","username":"test_user"}"#, TS),
            Err(Rejection::Mismatch)
        );
        assert_eq!(check(SIGNATURE, BODY, TS + TOLERANCE_SECS), Ok(()));
        assert_eq!(check(SIGNATURE, BODY, TS + TOLERANCE_SECS + 1), Err(Rejection::Stale));
        assert_eq!(check(SIGNATURE, BODY, TS - TOLERANCE_SECS - 1), Err(Rejection::Stale));
        assert_eq!(check("v2,abc", BODY, TS), Err(Rejection::Malformed));
        let key = key_of(SECRET).unwrap();
        assert_eq!(verify(&key, None, Some("1"), Some(SIGNATURE), BODY, TS), Err(Rejection::Missing));
        assert_eq!(verify(&key, Some(ID), Some("soon"), Some(SIGNATURE), BODY, TS), Err(Rejection::Malformed));
        // The id is signed: another delivery's id does not verify with this signature.
        assert_eq!(
            verify(&key, Some("msg_other"), Some(&TS.to_string()), Some(SIGNATURE), BODY, TS),
            Err(Rejection::Mismatch)
        );
    }

    #[test]
    fn only_whsec_secrets_give_a_key() {
        assert_eq!(key_of(SECRET).unwrap().len(), 24);
        assert!(key_of("C2FVsBQIhrscChlQIMV+b5sSYspob7oD").is_none());
        assert!(key_of("whsec_***").is_none());
        assert!(key_of("whsec_").is_none());
    }
}
