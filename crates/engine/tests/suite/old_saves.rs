//! Saves written by earlier versions of Orbis still load and play on: `saves/v2-*.orbis` were
//! written by format 2 (commit 5c1a1f7): a classic game with missions 40 bot actions in, and an
//! orders game with the "no retreat into foreign territory" option after its first phase.
//! `saves/v3-classic.orbis` was written by format 3 (commit 1c106a8): four seats with missions,
//! 120 normal-bot actions in, before cards could be dealt face down. `saves/v4-economy.orbis` was
//! written by format 4 (commit 9a47fe3): an economy game (continents, three seats, seed
//! `game_seed(7, 3)`) 100 normal-bot actions in, with influence cards in hand, before they could be
//! dealt face down.

use orbis_engine::bot;
use orbis_engine::rules::classic::{BotLevel, CardBonus, MissionDeck};
use orbis_engine::rules::orders::OrdersAction;
use orbis_engine::rules::Game;

#[test]
fn a_format_2_classic_save_loads_and_plays_on() {
    let Game::Classic(mut s) =
        Game::from_save(include_bytes!("../saves/v2-classic.orbis")).unwrap()
    else {
        panic!("not a classic game");
    };
    assert!(s.options.missions);
    // The deck format 2 dealt from, and the bonus it paid.
    assert_eq!(s.options.mission_deck, MissionDeck::AbsentAsTerritories);
    assert_eq!(s.options.card_bonus, CardBonus::OnePerTurn);
    assert!(s.players.iter().all(|p| p.one_die.is_empty()));
    assert_eq!(s.step, 40);
    for _ in 0..200 {
        let Some(a) = bot::choose(&s, BotLevel::Easy) else {
            break;
        };
        s.apply(&a).unwrap();
    }
    // Saved again, it is a current save.
    let again = Game::Classic(s.clone()).to_save();
    assert_eq!(Game::from_save(&again).unwrap(), Game::Classic(s));
}

#[test]
fn a_format_2_orders_save_loads_with_its_territory() {
    let Game::Orders(mut s) = Game::from_save(include_bytes!("../saves/v2-orders.orbis")).unwrap()
    else {
        panic!("not an orders game");
    };
    assert!(s.options.no_retreat_into_foreign_territory);
    let m = s.map();
    let russia = m.power("RUSSIA").unwrap();
    assert_eq!(s.territory.get(&m.province("UKR").unwrap()), Some(&russia));
    assert!(s.check_consistency().is_ok());
    s.apply(&OrdersAction::Adjudicate).unwrap();
}

#[test]
fn a_format_3_classic_save_loads_face_up_and_plays_on() {
    let Game::Classic(mut s) =
        Game::from_save(include_bytes!("../saves/v3-classic.orbis")).unwrap()
    else {
        panic!("not a classic game");
    };
    assert_eq!(s.step, 120);
    assert!(s.sealed.is_none());
    assert!(s
        .players
        .iter()
        .all(|p| p.mission.is_some() && p.sealed.is_empty()));
    for _ in 0..300 {
        let Some(a) = bot::choose(&s, BotLevel::Normal) else {
            break;
        };
        s.apply(&a).unwrap();
    }
    let again = Game::Classic(s.clone()).to_save();
    assert_eq!(Game::from_save(&again).unwrap(), Game::Classic(s));
}

#[cfg(feature = "economy")]
#[test]
fn a_format_4_economy_save_loads_face_up_and_plays_on() {
    use orbis_engine::rules::economy::phase::Phase;
    let Game::Economy(mut s) =
        Game::from_save(include_bytes!("../saves/v4-economy.orbis")).unwrap()
    else {
        panic!("not an economy game");
    };
    assert_eq!(s.steps, 100);
    assert!(s.sealed.is_none());
    assert!(s.players.iter().all(|p| p.sealed.is_empty()));
    assert!(s.players.iter().any(|p| !p.cards.is_empty()));
    for _ in 0..400 {
        if s.phase == Phase::Over {
            break;
        }
        let p = s.to_act()[0];
        let a = bot::economy::choose(&s, p, BotLevel::Normal).unwrap();
        s.apply(&a).unwrap();
    }
    assert!(s.steps > 100);
    let again = Game::Economy(s.clone()).to_save();
    assert_eq!(again[5], orbis_engine::rules::SAVE_VERSION as u8);
    assert_eq!(Game::from_save(&again).unwrap(), Game::Economy(s));
}

/// The classic state did not change in format 5: the lean reader (the browser's lite page) still
/// reads a classic save of format 4.
#[test]
fn a_format_4_classic_save_is_read_by_the_lean_reader() {
    let Game::Classic(s) = Game::from_save(include_bytes!("../saves/v3-classic.orbis")).unwrap()
    else {
        panic!("not a classic game");
    };
    let mut bytes = Game::Classic(s.clone()).to_save();
    bytes[5] = 4;
    assert_eq!(
        orbis_engine::rules::classic_from_save(&bytes),
        Ok(Some(s.clone()))
    );
    assert_eq!(Game::from_save(&bytes), Ok(Game::Classic(s)));
}
