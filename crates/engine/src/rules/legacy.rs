//! The shapes of older save formats, read and converted on load. Each module mirrors only the
//! types that changed after its format; everything else is the current type. A state converted
//! from an older save plays on as it would have (options new since then take the values that
//! reproduce the old behaviour).

use serde::Deserialize;

/// A save file of an older format: the header, then that format's `Game`.
#[derive(Deserialize)]
pub struct SaveFile<G> {
    _magic: [u8; 5],
    _version: u16,
    pub game: G,
}

/// Format 4: before the economy ruleset's influence cards could be dealt face down. Its classic
/// and orders states are the current ones.
pub mod v4 {
    use crate::rules::classic::ClassicState;
    use crate::rules::orders::OrdersState;
    use serde::Deserialize;

    /// `Game` of format 4.
    #[derive(Deserialize)]
    #[allow(clippy::large_enum_variant)]
    pub enum Game {
        Classic(ClassicState),
        Orders(OrdersState),
        #[cfg(feature = "economy")]
        Economy(economy::EconomyState),
    }

    /// The economy state of formats 3 and 4 (the ruleset came with format 3 and added no version).
    #[cfg(feature = "economy")]
    pub mod economy {
        use crate::dice::SeededDice;
        use crate::rules::classic::PlayerId;
        use crate::rules::economy::battlefield::Combat;
        use crate::rules::economy::map::RegionId;
        use crate::rules::economy::options::EconomyOptions;
        use crate::rules::economy::phase::{GetTurn, Phase};
        use crate::rules::economy::state::{self, Blockade, RegionState, Standing};
        use crate::rules::economy::units::{Force, PlannedMove};
        use serde::Deserialize;
        use std::collections::{BTreeMap, BTreeSet};

        #[derive(Deserialize)]
        struct EconomyPlayer {
            name: String,
            mu: u32,
            capital: Option<RegionId>,
            cards: Vec<RegionId>,
            standing: Standing,
        }

        /// `EconomyState` of formats 3 and 4.
        #[derive(Deserialize)]
        pub struct EconomyState {
            options: EconomyOptions,
            players: Vec<EconomyPlayer>,
            regions: Vec<RegionState>,
            alliances: BTreeSet<(PlayerId, PlayerId)>,
            alliance_offers: BTreeSet<(PlayerId, PlayerId)>,
            round: u32,
            phase: Phase,
            get: Vec<GetTurn>,
            deck: Vec<RegionId>,
            discard: Vec<RegionId>,
            blockades: BTreeSet<Blockade>,
            initiative: Option<PlayerId>,
            pick_queue: Vec<PlayerId>,
            placed: Vec<PlayerId>,
            plans: BTreeMap<PlayerId, Vec<PlannedMove>>,
            moved: BTreeMap<(PlayerId, RegionId), Force>,
            moving_done: BTreeSet<PlayerId>,
            winner: Option<PlayerId>,
            combat: Option<Combat>,
            steps: u32,
            rng: SeededDice,
        }

        impl From<EconomyState> for state::EconomyState {
            fn from(s: EconomyState) -> Self {
                state::EconomyState {
                    options: s.options,
                    players: s
                        .players
                        .into_iter()
                        .map(|p| state::EconomyPlayer {
                            name: p.name,
                            mu: p.mu,
                            capital: p.capital,
                            cards: p.cards,
                            standing: p.standing,
                            sealed: vec![],
                        })
                        .collect(),
                    regions: s.regions,
                    alliances: s.alliances,
                    alliance_offers: s.alliance_offers,
                    round: s.round,
                    phase: s.phase,
                    get: s.get,
                    deck: s.deck,
                    discard: s.discard,
                    blockades: s.blockades,
                    initiative: s.initiative,
                    pick_queue: s.pick_queue,
                    placed: s.placed,
                    plans: s.plans,
                    moved: s.moved,
                    moving_done: s.moving_done,
                    winner: s.winner,
                    combat: s.combat,
                    steps: s.steps,
                    rng: s.rng,
                    // Face up: the only deal format 4 knew.
                    sealed: None,
                }
            }
        }
    }

    impl From<Game> for crate::rules::Game {
        fn from(g: Game) -> Self {
            match g {
                Game::Classic(s) => crate::rules::Game::Classic(s),
                Game::Orders(s) => crate::rules::Game::Orders(s),
                #[cfg(feature = "economy")]
                Game::Economy(s) => crate::rules::Game::Economy(s.into()),
            }
        }
    }
}

/// Format 3: before cards could be dealt face down (issue 12).
pub mod v3 {
    use crate::dice::SeededDice;
    use crate::rules::classic::{
        self, CardId, ClassicOptions, Colour, DefendPref, Mission, Owner, Phase, PlayerId,
        SeatKind, Stats, TurnState,
    };
    use crate::rules::orders::OrdersState;
    use serde::Deserialize;

    /// `Game` of format 3.
    #[derive(Deserialize)]
    #[allow(clippy::large_enum_variant)]
    pub enum Game {
        Classic(ClassicState),
        Orders(OrdersState),
        #[cfg(feature = "economy")]
        Economy(super::v4::economy::EconomyState),
    }

    #[derive(Deserialize)]
    struct Player {
        name: String,
        colour: Colour,
        kind: SeatKind,
        defend: DefendPref,
        one_die: Vec<crate::map::TerritoryId>,
        alive: bool,
        hand: Vec<CardId>,
        mission: Option<Mission>,
        mission_since: Option<u32>,
        setup_armies: u32,
        stats: Stats,
    }

    /// `ClassicState` of format 3.
    #[derive(Deserialize)]
    pub struct ClassicState {
        map_id: String,
        options: ClassicOptions,
        players: Vec<Player>,
        owner: Vec<Owner>,
        armies: Vec<u32>,
        phase: Phase,
        current: PlayerId,
        first: PlayerId,
        turn: u32,
        step: u32,
        deck: Vec<CardId>,
        discard: Vec<CardId>,
        sets_traded: u32,
        turn_state: TurnState,
        rng: SeededDice,
    }

    impl From<ClassicState> for classic::ClassicState {
        fn from(s: ClassicState) -> Self {
            classic::ClassicState {
                map_id: s.map_id,
                options: s.options,
                players: s
                    .players
                    .into_iter()
                    .map(|p| classic::Player {
                        name: p.name,
                        colour: p.colour,
                        kind: p.kind,
                        defend: p.defend,
                        one_die: p.one_die,
                        alive: p.alive,
                        hand: p.hand,
                        mission: p.mission,
                        mission_since: p.mission_since,
                        setup_armies: p.setup_armies,
                        stats: p.stats,
                        sealed: vec![],
                        sealed_mission: None,
                    })
                    .collect(),
                owner: s.owner,
                armies: s.armies,
                phase: s.phase,
                current: s.current,
                first: s.first,
                turn: s.turn,
                step: s.step,
                deck: s.deck,
                discard: s.discard,
                sets_traded: s.sets_traded,
                turn_state: s.turn_state,
                rng: s.rng,
                sealed: None,
            }
        }
    }

    impl From<Game> for crate::rules::Game {
        fn from(g: Game) -> Self {
            match g {
                Game::Classic(s) => crate::rules::Game::Classic(s.into()),
                Game::Orders(s) => crate::rules::Game::Orders(s),
                #[cfg(feature = "economy")]
                Game::Economy(s) => crate::rules::Game::Economy(s.into()),
            }
        }
    }
}

/// Format 2: before the rules review's classic options and the orders state's territory.
pub mod v2 {
    use crate::dice::SeededDice;
    use crate::rules::classic::{
        self, CardBonus, CardId, CardSchedule, Colour, DefendPref, FortifyRule, Mission,
        MissionDeck, Owner, Phase, PlayerId, SeatKind, Selection, Stats, TurnState,
    };
    use crate::rules::orders::{self, Centres};
    use crate::rules::orders::{adjudicator::Piece, notation::Written, Dislodged, OrdersOptions};
    use crate::rules::orders::{map::ProvinceId, Phase as OPhase, Season};
    use serde::Deserialize;
    use std::collections::BTreeMap;

    /// `Game` of format 2.
    #[derive(Deserialize)]
    #[allow(clippy::large_enum_variant)]
    pub enum Game {
        Classic(ClassicState),
        Orders(OrdersState),
    }

    #[derive(Deserialize)]
    struct ClassicOptions {
        cards: CardSchedule,
        fortify: FortifyRule,
        selection: Selection,
        missions: bool,
        hold_mission_full_round: bool,
        neutral_territories: u8,
        neutral_armies: u8,
    }

    #[derive(Deserialize)]
    struct Player {
        name: String,
        colour: Colour,
        kind: SeatKind,
        defend: DefendPref,
        alive: bool,
        hand: Vec<CardId>,
        mission: Option<Mission>,
        mission_since: Option<u32>,
        setup_armies: u32,
        stats: Stats,
    }

    /// `ClassicState` of formats 1 and 2.
    #[derive(Deserialize)]
    pub struct ClassicState {
        map_id: String,
        options: ClassicOptions,
        players: Vec<Player>,
        owner: Vec<Owner>,
        armies: Vec<u32>,
        phase: Phase,
        current: PlayerId,
        first: PlayerId,
        turn: u32,
        step: u32,
        deck: Vec<CardId>,
        discard: Vec<CardId>,
        sets_traded: u32,
        turn_state: TurnState,
        rng: SeededDice,
    }

    /// `OrdersState` of format 2.
    #[derive(Deserialize)]
    struct Options {
        no_retreat_into_foreign_territory: bool,
        combine: bool,
        fleet_facing: bool,
    }

    /// `OrdersState` of format 2.
    #[derive(Deserialize)]
    pub struct OrdersState {
        map_id: String,
        options: Options,
        year: u16,
        season: Season,
        phase: OPhase,
        units: Vec<Piece>,
        dislodged: Vec<Dislodged>,
        contested: Vec<ProvinceId>,
        centres: Centres,
        orders: Vec<Option<Vec<Written>>>,
        draw: Vec<bool>,
    }

    impl From<ClassicState> for classic::ClassicState {
        fn from(s: ClassicState) -> Self {
            let o = s.options;
            classic::ClassicState {
                map_id: s.map_id,
                options: classic::ClassicOptions {
                    cards: o.cards,
                    fortify: o.fortify,
                    selection: o.selection,
                    missions: o.missions,
                    hold_mission_full_round: o.hold_mission_full_round,
                    neutral_territories: o.neutral_territories,
                    neutral_armies: o.neutral_armies,
                    // What format 2 did (its missions are already dealt).
                    mission_deck: MissionDeck::AbsentAsTerritories,
                    defend_two_with_one: false,
                    card_bonus: CardBonus::OnePerTurn,
                },
                players: s
                    .players
                    .into_iter()
                    .map(|p| classic::Player {
                        name: p.name,
                        colour: p.colour,
                        kind: p.kind,
                        defend: p.defend,
                        one_die: vec![],
                        alive: p.alive,
                        hand: p.hand,
                        mission: p.mission,
                        mission_since: p.mission_since,
                        setup_armies: p.setup_armies,
                        stats: p.stats,
                        sealed: vec![],
                        sealed_mission: None,
                    })
                    .collect(),
                owner: s.owner,
                armies: s.armies,
                phase: s.phase,
                current: s.current,
                first: s.first,
                turn: s.turn,
                step: s.step,
                deck: s.deck,
                discard: s.discard,
                sets_traded: s.sets_traded,
                turn_state: s.turn_state,
                rng: s.rng,
                sealed: None,
            }
        }
    }

    impl From<OrdersState> for orders::OrdersState {
        fn from(s: OrdersState) -> Self {
            let mut out = orders::OrdersState {
                map_id: s.map_id,
                options: OrdersOptions {
                    no_retreat_into_foreign_territory: s.options.no_retreat_into_foreign_territory,
                    combine: s.options.combine,
                    fleet_facing: s.options.fleet_facing,
                    source_convoys: false,
                },
                year: s.year,
                season: s.season,
                phase: s.phase,
                units: s.units,
                dislodged: s.dislodged,
                contested: s.contested,
                centres: s.centres,
                orders: s.orders,
                draw: s.draw,
                territory: BTreeMap::new(),
            };
            out.territory = out.legacy_territory();
            out
        }
    }

    impl From<Game> for crate::rules::Game {
        fn from(g: Game) -> Self {
            match g {
                Game::Classic(s) => crate::rules::Game::Classic(s.into()),
                Game::Orders(s) => crate::rules::Game::Orders(s.into()),
            }
        }
    }
}

/// Format 1: before orders units faced a sea.
pub mod v1 {
    use super::v2;
    use crate::rules::orders::adjudicator::{Loc, UnitType};
    use crate::rules::orders::map::{PowerId, ProvinceId};
    use crate::rules::orders::notation::Written;
    use crate::rules::orders::{self, Centres, Phase, Season};
    use serde::Deserialize;
    use std::collections::BTreeMap;

    /// `Game` of format 1.
    #[derive(Deserialize)]
    #[allow(clippy::large_enum_variant)]
    pub enum Game {
        Classic(v2::ClassicState),
        Orders(OrdersState),
    }

    #[derive(Clone, Copy, Deserialize)]
    struct Piece {
        power: u8,
        kind: UnitType,
        loc: Loc,
        strength: u8,
    }

    #[derive(Deserialize)]
    struct Dislodged {
        piece: Piece,
        attacker_from: Option<ProvinceId>,
    }

    #[derive(Deserialize)]
    struct Options {
        no_retreat_into_foreign_territory: bool,
        combine: bool,
    }

    /// `OrdersState` of format 1.
    #[derive(Deserialize)]
    pub struct OrdersState {
        map_id: String,
        options: Options,
        year: u16,
        season: Season,
        phase: Phase,
        units: Vec<Piece>,
        dislodged: Vec<Dislodged>,
        contested: Vec<ProvinceId>,
        centres: Centres,
        orders: Vec<Option<Vec<Written>>>,
        draw: Vec<bool>,
    }

    impl From<Piece> for orders::adjudicator::Piece {
        fn from(p: Piece) -> Self {
            orders::adjudicator::Piece {
                strength: p.strength,
                ..orders::adjudicator::Piece::new(p.power as PowerId, p.kind, p.loc)
            }
        }
    }

    impl From<Game> for crate::rules::Game {
        fn from(g: Game) -> Self {
            match g {
                Game::Classic(s) => crate::rules::Game::Classic(s.into()),
                Game::Orders(s) => crate::rules::Game::Orders({
                    let mut out = orders::OrdersState {
                        map_id: s.map_id,
                        options: orders::OrdersOptions {
                            no_retreat_into_foreign_territory: s
                                .options
                                .no_retreat_into_foreign_territory,
                            combine: s.options.combine,
                            fleet_facing: false,
                            source_convoys: false,
                        },
                        year: s.year,
                        season: s.season,
                        phase: s.phase,
                        units: s.units.into_iter().map(Into::into).collect(),
                        dislodged: s
                            .dislodged
                            .into_iter()
                            .map(|d| orders::Dislodged {
                                piece: d.piece.into(),
                                attacker_from: d.attacker_from,
                            })
                            .collect(),
                        contested: s.contested,
                        centres: s.centres,
                        orders: s.orders,
                        draw: s.draw,
                        territory: BTreeMap::new(),
                    };
                    out.territory = out.legacy_territory();
                    out
                }),
            }
        }
    }
}
