//! How to play, as data: each ruleset's rules in sections with stable ids, written for a player
//! who has never read them. The screen (`help`) renders and searches these; other screens may link
//! a term to its section by the element id `rules-{book}-{section}` (`Book::anchor`), e.g.
//! `rules-economy-upkeep`, `rules-orders-support`.
//!
//! Sources: the engine's rules (`crates/engine/src/rules/*`, and for the economy its reading of the
//! source in `RULES.md`); where an original rule text differs from the engine, this says what the
//! engine does. The map keys name what the boards draw (`classic::board`, `orders::view`,
//! `economy::board::legend`).

/// One ruleset's rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Book {
    Classic,
    Orders,
    Economy,
}

impl Book {
    pub const ALL: [Book; 3] = [Book::Classic, Book::Orders, Book::Economy];

    /// The id's middle word: `rules-{key}-…`.
    pub fn key(self) -> &'static str {
        match self {
            Book::Classic => "classic",
            Book::Orders => "orders",
            Book::Economy => "economy",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Book::Classic => "Classic (dice)",
            Book::Orders => "Orders (simultaneous)",
            Book::Economy => "Economy (money and plans)",
        }
    }

    pub fn sections(self) -> &'static [Section] {
        match self {
            Book::Classic => CLASSIC,
            Book::Orders => ORDERS,
            Book::Economy => ECONOMY,
        }
    }

    /// The element id of one of this book's sections: `rules-economy-upkeep`.
    pub fn anchor(self, section: &str) -> String {
        format!("rules-{}-{section}", self.key())
    }
}

/// A part of a section.
pub enum Block {
    /// A paragraph.
    P(&'static str),
    /// A list of points.
    List(&'static [&'static str]),
    /// A worked example: its title and its steps.
    Example(&'static str, &'static [&'static str]),
    /// A map key: what is drawn, and what it means.
    Key(&'static [(&'static str, &'static str)]),
}

impl Block {
    /// Every text of the block, for the search.
    pub fn texts(&self) -> Vec<&'static str> {
        match self {
            Block::P(t) => vec![*t],
            Block::List(l) => l.to_vec(),
            Block::Example(t, l) => std::iter::once(*t).chain(l.iter().copied()).collect(),
            Block::Key(k) => k.iter().flat_map(|(a, b)| [*a, *b]).collect(),
        }
    }
}

pub struct Section {
    /// Stable: the anchor `rules-{book}-{id}` other screens link to.
    pub id: &'static str,
    pub title: &'static str,
    /// Other words a player may search for (not shown).
    pub also: &'static str,
    pub blocks: &'static [Block],
}

use Block::{Example, Key, List, P};

const CLASSIC: &[Section] = &[
    Section {
        id: "goal",
        title: "The goal",
        also: "win victory world domination overview",
        blocks: &[
            P("The world map has 42 territories in 6 continents. Two to six players, each a human on this device or a computer player, take turns. You win by holding every territory or by being the last player left (neutral territories need not be taken), or, when the game is played with secret missions, by completing your mission first."),
            P("A turn has three steps, always in this order: place your reinforcements, attack (as often as you like, or not at all), then fortify once. The panel beside the map always says what the player to move should do now."),
        ],
    },
    Section {
        id: "map",
        title: "Map key",
        also: "legend colours patterns badge shape symbols highlight",
        blocks: &[
            P("Every territory is filled with its owner's colour and pattern, so players can be told apart without colour: plain, diagonal stripes, dots, horizontal stripes, crosses or vertical stripes. The number on it is its armies, on a badge whose shape is also the owner's."),
            Key(&[
                ("● ■ ◆ ⬢ ⬟", "the players' badges: circle, square, diamond, hexagon, shield, then an octagon, in seat order"),
                ("pill", "a wide grey-brown badge: neutral armies (they only defend)"),
                ("- - -", "blue dashed line: a sea lane; the territories at its ends are neighbours"),
                ("coloured rim", "the continent the territory belongs to"),
                ("black outline", "the territory you selected (attack or move from here)"),
                ("pink moving dashes", "where the selected territory can attack or move to"),
                ("yellow outline", "the neighbours of the territory under the pointer"),
            ]),
            P("Drag to pan, use the wheel or +/− to zoom; on a keyboard, Tab reaches the territories and Enter selects one."),
        ],
    },
    Section {
        id: "setup",
        title: "Setting up",
        also: "start initial armies claim deal neutral place",
        blocks: &[
            P("The territories are dealt at random (or, with the option, picked one at a time in turn) and each holds one army. Each player has 40 starting armies with 2 players, 35 with 3, 30 with 4, 25 with 5, 20 with 6 (the armies on their territories count among them), and places the rest one at a time, in turn, on their own territories. \"Place my remaining armies for me\" spreads them for you."),
            P("A two-player game always has a neutral player, which holds some territories with a player's share of armies; with three or more, neutral territories are an option. Neutral armies never attack: they only defend."),
        ],
    },
    Section {
        id: "reinforce",
        title: "1. Reinforce",
        also: "reinforcements place armies continent bonus income",
        blocks: &[
            P("At the start of your turn you receive armies: your territories divided by 3, rounded down, but at least 3; plus a bonus for each whole continent you hold; plus any card sets you trade. Click your territories to place them (the panel lets you place several at once)."),
            Key(&[
                ("North America", "+5"),
                ("South America", "+2"),
                ("Europe", "+5"),
                ("Africa", "+3"),
                ("Asia", "+7"),
                ("Australia", "+2"),
            ]),
            Example("Worked example", &[
                "You hold 14 territories, all four of South America among them.",
                "14 ÷ 3 = 4 (rounded down), and South America adds 2: you place 6 armies.",
                "With only 7 territories and no continent, 7 ÷ 3 = 2, raised to the minimum: 3.",
            ]),
        ],
    },
    Section {
        id: "cards",
        title: "Cards",
        also: "trade set wild infantry cavalry artillery sets value",
        blocks: &[
            P("End a turn in which you conquered at least one territory and you draw one card (only one, however many you took). There are 44: one per territory, each showing infantry, cavalry or artillery, and 2 wild cards."),
            P("A set is three cards of one design, one of each design, or any two with a wild card. Trade sets in the reinforce step (\"Trade cards\"). With 5 or more cards you must trade before placing. If a traded card shows a territory you hold, 2 extra armies go there (once per turn; an option gives them for each such card)."),
            P("Sets are worth more as the game goes on: 4, 6, 8, 10, 12, 15, then 5 more for each later set, counted over all players. The new-game screen offers other values (+1 a set, 4 then 5, or always the same)."),
            P("When you eliminate a player, you take their cards; with 6 or more you must trade at once, until you hold 4 or fewer."),
        ],
    },
    Section {
        id: "attack",
        title: "2. Attack",
        also: "dice roll battle odds blitz defend defence conquer",
        blocks: &[
            P("Attack from one of your territories with at least 2 armies into a neighbouring enemy territory (a sea lane makes neighbours too). Click your territory, then the enemy one. The panel shows your chance to conquer it if you fight to the end, from the exact odds."),
            P("The attacker rolls 1 to 3 dice, at most one fewer than the armies in the territory. The defender rolls 2 dice with 2 or more armies, 1 with one army. The highest dice are compared pair by pair; each pair's loser loses one army; a tie goes to the defender."),
            Example("Worked example: one roll", &[
                "You attack with 3 dice and roll 6, 3, 2; the defender rolls 6, 2.",
                "Highest pair: 6 against 6, a tie: you lose one army.",
                "Next pair: 3 against 2: the defender loses one army.",
                "Your third die has no partner and counts for nothing.",
            ]),
            P("\"Roll\" rolls once; \"Blitz\" rolls again and again until the territory falls or your attacking territory is down to the number of armies you chose to stop at. Attack as often as you like, from any of your territories, then \"End attack → fortify\"."),
            P("Defending: each player chooses under \"When attacked, roll\" whether to roll as many dice as they may or always one die, and can name territories where they roll one die all the same. (An option lets defenders roll 2 dice even with one army.)"),
        ],
    },
    Section {
        id: "conquer",
        title: "Conquering a territory",
        also: "occupy move in eliminate elimination",
        blocks: &[
            P("When the last defending army falls, the territory is yours: the attacking dice that survived the roll move in at once. Choose how many more armies follow (at least one always stays behind)."),
            P("A player with no territory left is out of the game, and the conqueror takes their cards."),
        ],
    },
    Section {
        id: "fortify",
        title: "3. Fortify",
        also: "move armies end turn free move",
        blocks: &[
            P("To end your turn you may move armies once: from one of your territories to one neighbouring territory of yours, leaving at least one behind. Click the two territories, choose how many and press \"Move\": under this standard rule the move ends your turn (\"End turn\" ends it without moving). Other rules can be chosen on the new-game screen: from one territory into several neighbours, any number of moves between neighbours, or along any path of your own territories."),
            Example("Worked example", &[
                "Ukraine has 9 armies and no enemy neighbour left; Ural, next to it, has 2 and borders enemies in Asia.",
                "Move 8 from Ukraine to Ural: Ukraine keeps 1, Ural now has 10. Your turn ends.",
            ]),
        ],
    },
    Section {
        id: "missions",
        title: "Secret missions",
        also: "mission objective destroy colour 24 territories",
        blocks: &[
            P("With the missions option each player is dealt a secret mission instead of conquering the world: destroy the armies of a colour, conquer two named continents, or hold 24 territories. When fewer than six colours play, the missions to destroy an absent colour are removed before dealing (or, with an option, become \"24 territories\"). If your mission names your own colour, it becomes \"24 territories\". A mission to destroy a colour is complete when that colour is gone, whoever took its last territory."),
        ],
    },
    Section {
        id: "computer",
        title: "Computer players",
        also: "bot ai easy normal hard level difficulty",
        blocks: &[
            List(&[
                "Easy: attacks only when the odds are on its side, otherwise plays at random.",
                "Normal: plans chains of conquests at the exact odds, aiming at continents, knock-outs and the turn's card. It wins 93 % of 4-player games against three easy players.",
                "Hard: the same chains, then plays the round out from its best launches before placing its armies. It wins 53 % against three normal players.",
            ]),
            P("Computer players move one action at a time at the pace chosen under \"Bot speed\"; \"Skip to my turn\" hurries them."),
        ],
    },
];

const ORDERS: &[Section] = &[
    Section {
        id: "goal",
        title: "The goal",
        also: "win victory supply centres solo draw overview",
        blocks: &[
            P("Seven powers (Europe 1901) or two to six (the world map), each played by a human, a computer or nobody, move armies and fleets. Everyone writes orders in secret and they are carried out at the same moment: there are no dice, only numbers. Supply centres are the provinces marked with a dot; each one a power owns lets it keep one unit. Whoever holds a majority of them after a Fall turn wins (18 of 34 on Europe, 16 of 30 on the world map). The surviving powers may also agree a draw: \"Accept a draw\" next to the orders; it takes effect when every surviving power accepts."),
            P("A year has a Spring and a Fall movement phase, each followed by retreats when a unit was dislodged (beaten out of its province by a stronger attack); after Fall come the adjustments (builds and disbands)."),
        ],
    },
    Section {
        id: "map",
        title: "Map key",
        also: "legend supply centre coast schematic arrows",
        blocks: &[
            Key(&[
                ("region in colour", "a supply centre's region, in its owner's colour and pattern"),
                ("small dot", "a supply centre (in its owner's colour)"),
                ("grey land", "not played on this map"),
                ("small circle on a coast", "click the coast meant (nc, sc, ec) for a fleet there: St Petersburg, Spain, Bulgaria"),
                ("A / F", "an army / a fleet, in its power's colour"),
                ("dashed box with +", "a unit ordered built (adjustments)"),
                ("ring round a unit", "a hold; with ✗ beside it, a disband"),
                ("red dashed border", "a dislodged unit, set aside until it retreats"),
                ("arrow", "a move"),
                ("dashed line", "a support or a convoy"),
                ("red ✗", "the order failed (the results list says why)"),
            ]),
            P("\"Schematic\" beside the zoom buttons shows the map as nodes and links: ○ land, ▭ sea, a blue ring for a coast; grey lines are land borders, dashed blue lines links for fleets only."),
        ],
    },
    Section {
        id: "units",
        title: "Armies and fleets",
        also: "army fleet coast sea land unit",
        blocks: &[
            P("An army moves on land, one province at a time. A fleet moves on seas and along coasts, one space at a time; a fleet in a coastal province can move only to spaces along that coast. A province holds at most one unit."),
        ],
    },
    Section {
        id: "orders",
        title: "Giving orders",
        also: "hold move click type notation submit curtain pass the device",
        blocks: &[
            P("Click a unit, then where it moves; click it again to hold. For a support or a convoy choose \"Support…\" or \"Convoy…\" and click the unit and its destination. Or type orders in standard notation, several separated by ;"),
            Key(&[
                ("A PAR - BUR", "army Paris moves to Burgundy"),
                ("F MAO - SPA/NC", "fleet Mid-Atlantic to Spain's north coast"),
                ("A MAR S A PAR - BUR", "Marseilles supports Paris into Burgundy"),
                ("F NTH C A LON - NWY", "North Sea convoys London to Norway"),
                ("A PAR R BUR", "retreat to Burgundy"),
                ("A PAR D", "disband"),
                ("F STP/SC B", "build a fleet on St Petersburg's south coast"),
            ]),
            P("A unit without an order holds. In a hot-seat game each human enters their orders behind a pass-the-device screen; \"Submit orders\" when done. Computer powers order after the humans."),
        ],
    },
    Section {
        id: "move",
        title: "Moves and bounces",
        also: "standoff bounce strength attack hold void",
        blocks: &[
            P("Every unit has strength 1, plus 1 for each valid support. A move succeeds when it is stronger than the unit holding the province and than every other unit trying to enter it. Equal strengths stand off (\"bounce\"): nobody moves in, and units that bounced stay where they were. A unit never dislodges another of its own power."),
            P("An order the rules do not allow is void: it does nothing, and the unit holds. Examples: an army ordered into a sea, a move to a province that is not next to the unit (and that no fleets could convoy it to), a fleet ordered into Spain, St Petersburg or Bulgaria without naming the coast it sails to. The map refuses such a click and says why; a typed order is taken as written."),
            Example("Worked example: Spring 1901", &[
                "France orders A PAR - BUR; Germany orders A MUN - BUR.",
                "Both have strength 1: they bounce, Burgundy stays empty, both armies stay home.",
                "Had Germany held, France's army would have walked into empty Burgundy.",
            ]),
        ],
    },
    Section {
        id: "support",
        title: "Support",
        also: "supports cut cutting strength help",
        blocks: &[
            P("A unit may, instead of moving, support another unit's move or its hold, adding 1 to its strength. The supporting unit must be able to move to the province where the support is given (not where the supported unit stands)."),
            P("A cut support is cancelled and adds nothing. A support is cut when another power's unit attacks the supporting unit from any province except the one the supported move goes into. A unit that is dislodged also gives no support."),
            Example("Worked example: support and cutting", &[
                "Germany: A PRU - WAR, A SIL S A PRU - WAR. Russia: A WAR holds.",
                "Prussia has strength 2 against Warsaw's 1: Warsaw is dislodged and must retreat.",
                "Now Russia also orders A BOH - SIL: Silesia is attacked, its support is cut, Prussia has strength 1 and bounces off Warsaw.",
                "If instead Russia orders A WAR - SIL, the support is not cut (the attack comes from Warsaw, where the support goes): Prussia takes Warsaw.",
            ]),
        ],
    },
    Section {
        id: "convoy",
        title: "Convoys",
        also: "convoy fleet sea army across",
        blocks: &[
            P("Fleets at sea may carry an army across water: the army orders the move to the far coast, and each fleet on the way orders the convoy. If a convoying fleet is dislodged, the convoy fails and the army stays."),
            Example("Worked example", &[
                "England: A LON - NWY, F NTH C A LON - NWY.",
                "The army lands in Norway if nothing stronger is there and the fleet in the North Sea is not dislodged.",
            ]),
        ],
    },
    Section {
        id: "retreat",
        title: "Retreats",
        also: "dislodged retreat disband",
        blocks: &[
            P("A unit beaten out of its province is dislodged. In the retreat phase it moves to a neighbouring province it could reach, or is disbanded. It may not retreat into an occupied province, into the province the attacker came from (unless it came by convoy), or into a province left empty by a bounce. Two units retreating to the same place are both disbanded; a unit with nowhere to go is disbanded."),
            Example("Worked example", &[
                "Germany's supported A PRU - WAR dislodges Russia's army in Warsaw.",
                "Russia orders A WAR R LVN (Livonia), or A WAR D to disband. It may not go to Prussia, where the attack came from.",
            ]),
        ],
    },
    Section {
        id: "adjust",
        title: "Supply centres, builds and disbands",
        also: "build builds disband adjustment winter centres home",
        blocks: &[
            P("A supply centre changes owner when a unit of another power stands on it at the end of a Fall turn (retreats included). After Fall, each power counts: one unit per supply centre. With more centres than units, build new units in its own unoccupied home supply centres that it still owns; with more units than centres, disband units of its choice."),
            Example("Worked example", &[
                "After Fall 1901 Russia owns 5 centres and has 4 units.",
                "It builds one in a home centre it owns and has left empty: A MOS B (once Moscow's army has moved away), or a fleet on St Petersburg's north coast: F STP/NC B.",
            ]),
            P("A power played by nobody is in civil disorder: its units hold, its dislodged units are disbanded, it builds nothing, it disbands the units farthest from its home centres when it must, and it never accepts a draw. A power that leaves a unit without an order gets the same for it."),
        ],
    },
    Section {
        id: "options",
        title: "House options",
        also: "combine retreat facing convoy options",
        blocks: &[
            P("All off by default, on the new-game screen: units may combine in Fall; no retreat into another power's territory; fleets face a sea (a coastal fleet moves, supports and retreats only along the sea it faces); convoys as the source has them (a convoying fleet attacked by another power holds and its convoy fails; a convoyed army attacks with strength 2)."),
        ],
    },
    Section {
        id: "computer",
        title: "Computer powers",
        also: "bot ai easy normal level difficulty",
        blocks: &[
            List(&[
                "Easy: gives random legal orders, and moves into foreign supply centres when it can.",
                "Normal: plays like DAIDE's DumbBot: supply centres valued by their owner's size, that value spread over the map, supports where an enemy competes, convoys by its fleets at sea. It wins 94 % of games against six easy powers on Europe 1901.",
            ]),
            P("A computer power accepts a draw when its position is hopeless (the leader has three times its centres, and at least six) and any draw from 1931 on, so games of computer powers always end."),
        ],
    },
];

const ECONOMY: &[Section] = &[
    Section {
        id: "goal",
        title: "The goal",
        also: "win victory last player overview round",
        blocks: &[
            P("Money (MU, monetary units) pays for armies, navies and buildings; countries bring money in; big armies cost money to keep. Two to six players play on the classic world, with coastal seas as water territories. Everyone plans attacks in secret and at the same time; then battles are fought roll by roll."),
            P("A player is out when a round begins and they have neither a unit nor a country. The last player still in wins. With a round limit (an option) the best score wins when it is reached: income, then money, then units."),
            P("Each round has phases: Get (money, upkeep, buying), Planning (secret moves to or from regions that are not yours or an ally's), Moving (friendly moves) and Combat (battles)."),
        ],
    },
    Section {
        id: "map",
        title: "Map key",
        also: "legend symbols icons capital base roads fortifications canal siege blockade",
        blocks: &[
            Key(&[
                ("3", "armies (a box in the owner's colour; brown: neutral units)"),
                ("2N", "navies; 3+2N: 3 armies and 2 navies"),
                ("★", "capital"),
                ("▲", "army base (one per base)"),
                ("⚓", "navy base"),
                ("═", "roads"),
                ("▣", "fortifications"),
                ("≈", "canal"),
                ("⚔", "battle token: a battle to fight here (on a border: a border battle)"),
                ("◎", "siege: hostile armies besiege (hem in) defenders in their fortifications"),
                ("⊗", "blockade"),
                ("- -", "red dashed outline: contested (hostile units inside)"),
                ("→", "a planned move with its units; gold outline: where the selected units can go"),
                ("⚑", "in the standings: who holds the initiative (picks which battle is fought next)"),
            ]),
            P("Click a region to select it; +/− zoom on it. The same key is under \"Map key\" in the side panel."),
        ],
    },
    Section {
        id: "setup",
        title: "Setting up",
        also: "start capital european continents draft cards standard start neutral",
        blocks: &[
            P("By default each player picks a country in Europe (Iceland excluded) and starts there with a capital, 2 army bases, fortifications, roads, 5 armies and 50 MU. Every other country holds one neutral army (an option leaves them empty)."),
            P("Other setups: each player gets a continent, or a fair share of dealt country cards, or drafts countries in turn; then each chooses a capital, two army bases and places 20 armies in their own countries, and starts with 50 MU."),
        ],
    },
    Section {
        id: "get",
        title: "The Get phase: income",
        also: "income money mu countries roads continent bonus ownership",
        blocks: &[
            P("Every player does this phase at their own pace. First, any region where only your units stand becomes yours. Then you gain 1 MU for each country you own, 1 MU for each of your roads, and a bonus for each whole continent: Australia 10, South America 10, Africa 15, North America 15, Asia 20, Europe 20 (an option makes the Middle East a continent worth 5)."),
            Example("Worked example: round 1", &[
                "You start in Ukraine: 50 MU, one country with roads.",
                "Income: 1 (Ukraine) + 1 (its roads) = 2 MU. You have 52 MU.",
            ]),
        ],
    },
    Section {
        id: "upkeep",
        title: "Upkeep",
        also: "upkeep pay units lost link capital supply maintenance",
        blocks: &[
            P("In each country where you have units, the first 5 are free (10 in the country of your capital); every unit beyond that costs 1 MU each Get phase. For each MU you do not pay, you lose one unit there; you choose which. Units in a country that became yours at the start of this round, taken from another player (not from neutrals), pay nothing that round; units in an ally's country owe nothing; navies at sea pay no upkeep."),
            P("Units standing in a contested country (one they share with enemy or neutral units) or under siege (hemmed in their fortifications by hostile armies: see Sieges) owe upkeep too, even in a country you no longer own: parking armies beside an enemy army does not make them free."),
            P("You can pay only for units linked to your capital through your own (or an ally's) territory that is neither contested nor besieged; units in a contested country are linked when it borders such territory. Besieged units, cut-off units, and every unit of a player with no capital (or a besieged one) cannot be paid for, so they lose one unit per MU owed. If your capital is destroyed before you settle, what you owe is worked out again. Upkeep is settled (\"Settle upkeep\") before recruiting or building."),
            Example("Worked example", &[
                "Your capital holds 13 armies and Northern Europe 8.",
                "Capital: 13 − 10 = 3 MU. Northern Europe: 8 − 5 = 3 MU. You owe 6 MU.",
                "With only 4 MU you pay 4 and lose 2 units, in the countries you choose.",
            ]),
        ],
    },
    Section {
        id: "buy",
        title: "Recruiting and building",
        also: "recruit buy price cost base price army navy build sell infrastructure capital fortifications roads canal",
        blocks: &[
            P("After upkeep, click one of your countries to recruit or build there. Each base recruits one unit a round for 5 MU (an army base armies, a navy base navies into its coast); every other unit costs 10 MU, in any country you own (a navy goes onto one of its coasts, and beyond a navy base's one it needs water that is yours, an ally's or contested). A base cannot recruit in the round it is built."),
            Key(&[
                ("unit at a base", "5 MU (one per base each round)"),
                ("other unit", "10 MU"),
                ("▲ army base / ⚓ navy base", "20 MU"),
                ("═ roads", "5 MU, and +1 MU of income every round"),
                ("▣ fortifications", "10 MU"),
                ("≈ canal", "10 MU, Egypt or Central America, needs roads"),
                ("★ capital", "30 MU to build elsewhere (it moves)"),
            ]),
            P("You may sell your own buildings for half their price, rounded down (the capital too, for 15 MU, which leaves you without one), and trade any three influence cards for 50 MU. \"Done with the Get phase\" when finished."),
        ],
    },
    Section {
        id: "plan",
        title: "Planning",
        also: "plan plans secret hostile move minute submit",
        blocks: &[
            P("Friendly regions are yours or an ally's and not contested. Plan every move that starts or ends in a region that is not friendly (an enemy's, nobody's or contested): click where from, then where to: the move is planned with every unit that can go, and its row in your list of planned moves changes the count or removes it (✕). A plan names only the first non-friendly region reached; the way there must be friendly. Units in a contested region cannot be given plans: they stay and fight. Plans are secret until all are in (pass the device between players; a lone human among computer players needs no passing). Once more than half of the players have submitted, the rest have one minute. Computer players submit at once and never wait, so at one device the minute runs only while a human who has submitted waits for another: alone against computers, you plan without a clock."),
            P("Movement: an army crosses one border a round, and with roads at both ends one more (a road step). At sea moves count in thirds: a water-to-water step costs a third, going ashore or onto a coast a whole move. So a navy sails up to three water steps; an army steps onto its coast, or takes up to three water steps, but never water then land."),
            Example("Worked example", &[
                "Your capital Ukraine holds 9 armies (the 5 you started with and 4 recruited); Southern Europe next door holds one neutral army.",
                "Plan Ukraine → Southern Europe, 7 armies, and submit.",
            ]),
        ],
    },
    Section {
        id: "moving",
        title: "Friendly moves",
        also: "friendly movement moving done",
        blocks: &[
            P("After the plans, units not in any plan may move through friendly territory, each group once (it then stays for the round). Press \"No moves: on to combat\" to move nothing, \"Done moving: on to combat\" when finished. Units moved now still fight if attacked where they stand, but do not count as defenders there (no +1), and cannot withdraw or move on in combat."),
        ],
    },
    Section {
        id: "initiative",
        title: "Initiative",
        also: "initiative order battle choose roll",
        blocks: &[
            P("Combat begins with everyone rolling a die; the highest (ties roll again) holds the initiative: they pick which battle is fought next, and which action goes first when several players declare one at once. The winner of a battle takes the initiative. A player without a capital cannot hold it (if one rolls highest, the last holder keeps it)."),
        ],
    },
    Section {
        id: "combat",
        title: "Combat: battles roll by roll",
        also: "battle roll attack dice modifiers bonus defender six flank amphibious interrupt",
        blocks: &[
            P("Planned units move to their destinations together, and a battle token ⚔ marks each place where hostile units meet (and each border that hostile plans cross in opposite directions: a border battle). In a battle players declare actions: attack, withdraw, siege, landing, an attack on a building. Armies fight armies and navies fight navies."),
            P("An attack is fought one roll at a time. Each side rolls a die and adds its modifiers; the lower total loses one unit, and on equal totals both lose one. After each roll a player with defenders there may interrupt it by declaring an attack of their own, and anyone may withdraw; otherwise the attack rolls on until one side has no unit of that kind left."),
            Key(&[
                ("+1", "more units in the battle than the other side"),
                ("+2", "more than twice as many (instead of +1)"),
                ("+1 a flank", "the attacker, for each country beyond the first it attacks from (friendly units holding the place since the planning phase count as one more)"),
                ("+1", "defenders: units there since the planning phase, not attacking"),
                ("+1 more", "defenders in a country with fortifications ▣"),
                ("6", "a defender's 6 always wins"),
                ("−1", "amphibious armies: ones that came ashore from water"),
            ]),
            Example("Worked example: one roll", &[
                "You attack 7 armies against 1 neutral defender in Southern Europe.",
                "You: a 3, +2 for more than twice as many = 5. The neutral: a 4, +1 defending = 5.",
                "Equal totals: both lose a unit. The neutral army is gone; Southern Europe will be yours at the next Get phase.",
                "Had the neutral rolled a 6, it would have won whatever your total.",
            ]),
            P("A battle is a victory for a player when every foe they fought there has no unit left, and a loss when they have none left or withdrew after fighting. At the end of combat, a player with more victories than losses draws an influence card."),
        ],
    },
    Section {
        id: "withdraw",
        title: "Withdrawing and interception",
        also: "withdraw intercept interception retreat stay burn the roads",
        blocks: &[
            P("Units may withdraw from a battle, except those moved in during friendly movement. Each hostile player with units of that kind there may intercept them, that is attack them as they leave: each withdrawing unit rolls against each interceptor in turn; it dies if it loses, the interceptor loses a unit if it loses, and a tie kills both. Survivors that came this round go back where they came from; units there since the planning phase go to any neighbour they can enter (only a friendly one when the enemy defends fortifications there). Or they may \"Stay after the interception\". Armies withdrawing from a country with roads into another with roads may try to burn the roads behind them: each rolls a die, and any 6 destroys the roads of the country they left."),
        ],
    },
    Section {
        id: "siege",
        title: "Sieges, landings, blockades, attacks on buildings",
        also: "siege besiege landing amphibious blockade sabotage infrastructure",
        blocks: &[
            List(&[
                "Siege ◎: armies may besiege (hem in, without attacking) hostile units that have held a fortified country since the planning phase. The siege lasts, round after round, until the besiegers declare another action there or either side is gone. Besieged units cannot withdraw without attacking first, are linked to nothing (they owe upkeep that cannot be paid, so they shrink each Get phase, and a besieged capital links nothing), and the besiegers get no fortification bonus there.",
                "Landing: armies that have held contested water since the planning phase go ashore on a country it is the coast of; only hostile navies may intercept, and your navies may join in (each roll they lose then costs a navy too, and each roll the interceptor loses sinks one of its navies). Armies ashore roll at −1 there.",
                "Blockade ⊗: one navy on the water a navy base recruits into stops that base recruiting for anyone who is not the blockader or an ally of theirs; the blockading navy cannot attack or intercept.",
                "Attack on a building: an army tries to destroy one (not a capital; only the fortifications when hostile units defend them). Hostile armies there may intercept it: it rolls at −1 against each and dies if it loses or ties. If it survives, a 6 destroys the building.",
            ]),
        ],
    },
    Section {
        id: "capital",
        title: "Capitals",
        also: "capital lost taken revolution step initiative",
        blocks: &[
            P("Take a player's capital and, at the next Get phase, you take all their money and influence cards. Without a capital a player cannot hold the initiative, cannot pay upkeep, and faces the revolution step: at the start of each combat phase each of their countries rolls a die, and on a 6 two revolutionary units rise there and attack the armies in it; if any survive, they become neutral armies and the country is lost. Rebuild a capital for 30 MU."),
        ],
    },
    Section {
        id: "cards",
        title: "Influence cards and revolutions",
        also: "influence card revolution trade 50",
        blocks: &[
            P("One card per country. Trade any three in the Get phase for 50 MU, or play one at any moment of the combat phase to start a revolution in its country: two armies of yours appear there, and each first makes one roll against a foe you name there that cannot cost it anything (the foe loses an army if it loses or ties)."),
        ],
    },
    Section {
        id: "diplomacy",
        title: "Alliances and surrender",
        also: "alliance ally forfeit surrender diplomacy",
        blocks: &[
            P("Under \"Diplomacy\" in the Get phase: offer an alliance (both must agree), accept or break one, or give a country to an ally whose units are in it. You may also surrender there in any phase but combat: your armies and navies become neutral, your territories nobody's, and your money and cards are lost. Allies' territory counts as friendly for moves and for the link to the capital."),
        ],
    },
    Section {
        id: "computer",
        title: "Computer players",
        also: "bot ai easy normal hard level difficulty",
        blocks: &[
            List(&[
                "Easy: takes random legal actions.",
                "Normal: weighs income, upkeep and weak neighbours within reach (attacking from several countries at once), guards its capital against the largest army next to it and rebuilds it when lost; it sails, besieges, blockades and makes alliances. It wins 97 % of 4-player games against three easy players.",
                "Hard: normal's play with three choices made better: a capital with room to grow, taking the neutral countries around it early, and a navy at once when boxed in. It wins about four games in five against three normal players.",
            ]),
        ],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_the_linked_ones_exist() {
        for b in Book::ALL {
            let s = b.sections();
            for (i, a) in s.iter().enumerate() {
                assert!(s[i + 1..].iter().all(|x| x.id != a.id), "{}", a.id);
                assert!(a.id.bytes().all(|c| c.is_ascii_lowercase()), "{}", a.id);
            }
        }
        let has = |b: Book, id: &str| b.sections().iter().any(|s| s.id == id);
        assert!(has(Book::Orders, "support") && has(Book::Economy, "upkeep"));
        for b in Book::ALL {
            assert!(has(b, "map") && has(b, "computer"), "{b:?}");
        }
        assert_eq!(Book::Economy.anchor("upkeep"), "rules-economy-upkeep");
    }
}
