//! Signature checks for wallet login and miniapp connect: EIP-191 `personal_sign` (recover the
//! address with alloy) and Ed25519 (strict verification with ed25519-dalek).
//!
//! Encodings: an EVM signature is 65 bytes as `0x`-prefixed hex (130 hex digits). An Ed25519
//! public key is 32 bytes and a signature 64 bytes, each as hex (64 / 128 digits, optional
//! `0x`) or standard base64 (44 / 88 characters); the length tells which.

use alloy_primitives::Signature;
use base64::Engine;
use ed25519_dalek::{Signature as EdSignature, VerifyingKey};

/// Lower-case `0x` address, if `s` is a well-formed 20-byte hex address.
pub fn normalize_evm_address(s: &str) -> Option<String> {
    let hex_part = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    (hex_part.len() == 40 && hex_part.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| format!("0x{}", hex_part.to_ascii_lowercase()))
}

/// Recovers the signer of an EIP-191 personal message; lower-case `0x` address.
pub fn recover_evm(message: &str, signature: &str) -> Result<String, String> {
    let hex_part = signature.strip_prefix("0x").unwrap_or(signature);
    let bytes = hex::decode(hex_part).map_err(|_| "signature is not hex".to_string())?;
    if bytes.len() != 65 {
        return Err(format!("an EIP-191 signature is 65 bytes, got {}", bytes.len()));
    }
    let sig = Signature::from_raw(&bytes).map_err(|e| format!("malformed signature: {e}"))?;
    let address =
        sig.recover_address_from_msg(message.as_bytes()).map_err(|e| format!("cannot recover signer: {e}"))?;
    Ok(format!("{address:#x}"))
}

fn decode_fixed<const N: usize>(s: &str, what: &str) -> Result<[u8; N], String> {
    let s = s.trim();
    let hex_part = s.strip_prefix("0x").unwrap_or(s);
    let bytes = if hex_part.len() == N * 2 {
        hex::decode(hex_part).map_err(|_| format!("{what} is not valid hex"))?
    } else {
        base64::engine::general_purpose::STANDARD
            .decode(s)
            .map_err(|_| format!("{what} must be {N} bytes as hex or base64"))?
    };
    bytes.try_into().map_err(|_| format!("{what} must be {N} bytes"))
}

/// Canonical lower-case hex of an Ed25519 public key given in hex or base64.
pub fn normalize_ed25519_key(s: &str) -> Result<String, String> {
    let bytes: [u8; 32] = decode_fixed(s, "ed25519 public key")?;
    VerifyingKey::from_bytes(&bytes).map_err(|_| "not a valid ed25519 public key".to_string())?;
    Ok(hex::encode(bytes))
}

/// Strict Ed25519 verification (rejects small-order keys and malleable signatures).
pub fn verify_ed25519(public_key: &str, message: &str, signature: &str) -> Result<(), String> {
    let key_bytes: [u8; 32] = decode_fixed(public_key, "ed25519 public key")?;
    let sig_bytes: [u8; 64] = decode_fixed(signature, "ed25519 signature")?;
    let key = VerifyingKey::from_bytes(&key_bytes).map_err(|_| "not a valid ed25519 public key".to_string())?;
    key.verify_strict(message.as_bytes(), &EdSignature::from_bytes(&sig_bytes))
        .map_err(|_| "signature does not verify".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_known_personal_sign_signature() {
        // anvil's account #0 signing "hello world" with personal_sign (made with eth-account).
        let sig = "0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b";
        assert_eq!(recover_evm("hello world", sig).unwrap(), "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
        assert_ne!(recover_evm("hello world!", sig).unwrap(), "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
        assert!(recover_evm("x", "0x1234").is_err());
    }

    #[test]
    fn ed25519_round_trip_in_both_encodings() {
        use ed25519_dalek::{Signer, SigningKey};
        let sk = SigningKey::from_bytes(&[7u8; 32]);
        let pk_hex = hex::encode(sk.verifying_key().to_bytes());
        let pk_b64 = base64::engine::general_purpose::STANDARD.encode(sk.verifying_key().to_bytes());
        let sig = sk.sign(b"challenge text");
        let sig_hex = hex::encode(sig.to_bytes());
        let sig_b64 = base64::engine::general_purpose::STANDARD.encode(sig.to_bytes());
        assert!(verify_ed25519(&pk_hex, "challenge text", &sig_hex).is_ok());
        assert!(verify_ed25519(&pk_b64, "challenge text", &sig_b64).is_ok());
        assert!(verify_ed25519(&pk_hex, "challenge text!", &sig_hex).is_err());
        assert_eq!(normalize_ed25519_key(&pk_b64).unwrap(), pk_hex);
    }

    #[test]
    fn evm_addresses_are_normalised() {
        assert_eq!(
            normalize_evm_address("0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266").as_deref(),
            Some("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")
        );
        assert!(normalize_evm_address("0x123").is_none());
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};
    use proptest::prelude::*;

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn evm_addresses_normalise_to_one_lower_case_spelling(bytes in any::<[u8; 20]>(), upper in any::<bool>()) {
            let hex = hex::encode(bytes);
            let given = if upper { format!("0X{}", hex.to_ascii_uppercase()) } else { format!("0x{hex}") };
            let normal = normalize_evm_address(&given).expect("a 20-byte hex address");
            prop_assert_eq!(&normal, &format!("0x{hex}"));
            prop_assert_eq!(normalize_evm_address(&normal), Some(normal.clone()));
        }

        #[test]
        fn anything_else_is_not_an_address(s in any::<String>()) {
            if let Some(a) = normalize_evm_address(&s) {
                prop_assert_eq!(a.len(), 42);
                prop_assert_eq!(a.to_ascii_lowercase(), s.to_ascii_lowercase());
            }
        }

        #[test]
        fn recovery_never_panics_and_names_a_normal_address(message in any::<String>(), sig in any::<[u8; 65]>(), junk in any::<String>()) {
            if let Ok(a) = recover_evm(&message, &format!("0x{}", hex::encode(sig))) {
                prop_assert_eq!(normalize_evm_address(&a), Some(a.clone()));
            }
            prop_assert!(recover_evm(&message, &junk).is_err(), "random text is not a signature");
        }

        #[test]
        fn ed25519_signatures_verify_in_both_encodings_and_only_for_their_message(
            seed in any::<[u8; 32]>(), message in any::<String>(), other in any::<String>()
        ) {
            let sk = SigningKey::from_bytes(&seed);
            let pk = sk.verifying_key().to_bytes();
            let sig = sk.sign(message.as_bytes()).to_bytes();
            let (pk_hex, sig_hex) = (hex::encode(pk), hex::encode(sig));
            prop_assert!(verify_ed25519(&pk_hex, &message, &sig_hex).is_ok());
            prop_assert!(verify_ed25519(&b64(&pk), &message, &b64(&sig)).is_ok());
            let pk_upper = format!("0x{}", pk_hex.to_ascii_uppercase());
            prop_assert!(verify_ed25519(&pk_upper, &message, &sig_hex).is_ok());
            prop_assert_eq!(verify_ed25519(&pk_hex, &other, &sig_hex).is_ok(), other == message);
            prop_assert_eq!(normalize_ed25519_key(&b64(&pk)), Ok(pk_hex.clone()));
            prop_assert_eq!(normalize_ed25519_key(&pk_hex.to_ascii_uppercase()), Ok(pk_hex));
        }

        #[test]
        fn malformed_keys_and_signatures_are_errors_not_panics(key in any::<String>(), sig in any::<String>(), message in any::<String>()) {
            let _ = normalize_ed25519_key(&key);
            let verified = verify_ed25519(&key, &message, &sig);
            prop_assert!(verified.is_err(), "random text does not verify");
        }
    }
}
