//! A JWT signer for tests and benches that run `overheid-mcp --http` with a bearer token: an
//! Ed25519 key made on the spot (never stored), its JWKS entry and signed tokens.

use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::signature::{Ed25519KeyPair, KeyPair};
use serde_json::{Value, json};

/// An Ed25519 signing key with its JWKS entry.
pub struct Signer {
    pkcs8: Vec<u8>,
    public: Vec<u8>,
    pub kid: String,
}

impl Signer {
    pub fn new(kid: &str) -> Signer {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng)
            .unwrap()
            .as_ref()
            .to_vec();
        let public = Ed25519KeyPair::from_pkcs8(&pkcs8)
            .unwrap()
            .public_key()
            .as_ref()
            .to_vec();
        Signer {
            pkcs8,
            public,
            kid: kid.to_string(),
        }
    }

    /// This key as a JWK.
    pub fn jwk(&self) -> Value {
        json!({"kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA", "kid": self.kid,
               "x": base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&self.public)})
    }

    /// A signed JWT with these claims.
    pub fn token(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &EncodingKey::from_ed_der(&self.pkcs8)).unwrap()
    }
}
