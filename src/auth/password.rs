//! Password hashing with argon2id, on the blocking pool (it is deliberately slow).

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

pub const MIN_LEN: usize = 8;
pub const MAX_LEN: usize = 256;

pub async fn hash(password: String) -> anyhow::Result<String> {
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
