//! The rules terms the prompts use, in one place (issue 60): each with a short explanation and
//! the How to play section that says more (`rules-{ruleset}-{section}`, the element ids of
//! `help::text`; a test there checks that every anchor named here exists). `Term` shows one;
//! `explain` finds them in a prompt's text.
//!
//! The classic entries are in every page; the orders and economy ones only where those rulesets
//! are (`full`), so the lite page carries none of their text.

/// The ruleset whose prompts a text comes from: only its terms are looked for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rules {
    Classic,
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    Orders,
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    Economy,
}

/// One term.
pub struct Entry {
    /// Stable name, for `Term { id }`.
    pub id: &'static str,
    /// The term as a heading reads it.
    pub term: &'static str,
    /// One or two sentences for a player who has never read the rules.
    pub text: &'static str,
    /// The element id of its How to play section.
    pub anchor: &'static str,
    /// The words that name it in a prompt, lower case (matched whole, ignoring case), longest
    /// first where one begins another; `MU` is matched in capitals only.
    pub words: &'static [&'static str],
}

const fn e(
    id: &'static str,
    term: &'static str,
    text: &'static str,
    anchor: &'static str,
    words: &'static [&'static str],
) -> Entry {
    Entry {
        id,
        term,
        text,
        anchor,
        words,
    }
}

const CLASSIC: &[Entry] = &[
    e("turn", "Turn",
        "Counts every player's turn, one after another: with three players, turns 1 to 3 are the first round.",
        "rules-classic-goal", &[]),
    e("reinforcements", "Reinforcements",
        "The armies you place at the start of your turn: your territories divided by 3 (at least 3), plus a bonus for each whole continent, plus any card sets you trade.",
        "rules-classic-reinforce", &["reinforcements", "reinforcement"]),
    e("initial-armies", "Initial armies",
        "Before the first turn each player places their starting armies, one at a time in turn, on their own territories.",
        "rules-classic-setup", &["initial army", "initial armies"]),
    e("claim", "Claim",
        "With the option to pick territories, players take one unclaimed territory at a time, in turn, until all are taken.",
        "rules-classic-setup", &["claim"]),
    e("attack", "Attack",
        "From one of your territories with at least 2 armies into a neighbouring enemy one: dice are compared pair by pair, and a tie goes to the defender.",
        "rules-classic-attack", &["attack"]),
    e("conquered", "Conquering",
        "When the last defender falls the territory is yours: the attacking dice that survived move in, and you choose how many more follow.",
        "rules-classic-conquer", &["conquered"]),
    e("fortify", "Fortify",
        "The last step of a turn: move armies once, from one of your territories to a neighbouring one of yours, leaving at least one behind.",
        "rules-classic-fortify", &["fortify", "fortifying"]),
    e("card-set", "Card set",
        "Three cards of one design, one of each design, or any two with a wild card: traded in the reinforce step for armies.",
        "rules-classic-cards", &["card set", "card sets"]),
];

#[cfg(feature = "full")]
const ORDERS: &[Entry] = &[
    e("supply-centre", "Supply centre",
        "A province marked with a dot. Each one a power owns lets it keep one unit; a majority of them wins.",
        "rules-orders-goal", &["supply centres", "supply centre", "centres"]),
    e("support-cut", "Support cut",
        "A support is cut, and adds nothing, when another power's unit attacks the supporting unit from anywhere but the province the support goes into.",
        "rules-orders-support", &["support cut", "supports cut", "cut"]),
    e("support", "Support",
        "Instead of moving, a unit adds 1 to another unit's move or hold. It must be able to move to where the support goes.",
        "rules-orders-support", &["support", "supports"]),
    e("convoy", "Convoy",
        "Fleets at sea carry an army across water: the army orders the move, each fleet on the way orders the convoy.",
        "rules-orders-convoy", &["convoy", "convoys"]),
    e("bounce", "Bounce",
        "Equal strengths stand off: nobody moves in, and the units that bounced stay where they were.",
        "rules-orders-move", &["bounce", "bounced", "standoff"]),
    e("void", "Void",
        "An order the rules do not allow, such as an army ordered into a sea, a move to a place the unit cannot reach, or a fleet into Spain without naming its coast: it does nothing, and the unit holds.",
        "rules-orders-move", &["void"]),
    e("dislodged", "Dislodged",
        "Beaten out of its province by a stronger attack: the unit must retreat to a free neighbouring province or be disbanded.",
        "rules-orders-retreat", &["dislodged"]),
    e("retreat", "Retreat",
        "A dislodged unit moves to a neighbouring province it could reach that is empty and was not left empty by a bounce, or is disbanded.",
        "rules-orders-retreat", &["retreats", "retreat"]),
    e("adjustments", "Builds and disbands",
        "After Fall each power keeps one unit per supply centre: it builds in its empty home centres, or disbands units of its choice.",
        "rules-orders-adjust", &["adjustments", "builds", "build", "disbands", "disband"]),
    e("civil-disorder", "Civil disorder",
        "A power played by nobody: its units stay where they are (they hold), its dislodged units are disbanded, it builds nothing and disbands the units farthest from home when it must.",
        "rules-orders-adjust", &["civil disorder"]),
];

#[cfg(feature = "full")]
const ECONOMY: &[Entry] = &[
    e("mu", "MU",
        "Monetary units, the game's money: it pays for units and buildings; countries and roads bring it in each Get phase.",
        "rules-economy-goal", &["MU"]),
    e("upkeep", "Upkeep",
        "In each country your first 5 units are free (10 where your capital is); each one beyond costs 1 MU each Get phase, or you lose a unit.",
        "rules-economy-upkeep", &["upkeep"]),
    e("base-price", "Base price",
        "5 MU for a unit recruited at one of your bases (each base one a round); any other unit costs 10 MU.",
        "rules-economy-buy", &["base price"]),
    e("income", "Income",
        "Each Get phase: 1 MU a country you own, 1 MU a road of yours, and a bonus for each whole continent.",
        "rules-economy-get", &["income"]),
    e("initiative", "Initiative",
        "Who picks which battle is fought next, and whose action goes first. The highest die at the start of combat; a battle's winner takes it.",
        "rules-economy-initiative", &["initiative"]),
    e("stay", "Stay after the interception",
        "The units that survive the interception stay in the battle instead of going back where they came from.",
        "rules-economy-withdraw", &["stay after the interception"]),
    e("burn", "Burn the roads",
        "Armies leaving a country with roads for another with roads each roll a die: any 6 destroys the roads of the country they left.",
        "rules-economy-withdraw", &["burn the roads", "burning the roads"]),
    e("interception", "Interception",
        "Attacking units as they leave: each leaving unit rolls against each interceptor in turn; the lower roll loses a unit, and a tie costs both.",
        "rules-economy-withdraw", &["interception", "intercept", "intercepted", "interceptors"]),
    e("withdraw", "Withdraw",
        "Leave a battle. Hostile units there may intercept the leavers; survivors go back where they came from, or to a neighbour if they were there first.",
        "rules-economy-withdraw", &["withdraw", "withdraws"]),
    e("defending", "Defending",
        "Units that were in their country when the plans were written defend it: +1 on every roll, and a defender's 6 always wins the roll.",
        "rules-economy-combat", &["defending", "defenders", "defender"]),
    e("fortifications", "Fortifications",
        "Walls a player builds in a country (10 MU): its defenders add +1 more to every roll. Attacking them usually costs more units than it kills; a siege rolls no dice.",
        "rules-economy-siege", &["fortifications"]),
    e("besiege", "Besiege",
        "Hem in hostile units in their fortified country without attacking. Besieged units cannot withdraw without attacking, and cannot be paid for.",
        "rules-economy-siege", &["besiege", "besieged", "siege", "besieges"]),
    e("landing", "Landing",
        "Armies on contested water go ashore on its coast; only hostile navies may intercept, and armies ashore roll at -1 there.",
        "rules-economy-siege", &["landing"]),
    e("blockade", "Blockade",
        "A navy on the water a navy base recruits into stops that base recruiting for anyone but the blockader and its allies.",
        "rules-economy-siege", &["blockade"]),
    e("contested", "Contested",
        "A region where hostile units stand together: a battle is fought there, and units in it cannot be given plans.",
        "rules-economy-plan", &["contested"]),
    e("friendly", "Friendly",
        "Yours or an ally's, and not contested. Moves that start or end anywhere else must be planned in secret.",
        "rules-economy-plan", &["friendly"]),
    e("flanks", "Flanks",
        "+1 to the attacker for each country beyond the first it attacks from.",
        "rules-economy-combat", &["flanks", "flank"]),
    e("revolution", "Revolution",
        "Played with an influence card (or rolled in the countries of a player without a capital): two armies rise in the country and attack.",
        "rules-economy-cards", &["revolution", "revolutions"]),
    e("influence-card", "Influence card",
        "One per country, drawn for more victories than losses in a combat phase: three trade for 50 MU, or one starts a revolution.",
        "rules-economy-cards", &["influence cards", "influence card"]),
    e("capital", "Capital",
        "Your seat of government: units are paid for only when linked to it. Whoever takes it gets your money and cards.",
        "rules-economy-capital", &["capital"]),
];

/// The entries of one ruleset.
pub fn entries(r: Rules) -> &'static [Entry] {
    match r {
        Rules::Classic => CLASSIC,
        #[cfg(feature = "full")]
        Rules::Orders => ORDERS,
        #[cfg(feature = "full")]
        Rules::Economy => ECONOMY,
        #[cfg(not(feature = "full"))]
        _ => &[],
    }
}

/// The entry named `id`, in any ruleset.
pub fn get(id: &str) -> Option<&'static Entry> {
    [Rules::Classic, Rules::Orders, Rules::Economy]
        .into_iter()
        .flat_map(entries)
        .find(|e| e.id == id)
}

/// The glossary's own copy of a section's element id, if a term links there.
#[cfg_attr(not(feature = "full"), allow(dead_code))]
pub fn anchor(at: &str) -> Option<&'static str> {
    [Rules::Classic, Rules::Orders, Rules::Economy]
        .into_iter()
        .flat_map(entries)
        .map(|e| e.anchor)
        .find(|a| *a == at)
}

/// Whether `b` is a letter or digit (a word goes on).
fn word_char(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// Where `text` names a term of `r`: (start, end, entry), in order, not overlapping, each term
/// once (its first mention), the longest words where two begin at the same place.
pub fn find(text: &str, r: Rules) -> Vec<(usize, usize, &'static Entry)> {
    let low = text.to_ascii_lowercase(); // same byte offsets as `text`
    let mut hits: Vec<(usize, usize, &'static Entry)> = vec![];
    for e in entries(r) {
        let first = e
            .words
            .iter()
            .filter_map(|w| {
                let (hay, needle) = if *w == "MU" {
                    (text, *w)
                } else {
                    (low.as_str(), *w)
                };
                let mut from = 0;
                while let Some(i) = hay[from..].find(needle) {
                    let (a, b) = (from + i, from + i + needle.len());
                    let before = a == 0 || !word_char(hay.as_bytes()[a - 1]);
                    let after = b == hay.len() || !word_char(hay.as_bytes()[b]);
                    if before && after {
                        return Some((a, b));
                    }
                    from = a + 1;
                }
                None
            })
            .min_by_key(|&(a, b)| (a, usize::MAX - b));
        if let Some((a, b)) = first {
            hits.push((a, b, e));
        }
    }
    hits.sort_by_key(|&(a, b, _)| (a, usize::MAX - b));
    let mut out: Vec<(usize, usize, &'static Entry)> = vec![];
    for h in hits {
        if out.last().is_none_or(|l| h.0 >= l.1) {
            out.push(h);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words found and the terms they name.
    fn f(t: &str, r: Rules) -> Vec<(&str, &'static str)> {
        find(t, r)
            .into_iter()
            .map(|(a, b, e)| (&t[a..b], e.id))
            .collect()
    }

    #[test]
    fn ids_are_unique_and_anchors_name_their_ruleset() {
        let all: Vec<(Rules, &Entry)> = [Rules::Classic, Rules::Orders, Rules::Economy]
            .into_iter()
            .flat_map(|r| entries(r).iter().map(move |e| (r, e)))
            .collect();
        for (i, (r, a)) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| b.1.id != a.id), "{}", a.id);
            let key = match r {
                Rules::Classic => "classic",
                Rules::Orders => "orders",
                Rules::Economy => "economy",
            };
            assert!(
                a.anchor.starts_with(&format!("rules-{key}-")),
                "{}",
                a.anchor
            );
            assert!(!a.text.is_empty() && a.text.ends_with('.'), "{}", a.id);
        }
    }

    #[test]
    fn a_prompt_names_each_term_once_and_whole_words_only() {
        assert_eq!(
            f(
                "Ann: place 3 reinforcements on your territories.",
                Rules::Classic
            ),
            [("reinforcements", "reinforcements")]
        );
        // "attacking" is not "attack"; a term is marked once.
        assert_eq!(
            f("Boole is attacking. Attack, attack!", Rules::Classic),
            [("Attack", "attack")]
        );
    }

    #[cfg(feature = "full")]
    #[test]
    fn economy_and_orders_terms() {
        assert_eq!(
            f("Upkeep owed: 6 MU (mu is not money).", Rules::Economy),
            [("Upkeep", "upkeep"), ("MU", "mu")]
        );
        assert_eq!(
            f(
                "Withdraw, burning the roads; stay after the interception",
                Rules::Economy
            ),
            [
                ("Withdraw", "withdraw"),
                ("burning the roads", "burn"),
                ("stay after the interception", "stay")
            ]
        );
        assert_eq!(
            f("Its support cut, the army was dislodged.", Rules::Orders),
            [("support cut", "support-cut"), ("dislodged", "dislodged")]
        );
    }
}
