//! What `orbis verify` says of how a game ended (issue 64), and that the replay screen's verdict
//! is the same: an orders game's solo and draw (with the drawing powers), an economy game's
//! winner by elimination or on the round limit's best score, and a halted game, which says
//! where it stopped and whom it names, never who won.

use crate::common;

use common::economy::state;
use common::finished::*;
use common::Net;
use orbis_engine::rules::economy::map::EconomyMap;
use orbis_engine::rules::economy::state::Standing;
use orbis_engine::rules::orders::Phase;
use orbis_engine::rules::Game;
use orbis_protocol::peer::{check, replay, verify, Outcome, Report, VerifyError};

/// Peer `i`'s transcript, verified; the replay screen's verdict on it is the same report.
fn verified(net: &Net, i: usize) -> Report {
    let t = net.peers[i].transcript().expect("a game ran");
    let r = verify(&t).unwrap_or_else(|e| panic!("peer {i}'s transcript: {e}"));
    assert_eq!(r.positions, net.peers[i].log_len());
    let rp = replay(&t).expect("replays");
    assert_eq!(rp.verdict.as_ref(), Ok(&r), "the replay screen agrees");
    assert!(rp.stop.is_none());
    r
}

#[test]
fn an_orders_solo_names_the_power_its_seat_and_its_centres() {
    let net = orders_solo(1);
    let Some(Game::Orders(s)) = net.peers[0].game() else {
        panic!("an orders game")
    };
    let Phase::GameOver { winner: Some(w) } = s.phase else {
        panic!("won")
    };
    let map = s.map();
    assert_eq!(net.peers[0].seat_powers()[0], w);
    for i in 0..2 {
        let r = verified(&net, i);
        assert_eq!(r.winner, Some(0), "seat 0 won");
        let Some(Outcome::Solo { power, centres, of }) = &r.outcome else {
            panic!("a solo: {:?}", r.outcome)
        };
        assert_eq!((power.power, power.seat), (w, Some(0)));
        assert_eq!(power.name, map.powers[w as usize].name);
        assert_eq!(*centres, s.centre_count(w));
        assert!(*centres >= map.victory as usize);
        assert_eq!(*of, map.centres().count());
        let text = r.outcome.as_ref().unwrap().to_string();
        assert_eq!(
            text,
            format!("{} wins with {centres} of {of} supply centres", power.name)
        );
    }
}

#[test]
fn an_orders_draw_names_every_drawing_power() {
    let net = orders_draw(2);
    let seats = net.peers[0].seat_powers();
    let Some(Game::Orders(s)) = net.peers[0].game() else {
        panic!("an orders game")
    };
    let r = verified(&net, 1);
    assert_eq!(r.winner, None, "nobody won");
    let Some(Outcome::Drawn { powers }) = &r.outcome else {
        panic!("a draw: {:?}", r.outcome)
    };
    // The three seats' powers, each with its seat, in power order.
    let mut want: Vec<_> = seats
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, i as u8))
        .collect();
    want.sort();
    let got: Vec<_> = powers.iter().map(|p| (p.power, p.seat.unwrap())).collect();
    assert_eq!(got, want);
    let name = |p| s.map().powers[p as usize].name.clone();
    assert!(powers.iter().all(|p| p.name == name(p.power)));
    let text = r.outcome.as_ref().unwrap().to_string();
    assert!(text.starts_with("The game is drawn between "), "{text}");
    for (p, seat) in want {
        assert!(
            text.contains(&format!("{} (seat {seat})", name(p))),
            "{text}"
        );
    }
}

#[test]
fn an_economy_game_won_by_elimination_says_so() {
    let net = economy_to_end(1, 1_000);
    let s = state(&net, 0);
    let w = s.winner.expect("a winner");
    assert_eq!(s.playing().collect::<Vec<_>>(), vec![w]);
    assert!(s.players.iter().any(|p| p.standing == Standing::Eliminated));
    let r = verified(&net, 0);
    assert_eq!(r.winner, Some(w));
    assert_eq!(
        r.outcome,
        Some(Outcome::LastStanding {
            player: w,
            name: s.players[w as usize].name.clone()
        })
    );
    assert_eq!(
        r.outcome.unwrap().to_string(),
        format!("P{w} wins as the last player standing")
    );
}

#[test]
fn an_economy_game_the_round_limit_ends_names_the_best_score() {
    let net = economy_to_end(11, 3);
    let s = state(&net, 0);
    let w = s.winner.expect("a winner");
    assert!(s.playing().count() > 1, "the round limit ended it");
    let r = verified(&net, 2);
    assert_eq!(r.winner, Some(w));
    let score = s.score(EconomyMap::get(), w);
    assert_eq!(
        r.outcome,
        Some(Outcome::BestScore {
            player: w,
            name: format!("P{w}"),
            rounds: 3,
            score
        })
    );
    let text = r.outcome.unwrap().to_string();
    assert!(
        text.starts_with(&format!(
            "P{w} wins on the best score when the round limit ended the game after 3 rounds"
        )),
        "{text}"
    );
}

#[test]
fn a_halted_economy_game_says_where_it_stopped_and_whom_it_names() {
    let (net, round) = economy_halted(13);
    let cheat = net.peers[ECONOMY_CHEAT].key();
    for i in 0..2 {
        let t = net.peers[i].transcript().expect("a transcript");
        let c = check(&t);
        match &c.verdict {
            Err(VerifyError::Cheat { peer: Some(k), .. }) => assert_eq!(*k, cheat),
            v => panic!("peer {i}'s transcript: {v:?}"),
        }
        let stop = c.stop.clone().expect("where it stopped");
        assert_eq!(stop.positions, net.peers[i].log_len());
        assert!(
            stop.positions <= u64::from(round) + 1,
            "{stop:?}, round {round}"
        );
        assert_eq!(stop.seats, vec![format!("P{ECONOMY_CHEAT}")]);
        let why = c.rejection().expect("rejected");
        assert!(
            why.starts_with(&format!("participant {cheat} (P{ECONOMY_CHEAT}) cheated: ")),
            "{why}"
        );
        assert!(
            why.ends_with(&format!(
                "(the game stopped after {} log positions)",
                stop.positions
            )),
            "{why}"
        );
        // The replay screen stops there with the same verdict.
        let rp = replay(&t).expect("replays");
        assert_eq!(rp.verdict, c.verdict);
        assert_eq!(rp.stop, Some(stop.clone()));
        assert_eq!(rp.states.len() as u64, stop.positions + 1);
    }
}
