//! The end-of-combat prompt of a card holder, and a revolution incited from it: the position of
//! `tests/e2e/fixtures/economy-revolution.orbis`, and the end-to-end test's script played natively.

use super::tests::{check_fixture, pass};
use super::*;
use orbis_engine::rules::economy::battlefield::Foe;
use orbis_engine::rules::economy::options::EconomyOptions;

/// Ann (Western Europe) and Bob (Southern Europe), both at the device, in round 1's combat phase
/// with no battle: nobody planned a move. Ann holds the influence card of Northern Europe,
/// neutral with its armies, so the phase waits for her ("No battle is left…").
fn revolution_position() -> EconomySession {
    use orbis_engine::rules::economy::action::SetupAction;
    let map = EconomyMap::get();
    let key = |k: &str| map.region(k).unwrap();
    let (mut g, _) = EconomyState::new(
        &["Ann", "Bob"],
        EconomyOptions::default(),
        orbis_engine::codec::sha256(b"orbis e2e economy revolution"),
    )
    .unwrap();
    let picks = [key("western_europe"), key("southern_europe")];
    while let Phase::Pick(p) = g.phase {
        g.apply(&A::Setup {
            player: p,
            choice: SetupAction::Country(picks[p as usize]),
        })
        .unwrap();
    }
    let ne = key("northern_europe");
    g.deck.retain(|&c| c != ne);
    g.players[0].cards = vec![ne];
    g.check_consistency().unwrap();
    let mut s = EconomySession::new(g, vec![Seat::Human, Seat::Human]);
    // Get: each pays what is due the plain way and recruits nothing; nobody plans a move or moves.
    for p in [0u8, 1] {
        if !s.game.get[p as usize].settled {
            let losses = s.game.plain_settlement(p);
            assert!(s.update(EMsg::Act(A::SettleUpkeep { player: p, losses })));
        }
        assert!(s.update(EMsg::Act(A::FinishGet { player: p })));
    }
    for p in [0u8, 1] {
        s.update(EMsg::Reveal(p));
        assert!(s.update(EMsg::SubmitPlans), "{:?}", s.ui.error);
    }
    for p in [0u8, 1] {
        assert!(s.update(EMsg::Act(A::FinishMoving { player: p })));
    }
    assert_eq!(s.game.phase, Phase::Combat);
    s
}

#[test]
fn the_revolution_fixture_is_the_card_holders_prompt() {
    let s = revolution_position();
    assert_eq!(s.game.to_act(), vec![0], "only the card holder is asked");
    assert!(s.game.combat.as_ref().unwrap().tokens.is_empty());
    check_fixture("economy-revolution.orbis", s.game);
}

#[test]
fn the_e2e_revolution_script_incites_one_and_the_phase_ends() {
    let map = EconomyMap::get();
    let ne = map.region("northern_europe").unwrap();
    let mut s = revolution_position();
    assert!(s.game.regions[ne as usize].neutral.armies > 0);
    assert!(s.update(EMsg::Act(A::IncitRevolution {
        player: 0,
        country: ne,
        target: Some(Foe::Neutral),
    })));
    assert_eq!(s.ui.error, None);
    assert!(
        !s.game.players[0].cards.contains(&ne),
        "the card is turned in: {:?}\n{}",
        s.game.players[0].cards,
        s.ui.log.join("\n")
    );
    let mut guard = 0;
    while s.game.phase == Phase::Combat {
        guard += 1;
        assert!(guard < 200, "the combat phase does not end");
        let p = s.actor().expect("a human to act");
        let a = pass(&s, p);
        assert!(s.update(EMsg::Act(a.clone())), "{a:?}: {:?}", s.ui.error);
    }
    let text = s.ui.log.join("\n");
    assert!(
        text.contains("Ann incites a revolution in Northern Europe"),
        "{text}"
    );
    assert!(
        text.contains("One of Ann's revolutionaries in Northern Europe rolls"),
        "{text}"
    );
    assert!(text.contains("Ann gains Northern Europe"), "{text}");
    assert_eq!(s.game.phase, Phase::Get, "{text}");
    assert_eq!(s.game.round, 2);
}
