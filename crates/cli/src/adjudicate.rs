//! `orbis adjudicate`: one phase of the orders ruleset, JSON in, JSON out.
//!
//! ```text
//! in:  {"map": "europe-1901", "phase": "movement",
//!       "units":  {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
//!       "orders": {"FRANCE": ["A PAR - BUR", "F BRE H"], "GERMANY": ["A MUN - BUR"]}}
//! out: {"units":     {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
//!       "dislodged": {},
//!       "results":   {"A PAR": "bounce", "F BRE": "ok", "A MUN": "bounce"}}
//! ```
//!
//! Phases: `movement`; `retreat` (input `dislodged` per power, orders `A PAR R BUR`, `A PAR - BUR`
//! or `A PAR D`; optional `contested` provinces and `attackers` {"A PAR": "BUR"} so the stand-off
//! and attacker rules apply); `adjustment` (input `centers` per power, orders `A PAR B`,
//! `F STP/SC B`, `A PAR D`). An order that cannot be read or is illegal is reported `void`
//! and the unit holds (or, in a retreat, disbands). With `"detail": true` a movement phase also
//! reports `contested` and `attackers`, ready for the retreat phase.
//!
//! `results` are keyed by unit (`A PAR`, `F STP/SC`) in movement and retreat phases, and by order
//! (`F STP/NC B`, `A PAR D`, including disbands forced by civil disorder) in adjustment phases.
//! `units` lists each power's units in input order, at their new places.
//!
//! Result words: `ok`, `bounce`, `cut`, `dislodged`, `void`, `no convoy`.

use orbis_engine::rules::orders::adjudicator::{Outcome, Piece};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId, ProvinceId};
use orbis_engine::rules::orders::notation::{self, Written};
use orbis_engine::rules::orders::{self as rules, Centres, Dislodged};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Runs one phase. `Ok` is the JSON to print; `Err` is a message for stderr (exit code 2).
pub fn run(stdin_text: &str) -> Result<String, String> {
    let input: Value =
        serde_json::from_str(stdin_text).map_err(|e| format!("malformed JSON: {e}"))?;
    let obj = input
        .as_object()
        .ok_or("the input must be one JSON object")?;
    let map_id = obj
        .get("map")
        .and_then(Value::as_str)
        .unwrap_or("europe-1901");
    let map = OrdersMap::get(map_id).ok_or_else(|| {
        let known: Vec<&str> = OrdersMap::builtin_ids().collect();
        format!("unknown map `{map_id}` (known: {})", known.join(", "))
    })?;
    let phase = obj
        .get("phase")
        .and_then(Value::as_str)
        .unwrap_or("movement");
    let units = read_units(map, obj.get("units"), "units")?;
    let orders = read_orders(map, obj.get("orders"))?;
    let detail = obj.get("detail").and_then(Value::as_bool).unwrap_or(false);
    let out = match phase {
        "movement" => movement(map, &units, &orders, detail),
        "retreat" => {
            let dislodged = read_units(map, obj.get("dislodged"), "dislodged")?;
            let contested = read_provinces(map, obj.get("contested"), "contested")?;
            let attackers = read_attackers(map, obj.get("attackers"))?;
            retreat(map, &units, &dislodged, &contested, &attackers, &orders)
        }
        "adjustment" => {
            let centres = read_centres(map, obj.get("centers"))?;
            adjustment(map, &units, &centres, &orders)
        }
        other => {
            return Err(format!(
                "unknown phase `{other}` (use movement, retreat or adjustment)"
            ))
        }
    };
    Ok(out.to_string())
}

fn unit_text(map: &OrdersMap, u: &Piece) -> String {
    notation::print_unit(map, u.kind, u.loc)
}

fn power_of(map: &OrdersMap, key: &str) -> Result<PowerId, String> {
    map.power(key)
        .ok_or_else(|| format!("unknown power `{key}` on map `{}`", map.id))
}

fn string_list<'a>(v: &'a Value, what: &str) -> Result<Vec<&'a str>, String> {
    v.as_array()
        .ok_or_else(|| format!("`{what}` must be a list of strings"))?
        .iter()
        .map(|x| {
            x.as_str()
                .ok_or_else(|| format!("`{what}` must be a list of strings"))
        })
        .collect()
}

fn per_power<'a>(v: Option<&'a Value>, what: &str) -> Result<Vec<(&'a str, &'a Value)>, String> {
    match v {
        None | Some(Value::Null) => Ok(vec![]),
        Some(Value::Object(m)) => Ok(m.iter().map(|(k, v)| (k.as_str(), v)).collect()),
        Some(_) => Err(format!("`{what}` must be an object keyed by power")),
    }
}

/// Units per power, in input order.
fn read_units(map: &OrdersMap, v: Option<&Value>, what: &str) -> Result<Vec<Piece>, String> {
    let mut out: Vec<Piece> = vec![];
    for (power, list) in per_power(v, what)? {
        let p = power_of(map, power)?;
        for text in string_list(list, &format!("{what}.{power}"))? {
            let (kind, loc) = notation::parse_unit(map, text)
                .map_err(|e| format!("`{what}.{power}`: `{text}`: {e}"))?;
            if !map.can_stand(kind, loc) {
                return Err(format!(
                    "`{what}.{power}`: `{text}` cannot stand there (fleets on two-coast provinces need a coast)"
                ));
            }
            if out.iter().any(|u| u.loc.province == loc.province) {
                return Err(format!("`{what}`: two units in {}", map.key(loc.province)));
            }
            out.push(Piece::new(p, kind, loc));
        }
    }
    Ok(out)
}

/// An order as read: parsed, or the raw text when it could not be read.
enum Read {
    Parsed(Written),
    Unreadable(String),
}

fn read_orders(map: &OrdersMap, v: Option<&Value>) -> Result<Vec<(PowerId, Read)>, String> {
    let mut out = vec![];
    for (power, list) in per_power(v, "orders")? {
        let p = power_of(map, power)?;
        for text in string_list(list, &format!("orders.{power}"))? {
            let r = match notation::parse(map, text) {
                Ok(w) => Read::Parsed(w),
                Err(_) => Read::Unreadable(text.to_string()),
            };
            out.push((p, r));
        }
    }
    Ok(out)
}

fn read_provinces(
    map: &OrdersMap,
    v: Option<&Value>,
    what: &str,
) -> Result<Vec<ProvinceId>, String> {
    match v {
        None | Some(Value::Null) => Ok(vec![]),
        Some(v) => string_list(v, what)?
            .into_iter()
            .map(|s| {
                map.parse_loc(s)
                    .map(|l| l.province)
                    .ok_or_else(|| format!("`{what}`: unknown province `{s}`"))
            })
            .collect(),
    }
}

fn read_attackers(
    map: &OrdersMap,
    v: Option<&Value>,
) -> Result<BTreeMap<ProvinceId, ProvinceId>, String> {
    let mut out = BTreeMap::new();
    for (unit, from) in per_power(v, "attackers")? {
        let (_, loc) =
            notation::parse_unit(map, unit).map_err(|e| format!("`attackers`: `{unit}`: {e}"))?;
        let from = from
            .as_str()
            .and_then(|f| map.parse_loc(f))
            .ok_or_else(|| format!("`attackers.{unit}` must be a province"))?;
        out.insert(loc.province, from.province);
    }
    Ok(out)
}

fn read_centres(map: &OrdersMap, v: Option<&Value>) -> Result<Centres, String> {
    let mut out = Centres::new();
    for (power, list) in per_power(v, "centers")? {
        let p = power_of(map, power)?;
        for c in read_provinces(map, Some(list), &format!("centers.{power}"))? {
            if !map.provinces[c as usize].centre {
                return Err(format!(
                    "`centers.{power}`: {} is not a supply centre",
                    map.key(c)
                ));
            }
            out.insert(c, p);
        }
    }
    Ok(out)
}

/// Splits the orders: readable orders naming one of `units` (of the same power) are kept for the
/// rules; everything else is reported void under the unit it names (or its raw text).
fn sort_orders(
    map: &OrdersMap,
    units: &[Piece],
    orders: &[(PowerId, Read)],
    results: &mut Map<String, Value>,
) -> Vec<(PowerId, Written)> {
    let mut kept = vec![];
    for (p, r) in orders {
        match r {
            Read::Parsed(w) => {
                let owner = units.iter().find(|u| u.loc.province == w.at.province);
                match owner {
                    Some(u) if u.power == *p => kept.push((*p, *w)),
                    _ => {
                        results.insert(notation::print_unit(map, w.kind, w.at), json!("void"));
                    }
                }
            }
            Read::Unreadable(text) => {
                // Name the unit if the order starts with one, so its result is `void`.
                let head: Vec<&str> = text.split_whitespace().take(2).collect();
                let key = notation::parse_unit(map, &head.join(" "))
                    .ok()
                    .and_then(|(_, l)| {
                        units
                            .iter()
                            .find(|u| u.loc.province == l.province && u.power == *p)
                            .map(|u| unit_text(map, u))
                    })
                    .unwrap_or_else(|| text.clone());
                results.insert(key, json!("void"));
            }
        }
    }
    kept
}

fn units_json(map: &OrdersMap, units: &[Piece], powers: &[PowerId]) -> Value {
    let mut m = Map::new();
    for &p in powers {
        m.insert(map.powers[p as usize].key.clone(), json!([]));
    }
    for u in units {
        let key = map.powers[u.power as usize].key.clone();
        if let Some(Value::Array(list)) = m.get_mut(&key) {
            list.push(json!(unit_text(map, u)));
        } else {
            m.insert(key, json!([unit_text(map, u)]));
        }
    }
    Value::Object(m)
}

fn powers_in(units: &[Piece]) -> Vec<PowerId> {
    let mut v: Vec<PowerId> = units.iter().map(|u| u.power).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn movement(map: &OrdersMap, units: &[Piece], orders: &[(PowerId, Read)], detail: bool) -> Value {
    let mut results = Map::new();
    let kept = sort_orders(map, units, orders, &mut results);
    let report = rules::movement(map, units, &kept);
    // Units keep their input order, at their new places.
    let mut after = vec![];
    let mut dislodged = vec![];
    for (i, u) in units.iter().enumerate() {
        let key = unit_text(map, u);
        let outcome = report.results[i].outcome;
        let word = if results.contains_key(&key) && outcome != Outcome::Dislodged {
            "void"
        } else {
            outcome.word()
        };
        results.insert(key, json!(word));
        match report.positions[i] {
            Some(loc) => after.push(Piece { loc, ..*u }),
            None => {
                if let Some(d) = report.dislodged.iter().find(|d| d.piece == *u) {
                    dislodged.push(*d);
                }
            }
        }
    }
    let powers = powers_in(units);
    let dislodged_pieces: Vec<Piece> = dislodged.iter().map(|d| d.piece).collect();
    let mut out = json!({
        "units": units_json(map, &after, &powers),
        "dislodged": units_json(map, &dislodged_pieces, &[]),
        "results": Value::Object(results),
    });
    if detail {
        let attackers: Map<String, Value> = dislodged
            .iter()
            .filter_map(|d| {
                d.attacker_from
                    .map(|f| (unit_text(map, &d.piece), json!(map.key(f))))
            })
            .collect();
        out["contested"] = json!(report
            .contested
            .iter()
            .map(|&p| map.key(p))
            .collect::<Vec<_>>());
        out["attackers"] = Value::Object(attackers);
    }
    out
}

fn retreat(
    map: &OrdersMap,
    units: &[Piece],
    dislodged: &[Piece],
    contested: &[ProvinceId],
    attackers: &BTreeMap<ProvinceId, ProvinceId>,
    orders: &[(PowerId, Read)],
) -> Value {
    let mut results = Map::new();
    let kept = sort_orders(map, dislodged, orders, &mut results);
    let ds: Vec<Dislodged> = dislodged
        .iter()
        .map(|d| Dislodged {
            piece: *d,
            attacker_from: attackers.get(&d.loc.province).copied(),
        })
        .collect();
    let report = rules::retreats(map, units, &ds, contested, &kept);
    for (d, r) in dislodged.iter().zip(&report.results) {
        let key = unit_text(map, d);
        let word = if results.contains_key(&key) {
            "void"
        } else {
            r.outcome.word()
        };
        results.insert(key, json!(word));
    }
    let mut powers = powers_in(units);
    powers.extend(powers_in(dislodged));
    powers.sort_unstable();
    powers.dedup();
    json!({
        "units": units_json(map, &report.units, &powers),
        "dislodged": {},
        "results": Value::Object(results),
    })
}

fn adjustment(
    map: &OrdersMap,
    units: &[Piece],
    centres: &Centres,
    orders: &[(PowerId, Read)],
) -> Value {
    let mut results = Map::new();
    let mut kept = vec![];
    for (p, r) in orders {
        match r {
            Read::Parsed(w) => kept.push((*p, *w)),
            Read::Unreadable(t) => {
                results.insert(t.clone(), json!("void"));
            }
        }
    }
    let report = rules::adjustments(map, units, centres, &kept);
    for r in &report.results {
        let mut key = notation::print(map, &r.order);
        if results.contains_key(&key) {
            key.push_str(" (again)");
        }
        results.insert(key, json!(r.outcome.word()));
    }
    let mut powers = powers_in(units);
    powers.extend(centres.values().copied());
    powers.sort_unstable();
    powers.dedup();
    json!({
        "units": units_json(map, &report.units, &powers),
        "dislodged": {},
        "results": Value::Object(results),
    })
}

#[cfg(test)]
mod tests {
    use super::run;
    use serde_json::{json, Value};

    fn call(v: Value) -> Value {
        serde_json::from_str(&run(&v.to_string()).unwrap()).unwrap()
    }

    #[test]
    fn the_issue_example() {
        let out = call(json!({"map": "europe-1901", "phase": "movement",
            "units":  {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
            "orders": {"FRANCE": ["A PAR - BUR", "F BRE H"], "GERMANY": ["A MUN - BUR"]}}));
        assert_eq!(
            out,
            json!({"units": {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
                   "dislodged": {},
                   "results": {"A PAR": "bounce", "F BRE": "ok", "A MUN": "bounce"}})
        );
    }

    #[test]
    fn dislodgement_convoy_and_void() {
        let out = call(
            json!({"map": "europe-1901", "phase": "movement", "detail": true,
            "units": {"ENGLAND": ["A LON", "F NTH", "F ENG"], "FRANCE": ["A BEL", "A PIC"],
                      "GERMANY": ["A HOL"]},
            "orders": {"ENGLAND": ["A LON - BEL", "F NTH C A LON - BEL", "F ENG S A LON - BEL"],
                       "FRANCE": ["A BEL H", "A PIC - XYZ"],
                       "GERMANY": ["A HOL H", "A RUH - BEL"]}}),
        );
        // London, convoyed and supported (2), against Belgium holding (1).
        assert_eq!(out["results"]["A LON"], "ok");
        assert_eq!(out["results"]["A BEL"], "dislodged");
        assert_eq!(out["results"]["A PIC"], "void");
        assert_eq!(out["results"]["A RUH"], "void");
        assert_eq!(out["dislodged"], json!({"FRANCE": ["A BEL"]}));
        assert_eq!(out["units"]["ENGLAND"], json!(["A BEL", "F NTH", "F ENG"]));
        assert_eq!(out["units"]["FRANCE"], json!(["A PIC"]));
        assert_eq!(out["results"]["A HOL"], "ok");
        assert_eq!(out["results"]["F NTH"], "ok");
        // Convoyed attackers do not close their origin to the retreat.
        assert_eq!(out["attackers"], json!({}));
        let no_convoy = call(json!({"phase": "movement",
            "units": {"ENGLAND": ["A LON", "F NTH"]},
            "orders": {"ENGLAND": ["A LON - NWY", "F NTH - NWG"]}}));
        assert_eq!(no_convoy["results"]["A LON"], "no convoy");
    }

    #[test]
    fn retreat_and_adjustment_phases() {
        let out = call(json!({"phase": "retreat",
            "units": {"GERMANY": ["A BUR"]},
            "dislodged": {"FRANCE": ["A PAR"], "ITALY": ["A PIC"]},
            "attackers": {"A PAR": "BUR"},
            "orders": {"FRANCE": ["A PAR R BUR"], "ITALY": ["A PIC - BRE"]}}));
        assert_eq!(out["results"], json!({"A PAR": "void", "A PIC": "ok"}));
        assert_eq!(
            out["units"],
            json!({"FRANCE": [], "GERMANY": ["A BUR"], "ITALY": ["A BRE"]})
        );
        let out = call(json!({"phase": "adjustment",
            "units": {"RUSSIA": ["A MOS"]},
            "centers": {"RUSSIA": ["MOS", "STP", "WAR", "SEV"]},
            "orders": {"RUSSIA": ["F STP B", "F STP/NC B", "A WAR B", "A MOS B"]}}));
        assert_eq!(
            out["results"],
            json!({"F STP B": "void", "F STP/NC B": "ok", "A WAR B": "ok", "A MOS B": "void"})
        );
        assert_eq!(
            out["units"],
            json!({"RUSSIA": ["A MOS", "F STP/NC", "A WAR"]})
        );
    }

    #[test]
    fn the_world_map_is_available() {
        let out = call(json!({"map": "world", "phase": "movement",
            "units": {"EUROPE": ["F GBR", "A WEU"], "AFRICA": ["A NAF"]},
            "orders": {"EUROPE": ["F GBR - NOS", "A WEU - NAF"], "AFRICA": ["A NAF H"]}}));
        // Western Europe and North Africa are no longer neighbours: the army needs a convoy.
        assert_eq!(
            out["results"],
            json!({"F GBR": "ok", "A WEU": "void", "A NAF": "ok"})
        );
        assert_eq!(out["units"]["EUROPE"], json!(["F NOS", "A WEU"]));
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(run("{not json").unwrap_err().contains("malformed JSON"));
        assert!(run("[1]").is_err());
        assert!(run(r#"{"map": "mars"}"#)
            .unwrap_err()
            .contains("unknown map"));
        assert!(run(r#"{"units": {"NARNIA": ["A PAR"]}}"#)
            .unwrap_err()
            .contains("NARNIA"));
        assert!(run(r#"{"phase": "winter"}"#).is_err());
    }
}
