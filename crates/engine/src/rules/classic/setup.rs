//! A new game: territories dealt or picked, neutrals, missions, the card deck, the first player.

use super::*;

impl ClassicState {
    /// Sets up a new game on the classic map: deals territories (or prepares for picking),
    /// neutrals, missions and the card deck, and picks the first player, all from `seed`.
    pub fn new(
        seats: Vec<SeatConfig>,
        options: ClassicOptions,
        seed: [u8; 32],
    ) -> Result<Self, SetupError> {
        Self::new_on("classic", seats, options, seed)
    }

    /// As [`ClassicState::new`] on a named built-in map.
    pub fn new_on(
        map_id: &str,
        seats: Vec<SeatConfig>,
        options: ClassicOptions,
        seed: [u8; 32],
    ) -> Result<Self, SetupError> {
        let map = Map::get(map_id).ok_or_else(|| SetupError::UnknownMap(map_id.to_string()))?;
        let n = seats.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(SetupError::PlayerCount(n));
        }
        for (i, s) in seats.iter().enumerate() {
            if seats[..i].iter().any(|o| o.colour == s.colour) {
                return Err(SetupError::DuplicateColour(s.colour));
            }
        }
        let t = map.len();
        let neutral_count = if n == 2 {
            t / 3
        } else {
            options.neutral_territories as usize
        };
        if neutral_count + n > t {
            return Err(SetupError::TooManyNeutrals(neutral_count as u8));
        }
        let mut rng = SeededDice::new(seed);
        let start = initial_armies(n);
        let players: Vec<Player> = seats
            .into_iter()
            .map(|s| Player {
                name: s.name,
                colour: s.colour,
                kind: s.kind,
                defend: DefendPref::Max,
                one_die: vec![],
                alive: true,
                hand: vec![],
                mission: None,
                mission_since: None,
                setup_armies: start,
                stats: Stats::default(),
                sealed: vec![],
                sealed_mission: None,
            })
            .collect();
        let mut order: Vec<TerritoryId> = map.ids().collect();
        shuffle(&mut rng, &mut order);
        let mut owner = vec![Owner::Unclaimed; t];
        let mut armies = vec![0u32; t];
        for &id in &order[..neutral_count] {
            owner[id as usize] = Owner::Neutral;
            armies[id as usize] = if n == 2 {
                1
            } else {
                u32::from(options.neutral_armies.max(1))
            };
        }
        if n == 2 {
            // The 2-player neutral gets a player's share of armies, spread at random.
            let neutral: Vec<TerritoryId> = order[..neutral_count].to_vec();
            for _ in 0..start.saturating_sub(neutral_count as u32) {
                let pick = neutral[rng.below(neutral.len() as u32) as usize];
                armies[pick as usize] += 1;
            }
        }
        let first = rng.below(n as u32) as PlayerId;
        let mut state = ClassicState {
            map_id: map_id.to_string(),
            options,
            players,
            owner,
            armies,
            phase: Phase::Claim,
            current: first,
            first,
            turn: 0,
            step: 0,
            deck: (0..t as CardId + WILD_CARDS).collect(),
            discard: vec![],
            sets_traded: 0,
            turn_state: TurnState {
                arrived: vec![0; t],
                ..TurnState::default()
            },
            rng,
            sealed: None,
        };
        let mut deck = std::mem::take(&mut state.deck);
        shuffle(&mut state.rng, &mut deck);
        state.deck = deck;
        if state.options.missions {
            state.deal_missions(map);
        }
        if state.options.selection == Selection::Random {
            for (k, &id) in order[neutral_count..].iter().enumerate() {
                let p = ((first as usize + k) % n) as PlayerId;
                state.owner[id as usize] = Owner::Player(p);
                state.armies[id as usize] = 1;
                state.players[p as usize].setup_armies -= 1;
            }
            state.phase = Phase::SetupPlace;
            // Nobody can have zero armies left here (42 territories, at most 40 dealt to one).
        }
        Ok(state)
    }

    pub(super) fn deal_missions(&mut self, map: &Map) {
        let colours: Vec<Colour> = self.players.iter().map(|p| p.colour).collect();
        let mut deck = mission_cards(map, self.options.mission_deck, &colours);
        shuffle(&mut self.rng, &mut deck);
        for (i, &dealt) in deck.iter().enumerate().take(self.players.len()) {
            self.players[i].mission = Some(self.as_dealt_to(i as PlayerId, dealt));
        }
    }
}
