//! Prints what a deal costs: time per shuffle (prove and verify) and per draw, and bytes on the
//! wire, for 3 and 6 participants and the 44-card territory deck.
//! `cargo run --release -p orbis-deal --example bench`

use orbis_deal::cipher::open_deck;
use orbis_deal::keys::{joint_key, SecretShare};
use orbis_deal::share::{decryption_share, verify_share};
use orbis_deal::shuffle::{shuffle, verify_shuffle};
use rand_chacha3::rand_core::SeedableRng;
use rand_chacha3::ChaCha20Rng;
use std::time::Instant;

fn main() {
    let mut rng = ChaCha20Rng::from_seed([1; 32]);
    let cards = 44u16;
    for players in [3usize, 6] {
        let secrets: Vec<SecretShare> = (0..players)
            .map(|_| SecretShare::generate(&mut rng))
            .collect();
        let keys: Vec<_> = secrets.iter().map(SecretShare::key).collect();
        let joint = joint_key(&keys);
        let mut deck = open_deck(b"territory", cards);
        let (mut prove, mut verify) = (0f64, 0f64);
        let mut proof_bytes = 0;
        for _ in 0..players {
            let t = Instant::now();
            let (out, proof) = shuffle(b"bench", &joint, &deck, &mut rng).unwrap();
            prove += t.elapsed().as_secs_f64();
            let t = Instant::now();
            verify_shuffle(b"bench", &joint, &deck, &out, &proof).unwrap();
            verify += t.elapsed().as_secs_f64();
            // Points and scalars are 32 bytes each.
            proof_bytes = 32 * (3 * cards as usize + 5) + 32 * (2 * cards as usize + 4);
            deck = out;
        }
        let t = Instant::now();
        let draws = 20;
        for ct in deck.iter().take(draws) {
            for (s, k) in secrets.iter().zip(&keys) {
                let d = decryption_share(b"draw", s, ct, &mut rng).unwrap();
                verify_share(b"draw", k, ct, &d).unwrap();
            }
        }
        let draw = t.elapsed().as_secs_f64() / draws as f64;
        println!(
            "{players} players, {cards} cards: shuffle {:.1} ms to prove, {:.1} ms to verify; \
             initial shuffle by everyone, one peer's share of the work (its shuffle + checking all) {:.0} ms; \
             a draw (every share made and checked) {:.2} ms; \
             bytes per shuffle {} (deck {} + proof {}), per share 128",
            1e3 * prove / players as f64,
            1e3 * verify / players as f64,
            1e3 * (prove / players as f64 + verify),
            1e3 * draw,
            64 * cards as usize + proof_bytes,
            64 * cards as usize,
            proof_bytes
        );
    }
}
