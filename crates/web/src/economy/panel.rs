//! The economy play screen: the board, a panel per phase that says whose move it is and what
//! each choice costs before it is confirmed, the players' standings and the log.
//!
//! Every choice offered comes from the engine (`choices`, `upkeep`, `recruit_cost`,
//! `possible_actions`, `withdraw_options`, `landing_options`, `onward_options`, …); the panel
//! only words it and sends the action.

use crate::economy::controls::{act, btn, count_input, send};
use crate::economy::online::Dealing;
use crate::economy::text::{self, force, region};
use crate::economy::{board, colour, combat, EMsg, EconomySession, View};
use crate::widgets::glossary::Rules;
use crate::widgets::term::{explain, Term};
use crate::widgets::Nav;

const ECO: Rules = Rules::Economy;
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::{EconomyAction as A, SetupAction};
use orbis_engine::rules::economy::map::{EconomyMap, RegionId, RegionKind};
use orbis_engine::rules::economy::options::Setup;
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::state::Standing;
use yew::prelude::*;

/// The whole play screen.
pub fn play(v: &View) -> Html {
    let Some(eco) = v.eco else { return html! {} };
    let g = &eco.game;
    let turn = match g.phase {
        Phase::Pick(_) | Phase::Place => "Setup".to_string(),
        Phase::Over => "Game over".to_string(),
        p => format!("Round {} · {}", g.round, text::cap(&p.to_string())),
    };
    let export = {
        let g = g.clone();
        let history = eco.history.clone();
        Callback::from(move |_: MouseEvent| {
            let save = orbis_engine::rules::Game::Economy(g.clone()).to_save();
            // With its history when there is one, so the file can be replayed too.
            let bytes = match &history {
                Some(h) => crate::savefile::to_replay_file(&save, h),
                None => save,
            };
            crate::store::download(&format!("orbis-economy-round-{}.orbis", g.round), &bytes);
        })
    };
    html! {
        <main class="play economy-play">
            // The map's regions are tab stops (88 on the world map): the first stop skips them.
            { crate::keynav::skip_link("panel") }
            <header class="bar">
                <button class="btn" id="menu" onclick={send(v, EMsg::Nav(Nav::Menu))}>{"Menu"}</button>
                <button class="btn" id="rules-btn" onclick={send(v, EMsg::Nav(Nav::Rules))}>{"? How to play"}</button>
                <h1 class="turn" id="turn-title">{turn}</h1>
                if eco.ui.skipping {
                    <button class="btn" id="skip" disabled=true>{"Computers playing…"}</button>
                } else if eco.computer_to_act().is_some() {
                    <button class="btn" id="skip" onclick={send(v, EMsg::Skip)}>{"Skip to my turn"}</button>
                }
                if eco.online.is_none() {
                    { speed(v) }
                    <button class="btn" id="export" onclick={export}>{"Export save"}</button>
                }
            </header>
            <div class="layout">
                <section class="map-wrap">
                    if eco.next_planner().is_none() {
                        { board::board(v) }
                    } else {
                        <div class="board-hidden">{"The map is hidden while the device changes hands."}</div>
                    }
                </section>
                <aside class="side">
                    <section class="panel" id="panel" tabindex="-1" aria-live="polite">{ panel(v, eco) }
                        { crate::economy::rollon::rolling_box(v, eco) }</section>
                    if let Some(e) = &eco.ui.error {
                        <p class="error" role="alert" id="error">{e}</p>
                    }
                    { crate::economy::summary::view(eco) }
                    { standings(v, eco) }
                    <details class="log" open=true>
                        <summary>{"Log"}</summary>
                        <ol id="log" tabindex="0" aria-label="Log">{ for eco.ui.log.iter().take(40).map(|l| html! { <li>{l}</li> }) }</ol>
                    </details>
                </aside>
            </div>
        </main>
    }
}

/// The computer players' pace.
fn speed(v: &View) -> Html {
    use crate::widgets::Speed;
    crate::widgets::select(
        "speed".into(),
        "Computer pace",
        v.speed,
        [Speed::Slow, Speed::Normal, Speed::Fast]
            .iter()
            .map(|&s| (s, s.key().to_string()))
            .collect(),
        v.on_speed.clone(),
    )
}

fn standings(v: &View, eco: &EconomySession) -> Html {
    let g = &eco.game;
    html! {
        <>
        { standings_table(eco) }
        { stats(eco) }
        { revealed_plans(eco) }
        { board::legend() }
        if eco.online.is_none() {
            { crate::widgets::seats_box(
                "seats",
                "Who plays each seat",
                eco.ui.seats_open,
                eco.ui.seats_unknown.then_some(("seats-unknown", "This game was loaded from a file, which does not say who plays each seat: every seat is human for now. Hand the computer's seats back to the computer here.")),
                (0..g.players.len() as PlayerId).map(|p| crate::widgets::SeatRow {
                    colour: colour(p),
                    name: eco.name(p).to_string(),
                    select: seat_select(v, eco, p),
                }).collect(),
            ) }
        }
        </>
    }
}

/// The game so far as charts (countries, units and income per player, from the game's
/// history), opened by itself once the game is over.
fn stats(eco: &EconomySession) -> Html {
    use crate::widgets::chart;
    let course = chart::economy_course(eco.history.as_ref());
    let who: Vec<chart::Who> = (0..eco.game.players.len())
        .map(|p| chart::Who {
            seat: p,
            name: eco.name(p as PlayerId).to_string(),
            colour: colour(p as PlayerId),
        })
        .collect();
    html! {
        <details class="estats" id="estats" open={eco.game.phase == Phase::Over}>
            <summary>{"Statistics"}</summary>
            { chart::charts("echarts", &[("Countries held", "Countries"), ("Units in play", "Units"),
                ("Income a round, before upkeep", "MU a round")], "Round (0: the setup)", course.as_ref(), &who, None) }
        </details>
    }
}

/// The plans of this round as words, once revealed (friendly movement and combat): the arrows
/// on the map carry only their counts.
fn revealed_plans(eco: &EconomySession) -> Html {
    let g = &eco.game;
    if !matches!(g.phase, Phase::Moving | Phase::Combat) || g.plans.values().all(Vec::is_empty) {
        return html! {};
    }
    let n: usize = g.plans.values().map(Vec::len).sum();
    let rows = g.plans.iter().flat_map(|(&p, ms)| {
        ms.iter().map(move |m| {
            html! { <li><span class="swatch" style={format!("background:{}", colour(p))}></span>
                {format!("{}: {} from {} to {}", eco.name(p), force(m.force()), region(m.from), region(m.to))}</li> }
        })
    });
    html! {
        <details class="revealed" id="revealed-plans">
            <summary>{format!("This round's plans ({})", text::count(n, "move", "moves"))}</summary>
            <ul>{ for rows }</ul>
        </details>
    }
}

/// The players' money, income, units, capital, cards and allies (also the replay's): allies, or
/// how a player's game ended, under its name.
pub fn standings_table(eco: &EconomySession) -> Html {
    let g = &eco.game;
    let map = EconomyMap::get();
    let rows = g.players.iter().enumerate().map(|(i, pl)| {
        let p = i as PlayerId;
        let sc = g.score(map, p);
        let state = match pl.standing {
            Standing::Playing if g.winner == Some(p) => "winner",
            Standing::Playing => "",
            Standing::Surrendered => "surrendered",
            Standing::Eliminated => "eliminated",
        };
        let allies: Vec<String> = g
            .alliances
            .iter()
            .filter_map(|&(a, b)| {
                (a == p)
                    .then_some(b)
                    .or((b == p).then_some(a))
                    .map(|q| eco.name(q).to_string())
            })
            .collect();
        html! {
            <tr class={classes!(state.to_string())} data-player={p.to_string()}>
                <td><span class="who"><span class="swatch" style={format!("background:{}", colour(p))}></span>{&pl.name}
                    <span class="seat-note">{seat_note(eco, p)}</span>
                    if g.initiative == Some(p) { <span title="holds the initiative">{" ⚑"}</span> }</span>
                    // Allies (or the end of a player's game) under the name: a seventh column
                    // did not fit the side panel beside the board.
                    if !state.is_empty() {
                        <span class="allies">{state}</span>
                    } else if !allies.is_empty() {
                        <span class="allies">{format!("allied with {}", allies.join(", "))}</span>
                    }</td>
                <td>{pl.mu}</td><td>{sc.income}</td><td>{g.units_in_play(p)}</td>
                <td>{pl.capital.map_or("—".to_string(), region)}</td>
                <td>{pl.cards.len() + pl.sealed.len()}</td>
            </tr>
        }
    });
    html! {
        <table class="standings" id="standings">
            <thead><tr><th>{"Player"}</th><th title="money">{"MU"}</th><th>{"Income"}</th>
                <th>{"Units"}</th><th>{"Capital"}</th><th><Term id="influence-card" text="Cards"/></th></tr></thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}

/// Who plays a seat, beside its name: " (you)" for the player at this device (online: this
/// page's seats), " (computer)" for a computer player.
fn seat_note(eco: &EconomySession, p: PlayerId) -> &'static str {
    use crate::economy::Seat;
    match &eco.online {
        Some(o) if o.mine.contains(&p) => crate::economy::text::you_after(eco.name(p)),
        Some(_) => "",
        None => match eco.seats.get(p as usize) {
            Some(Seat::Computer(_)) => " (computer)",
            _ if eco.lone_human() == Some(p) => crate::economy::text::you_after(eco.name(p)),
            _ => "",
        },
    }
}

/// Who plays a seat: a human at this device or a computer player of a level; changeable during
/// the game (an imported save comes with every seat human).
fn seat_select(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    use crate::economy::Seat;
    use orbis_engine::rules::classic::BotLevel;
    let d = v.dispatcher();
    crate::widgets::select(
        format!("seat-{p}"),
        "",
        eco.seats.get(p as usize).copied().unwrap_or(Seat::Human),
        vec![
            (Seat::Human, "Human".to_string()),
            (
                Seat::Computer(BotLevel::Easy),
                "Computer (easy)".to_string(),
            ),
            (
                Seat::Computer(BotLevel::Normal),
                "Computer (normal)".to_string(),
            ),
            (
                Seat::Computer(BotLevel::Hard),
                "Computer (hard)".to_string(),
            ),
        ],
        Callback::from(move |s| d.dispatch(EMsg::SetSeat(p, s))),
    )
}

fn panel(v: &View, eco: &EconomySession) -> Html {
    let g = &eco.game;
    if g.phase == Phase::Over {
        let who = g
            .winner
            .map_or("Nobody".to_string(), |p| eco.name(p).to_string());
        return html! {
            <div id="game-over"><h2>{format!("{who} wins!")}</h2>
                if eco.online.is_none() {
                    <button class="btn primary" onclick={send(v, EMsg::Nav(Nav::Setup))}>{"New game"}</button>
                    if eco.history.is_some() {
                        <button class="btn" id="over-replay" onclick={send(v, EMsg::Nav(Nav::Replay))}>{"Replay"}</button>
                    }
                }</div>
        };
    }
    if let Some(p) = eco.next_planner() {
        return html! {
            <div class="curtain" id="curtain" role="dialog" aria-labelledby="curtain-title">
                <div class="dialog">
                    <h2 id="curtain-title">{format!("Pass the device to {}", eco.name(p))}</h2>
                    <p>{"Plans are secret: nobody else should see the screen until they are submitted."}</p>
                    { clock(eco) }
                    <button class="btn primary" id="reveal" onclick={send(v, EMsg::Reveal(p))}>
                        {format!("I am {} — show my plans", eco.name(p))}</button>
                </div>
            </div>
        };
    }
    if let Some(o) = &eco.online {
        if eco.actor().is_none() {
            return online_waiting(eco, o);
        }
    }
    let Some(p) = eco.actor() else {
        let waiting: Vec<String> = g
            .to_act()
            .iter()
            .map(|&q| eco.name(q).to_string())
            .collect();
        return html! {
            <div id="waiting"><p>{format!("Computer players are moving: {}.", waiting.join(", "))}</p>{ clock(eco) }
                { combat::revolutions_at_hand(v, eco, None) }</div>
        };
    };
    let body = match g.phase {
        Phase::Pick(_) => pick(v, eco, p),
        Phase::Place => crate::economy::place::place(v, eco, p),
        Phase::Get => crate::economy::get::get(v, eco, p),
        Phase::Planning => planning(v, eco, p),
        Phase::Moving => moving(v, eco, p),
        Phase::Combat => combat::combat(v, eco, p),
        Phase::Over => html! {},
    };
    html! {
        <div class="act" data-actor={p.to_string()}>
            <h2 class="who" style={format!("border-color:{}", colour(p))}>{format!("{} to play", eco.name(p))}
                <span class="mu">{format!(" · {} MU", g.players[p as usize].mu)}</span></h2>
            { online_choices(v, eco) }
            if eco.online.is_some() { { clock(eco) } }
            { alliance_offers(v, eco, p) }
            { body }
            { combat::revolutions_at_hand(v, eco, Some(p)) }
            { combat::blockades(v, eco, p) }
            { diplomacy(v, eco, p) }
        </div>
    }
}

/// Online, while this page has nothing to do at the position: whose move it is.
fn online_waiting(eco: &EconomySession, o: &crate::economy::online::OnlineEconomy) -> Html {
    let names = |v: &[String]| v.join(", ");
    let text = match (o.sent, o.waiting.is_empty()) {
        (true, true) => "Your choices are sent; the move is being played.".to_string(),
        (true, false) => format!("Your choices are sent; waiting for {}.", names(&o.waiting)),
        (false, true) => {
            let to_act: Vec<String> = eco
                .game
                .to_act()
                .iter()
                .map(|&q| eco.name(q).to_string())
                .collect();
            match to_act.is_empty() {
                true => "The move is being played.".to_string(),
                false => format!("{} to play.", to_act.join(", ")),
            }
        }
        (false, false) => format!("Waiting for {}.", names(&o.waiting)),
    };
    // Online a revolution goes in with one of our moves, so a card holder the game does not wait
    // on now is told when it can: the combat phase asks every card holder who has not pressed
    // Done once no battle is left (not after its cards are handed out: thefts come first).
    let g = &eco.game;
    let holding = g.phase == Phase::Combat
        && g.options.influence_cards
        && g.combat.as_ref().is_some_and(|c| {
            !c.cards_dealt
                && o.mine.iter().any(|&q| {
                    !c.onward_done.contains(&q) && !g.players[q as usize].cards.is_empty()
                })
        });
    html! {
        <div id="waiting" data-sent={if o.sent { "1" } else { "0" }}>
            <p>{explain(&text, ECO)}</p>
            if holding {
                <p class="hint" id="revolutions-later">{explain("You hold an influence card: you may incite a revolution whenever this combat phase waits on you, and it will, once no battle is left.", ECO)}</p>
            }
            { dealing_note(o) }
            if !o.committed.is_empty() {
                <p class="hint">{format!("Committed: {}.", names(&o.committed))}</p>
            }
        </div>
    }
}

/// Online: what the batch holds so far, and how to take it back (nothing is sent until the
/// step is finished).
fn online_choices(v: &View, eco: &EconomySession) -> Html {
    let Some(o) = &eco.online else {
        return html! {};
    };
    let waiting = (!o.waiting.is_empty()).then(|| {
        html! { <p class="hint" id="online-waiting">{format!("Also awaited: {}.", o.waiting.join(", "))}</p> }
    });
    if o.batch.is_empty() {
        return html! { <>{ dealing_note(o) }{ for waiting }</> };
    }
    html! {
        <div class="online-batch" id="online-batch">
            <p class="hint">{format!("{} choice{} at this step, sent when you finish it.",
                o.batch.len(), if o.batch.len() == 1 { "" } else { "s" })}</p>
            <button class="btn small" id="undo" onclick={send(v, EMsg::Undo)}>{"Take them back"}</button>
            { for waiting }
        </div>
    }
}

/// Online: our influence cards cannot be dealt until someone sends its part of the deal; the
/// game stops for everyone meanwhile, and the room's vote below can hand that seat over.
fn dealing_note(o: &crate::economy::online::OnlineEconomy) -> Html {
    let Some(dealing) = o.dealing else {
        return html! {};
    };
    let who = match o.waiting.is_empty() {
        true => "another player".to_string(),
        false => o.waiting.join(", "),
    };
    let text = match dealing {
        Dealing::Ours => format!(
            "Your influence cards cannot be dealt: {who} has not sent their part of the deal. \
             The game waits for it (your choices go out as soon as your cards show); if it does \
             not come, vote below to hand {who}'s seat to the computer."
        ),
        Dealing::Computers => format!(
            "A computer player's influence card cannot be dealt: {who} has not sent their part \
             of the deal, and every card is dealt from the whole deal. The game waits for it \
             (your choices go out as soon as the card shows); if it does not come, vote below \
             to hand {who}'s seat to the computer."
        ),
    };
    html! { <p class="error" role="alert" id="cards-blocked" data-whose={format!("{dealing:?}")}>{text}</p> }
}

fn clock(eco: &EconomySession) -> Html {
    match eco.seconds_left() {
        Some(s) if eco.game.phase == Phase::Combat => {
            html! { <p class="clock" id="clock">{format!("{s} s to declare: silence is a pass.")}</p> }
        }
        Some(s) => {
            html! { <p class="clock" id="clock">{format!("A majority has submitted: {s} s left to plan.")}</p> }
        }
        None => html! {},
    }
}

fn pick(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    let map = EconomyMap::get();
    let continents = g.options.setup == Setup::Continents;
    let buttons = g.choices(map).into_iter().map(|c| {
        let (label, choice) = if continents {
            let name = map.base.continents[c as usize].name.clone();
            (name, SetupAction::Continent(c as _))
        } else {
            (region(c as RegionId), SetupAction::Country(c as RegionId))
        };
        btn(
            v,
            format!("pick-{c}"),
            label,
            A::Setup { player: p, choice },
        )
    });
    html! {
        <div><p>{ if continents { html! { "Pick a continent (click it on the map or below)." } } else { explain("Pick your capital: click a country on the map or below.", ECO) } }</p>
            <div class="choices">{ for buttons }</div></div>
    }
}

fn planning(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    let map = EconomyMap::get();
    let draft = eco.ui.drafts.get(&p).cloned().unwrap_or_default();
    let rows = draft.iter().enumerate().map(|(i, m)| {
        // The most each box can take: what the engine would move with the other plans as
        // they are; a kind none of which can go gets no box.
        let others: Vec<_> = draft
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != i)
            .map(|(_, x)| *x)
            .collect();
        let most = g.move_default(map, p, m.from, m.to, &others);
        let (a, n) = (m.armies, m.navies);
        let route = format!("{} → {}", region(m.from), region(m.to));
        let field = |id: String, kind: &str, now: u32, max: u32, cb: Callback<Event>| {
            html! {
                <label class="plan-count-field" for={id.clone()}>
                    <input id={id} type="number" min="0" max={max.to_string()} value={now.to_string()}
                        aria-label={format!("{kind} moving {route}")} onchange={cb}/>
                    {format!(" {kind} of {max}")}</label>
            }
        };
        html! { <li data-from={m.from.to_string()} data-to={m.to.to_string()}>
            <span class="plan-route">{route.clone()}</span>
            <span class="plan-counts">
                if most.armies > 0 || a > 0 {
                    { field(format!("plan-armies-{i}"), "armies", a, most.armies.max(a),
                        count_input(v, 0, a, move |x| EMsg::PlanCount(i, x, n))) }
                }
                if most.navies > 0 || n > 0 {
                    { field(format!("plan-navies-{i}"), "navies", n, most.navies.max(n),
                        count_input(v, 0, n, move |x| EMsg::PlanCount(i, a, x))) }
                }
                <button class="btn small" id={format!("remove-plan-{i}")} aria-label={format!("Remove the move {route}")}
                    onclick={send(v, EMsg::RemovePlan(i))}>{"✕"}</button>
            </span>
            { crate::economy::planview::beside(eco, p, &draft, m.to) }</li> }
    });
    // A move begun on the map (its start clicked) and not finished is named on the submit
    // button, which leaves it out: a player never submits believing it planned.
    let pending = eco.ui.sel;
    let submit = match (pending, draft.len()) {
        (Some(from), 0) => format!("Submit without the unfinished move from {}", region(from)),
        (Some(from), n) => format!(
            "Submit {}, without the unfinished one from {}",
            text::count(n, "planned move", "planned moves"),
            region(from)
        ),
        (None, 0) => "Submit: no planned moves this round".to_string(),
        (None, n) => format!("Submit {}", text::count(n, "planned move", "planned moves")),
    };
    html! {
        <div id="planning">
            <p>{"Plan attacks: click your units, then the region they attack. Moves within your own land come next."}</p>
            { clock(eco) }
            if let Some(from) = pending {
                <p class="route pending" id="pending-move"><strong>{format!("From {}: ", region(from))}</strong>
                    {"now click where to, on the map or here:"}
                    <button class="btn small" id="clear-move" onclick={send(v, EMsg::Cancel)}>{"Clear"}</button></p>
                { crate::economy::planview::targets(v, eco, p, from) }
            }
            if !draft.is_empty() {
                <ol class="draft" id="draft">{ for rows }</ol>
            }
            if pending.is_some() || !draft.is_empty() {
                <p class="hint" id="odds-hint">{"Chances assume the others stay where they are: their plans are secret."}</p>
            }
            <button class="btn primary" id="submit-plans" data-pending={pending.is_some().to_string()}
                onclick={send(v, EMsg::SubmitPlans)}>{submit}</button>
        </div>
    }
}

fn moving(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let mv = eco.picked_move().map(|(from, to, force)| A::MoveFriendly {
        player: p,
        from,
        to,
        force,
    });
    let g = &eco.game;
    let map = EconomyMap::get();
    // Where the engine lets a unit of `p` move now, and whether `p` moved any this phase: the
    // next thing to do is then a move (primary), or going on to combat (primary), never a
    // "Done moving" before anything moved.
    let can_move =
        (0..map.regions.len() as RegionId).any(|r| !g.destinations(map, p, r).is_empty());
    let moved = g.moved.keys().any(|&(q, _)| q == p);
    let done = if moved {
        "Done moving: on to combat"
    } else {
        "No moves: on to combat"
    };
    let primary = if mv.is_some() { "btn" } else { "btn primary" };
    // The move's details only once one is begun: most players go on at once.
    html! {
        <div id="moving">
            if can_move || eco.ui.sel.is_some() {
                <p>{"Optional: units in no plan may move within your and your allies' land (click them, then where to). Or go on to combat."}</p>
            } else {
                <p id="nothing-to-move">{format!("None of your units can move now: those in plans already march, the others have nowhere friendly to go. Press {done}.")}</p>
            }
            if let Some(from) = eco.ui.sel {
                <p class="route pending" id="pending-move"><strong>{format!("From {} to ", region(from))}</strong>
                    {eco.ui.to.map_or("— (click where to)".to_string(), region)}
                    <button class="btn small" id="clear-move" onclick={send(v, EMsg::Cancel)}>{"Clear"}</button></p>
                { crate::economy::controls::counts(v, eco, eco.ui.navies > 0) }
            }
            if let Some(a) = mv {
                <button class="btn primary" id="move-friendly" onclick={act(v, a)}>{"Move"}</button>
            }
            <button class={primary} id="finish-moving" onclick={act(v, A::FinishMoving { player: p })}>{done}</button>
        </div>
    }
}

/// Alliances offered to `p`, in the open with their answer (issue 60: one sat in the folded
/// Diplomacy box): accepted in the Get phase, the only phase alliances change.
fn alliance_offers(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    if g.phase != Phase::Get {
        return html! {};
    }
    let offers = g
        .playing()
        .filter(|&q| q != p && g.alliance_offers.contains(&(q, p)) && !g.friends(p, q))
        .map(|q| {
            html! { <div class="offer" id={format!("offer-{q}")} role="status">
                <p>{format!("{} offers you an alliance: allies' countries are friendly to each other (units move through them) and allied units do not fight.", eco.name(q))}</p>
                { btn(v, format!("ally-{q}"), format!("Accept {}'s alliance", eco.name(q)), A::OfferAlliance { player: p, with: q }) }
                <span class="hint">{" Or leave it: it stands until withdrawn."}</span>
            </div> }
        });
    html! { <>{ for offers }</> }
}

/// Alliances, forfeits and surrender: open to the player at the device in every phase.
fn diplomacy(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    // An offer to `p` is answered in the open (`alliance_offers`), not in here.
    let others = g
        .playing()
        .filter(|&q| q != p && (g.friends(p, q) || !g.alliance_offers.contains(&(q, p))))
        .map(|q| {
            let allied = g.friends(p, q);
            let offered = g.alliance_offers.contains(&(p, q));
            let asked = g.alliance_offers.contains(&(q, p));
            let (label, a) = if allied || offered {
                (
                    if allied {
                        format!("Break the alliance with {}", eco.name(q))
                    } else {
                        format!("Withdraw the offer to {}", eco.name(q))
                    },
                    A::BreakAlliance { player: p, with: q },
                )
            } else if asked {
                (
                    format!("Accept {}'s alliance", eco.name(q)),
                    A::OfferAlliance { player: p, with: q },
                )
            } else {
                (
                    format!("Offer {} an alliance", eco.name(q)),
                    A::OfferAlliance { player: p, with: q },
                )
            };
            btn(v, format!("ally-{q}"), label, a)
        });
    let forfeits = g
        .owned(p)
        .filter(|&r| {
            matches!(
                EconomyMap::get().regions[r as usize].kind,
                RegionKind::Land { .. }
            )
        })
        .flat_map(|r| {
            g.regions[r as usize]
                .forces
                .keys()
                .filter(move |&&q| q != p && g.friends(p, q))
                .map(move |&q| (r, q))
                .collect::<Vec<_>>()
        })
        .map(|(r, q)| {
            btn(
                v,
                format!("forfeit-{r}-{q}"),
                format!("Give {} to {}", region(r), eco.name(q)),
                A::Forfeit {
                    player: p,
                    region: r,
                    to: q,
                },
            )
        });
    // Alliances and forfeits are the Get phase's business (the engine refuses them elsewhere);
    // a player may surrender in the Get, planning and moving phases.
    let get = g.phase == Phase::Get;
    let surrender = matches!(g.phase, Phase::Get | Phase::Planning | Phase::Moving);
    if !get && !surrender {
        return html! {};
    }
    html! {
        <details class="diplomacy" id="diplomacy"><summary>{"Diplomacy"}</summary>
            if get {
                <div class="choices">{ for others }{ for forfeits }</div>
            } else {
                <p class="hint">{"Alliances are offered, accepted and broken in the Get phase."}</p>
            }
            <button class="btn danger" id="surrender" onclick={act(v, A::Surrender { player: p })}>{"Surrender"}</button>
        </details>
    }
}
