//! Tests of the hot-seat and online orders flow (`OrdersSession::update`).
use super::*;
use orbis_engine::rules::orders::OrdersOptions;

fn s() -> OrdersSession {
    let g = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    OrdersSession::new(g, vec![Seat::Human; 7])
}

#[test]
fn clicks_and_text_make_orders_and_phases_advance() {
    let mut s = s();
    assert_eq!(s.stage, Stage::Curtain(0));
    // England: clicks.
    s.update(OMsg::Reveal);
    s.update(OMsg::Click("LON".into()));
    s.update(OMsg::Click("NTH".into()));
    assert_eq!(s.draft.len(), 1);
    s.update(OMsg::Text("A LVP - XYZ".into()));
    s.update(OMsg::Type);
    assert!(s.error.as_deref().unwrap().contains("XYZ"));
    s.update(OMsg::Text("A LVP - YOR; F EDI - NWG".into()));
    s.update(OMsg::Type);
    assert_eq!(s.draft.len(), 3, "{:?}", s.error);
    assert!(s.update(OMsg::Submit));
    assert_eq!(s.stage, Stage::Curtain(1));
    for p in 1..7 {
        s.update(OMsg::Reveal);
        assert_eq!(s.stage, Stage::Enter(p));
        s.update(OMsg::Submit);
    }
    assert_eq!(s.stage, Stage::Results);
    let last = s.last.clone().unwrap();
    assert_eq!(last.phase, Phase::Movement);
    assert_eq!(last.results.len(), 22);
    s.update(OMsg::Continue);
    assert_eq!(s.stage, Stage::Curtain(0));
    assert_eq!(s.game.season, Season::Fall);
}

#[test]
fn everybody_accepting_a_draw_ends_the_game() {
    let mut s = s();
    for p in 0..7 {
        assert_eq!(s.stage, Stage::Curtain(p));
        s.update(OMsg::Reveal);
        assert!(s.update(OMsg::Draw(true)));
        if p < 6 {
            s.update(OMsg::Submit);
        }
    }
    assert_eq!(s.stage, Stage::Results);
    assert_eq!(s.game.phase, Phase::GameOver { winner: None });
}

#[test]
#[cfg(feature = "online")] // the online page only
fn online_entry_commits_only_our_power_and_shows_revealed_results() {
    let g = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    let mut s = OrdersSession::new_online(g.clone(), &[1]);
    // No pass-the-device screen: France enters at once.
    assert_eq!(s.stage, Stage::Enter(1));
    s.update(OMsg::Text("A PAR - BUR".into()));
    s.update(OMsg::Type);
    s.update(OMsg::Submit);
    assert_eq!(s.stage, Stage::Results);
    assert!(s.online.as_ref().unwrap().sent);
    let q = take_queued();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].orders.len(), 1);
    assert_eq!(q[0].orders[0].0, 1);
    assert_eq!(q[0].draw, vec![(1, false)]);
    // Nothing is adjudicated locally; Continue waits for the others.
    assert_eq!(s.game.season, Season::Spring);
    s.update(OMsg::Continue);
    assert_eq!(s.stage, Stage::Results);
    // The protocol resolves the phase with everyone's orders.
    let mut next = g.clone();
    next.apply(&OrdersAction::Submit {
        power: 1,
        orders: q[0].orders[0].1.clone(),
    })
    .unwrap();
    let ev = next.apply(&OrdersAction::Adjudicate).unwrap();
    s.online_resolved(next, &[ev]);
    assert_eq!(s.stage, Stage::Results);
    assert!(!s.online.as_ref().unwrap().sent);
    assert_eq!(s.last.as_ref().unwrap().results.len(), 22);
    s.update(OMsg::Continue);
    assert_eq!(s.stage, Stage::Enter(1));
    assert_eq!(s.game.season, Season::Fall);
    assert!(take_queued().is_empty());
}

#[test]
#[cfg(feature = "online")] // the online page only
fn online_draw_vote_goes_out_with_the_orders() {
    let g = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    let mut s = OrdersSession::new_online(g.clone(), &[1]);
    assert!(s.update(OMsg::Draw(true)));
    // Secret until the reveal: the engine state does not change here.
    assert_eq!(s.game, g);
    assert!(s.draw_vote(1));
    s.update(OMsg::Submit);
    let q = take_queued();
    assert_eq!(q.len(), 1);
    assert_eq!(q[0].draw, vec![(1, true)]);
    // The revealed phase: France's acceptance is in the engine state and in the summary.
    let mut next = g.clone();
    let mut ev = next
        .apply(&OrdersAction::Draw {
            power: 1,
            accept: true,
        })
        .unwrap();
    ev.extend(next.apply(&OrdersAction::Adjudicate).unwrap());
    s.online_resolved(next, &[ev]);
    assert!(s.draw_vote(1));
    let notes = &s.last.as_ref().unwrap().notes;
    assert!(
        notes.iter().any(|n| n.contains("accepted by France")),
        "{notes:?}"
    );
}

#[test]
fn support_by_clicks() {
    let mut s = s();
    for _ in 0..1 {
        s.update(OMsg::Reveal);
        s.update(OMsg::Submit);
    }
    s.update(OMsg::Reveal); // France
    s.update(OMsg::Click("MAR".into()));
    s.update(OMsg::SetMode(Mode::SupportPick));
    s.update(OMsg::Click("PAR".into()));
    s.update(OMsg::Click("BUR".into()));
    assert_eq!(
        notation::print(s.map(), &s.draft[0]),
        "A MAR S A PAR - BUR",
        "{:?}",
        s.error
    );
}

fn session(options: OrdersOptions) -> OrdersSession {
    let g = OrdersState::new("europe-1901", options).unwrap();
    OrdersSession::new(g, vec![Seat::Human; 7])
}

#[test]
fn combine_by_clicks() {
    let mut s = session(OrdersOptions {
        combine: true,
        ..OrdersOptions::default()
    });
    s.game.season = Season::Fall;
    assert!(s.can_combine());
    for _ in 0..5 {
        s.update(OMsg::Reveal);
        s.update(OMsg::Submit);
    }
    s.update(OMsg::Reveal); // Russia
    s.update(OMsg::Click("WAR".into()));
    s.update(OMsg::SetMode(Mode::CombinePick));
    assert!(s.prompt().contains("Combine WAR"), "{}", s.prompt());
    s.update(OMsg::Click("XYZ".into()));
    s.update(OMsg::Click("MOS".into()));
    assert_eq!(
        notation::print(s.map(), &s.draft[0]),
        "A WAR COMBINE A MOS",
        "{:?}",
        s.error
    );
    // An empty province is no unit to merge into.
    s.update(OMsg::Click("SEV".into()));
    s.update(OMsg::SetMode(Mode::CombinePick));
    s.update(OMsg::Click("UKR".into()));
    assert!(s.error.as_deref().unwrap().contains("Combine"));
    assert_eq!(s.draft.len(), 1);
    // In Spring (or without the option) the engine refuses the combine.
    let mut s = session(OrdersOptions {
        combine: true,
        ..OrdersOptions::default()
    });
    assert!(!s.can_combine());
    s.update(OMsg::Reveal);
    s.update(OMsg::Click("LVP".into()));
    s.update(OMsg::SetMode(Mode::CombinePick));
    s.update(OMsg::Click("EDI".into()));
    assert!(s.draft.is_empty());
    assert!(s.error.as_deref().unwrap().contains("combine"));
}

#[test]
fn a_fleet_build_facing_a_sea() {
    let mut s = session(OrdersOptions {
        fleet_facing: true,
        ..OrdersOptions::default()
    });
    let fr = s.map().power("FRANCE").unwrap();
    s.game.units.retain(|u| u.power != fr);
    s.game.phase = Phase::Adjustment;
    s.game.season = Season::Fall;
    s = OrdersSession::new(s.game.clone(), vec![Seat::Human; 7]);
    s.update(OMsg::Reveal);
    assert_eq!(s.stage, Stage::Enter(fr));
    let bre = s.map().parse_loc("BRE").unwrap();
    let mao = s.map().province("MAO").unwrap();
    s.update(OMsg::Build(UnitType::Fleet, bre));
    assert!(s.error.as_deref().unwrap().contains("ENG, MAO"));
    s.update(OMsg::BuildFacing(bre, mao));
    assert_eq!(notation::print(s.map(), &s.draft[0]), "F BRE B FACING MAO");
    s.update(OMsg::Submit);
    let fleet = s.game.units.iter().find(|u| u.loc == bre).unwrap();
    assert_eq!(fleet.facing, Some(mao));
}

#[test]
fn computer_powers_order_after_the_humans_and_the_phase_resolves() {
    let g = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    let mut seats = vec![Seat::Computer(BotLevel::Normal); 7];
    seats[1] = Seat::Human;
    seats[3] = Seat::Computer(BotLevel::Easy);
    seats[6] = Seat::Idle;
    let mut s = OrdersSession::new(g.clone(), seats);
    // Only France is asked for orders, at once (no other human to hide them from).
    assert_eq!(s.stage, Stage::Enter(1));
    s.update(OMsg::Text("A PAR - BUR".into()));
    s.update(OMsg::Type);
    assert!(s.update(OMsg::Submit));
    assert_eq!(s.stage, Stage::Results);
    assert_eq!(
        (s.game.season, s.game.phase),
        (Season::Fall, Phase::Movement)
    );
    let last = s.last.clone().unwrap();
    // Every unit of the computer powers had an order of its own (not the default hold of
    // civil disorder): 22 units but Turkey's 3 and France's 3.
    let given = last
        .results
        .iter()
        .filter(|r| r.power != 1 && r.power != 6)
        .count();
    assert_eq!(given, 16);
    let moved = s
        .game
        .units
        .iter()
        .filter(|u| u.power != 1 && u.power != 6 && !g.units.contains(u))
        .count();
    assert!(moved > 0, "no computer unit moved");
    // Turkey (nobody) held.
    for u in g.units.iter().filter(|u| u.power == 6) {
        assert!(s.game.units.contains(u));
    }
    // The same human orders give the same computer orders.
    let mut t = OrdersSession::new(g, s.seats.clone());
    t.update(OMsg::Reveal);
    t.update(OMsg::Text("A PAR - BUR".into()));
    t.update(OMsg::Type);
    t.update(OMsg::Submit);
    assert_eq!(t.game, s.game);
}

#[test]
fn seat_codes_read_old_and_new_saves() {
    let seats: Vec<Seat> = "10en".chars().map(Seat::from_code).collect();
    assert_eq!(
        seats,
        [
            Seat::Human,
            Seat::Idle,
            Seat::Computer(BotLevel::Easy),
            Seat::Computer(BotLevel::Normal)
        ]
    );
    let codes: String = seats.iter().map(|s| s.code()).collect();
    assert_eq!(codes, "10en");
}

#[test]
fn the_region_map_is_drawn_by_default_and_the_schematic_on_request() {
    let g = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    let mut s = OrdersSession::new(g, vec![Seat::Human; 7]);
    let svg = map::board_svg(&s);
    assert!(svg.contains(r#"class="onode oreg sea" data-key="NTH""#));
    for k in ["STP/NC", "STP/SC", "SPA/NC", "SPA/SC", "BUL/EC", "BUL/SC"] {
        assert!(
            svg.contains(&format!(r#"class="ocoast" data-key="{k}""#)),
            "{k}"
        );
    }
    assert_eq!(svg.matches("data-key=").count(), 75 + 6);
    s.update(OMsg::Schematic(true));
    let svg = map::board_svg(&s);
    assert!(!svg.contains("oreg"));
    assert!(svg.contains("oedge"));
}

#[test]
fn an_imported_game_asks_who_plays_each_power_and_a_power_handed_to_the_computer_moves_on() {
    let g = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    // A save says nothing about seats: every power is human, and the panel says so.
    let mut s = OrdersSession::new(g.clone(), vec![]);
    assert!(s.seats_unknown);
    assert_eq!(s.seats, vec![Seat::Human; 7]);
    assert_eq!(s.stage, Stage::Curtain(0));
    // England, waited on behind the curtain, goes to the computer: the device moves on to France.
    assert!(s.update(OMsg::SetSeat(0, Seat::Computer(BotLevel::Normal))));
    assert!(!s.seats_unknown);
    assert!(s.seats_open, "the box stays open for the other seats");
    assert_eq!(s.stage, Stage::Curtain(1));
    // France writes an order, then is handed to nobody: the unsent order goes with the seat.
    s.update(OMsg::Reveal);
    s.update(OMsg::Text("A PAR - BUR".into()));
    s.update(OMsg::Type);
    assert_eq!(s.draft.len(), 1);
    assert!(s.update(OMsg::SetSeat(1, Seat::Idle)));
    assert!(s.draft.is_empty());
    assert_eq!(s.stage, Stage::Curtain(2));
    // A power not on screen changes without moving the device on.
    assert!(s.update(OMsg::SetSeat(5, Seat::Computer(BotLevel::Easy))));
    assert_eq!(s.stage, Stage::Curtain(2));
    // The last human hands over: the computers order and the phase resolves.
    for p in [2, 3, 4, 6] {
        s.update(OMsg::SetSeat(p, Seat::Computer(BotLevel::Normal)));
    }
    assert_eq!(s.stage, Stage::Results);
    assert_eq!(s.game.season, Season::Fall);
    // France (nobody) held.
    for u in g.units.iter().filter(|u| u.power == 1) {
        assert!(s.game.units.contains(u));
    }
    // A game started here with its seats does not ask.
    let t = OrdersSession::new(g, vec![Seat::Human; 7]);
    assert!(!t.seats_unknown && !t.seats_open);
}

#[test]
fn wheel_steps_faster_than_renders_all_zoom() {
    let mut s = s();
    let full = map::layout(&s).view;
    // Two steps in before any render: the second zooms the view the first made.
    s.update(OMsg::ZoomAt(0.5, 0.5, 0.5));
    s.update(OMsg::ZoomAt(0.5, 0.5, 0.5));
    let v = s.view.expect("zoomed in");
    assert!((v[2] - full[2] / 4.0).abs() < 0.01, "{v:?} of {full:?}");
    // Out past the whole map: the whole map again.
    for _ in 0..3 {
        s.update(OMsg::ZoomAt(2.0, 0.5, 0.5));
    }
    assert_eq!(s.view, None);
}

/// One human against computer powers: no pass-the-device screen, straight to the orders, every
/// phase; with two humans the curtain stays.
#[test]
fn one_human_enters_orders_without_the_curtain() {
    let g = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    let mut seats = vec![Seat::Computer(BotLevel::Easy); 7];
    seats[1] = Seat::Human;
    let mut s = OrdersSession::new(g.clone(), seats.clone());
    assert_eq!(s.stage, Stage::Enter(1));
    s.update(OMsg::Submit);
    assert_eq!(s.stage, Stage::Results);
    s.update(OMsg::Continue);
    assert_eq!(s.stage, Stage::Enter(1), "Fall: France again, no curtain");
    seats[2] = Seat::Human;
    let mut t = OrdersSession::new(g, seats);
    assert_eq!(t.stage, Stage::Curtain(1));
    // Germany handed to the computer in play: France is alone, the curtain goes.
    t.update(OMsg::SetSeat(2, Seat::Computer(BotLevel::Easy)));
    assert_eq!(t.stage, Stage::Enter(1));
}

/// The map outlines the engine's targets of the order being entered, and the panel counts the
/// units ordered.
#[test]
fn the_selected_units_targets_are_the_engines_and_the_count_goes_up() {
    let mut s = s();
    s.update(OMsg::Reveal);
    assert!(s.targets().is_empty());
    assert_eq!(s.progress(0), "0 of 3 units ordered");
    s.update(OMsg::Click("LON".into()));
    let keys = |s: &OrdersSession| -> Vec<String> {
        s.targets()
            .into_iter()
            .map(|l| s.map().loc_name(l))
            .collect()
    };
    assert_eq!(keys(&s), ["ENG", "NTH", "WAL", "YOR"]);
    let svg = map::board_svg(&s);
    assert_eq!(svg.matches(r#"class="otgt""#).count(), 4);
    assert!(svg.contains(r#"data-tgt="NTH""#));
    s.update(OMsg::Click("NTH".into()));
    assert_eq!(s.progress(0), "1 of 3 units ordered");
    assert!(s.targets().is_empty());
    // Support: the units Edinburgh's fleet could support (London into the North Sea, Liverpool
    // into Yorkshire or Clyde), then where Liverpool's army can go with it.
    s.update(OMsg::Click("EDI".into()));
    s.update(OMsg::SetMode(Mode::SupportPick));
    assert_eq!(keys(&s), ["LON", "LVP"]);
    s.update(OMsg::Click("LVP".into()));
    assert_eq!(keys(&s), ["CLY", "YOR"]);
    s.update(OMsg::Click("YOR".into()));
    assert_eq!(s.progress(0), "2 of 3 units ordered");
    // Convoy from a fleet in port: nothing to name, and the prompt says so.
    s.update(OMsg::Click("LVP".into()));
    s.update(OMsg::SetMode(Mode::ConvoyPick));
    assert!(s.targets().is_empty());
    assert!(s.prompt().contains("no army"), "{}", s.prompt());
}

#[test]
fn the_computers_suggestion_keeps_the_players_own_orders() {
    let mut s = s();
    s.update(OMsg::Reveal); // England
    s.update(OMsg::Click("LON".into()));
    s.update(OMsg::Click("NTH".into()));
    assert_eq!(s.draft.len(), 1);
    let key = orbis_engine::codec::hash_of(&s.game);
    let computer: Vec<Written> = ["F LON H", "F EDI - NWG", "A LVP - YOR"]
        .iter()
        .map(|t| notation::parse(s.map(), t).unwrap())
        .collect();
    s.update(OMsg::Suggest);
    assert_eq!(s.suggesting, Some(0));
    s.update(OMsg::Suggested(key, 0, computer.clone()));
    let printed: Vec<String> = s
        .draft
        .iter()
        .map(|w| notation::print(s.map(), w))
        .collect();
    assert_eq!(printed.len(), 3, "{printed:?}");
    assert!(printed.contains(&"F LON - NTH".to_string()), "{printed:?}");
    assert!(!printed.contains(&"F LON H".to_string()), "{printed:?}");
    assert_eq!(s.error, None);
    // Every unit has an order now: nothing changes, and the player is told so.
    s.update(OMsg::Suggest);
    s.update(OMsg::Suggested(key, 0, computer));
    assert_eq!(s.draft.len(), 3);
    assert!(s.error.as_deref().unwrap().contains("nothing was changed"));
}

/// A tap on a place the selected unit may not go is refused at the tap with why and where it
/// may go (it would be a void order, costing a season); another of the player's units is
/// selected instead; a fleet's move into Spain asks which coast when it can reach both, and
/// takes the only one it can reach.
#[test]
fn a_tap_outside_the_legal_places_is_refused_and_a_fleet_into_spain_names_its_coast() {
    use super::entry::MoveTap;
    let g = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    let mut seats = vec![Seat::Idle; 7];
    seats[1] = Seat::Human;
    let mut s = OrdersSession::new(g, seats);
    assert_eq!(s.stage, Stage::Enter(1));
    let at = |s: &OrdersSession, k: &str| s.map().province(k).unwrap();
    let printed = |s: &OrdersSession| -> Vec<String> {
        s.draft
            .iter()
            .map(|w| notation::print(s.map(), w))
            .collect()
    };
    // Marseilles' army into the sea: refused, with the reason and the places it may go.
    s.update(OMsg::Click("MAR".into()));
    s.update(OMsg::Click("WES".into()));
    let e = s.error.clone().unwrap();
    assert!(
        e.starts_with("The army in Marseilles can't go to the Western Mediterranean: armies stay on land. It can go to "),
        "{e}"
    );
    for p in ["Spain", "Gascony", "Burgundy", "Piedmont"] {
        assert!(e.contains(p), "{e}");
    }
    assert!(s.draft.is_empty());
    assert_eq!(
        s.sel.map(|l| l.province),
        Some(at(&s, "MAR")),
        "still selected"
    );
    // Portugal: not a neighbour, and no fleet at sea to convoy it.
    s.update(OMsg::Click("POR".into()));
    let e = s.error.clone().unwrap();
    assert!(e.contains("no fleets at sea now could carry it"), "{e}");
    assert!(s.draft.is_empty());
    // Paris (France's own army, not a neighbour): selected instead, no error.
    s.update(OMsg::Click("PAR".into()));
    assert_eq!(s.error, None);
    assert_eq!(s.sel.map(|l| l.province), Some(at(&s, "PAR")));
    // A highlighted place is written.
    s.update(OMsg::Click("BUR".into()));
    assert_eq!(printed(&s), ["A PAR - BUR"]);

    // Brest's fleet, put in the Mid-Atlantic: Spain's body asks which coast.
    let (bre, mao, wes) = (at(&s, "BRE"), at(&s, "MAO"), at(&s, "WES"));
    let fleet = s.game.units.iter().position(|u| u.loc.province == bre);
    s.game.units[fleet.unwrap()].loc = Loc::new(mao);
    s.update(OMsg::Click("MAO".into()));
    let unit = s.unit_at(mao).unwrap();
    assert_eq!(
        s.move_tap(1, unit, Loc::new(at(&s, "SPA"))),
        MoveTap::Coast(at(&s, "SPA"))
    );
    s.update(OMsg::Click("SPA".into()));
    assert_eq!(s.mode, Mode::Coast(at(&s, "SPA")));
    assert_eq!(printed(&s), ["A PAR - BUR"], "nothing written yet");
    let words: Vec<&str> = s.coast_choices().iter().map(|c| c.1).collect();
    assert_eq!(words, ["North coast", "South coast"]);
    assert!(
        s.prompt().contains("which coast of Spain?"),
        "{}",
        s.prompt()
    );
    // Only the two coasts are highlighted; the South coast button's click writes the order.
    assert_eq!(s.targets().len(), 2);
    s.update(OMsg::Click("SPA/SC".into()));
    assert_eq!(printed(&s), ["F MAO - SPA/SC", "A PAR - BUR"]);
    // A fleet inland: refused.
    s.update(OMsg::Click("MAO".into()));
    s.update(OMsg::Click("MUN".into()));
    let e = s.error.clone().unwrap();
    assert!(e.contains("can't go to Munich: fleets stay at sea"), "{e}");
    // From the Western Mediterranean only Spain's south coast is reachable: taken at once.
    s.update(OMsg::Cancel);
    s.game.units[fleet.unwrap()].loc = Loc::new(wes);
    s.draft.retain(|w| w.at.province != mao);
    s.update(OMsg::Click("WES".into()));
    s.update(OMsg::Click("SPA".into()));
    assert_eq!(printed(&s), ["A PAR - BUR", "F WES - SPA/SC"]);
}
