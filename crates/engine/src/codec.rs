//! Canonical binary encoding (bincode 2, standard configuration) and state hashing (SHA-256).
//!
//! Everything that crosses a wire or a save file goes through here, so there is one place that
//! sets the size limit and checks that every byte was consumed.

use serde::{de::DeserializeOwned, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// Largest message or save file we agree to decode.
pub const MAX_DECODE_BYTES: usize = 4 << 20;

/// A SHA-256 digest of a canonical encoding.
#[derive(
    Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct StateHash(pub [u8; 32]);

impl StateHash {
    /// Lower-case hexadecimal.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Debug for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StateHash({})", self.to_hex())
    }
}

impl fmt::Display for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// Why bytes could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    TooLarge(usize),
    Malformed(String),
    TrailingBytes(usize),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::TooLarge(n) => write!(
                f,
                "{n} bytes is larger than the {MAX_DECODE_BYTES}-byte limit"
            ),
            DecodeError::Malformed(e) => write!(f, "the data is malformed: {e}"),
            DecodeError::TrailingBytes(n) => write!(f, "{n} unexpected bytes after the data"),
        }
    }
}

impl std::error::Error for DecodeError {}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<MAX_DECODE_BYTES>()
}

/// Canonical bytes of a value.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, config())
        .expect("in-memory encoding of engine types cannot fail")
}

/// Decodes bytes produced by [`encode`]; rejects oversized input and trailing bytes.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    checked(bytes, || bincode::serde::decode_from_slice(bytes, config()))
}

/// [`decode`] for types that also derive bincode's own `Decode`: the same bytes and checks, read
/// without serde. bincode's derive and its serde path write the same standard encoding (fields in
/// order, variant indices as varints, arrays without a length), which the tests check on real
/// games; serde's generic decoding costs far more code in the browser's wasm (its visitors, and
/// its error texts, which bring in float formatting). Used for classic saves and maps, the only
/// things the lite page decodes.
pub fn decode_lean<T: bincode::Decode<()>>(bytes: &[u8]) -> Result<T, DecodeError> {
    checked(bytes, || bincode::decode_from_slice(bytes, config()))
}

/// The size limit before decoding, and every byte consumed after.
fn checked<T>(
    bytes: &[u8],
    read: impl FnOnce() -> Result<(T, usize), bincode::error::DecodeError>,
) -> Result<T, DecodeError> {
    if bytes.len() > MAX_DECODE_BYTES {
        return Err(DecodeError::TooLarge(bytes.len()));
    }
    let (value, used) = read().map_err(|e| DecodeError::Malformed(describe(e)))?;
    if used != bytes.len() {
        return Err(DecodeError::TrailingBytes(bytes.len() - used));
    }
    Ok(value)
}

/// What is wrong with bytes bincode refused, in words rather than bincode's own text (which is
/// its `Debug` output, and would bring the name of every `std::io` error into the browser's wasm).
fn describe(e: bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as E;
    match e {
        E::UnexpectedEnd { .. } => "it ends too early (it may have been cut short)".into(),
        E::LimitExceeded => format!("it claims more than the {MAX_DECODE_BYTES}-byte limit"),
        E::UnexpectedVariant { found, .. } => {
            format!("it names an unknown kind of value ({found})")
        }
        E::Utf8 { .. } | E::InvalidCharEncoding(_) => "it holds text that is not UTF-8".into(),
        // serde's messages (the data decoded through serde), which say what was expected.
        E::OtherString(text) => text,
        E::Other(text) => text.into(),
        _ => "it holds a number or flag out of range".into(),
    }
}

/// SHA-256 of arbitrary bytes.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// SHA-256 of the canonical encoding of a value.
pub fn hash_of<T: Serialize>(value: &T) -> StateHash {
    StateHash(sha256(&encode(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_rejections() {
        let v: (u32, String, Vec<u8>) = (7, "x".into(), vec![1, 2, 3]);
        let bytes = encode(&v);
        assert_eq!(decode::<(u32, String, Vec<u8>)>(&bytes).unwrap(), v);
        let mut extra = bytes.clone();
        extra.push(0);
        assert_eq!(
            decode::<(u32, String, Vec<u8>)>(&extra),
            Err(DecodeError::TrailingBytes(1))
        );
        assert!(matches!(
            decode::<(u32, String, Vec<u8>)>(&bytes[..2]),
            Err(DecodeError::Malformed(_))
        ));
        // A length prefix claiming a huge vector must not allocate it.
        let hostile = [0xfc, 0xff, 0xff, 0xff, 0x7f];
        assert!(decode::<Vec<u64>>(&hostile).is_err());
    }

    #[test]
    fn refusals_say_what_is_wrong_in_words() {
        let bytes = encode(&(7u32, "x".to_string()));
        let cut = decode::<(u32, String)>(&bytes[..2])
            .unwrap_err()
            .to_string();
        assert_eq!(
            cut,
            "the data is malformed: it ends too early (it may have been cut short)"
        );
        assert_eq!(
            decode_lean::<(u32, String)>(&bytes[..2])
                .unwrap_err()
                .to_string(),
            cut
        );
        let not_text = decode_lean::<String>(&[1, 0xff]).unwrap_err().to_string();
        assert!(not_text.ends_with("text that is not UTF-8"), "{not_text}");
        let flag = decode_lean::<bool>(&[7]).unwrap_err().to_string();
        assert!(flag.ends_with("out of range"), "{flag}");
    }

    #[test]
    fn hash_is_stable() {
        assert_eq!(
            hash_of(&0u8).to_hex(),
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
        );
    }
}
