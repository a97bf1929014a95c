//! `orbis adjudicate`: one phase of the orders ruleset, JSON in, JSON out.
//!
//! ```text
//! in:  {"map": "europe-1901", "phase": "movement",
//!       "units":  {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
//!       "orders": {"FRANCE": ["A PAR - BUR", "F BRE H"], "GERMANY": ["A MUN - BUR"]}}
//! out: {"units":     {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A MUN"]},
//!       "dislodged": {},
//!       "results":   {"A PAR": "bounce", "F BRE": "ok", "A MUN": "bounce"},
//!       "issued":    {"FRANCE": {"A PAR - BUR": "bounce", "F BRE H": "ok"},
//!                     "GERMANY": {"A MUN - BUR": "bounce"}}}
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
//! A unit's entry is the result of its own power's order: an order a power gives to another
//! power's unit (DATC 6.A.6) is void but does not change that unit's result. An order naming no
//! unit at all is reported `void` under the unit it names (or its raw text).
//! `issued` keys every input order by its issuer and its text as written, with its own result
//! word (a second order for the same unit is `void`).
//! `units` lists each power's units in input order, at their new places.
//!
//! Result words: `ok`, `bounce`, `cut`, `dislodged`, `void`, `no convoy` (no chain of fleets was
//! ordered to convoy the army), `disrupted` (a chain was ordered but a fleet in it was
//! dislodged).
//!
//! `orbis adjudicate --lines` ([`run_lines`]) reads one phase per line and writes one result per
//! line, `{"error": "..."}` for a line that fails, so other engines can be compared in one process.

use orbis_engine::rules::orders::adjudicator::{convoy_chain, Geography, Outcome, Piece, UnitType};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId, ProvinceId};
use orbis_engine::rules::orders::notation::{self, Spec, Written};
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

/// `--lines`: one phase per input line, one JSON result per output line. Blank lines are
/// skipped; a line that fails writes `{"error": "..."}` and the batch goes on.
pub fn run_lines(input: impl std::io::BufRead, out: &mut dyn std::io::Write) -> Result<(), String> {
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read line {}: {e}", n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let text = run(&line).unwrap_or_else(|e| json!({ "error": e }).to_string());
        writeln!(out, "{text}").map_err(|e| format!("cannot write output: {e}"))?;
    }
    Ok(())
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

/// One input order: its issuer, its text as written and what it reads as.
struct Issued {
    power: PowerId,
    text: String,
    read: Read,
}

fn read_orders(map: &OrdersMap, v: Option<&Value>) -> Result<Vec<Issued>, String> {
    let mut out = vec![];
    for (power, list) in per_power(v, "orders")? {
        let p = power_of(map, power)?;
        for text in string_list(list, &format!("orders.{power}"))? {
            let read = match notation::parse(map, text) {
                Ok(w) => Read::Parsed(w),
                Err(_) => Read::Unreadable(text.to_string()),
            };
            out.push(Issued {
                power: p,
                text: text.to_string(),
                read,
            });
        }
    }
    Ok(out)
}

/// `issued`: each input order under its issuer and text, with the word `word_of` gives its
/// parsed form (`None`: the order did not take effect, so it is `void`).
fn issued_json(
    map: &OrdersMap,
    orders: &[Issued],
    mut word_of: impl FnMut(PowerId, &Written) -> Option<String>,
) -> Value {
    let mut m = Map::new();
    for o in orders {
        let word = match &o.read {
            Read::Parsed(w) => word_of(o.power, w).unwrap_or_else(|| "void".into()),
            Read::Unreadable(_) => "void".into(),
        };
        let key = map.powers[o.power as usize].key.clone();
        let entry = m.entry(key).or_insert_with(|| json!({}));
        if let Value::Object(per) = entry {
            let mut text = o.text.clone();
            while per.contains_key(&text) {
                text.push_str(" (again)");
            }
            per.insert(text, json!(word));
        }
    }
    Value::Object(m)
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

/// Splits the orders: readable orders naming one of `units` of the issuer's own power are kept
/// for the rules. An order for another power's unit is void only in `issued` (the unit's own
/// result stands); one naming no unit, or unreadable, is reported void under the unit it names
/// (or its raw text).
fn sort_orders(
    map: &OrdersMap,
    units: &[Piece],
    orders: &[Issued],
    results: &mut Map<String, Value>,
) -> Vec<(PowerId, Written)> {
    let mut kept = vec![];
    for o in orders {
        let p = o.power;
        match &o.read {
            Read::Parsed(w) => {
                let owner = units.iter().find(|u| u.loc.province == w.at.province);
                match owner {
                    Some(u) if u.power == p => kept.push((p, *w)),
                    Some(_) => {}
                    None => {
                        results.insert(notation::print_unit(map, w.kind, w.at), json!("void"));
                    }
                }
            }
            Read::Unreadable(text) => {
                // Name the unit if the order starts with one, so its result is `void`.
                let head: Vec<&str> = text.split_whitespace().take(2).collect();
                let named = notation::parse_unit(map, &head.join(" ")).ok();
                let key = named
                    .and_then(|(_, l)| {
                        units
                            .iter()
                            .find(|u| u.loc.province == l.province && u.power == p)
                            .map(|u| unit_text(map, u))
                    })
                    .unwrap_or_else(|| text.clone());
                // An unreadable order for another power's unit leaves that unit's result alone.
                let foreign = named.is_some_and(|(_, l)| {
                    units
                        .iter()
                        .any(|u| u.loc.province == l.province && u.power != p)
                });
                if !foreign {
                    results.insert(key, json!("void"));
                }
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

fn movement(map: &OrdersMap, units: &[Piece], orders: &[Issued], detail: bool) -> Value {
    let mut results = Map::new();
    let kept = sort_orders(map, units, orders, &mut results);
    let report = rules::movement(map, units, &kept);
    // Units keep their input order, at their new places.
    let mut after = vec![];
    let mut dislodged = vec![];
    let mut words = vec![];
    for (i, u) in units.iter().enumerate() {
        let key = unit_text(map, u);
        let outcome = report.results[i].outcome;
        let word = if results.contains_key(&key) && outcome != Outcome::Dislodged {
            "void"
        } else if outcome == Outcome::NoConvoy && convoy_was_ordered(map, units, &kept, u) {
            "disrupted"
        } else {
            outcome.word()
        };
        words.push(word);
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
    let issued = issued_json(map, orders, |p, w| {
        let i = units
            .iter()
            .position(|u| u.loc.province == w.at.province && u.power == p)?;
        let r = &report.results[i];
        (r.power == p && r.order == *w).then(|| words[i].to_string())
    });
    let powers = powers_in(units);
    let dislodged_pieces: Vec<Piece> = dislodged.iter().map(|d| d.piece).collect();
    let mut out = json!({
        "units": units_json(map, &after, &powers),
        "dislodged": units_json(map, &dislodged_pieces, &[]),
        "results": Value::Object(results),
        "issued": issued,
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

/// Whether the fleets ordered to convoy `army`'s move formed a chain before any of them was
/// dislodged: its "no convoy" is then a disrupted convoy.
fn convoy_was_ordered(
    map: &OrdersMap,
    units: &[Piece],
    kept: &[(PowerId, Written)],
    army: &Piece,
) -> bool {
    let Some(to) = kept.iter().find_map(|(p, w)| match w.spec {
        Spec::Move { to, .. } if *p == army.power && w.at.province == army.loc.province => {
            Some(to.province)
        }
        _ => None,
    }) else {
        return false;
    };
    let from = army.loc.province;
    let seas: Vec<ProvinceId> = kept
        .iter()
        .filter(|(_, w)| {
            w.kind == UnitType::Fleet
                && matches!(w.spec, Spec::Convoy { from: a, to: b }
                    if a.province == from && b.province == to)
                && units.iter().any(|u| u.loc.province == w.at.province)
                && map.is_sea(w.at.province)
        })
        .map(|(_, w)| w.at.province)
        .collect();
    convoy_chain(map, from, to, &seas)
}

fn retreat(
    map: &OrdersMap,
    units: &[Piece],
    dislodged: &[Piece],
    contested: &[ProvinceId],
    attackers: &BTreeMap<ProvinceId, ProvinceId>,
    orders: &[Issued],
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
    let mut words = vec![];
    for (d, r) in dislodged.iter().zip(&report.results) {
        let key = unit_text(map, d);
        let word = if results.contains_key(&key) {
            "void"
        } else {
            r.outcome.word()
        };
        words.push(word);
        results.insert(key, json!(word));
    }
    let issued = issued_json(map, orders, |p, w| {
        let i = dislodged
            .iter()
            .position(|u| u.loc.province == w.at.province && u.power == p)?;
        let r = report.results.get(i)?;
        (r.power == p && r.order == *w).then(|| words[i].to_string())
    });
    let mut powers = powers_in(units);
    powers.extend(powers_in(dislodged));
    powers.sort_unstable();
    powers.dedup();
    json!({
        "units": units_json(map, &report.units, &powers),
        "dislodged": {},
        "results": Value::Object(results),
        "issued": issued,
    })
}

fn adjustment(map: &OrdersMap, units: &[Piece], centres: &Centres, orders: &[Issued]) -> Value {
    let mut results = Map::new();
    let mut kept = vec![];
    for o in orders {
        match &o.read {
            Read::Parsed(w) => kept.push((o.power, *w)),
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
    // Each result of the report answers the first issued order it matches.
    let mut used = vec![false; report.results.len()];
    let issued = issued_json(map, orders, |p, w| {
        let k = (0..report.results.len())
            .find(|&k| !used[k] && report.results[k].power == p && report.results[k].order == *w)?;
        used[k] = true;
        Some(report.results[k].outcome.word().to_string())
    });
    let mut powers = powers_in(units);
    powers.extend(centres.values().copied());
    powers.sort_unstable();
    powers.dedup();
    json!({
        "units": units_json(map, &report.units, &powers),
        "dislodged": {},
        "results": Value::Object(results),
        "issued": issued,
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
                   "results": {"A PAR": "bounce", "F BRE": "ok", "A MUN": "bounce"},
                   "issued": {"FRANCE": {"A PAR - BUR": "bounce", "F BRE H": "ok"},
                              "GERMANY": {"A MUN - BUR": "bounce"}}})
        );
    }

    #[test]
    fn an_order_for_another_powers_unit_is_void_under_its_issuer_only() {
        // DATC 6.A.6: Germany orders England's fleet; England's own order stands.
        let out = call(
            json!({"units": {"ENGLAND": ["F LON"], "GERMANY": ["A BER"]},
            "orders": {"ENGLAND": ["F LON - NTH"], "GERMANY": ["F LON - ENG", "F LON H"]}}),
        );
        assert_eq!(out["results"], json!({"F LON": "ok", "A BER": "ok"}));
        assert_eq!(
            out["issued"],
            json!({"ENGLAND": {"F LON - NTH": "ok"},
                   "GERMANY": {"F LON - ENG": "void", "F LON H": "void"}})
        );
        assert_eq!(out["units"]["ENGLAND"], json!(["F NTH"]));
        // A second order for one's own unit: one takes effect, the other is void.
        let out = call(json!({"units": {"FRANCE": ["A PAR"]},
            "orders": {"FRANCE": ["A PAR - BUR", "A PAR - PIC"]}}));
        let words: Vec<&str> = out["issued"]["FRANCE"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert!(words.contains(&"ok") && words.contains(&"void"), "{out}");
    }

    #[test]
    fn a_dislodged_convoying_fleet_disrupts_the_convoy() {
        let out = call(json!({
            "units": {"ENGLAND": ["A LON", "F ENG"], "FRANCE": ["F BRE", "F MAO"]},
            "orders": {"ENGLAND": ["A LON - BRE", "F ENG C A LON - BRE"],
                       "FRANCE": ["F BRE - ENG", "F MAO S F BRE - ENG"]}}));
        assert_eq!(out["results"]["A LON"], "disrupted");
        assert_eq!(out["results"]["F ENG"], "dislodged");
        assert_eq!(out["issued"]["ENGLAND"]["A LON - BRE"], "disrupted");
        // No fleet ordered to convoy at all: "no convoy", as before.
        let out = call(json!({"units": {"ENGLAND": ["A LON", "F ENG"]},
            "orders": {"ENGLAND": ["A LON - BRE", "F ENG H"]}}));
        assert_eq!(out["results"]["A LON"], "no convoy");
    }

    #[test]
    fn lines_mode_answers_each_line_and_goes_on_after_errors() {
        let input = concat!(
            r#"{"units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A PAR - BUR"]}}"#,
            "\n\n{broken\n",
            r#"{"units": {"GERMANY": ["A MUN"]}, "orders": {"GERMANY": ["A MUN H"]}}"#,
            "\n"
        );
        let mut out = vec![];
        super::run_lines(input.as_bytes(), &mut out).unwrap();
        let lines: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["results"]["A PAR"], "ok");
        assert!(lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("malformed JSON"));
        assert_eq!(lines[2]["results"]["A MUN"], "ok");
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
