//! Rolling an attack on without a click per roll (as classic's Blitz): the player at the device
//! lets the attack under way go on, roll after roll, until it ends or they have lost a number of
//! units. Every roll is still the engine's own action (the player's pass, or a computer's
//! choice, one `apply` each), so the log, a replay and the game are the same as by clicking;
//! this is only the clicking. It stops, and says why, wherever a choice is not the player's to
//! make by passing: another human at the device may interrupt or withdraw, someone
//! interrupted, a withdraw waits for interceptors, or the attack is over.

use crate::economy::text;
use crate::economy::EconomySession;
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::EconomyAction as A;
use orbis_engine::rules::economy::battlefield::Foe;

impl EconomySession {
    /// `p` lets the attack under way roll on until it ends, or until `p` has lost `until`
    /// units in this battle from now. Returns whether the game changed, and leaves the reason it
    /// stopped in the log and `ui.roll_note`.
    pub fn roll_on(&mut self, p: PlayerId, until: Option<u32>) -> bool {
        let Some(site) = self
            .game
            .combat
            .as_ref()
            .and_then(|c| c.battle.as_ref())
            .map(|b| b.site)
        else {
            return false;
        };
        let Some(first) = self.game.assault(site) else {
            return false;
        };
        let start = self.game.site_force(site, Foe::Player(p)).units();
        let mut changed = false;
        let why = loop {
            let b = self.game.combat.as_ref().and_then(|c| c.battle.as_ref());
            let Some(b) = b.filter(|b| b.site == site) else {
                // The last roll ended the attack and, nobody having anything left to declare,
                // the battle with it.
                let over = self.attack_over(first.attacker, first.target, first.kind, site);
                break format!("{over} The battle is over.");
            };
            if let Some(w) = &b.pending {
                break format!(
                    "{} is withdrawing: the players who may intercept decide now.",
                    self.name(w.player)
                );
            }
            let Some(a) = self.game.assault(site) else {
                break self.attack_over(first.attacker, first.target, first.kind, site);
            };
            if a != first {
                break format!(
                    "{} interrupted with an attack of their own.",
                    self.name(a.attacker)
                );
            }
            let lost = start.saturating_sub(self.game.site_force(site, Foe::Player(p)).units());
            if let Some(n) = until.filter(|&n| lost >= n) {
                break format!(
                    "You have lost {}: stopped as you asked.",
                    text::count(n as usize, "unit", "units")
                );
            }
            if self.computer_to_act().is_some() {
                if !self.bot_step() {
                    break "A computer player could not act.".into();
                }
                changed = true;
                continue;
            }
            match self.humans_to_act().first() {
                Some(&h) if h == p => {
                    let pass = A::Declare {
                        player: p,
                        action: None,
                    };
                    if !self.act(&pass) {
                        break "The roll was refused (see the message above).".into();
                    }
                    changed = true;
                }
                Some(&h) => {
                    break format!(
                        "{} may interrupt or withdraw now: it is their choice.",
                        self.name(h)
                    )
                }
                None => break "Waiting for the other players.".into(),
            }
        };
        let note = if changed {
            format!("Rolled on: {why}")
        } else {
            text::cap(&why)
        };
        self.ui.log.insert(0, note.clone());
        self.ui.roll_note = Some((self.game.round, site, note));
        changed
    }

    /// How the attack of `attacker` on `target` ended, in words.
    fn attack_over(
        &self,
        attacker: PlayerId,
        target: Foe,
        kind: orbis_engine::rules::economy::units::Kind,
        site: orbis_engine::rules::economy::battlefield::Site,
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
