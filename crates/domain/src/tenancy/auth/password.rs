//! Password hashing with argon2id, on the blocking pool (it is deliberately slow: ~19 MiB and
//! tens of milliseconds each). At most one hash per core runs at a time; a request that cannot
//! get a turn within `WAIT` is answered 429 with `Retry-After` instead of queueing without bound,
//! so a flood of sign-ins cannot pin the machine or starve everything else.

use std::sync::LazyLock;
use std::time::Duration;

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use tokio::sync::Semaphore;

pub const MIN_LEN: usize = 8;
pub const MAX_LEN: usize = 256;

/// How long a request waits for a free hashing slot.
const WAIT: Duration = Duration::from_secs(2);

static SLOTS: LazyLock<Semaphore> =
    LazyLock::new(|| Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get())));

/// All hashing slots stayed busy for `WAIT`: the caller answers 429 with `Retry-After`.
pub use miniclaw_core::error::Busy;

async fn slot() -> Result<tokio::sync::SemaphorePermit<'static>, Busy> {
    match tokio::time::timeout(WAIT, SLOTS.acquire()).await {
        Ok(Ok(permit)) => Ok(permit),
        _ => {
            metrics::counter!("miniclaw_password_busy_total").increment(1);
            Err(Busy)
        }
    }
}

pub async fn hash(password: String) -> anyhow::Result<String> {
    let _slot = slot().await?;
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
    })
    .await?
}

/// Whether `password` matches the stored PHC string. A malformed hash never matches.
pub async fn verify(password: String, stored: String) -> anyhow::Result<bool> {
    let _slot = slot().await?;
    Ok(tokio::task::spawn_blocking(move || {
        PasswordHash::new(&stored)
            .map(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
            .unwrap_or(false)
    })
    .await?)
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn hashes_verify_and_differ_per_salt() {
        let a = super::hash("correct horse".into()).await.unwrap();
        let b = super::hash("correct horse".into()).await.unwrap();
        assert!(a.starts_with("$argon2id$"));
        assert_ne!(a, b);
        assert!(super::verify("correct horse".into(), a.clone()).await.unwrap());
        assert!(!super::verify("correct hors".into(), a).await.unwrap());
        assert!(!super::verify("x".into(), "not a hash".into()).await.unwrap());
    }
}
