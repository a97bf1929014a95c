//! Rolling an attack on without a click per roll (as classic's Blitz): the player at the device
//! lets the attack under way go on, roll after roll, until it ends or they have lost a number of
//! units. Every roll is still the engine's own action (the player's pass, or a computer's
//! choice, one `apply` each), so the log, a replay and the game are the same as by clicking;
//! this is only the clicking. It stops, and says why, wherever a choice is not the player's to
//! make by passing: another human at the device may interrupt or withdraw, someone
//! interrupted, a withdraw waits for interceptors, or the attack is over.
//!
//! Online (`online_roll`), each roll is a position of the protocol: the page sends the player's
//! pass as its batch for the declaration window after each roll, exactly the action the "Pass"
//! button sends, and nothing else; the other players in the battle decide in that same window
//! on their own pages (or their window closes: a pass), so the rolling never answers for them.
//! It stops where their choice changed the battle (an interruption, a withdraw, a choice of the
//! initiative holder), where the choice is the player's own (interceptions), at the loss
//! threshold, at the attack's end, or at the "Stop rolling" button. Nothing of it is trusted
//! by anyone: it is the page clicking "Pass" for its own player.

use crate::economy::controls::send;
use crate::economy::text;
use crate::economy::{EMsg, EconomySession, View};
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::EconomyAction as A;
use orbis_engine::rules::economy::battlefield::{Assault, Foe, Site};
use orbis_engine::rules::economy::phase::Phase;
use yew::prelude::*;

/// An attack being rolled on: by whom, where, which attack, and when to stop (UI state).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rolling {
    pub p: PlayerId,
    pub site: Site,
    pub first: Assault,
    /// `p`'s units at the site when the rolling began.
    pub start: u32,
    pub until: Option<u32>,
    /// Passes sent (online) or rolls made since it began.
    pub rolls: u32,
}

impl EconomySession {
    /// The attack under way, as `p` would roll it on.
    fn rolling(&self, p: PlayerId, until: Option<u32>) -> Option<Rolling> {
        let site = self
            .game
            .combat
            .as_ref()
            .and_then(|c| c.battle.as_ref())
            .map(|b| b.site)?;
        Some(Rolling {
            p,
            site,
            first: self.game.assault(site)?,
            start: self.game.site_force(site, Foe::Player(p)).units(),
            until,
            rolls: 0,
        })
    }

    /// Why rolling `r` on stops in the state now, if it does: the attack (or the battle) is
    /// over, someone withdraws, someone interrupted, or the player lost what they allowed.
    fn roll_stop(&self, r: &Rolling) -> Option<String> {
        let first = r.first;
        let b = self.game.combat.as_ref().and_then(|c| c.battle.as_ref());
        let Some(b) = b.filter(|b| b.site == r.site) else {
            // The last roll ended the attack and, nobody having anything left to declare,
            // the battle with it.
            let over = self.attack_over(first.attacker, first.target, first.kind, r.site);
            return Some(format!("{over} The battle is over."));
        };
        if let Some(w) = &b.pending {
            return Some(format!(
                "{} is withdrawing: the players who may intercept decide now.",
                self.name(w.player)
            ));
        }
        let Some(a) = self.game.assault(r.site) else {
            return Some(self.attack_over(first.attacker, first.target, first.kind, r.site));
        };
        if a != first {
            return Some(format!(
                "{} interrupted with an attack of their own.",
                self.name(a.attacker)
            ));
        }
        let now = self.game.site_force(r.site, Foe::Player(r.p)).units();
        let lost = r.start.saturating_sub(now);
        r.until.filter(|&n| lost >= n).map(|n| {
            format!(
                "You have lost {}: stopped as you asked.",
                text::count(n as usize, "unit", "units")
            )
        })
    }

    /// `p` lets the attack under way roll on until it ends, or until `p` has lost `until`
    /// units in this battle from now. Returns whether the game changed, and leaves the reason it
    /// stopped in the log and `ui.roll_note`. Online it only starts the rolling: each pass
    /// goes out as the position before it is played (`online_roll`).
    pub fn roll_on(&mut self, p: PlayerId, until: Option<u32>) -> bool {
        let Some(r) = self.rolling(p, until) else {
            return false;
        };
        self.ui.rolling = Some(r);
        if self.online.is_some() {
            self.online_roll();
            return false;
        }
        self.local_roll()
    }

    /// At one device, while rolling on: the player's passes, roll after roll, until the rolling
    /// stops or a computer must choose. In the browser that choice is thought in the worker
    /// (the page answers meanwhile): the rolling waits in `ui.rolling`, and goes on here when
    /// the choice has been played (`update`). Returns whether the game changed.
    pub fn local_roll(&mut self) -> bool {
        let Some(mut r) = self.ui.rolling.filter(|_| self.online.is_none()) else {
            return false;
        };
        let rolls = r.rolls;
        let why = loop {
            if let Some(why) = self.roll_stop(&r) {
                break why;
            }
            // The player's own pass first, so that the panel never offers them a choice while
            // a computer thinks; then the computers'.
            match self.humans_to_act().first() {
                Some(&h) if h == r.p => {
                    let pass = A::Declare {
                        player: r.p,
                        action: None,
                    };
                    if !self.act(&pass) {
                        break "The roll was refused (see the message above).".into();
                    }
                    r.rolls += 1;
                }
                Some(&h) => {
                    break format!(
                        "{} may interrupt or withdraw now: it is their choice.",
                        self.name(h)
                    )
                }
                None if self.computer_to_act().is_some() => {
                    if cfg!(target_arch = "wasm32") {
                        self.ui.rolling = Some(r);
                        return r.rolls > rolls;
                    }
                    if !self.bot_step() {
                        break "A computer player could not act.".into();
                    }
                    r.rolls += 1;
                }
                None => break "Waiting for the other players.".into(),
            }
        };
        self.roll_stopped(&r, why);
        r.rolls > rolls
    }

    /// Rolling on is over: why, in the log and beside the battle.
    fn roll_stopped(&mut self, r: &Rolling, why: String) {
        let note = if r.rolls > 0 {
            format!("Rolled on: {why}")
        } else {
            text::cap(&why)
        };
        self.ui.log.insert(0, note.clone());
        self.ui.roll_note = Some((self.game.round, r.site, note));
        self.ui.rolling = None;
    }

    /// Online, while rolling on: at each new agreed position, the player's pass for the
    /// declaration window after the last roll (the action the Pass button sends), or the end
    /// of the rolling and why. Called after every news of the protocol; does nothing while the
    /// pass of this position is out.
    pub fn online_roll(&mut self) {
        let Some(mut r) = self.ui.rolling else { return };
        let Some(o) = &self.online else { return };
        if o.sent || o.dealing.is_some() || !o.batch.is_empty() {
            return;
        }
        if let Some(why) = self.roll_stop(&r) {
            return self.roll_stopped(&r, why);
        }
        let due = self.online_due();
        let asked = self.game.to_act();
        let why = if self.game.waiting_for_choice() {
            let holder = self.game.combat.as_ref().map_or(r.p, |c| c.holder);
            format!(
                "{} holds the initiative and chooses whose action resolves first.",
                self.name(holder)
            )
        } else if let Some(&q) = due.iter().find(|&&q| q != r.p) {
            format!(
                "{} (also played here) may interrupt or withdraw now: it is their choice.",
                self.name(q)
            )
        } else if due.contains(&r.p) {
            let pass = A::Declare {
                player: r.p,
                action: None,
            };
            if self.online_act(&pass) {
                r.rolls += 1;
                self.ui.rolling = Some(r);
                return;
            }
            "The roll was refused (see the message above).".into()
        } else if asked.is_empty() || self.online.as_ref().is_some_and(|o| !o.waiting.is_empty()) {
            // The position is being played, or others are still deciding in the window: the
            // next news says.
            return;
        } else {
            let names: Vec<&str> = asked.iter().map(|&q| self.name(q)).collect();
            format!("{} to decide now.", names.join(", "))
        };
        self.roll_stopped(&r, why);
    }

    /// The player pressed "Stop rolling".
    pub fn stop_rolling(&mut self) {
        if let Some(r) = self.ui.rolling {
            let sent = self.online.as_ref().is_some_and(|o| o.sent);
            let why = match sent {
                true => {
                    "you stopped it (the pass already sent for this roll still counts).".to_string()
                }
                false => "you stopped it.".to_string(),
            };
            self.roll_stopped(&r, why);
        }
    }

    /// How the attack of `attacker` on `target` ended, in words.
    fn attack_over(
        &self,
        attacker: PlayerId,
        target: Foe,
        kind: orbis_engine::rules::economy::units::Kind,
        site: Site,
    ) -> String {
        let g = &self.game;
        let mine = g.site_force(site, Foe::Player(attacker)).of(kind);
        let theirs = g.site_force(site, target).of(kind);
        let (a, t) = (self.name(attacker), text::foe(g, target));
        match (mine, theirs) {
            (0, 0) => format!(
                "the attack is over: neither {a} nor {t} has {} left here.",
                text::kind(kind)
            ),
            (_, 0) => format!(
                "the attack is over: {a} destroyed {t}'s {}.",
                text::kind(kind)
            ),
            (0, _) => format!(
                "the attack is over: {a} has no {} left here.",
                text::kind(kind)
            ),
            _ => "the attack is over.".into(),
        }
    }
}

/// The attack being rolled on, how many rolls (online: passes) went out, and the button that
/// stops it; online, once stopped, why (while the round's combat lasts and the battle panel
/// does not say it). At one device it shows only while a computer's choice is awaited.
pub fn rolling_box(v: &View, eco: &EconomySession) -> Html {
    let g = &eco.game;
    if eco.online.is_none() {
        let Some((r, (p, _))) = eco.ui.rolling.zip(eco.computer_to_act()) else {
            return html! {};
        };
        let a = r.first;
        return html! {
            <div class="roll-on rolling" id="rolling" role="status">
                <p>{format!(
                    "Rolling on {}'s attack on {}'s {} at {}: {} so far. {} (computer) is thinking…",
                    eco.name(a.attacker),
                    text::foe(g, a.target),
                    text::kind(a.kind),
                    text::site(r.site),
                    text::count(r.rolls as usize, "roll", "rolls"),
                    eco.name(p)
                )}</p>
                <button class="btn" id="roll-on-halt" onclick={send(v, EMsg::StopRolling)}>{"Stop rolling"}</button>
            </div>
        };
    }
    if let Some(r) = eco.ui.rolling {
        let a = r.first;
        let what = format!(
            "Rolling on {}'s attack on {}'s {} at {}: {} sent",
            eco.name(a.attacker),
            text::foe(g, a.target),
            text::kind(a.kind),
            text::site(r.site),
            text::count(r.rolls as usize, "pass", "passes")
        );
        let until = r.until.map_or(" until the attack ends.".to_string(), |n| {
            format!(
                " until you have lost {}.",
                text::count(n as usize, "unit", "units")
            )
        });
        return html! {
            <div class="roll-on rolling" id="rolling" role="status">
                <p>{what}{until}</p>
                <p class="hint">{"Each roll waits for the other players in this battle to pass or act on their own pages."}</p>
                <button class="btn" id="roll-on-halt" onclick={send(v, EMsg::StopRolling)}>{"Stop rolling"}</button>
            </div>
        };
    }
    // The battle panel shows the note while its battle lasts; after, it is said here.
    let current = g
        .combat
        .as_ref()
        .and_then(|c| c.battle.as_ref())
        .map(|b| b.site);
    let note = eco.ui.roll_note.as_ref().filter(|(round, site, _)| {
        *round == g.round && g.phase == Phase::Combat && current != Some(*site)
    });
    match note {
        Some((_, _, n)) => html! { <p class="roll-note" id="roll-stopped" role="status">{n}</p> },
        None => html! {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::economy::online;
    use orbis_engine::rules::economy::action::SetupAction;
    use orbis_engine::rules::economy::battlefield::BattleAction;
    use orbis_engine::rules::economy::map::EconomyMap;
    use orbis_engine::rules::economy::options::EconomyOptions;
    use orbis_engine::rules::economy::state::EconomyState;
    use orbis_engine::rules::economy::units::{Kind, PlannedMove};

    /// Round 1: Ann (0) attacks Bob's capital (1) next door with her five armies; the first
    /// roll is made and the declaration window after it is open.
    fn attack_under_way() -> EconomyState {
        let map = EconomyMap::get();
        let (we, se) = (
            map.region("western_europe").unwrap(),
            map.region("southern_europe").unwrap(),
        );
        let (mut g, _) =
            EconomyState::new(&["Ann", "Bob"], EconomyOptions::default(), [5; 32]).unwrap();
        while let Phase::Pick(p) = g.phase {
            let c = if p == 0 { we } else { se };
            g.apply(&A::Setup {
                player: p,
                choice: SetupAction::Country(c),
            })
            .unwrap();
        }
        for _ in 0..100 {
            if g.assault(Site::Region(se)).is_some() && !g.to_act().is_empty() {
                return g;
            }
            let p = g.to_act()[0];
            let a = match g.phase {
                Phase::Get => A::FinishGet { player: p },
                Phase::Planning => A::SubmitPlans {
                    player: p,
                    moves: match p {
                        0 => vec![PlannedMove {
                            from: we,
                            to: se,
                            armies: 5,
                            navies: 0,
                        }],
                        _ => vec![],
                    },
                },
                Phase::Moving => A::FinishMoving { player: p },
                _ => match g.combat.as_ref().and_then(|c| c.battle.as_ref()) {
                    None => A::PickBattle {
                        player: p,
                        site: Site::Region(se),
                    },
                    Some(_) => A::Declare {
                        player: p,
                        action: (p == 0).then_some(BattleAction::Attack {
                            target: Foe::Player(1),
                            kind: Kind::Army,
                        }),
                    },
                },
            };
            g.apply(&a).unwrap();
        }
        panic!("no attack under way: {:?}", g.phase);
    }

    /// Plays the position our page committed (`ours`) with Bob's pass, as the protocol would,
    /// and hands the page the agreed state.
    fn play(s: &mut EconomySession, ours: Vec<A>) {
        let mut g = s.online.as_ref().unwrap().confirmed.clone();
        for a in ours {
            g.apply(&a).unwrap();
        }
        if g.to_act().contains(&1) {
            g.apply(&A::Declare {
                player: 1,
                action: None,
            })
            .unwrap();
        }
        s.online_played(g, &[]);
        s.online_status(vec![0], false, vec![], vec![], None, None);
    }

    /// Online, rolling on sends exactly the Pass button's action at each position, one
    /// position at a time, until the attack is over, and says so.
    #[test]
    fn online_rolling_on_sends_one_pass_a_position_to_the_end() {
        let g = attack_under_way();
        let mut s = EconomySession::new_online(g, &[0]);
        let _ = online::take_queued();
        s.update(EMsg::RollOn(0, None));
        let mut passes = 0;
        for _ in 0..200 {
            let q = online::take_queued();
            if s.ui.rolling.is_none() {
                assert!(q.is_empty());
                break;
            }
            // One batch, of one pass, chosen at the agreed position; nothing more until it is
            // played.
            let at = s.online.as_ref().unwrap().confirmed.steps;
            let pass = A::Declare {
                player: 0,
                action: None,
            };
            assert_eq!(q, vec![(at, vec![pass.clone()])]);
            s.online_status(vec![0], true, vec![], vec!["Bob".into()], None, None);
            assert!(online::take_queued().is_empty(), "one pass a position");
            passes += 1;
            play(&mut s, vec![pass]);
        }
        assert!(s.ui.rolling.is_none(), "the attack ended");
        assert!(passes > 0);
        assert!(
            s.ui.log[0].starts_with("Rolled on: the attack is over"),
            "{:?}",
            s.ui.log[0]
        );
    }

    /// The Stop button ends it: no pass is sent at the next position, and the log says why.
    #[test]
    fn stopped_rolling_sends_nothing_more() {
        let mut s = EconomySession::new_online(attack_under_way(), &[0]);
        let _ = online::take_queued();
        s.update(EMsg::RollOn(0, None));
        let q = online::take_queued();
        assert_eq!(q.len(), 1);
        s.online_status(vec![0], true, vec![], vec!["Bob".into()], None, None);
        s.update(EMsg::StopRolling);
        assert!(s.ui.rolling.is_none());
        assert!(s.ui.log[0].contains("you stopped it"), "{:?}", s.ui.log[0]);
        play(&mut s, q.into_iter().flat_map(|(_, b)| b).collect());
        assert!(online::take_queued().is_empty());
    }
}
