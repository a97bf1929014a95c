use super::*;

fn run(mut st: Classic, msg: Msg) -> Classic {
    st.update(msg);
    st
}

/// A new game from `form`, shown on the play screen.
fn start(form: &SetupForm) -> Classic {
    let mut st = Classic::new();
    st.on_screen = true;
    st.new_game(form).unwrap();
    st
}

#[test]
fn quick_start_setup_and_a_human_turn() {
    let mut st = start(&SetupForm::default());
    st = run(st, Msg::SkipToHuman);
    st = run(st, Msg::AutoSetup);
    st = run(st, Msg::SkipToHuman);
    let s = st.state().unwrap().clone();
    assert!(st.my_turn());
    let Phase::Reinforce { armies } = s.phase else {
        panic!("expected reinforcement, got {:?}", s.phase)
    };
    // Clicking an enemy territory is refused with the engine's explanation.
    let enemy = s
        .map()
        .ids()
        .find(|&t| s.owner[t as usize] != orbis_engine::classic::Owner::Player(s.current))
        .unwrap();
    st = run(st, Msg::Click(enemy));
    assert!(st.error.is_some());
    let mine = s.territories_of(s.current).next().unwrap();
    st = run(st, Msg::SetAmount(armies));
    st = run(st, Msg::Click(mine));
    assert_eq!(st.state().unwrap().phase, Phase::Attack);
    assert_eq!(
        st.state().unwrap().armies[mine as usize],
        s.armies[mine as usize] + armies
    );
    st = run(st, Msg::Act(Action::EndTurn));
    assert!(!st.my_turn());
    assert!(st.log.iter().any(|l| l.contains("places")));
}

#[test]
fn hot_seat_hides_the_board_between_humans() {
    let mut form = SetupForm::default();
    form.seats.truncate(2);
    form.seats[1].kind = SeatKind::Human;
    let mut st = start(&form);
    for _ in 0..4 {
        st = run(st, Msg::AutoSetup);
    }
    let mut curtains = 0;
    for _ in 0..4 {
        if let Some(p) = st.curtain() {
            curtains += 1;
            assert!(!st.my_turn(), "nobody acts behind the curtain");
            st = run(st, Msg::Reveal);
            assert_eq!(st.viewer, Some(p));
        }
        let s = st.state().unwrap().clone();
        let Phase::Reinforce { armies } = s.phase else {
            panic!("{:?}", s.phase)
        };
        st = run(st, Msg::SetAmount(armies));
        st = run(st, Msg::Click(s.territories_of(s.current).next().unwrap()));
        st = run(st, Msg::Act(Action::EndTurn));
    }
    assert!(curtains >= 3);
}

#[test]
fn bots_only_game_finishes() {
    let mut form = SetupForm::default();
    form.seats[0].kind = SeatKind::Bot(BotLevel::Easy);
    let mut st = start(&form);
    st = run(st, Msg::SkipToHuman);
    assert!(matches!(st.state().unwrap().phase, Phase::GameOver { .. }));
    assert!(st.log.iter().any(|l| l.contains("wins the game")));
}

/// The save used by the end-to-end trade test: a human at reinforcement holding five
/// cards. `ORBIS_WRITE_FIXTURES=1 cargo test -p orbis-web` rewrites it.
#[test]
fn forced_trade_fixture() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/e2e/fixtures/trade.orbis"
    );
    if std::env::var_os("ORBIS_WRITE_FIXTURES").is_some() {
        let mut st = start(&SetupForm::default());
        st = run(st, Msg::SkipToHuman);
        st = run(st, Msg::AutoSetup);
        st = run(st, Msg::SkipToHuman);
        let mut g = st.game.clone().unwrap();
        let s = &mut g;
        let me = s.current as usize;
        let cards: Vec<u8> = s.deck.iter().copied().filter(|&c| c < 42).take(5).collect();
        s.deck.retain(|c| !cards.contains(c));
        s.players[me].hand = cards;
        std::fs::create_dir_all(std::path::Path::new(path).parent().unwrap()).unwrap();
        std::fs::write(path, crate::savefile::to_save(&g)).unwrap();
    }
    // A save of format 1 (also the sample of that format): the full page reads it.
    let Ok(orbis_engine::rules::Game::Classic(g)) =
        orbis_engine::rules::Game::from_save(&std::fs::read(path).unwrap())
    else {
        panic!("the fixture is a classic game")
    };
    let s = &g;
    assert!(matches!(s.phase, Phase::Reinforce { .. }));
    assert_eq!(s.players[s.current as usize].kind, SeatKind::Human);
    assert_eq!(s.players[s.current as usize].hand.len(), 5);
    assert!(!s.sets_in_hand(s.current).is_empty());
}

/// A voluntary trade closes the trade dialog (online, where the trade only goes to the
/// protocol, it stayed open over the page).
#[test]
fn a_voluntary_trade_closes_the_dialog() {
    let mut st = start(&SetupForm::default());
    st = run(st, Msg::SkipToHuman);
    st = run(st, Msg::AutoSetup);
    st = run(st, Msg::SkipToHuman);
    let mut g = st.game.clone().unwrap();
    let me = g.current as usize;
    // Three cards of one kind: a set, and no forced trade.
    let s = &g;
    let set: Vec<u8> = (0..42u8)
        .filter(|&c| s.deck.contains(&c))
        .filter(|&c| s.map().territories[c as usize].card == s.map().territories[0].card)
        .take(3)
        .collect();
    g.deck.retain(|c| !set.contains(c));
    g.players[me].hand = set;
    st.start_with(g, false);
    let sets = st.state().unwrap().sets_in_hand(me as u8);
    assert!(!sets.is_empty());
    st = run(st, Msg::OpenTrade(true));
    assert!(st.ui.trade_open);
    st = run(st, Msg::Act(Action::Trade { cards: sets[0] }));
    assert!(!st.ui.trade_open);
    assert!(st.state().unwrap().players[me].hand.is_empty());
}
