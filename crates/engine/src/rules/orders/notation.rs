//! Standard order notation: `A PAR - BUR`, `F MAO - SPA/NC`, `A MAR S A PAR - BUR`,
//! `A MAR S A PAR`, `F NTH C A LON - NWY`, `A PAR H`, `A LON - BEL VIA CONVOY`, retreats
//! `A PAR R BUR` (or `A PAR - BUR`), disbands `A PAR D`, builds `A PAR B`, `F STP/SC B`.
//!
//! House options: `A WAR COMBINE A LVN`; with "fleets face a sea", a fleet build names the sea
//! the fleet faces, `F BRE B FACING MAO` (or `F BRE B MAO`). Moves need no facing: a fleet
//! faces the sea it arrives from or sails along, and the unit in an order is named as usual
//! (`F BRE - PIC`); the board shows the facing.
//!
//! Parsing is case-insensitive and accepts the long words (`HOLD`, `SUPPORTS`, `CONVOYS`,
//! `RETREAT`, `DISBAND`, `BUILD`), `->` for `-`, and coasts as `SPA/NC` or `SPA(NC)`.

use super::adjudicator::{Loc, UnitType};
use super::map::{OrdersMap, ProvinceKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What an order asks, with locations as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Spec {
    Hold,
    Move {
        to: Loc,
        via_convoy: bool,
    },
    SupportHold {
        kind: Option<UnitType>,
        target: Loc,
    },
    SupportMove {
        kind: Option<UnitType>,
        from: Loc,
        to: Loc,
    },
    Convoy {
        from: Loc,
        to: Loc,
    },
    Retreat {
        to: Loc,
    },
    Disband,
    Build,
    /// House option: merge into the unit of the same power in `into` (`A WAR COMBINE A LVN`).
    Combine {
        into: Loc,
    },
    /// House option "fleets face a sea": build a fleet facing `sea` (`F BRE B FACING MAO`).
    /// Last variant, so older encodings of the others stay valid.
    BuildFacing {
        sea: super::map::ProvinceId,
    },
}

/// One written order: the unit it names, and what it asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    pub kind: UnitType,
    pub at: Loc,
    pub spec: Spec,
}

/// Why a line of notation could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotationError {
    Empty,
    UnitType(String),
    Province(String),
    Missing(&'static str),
    Unexpected {
        token: String,
        expected: &'static str,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "The order is empty."),
            NotationError::UnitType(t) => {
                write!(
                    f,
                    "`{t}` is not a unit type: write A for an army or F for a fleet."
                )
            }
            NotationError::Province(p) => {
                write!(f, "`{p}` is not a province (or coast) on this map.")
            }
            NotationError::Missing(what) => {
                write!(f, "The order stops too early: {what} is missing.")
            }
            NotationError::Unexpected { token, expected } => {
                write!(
                    f,
                    "`{token}` was not expected here: {expected} should come next."
                )
            }
        }
    }
}

impl std::error::Error for NotationError {}

fn tokens(text: &str) -> Vec<String> {
    let spaced = text.replace("->", " - ").replace('-', " - ");
    spaced
        .split_whitespace()
        .map(|t| t.to_ascii_uppercase())
        .collect()
}

struct Cursor<'a> {
    map: &'a OrdersMap,
    toks: Vec<String>,
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|s| s.as_str())
    }

    fn next(&mut self, what: &'static str) -> Result<String, NotationError> {
        let t = self
            .toks
            .get(self.pos)
            .cloned()
            .ok_or(NotationError::Missing(what))?;
        self.pos += 1;
        Ok(t)
    }

    fn kind(&mut self) -> Result<UnitType, NotationError> {
        let t = self.next("the unit type (A or F)")?;
        match t.as_str() {
            "A" | "ARMY" => Ok(UnitType::Army),
            "F" | "FLEET" => Ok(UnitType::Fleet),
            _ => Err(NotationError::UnitType(t)),
        }
    }

    fn opt_kind(&mut self) -> Option<UnitType> {
        let k = match self.peek()? {
            "A" | "ARMY" => UnitType::Army,
            "F" | "FLEET" => UnitType::Fleet,
            _ => return None,
        };
        self.pos += 1;
        Some(k)
    }

    fn loc(&mut self) -> Result<Loc, NotationError> {
        let t = self.next("a province")?;
        self.map.parse_loc(&t).ok_or(NotationError::Province(t))
    }

    fn expect_dash(&mut self) -> Result<(), NotationError> {
        let t = self.next("`-`")?;
        if t == "-" {
            Ok(())
        } else {
            Err(NotationError::Unexpected {
                token: t,
                expected: "`-`",
            })
        }
    }

    fn end(&self) -> Result<(), NotationError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(NotationError::Unexpected {
                token: t.to_string(),
                expected: "the end of the order",
            }),
        }
    }
}

/// Parses one order written in standard notation.
pub fn parse(map: &OrdersMap, text: &str) -> Result<Written, NotationError> {
    let toks = tokens(text);
    if toks.is_empty() {
        return Err(NotationError::Empty);
    }
    let mut c = Cursor { map, toks, pos: 0 };
    let kind = c.kind()?;
    let at = c.loc()?;
    let verb = c.next("the order (H, -, S, C, R, D or B)")?;
    let spec = match verb.as_str() {
        "H" | "HOLD" | "HOLDS" => Spec::Hold,
        "-" | "M" | "MOVE" | "MOVES" => {
            let to = c.loc()?;
            let mut via_convoy = false;
            if c.peek() == Some("VIA") {
                c.pos += 1;
                let t = c.next("`CONVOY` after `VIA`")?;
                if t != "CONVOY" {
                    return Err(NotationError::Unexpected {
                        token: t,
                        expected: "`CONVOY`",
                    });
                }
                via_convoy = true;
            }
            Spec::Move { to, via_convoy }
        }
        "S" | "SUPPORT" | "SUPPORTS" => {
            let skind = c.opt_kind();
            let from = c.loc()?;
            match c.peek() {
                Some("-") => {
                    c.pos += 1;
                    let to = c.loc()?;
                    Spec::SupportMove {
                        kind: skind,
                        from,
                        to,
                    }
                }
                Some("H") | Some("HOLD") => {
                    c.pos += 1;
                    Spec::SupportHold {
                        kind: skind,
                        target: from,
                    }
                }
                _ => Spec::SupportHold {
                    kind: skind,
                    target: from,
                },
            }
        }
        "C" | "CONVOY" | "CONVOYS" => {
            if let Some(k) = c.opt_kind() {
                if k != UnitType::Army {
                    return Err(NotationError::Unexpected {
                        token: "F".into(),
                        expected: "an army (only armies are convoyed)",
                    });
                }
            }
            let from = c.loc()?;
            c.expect_dash()?;
            let to = c.loc()?;
            Spec::Convoy { from, to }
        }
        "R" | "RETREAT" | "RETREATS" => Spec::Retreat { to: c.loc()? },
        "D" | "DISBAND" | "DISBANDS" => Spec::Disband,
        "B" | "BUILD" | "BUILDS" => {
            if c.peek() == Some("FACING") {
                c.pos += 1;
            }
            match c.peek() {
                None => Spec::Build,
                Some(_) => {
                    let t = c.next("a sea")?;
                    match map.province(&t) {
                        Some(sea) if map.provinces[sea as usize].kind == ProvinceKind::Sea => {
                            Spec::BuildFacing { sea }
                        }
                        _ => return Err(NotationError::Province(t)),
                    }
                }
            }
        }
        "COMBINE" | "COMBINES" => {
            c.opt_kind();
            Spec::Combine { into: c.loc()? }
        }
        _ => {
            return Err(NotationError::Unexpected {
                token: verb,
                expected: "H, -, S, C, R, D or B",
            })
        }
    };
    c.end()?;
    Ok(Written { kind, at, spec })
}

/// Prints an order in standard notation, e.g. `F NTH C A LON - NWY`.
pub fn print(map: &OrdersMap, w: &Written) -> String {
    let unit = format!("{} {}", w.kind.letter(), map.loc_name(w.at));
    let k = |k: Option<UnitType>| k.map(|k| format!("{} ", k.letter())).unwrap_or_default();
    match w.spec {
        Spec::Hold => format!("{unit} H"),
        Spec::Move { to, via_convoy } => format!(
            "{unit} - {}{}",
            map.loc_name(to),
            if via_convoy { " VIA CONVOY" } else { "" }
        ),
        Spec::SupportHold { kind, target } => {
            format!("{unit} S {}{}", k(kind), map.loc_name(target))
        }
        Spec::SupportMove { kind, from, to } => format!(
            "{unit} S {}{} - {}",
            k(kind),
            map.loc_name(from),
            map.loc_name(to)
        ),
        Spec::Convoy { from, to } => {
            format!("{unit} C A {} - {}", map.loc_name(from), map.loc_name(to))
        }
        Spec::Retreat { to } => format!("{unit} R {}", map.loc_name(to)),
        Spec::Disband => format!("{unit} D"),
        Spec::Build => format!("{unit} B"),
        Spec::BuildFacing { sea } => format!("{unit} B FACING {}", map.key(sea)),
        Spec::Combine { into } => {
            format!("{unit} COMBINE {} {}", w.kind.letter(), map.loc_name(into))
        }
    }
}

/// Prints a unit: `A PAR`, `F STP/SC`.
pub fn print_unit(map: &OrdersMap, kind: UnitType, at: Loc) -> String {
    format!("{} {}", kind.letter(), map.loc_name(at))
}

/// Parses a unit: `A PAR`, `F STP/SC`.
pub fn parse_unit(map: &OrdersMap, text: &str) -> Result<(UnitType, Loc), NotationError> {
    let toks = tokens(text);
    if toks.is_empty() {
        return Err(NotationError::Empty);
    }
    let mut c = Cursor { map, toks, pos: 0 };
    let kind = c.kind()?;
    let at = c.loc()?;
    c.end()?;
    Ok((kind, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(s: &str) -> String {
        let m = OrdersMap::europe();
        print(m, &parse(m, s).unwrap())
    }

    #[test]
    fn round_trips() {
        for s in [
            "A PAR - BUR",
            "F MAO - SPA/NC",
            "A MAR S A PAR - BUR",
            "A MAR S A PAR",
            "F NTH C A LON - NWY",
            "A PAR H",
            "A PAR R BUR",
            "A PAR D",
            "A PAR B",
            "F STP/SC B",
            "A LON - BEL VIA CONVOY",
            "A WAR COMBINE A LVN",
            "F BRE B FACING MAO",
        ] {
            assert_eq!(round(s), s);
        }
        assert_eq!(round("a par -> bur"), "A PAR - BUR");
        assert_eq!(round("F spa(sc) supports F mar"), "F SPA/SC S F MAR");
        assert_eq!(round("A MAR S PAR H"), "A MAR S PAR");
        assert_eq!(round("F nth convoys lon - nwy"), "F NTH C A LON - NWY");
        assert_eq!(round("army par-bur"), "A PAR - BUR");
        assert_eq!(round("f bre build eng"), "F BRE B FACING ENG");
        let m = OrdersMap::europe();
        assert_eq!(
            parse(m, "F BRE B FACING PAR"),
            Err(NotationError::Province("PAR".into()))
        );
    }

    #[test]
    fn errors_are_readable() {
        let m = OrdersMap::europe();
        assert_eq!(parse(m, "  "), Err(NotationError::Empty));
        assert_eq!(
            parse(m, "X PAR H"),
            Err(NotationError::UnitType("X".into()))
        );
        assert_eq!(
            parse(m, "A XYZ H"),
            Err(NotationError::Province("XYZ".into()))
        );
        assert_eq!(
            parse(m, "A PAR/NC H"),
            Err(NotationError::Province("PAR/NC".into()))
        );
        assert_eq!(
            parse(m, "A PAR -"),
            Err(NotationError::Missing("a province"))
        );
        assert!(matches!(
            parse(m, "A PAR Q"),
            Err(NotationError::Unexpected { .. })
        ));
        assert!(matches!(
            parse(m, "A PAR H BUR"),
            Err(NotationError::Unexpected { .. })
        ));
        assert!(matches!(
            parse(m, "F NTH C F LON - BEL"),
            Err(NotationError::Unexpected { .. })
        ));
        let e = parse(m, "A XYZ H").unwrap_err().to_string();
        assert!(e.contains("XYZ"), "{e}");
        assert_eq!(
            parse_unit(m, "F stp/sc"),
            Ok((UnitType::Fleet, m.parse_loc("STP/SC").unwrap()))
        );
    }
}
