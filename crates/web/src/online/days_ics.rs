//! A calendar file (iCalendar, RFC 5545) of a game's deadlines (issue 61 item 6), so that a
//! player's own calendar reminds them when a move is due, with no server of anyone's: one
//! VEVENT per deadline known, at its UTC time, with an alarm an hour before. Pure text.

use crate::games::civil;

/// `at` as an iCalendar UTC date-time: `20261208T140000Z`.
fn stamp(at: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(at);
    format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}Z")
}

/// A TEXT value escaped (RFC 5545 3.3.11): backslash, semicolon, comma, line breaks.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// One content line folded at 75 octets (RFC 5545 3.1: CRLF and a space; never inside a
/// character), with its CRLF.
fn line(out: &mut String, l: &str) {
    let mut width = 0;
    for c in l.chars() {
        if width + c.len_utf8() > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += c.len_utf8();
    }
    out.push_str("\r\n");
}

/// The calendar of a game: `game` names it ("Orbis, Orders: Europe 1901"), `link` opens it,
/// `uid` is the same for the same game on every export (so a calendar updates the events
/// rather than doubling them), `deadlines` are (what is due, UTC Unix seconds), `now` stamps it.
pub fn calendar(
    game: &str,
    link: &str,
    uid: &str,
    deadlines: &[(String, u64)],
    now: u64,
) -> String {
    let mut out = String::new();
    for l in [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Orbis//Games over days//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ] {
        line(&mut out, l);
    }
    for (what, at) in deadlines {
        line(&mut out, "BEGIN:VEVENT");
        line(&mut out, &format!("UID:{at}-{}@orbis", text(uid)));
        line(&mut out, &format!("DTSTAMP:{}", stamp(now)));
        line(&mut out, &format!("DTSTART:{}", stamp(*at)));
        line(&mut out, "DURATION:PT15M");
        line(
            &mut out,
            &format!("SUMMARY:{}", text(&format!("{game}: {what} due"))),
        );
        line(
            &mut out,
            &format!(
                "DESCRIPTION:{}",
                text(&format!("The deadline of {what}. Open the game: {link}"))
            ),
        );
        line(&mut out, &format!("URL:{}", text(link)));
        line(&mut out, "BEGIN:VALARM");
        line(&mut out, "ACTION:DISPLAY");
        line(
            &mut out,
            &format!("DESCRIPTION:{}", text(&format!("{what} is due in an hour"))),
        );
        line(&mut out, "TRIGGER:-PT1H");
        line(&mut out, "END:VALARM");
        line(&mut out, "END:VEVENT");
    }
    line(&mut out, "END:VCALENDAR");
    out
}

/// Offers the calendar file of the game of `room` (its deadlines as "My games" keeps them).
pub fn download(room: &str, r: &crate::games::Record) {
    let loc = super::session::window().location();
    let link = format!(
        "{}{}#{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        r.link
    );
    let name = format!("Orbis, {}", r.ruleset);
    let text = calendar(&name, &link, room, &r.deadlines, crate::games::now_s());
    crate::store::download(
        &format!("orbis-{}.ics", crate::games::short(room).replace('…', "")),
        text.as_bytes(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_event_per_deadline_in_utc_with_folded_escaped_lines() {
        let deadlines = vec![
            ("Spring 1903 movement".to_string(), 1_796_738_400),
            (
                "Spring 1903 retreats; then, builds".to_string(),
                1_796_781_600,
            ),
        ];
        let link = format!("https://example.org/orbis/online/#room={}", "x".repeat(90));
        let c = calendar(
            "Orbis, Orders: Europe 1901",
            &link,
            "k3J9sQ2v",
            &deadlines,
            1_796_700_000,
        );
        assert!(c.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"));
        assert!(c.ends_with("END:VCALENDAR\r\n"));
        assert_eq!(c.matches("BEGIN:VEVENT").count(), 2);
        assert!(c.contains("\r\nDTSTART:20261208T140000Z\r\n"), "{c}");
        assert!(c.contains("\r\nDTSTAMP:20261208T032000Z\r\n"), "{c}");
        assert!(c.contains("SUMMARY:Orbis\\, Orders: Europe 1901: Spring 1903 movement due\r\n"));
        assert!(c.contains("retreats\\; then\\, builds"));
        assert!(c.contains("UID:1796738400-k3J9sQ2v@orbis\r\n"));
        // Every line ends in CRLF and holds at most 75 octets; unfolded, the link is whole.
        for l in c.split("\r\n") {
            assert!(l.len() <= 75 && !l.contains('\n'), "{l:?}");
        }
        assert!(c.replace("\r\n ", "").contains(&format!("URL:{link}\r\n")));
        // No deadline known: a valid empty calendar.
        let empty = calendar("g", "l", "u", &[], 0);
        assert_eq!(empty.matches("VEVENT").count(), 0);
        assert!(empty.contains("PRODID:"));
    }

    #[test]
    fn folding_never_splits_a_character() {
        let mut out = String::new();
        line(&mut out, &format!("SUMMARY:{}", "é".repeat(80)));
        for l in out.split("\r\n") {
            assert!(l.len() <= 75);
        }
        assert_eq!(
            out.replace("\r\n ", "").trim_end(),
            format!("SUMMARY:{}", "é".repeat(80))
        );
    }
}
