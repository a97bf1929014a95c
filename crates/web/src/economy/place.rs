//! The standard start (source 004): each player places a capital, two army bases and 20 armies
//! in their own countries. A table of the player's countries with a capital choice, a bases
//! field and an armies field; the computer's placement can be taken as a starting point. The engine
//! checks the whole placement when it is confirmed.

use crate::economy::controls::send;
use crate::economy::text::region;
use crate::economy::{EMsg, EconomySession, View};
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::action::{EconomyAction as A, SetupAction};
use orbis_engine::rules::economy::setup::{START_ARMIES, START_BASES};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What a click on one of the player's countries adds to the placement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlaceTool {
    /// One more army (up to the start's armies).
    #[default]
    Army,
    /// One more army base (up to the start's bases).
    Base,
    /// The capital.
    Capital,
}

/// A placement being drafted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceDraft {
    pub capital: Option<u8>,
    pub bases: Vec<u8>,
    pub armies: BTreeMap<u8, u32>,
}

impl PlaceDraft {
    /// The draft as the engine's action.
    pub fn action(&self, p: PlayerId) -> A {
        A::Setup {
            player: p,
            choice: SetupAction::Place {
                capital: self.capital,
                bases: self.bases.clone(),
                armies: self
                    .armies
                    .iter()
                    .filter(|(_, &n)| n > 0)
                    .map(|(&r, &n)| (r, n))
                    .collect(),
            },
        }
    }

    /// A click on country `c` with `tool`: adds what the tool places; a click that would go
    /// past the start's number says so instead (`Err`). The engine checks the whole placement
    /// when it is confirmed.
    pub fn click(&mut self, c: u8, tool: PlaceTool) -> Result<(), String> {
        match tool {
            PlaceTool::Army => {
                if self.armies.values().sum::<u32>() >= START_ARMIES {
                    return Err(format!(
                        "All {START_ARMIES} armies are placed: take one off in the table first."
                    ));
                }
                *self.armies.entry(c).or_default() += 1;
            }
            PlaceTool::Base => {
                if self.bases.len() >= START_BASES {
                    return Err(format!(
                        "Both army bases are placed ({START_BASES}): set one to 0 in the table first."
                    ));
                }
                self.bases.push(c);
            }
            PlaceTool::Capital => self.capital = Some(c),
        }
        Ok(())
    }

    /// The draft of a placement action (the computer's suggestion).
    pub fn from_action(a: &A) -> Option<PlaceDraft> {
        match a {
            A::Setup {
                choice:
                    SetupAction::Place {
                        capital,
                        bases,
                        armies,
                    },
                ..
            } => Some(PlaceDraft {
                capital: *capital,
                bases: bases.clone(),
                armies: armies.iter().copied().collect(),
            }),
            _ => None,
        }
    }
}

/// A change of the draft made by an input's event.
type Edit = Box<dyn Fn(&mut PlaceDraft, &Event)>;

/// The number typed in a field (none while it is empty: a player clearing it to type another
/// number does not see it snap to 0).
fn typed(e: &Event) -> Option<u32> {
    let v = e.target_unchecked_into::<HtmlInputElement>().value();
    (!v.is_empty()).then(|| v.parse().unwrap_or(0))
}

/// The draft follows every keystroke, not only the field's change (on leaving it): the page
/// re-renders while the player types (the table's fields are controlled), and a render before
/// the change put the draft's old number back in the field (a browser test typed 9 and read 11).
fn as_input(cb: &Callback<Event>) -> Callback<InputEvent> {
    let cb = cb.clone();
    Callback::from(move |e: InputEvent| cb.emit(e.into()))
}

pub fn place(v: &View, eco: &EconomySession, p: PlayerId) -> Html {
    let g = &eco.game;
    let o = &g.options;
    let draft = eco.ui.place.clone();
    let placed: u32 = draft.armies.values().sum();
    let owned: Vec<u8> = g.owned(p).collect();
    let edit = |f: Edit| {
        let (d, draft) = (v.dispatcher(), draft.clone());
        Callback::from(move |e: Event| {
            let mut x = draft.clone();
            f(&mut x, &e);
            d.dispatch(EMsg::Place(x));
        })
    };
    let rows = owned.iter().map(|&c| {
        let capital = edit(Box::new(move |x, _| x.capital = Some(c)));
        let base = edit(Box::new(move |x, e| {
            let Some(n) = typed(e) else { return };
            let n = (n as usize).min(START_BASES);
            x.bases.retain(|&b| b != c);
            x.bases.extend(std::iter::repeat_n(c, n));
        }));
        let armies = edit(Box::new(move |x, e| {
            let Some(n) = typed(e) else { return };
            let n = n.min(START_ARMIES);
            x.armies.insert(c, n);
        }));
        let n = draft.armies.get(&c).copied().unwrap_or(0);
        html! {
            <tr>
                <td>{region(c)}</td>
                if o.capitals {
                    <td><input type="radio" name="capital" id={format!("cap-{c}")} aria-label={format!("Capital in {}", region(c))}
                        checked={draft.capital == Some(c)} onchange={capital}/></td>
                }
                if o.bases {
                    <td><input type="number" min="0" max={START_BASES.to_string()} class="num" id={format!("base-{c}")}
                        aria-label={format!("Army bases in {}", region(c))}
                        value={draft.bases.iter().filter(|&&b| b == c).count().to_string()}
                        oninput={as_input(&base)} onchange={base}/></td>
                }
                <td><input type="number" min="0" class="num" id={format!("armies-{c}")} aria-label={format!("Armies in {}", region(c))}
                    value={n.to_string()} oninput={as_input(&armies)} onchange={armies}/></td>
            </tr>
        }
    });
    let mut want = vec![format!("{START_ARMIES} armies")];
    if o.capitals {
        want.insert(0, "a capital".into());
    }
    if o.bases {
        want.insert(1.min(want.len()), format!("{START_BASES} army bases"));
    }
    let tools = [
        (PlaceTool::Army, "an army", true),
        (PlaceTool::Base, "an army base", o.bases),
        (PlaceTool::Capital, "the capital", o.capitals),
    ];
    let tool = eco.ui.place_tool;
    html! {
        <div id="place">
            <p>{format!("The standard start: place {} in your countries.", want.join(", "))}</p>
            <fieldset class="row place-tool" id="place-tool">
                <legend>{"A click on one of your countries on the map places"}</legend>
                { for tools.iter().filter(|t| t.2).map(|&(t, label, _)| {
                    let d = v.dispatcher();
                    html! {
                        <label class="chip">
                            <input type="radio" name="place-tool" id={format!("tool-{t:?}").to_lowercase()}
                                checked={tool == t} onchange={Callback::from(move |_| d.dispatch(EMsg::PlaceTool(t)))}/>
                            {label}
                        </label>
                    }
                }) }
            </fieldset>
            <table class="place">
                <thead><tr><th>{"Country"}</th>
                    if o.capitals { <th>{"Capital"}</th> }
                    if o.bases { <th>{"Bases"}</th> }
                    <th>{"Armies"}</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <p id="placed">{format!("{placed} of {START_ARMIES} armies placed; {} of {} bases.",
                draft.bases.len(), if o.bases { START_BASES } else { 0 })}</p>
            <div class="row">
                <button class="btn" id="suggest-place" disabled={eco.ui.suggesting.is_some()} onclick={send(v, EMsg::SuggestPlace(p))}>
                    { if eco.ui.suggesting.is_some() { "Thinking…" } else { "Suggest a placement" } }
                </button>
                <button class="btn primary" id="confirm-place" onclick={send(v, EMsg::Act(draft.action(p)))}>{"Place my start"}</button>
            </div>
        </div>
    }
}
