//! Infrastructure as data: what stands in a country (roads, fortifications, a canal, bases) and
//! the pieces that can be built, with their prices. Building and selling are in [`super::get`];
//! attacks on infrastructure in [`super::battle`].

use super::map::RegionId;
use serde::{Deserialize, Serialize};

/// Infrastructure in a country.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Infrastructure {
    pub roads: bool,
    pub fortifications: bool,
    pub canal: bool,
    pub army_bases: u8,
    /// Navy bases, each named by the water territory it recruits into.
    pub navy_bases: Vec<RegionId>,
}

impl Infrastructure {
    /// The kinds of piece standing here, each once (navy bases once per water they recruit
    /// into, as listed); the capital is the player's, not the country's, and is not among them.
    pub fn items(&self) -> Vec<Item> {
        let mut items = vec![];
        if self.roads {
            items.push(Item::Roads);
        }
        if self.fortifications {
            items.push(Item::Fortifications);
        }
        if self.canal {
            items.push(Item::Canal);
        }
        if self.army_bases > 0 {
            items.push(Item::ArmyBase);
        }
        let mut waters = self.navy_bases.clone();
        waters.dedup();
        items.extend(waters.into_iter().map(|water| Item::NavyBase { water }));
        items
    }
}

/// A piece of infrastructure, with its price in MU (source 004, "Advanced Rules").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Item {
    Roads,
    Fortifications,
    /// Needs roads, and a canal site on the map.
    Canal,
    ArmyBase,
    /// A navy base on the border between its country and `water`, one of that country's coasts.
    NavyBase {
        water: RegionId,
    },
    /// Builds the capital here; a capital standing elsewhere moves here.
    Capital,
}

impl Item {
    /// What it costs to build.
    pub fn price(self) -> u32 {
        match self {
            Item::Roads => 5,
            Item::Fortifications | Item::Canal => 10,
            Item::ArmyBase | Item::NavyBase { .. } => 20,
            Item::Capital => 30,
        }
    }

    /// What destroying it in the Get phase gives back: half the price, rounded down.
    pub fn refund(self) -> u32 {
        self.price() / 2
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Item::Roads => "roads",
            Item::Fortifications => "fortifications",
            Item::Canal => "a canal",
            Item::ArmyBase => "an army base",
            Item::NavyBase { .. } => "a navy base",
            Item::Capital => "a capital",
        }
    }
}
