//! The verification webhook's signature: HMAC-SHA256 under the shared secret
//! (`MINICLAW_VERIFICATION_WEBHOOK_SECRET`) of `"{timestamp}.{raw body}"`, sent as
//!
//! ```text
//! X-Miniclaw-Timestamp: 1795000000            (Unix seconds)
//! X-Miniclaw-Signature: sha256=<64 hex digits>
//! ```
//!
//! The timestamp is inside the signed content, so it cannot be moved; a delivery more than
//! five minutes from the server's clock (either way) is refused, so a captured one cannot be
//! replayed later. The comparison is constant-time (`Mac::verify_slice`).

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const TIMESTAMP_HEADER: &str = "x-miniclaw-timestamp";
pub const SIGNATURE_HEADER: &str = "x-miniclaw-signature";
/// How far a delivery's timestamp may be from now.
pub const TOLERANCE_SECS: i64 = 300;

type HmacSha256 = Hmac<Sha256>;

fn mac(secret: &[u8], timestamp: &str, body: &[u8]) -> HmacSha256 {
    let mut m = HmacSha256::new_from_slice(secret).expect("HMAC takes keys of any length");
    m.update(timestamp.as_bytes());
    m.update(b".");
    m.update(body);
    m
}

/// The signature header's value for a delivery (what a provider computes).
pub fn sign(secret: &[u8], timestamp: i64, body: &[u8]) -> String {
    format!("sha256={}", hex::encode(mac(secret, &timestamp.to_string(), body).finalize().into_bytes()))
}

/// Why a delivery was refused (each is a 401; the message says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("missing X-Miniclaw-Timestamp or X-Miniclaw-Signature header")]
    Missing,
    #[error("X-Miniclaw-Timestamp must be Unix seconds and X-Miniclaw-Signature `sha256=<64 hex digits>`")]
    Malformed,
    #[error("signature does not match the body and timestamp")]
    Mismatch,
    #[error("timestamp is more than 5 minutes from the server's clock; send a fresh delivery")]
    Stale,
}

/// Checks a delivery's headers against its raw body at `now` (Unix seconds).
pub fn verify(
    secret: &[u8],
    timestamp: Option<&str>,
    signature: Option<&str>,
    body: &[u8],
    now: i64,
) -> Result<(), Rejection> {
    let (Some(timestamp), Some(signature)) = (timestamp.map(str::trim), signature.map(str::trim)) else {
        return Err(Rejection::Missing);
    };
    let ts: i64 = timestamp.parse().map_err(|_| Rejection::Malformed)?;
    let digest = signature
        .strip_prefix("sha256=")
        .filter(|h| h.len() == 64)
        .and_then(|h| hex::decode(h).ok())
        .ok_or(Rejection::Malformed)?;
    mac(secret, timestamp, body).verify_slice(&digest).map_err(|_| Rejection::Mismatch)?;
    if (now - ts).abs() > TOLERANCE_SECS {
        return Err(Rejection::Stale);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"whsec-test-0123456789";
    const NOW: i64 = 1_795_000_000;
    const BODY: &[u8] = br#"{"agent_id":"x","provider":"self_xyz","status":"verified"}"#;

    fn check(ts: &str, sig: &str, body: &[u8]) -> Result<(), Rejection> {
        verify(SECRET, Some(ts), Some(sig), body, NOW)
    }

    #[test]
    fn a_fresh_signed_delivery_passes() {
        assert_eq!(check(&NOW.to_string(), &sign(SECRET, NOW, BODY), BODY), Ok(()));
        // Within the tolerance either way.
        for ts in [NOW - TOLERANCE_SECS, NOW + TOLERANCE_SECS] {
            assert_eq!(check(&ts.to_string(), &sign(SECRET, ts, BODY), BODY), Ok(()));
        }
    }

    #[test]
    fn anything_changed_is_refused() {
        let sig = sign(SECRET, NOW, BODY);
        let tampered = br#"{"agent_id":"y","provider":"self_xyz","status":"verified"}"#;
        assert_eq!(check(&NOW.to_string(), &sig, tampered), Err(Rejection::Mismatch), "another body");
        assert_eq!(check(&(NOW - 1).to_string(), &sig, BODY), Err(Rejection::Mismatch), "another timestamp");
        assert_eq!(
            check(&NOW.to_string(), &sign(b"another secret", NOW, BODY), BODY),
            Err(Rejection::Mismatch),
            "another secret"
        );
    }

    #[test]
    fn old_or_future_deliveries_are_refused() {
        for ts in [NOW - TOLERANCE_SECS - 1, NOW - 86_400, NOW + TOLERANCE_SECS + 1] {
            assert_eq!(check(&ts.to_string(), &sign(SECRET, ts, BODY), BODY), Err(Rejection::Stale), "{ts}");
        }
    }

    #[test]
    fn missing_and_malformed_headers() {
        let sig = sign(SECRET, NOW, BODY);
        assert_eq!(verify(SECRET, None, Some(&sig), BODY, NOW), Err(Rejection::Missing));
        assert_eq!(verify(SECRET, Some("1"), None, BODY, NOW), Err(Rejection::Missing));
        assert_eq!(check("yesterday", &sig, BODY), Err(Rejection::Malformed));
        assert_eq!(check(&NOW.to_string(), sig.trim_start_matches("sha256="), BODY), Err(Rejection::Malformed));
        assert_eq!(check(&NOW.to_string(), "sha256=zz", BODY), Err(Rejection::Malformed));
        assert_eq!(check(&NOW.to_string(), &format!("sha256={}", "0".repeat(64)), BODY), Err(Rejection::Mismatch));
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_signature_binds_its_body_and_timestamp(
            body in prop::collection::vec(any::<u8>(), 0..300),
            skew in -TOLERANCE_SECS..=TOLERANCE_SECS,
            flip in any::<prop::sample::Index>(),
        ) {
            let ts = NOW + skew;
            let sig = sign(SECRET, ts, &body);
            prop_assert_eq!(verify(SECRET, Some(&ts.to_string()), Some(&sig), &body, NOW), Ok(()));
            prop_assert_eq!(verify(SECRET, Some(&(ts + 1).to_string()), Some(&sig), &body, NOW), Err(Rejection::Mismatch));
            if !body.is_empty() {
                let mut changed = body.clone();
                changed[flip.index(body.len())] ^= 0x01;
                prop_assert_eq!(verify(SECRET, Some(&ts.to_string()), Some(&sig), &changed, NOW), Err(Rejection::Mismatch));
            }
        }
    }
}
