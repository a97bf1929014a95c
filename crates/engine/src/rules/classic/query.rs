//! Questions about a game that change nothing: owners and counts, reinforcements, cards and sets,
//! dice, attack and fortify targets.

use super::*;

impl ClassicState {
    /// The map this game is played on.
    pub fn map(&self) -> &'static Map {
        Map::get(&self.map_id).unwrap_or_else(Map::classic)
    }

    /// The player whose turn it is (or who must act in setup).
    pub fn current_player(&self) -> PlayerId {
        self.current
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<PlayerId> {
        match self.phase {
            Phase::GameOver { winner } => Some(winner),
            _ => None,
        }
    }

    /// Who must sign an action: the current player, or the named player for `SetDefence`.
    pub fn actor(&self, action: &Action) -> PlayerId {
        match action {
            Action::SetDefence { player, .. } => *player,
            Action::SetTerritoryDefence { territory, .. } => {
                match self.owner.get(*territory as usize) {
                    Some(Owner::Player(p)) => *p,
                    _ => self.current,
                }
            }
            _ => self.current,
        }
    }

    /// SHA-256 of the canonical encoding.
    pub fn state_hash(&self) -> StateHash {
        codec::hash_of(self)
    }

    /// Territories owned by `p`.
    pub fn territories_of(&self, p: PlayerId) -> impl Iterator<Item = TerritoryId> + '_ {
        self.owner
            .iter()
            .enumerate()
            .filter(move |(_, o)| **o == Owner::Player(p))
            .map(|(i, _)| i as TerritoryId)
    }

    /// Number of territories owned by `p`.
    pub fn territory_count(&self, p: PlayerId) -> u32 {
        self.owner
            .iter()
            .filter(|o| **o == Owner::Player(p))
            .count() as u32
    }

    /// True when `p` owns every territory of continent `c`.
    pub fn owns_continent(&self, p: PlayerId, c: usize) -> bool {
        self.map().continents[c]
            .territories
            .iter()
            .all(|&t| self.owner[t as usize] == Owner::Player(p))
    }

    /// Reinforcements at the start of a turn: (from territories, from continents).
    pub fn reinforcements(&self, p: PlayerId) -> (u32, u32) {
        let base = (self.territory_count(p) / 3).max(3);
        let bonus = (0..self.map().continents.len())
            .filter(|&c| self.owns_continent(p, c))
            .map(|c| self.map().continents[c].bonus)
            .sum();
        (base, bonus)
    }

    /// Value of the next set to be traded.
    pub fn next_set_value(&self) -> u32 {
        self.options.cards.value(self.sets_traded)
    }

    /// Symbol of a card, `None` for a wild card.
    pub fn card_symbol(&self, c: CardId) -> Option<Symbol> {
        self.map().territories.get(c as usize).map(|t| t.card)
    }

    /// Territory shown on a card, `None` for a wild card.
    pub fn card_territory(&self, c: CardId) -> Option<TerritoryId> {
        ((c as usize) < self.map().len()).then_some(c)
    }

    /// True when three cards form a tradeable set.
    pub fn is_set(&self, cards: [CardId; 3]) -> bool {
        let syms: Vec<Option<Symbol>> = cards.iter().map(|&c| self.card_symbol(c)).collect();
        let wilds = syms.iter().filter(|s| s.is_none()).count();
        if wilds >= 1 {
            return true; // any two plus a wild (two wilds plus anything also qualifies)
        }
        let (a, b, c) = (syms[0], syms[1], syms[2]);
        (a == b && b == c) || (a != b && b != c && a != c)
    }

    /// Every set that can be made from `p`'s hand (card triples in hand order).
    pub fn sets_in_hand(&self, p: PlayerId) -> Vec<[CardId; 3]> {
        let hand = &self.players[p as usize].hand;
        let mut out = vec![];
        for i in 0..hand.len() {
            for j in i + 1..hand.len() {
                for k in j + 1..hand.len() {
                    let s = [hand[i], hand[j], hand[k]];
                    if self.is_set(s) {
                        out.push(s);
                    }
                }
            }
        }
        out
    }

    /// Most dice the attacker may roll from `from` (0 if it cannot attack).
    pub fn max_attack_dice(&self, from: TerritoryId) -> u8 {
        self.armies
            .get(from as usize)
            .map_or(0, |&a| a.saturating_sub(1).min(3) as u8)
    }

    /// How the holder of `to` defends it: one die if they asked for one (standing choice or
    /// for this territory), else as many as the armies and the options allow.
    pub fn defence_rule(&self, to: TerritoryId) -> DefenceRule {
        if let Some(Owner::Player(p)) = self.owner.get(to as usize) {
            let pl = &self.players[*p as usize];
            if pl.defend == DefendPref::One || pl.one_die.binary_search(&to).is_ok() {
                return DefenceRule::One;
            }
        }
        if self.options.defend_two_with_one {
            DefenceRule::Two
        } else {
            DefenceRule::Max
        }
    }

    /// Dice the owner of `to` rolls in defence.
    pub fn defence_dice(&self, to: TerritoryId) -> u8 {
        self.defence_rule(to).dice(self.armies[to as usize])
    }

    /// Enemy territories `from` can attack right now.
    pub fn attack_targets(&self, from: TerritoryId) -> Vec<TerritoryId> {
        if self.owner.get(from as usize) != Some(&Owner::Player(self.current))
            || self.armies[from as usize] < 2
        {
            return vec![];
        }
        self.map().territories[from as usize]
            .adjacent
            .iter()
            .copied()
            .filter(|&t| self.owner[t as usize] != Owner::Player(self.current))
            .collect()
    }

    /// Armies that may still leave `t` during fortification.
    pub fn movable(&self, t: TerritoryId) -> u32 {
        let a = self.armies[t as usize];
        a.saturating_sub(self.turn_state.arrived[t as usize].max(1))
    }

    /// Territories that armies from `from` may fortify this turn under the game's rule.
    pub fn fortify_targets(&self, from: TerritoryId) -> Vec<TerritoryId> {
        let me = Owner::Player(self.current);
        if self.phase != Phase::Fortify
            || self.owner.get(from as usize) != Some(&me)
            || self.movable(from) == 0
        {
            return vec![];
        }
        match self.options.fortify {
            FortifyRule::OneToOneAdjacent if self.turn_state.fortify_source.is_some() => {
                return vec![]
            }
            FortifyRule::OneToManyAdjacent
                if self.turn_state.fortify_source.is_some_and(|s| s != from) =>
            {
                return vec![]
            }
            _ => {}
        }
        if self.options.fortify == FortifyRule::ManyToManyConnected {
            let mut seen = vec![false; self.owner.len()];
            let mut stack = vec![from];
            seen[from as usize] = true;
            let mut out = vec![];
            while let Some(t) = stack.pop() {
                for &n in &self.map().territories[t as usize].adjacent {
                    if !seen[n as usize] && self.owner[n as usize] == me {
                        seen[n as usize] = true;
                        stack.push(n);
                        out.push(n);
                    }
                }
            }
            crate::short_sort::sort(&mut out);
            out
        } else {
            self.map().territories[from as usize]
                .adjacent
                .iter()
                .copied()
                .filter(|&n| self.owner[n as usize] == me)
                .collect()
        }
    }
}
