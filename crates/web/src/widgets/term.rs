//! A rules term explained where it appears (issue 60): the word, dotted-underlined, is a button;
//! pointing at it, focusing it or tapping it opens a short explanation from the glossary with a
//! link to its section of How to play. The explanation is drawn only while open, so a prompt's
//! text stays as it reads; while open it is the button's description (`aria-describedby`), and
//! focus opens it, so a screen reader says it with the word. Escape closes it. It is drawn in
//! the page's body (a portal), over everything: inside the game's bar or panel it would sit
//! under the map, whatever its z-index, since those make layers of their own.
//!
//! The link opens How to play through `RulesLink`, which the app provides to every screen (on
//! the lite page it opens the full page there).

use super::glossary::{self, Rules};
use std::cell::Cell;
use web_sys::Element;
use yew::prelude::*;

/// Opens How to play at a section (its element id, e.g. `rules-economy-upkeep`).
#[derive(Clone, PartialEq)]
pub struct RulesLink(pub Callback<&'static str>);

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The glossary's id of the term.
    pub id: &'static str,
    /// The words shown (default: the glossary's name of the term).
    #[prop_or_default]
    pub text: Option<AttrValue>,
}

thread_local! {
    /// Numbers the explanations' element ids (a term may appear twice on a screen).
    static NEXT: Cell<u32> = const { Cell::new(0) };
}

/// Where the explanation goes (fixed, in the viewport): under the word, or over it when there
/// is no room below; never past either side of the screen. In whole pixels: formatting an `f64`
/// links the standard library's float printing (about 6 KB of wasm before optimisation).
fn place(word: &Element) -> String {
    let r = word.get_bounding_client_rect();
    let (vw, vh) = web_sys::window()
        .map(|w| {
            let n = |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64());
            (
                n(w.inner_width()).unwrap_or(800.0),
                n(w.inner_height()).unwrap_or(600.0),
            )
        })
        .unwrap_or((800.0, 600.0));
    let width = (vw - 16.0).min(288.0);
    let left = r.left().min(vw - width - 8.0).max(8.0);
    let px = |v: f64| v.round() as i32;
    let vertical = if r.bottom() + 170.0 > vh && r.top() > 170.0 {
        format!("bottom:{}px", px(vh - r.top()))
    } else {
        format!("top:{}px", px(r.bottom()))
    };
    format!("left:{}px;{vertical};width:{}px", px(left), px(width))
}

#[function_component(Term)]
pub fn term(p: &Props) -> Html {
    let n = use_state(|| {
        NEXT.with(|c| {
            let n = c.get();
            c.set(n.wrapping_add(1));
            n
        })
    });
    // Pointer over it, focus inside it, pinned by a click or tap; shut by Escape.
    let hover = use_state(|| false);
    // The pointer over the explanation itself (outside the term in the page: the portal).
    let over_tip = use_state(|| false);
    let focus = use_state(|| false);
    let pinned = use_state(|| false);
    let shut = use_state(|| false);
    let at = use_state(String::new);
    let word = use_node_ref();
    let link = use_context::<RulesLink>();
    let Some(e) = glossary::get(p.id) else {
        return html! { {p.text.clone().unwrap_or_default()} };
    };
    let open = (*hover || *over_tip || *focus || *pinned) && !*shut;
    let tip = format!("term-tip-{}", *n);
    let measure = {
        let (word, at) = (word.clone(), at.clone());
        move || {
            if let Some(w) = word.cast::<Element>() {
                at.set(place(&w));
            }
        }
    };
    let onmouseenter = {
        let (hover, m) = (hover.clone(), measure.clone());
        Callback::from(move |_: MouseEvent| {
            m();
            hover.set(true);
        })
    };
    let onmouseleave = {
        let (hover, shut) = (hover.clone(), shut.clone());
        Callback::from(move |_: MouseEvent| {
            hover.set(false);
            shut.set(false);
        })
    };
    let onfocusin = {
        let (focus, m) = (focus.clone(), measure.clone());
        Callback::from(move |_: FocusEvent| {
            m();
            focus.set(true);
        })
    };
    // Focus leaving for somewhere outside the term and its explanation (its link) closes it.
    let onfocusout = {
        let (focus, shut, pinned) = (focus.clone(), shut.clone(), pinned.clone());
        let tip = tip.clone();
        Callback::from(move |ev: FocusEvent| {
            let to = ev
                .related_target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
            let here = |t: &web_sys::Element| {
                let me = ev
                    .current_target()
                    .and_then(|c| wasm_bindgen::JsCast::dyn_into::<web_sys::Node>(c).ok());
                me.is_some_and(|m| m.contains(Some(t)))
                    || t.closest(".term-tip")
                        .ok()
                        .flatten()
                        .is_some_and(|x| x.id() == tip)
            };
            if !to.as_ref().is_some_and(here) {
                focus.set(false);
                shut.set(false);
                pinned.set(false);
            }
        })
    };
    let onclick = {
        let (pinned, shut, m) = (pinned.clone(), shut.clone(), measure);
        Callback::from(move |_: MouseEvent| {
            m();
            shut.set(false);
            pinned.set(!*pinned);
        })
    };
    let onkeydown = {
        let (shut, pinned) = (shut.clone(), pinned.clone());
        Callback::from(move |ev: KeyboardEvent| {
            if ev.key() == "Escape" {
                shut.set(true);
                pinned.set(false);
            }
        })
    };
    let go = link.map(|l| {
        let anchor = e.anchor;
        Callback::from(move |ev: MouseEvent| {
            ev.prevent_default();
            l.0.emit(anchor);
        })
    });
    let shown = p.text.clone().unwrap_or(AttrValue::Static(e.term));
    let body = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body());
    let explanation = match body.filter(|_| open) {
        Some(host) => {
            let enter = {
                let o = over_tip.clone();
                Callback::from(move |_: MouseEvent| o.set(true))
            };
            let leave = {
                let o = over_tip.clone();
                Callback::from(move |_: MouseEvent| o.set(false))
            };
            let keys = onkeydown.clone();
            let focusout = onfocusout.clone();
            // Opened only by a pointer resting on the word (not pinned by a click or tap, not
            // focused), the explanation lets clicks through: a new screen drawn under a still
            // pointer opens its term, whose explanation must not cover the buttons below it.
            // A click on the word pins it, and then its link can be clicked.
            let peek = (!*pinned && !*focus).then_some("peek");
            create_portal(
                html! {
                    <span class={classes!("term-tip", peek)} id={tip.clone()} style={(*at).clone()}
                        onmouseenter={enter} onmouseleave={leave} onkeydown={keys} onfocusout={focusout}>
                        {e.text}{" "}
                        <a href={format!("#{}", e.anchor)} class="term-link" onclick={go}>
                            {format!("How to play: {} →", e.term)}</a>
                    </span>
                },
                host.into(),
            )
        }
        None => html! {},
    };
    html! {
        <span class={classes!("term", open.then_some("open"))} data-term={e.id}
            {onmouseenter} {onmouseleave} {onfocusin} {onfocusout} {onkeydown}>
            <button type="button" class="term-word" ref={word} {onclick}
                aria-expanded={if open { "true" } else { "false" }}
                aria-describedby={open.then(|| tip.clone())}>{shown}</button>
            { explanation }
        </span>
    }
}

/// `text` with the first mention of each of `r`'s terms made a `Term` (a prompt from the engine
/// or a ruleset's text, explained where it appears).
pub fn explain(text: &str, r: Rules) -> Html {
    let mut out = vec![];
    let mut at = 0;
    for (a, b, e) in glossary::find(text, r) {
        if a > at {
            out.push(html! { {text[at..a].to_string()} });
        }
        out.push(html! { <Term id={e.id} text={AttrValue::from(text[a..b].to_string())} /> });
        at = b;
    }
    if at < text.len() {
        out.push(html! { {text[at..].to_string()} });
    }
    out.into_iter().collect()
}
