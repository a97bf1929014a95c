//! The clock of a game over days as the lobby's form drafts it (lengths in hours, early
//! resolution, excused missed turns), the lobby's form of it, and the signed `Clock` a proposal
//! would carry.

use yew::prelude::*;

/// The phase lengths a player may choose, in hours (1 hour to 7 days, issue 61 item 1).
const LENGTHS: [u32; 10] = [1, 2, 4, 8, 12, 24, 48, 72, 120, 168];

/// A length in words: "1 hour", "12 hours", "1 day", "7 days".
pub(super) fn length_words(hours: u32) -> String {
    match hours {
        1 => "1 hour".into(),
        h if h < 24 || h % 24 != 0 => format!("{h} hours"),
        24 => "1 day".into(),
        h => format!("{} days", h / 24),
    }
}

/// The lobby's choice of how the next game is played, and its clock (lengths in hours).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Draft {
    pub over_days: bool,
    pub movement_h: u32,
    pub retreat_h: u32,
    pub build_h: u32,
    /// A phase resolves as soon as every power has submitted (else it waits for its deadline).
    pub early: bool,
    /// Missed turns excused per player (0-4).
    pub excuses: u8,
}

impl Default for Draft {
    fn default() -> Draft {
        Draft {
            over_days: false,
            movement_h: 24,
            retreat_h: 12,
            build_h: 12,
            early: true,
            excuses: 1,
        }
    }
}

/// What a form control changes.
#[derive(Clone, Copy)]
enum Field {
    Movement,
    Retreat,
    Build,
    Excuses,
}

impl Draft {
    /// The draft with `field` set to the control's value (retreats and builds never longer than
    /// movement: they are the short phases between).
    fn with(&self, field: Field, v: u32) -> Draft {
        let mut d = self.clone();
        match field {
            Field::Movement => d.movement_h = v,
            Field::Retreat => d.retreat_h = v,
            Field::Build => d.build_h = v,
            Field::Excuses => d.excuses = v.min(4) as u8,
        }
        d.retreat_h = d.retreat_h.min(d.movement_h);
        d.build_h = d.build_h.min(d.movement_h);
        d
    }

    /// How long after a deadline a turn counts as missed: a twelfth of the orders' time, from 10
    /// minutes to an hour (a page whose clock is a little fast cuts nobody short).
    fn grace_s(&self) -> u32 {
        (self.movement_h * 3_600 / 12).clamp(600, 3_600)
    }

    /// The clock a proposal made now (`now_s`, UTC) carries; `None` for a live game.
    pub(super) fn clock(&self, now_s: u64) -> Option<orbis_protocol::wire::Clock> {
        self.over_days.then(|| orbis_protocol::wire::Clock {
            start_s: now_s,
            movement_s: self.movement_h * 3_600,
            retreat_s: self.retreat_h * 3_600,
            build_s: self.build_h * 3_600,
            grace_s: self.grace_s(),
            early: self.early,
            excuses: self.excuses,
        })
    }

    /// The clock in a sentence, as the proposal and "My games" say it.
    pub(super) fn summary(&self) -> String {
        format!(
            "Over days: {} for orders, {} for retreats, {} for builds; {}; {} per player.",
            length_words(self.movement_h),
            length_words(self.retreat_h),
            length_words(self.build_h),
            if self.early {
                "a phase ends early once every power has submitted"
            } else {
                "every phase runs to its deadline"
            },
            match self.excuses {
                0 => "no missed turn excused".to_string(),
                1 => "1 missed turn excused".to_string(),
                n => format!("{n} missed turns excused"),
            }
        )
    }
}

/// Why classic and economy games are live only, for a player who never read the rules.
pub(super) const WHY_LIVE_ONLY: &str = "Over days is for Orders games for now. In Classic and \
    Economy every die is rolled by all the players' pages together, so every player must be \
    there at each roll.";

/// A select of phase lengths up to `max` hours.
fn lengths(id: &'static str, cur: u32, max: u32, on: Callback<u32>) -> Html {
    let onchange = Callback::from(move |e: yew::Event| {
        let v = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        on.emit(v.parse().unwrap_or(24));
    });
    html! {
        <select {id} {onchange}>
            { for LENGTHS.iter().filter(|h| **h <= max).map(|h| html! {
                <option value={h.to_string()} selected={*h == cur}>{length_words(*h)}</option>
            }) }
        </select>
    }
}

/// The lobby's "How you play" choice: live or over days, and the clock of a game over days.
/// `orders`: the ruleset chosen goes over days (else the choice says why not).
pub(super) fn choice(d: &Draft, orders: bool, on: Callback<Draft>) -> Html {
    let set = |f: Field| {
        let (on, d) = (on.clone(), d.clone());
        Callback::from(move |v: u32| on.emit(d.with(f, v)))
    };
    let mode = |days: bool| {
        let (on, d) = (on.clone(), d.clone());
        Callback::from(move |_: MouseEvent| {
            on.emit(Draft {
                over_days: days,
                ..d.clone()
            })
        })
    };
    let early = {
        let (on, d) = (on.clone(), d.clone());
        Callback::from(move |_: MouseEvent| {
            on.emit(Draft {
                early: !d.early,
                ..d.clone()
            })
        })
    };
    let excuses = {
        let set = set(Field::Excuses);
        Callback::from(move |e: InputEvent| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            set.emit(v.parse().unwrap_or(1));
        })
    };
    let days = d.over_days && orders;
    html! {
        <fieldset class="online-days" id="online-days">
            <legend>{"How you play"}</legend>
            <label class="choice"><input type="radio" name="online-mode" id="online-live" checked={!days} onclick={mode(false)}/>
                {"Live: everyone plays at the same time, with the page open"}</label>
            <label class="choice"><input type="radio" name="online-mode" id="online-over-days" checked={days} disabled={!orders} onclick={mode(true)}/>
                {"Over days: each player comes when they can, before each deadline"}</label>
            if !orders {
                <p class="hint" id="online-days-why">{WHY_LIVE_ONLY}</p>
            } else if days {
                <p class="hint">{"Nobody needs to be online at the same time: each player opens the game, \
                    enters their orders and closes it. Moves wait, sealed, on the relays."}</p>
                <label>{"Time for orders (each Spring and Fall) "}{ lengths("days-movement", d.movement_h, 168, set(Field::Movement)) }</label>
                <label>{"Time for retreats "}{ lengths("days-retreat", d.retreat_h, d.movement_h, set(Field::Retreat)) }</label>
                <label>{"Time for builds and disbands "}{ lengths("days-build", d.build_h, d.movement_h, set(Field::Build)) }</label>
                <label class="choice"><input type="checkbox" id="days-early" checked={d.early} onclick={early}/>
                    {"Go on as soon as every power has submitted (without waiting for the deadline)"}</label>
                <label>{"Missed turns forgiven per player "}
                    <input id="days-excuses" type="number" min="0" max="4" value={d.excuses.to_string()} oninput={excuses}/></label>
                <p class="hint" id="days-missed">{"A player who misses a deadline uses one of these: the phase gets \
                    longer once. With none left, their units hold, and the computer plays their country \
                    until they take it back."}</p>
                <p class="hint" id="days-summary">{d.summary()}</p>
            }
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_in_words_and_short_phases_never_longer_than_orders() {
        assert_eq!(length_words(1), "1 hour");
        assert_eq!(length_words(12), "12 hours");
        assert_eq!(length_words(24), "1 day");
        assert_eq!(length_words(168), "7 days");
        let d = Draft::default().with(Field::Movement, 8);
        assert_eq!((d.movement_h, d.retreat_h, d.build_h), (8, 8, 8));
        let d = Draft::default().with(Field::Excuses, 9);
        assert_eq!(d.excuses, 4);
        // The signed clock: lengths in seconds, a grace of 10 minutes to an hour.
        assert_eq!(Draft::default().clock(1_000), None);
        let c = Draft {
            over_days: true,
            ..Draft::default()
        }
        .clock(1_000)
        .unwrap();
        assert_eq!(
            (c.start_s, c.movement_s, c.retreat_s, c.build_s),
            (1_000, 86_400, 43_200, 43_200)
        );
        assert_eq!((c.grace_s, c.early, c.excuses), (3_600, true, 1));
        let c = Draft {
            over_days: true,
            movement_h: 1,
            retreat_h: 1,
            build_h: 1,
            ..Draft::default()
        };
        assert_eq!(c.clock(0).unwrap().grace_s, 600);
        assert_eq!(
            Draft::default().summary(),
            "Over days: 1 day for orders, 12 hours for retreats, 12 hours for builds; a phase ends \
             early once every power has submitted; 1 missed turn excused per player."
        );
    }
}
