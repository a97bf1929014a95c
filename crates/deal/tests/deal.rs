//! A whole deal among simulated participants, and one test per lie a participant can tell.

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use orbis_deal::cipher::{card_point, open_deck, CardId, Ciphertext};
use orbis_deal::keys::{joint_key, PublicShare, SecretShare};
use orbis_deal::share::{decryption_share, open, verify_share};
use orbis_deal::shuffle::{shuffle, verify_shuffle, ShuffleProof};
use orbis_deal::DealError;
use rand_chacha3::rand_core::SeedableRng;
use rand_chacha3::ChaCha20Rng;

const DECK: &[u8] = b"territory";
const CARDS: CardId = 44;

struct Table {
    secrets: Vec<SecretShare>,
    keys: Vec<RistrettoPoint>,
    joint: RistrettoPoint,
    rng: ChaCha20Rng,
}

fn table(players: usize, seed: u8) -> Table {
    let mut rng = ChaCha20Rng::from_seed([seed; 32]);
    let secrets: Vec<SecretShare> = (0..players)
        .map(|_| SecretShare::generate(&mut rng))
        .collect();
    let published: Vec<PublicShare> = secrets
        .iter()
        .enumerate()
        .map(|(i, s)| s.public(format!("game seat {i}").as_bytes(), &mut rng))
        .collect();
    let keys: Vec<RistrettoPoint> = published
        .iter()
        .enumerate()
        .map(|(i, p)| p.verify(format!("game seat {i}").as_bytes()).unwrap())
        .collect();
    let joint = joint_key(&keys);
    Table {
        secrets,
        keys,
        joint,
        rng,
    }
}

/// Every participant shuffles in turn; every shuffle is checked against the previous deck.
fn shuffled(t: &mut Table) -> Vec<Ciphertext> {
    let mut deck = open_deck(DECK, CARDS);
    for i in 0..t.secrets.len() {
        let ctx = format!("game deck shuffle {i}");
        let (out, proof) = shuffle(ctx.as_bytes(), &t.joint, &deck, &mut t.rng).unwrap();
        verify_shuffle(ctx.as_bytes(), &t.joint, &deck, &out, &proof).unwrap();
        deck = out;
    }
    deck
}

/// `holder` reads position `at`: every other participant's share, checked, plus its own.
fn draw(t: &mut Table, deck: &[Ciphertext], at: usize, holder: usize) -> CardId {
    let ctx = format!("game draw {at}");
    let mut shares = vec![];
    for (i, s) in t.secrets.iter().enumerate() {
        let d = decryption_share(ctx.as_bytes(), s, &deck[at], &mut t.rng).unwrap();
        let checked = verify_share(ctx.as_bytes(), &t.keys[i], &deck[at], &d).unwrap();
        if i != holder {
            shares.push(checked);
        }
    }
    let own = decryption_share(ctx.as_bytes(), &t.secrets[holder], &deck[at], &mut t.rng).unwrap();
    shares.push(own.share.decompress().unwrap());
    open(DECK, CARDS, &deck[at], &shares).unwrap()
}

#[test]
fn a_deal_among_three_and_six_gives_every_card_once() {
    for players in [3, 6] {
        let mut t = table(players, players as u8);
        let deck = shuffled(&mut t);
        let mut seen: Vec<CardId> = (0..CARDS as usize)
            .map(|at| draw(&mut t, &deck, at, at % players))
            .collect();
        // Shuffled: not the open order.
        assert_ne!(seen, (0..CARDS).collect::<Vec<_>>());
        seen.sort_unstable();
        assert_eq!(seen, (0..CARDS).collect::<Vec<_>>());
    }
}

#[test]
fn without_every_share_nobody_reads_a_card() {
    let mut t = table(3, 9);
    let deck = shuffled(&mut t);
    let ctx = b"game draw 0";
    // Two of three shares (a coalition short of everyone): the card stays hidden.
    let shares: Vec<RistrettoPoint> = t.secrets[..2]
        .iter()
        .map(|s| {
            decryption_share(ctx, s, &deck[0], &mut t.rng)
                .unwrap()
                .share
                .decompress()
                .unwrap()
        })
        .collect();
    assert_eq!(
        open(DECK, CARDS, &deck[0], &shares),
        Err(DealError::UnknownCard)
    );
}

fn honest(t: &mut Table) -> (Vec<Ciphertext>, Vec<Ciphertext>, ShuffleProof) {
    let input = open_deck(DECK, CARDS);
    let (out, proof) = shuffle(b"ctx", &t.joint, &input, &mut t.rng).unwrap();
    (input, out, proof)
}

fn encrypt(t: &mut Table, id: CardId) -> Ciphertext {
    let r = Scalar::random(&mut t.rng);
    Ciphertext {
        c1: RistrettoPoint::mul_base(&r).compress(),
        c2: (card_point(DECK, id) + r * t.joint).compress(),
    }
}

#[test]
fn a_shuffle_that_replaces_a_card_is_caught() {
    let mut t = table(3, 2);
    let (input, mut out, proof) = honest(&mut t);
    // A second copy of card 0 instead of whatever stood at position 5.
    out[5] = encrypt(&mut t, 0);
    assert!(matches!(
        verify_shuffle(b"ctx", &t.joint, &input, &out, &proof),
        Err(DealError::ShuffleProof(_))
    ));
}

#[test]
fn a_shuffle_that_duplicates_a_card_is_caught() {
    let mut t = table(3, 3);
    let (input, mut out, proof) = honest(&mut t);
    out[1] = out[0];
    assert!(verify_shuffle(b"ctx", &t.joint, &input, &out, &proof).is_err());
}

#[test]
fn a_shuffle_reordered_after_its_proof_is_caught() {
    let mut t = table(3, 4);
    let (input, mut out, proof) = honest(&mut t);
    out.swap(0, 1);
    assert!(verify_shuffle(b"ctx", &t.joint, &input, &out, &proof).is_err());
}

#[test]
fn a_proof_replayed_elsewhere_or_altered_is_caught() {
    let mut t = table(3, 5);
    let (input, out, proof) = honest(&mut t);
    assert_eq!(
        verify_shuffle(b"ctx", &t.joint, &input, &out, &proof),
        Ok(())
    );
    assert!(verify_shuffle(b"another game", &t.joint, &input, &out, &proof).is_err());
    let other_key = t.keys[0];
    assert!(verify_shuffle(b"ctx", &other_key, &input, &out, &proof).is_err());
    let mut p = proof.clone();
    p.s1 += Scalar::ONE;
    assert!(verify_shuffle(b"ctx", &t.joint, &input, &out, &p).is_err());
    let mut p = proof.clone();
    p.s_prime[7] += Scalar::ONE;
    assert!(verify_shuffle(b"ctx", &t.joint, &input, &out, &p).is_err());
    let mut p = proof.clone();
    p.commitments.swap(2, 3);
    assert!(verify_shuffle(b"ctx", &t.joint, &input, &out, &p).is_err());
    let mut p = proof.clone();
    p.t_hat.pop();
    assert_eq!(
        verify_shuffle(b"ctx", &t.joint, &input, &out, &p),
        Err(DealError::Length {
            expected: CARDS as u32,
            got: CARDS as u32 - 1
        })
    );
    let mut p = proof;
    p.chain[0] = CompressedRistretto([0xff; 32]);
    assert_eq!(
        verify_shuffle(b"ctx", &t.joint, &input, &out, &p),
        Err(DealError::NotAPoint("a shuffle proof"))
    );
}

#[test]
fn a_shuffle_by_someone_who_knows_no_permutation_cannot_be_proved_from_another() {
    // Re-using an honest proof for a different honest-looking shuffle of the same input fails:
    // the proof is bound to its output.
    let mut t = table(3, 6);
    let input = open_deck(DECK, CARDS);
    let (_, proof) = shuffle(b"ctx", &t.joint, &input, &mut t.rng).unwrap();
    let (other, _) = shuffle(b"ctx", &t.joint, &input, &mut t.rng).unwrap();
    assert!(verify_shuffle(b"ctx", &t.joint, &input, &other, &proof).is_err());
}

#[test]
fn a_false_decryption_share_is_caught() {
    let mut t = table(3, 7);
    let deck = shuffled(&mut t);
    let ctx = b"game draw 3";
    // A share made with a key other than the published one.
    let stranger = SecretShare::generate(&mut t.rng);
    let d = decryption_share(ctx, &stranger, &deck[3], &mut t.rng).unwrap();
    assert_eq!(
        verify_share(ctx, &t.keys[0], &deck[3], &d),
        Err(DealError::ShareProof)
    );
    // An honest share, offered for another position or another draw.
    let d = decryption_share(ctx, &t.secrets[0], &deck[3], &mut t.rng).unwrap();
    assert!(verify_share(ctx, &t.keys[0], &deck[3], &d).is_ok());
    assert_eq!(
        verify_share(ctx, &t.keys[0], &deck[4], &d),
        Err(DealError::ShareProof)
    );
    assert_eq!(
        verify_share(b"game draw 4", &t.keys[0], &deck[3], &d),
        Err(DealError::ShareProof)
    );
    // A share point swapped for another (to show the holder a different card).
    let mut lie = d;
    lie.share =
        (d.share.decompress().unwrap() + card_point(DECK, 1) - card_point(DECK, 2)).compress();
    assert_eq!(
        verify_share(ctx, &t.keys[0], &deck[3], &lie),
        Err(DealError::ShareProof)
    );
}

#[test]
fn garbage_never_panics() {
    let mut t = table(3, 8);
    let (input, out, proof) = honest(&mut t);
    let mut rng = ChaCha20Rng::from_seed([42; 32]);
    use rand_chacha3::rand_core::RngCore;
    for _ in 0..200 {
        let mut junk = [0u8; 32];
        rng.fill_bytes(&mut junk);
        let mut o = out.clone();
        o[(junk[0] % 44) as usize].c2 = CompressedRistretto(junk);
        assert!(verify_shuffle(b"ctx", &t.joint, &input, &o, &proof).is_err());
        let d = orbis_deal::share::DecryptionShare {
            share: CompressedRistretto(junk),
            t_g: CompressedRistretto(junk),
            t_c: CompressedRistretto(junk),
            response: Scalar::from_bytes_mod_order(junk),
        };
        assert!(verify_share(b"x", &t.keys[0], &out[0], &d).is_err());
    }
}

#[test]
fn a_holder_reveals_a_card_anyone_can_check() {
    let mut t = table(3, 10);
    let deck = shuffled(&mut t);
    let ctx = b"game draw 2";
    // Seat 1 drew position 2: it kept every share it was sent, and made its own.
    let shares: Vec<_> = t
        .secrets
        .iter()
        .map(|s| decryption_share(ctx, s, &deck[2], &mut t.rng).unwrap())
        .collect();
    let points: Vec<RistrettoPoint> = shares
        .iter()
        .map(|d| d.share.decompress().unwrap())
        .collect();
    let card = open(DECK, CARDS, &deck[2], &points).unwrap();
    let reveal = orbis_deal::share::Reveal { shares };
    let check = |r: &orbis_deal::share::Reveal, at: usize| {
        orbis_deal::share::verify_reveal(ctx, &t.keys, DECK, CARDS, &deck[at], r)
    };
    assert_eq!(check(&reveal, 2), Ok(card));
    // The same shares do not show another position's card (a player cannot trade a card they
    // did not draw), and a forged share names its seat.
    assert_eq!(check(&reveal, 3), Err((Some(0), DealError::ShareProof)));
    let mut forged = reveal.clone();
    forged.shares[2].share = forged.shares[0].share;
    assert_eq!(check(&forged, 2), Err((Some(2), DealError::ShareProof)));
    let mut short = reveal;
    short.shares.pop();
    assert!(matches!(
        check(&short, 2),
        Err((None, DealError::Length { .. }))
    ));
}

#[test]
fn all_the_others_stand_in_for_a_participant_who_left() {
    use orbis_deal::escrow::{escrow, open_piece, stand_in, verify_escrow, Unsealed};
    let mut t = table(4, 11);
    let ctx = b"game escrow";
    let escrows: Vec<_> = (0..4)
        .map(|i| escrow(ctx, &t.secrets[i], i as u8, &t.keys, &mut t.rng).unwrap())
        .collect();
    let commitments: Vec<_> = escrows
        .iter()
        .enumerate()
        .map(|(i, e)| verify_escrow(ctx, i as u8, &t.keys[i], 4, e).unwrap())
        .collect();
    let deck = shuffled(&mut t);
    // Seat 2 has left. Seat 0 draws position 5: seats 1 and 3 send their shares, and every
    // other seat sends the share of its piece of seat 2's key, each checked.
    let draw = b"game draw 5";
    let ct = &deck[5];
    let mut shares = vec![];
    for i in [1, 3] {
        let d = decryption_share(draw, &t.secrets[i], ct, &mut t.rng).unwrap();
        shares.push(verify_share(draw, &t.keys[i], ct, &d).unwrap());
    }
    let mut pieces = vec![];
    for piece in &escrows[2].pieces {
        let holder = piece.to as usize;
        let Ok(Unsealed::Piece(y)) = open_piece(ctx, 2, piece, &t.secrets[holder], &mut t.rng)
        else {
            panic!("an honest piece opens");
        };
        let d = decryption_share(draw, &y, ct, &mut t.rng).unwrap();
        let commitment = commitments[2][holder].unwrap();
        pieces.push(verify_share(draw, &commitment, ct, &d).unwrap());
    }
    shares.push(stand_in(&pieces));
    shares.push(
        decryption_share(draw, &t.secrets[0], ct, &mut t.rng)
            .unwrap()
            .share
            .decompress()
            .unwrap(),
    );
    let card = open(DECK, CARDS, ct, &shares).unwrap();
    // The same card seat 2 itself would have let seat 0 read.
    assert_eq!(card, draw_with_all(&mut t, ct, draw));
}

fn draw_with_all(t: &mut Table, ct: &Ciphertext, ctx: &[u8]) -> CardId {
    let shares: Vec<RistrettoPoint> = t
        .secrets
        .iter()
        .map(|s| {
            decryption_share(ctx, s, ct, &mut t.rng)
                .unwrap()
                .share
                .decompress()
                .unwrap()
        })
        .collect();
    open(DECK, CARDS, ct, &shares).unwrap()
}

#[test]
fn a_wrong_escrow_is_caught_and_so_is_a_false_complaint() {
    use orbis_deal::escrow::{
        escrow, open_piece, verify_complaint, verify_escrow, Complaint, Unsealed,
    };
    let mut t = table(3, 12);
    let ctx = b"game escrow";
    let honest = escrow(ctx, &t.secrets[0], 0, &t.keys, &mut t.rng).unwrap();
    // Pieces that do not add up to the key are refused in public.
    let mut e = honest.clone();
    e.pieces[0].commitment = e.pieces[1].commitment;
    assert!(matches!(
        verify_escrow(ctx, 0, &t.keys[0], 3, &e),
        Err(DealError::Escrow(_))
    ));
    // A piece sealed wrong: its holder complains, and the complaint proves it.
    let mut e = honest.clone();
    e.pieces[1].sealed += Scalar::ONE;
    let piece = e.pieces[1];
    let holder = piece.to as usize;
    let Ok(Unsealed::Wrong(complaint)) = open_piece(ctx, 0, &piece, &t.secrets[holder], &mut t.rng)
    else {
        panic!("the holder finds the piece wrong");
    };
    assert_eq!(
        verify_complaint(ctx, 0, &piece, &t.keys[holder], &complaint),
        Ok(())
    );
    // A holder who complains about a good piece is caught instead.
    let piece = honest.pieces[1];
    assert!(matches!(
        open_piece(ctx, 0, &piece, &t.secrets[holder], &mut t.rng),
        Ok(Unsealed::Piece(_))
    ));
    assert!(verify_complaint(ctx, 0, &piece, &t.keys[holder], &complaint).is_err());
    let made_up = Complaint {
        dh: RistrettoPoint::mul_base(&Scalar::from(7u8)).compress(),
        ..complaint
    };
    assert!(verify_complaint(ctx, 0, &piece, &t.keys[holder], &made_up).is_err());
}

/// Security review A1, the building block: a key share is never split for a single holder (its
/// one piece would be the whole share), and such an escrow, made by hand, is refused in public.
#[test]
fn an_escrow_to_a_single_holder_is_neither_made_nor_taken() {
    use orbis_deal::escrow::{escrow, verify_escrow, Escrow, EscrowPiece};
    let mut t = table(2, 13);
    let ctx = b"game escrow";
    assert!(matches!(
        escrow(ctx, &t.secrets[0], 0, &t.keys, &mut t.rng),
        Err(DealError::Escrow(_))
    ));
    // The one piece a two-seat escrow would hold: the key itself, committed as the key.
    let by_hand = Escrow {
        holders: orbis_deal::escrow::holders_digest(&t.keys),
        pieces: vec![EscrowPiece {
            to: 1,
            commitment: t.keys[0].compress(),
            ephemeral: RistrettoPoint::mul_base(&Scalar::from(5u8)).compress(),
            sealed: Scalar::ONE,
            ephemeral_t: RistrettoPoint::mul_base(&Scalar::from(6u8)).compress(),
            ephemeral_s: Scalar::ONE,
        }],
    };
    assert!(matches!(
        verify_escrow(ctx, 0, &t.keys[0], 2, &by_hand),
        Err(DealError::Escrow(_))
    ));
}

/// Security review A5, attacked: a sealer that picks a piece's ephemeral point `E` itself, as the
/// `c1` of a card it wants to read, and seals garbage, so that the holder's complaint (which
/// publishes `x_holder·E` with a proof) hands it the holder's decryption share of that card.
/// Every piece now carries a proof that its sealer knows `e` with `E = e·G`; an `E` chosen
/// without it is refused in public, before any holder unseals anything; and with the proof, the
/// point a complaint publishes, `x_holder·E = e·X_holder`, is one the sealer had already.
#[test]
fn an_escrow_piece_aimed_at_a_card_has_no_proof_and_is_refused() {
    use orbis_deal::escrow::{escrow, open_piece, verify_escrow, Unsealed};
    let mut t = table(3, 14);
    let ctx = b"game escrow";
    let deck = shuffled(&mut t);
    let target = deck[7].c1.decompress().unwrap();
    let honest = escrow(ctx, &t.secrets[0], 0, &t.keys, &mut t.rng).unwrap();
    assert!(verify_escrow(ctx, 0, &t.keys[0], 3, &honest).is_ok());
    // The attack: the piece for seat 1 gets E = c1 of card 7 and a wrong seal.
    let mut aimed = honest.clone();
    aimed.pieces[0].ephemeral = target.compress();
    aimed.pieces[0].sealed += Scalar::ONE;
    // Were it taken, seat 1's complaint would be seat 1's share of card 7.
    let Ok(Unsealed::Wrong(c)) = open_piece(ctx, 0, &aimed.pieces[0], &t.secrets[1], &mut t.rng)
    else {
        panic!("the holder finds the piece wrong");
    };
    let leaked = decryption_share(b"any", &t.secrets[1], &deck[7], &mut t.rng).unwrap();
    assert_eq!(c.dh, leaked.share, "the complaint is a decryption share");
    // It is refused in public: no proof of knowledge of that E.
    assert_eq!(
        verify_escrow(ctx, 0, &t.keys[0], 3, &aimed),
        Err(DealError::Escrow(
            "no proof of knowledge of a seal's ephemeral key"
        ))
    );
    // Nor can the proof be moved to another context (another game, or another owner).
    assert!(verify_escrow(b"another game", 0, &t.keys[0], 3, &honest).is_err());
}
