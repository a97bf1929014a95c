//! The choices made when an economy game is created: which setup, which advanced rules, the
//! optional round limit.

use serde::{Deserialize, Serialize};

/// The four setups of the source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Setup {
    /// Each player picks a country in Europe for a fully built capital.
    #[default]
    EuropeanCapitals,
    /// Each player gets a continent, then the standard start.
    Continents,
    /// The country cards are dealt evenly, then the standard start.
    Cards,
    /// Countries are drafted in initiative order, then the standard start.
    Draft,
}

/// The advanced rules in play that this part of the engine reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EconomyOptions {
    pub continent_bonuses: bool,
    /// The Middle East counts as its own continent (only with continent bonuses).
    pub middle_east: bool,
    pub capitals: bool,
    pub roads: bool,
    /// Army and navy bases: cheap recruiting within their capacity. Without them no navy can ever
    /// be recruited (RULES.md, reading 18): a land game.
    pub bases: bool,
    pub fortifications: bool,
    /// Canals in the countries the map allows (they need roads).
    pub canals: bool,
    /// Influence cards: won by more victories than losses, traded three for 50 MU, or spent
    /// on revolutions.
    pub influence_cards: bool,
    pub setup: Setup,
    /// European capitals and continents are dealt at random instead of picked.
    pub random_picks: bool,
    /// Countries nobody gets at the start hold one neutral army each.
    pub neutrals: bool,
    /// Iceland may be picked as a European capital ("Iceland may be excluded").
    pub iceland_capital: bool,
    /// The game ends after this many rounds, on the best score.
    pub round_limit: Option<u32>,
}

impl Default for EconomyOptions {
    fn default() -> Self {
        EconomyOptions {
            continent_bonuses: true,
            middle_east: false,
            capitals: true,
            roads: true,
            bases: true,
            fortifications: true,
            canals: true,
            influence_cards: true,
            setup: Setup::EuropeanCapitals,
            random_picks: false,
            neutrals: true,
            iceland_capital: false,
            round_limit: None,
        }
    }
}
