//! Fiat–Shamir transcripts (merlin): every proof starts from the protocol's name and the
//! caller's context, then absorbs every public value before a challenge is drawn.

use curve25519_dalek::ristretto::CompressedRistretto;
use curve25519_dalek::scalar::Scalar;
use merlin::Transcript;

/// The prover's randomness for the statement `tr` holds: merlin's transcript RNG, keyed by the
/// statement, the prover's `witness` and 32 bytes of `outer`. The nonces of a proof are thus bound
/// to its whole statement, not only to its position in the game: a participant that reloads and
/// is served a different history (the same position, another ciphertext or deck) proves with
/// fresh nonces, so two proofs never share one and never leak its secret or its permutation
/// (issue 30, A3). Deterministic for the same statement, witness and `outer`.
pub(crate) fn prover_rng(
    tr: &Transcript,
    witness: &[u8],
    outer: &mut impl rand_core6::CryptoRngCore,
) -> merlin::TranscriptRng {
    tr.build_rng()
        .rekey_with_witness_bytes(b"witness", witness)
        .finalize(outer)
}

/// A transcript for proof `kind` in `context`.
pub(crate) fn start(kind: &'static [u8], context: &[u8]) -> Transcript {
    let mut t = Transcript::new(b"orbis-deal v1");
    t.append_message(b"context", context);
    t.append_message(b"proof", kind);
    t
}

pub(crate) trait TranscriptExt {
    fn point(&mut self, label: &'static [u8], p: &CompressedRistretto);
    fn points(&mut self, label: &'static [u8], ps: &[CompressedRistretto]);
    fn scalar_challenge(&mut self, label: &'static [u8]) -> Scalar;
}

impl TranscriptExt for Transcript {
    fn point(&mut self, label: &'static [u8], p: &CompressedRistretto) {
        self.append_message(label, p.as_bytes());
    }

    fn points(&mut self, label: &'static [u8], ps: &[CompressedRistretto]) {
        self.append_u64(label, ps.len() as u64);
        for p in ps {
            self.append_message(label, p.as_bytes());
        }
    }

    fn scalar_challenge(&mut self, label: &'static [u8]) -> Scalar {
        let mut wide = [0u8; 64];
        self.challenge_bytes(label, &mut wide);
        Scalar::from_bytes_mod_order_wide(&wide)
    }
}
