//! Secrets at rest: every secret the platform keeps in the database (the session signing key
//! today; wallet keys and provider tokens as they arrive) is sealed with AES-256-GCM under the
//! master key, so a copy of the database alone reveals none of them.
//!
//! The master key is `MINICLAW_MASTER_KEY` (64 hex characters). Without it the platform keeps
//! one in `MINICLAW_DATA_DIR/master.key`, created on first start with mode 0600. Rotation: set
//! the new key as `MINICLAW_MASTER_KEY` and the old one in `MINICLAW_MASTER_KEY_PREVIOUS`; every
//! secret sealed under a previous key is re-sealed under the new one when it is next loaded (at
//! start), after which the previous key can be dropped.
//!
//! A sealed value is `mc1 ‖ key id (8) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`; the secret's name
//! is the associated data, so a value moved to another name does not open.

use std::io::Write;
use std::path::Path;

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Nonce};
use anyhow::{Context, bail};
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::PgPool;

use crate::config::{Config, Secret};

const MAGIC: &[u8; 3] = b"mc1";
const ID_LEN: usize = 8;
const NONCE_LEN: usize = 12;
const HEADER: usize = MAGIC.len() + ID_LEN + NONCE_LEN;
/// The file the master key is kept in when `MINICLAW_MASTER_KEY` is not set.
pub const KEY_FILE: &str = "master.key";

/// One master key: its cipher and the short id sealed values name it by.
struct MasterKey {
    id: [u8; ID_LEN],
    cipher: Aes256Gcm,
}

impl MasterKey {
    fn from_bytes(bytes: &[u8; 32]) -> MasterKey {
        let digest = Sha256::new().chain_update(b"miniclaw master key id").chain_update(bytes).finalize();
        let mut id = [0u8; ID_LEN];
        id.copy_from_slice(&digest[..ID_LEN]);
        MasterKey { id, cipher: Aes256Gcm::new(bytes.into()) }
    }

    fn from_hex(hex_key: &str) -> anyhow::Result<MasterKey> {
        let bytes: [u8; 32] = hex::decode(hex_key.trim())
            .ok()
            .and_then(|b| b.try_into().ok())
            .context("a master key is 32 bytes written as 64 hex characters")?;
        Ok(MasterKey::from_bytes(&bytes))
    }
}

/// Where the current master key came from (`miniclaw doctor` reports it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    Environment,
    File(std::path::PathBuf),
}

/// The master key and the previous keys still accepted while a rotation completes.
pub struct Vault {
    current: MasterKey,
    previous: Vec<MasterKey>,
    source: KeySource,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Vault(key {}, {:?}, {} previous)", self.key_id(), self.source, self.previous.len())
    }
}

/// Why a sealed value did not open.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OpenError {
    #[error("the value is not a sealed secret")]
    Malformed,
    #[error(
        "the value was sealed under master key {0}, which is neither MINICLAW_MASTER_KEY nor one of MINICLAW_MASTER_KEY_PREVIOUS"
    )]
    UnknownKey(String),
    #[error("the value does not authenticate under master key {0} (altered, or sealed for another name)")]
    Corrupt(String),
}

impl Vault {
    /// The configured master key, or the one kept under the data directory (made on first use).
    pub fn from_config(config: &Config) -> anyhow::Result<Vault> {
        let (current, source) = match &config.master_key {
            Some(k) => (MasterKey::from_hex(k.expose()).context("MINICLAW_MASTER_KEY")?, KeySource::Environment),
            None => {
                let path = config.data_dir.join(KEY_FILE);
                (key_file(&path)?, KeySource::File(path))
            }
        };
        let previous = config
            .master_key_previous
            .iter()
            .map(|k: &Secret| MasterKey::from_hex(k.expose()).context("MINICLAW_MASTER_KEY_PREVIOUS"))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Vault { current, previous, source })
    }

    /// A vault over fixed keys (tests, tools).
    pub fn with_keys(current: &[u8; 32], previous: &[[u8; 32]]) -> Vault {
        Vault {
            current: MasterKey::from_bytes(current),
            previous: previous.iter().map(MasterKey::from_bytes).collect(),
            source: KeySource::Environment,
        }
    }

    /// The current key's id in hex: safe to print, names the key without revealing it.
    pub fn key_id(&self) -> String {
        hex::encode(self.current.id)
    }

    pub fn source(&self) -> &KeySource {
        &self.source
    }

    /// Seals `plain` under the current key, bound to `name`.
    pub fn seal(&self, name: &str, plain: &[u8]) -> Vec<u8> {
        let mut nonce = [0u8; NONCE_LEN];
        rand::rng().fill_bytes(&mut nonce);
        let sealed = self
            .current
            .cipher
            .encrypt(Nonce::from_slice(&nonce), Payload { msg: plain, aad: name.as_bytes() })
            .expect("AES-GCM encryption of an in-memory buffer cannot fail");
        let mut out = Vec::with_capacity(HEADER + sealed.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.current.id);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        out
    }

    /// Opens a value sealed for `name`; `stale` when it was sealed under a previous key and
    /// should be sealed again under the current one.
    pub fn open(&self, name: &str, sealed: &[u8]) -> Result<Opened, OpenError> {
        if sealed.len() < HEADER + 16 || &sealed[..MAGIC.len()] != MAGIC {
            return Err(OpenError::Malformed);
        }
        let id = &sealed[MAGIC.len()..MAGIC.len() + ID_LEN];
        let nonce = &sealed[MAGIC.len() + ID_LEN..HEADER];
        let (key, stale) = if id == self.current.id {
            (&self.current, false)
        } else {
            let key =
                self.previous.iter().find(|k| k.id == id).ok_or_else(|| OpenError::UnknownKey(hex::encode(id)))?;
            (key, true)
        };
        let plain = key
            .cipher
            .decrypt(Nonce::from_slice(nonce), Payload { msg: &sealed[HEADER..], aad: name.as_bytes() })
            .map_err(|_| OpenError::Corrupt(hex::encode(id)))?;
        Ok(Opened { plain, stale })
    }

    /// The platform secret `name`: created from `fresh` on first use, stored sealed. A value
    /// stored in plain text (before secrets were sealed) or under a previous key is sealed again
    /// under the current key.
    pub async fn platform_secret(
        &self,
        pool: &PgPool,
        name: &str,
        fresh: impl FnOnce() -> Vec<u8>,
    ) -> anyhow::Result<Vec<u8>> {
        let candidate = self.seal(name, &fresh());
        sqlx::query!(
            "INSERT INTO platform_secrets (name, value, sealed) VALUES ($1, $2, true) ON CONFLICT (name) DO NOTHING",
            name,
            candidate
        )
        .execute(pool)
        .await?;
        let row =
            sqlx::query!("SELECT value, sealed FROM platform_secrets WHERE name = $1", name).fetch_one(pool).await?;
        let old = row.value;
        let (plain, reseal) = if row.sealed {
            let opened = self.open(name, &old).map_err(|e| {
                anyhow::anyhow!("platform secret `{name}`: {e}; the current master key is {}", self.key_id())
            })?;
            (opened.plain, opened.stale)
        } else {
            (old.clone(), true)
        };
        if reseal {
            // Compare-and-set on the old value: of two processes re-sealing at once, one writes.
            sqlx::query!(
                "UPDATE platform_secrets SET value = $2, sealed = true WHERE name = $1 AND value = $3",
                name,
                self.seal(name, &plain),
                old,
            )
            .execute(pool)
            .await?;
            tracing::info!(secret = name, key = %self.key_id(), "platform secret sealed under the current master key");
        }
        Ok(plain)
    }
}

/// A value that opened.
#[derive(Debug)]
pub struct Opened {
    pub plain: Vec<u8>,
    pub stale: bool,
}

/// Reads the key file at `path`, creating it (0600, 32 random bytes in hex) when missing. Two
/// processes starting at once agree: the file is written aside and linked into place, so the
/// loser of the race reads the winner's key.
fn key_file(path: &Path) -> anyhow::Result<MasterKey> {
    if !path.exists() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        let aside = path.with_extension(format!("{:016x}.tmp", rand::rng().next_u64()));
        {
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut f = options.open(&aside).with_context(|| format!("creating {}", aside.display()))?;
            writeln!(f, "{}", hex::encode(bytes))?;
            f.sync_all()?;
        }
        let linked = std::fs::hard_link(&aside, path);
        let _ = std::fs::remove_file(&aside);
        match linked {
            Ok(()) => tracing::warn!(
                path = %path.display(),
                "created a master key file: keep it with the database (or set MINICLAW_MASTER_KEY), secrets do not open without it"
            ),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e).with_context(|| format!("creating {}", path.display())),
        }
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    if text.trim().is_empty() {
        bail!("{} is empty: restore the master key or remove the file and every sealed secret", path.display());
    }
    MasterKey::from_hex(&text).with_context(|| format!("reading the master key from {}", path.display()))
}

/// Every sealed platform secret, by name (for `doctor`: does the current key open them all?).
pub async fn sealed(pool: &PgPool) -> sqlx::Result<Vec<(String, Vec<u8>)>> {
    let rows = sqlx::query!("SELECT name, value FROM platform_secrets WHERE sealed").fetch_all(pool).await?;
    Ok(rows.into_iter().map(|r| (r.name, r.value)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: [u8; 32] = [1; 32];
    const B: [u8; 32] = [2; 32];

    #[test]
    fn a_sealed_value_opens_only_under_its_key_and_name() {
        let vault = Vault::with_keys(&A, &[]);
        let sealed = vault.seal("session_hmac", b"the secret");
        assert!(!sealed.windows(10).any(|w| w == b"the secret"));
        let opened = vault.open("session_hmac", &sealed).unwrap();
        assert_eq!((opened.plain.as_slice(), opened.stale), (&b"the secret"[..], false));
        // Another name, an altered byte, a truncated value, a stranger's key: none opens.
        assert!(matches!(vault.open("wallet", &sealed), Err(OpenError::Corrupt(_))));
        let mut altered = sealed.clone();
        *altered.last_mut().unwrap() ^= 1;
        assert!(matches!(vault.open("session_hmac", &altered), Err(OpenError::Corrupt(_))));
        assert_eq!(vault.open("session_hmac", &sealed[..20]).unwrap_err(), OpenError::Malformed);
        assert!(matches!(Vault::with_keys(&B, &[]).open("session_hmac", &sealed), Err(OpenError::UnknownKey(_))));
        // Two seals of one value differ (fresh nonce).
        assert_ne!(vault.seal("session_hmac", b"the secret"), sealed);
    }

    #[test]
    fn a_value_sealed_under_a_previous_key_opens_and_asks_to_be_sealed_again() {
        let sealed = Vault::with_keys(&A, &[]).seal("n", b"v");
        let rotated = Vault::with_keys(&B, &[A]);
        let opened = rotated.open("n", &sealed).unwrap();
        assert_eq!((opened.plain.as_slice(), opened.stale), (&b"v"[..], true));
        let resealed = rotated.seal("n", &opened.plain);
        assert!(!Vault::with_keys(&B, &[]).open("n", &resealed).unwrap().stale);
    }

    #[test]
    fn the_key_file_is_made_once_private_and_shared_by_racing_starts() {
        let dir = std::env::temp_dir().join(format!("mc-keyfile-{}", uuid::Uuid::new_v4()));
        let path = dir.join(KEY_FILE);
        let ids: Vec<[u8; ID_LEN]> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8).map(|_| s.spawn(|| key_file(&path).unwrap().id)).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(ids.iter().all(|id| *id == ids[0]), "every start reads the same key");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no file left aside");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
