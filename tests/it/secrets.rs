//! Secrets at rest: the session signing key is sealed under the master key, plain rows from
//! before are sealed on start, and a rotation re-seals without signing anyone out.

use std::collections::HashMap;
use std::sync::Arc;

use miniclaw::app::AppState;
use miniclaw::config::Config;
use miniclaw::ids::{TenantId, UserId};
use uuid::Uuid;

use crate::common::TestDb;

const KEY_A: &str = "1111111111111111111111111111111111111111111111111111111111111111";
const KEY_B: &str = "2222222222222222222222222222222222222222222222222222222222222222";
const KEY_C: &str = "3333333333333333333333333333333333333333333333333333333333333333";

async fn state(db: &TestDb, vars: &[(&str, &str)]) -> anyhow::Result<AppState> {
    let mut env: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    env.insert("DATABASE_URL".into(), db.url.clone());
    env.insert("MINICLAW_EMBEDDER".into(), "hash".into());
    let config = Arc::new(Config::from_map(&env).expect("valid config"));
    AppState::new(miniclaw::services(db.pool.clone(), &config).await?, config, Arc::new(miniclaw::cycles::builtin()))
        .await
}

async fn stored(db: &TestDb) -> (Vec<u8>, bool) {
    sqlx::query_as("SELECT value, sealed FROM platform_secrets WHERE name = 'session_hmac'")
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_session_key_is_sealed_at_rest_and_a_rotation_signs_nobody_out() {
    let db = TestDb::new().await;
    // A database from before secrets were sealed: the key in plain text.
    let legacy = b"a signing key stored in plain text by an earlier version!".to_vec();
    sqlx::query("INSERT INTO platform_secrets (name, value) VALUES ('session_hmac', $1)")
        .bind(&legacy)
        .execute(&db.pool)
        .await
        .unwrap();

    let a = state(&db, &[("MINICLAW_MASTER_KEY", KEY_A)]).await.unwrap();
    let token = a.session_keys().issue(UserId(Uuid::new_v4()), TenantId(Uuid::new_v4()), Uuid::new_v4());
    let (value, sealed) = stored(&db).await;
    assert!(sealed, "the plain row is sealed on start");
    assert!(!value.windows(legacy.len()).any(|w| w == legacy.as_slice()), "the key no longer reads in the row");
    assert!(
        miniclaw::tenancy::auth::session::SessionKeys::from_secret(&legacy).verify(&token).is_some(),
        "the key itself did not change: sessions signed before the upgrade stay valid"
    );

    // Rotation: B is the master key, A is still accepted; the secret is sealed again under B.
    let b = state(&db, &[("MINICLAW_MASTER_KEY", KEY_B), ("MINICLAW_MASTER_KEY_PREVIOUS", KEY_A)]).await.unwrap();
    assert!(b.session_keys().verify(&token).is_some());
    let b_only = state(&db, &[("MINICLAW_MASTER_KEY", KEY_B)]).await.unwrap();
    assert!(b_only.session_keys().verify(&token).is_some(), "after the rotation the old key can go");

    // A server with a stranger's key refuses to start and says which key it needs.
    let err = format!("{:#}", state(&db, &[("MINICLAW_MASTER_KEY", KEY_C)]).await.err().expect("refused"));
    assert!(err.contains("MINICLAW_MASTER_KEY_PREVIOUS") && !err.contains(KEY_B), "{err}");
}

#[tokio::test]
async fn without_a_configured_master_key_one_is_kept_under_the_data_dir() {
    let db = TestDb::new().await;
    let dir = std::env::temp_dir().join(format!("mc-data-{}", Uuid::new_v4()));
    let data_dir = dir.to_string_lossy().to_string();
    let first = state(&db, &[("MINICLAW_DATA_DIR", &data_dir)]).await.unwrap();
    let token = first.session_keys().issue(UserId(Uuid::new_v4()), TenantId(Uuid::new_v4()), Uuid::new_v4());
    assert!(dir.join("master.key").exists());
    assert!(stored(&db).await.1);
    // A restart reads the same key file and opens the same secret.
    let again = state(&db, &[("MINICLAW_DATA_DIR", &data_dir)]).await.unwrap();
    assert!(again.session_keys().verify(&token).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}
