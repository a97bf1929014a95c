//! "My games": what this device keeps of each game, for the list every page shows.
//!
//! The hot-seat game is the autosave (`store::SAVE_KEY` and its companions): one at a time. An
//! online room is every `orbis.p2p.id.<room>` key this browser holds (the identity that lets a
//! reload rejoin the same seat, `online::session::identity`); beside it the online page keeps a
//! short description, [`Record`], under `orbis.p2p.game.<room>`, written whenever what it says
//! changes (`online::days::note`): the ruleset, the players, where the game stands, and for a
//! game over days what is due and by when. It is plain text, so the lite page lists the rooms
//! without linking the protocol. A room joined before records were kept has none: the list says
//! so, and opening it writes one.

use crate::store;

/// Prefix of the key holding this browser's identity in a room (`online::session::id_key`).
pub const ID_PREFIX: &str = "orbis.p2p.id.";
/// Prefix of a room's [`Record`].
const RECORD_PREFIX: &str = "orbis.p2p.game.";
/// Every key the online page keeps for a room starts so and ends with `.<room>`.
const ROOM_KEYS: &str = "orbis.p2p.";
#[cfg_attr(not(feature = "online"), allow(dead_code))]
/// At most this many deadlines are kept per game (the calendar file's events).
const MAX_DEADLINES: usize = 64;

/// A room's secret as the page shows it: enough to compare by eye.
pub fn short(room: &str) -> String {
    if room.chars().count() > 12 {
        format!("{}…", room.chars().take(8).collect::<String>())
    } else {
        room.to_string()
    }
}

/// What the online page last saw of a room.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The room's link after `#`: `room=SECRET`, with the relays or signalling server it meets
    /// through (`&relays=…`), so that opening it from the list finds the game where it lives.
    pub link: String,
    /// "Orders: Europe 1901", "Classic", "Economy" (empty: no game proposed yet).
    pub ruleset: String,
    /// "Ann (France), Bob (England), 5 computer powers".
    pub players: String,
    /// Where the game stands: "Spring 1903 movement", "In the lobby", "Game over: …".
    pub stands: String,
    /// A game over days (else live: everyone at the table together).
    pub days: bool,
    /// What this player must do next and by when (UTC, Unix seconds), if anything.
    pub due: Option<(String, u64)>,
    /// Every deadline this page has known (label, UTC Unix seconds), oldest first.
    pub deadlines: Vec<(String, u64)>,
    /// When this page last saw the game (Unix seconds).
    pub seen_s: u64,
}

/// One line's text: no tabs or line breaks (they separate the fields).
fn clean(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

impl Record {
    /// The text kept in localStorage: one `field<TAB>value` line each.
    pub fn to_text(&self) -> String {
        let mut t = format!(
            "link\t{}\nruleset\t{}\nplayers\t{}\nstands\t{}\ndays\t{}\nseen\t{}\n",
            clean(&self.link),
            clean(&self.ruleset),
            clean(&self.players),
            clean(&self.stands),
            u8::from(self.days),
            self.seen_s
        );
        if let Some((what, at)) = &self.due {
            t.push_str(&format!("due\t{at}\t{}\n", clean(what)));
        }
        for (what, at) in &self.deadlines {
            t.push_str(&format!("deadline\t{at}\t{}\n", clean(what)));
        }
        t
    }

    /// Reads [`Record::to_text`]; unknown lines are skipped (a later page may add fields).
    pub fn from_text(t: &str) -> Record {
        let mut r = Record::default();
        for line in t.lines() {
            let mut f = line.splitn(3, '\t');
            let (k, a, b) = (f.next(), f.next().unwrap_or(""), f.next());
            let timed = || Some((b?.to_string(), a.parse::<u64>().ok()?));
            match k {
                Some("link") => r.link = a.into(),
                Some("ruleset") => r.ruleset = a.into(),
                Some("players") => r.players = a.into(),
                Some("stands") => r.stands = a.into(),
                Some("days") => r.days = a == "1",
                Some("seen") => r.seen_s = a.parse().unwrap_or(0),
                Some("due") => r.due = timed(),
                Some("deadline") => r.deadlines.extend(timed()),
                _ => {}
            }
        }
        r
    }

    #[cfg_attr(not(feature = "online"), allow(dead_code))]
    /// Adds a deadline to the calendar's list, once, keeping the newest [`MAX_DEADLINES`].
    pub fn add_deadline(&mut self, what: &str, at: u64) {
        if self.deadlines.iter().any(|(w, a)| w == what && *a == at) {
            return;
        }
        self.deadlines.push((clean(what), at));
        self.deadlines.sort_by_key(|(_, a)| *a);
        let extra = self.deadlines.len().saturating_sub(MAX_DEADLINES);
        self.deadlines.drain(..extra);
    }
}

/// A room this browser holds a key for, with what the online page last saw of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Room {
    pub room: String,
    pub record: Option<Record>,
}

fn storage() -> Option<web_sys::Storage> {
    if cfg!(not(target_arch = "wasm32")) {
        return None; // native unit tests: no browser
    }
    web_sys::window()?.local_storage().ok()?
}

/// Every localStorage key (the list is read whole: removing while walking it skips keys).
fn keys() -> Vec<String> {
    let Some(s) = storage() else { return vec![] };
    let n = s.length().unwrap_or(0);
    (0..n).filter_map(|i| s.key(i).ok().flatten()).collect()
}

/// The record of `room`, if the online page wrote one.
pub fn record(room: &str) -> Option<Record> {
    store::get(&format!("{RECORD_PREFIX}{room}")).map(|t| Record::from_text(&t))
}

/// Keeps the record of `room` (when it differs from the one kept).
#[cfg_attr(not(feature = "online"), allow(dead_code))]
pub fn put(room: &str, r: &Record) {
    let text = r.to_text();
    let key = format!("{RECORD_PREFIX}{room}");
    if store::get(&key).as_deref() != Some(text.as_str()) {
        store::set(&key, &text);
    }
}

/// Every online room this browser holds a key for, the one seen last first.
pub fn rooms() -> Vec<Room> {
    let mut rooms: Vec<Room> = keys()
        .iter()
        .filter_map(|k| k.strip_prefix(ID_PREFIX))
        .map(|room| Room {
            room: room.to_string(),
            record: record(room),
        })
        .collect();
    rooms.sort_by_key(|r| std::cmp::Reverse(r.record.as_ref().map_or(0, |r| r.seen_s)));
    rooms
}

/// The keys this browser keeps for `room`: its identity, record, remembered reveals and kept
/// commitments (`orbis.p2p.<what>.<room>`), for a backup or a removal.
pub fn room_keys(room: &str) -> Vec<String> {
    let end = format!(".{room}");
    keys()
        .into_iter()
        .filter(|k| {
            k.strip_prefix(ROOM_KEYS)
                .and_then(|rest| rest.strip_suffix(&end))
                .is_some_and(|what| !what.is_empty() && !what.contains('.'))
        })
        .collect()
}

/// Forgets `room` on this device: its key (so this browser no longer holds the seat) and
/// everything kept beside it.
pub fn forget_room(room: &str) {
    for k in room_keys(room) {
        store::remove(&k);
    }
}

/// Forgets the hot-seat game (the autosave and what is kept beside it).
pub fn forget_save() {
    for k in [
        store::SAVE_KEY,
        store::HISTORY_KEY,
        store::LOG_KEY,
        store::ORDERS_SEATS_KEY,
        store::ORDERS_UI_KEY,
        store::ECONOMY_SEATS_KEY,
        store::ECONOMY_UI_KEY,
    ] {
        store::remove(k);
    }
}

/// A UTC time as "Tue 8 Dec 2026, 14:00 UTC" (the page shows local times where it can,
/// [`local_time`]).
pub fn utc_words(at: u64) -> String {
    let (y, m, d, hh, mm, _) = civil(at);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    let wd = DAYS[((at / 86_400) % 7) as usize];
    format!(
        "{wd} {d} {} {y}, {hh:02}:{mm:02} UTC",
        MONTHS[m as usize - 1]
    )
}

/// A time in the player's own time zone ("Tue, 8 Dec, 15:00"), as the browser words it; UTC
/// natively.
pub fn local_time(at: u64) -> String {
    if cfg!(not(target_arch = "wasm32")) {
        return utc_words(at);
    }
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(at as f64 * 1000.0));
    let opts = js_sys::Object::new();
    for (k, v) in [
        ("weekday", "short"),
        ("day", "numeric"),
        ("month", "short"),
        ("hour", "2-digit"),
        ("minute", "2-digit"),
    ] {
        let _ = js_sys::Reflect::set(&opts, &k.into(), &v.into());
    }
    d.to_locale_string("en-GB", &opts).into()
}

/// How far `at` is from `now` in words: "in 14 h", "in 3 days", "2 h ago".
pub fn from_now(at: u64, now: u64) -> String {
    let (d, ago) = if at >= now {
        (at - now, false)
    } else {
        (now - at, true)
    };
    let n = if d < 3_600 {
        format!("{} min", d.div_ceil(60).max(1))
    } else if d < 2 * 86_400 {
        format!("{} h", d / 3_600)
    } else {
        format!("{} days", d / 86_400)
    };
    if ago {
        format!("{n} ago")
    } else {
        format!("in {n}")
    }
}

/// Unix seconds as (year, month 1-12, day, hour, minute, second), UTC (the proleptic Gregorian
/// calendar; Howard Hinnant's `civil_from_days`).
pub fn civil(at: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (at / 86_400) as i64;
    let secs = (at % 86_400) as u32;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d, secs / 3_600, secs / 60 % 60, secs % 60)
}

/// Now, in Unix seconds (0 natively).
pub fn now_s() -> u64 {
    if cfg!(not(target_arch = "wasm32")) {
        return 0;
    }
    (js_sys::Date::now() / 1000.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written_and_skips_what_it_does_not_know() {
        let mut r = Record {
            link: "room=abc&relays=wss://a.example,wss://b.example".into(),
            ruleset: "Orders: Europe 1901".into(),
            players: "Ann (France), Bob\t(England)".into(),
            stands: "Spring 1903 movement".into(),
            days: true,
            due: Some(("Your orders".into(), 1_800_000_000)),
            deadlines: vec![],
            seen_s: 1_799_900_000,
        };
        r.add_deadline("Spring 1903 movement", 1_800_000_000);
        r.add_deadline("Fall 1902 builds", 1_799_000_000);
        r.add_deadline("Spring 1903 movement", 1_800_000_000);
        let back = Record::from_text(&format!("{}future\tfield\n", r.to_text()));
        assert_eq!(back.players, "Ann (France), Bob (England)");
        assert_eq!(back.deadlines.len(), 2);
        assert_eq!(back.deadlines[0].0, "Fall 1902 builds");
        let mut expect = r.clone();
        expect.players = back.players.clone();
        assert_eq!(back, expect);
        assert_eq!(Record::from_text(""), Record::default());
    }

    #[test]
    fn utc_words_and_distances() {
        // 2026-12-08 14:00:00 UTC was a Tuesday.
        assert_eq!(civil(1_796_738_400), (2026, 12, 8, 14, 0, 0));
        assert_eq!(utc_words(1_796_738_400), "Tue 8 Dec 2026, 14:00 UTC");
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(civil(951_782_400), (2000, 2, 29, 0, 0, 0));
        assert_eq!(from_now(1_000 + 14 * 3_600 + 59, 1_000), "in 14 h");
        assert_eq!(from_now(1_000 + 30, 1_000), "in 1 min");
        assert_eq!(from_now(1_000 + 3 * 86_400, 1_000), "in 3 days");
        assert_eq!(from_now(1_000, 1_000 + 7_200), "2 h ago");
    }
}
