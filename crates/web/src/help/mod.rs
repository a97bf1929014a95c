//! The "How to play" screen (issue 60): each ruleset's rules from `text`, a tab per ruleset, the
//! contents of the one shown, and a search box that keeps only the sections naming what was typed
//! (in every ruleset, the shown one first), with the words marked. Shown over the screen the player
//! came from, which stays as it was (an online game keeps its connection); Back closes it.
//!
//! Full page only: the lite page's "How to play" opens this on the full page (`lite::Open::Rules`),
//! which the service worker keeps for offline use, so the lite first load carries none of the text.

pub mod text;

pub use text::Book;
use text::{Block, Section};
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The ruleset shown first (the game's, from a game).
    pub book: Book,
    pub on_back: Callback<()>,
    /// The section to open at (its element id: a term's link), else the top.
    #[prop_or_default]
    pub at: Option<&'static str>,
}

impl Book {
    /// The book a section's element id (`rules-{book}-{section}`) belongs to.
    pub fn from_anchor(at: &str) -> Option<Book> {
        Book::ALL
            .into_iter()
            .find(|b| at.starts_with(&format!("rules-{}-", b.key())))
    }
}

/// `hay` contains `needle` (already lower case), ignoring ASCII case.
fn has(hay: &str, needle: &str) -> bool {
    hay.to_ascii_lowercase().contains(needle)
}

/// Whether a section names the query: 2 in its title or hidden words, 1 in its text, 0 not at all.
fn score(s: &Section, q: &str) -> u8 {
    if has(s.title, q) || has(s.also, q) {
        2
    } else if s.blocks.iter().any(|b| b.texts().iter().any(|t| has(t, q))) {
        1
    } else {
        0
    }
}

/// `t` with every occurrence of `q` (lower case) marked.
fn marked(t: &'static str, q: &str) -> Html {
    if q.is_empty() {
        return html! { {t} };
    }
    let low = t.to_ascii_lowercase(); // same byte offsets as `t`
    let mut out = vec![];
    let mut at = 0;
    while let Some(i) = low[at..].find(q) {
        let (a, b) = (at + i, at + i + q.len());
        out.push(html! { {&t[at..a]} });
        out.push(html! { <mark>{&t[a..b]}</mark> });
        at = b;
    }
    out.push(html! { {&t[at..]} });
    out.into_iter().collect()
}

fn block(b: &Block, q: &str) -> Html {
    match b {
        Block::P(t) => html! { <p>{marked(t, q)}</p> },
        Block::List(l) => html! {
            <ul>{ for l.iter().map(|t| html! { <li>{marked(t, q)}</li> }) }</ul>
        },
        Block::Example(title, steps) => html! {
            <div class="howto-example">
                <p class="howto-example-title">{marked(title, q)}</p>
                <ol>{ for steps.iter().map(|t| html! { <li>{marked(t, q)}</li> }) }</ol>
            </div>
        },
        Block::Key(k) => html! {
            <dl class="howto-key">
                { for k.iter().map(|(a, b)| html! { <><dt>{marked(a, q)}</dt><dd>{marked(b, q)}</dd></> }) }
            </dl>
        },
    }
}

fn section(book: Book, s: &Section, q: &str, label: bool) -> Html {
    html! {
        <section class="howto-section" id={book.anchor(s.id)} tabindex="-1">
            <h3>
                if label { <span class="howto-book">{book.name()}{": "}</span> }
                {marked(s.title, q)}
            </h3>
            { for s.blocks.iter().map(|b| block(b, q)) }
        </section>
    }
}

#[function_component(HowToPlay)]
pub fn how_to_play(p: &Props) -> Html {
    let book = use_state(|| p.book);
    let query = use_state(String::new);
    // Opened: the top of the screen, whatever the game's page was scrolled to, or the section a
    // term links to (focused, so it is scrolled into view and read first).
    use_effect_with(p.at, |at| {
        if let Some(w) = web_sys::window() {
            w.scroll_to_with_x_and_y(0.0, 0.0);
        }
        crate::store::focus(at.unwrap_or("howto-title"));
    });
    let oninput = {
        let query = query.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            query.set(input.value());
        })
    };
    let back = p.on_back.reform(|_: MouseEvent| ());
    // Escape goes back (in the search box, once it is empty: the box clears itself first).
    let onkeydown = {
        let back = p.on_back.clone();
        let empty = query.is_empty();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" && empty {
                back.emit(());
            }
        })
    };
    let q = query.trim().to_ascii_lowercase();
    let shown = *book;
    let body = if q.is_empty() {
        let contents = shown.sections().iter().map(|s| {
            let id = shown.anchor(s.id);
            let go = Callback::from(move |_: MouseEvent| crate::store::focus(&id));
            html! { <li><button class="linklike" onclick={go}>{s.title}</button></li> }
        });
        html! {
            <>
                <nav class="howto-contents" aria-label="Contents">
                    <h2>{"Contents"}</h2>
                    <ol>{ for contents }</ol>
                </nav>
                <div class="howto-sections">
                    { for shown.sections().iter().map(|s| section(shown, s, "", false)) }
                </div>
            </>
        }
    } else {
        // The shown ruleset first, then the others; within each, titles before mentions.
        let order = std::iter::once(shown).chain(Book::ALL.into_iter().filter(|&b| b != shown));
        let mut hits: Vec<(u8, usize, Book, &Section)> = order
            .enumerate()
            .flat_map(|(i, b)| b.sections().iter().map(move |s| (i, b, s)))
            .map(|(i, b, s)| (score(s, &q), i, b, s))
            .filter(|h| h.0 > 0)
            .collect();
        hits.sort_by_key(|h| (h.1, 2 - h.0));
        let n = hits.len();
        html! {
            <div class="howto-sections" id="howto-results">
                <p class="hint" role="status">{match n {
                    0 => format!("Nothing found for \u{201c}{}\u{201d}.", query.trim()),
                    1 => "1 section found.".to_string(),
                    n => format!("{n} sections found."),
                }}</p>
                <h2>{"Search results"}</h2>
                { for hits.iter().map(|h| section(h.2, h.3, &q, true)) }
            </div>
        }
    };
    html! {
        <main class="howto" id="howto" data-book={shown.key()} {onkeydown}>
            <header class="bar howto-bar">
                <button class="btn small" id="howto-back" onclick={back}>{"← Back"}</button>
                <h1 id="howto-title" tabindex="-1">{"How to play"}</h1>
            </header>
            <div class="row ruleset" role="group" aria-label="Ruleset">
                { for Book::ALL.iter().map(|&b| {
                    let set = { let book = book.clone(); Callback::from(move |_: MouseEvent| book.set(b)) };
                    html! {
                        <button class={classes!("btn", (b == shown).then_some("on"))} id={format!("howto-{}", b.key())}
                            aria-pressed={if b == shown { "true" } else { "false" }} onclick={set}>{b.name()}</button>
                    }
                }) }
            </div>
            <label class="field howto-search" for="howto-search"><span>{"Search the rules"}</span>
                <input id="howto-search" type="search" placeholder="support, upkeep, cards…"
                    value={(*query).clone()} {oninput} /></label>
            { body }
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_finds_support_and_upkeep_by_title() {
        let find = |b: Book, q: &str| {
            b.sections()
                .iter()
                .filter(|s| score(s, q) == 2)
                .map(|s| s.id)
                .collect::<Vec<_>>()
        };
        assert!(find(Book::Orders, "support").contains(&"support"));
        assert!(find(Book::Economy, "upkeep").contains(&"upkeep"));
        assert!(find(Book::Classic, "zzz").is_empty());
    }

    #[test]
    fn every_term_links_to_a_section_of_its_ruleset() {
        use crate::widgets::glossary::{entries, Rules};
        for r in [Rules::Classic, Rules::Orders, Rules::Economy] {
            for e in entries(r) {
                let b = Book::from_anchor(e.anchor).expect(e.anchor);
                assert!(
                    b.sections().iter().any(|s| b.anchor(s.id) == e.anchor),
                    "{}: no section {}",
                    e.id,
                    e.anchor
                );
            }
        }
    }
}
