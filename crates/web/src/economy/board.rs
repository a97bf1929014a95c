//! The economy board as SVG: the classic world artwork's countries and the 46 water territories
//! drawn as coastal seas (`web/map/economy-waters.json`), each a region a player can click or
//! reach with the keyboard. Owner colour and a per-player pattern; armies and navies per region;
//! capitals, bases, roads, fortifications and canals as icons; battle tokens (⚔), border
//! battles, contested regions, blockades and sieges marked. Planned moves are arrows.

use crate::economy::glyphs::{self, Mark};
use crate::economy::place::PlaceDraft;
use crate::economy::{colour, EMsg, EconomySession, View};
use crate::geometry::{OUTLINES, SHAPES, VIEWBOX, WATERS, WATER_OUTLINES};
use crate::keynav;
use crate::widgets::{f1, outline, pattern};
use orbis_engine::rules::classic::PlayerId;
use orbis_engine::rules::economy::battlefield::Site;
use orbis_engine::rules::economy::map::{EconomyMap, RegionId, RegionKind};
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::units::PlannedMove;
use std::sync::OnceLock;
use yew::prelude::*;

/// Per region of the economy map: (outline path, label x, label y).
fn shapes() -> &'static Vec<(String, f32, f32)> {
    static ALL: OnceLock<Vec<(String, f32, f32)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let map = EconomyMap::get();
        map.regions
            .iter()
            .map(|r| {
                let (table, bytes) = match r.kind {
                    RegionKind::Land { .. } => (SHAPES, OUTLINES),
                    RegionKind::Water { .. } => (WATERS, WATER_OUTLINES),
                };
                table
                    .iter()
                    .find(|x| x.0 == r.key)
                    .map(|&(_, off, len, x, y)| {
                        (outline(&bytes[off as usize..(off + len) as usize]), x, y)
                    })
                    .unwrap_or_default()
            })
            .collect()
    })
}

/// Ends a drag: the region under the pointer where the button or finger came up (found by
/// position, because a touch is captured by the region where it began and reports its end
/// there).
fn drag_end(v: &View) -> Callback<PointerEvent> {
    let d = v.dispatcher();
    Callback::from(move |e: PointerEvent| {
        let r = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|doc| doc.element_from_point(e.client_x() as f32, e.client_y() as f32))
            .and_then(|el| el.closest("[data-r]").ok().flatten())
            .and_then(|g| g.get_attribute("data-r"))
            .and_then(|s| s.parse::<RegionId>().ok());
        if let Some(r) = r {
            d.dispatch(EMsg::DragTo(r));
        }
    })
}

/// The label point of a region.
pub fn anchor(r: RegionId) -> (f32, f32) {
    shapes().get(r as usize).map_or((0.0, 0.0), |s| (s.1, s.2))
}

/// Per region of the economy map: its outline's box [left, top, right, bottom].
fn boxes() -> &'static Vec<[f32; 4]> {
    static ALL: OnceLock<Vec<[f32; 4]>> = OnceLock::new();
    ALL.get_or_init(|| {
        shapes()
            .iter()
            .map(|(d, x, y)| glyphs::path_box(d).unwrap_or([*x, *y, *x, *y]))
            .collect()
    })
}

/// The part of the map a game opens on, and returns to: the players' area, the box of every
/// country someone holds (while countries are picked, of those on offer too) with a margin;
/// the whole map before anyone holds one (`glyphs::frame`).
pub fn players_area(eco: &EconomySession) -> [f32; 4] {
    use orbis_engine::rules::economy::options::Setup;
    let g = &eco.game;
    let map = EconomyMap::get();
    let offered = match g.phase {
        Phase::Pick(_) if g.options.setup != Setup::Continents => g.choices(map),
        _ => vec![],
    };
    let held = (0..map.regions.len()).filter(|&i| {
        (g.regions[i].owner.is_some() && !map.is_water(i as RegionId))
            || offered.contains(&(i as u32))
    });
    glyphs::frame(held.map(|i| boxes()[i]), glyphs::board_px())
}

/// The part of the map on screen: the player's zoom, else the players' area.
pub fn view(eco: &EconomySession) -> [f32; 4] {
    eco.ui.view.unwrap_or_else(|| players_area(eco))
}

/// Patterns per player (colour-blind safe: stripes, dots, bars, crosses, columns, none).
fn defs() -> Html {
    let pats = (0..6u8).map(|p| {
        pattern(
            format!("ep{p}"),
            colour(p),
            "rgba(255,255,255,.55)",
            p as usize,
        )
    });
    html! {
        <defs>
            { for pats }
            <marker id="earrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
                <path d="M0 0 L10 5 L0 10 z" fill="#111"/>
            </marker>
        </defs>
    }
}

/// The standard start being drafted on this screen, for `r` when it is one of the placing
/// player's countries: the map shows the draft as it grows.
fn draft_in(eco: &EconomySession, r: RegionId) -> Option<(PlayerId, &PlaceDraft)> {
    let p = eco.actor().filter(|_| eco.game.phase == Phase::Place)?;
    (eco.game.regions[r as usize].owner == Some(p)).then_some((p, &eco.ui.place))
}

/// The icons of a country's infrastructure and state, in reading order.
fn icons(eco: &EconomySession, r: RegionId) -> String {
    let g = &eco.game;
    let rs = &g.regions[r as usize];
    let draft = draft_in(eco, r).map(|(_, d)| d);
    let mut s = String::new();
    if g.players.iter().any(|p| p.capital == Some(r)) || draft.is_some_and(|d| d.capital == Some(r))
    {
        s.push('★');
    }
    let drafted = draft.map_or(0, |d| d.bases.iter().filter(|&&b| b == r).count());
    for _ in 0..usize::from(rs.infra.army_bases) + drafted {
        s.push('▲');
    }
    for _ in &rs.infra.navy_bases {
        s.push('⚓');
    }
    if rs.infra.roads {
        s.push('═');
    }
    if rs.infra.fortifications {
        s.push('▣');
    }
    if rs.infra.canal {
        s.push('≈');
    }
    if !rs.sieges.is_empty() {
        s.push('◎');
    }
    if g.blockades.iter().any(|b| b.water == r || b.country == r) {
        s.push('⊗');
    }
    s
}

/// Units in a region: each player's armies (A) and navies (N), neutrals last.
fn units(eco: &EconomySession, r: RegionId) -> Vec<(Option<PlayerId>, String)> {
    let rs = &eco.game.regions[r as usize];
    let mut out: Vec<(Option<PlayerId>, String)> = rs
        .forces
        .iter()
        .filter(|(_, f)| f.units() > 0)
        .map(|(&p, f)| (Some(p), units_text(f.armies, f.navies)))
        .collect();
    if let Some((p, d)) = draft_in(eco, r) {
        if let Some(&n) = d.armies.get(&r).filter(|&&n| n > 0) {
            out.retain(|(q, _)| *q != Some(p));
            out.insert(0, (Some(p), units_text(n, 0)));
        }
    }
    if rs.neutral.units() > 0 {
        out.push((None, units_text(rs.neutral.armies, rs.neutral.navies)));
    }
    out
}

/// The planned moves drawn: the shown player's draft while planning, everyone's once revealed
/// (in combat, of those whose battles are among `tokens`, the battle tokens left).
fn arrows(eco: &EconomySession, tokens: &[Site]) -> Vec<(PlayerId, PlannedMove)> {
    let g = &eco.game;
    match g.phase {
        Phase::Planning => eco
            .actor()
            .and_then(|p| eco.ui.drafts.get(&p).map(|d| (p, d)))
            .map(|(p, d)| d.iter().map(|&m| (p, m)).collect())
            .unwrap_or_default(),
        Phase::Moving => g
            .plans
            .iter()
            .flat_map(|(&p, ms)| ms.iter().map(move |&m| (p, m)))
            .collect(),
        // In combat, only the moves whose battles are still to be fought: a move ends in a
        // battle in the region it goes to, or on the border it crosses.
        Phase::Combat => {
            let open = |m: &PlannedMove| {
                tokens.contains(&Site::Region(m.to)) || tokens.contains(&Site::border(m.from, m.to))
            };
            g.plans
                .iter()
                .flat_map(|(&p, ms)| ms.iter().filter(|m| open(m)).map(move |&m| (p, m)))
                .collect()
        }
        _ => vec![],
    }
}

/// A move's units as the map writes them: "3", "2N", "3+2N".
fn units_text(armies: u32, navies: u32) -> String {
    match (armies, navies) {
        (a, 0) => format!("{a}"),
        (0, n) => format!("{n}N"),
        (a, n) => format!("{a}+{n}N"),
    }
}

/// The map's key: every icon and mark the board draws, in words.
pub fn legend() -> Html {
    const KEY: [(&str, &str); 13] = [
        ("3", "armies (a box in the owner's colour)"),
        ("2N", "navies; 3+2N: 3 armies and 2 navies"),
        ("★", "capital"),
        ("▲", "army base (one per base)"),
        ("⚓", "navy base"),
        ("═", "roads"),
        ("▣", "fortifications"),
        ("≈", "canal"),
        (
            "⚔",
            "battle token: a battle to fight here (on a border: a border battle)",
        ),
        ("◎", "siege"),
        ("⊗", "blockade"),
        (
            "- -",
            "red dashed outline: contested (hostile units inside)",
        ),
        (
            "→",
            "a planned move with its units; gold outline: where the selected units can go",
        ),
    ];
    html! {
        <details class="legend" id="legend">
            <summary>{"Map key"}</summary>
            <dl>{ for KEY.iter().map(|(k, v)| html! { <><dt>{*k}</dt><dd>{*v}</dd></> }) }</dl>
        </details>
    }
}

pub fn board(v: &View) -> Html {
    let Some(eco) = v.eco else { return html! {} };
    let g = &eco.game;
    let map = EconomyMap::get();
    let shapes = shapes();
    let tokens: Vec<Site> = g
        .combat
        .as_ref()
        .map(|c| c.tokens.iter().copied().collect())
        .unwrap_or_default();
    let current = g
        .combat
        .as_ref()
        .and_then(|c| c.battle.as_ref())
        .map(|b| b.site);
    let moving = eco.moving();
    // Where the selected units may go, once a move's start is chosen and before its end is.
    let dests = match (eco.ui.sel, eco.ui.to, eco.actor()) {
        (Some(from), None, Some(p)) if moving => g.destinations(map, p, from),
        _ => Default::default(),
    };
    // The coastal seas first, the land over them: where a sea's outline runs under the coast,
    // the land is drawn on top and takes the click (a click meant for a country never picks
    // the sea around it). The seas take no tab stop (`tabindex="-1"`), so Tab visits the
    // countries, not 46 seas first; the arrow keys reach a sea from its coast (`keynav`).
    let n = map.regions.len();
    let order = (0..n)
        .filter(|&i| map.is_water(i as RegionId))
        .chain((0..n).filter(|&i| !map.is_water(i as RegionId)));
    let regions = order.map(|i| {
        let reg = &map.regions[i];
        let r = i as RegionId;
        let rs = &g.regions[i];
        let water = map.is_water(r);
        let fill = match rs.owner {
            Some(p) => format!("url(#ep{})", p % 6),
            None if water => "#bcd9ef".into(),
            None if rs.neutral.units() > 0 => "#b9ad8f".into(),
            None => "#e8e2d0".into(),
        };
        let d = &shapes[i].0;
        let mut class = classes!("region", if water { "water" } else { "land" });
        if eco.ui.sel == Some(r) {
            class.push("sel");
        }
        if eco.ui.to == Some(r) {
            class.push("target");
        }
        if g.contested(r) {
            class.push("contested");
        }
        if dests.contains(&r) {
            class.push("dest");
        }
        if tokens.contains(&Site::Region(r)) {
            class.push("token");
        }
        if current == Some(Site::Region(r)) {
            class.push("battle");
        }
        let onclick = {
            let d = v.dispatcher();
            Callback::from(move |_: MouseEvent| d.dispatch(EMsg::Click(r)))
        };
        // A drag from here picks a move. A finger drags only from a region where the player
        // moving has units (marked `drag-from`); two taps still pick a move.
        let drag_from = moving
            && eco
                .actor()
                .and_then(|p| rs.forces.get(&p))
                .is_some_and(|f| f.units() > 0);
        if drag_from {
            class.push("drag-from");
        }
        let onpointerdown = {
            let d = v.dispatcher();
            Callback::from(move |e: PointerEvent| {
                if e.button() == 0 && (drag_from || e.pointer_type() != "touch") {
                    d.dispatch(EMsg::DragFrom(r));
                }
            })
        };
        let onkeydown = {
            let d = v.dispatcher();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" || e.key() == " " {
                    e.prevent_default();
                    d.dispatch(EMsg::Click(r));
                } else if let Some(dir) = keynav::arrow(&e.key()) {
                    // To the neighbour in that direction (label points, the map's adjacency).
                    e.prevent_default();
                    let at = (shapes[i].1, shapes[i].2);
                    let near = map
                        .neighbours(r)
                        .map(|&n| (n, (shapes[n as usize].1, shapes[n as usize].2)));
                    if let Some(n) = keynav::toward(at, dir, near, Some(VIEWBOX[2])) {
                        crate::store::focus(&format!("r-{}", map.regions[n as usize].key));
                    }
                }
            })
        };
        let owner_name = rs
            .owner
            .map_or("nobody".to_string(), |p| eco.name(p).to_string());
        let label = format!("{}, held by {owner_name}", reg.name);
        let style = if water && rs.owner.is_some() {
            format!("fill:{fill};fill-opacity:.55")
        } else {
            format!("fill:{fill}")
        };
        html! {
            <g id={format!("r-{}", reg.key)} class={class} tabindex={if water { "-1" } else { "0" }} role="button"
                aria-label={label.clone()} data-key={reg.key.clone()}
                data-owner={rs.owner.map_or(String::new(), |p| p.to_string())}
                data-r={r.to_string()} {onclick} {onpointerdown} {onkeydown}>
                <title>{label}</title>
                <path class="shape" d={d.clone()} {style}/>
            </g>
        }
    });
    let v0 = view(eco);
    let s = glyphs::glyph_units(v0, glyphs::board_px());
    let laid = glyphs::lay_out(
        &(0..map.regions.len())
            .map(|i| {
                let r = i as RegionId;
                let mut marks = vec![];
                if tokens.contains(&Site::Region(r)) {
                    marks.push(Mark::Token);
                }
                marks.extend(units(eco, r).into_iter().map(|(p, t)| Mark::Units(p, t)));
                marks.extend(icons(eco, r).chars().map(Mark::Icon));
                ((shapes[i].1, shapes[i].2), marks)
            })
            .collect::<Vec<_>>(),
        s,
    );
    // Region names: the selected region's, the target's and where the selected units may go
    // always; any other region's while it is under the pointer or focused (`name_css`).
    let taken: Vec<[f32; 4]> = laid.iter().flatten().map(glyphs::placed_box).collect();
    let planned = arrows(eco, &tokens);
    let shown = |r: RegionId| {
        eco.ui.sel == Some(r)
            || eco.ui.to == Some(r)
            || dests.contains(&r)
            || (g.phase == Phase::Planning && planned.iter().any(|(_, m)| m.to == r))
    };
    let tags = glyphs::place_names(
        &taken,
        &(0..n)
            .map(|i| {
                let r = i as RegionId;
                (anchor(r), map.regions[i].name.chars().count(), shown(r))
            })
            .collect::<Vec<_>>(),
        s,
    );
    // A name at the map's edge is moved in whole rather than clipped by it.
    let tags: Vec<_> = tags
        .into_iter()
        .map(|mut t| {
            let (x0, y0, x1, y1) = (v0[0], v0[1], v0[0] + v0[2], v0[1] + v0[3]);
            if t.w < x1 - x0 {
                t.x = t.x.clamp(x0 + t.w / 2.0, x1 - t.w / 2.0);
            }
            if t.h < y1 - y0 {
                t.y = t.y.clamp(y0 + t.h / 2.0, y1 - t.h / 2.0);
            }
            t
        })
        .collect();
    let names = tags.iter().enumerate().map(|(i, t)| {
        let reg = &map.regions[i];
        html! {
            <g id={format!("n-{}", reg.key)} class={classes!("rname", shown(i as RegionId).then_some("on"))}>
                <rect x={f2(t.x - t.w / 2.0)} y={f2(t.y - t.h / 2.0)} width={f2(t.w)} height={f2(t.h)} rx={f2(0.3 * s)}/>
                <text x={f2(t.x)} y={f2(t.y)}>{&reg.name}</text>
            </g>
        }
    });
    // What an arrow's count must not cover: the marks and the names on show.
    let mut busy = taken.clone();
    busy.extend(
        tags.iter()
            .enumerate()
            .filter(|&(i, _)| shown(i as RegionId))
            .map(|(_, t)| {
                [
                    t.x - t.w / 2.0,
                    t.y - t.h / 2.0,
                    t.x + t.w / 2.0,
                    t.y + t.h / 2.0,
                ]
            }),
    );
    // Each region's marks (its counts and icons), which its arrows start and end outside of.
    let own: Vec<Vec<[f32; 4]>> = laid
        .iter()
        .map(|l| l.iter().map(glyphs::placed_box).collect())
        .collect();
    let marks = laid.into_iter().flatten().map(|p| mark(&p, s));
    let borders = tokens.iter().filter_map(|&t| match t {
        Site::Border(a, b) => {
            let ((x1, y1), (x2, y2)) = (anchor(a), anchor(b));
            let (x, y) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let cls = classes!(
                "tok",
                "border-tok",
                (current == Some(t)).then_some("battle")
            );
            Some(html! { <text x={f1(x)} y={f1(y)} class={cls}>{"⚔"}</text> })
        }
        Site::Region(_) => None,
    });
    let moves = planned.iter().map(|&(p, m)| {
        // From the middle of the marks where the units stand to that of the marks where they
        // go, cut where it leaves the first and before it enters the second: neither the line
        // nor its head crosses a count or an icon of its ends (issue 60, second review).
        let middle = |r: RegionId| {
            own.get(r as usize)
                .and_then(|b| {
                    b.iter().copied().reduce(|a, b| {
                        [
                            a[0].min(b[0]),
                            a[1].min(b[1]),
                            a[2].max(b[2]),
                            a[3].max(b[3]),
                        ]
                    })
                })
                .map_or(anchor(r), |b| ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0))
        };
        let ((x1, y1), (x2, y2)) = (middle(m.from), middle(m.to));
        let len = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt().max(0.01);
        let (ux, uy) = ((x2 - x1) / len, (y2 - y1) / len);
        let pad = 0.25 * s;
        let inside = |r: RegionId, (x, y): (f32, f32)| {
            own.get(r as usize).is_some_and(|b| {
                b.iter()
                    .any(|b| x > b[0] - pad && x < b[2] + pad && y > b[1] - pad && y < b[3] + pad)
            })
        };
        // How far along the line from (x, y) in direction `dir` it leaves `r`'s marks.
        let out_of = |r: RegionId, (x, y): (f32, f32), dir: f32| {
            let step = 0.1 * s;
            let mut t = 0.0;
            while t < len * 0.4 && inside(r, (x + dir * ux * t, y + dir * uy * t)) {
                t += step;
            }
            t
        };
        let a = out_of(m.from, (x1, y1), 1.0).max((0.5 * s).min(len / 4.0));
        // The head (about 0.6 glyphs long) ends short of the marks.
        let b = (out_of(m.to, (x2, y2), -1.0) + 0.3 * s).min(len * 0.45);
        let ((x1, y1), (x2, y2)) = ((x1 + ux * a, y1 + uy * a), (x2 - ux * b, y2 - uy * b));
        // The count sits on the arrow, a little short of its middle so that two arrows
        // between the same regions in opposite directions do not cover each other's, or
        // nearer either end where that would cover a count or an icon.
        let text = units_text(m.armies, m.navies);
        let (w, h) = ((0.6 * text.chars().count() as f32 + 0.3) * s, 1.1 * s);
        let at = |t: f32| (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t);
        let free = |(x, y): (f32, f32)| {
            let b = [x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0];
            !busy.iter().any(|&t| glyphs::overlaps(t, b))
        };
        let (lx, ly) = [0.4, 0.3, 0.5, 0.2, 0.6, 0.1, 0.7, 0.8]
            .into_iter()
            .map(at)
            .find(|&q| free(q))
            .unwrap_or(at(0.4));
        html! {
            <g class="plan-move">
                <line class="plan" x1={f1(x1)} y1={f1(y1)} x2={f1(x2)} y2={f1(y2)}
                    style={format!("stroke:{}", colour(p))} marker-end="url(#earrow)"/>
                <text class="plan-count" x={f1(lx)} y={f1(ly)}
                    style={format!("fill:{}", colour(p))}>{text}</text>
            </g>
        }
    });
    let vb = format!("{} {} {} {}", f1(v0[0]), f1(v0[1]), f1(v0[2]), f1(v0[3]));
    let zbtn = |label: &'static str, aria: &'static str, f: Option<f32>| {
        let d = v.dispatcher();
        let onclick = Callback::from(move |_: MouseEvent| d.dispatch(EMsg::Zoom(f)));
        html! { <button class="zbtn" aria-label={aria} title={aria} {onclick}>{label}</button> }
    };
    html! {
        <>
        <glyphs::ResizeWatch on={v.send.reform(|_| EMsg::Resized)}/>
        <div class="zoom">
            { zbtn("+", "Zoom in (on the selected region)", Some(1.0 / 1.6)) }
            { zbtn("−", "Zoom out", Some(1.6)) }
            { zbtn("⟲", "Back to the players' area", None) }
        </div>
        // While a move can be picked a finger on the map drags one rather than scrolling the
        // page (Chromium ignores `touch-action` on the SVG's own regions, so it is set here).
        // On a phone the map is wider than the screen and scrolls sideways inside this box
        // (the zoom buttons stay put outside it).
        <div class="board-scroll">
        // Marks, arrows and outlines are sized in ems of the glyph size, which keeps them one
        // size on screen at every zoom (`glyphs`).
        <svg class={classes!("board", "economy-board", moving.then_some("moving"))} id="board" viewBox={vb} role="group" aria-label="Economy map"
            style={format!("font-size:{}px", f2(s))} data-glyph={f2(s)}
            onpointerup={drag_end(v)}>
            { defs() }
            <rect x="0" y="0" width={f1(VIEWBOX[2])} height={f1(VIEWBOX[3])} class="ocean"/>
            { for regions }
            <g class="labels" aria-hidden="true">{ for marks }</g>
            <g class="moves">{ for moves }</g>
            <g class="borders">{ for borders }</g>
            <g class="rnames" aria-hidden="true">{ for names }</g>
            <style>{ name_css() }</style>
        </svg>
        </div>
        </>
    }
}

/// Shows a region's name tag while the region is under the pointer or has the keyboard's
/// focus: one rule per region (CSS cannot match a tag to its region otherwise), so hovering
/// draws nothing again. Not for a finger's tap (its hover and focus stuck on the last region
/// touched, looking like one of the planning's targets).
fn name_css() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(|| {
        let rule = |state: &str| {
            EconomyMap::get()
                .regions
                .iter()
                .map(|r| {
                    let k = &r.key;
                    format!("#board:has(#r-{k}:{state}) #n-{k}")
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "@media (hover:hover){{{}{{display:inline}}}}{}{{display:inline}}",
            rule("hover"),
            rule("focus-visible")
        )
    })
}

/// One mark as the board draws it: a count in a box of its owner's colour, an icon, a battle
/// token.
fn mark(p: &glyphs::Placed, s: f32) -> Html {
    match &p.mark {
        Mark::Units(owner, t) => {
            let fill = owner.map_or("#6b5f45", colour);
            html! {
                <g class="units">
                    <rect x={f2(p.x - p.w / 2.0)} y={f2(p.y - p.h / 2.0)} width={f2(p.w)} height={f2(p.h)}
                        rx={f2(0.3 * s)} style={format!("fill:{fill}")}/>
                    <text x={f2(p.x)} y={f2(p.y)} class="count">{t}</text>
                </g>
            }
        }
        Mark::Icon(c) => {
            html! { <text x={f2(p.x)} y={f2(p.y)} class="icon">{c.to_string()}</text> }
        }
        Mark::Token => html! { <text x={f2(p.x)} y={f2(p.y)} class="tok">{"⚔"}</text> },
    }
}

/// A number with two decimals (a glyph is a few map units wide when zoomed in).
fn f2(v: f32) -> String {
    let h = (v * 100.0).round() as i64;
    let sign = if h < 0 { "-" } else { "" };
    let a = h.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}
