//! The orders ruleset over the protocol: every phase is one commit-reveal round, every peer
//! adjudicates, and all end with the same state hash; cheating on orders is named.

use crate::common;

use common::{Net, NetParams};
use ed25519_dalek::SigningKey;
use orbis_engine::classic::{BotLevel, ClassicOptions, Colour};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId};
use orbis_engine::rules::orders::notation::{self, Spec};
use orbis_engine::rules::orders::{OrdersEvent, OrdersOptions, Phase, Season};
use orbis_engine::rules::Game;
use orbis_protocol::wire::{encode_orders, orders_commitment, OrdersPayload, OrdersSetup};
use orbis_protocol::{
    Body, Control, Controller, Envelope, HaltReport, PeerKey, ProtocolEvent, SeatSpec,
    SetupProposal, Violation,
};

const ENGLAND: PowerId = 0;
const FRANCE: PowerId = 1;
const GERMANY: PowerId = 2;

/// A Europe 1901 proposal: peers `0..n_peers` on the first seats, computer powers of `level` on
/// the rest; `powers`: the lobby's choice of power per seat (empty: in seat order).
fn europe_proposal(
    net: &Net,
    n_peers: usize,
    level: BotLevel,
    powers: Vec<Option<PowerId>>,
) -> SetupProposal {
    let seats = (0..7)
        .map(|i| SeatSpec {
            name: format!("S{i}"),
            colour: Colour::ALL[i % Colour::ALL.len()],
            controller: if i < n_peers {
                Controller::Peer(i as u8)
            } else {
                Controller::Bot(level)
            },
        })
        .collect();
    SetupProposal {
        participants: net.keys(),
        seats,
        options: ClassicOptions::default(),
        orders: Some(OrdersSetup {
            map: "europe-1901".into(),
            options: OrdersOptions::default(),
            powers,
        }),
        face_down: false,
        stand_in: true,
        economy: None,
        nonce: 7,
        clock: None,
    }
}

/// Europe 1901 with peers 0, 1, 2 as England, France, Germany and the other four powers bots.
fn europe(n_peers: usize, seed: u64, params: NetParams) -> Net {
    let mut net = Net::new(n_peers, seed, params);
    for a in net.autoplay.iter_mut() {
        *a = false;
    }
    let p = europe_proposal(&net, n_peers, BotLevel::Normal, vec![]);
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    net
}

fn orders(power: PowerId, lines: &[&str]) -> (PowerId, Vec<notation::Written>) {
    let map = OrdersMap::get("europe-1901").expect("map");
    let list = lines
        .iter()
        .map(|l| notation::parse(map, l).unwrap_or_else(|e| panic!("{l}: {e:?}")))
        .collect();
    (power, list)
}

fn salt(i: usize, round: u32) -> [u8; 32] {
    let mut s = [i as u8; 32];
    s[..4].copy_from_slice(&round.to_le_bytes());
    s
}

fn submit(net: &mut Net, i: usize, orders: Vec<(PowerId, Vec<notation::Written>)>) {
    submit_payload(net, i, OrdersPayload::orders(orders));
}

fn submit_payload(net: &mut Net, i: usize, payload: OrdersPayload) {
    let (round, _) = net.peers[i].orders_due().expect("orders due");
    let o = net.peers[i]
        .submit_orders(payload, salt(i, round))
        .expect("legal orders");
    net.process(i, o);
}

fn state(net: &Net, i: usize) -> &orbis_engine::rules::orders::OrdersState {
    match net.peers[i].game() {
        Some(Game::Orders(s)) => s,
        _ => panic!("not an orders game"),
    }
}

fn phase_at(net: &Net, i: usize) -> (u16, Season, Phase) {
    let s = state(net, i);
    (s.year, s.season, s.phase)
}

/// Runs until every peer in `who` has resolved `phases` phases.
fn run_to(net: &mut Net, who: &[usize], phases: u64) {
    let who = who.to_vec();
    assert!(
        net.run_until(net.now + 200_000, |n| who
            .iter()
            .all(|&i| n.peers[i].log_len() >= phases)),
        "phase {phases} not reached: {:?}",
        who.iter()
            .map(|&i| net.peers[i].log_len())
            .collect::<Vec<_>>()
    );
}

fn hashes(net: &Net, who: &[usize]) -> Vec<[u8; 32]> {
    who.iter()
        .map(|&i| net.peers[i].state_hash().expect("started"))
        .collect()
}

fn rejections(net: &Net, i: usize, who: PeerKey) -> Vec<Violation> {
    net.events[i]
        .iter()
        .filter_map(|e| match e {
            ProtocolEvent::Rejected {
                peer: Some(p),
                violation,
                ..
            } if *p == who => Some(violation.clone()),
            _ => None,
        })
        .collect()
}

fn no_complaints(net: &Net) {
    for i in 0..net.peers.len() {
        assert!(
            net.complaints(i).is_empty(),
            "peer {i}: {:?}",
            net.complaints(i)
        );
    }
}

/// Spring (moves), Fall (a dislodgement), the retreat, the winter builds and the next Spring,
/// on a lossy, reordering, duplicating network: every peer ends with the same state.
fn spring_fall_retreat_build(seed: u64, params: NetParams) {
    let all = [0, 1, 2];
    let mut net = europe(3, seed, params);
    assert_eq!(net.peers[0].seat_powers(), vec![0, 1, 2, 3, 4, 5, 6]);
    // Nothing is resolved before every peer (bots need nobody) has committed and revealed.
    assert_eq!(
        net.peers[0].orders_due(),
        Some((0, vec![ENGLAND])),
        "England writes orders in round 0"
    );
    submit(
        &mut net,
        0,
        vec![orders(
            ENGLAND,
            &["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
        )],
    );
    submit(
        &mut net,
        1,
        vec![orders(
            FRANCE,
            &["F BRE - MAO", "A PAR - PIC", "A MAR - GAS"],
        )],
    );
    net.run_until(net.now + 2_000, |_| false);
    assert_eq!(
        net.peers[0].log_len(),
        0,
        "resolved without Germany's orders"
    );
    assert_eq!(net.peers[0].orders_committed().len(), 2);
    assert_eq!(net.peers[0].waiting_on(), vec![net.peers[2].key()]);
    submit(
        &mut net,
        2,
        vec![orders(
            GERMANY,
            &["A MUN - BUR", "F KIE - HOL", "A BER - KIE"],
        )],
    );
    run_to(&mut net, &all, 1);
    assert_eq!(phase_at(&net, 0), (1901, Season::Fall, Phase::Movement));

    // Fall: France dislodges the German army in Burgundy.
    submit(
        &mut net,
        0,
        vec![orders(ENGLAND, &["F NWG - NWY", "F NTH H", "A YOR H"])],
    );
    submit(
        &mut net,
        1,
        vec![orders(
            FRANCE,
            &["A PIC - BUR", "A GAS S A PIC - BUR", "F MAO - POR"],
        )],
    );
    submit(&mut net, 2, vec![orders(GERMANY, &["A BUR H"])]);
    run_to(&mut net, &all, 2);
    assert_eq!(phase_at(&net, 0), (1901, Season::Fall, Phase::Retreat));
    assert_eq!(state(&net, 1).dislodged.len(), 1);

    // Retreat: only Germany has something to order; the others commit empty orders by
    // themselves.
    assert_eq!(net.peers[1].orders_due(), None);
    assert_eq!(net.peers[0].orders_due(), None);
    assert_eq!(net.peers[2].orders_due(), Some((2, vec![GERMANY])));
    submit(&mut net, 2, vec![orders(GERMANY, &["A BUR R MUN"])]);
    run_to(&mut net, &all, 3);
    assert_eq!(phase_at(&net, 2), (1901, Season::Fall, Phase::Adjustment));

    // Winter: England (Norway), France (Portugal) and Germany (Holland) build.
    submit(&mut net, 0, vec![orders(ENGLAND, &["F EDI B"])]);
    submit(&mut net, 1, vec![orders(FRANCE, &["A PAR B"])]);
    submit(&mut net, 2, vec![orders(GERMANY, &["A BER B"])]);
    run_to(&mut net, &all, 4);
    assert_eq!(phase_at(&net, 0), (1902, Season::Spring, Phase::Movement));
    let s = state(&net, 0);
    for p in [ENGLAND, FRANCE, GERMANY] {
        assert_eq!(
            s.units.iter().filter(|u| u.power == p).count(),
            4,
            "power {p}"
        );
    }
    // Every peer saw the same results, and the same state hash at every checkpoint.
    let h = hashes(&net, &all);
    assert!(h.iter().all(|x| *x == h[0]), "{h:?}");
    let resolved = |i: usize| -> Vec<Vec<OrdersEvent>> {
        net.events[i]
            .iter()
            .filter_map(|e| match e {
                ProtocolEvent::PhaseResolved { events, .. } => Some(events.clone()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(resolved(0).len(), 4);
    assert_eq!(resolved(0), resolved(1));
    assert_eq!(resolved(0), resolved(2));
    assert_eq!(net.peers[0].log_head(), net.peers[2].log_head());
    // Let the last checkpoints cross: nobody complains.
    net.run_until(net.now + 2_000, |_| false);
    no_complaints(&net);
}

#[test]
fn orders_phases_end_with_equal_hashes() {
    spring_fall_retreat_build(1, NetParams::perfect());
}

#[test]
fn orders_phases_over_a_lossy_network() {
    for seed in 2..5 {
        spring_fall_retreat_build(
            seed,
            NetParams {
                max_delay: 40,
                drop_pct: 10,
                dup_pct: 10,
            },
        );
    }
}

/// The world map with `n` peers and no computer seat.
fn world(n: usize, seed: u64) -> Net {
    let mut net = Net::new(n, seed, NetParams::perfect());
    for a in net.autoplay.iter_mut() {
        *a = false;
    }
    let seats = (0..n)
        .map(|i| SeatSpec {
            name: format!("S{i}"),
            colour: Colour::ALL[i],
            controller: Controller::Peer(i as u8),
        })
        .collect();
    let p = SetupProposal {
        participants: net.keys(),
        seats,
        options: ClassicOptions::default(),
        orders: Some(OrdersSetup {
            map: "world".into(),
            options: OrdersOptions::default(),
            powers: vec![],
        }),
        face_down: false,
        stand_in: true,
        economy: None,
        nonce: 1,
        clock: None,
    };
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    net
}

#[test]
fn two_peers_on_the_world_map() {
    let mut net = world(2, 9);
    let powers = net.peers[0].seat_powers();
    assert_eq!(powers.len(), 2);
    for phase in 0..4u64 {
        for i in 0..2 {
            // Everyone holds: phases still go round.
            if let Some((_, due)) = net.peers[i].orders_due() {
                if !due.is_empty() {
                    submit(&mut net, i, vec![]);
                }
            }
        }
        run_to(&mut net, &[0, 1], phase + 1);
    }
    let h = hashes(&net, &[0, 1]);
    assert_eq!(h[0], h[1]);
    assert_eq!(state(&net, 0).year, 1903);
    no_complaints(&net);
}

#[test]
fn a_proposal_for_a_missing_setup_is_refused() {
    let net = Net::new(2, 3, NetParams::perfect());
    let mut p = net.proposal(0);
    p.orders = Some(OrdersSetup {
        map: "europe-1901".into(),
        options: OrdersOptions::default(),
        powers: vec![],
    });
    let e = orbis_protocol::peer::check_proposal(&p).unwrap_err();
    assert!(e.contains("no setup for 2"), "{e}");
    p.orders = Some(OrdersSetup {
        map: "mars".into(),
        options: OrdersOptions::default(),
        powers: vec![],
    });
    assert!(orbis_protocol::peer::check_proposal(&p).is_err());
}

/// A peer that reveals illegal orders (another power's, a unit it does not own): those orders
/// are void, its legal ones stand, it is named, and every peer still agrees.
#[test]
fn illegal_revealed_orders_are_void_and_named() {
    let all = [0, 1, 2];
    let mut net = europe(3, 11, NetParams::perfect());
    let cheat = net.peers[2].key();
    submit(&mut net, 0, vec![orders(ENGLAND, &["F LON - ENG"])]);
    submit(&mut net, 1, vec![orders(FRANCE, &["A PAR - BUR"])]);
    // Germany orders a French unit and France's army, bypassing the local checks.
    let payload = encode_orders(&OrdersPayload::orders(vec![
        orders(GERMANY, &["A MUN - RUH", "A PAR - PIC"]),
        orders(FRANCE, &["A MAR - SPA"]),
    ]));
    let o = net.peers[2].commit_orders(0, payload, [3; 32]).unwrap();
    net.process(2, o);
    run_to(&mut net, &all, 1);
    let s = state(&net, 0);
    let at = |p: &str| {
        let map = s.map();
        let id = map.province(p).expect("province");
        s.units
            .iter()
            .find(|u| u.loc.province == id)
            .map(|u| u.power)
    };
    assert_eq!(at("RUH"), Some(GERMANY), "Germany's legal order stands");
    assert_eq!(at("BUR"), Some(FRANCE));
    assert_eq!(
        at("MAR"),
        Some(FRANCE),
        "the order for France's army is void"
    );
    for i in [0, 1] {
        let r = rejections(&net, i, cheat);
        assert_eq!(r.len(), 2, "{r:?}");
        assert!(r
            .iter()
            .all(|v| matches!(v, Violation::IllegalOrders { round: 0, .. })));
    }
    let h = hashes(&net, &all);
    assert!(h.iter().all(|x| *x == h[0]));
}

/// A peer that reveals orders that do not match its commitment is named; the round waits for
/// its true reveal, and after a timeout the others drop it: its powers hold and the game goes on
/// with the same state on every honest peer. (A second commitment is equivocation:
/// `a_commitment_split_between_peers_halts_everyone_naming_its_sender`.)
#[test]
fn a_mismatching_reveal_is_named_and_the_round_waits() {
    const ATTACKER: usize = 2;
    let mut net = europe(3, 12, NetParams::perfect());
    let attacker = net.peers[ATTACKER].key();
    let key = SigningKey::from_bytes(&net.configs[ATTACKER].identity_secret);
    let better = encode_orders(&OrdersPayload::orders(vec![orders(
        GERMANY,
        &["A MUN - BUR"],
    )]));
    net.tamper = Some((
        ATTACKER,
        Box::new(move |_, _, _, bytes| {
            let (env, body) = Envelope::open_where(&bytes, |_| true).expect("valid");
            match body {
                Body::OrdersReveal { round, salt, .. } if env.sender == attacker => {
                    vec![Envelope::seal(
                        &key,
                        env.game_id,
                        env.seq,
                        &Body::OrdersReveal {
                            round,
                            payload: better.clone(),
                            salt,
                        },
                    )]
                }
                // Its answers to resend requests would carry its true reveal, which after the
                // false one is equivocation (both signed for one round): this test is the wait.
                Body::Batch { .. } => vec![],
                _ => vec![bytes],
            }
        }),
    ));
    submit(&mut net, ATTACKER, vec![orders(GERMANY, &["A MUN H"])]);
    submit(&mut net, 0, vec![orders(ENGLAND, &["F LON - ENG"])]);
    submit(&mut net, 1, vec![orders(FRANCE, &["A PAR - BUR"])]);
    net.run_until(net.now + 2_000, |_| false);
    for i in [0, 1] {
        let r = rejections(&net, i, attacker);
        assert!(r.contains(&Violation::OrdersMismatch { round: 0 }), "{r:?}");
        assert_eq!(
            net.peers[i].log_len(),
            0,
            "the round waits for a true reveal"
        );
        assert_eq!(net.peers[i].waiting_on(), vec![attacker]);
    }
    // The UI's timeout: both honest peers vote the attacker out.
    net.online[ATTACKER] = false;
    for i in [0, 1] {
        let o = net.peers[i]
            .vote(Control::Drop {
                peer: attacker,
                level: BotLevel::Normal,
            })
            .unwrap();
        net.process(i, o);
    }
    run_to(&mut net, &[0, 1], 1);
    // Germany's seat went to the computer: its units got the computer's orders (DumbBot-style
    // moves in Spring 1901, not the hold of civil disorder), the same on both peers.
    let german: Vec<Spec> = net.events[0]
        .iter()
        .find_map(|e| match e {
            ProtocolEvent::PhaseResolved { events, .. } => events.iter().find_map(|e| match e {
                OrdersEvent::Resolved { results, .. } => Some(
                    results
                        .iter()
                        .filter(|r| r.power == GERMANY)
                        .map(|r| r.order.spec)
                        .collect(),
                ),
                _ => None,
            }),
            _ => None,
        })
        .expect("the phase was resolved");
    assert_eq!(german.len(), 3, "{german:?}");
    assert!(german.iter().any(|o| *o != Spec::Hold), "{german:?}");
    let h = hashes(&net, &[0, 1]);
    assert_eq!(h[0], h[1]);
    // Next phase: Germany is a bot now, the honest peers play on.
    submit(&mut net, 0, vec![]);
    submit(&mut net, 1, vec![]);
    run_to(&mut net, &[0, 1], 2);
    let h = hashes(&net, &[0, 1]);
    assert_eq!(h[0], h[1]);
}

/// A peer reloaded after committing (its tab closed: everything in memory lost) catches up
/// from the others' resends, commits the same stored orders and salt again (an identical
/// commitment, so nobody complains), reveals, and the game goes on with equal hashes.
#[test]
fn a_reloaded_peer_reveals_its_stored_orders() {
    let all = [0, 1, 2];
    let mut net = europe(3, 21, NetParams::perfect());
    let france = vec![orders(FRANCE, &["A PAR - BUR"])];
    let payload = encode_orders(&OrdersPayload::orders(france));
    let o = net.peers[1]
        .commit_orders(0, payload.clone(), [42; 32])
        .unwrap();
    net.process(1, o);
    net.run_until(net.now + 500, |_| false);
    net.online[1] = false;
    submit(&mut net, 0, vec![]);
    submit(&mut net, 2, vec![]);
    net.run_until(net.now + 2_000, |_| false);
    assert_eq!(net.peers[0].log_len(), 0);
    assert_eq!(net.peers[0].waiting_on(), vec![net.peers[1].key()]);
    net.reload(1, vec![]);
    assert!(net.run_until(net.now + 20_000, |n| n.peers[1].game().is_some()));
    assert!(!net.peers[1].has_my_orders(0));
    let o = net.peers[1].commit_orders(0, payload, [42; 32]).unwrap();
    net.process(1, o);
    assert!(net.peers[1].has_my_orders(0));
    run_to(&mut net, &all, 1);
    let s = state(&net, 0);
    let bur = s.map().province("BUR").expect("BUR");
    assert!(s
        .units
        .iter()
        .any(|u| u.loc.province == bur && u.power == FRANCE));
    let h = hashes(&net, &all);
    assert!(h.iter().all(|x| *x == h[0]));
    net.run_until(net.now + 2_000, |_| false);
    no_complaints(&net);
}

/// Every peer's payload for its powers with a draw vote and no orders (units hold).
fn vote(net: &mut Net, i: usize, accept: bool) {
    let (_, due) = net.peers[i].orders_due().expect("orders due");
    let payload = OrdersPayload {
        orders: due.iter().map(|&p| (p, vec![])).collect(),
        draw: due.iter().map(|&p| (p, accept)).collect(),
    };
    submit_payload(net, i, payload);
}

fn drawn_events(net: &Net, i: usize) -> usize {
    net.events[i]
        .iter()
        .filter(|e| {
            matches!(e, ProtocolEvent::PhaseResolved { events, .. }
                if events.contains(&OrdersEvent::Drawn))
        })
        .count()
}

/// All survivors accept a draw in the same phase: the game ends drawn on every peer before that
/// phase is adjudicated, with equal hashes.
fn all_accept(n: usize, seed: u64) {
    let who: Vec<usize> = (0..n).collect();
    let mut net = world(n, seed);
    let units = state(&net, 0).units.clone();
    for i in 0..n {
        vote(&mut net, i, true);
    }
    run_to(&mut net, &who, 1);
    for &i in &who {
        let s = state(&net, i);
        assert_eq!(s.phase, Phase::GameOver { winner: None }, "peer {i}");
        assert_eq!((s.year, s.season), (1901, Season::Spring));
        assert_eq!(s.units, units, "the drawn phase is not adjudicated");
        assert_eq!(drawn_events(&net, i), 1);
        assert!(net.peers[i].orders_due().is_none());
    }
    let h = hashes(&net, &who);
    assert!(h.iter().all(|x| *x == h[0]));
    no_complaints(&net);
}

#[test]
fn two_peers_accept_a_draw() {
    all_accept(2, 31);
}

#[test]
fn three_peers_accept_a_draw() {
    all_accept(3, 32);
}

/// One survivor declines: the phase is adjudicated and the game goes on; the acceptances stand
/// (a power whose payload says nothing keeps its vote), and the draw comes once the last one
/// accepts in a later phase.
#[test]
fn one_declines_and_the_game_goes_on() {
    let all = [0, 1, 2];
    let mut net = world(3, 33);
    vote(&mut net, 0, true);
    vote(&mut net, 1, true);
    vote(&mut net, 2, false);
    run_to(&mut net, &all, 1);
    let powers = net.peers[0].seat_powers();
    for i in all {
        let s = state(&net, i);
        assert_eq!(
            (s.year, s.season, s.phase),
            (1901, Season::Fall, Phase::Movement)
        );
        assert_eq!(
            powers
                .iter()
                .map(|&p| s.draw[p as usize])
                .collect::<Vec<_>>(),
            vec![true, true, false]
        );
        assert_eq!(drawn_events(&net, i), 0);
    }
    let h = hashes(&net, &all);
    assert!(h.iter().all(|x| *x == h[0]));
    // Fall: peers 0 and 1 send orders only; peer 2 now accepts.
    submit(&mut net, 0, vec![]);
    submit(&mut net, 1, vec![]);
    vote(&mut net, 2, true);
    run_to(&mut net, &all, 2);
    for i in all {
        assert_eq!(state(&net, i).phase, Phase::GameOver { winner: None });
        assert_eq!(drawn_events(&net, i), 1);
    }
    let h = hashes(&net, &all);
    assert!(h.iter().all(|x| *x == h[0]));
    no_complaints(&net);
}

/// Computer powers accept a draw only when their position is hopeless (or from 1931), as in
/// hot-seat play: with the four computer powers of a three-peer Europe game surviving in 1901,
/// the peers' acceptances do not end the game.
#[test]
fn computer_powers_decline_a_draw_in_1901() {
    let all = [0, 1, 2];
    let mut net = europe(3, 34, NetParams::perfect());
    for i in all {
        vote(&mut net, i, true);
    }
    run_to(&mut net, &all, 1);
    for i in all {
        let s = state(&net, i);
        assert_eq!((s.season, s.phase), (Season::Fall, Phase::Movement));
        assert!(s.draw[..3].iter().all(|&d| d));
        assert_eq!(drawn_events(&net, i), 0);
    }
    let h = hashes(&net, &all);
    assert!(h.iter().all(|x| *x == h[0]));
    no_complaints(&net);
}

/// A payload in an unknown format is void and its sender named; a draw vote for a power the
/// sender does not play is void and named too. The phase still resolves on every peer alike.
#[test]
fn undecodable_payload_and_foreign_draw_vote_are_named() {
    let all = [0, 1, 2];
    let mut net = world(3, 35);
    let powers = net.peers[0].seat_powers();
    let (k1, k2) = (net.peers[1].key(), net.peers[2].key());
    vote(&mut net, 0, true);
    let mut bad = encode_orders(&OrdersPayload::default());
    bad[0] = 9;
    let o = net.peers[1].commit_orders(0, bad, [5; 32]).unwrap();
    net.process(1, o);
    let foreign = encode_orders(&OrdersPayload {
        orders: vec![],
        draw: vec![(powers[2], true), (powers[0], false)],
    });
    let o = net.peers[2].commit_orders(0, foreign, [6; 32]).unwrap();
    net.process(2, o);
    run_to(&mut net, &all, 1);
    for i in all {
        let s = state(&net, i);
        assert_eq!(s.season, Season::Fall, "not drawn: peer 1 said nothing");
        assert!(
            s.draw[powers[0] as usize],
            "peer 2 cannot withdraw peer 0's vote"
        );
        assert!(s.draw[powers[2] as usize]);
    }
    for i in [0, 2] {
        let r = rejections(&net, i, k1);
        assert!(
            matches!(&r[..], [Violation::IllegalOrders { round: 0, error }] if error.contains("format 9")),
            "{r:?}"
        );
    }
    for i in [0, 1] {
        let r = rejections(&net, i, k2);
        assert!(
            matches!(&r[..], [Violation::IllegalOrders { round: 0, error }] if error.contains("draw vote")),
            "{r:?}"
        );
    }
    let h = hashes(&net, &all);
    assert!(h.iter().all(|x| *x == h[0]));
}

/// Votes of one phase are simultaneous: an acceptance withdrawn in the phase in which the last
/// survivor accepts does not complete a draw, whatever the participant order.
#[test]
fn a_withdrawal_in_the_same_phase_prevents_the_draw() {
    let all = [0, 1, 2];
    let mut net = world(3, 36);
    vote(&mut net, 0, false);
    vote(&mut net, 1, true);
    vote(&mut net, 2, true);
    run_to(&mut net, &all, 1);
    // Peer 0 (first in participant order) accepts as peer 2 withdraws.
    vote(&mut net, 0, true);
    submit(&mut net, 1, vec![]);
    vote(&mut net, 2, false);
    run_to(&mut net, &all, 2);
    let powers = net.peers[0].seat_powers();
    for i in all {
        let s = state(&net, i);
        assert_eq!(
            (s.year, s.season, s.phase),
            (1902, Season::Spring, Phase::Movement)
        );
        assert_eq!(
            powers
                .iter()
                .map(|&p| s.draw[p as usize])
                .collect::<Vec<_>>(),
            vec![true, true, false]
        );
        assert_eq!(drawn_events(&net, i), 0);
    }
    let h = hashes(&net, &all);
    assert!(h.iter().all(|x| *x == h[0]));
    no_complaints(&net);
}

/// A dropped peer's powers are computer powers from then on: they decline a draw while their
/// position is not hopeless (`bot::orders::accepts_draw`), so the acceptance they held is
/// withdrawn and the others' acceptances do not end the game.
#[test]
fn a_dropped_peers_acceptance_is_withdrawn() {
    let mut net = world(3, 37);
    let gone = net.peers[2].key();
    vote(&mut net, 0, false);
    vote(&mut net, 1, true);
    vote(&mut net, 2, true);
    run_to(&mut net, &[0, 1, 2], 1);
    net.online[2] = false;
    vote(&mut net, 0, true);
    submit(&mut net, 1, vec![]);
    net.run_until(net.now + 2_000, |_| false);
    assert_eq!(net.peers[0].waiting_on(), vec![gone]);
    for i in [0, 1] {
        let o = net.peers[i]
            .vote(Control::Drop {
                peer: gone,
                level: BotLevel::Normal,
            })
            .unwrap();
        net.process(i, o);
    }
    run_to(&mut net, &[0, 1], 2);
    let powers = net.peers[0].seat_powers();
    for i in [0, 1] {
        let s = state(&net, i);
        assert!(!matches!(s.phase, Phase::GameOver { .. }), "not drawn");
        assert_eq!(
            powers
                .iter()
                .map(|&p| s.draw[p as usize])
                .collect::<Vec<_>>(),
            vec![true, true, false]
        );
    }
    let h = hashes(&net, &[0, 1]);
    assert_eq!(h[0], h[1]);
}

/// Seats without a player are computer powers: every peer computes the same orders for them
/// from the board and the revealed orders, and they move (no civil disorder).
#[test]
fn computer_powers_play_and_every_peer_computes_them_alike() {
    let all = [0, 1, 2];
    let lossy = NetParams {
        max_delay: 40,
        drop_pct: 10,
        dup_pct: 10,
    };
    let mut net = europe(3, 5, lossy);
    for phase in 1..=4u64 {
        for i in all {
            if net.peers[i]
                .orders_due()
                .is_some_and(|(_, p)| !p.is_empty())
            {
                submit(&mut net, i, vec![]);
            }
        }
        run_to(&mut net, &all, phase);
        let h = hashes(&net, &all);
        assert!(h.iter().all(|x| *x == h[0]), "phase {phase}: {h:?}");
    }
    // Every computer power gave orders of its own (civil disorder gives only holds).
    for power in 3..7 {
        let ordered = net.events[0].iter().any(|e| match e {
            ProtocolEvent::PhaseResolved { events, .. } => events.iter().any(|e| match e {
                OrdersEvent::Resolved { results, .. } => results
                    .iter()
                    .any(|r| r.power == power && r.order.spec != Spec::Hold),
                _ => false,
            }),
            _ => false,
        });
        assert!(ordered, "computer power {power} only held");
    }
    no_complaints(&net);
}

/// Players choose their powers in the lobby; the seats left to chance are drawn with the shared
/// game seed, the same on every peer. A proposal naming a power twice, or one not in play, is
/// refused.
#[test]
fn chosen_powers_are_kept_and_the_rest_drawn_alike_everywhere() {
    let mut net = Net::new(3, 41, NetParams::perfect());
    let turkey = 6;
    let mut chosen = vec![None; 7];
    chosen[0] = Some(turkey);
    chosen[2] = Some(ENGLAND);
    let p = europe_proposal(&net, 3, BotLevel::Easy, chosen);
    let mut twice = p.clone();
    if let Some(o) = twice.orders.as_mut() {
        o.powers[1] = Some(turkey);
    }
    let e = orbis_protocol::peer::check_proposal(&twice).unwrap_err();
    assert!(e.contains("two seats"), "{e}");
    let mut short = p.clone();
    if let Some(o) = short.orders.as_mut() {
        o.powers.pop();
    }
    assert!(orbis_protocol::peer::check_proposal(&short).is_err());
    net.start(p);
    assert!(net.run_until(100_000, |n| n.peers.iter().all(|p| p.game().is_some())));
    let powers = net.peers[0].seat_powers();
    assert_eq!((powers[0], powers[2]), (turkey, ENGLAND));
    let mut sorted = powers.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..7).collect::<Vec<_>>());
    for i in 1..3 {
        assert_eq!(net.peers[i].seat_powers(), powers);
    }
    // Peer 0 orders Turkey.
    assert_eq!(net.peers[0].orders_due(), Some((0, vec![turkey])));
}

#[test]
fn a_power_outside_the_game_cannot_be_chosen() {
    let net = Net::new(2, 3, NetParams::perfect());
    let mut p = net.proposal(0);
    p.orders = Some(OrdersSetup {
        map: "world".into(),
        options: OrdersOptions::default(),
        powers: vec![Some(5), None],
    });
    let e = orbis_protocol::peer::check_proposal(&p).unwrap_err();
    assert!(e.contains("not in play"), "{e}");
}

/// Independent review of issue 29: a participant sends one peer another signed commitment (and
/// the reveal that opens it) for a phase than the other gets. Refused as a changed commitment,
/// or as a reused sequence number, the second version never met the first: each honest peer
/// resolved the phase with another version, and they halted naming each other's checkpoints.
/// Two signed commitments of one sender for one round are equivocation: both honest peers halt
/// naming it, with both as evidence, and their logs agree up to the phase.
#[test]
fn a_commitment_split_between_peers_halts_everyone_naming_its_sender() {
    const ATTACKER: usize = 2;
    let mut net = europe(3, 12, NetParams::perfect());
    let attacker = net.peers[ATTACKER].key();
    let key = SigningKey::from_bytes(&net.configs[ATTACKER].identity_secret);
    let other = encode_orders(&OrdersPayload::orders(vec![orders(
        GERMANY,
        &["A MUN - BUR"],
    )]));
    let other_salt = [0xee; 32];
    net.tamper = Some((
        ATTACKER,
        Box::new(move |_, _, to, bytes| {
            let (env, body) = Envelope::open_where(&bytes, |_| true).expect("valid");
            let body = match body {
                _ if to != 0 || env.sender != attacker => return vec![bytes],
                Body::OrdersCommit { round, .. } => Body::OrdersCommit {
                    round,
                    hash: orders_commitment(round, &other, &other_salt),
                },
                Body::OrdersReveal { round, .. } => Body::OrdersReveal {
                    round,
                    payload: other.clone(),
                    salt: other_salt,
                },
                _ => return vec![bytes],
            };
            vec![Envelope::seal(&key, env.game_id, env.seq, &body)]
        }),
    ));
    submit(&mut net, ATTACKER, vec![orders(GERMANY, &["A MUN H"])]);
    submit(&mut net, 0, vec![orders(ENGLAND, &["F LON - ENG"])]);
    submit(&mut net, 1, vec![orders(FRANCE, &["A PAR - BUR"])]);
    net.run_until(net.now + 10_000, |n| {
        n.peers[0].halted().is_some() && n.peers[1].halted().is_some()
    });
    for i in [0, 1] {
        assert!(
            matches!(
                net.peers[i].halted(),
                Some(HaltReport::Equivocation { peer, index: 0, agreed_index: 0, .. })
                    if *peer == attacker
            ),
            "peer {i}: {:?} ({:?})",
            net.peers[i].halted(),
            net.complaints(i)
        );
        for e in net.complaints(i) {
            if let ProtocolEvent::Rejected { peer, .. } = e {
                assert_eq!(*peer, Some(attacker), "{e:?}");
            }
        }
    }
    assert_eq!(net.peers[0].head_at(0), net.peers[1].head_at(0));
}
