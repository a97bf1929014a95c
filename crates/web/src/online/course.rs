//! The course of the online game this page plays, for the statistics charts (issue 60, item 9).
//! An online game keeps no history to replay (its dice are the table's, from the beacon), so the
//! engine samples the states this page sees after each protocol step (`course::Sampler`), and
//! the charts read it (`widgets::chart::set_online`). A page that came in late (reloaded, or
//! joined a game under way) has not seen the start: once the game is over, the course is
//! taken again from the whole transcript as the replay reads it, so the game-over charts cover
//! the whole game on every page.

use crate::widgets::chart;
use orbis_engine::course::Sampler;
use orbis_protocol::Peer;
use std::cell::RefCell;

/// What is kept between steps: the game's tag, the log length last seen, whether the sampler
/// saw the game from its start, the sampler, and whether the course is final (the game over).
#[derive(Default)]
struct Kept {
    tag: Option<[u8; 16]>,
    len: u64,
    whole: bool,
    sampler: Sampler,
    done: bool,
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::new(Kept::default());
}

/// After a protocol step: samples the game's state if the log moved on, and hands the charts
/// the course.
pub(super) fn observe(peer: &Peer) {
    let (Some(tag), Some(g)) = (peer.game_tag(), peer.game()) else {
        return;
    };
    let len = peer.log_len();
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.tag != Some(tag) {
            *k = Kept {
                tag: Some(tag),
                len,
                whole: len == 0,
                ..Kept::default()
            };
            chart::observe(&mut k.sampler, g);
        } else if len == k.len || k.done {
            return;
        } else {
            k.len = len;
            chart::observe(&mut k.sampler, g);
        }
        let mut course = k.sampler.course();
        if g.is_over() {
            k.done = true;
            // Came in late: the whole game from its transcript (once, at the end).
            if !k.whole {
                if let Some(states) = peer
                    .transcript()
                    .and_then(|b| orbis_protocol::peer::replay(&b).ok())
                    .map(|r| r.states)
                {
                    course = chart::of_states(&states);
                }
            }
        }
        chart::set_online(Some(course));
    });
}

/// The page left the room: its game's course is no other game's.
pub(super) fn forget() {
    KEPT.with(|k| *k.borrow_mut() = Kept::default());
    chart::set_online(None);
}
