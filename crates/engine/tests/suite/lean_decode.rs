//! Classic saves are read with bincode's own decoding (`codec::decode_lean`, which keeps serde's
//! decoding out of the browser's lite page) and written with serde's. The two must agree on every
//! byte: states of real games (bot games of every size, with and without missions, dealt face up
//! and face down) read back equal, and damaged bytes are accepted by one exactly when by the other,
//! with the same state.

use orbis_engine::bot;
use orbis_engine::codec::{decode, decode_lean, encode};
use orbis_engine::rules::classic::*;
use orbis_engine::rules::{classic_from_save, Game};

/// States along bot games: every `every`-th state of each game, to its end or `steps`.
fn states(every: usize, steps: usize) -> Vec<ClassicState> {
    let mut out = vec![];
    for (n, missions, seed) in [(2, false, 1), (3, true, 2), (4, false, 3), (6, true, 4)] {
        let options = ClassicOptions {
            missions,
            neutral_territories: if n > 2 { 2 } else { 0 },
            ..ClassicOptions::default()
        };
        let seats = default_seats(n, SeatKind::Bot(BotLevel::Normal));
        let mut s = ClassicState::new(seats.clone(), options.clone(), [seed; 32]).unwrap();
        for i in 0..steps {
            if i % every == 0 {
                out.push(s.clone());
            }
            let Some(a) = bot::choose(&s, BotLevel::Normal) else {
                break;
            };
            s.apply(&a).unwrap();
        }
        out.push(s);
        // Dealt face down: slots and decks instead of cards.
        out.push(ClassicState::new_sealed("classic", seats, options, [seed; 32]).unwrap());
    }
    out
}

#[test]
fn real_games_read_back_equal() {
    let all = states(7, 3000);
    assert!(all.len() > 100);
    assert!(all.iter().any(|s| s.winner().is_some()));
    assert!(all.iter().any(|s| s.sealed.is_some()));
    for s in all {
        let bytes = encode(&s);
        assert_eq!(decode_lean::<ClassicState>(&bytes).as_ref(), Ok(&s));
        let save = Game::Classic(s.clone()).to_save();
        assert_eq!(classic_from_save(&save), Ok(Some(s.clone())));
        assert_eq!(Game::from_save(&save), Ok(Game::Classic(s)));
    }
}

#[test]
fn damaged_bytes_are_read_alike() {
    let mut tried = 0;
    for s in states(400, 1500) {
        let good = encode(&s);
        for i in 0..good.len() {
            for v in [0u8, 1, 2, 0x7f, 0xfb, 0xfc, 0xff, good[i] ^ 1] {
                let mut bad = good.clone();
                bad[i] = v;
                let lean = decode_lean::<ClassicState>(&bad).ok();
                let serde = decode::<ClassicState>(&bad).ok();
                assert_eq!(lean, serde, "byte {i} set to {v}");
                tried += 1;
            }
        }
        for cut in 0..good.len() {
            assert!(decode_lean::<ClassicState>(&good[..cut]).is_err());
        }
    }
    println!("{tried} damaged encodings read alike");
}
