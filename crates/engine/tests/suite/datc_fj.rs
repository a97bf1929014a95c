//! DATC (Diplomacy Adjudicator Test Cases, L. B. Kruijswijk), sections 6.F to 6.J: convoys,
//! convoy paradoxes (Szykman rule), adjacent convoys, retreats, builds and civil disorder.

use crate::datc_support;
use datc_support::*;

// ---------------------------------------------------------------- 6.F convoys

#[test]
fn f01_no_convoy_in_coastal_areas() {
    let r = moves(&[(
        "TURKEY",
        &[
            "A GRE - SEV",
            "F AEG C A GRE - SEV",
            "F CON C A GRE - SEV",
            "F BLA C A GRE - SEV",
        ],
    )]);
    r.expect(&[("F CON", Void)]);
    r.stays("A GRE");
}

#[test]
fn f02_an_army_being_convoyed_can_bounce_as_normal() {
    let r = moves(&[
        ("ENGLAND", &["F ENG C A LON - BRE", "A LON - BRE"]),
        ("FRANCE", &["A PAR - BRE"]),
    ]);
    r.expect(&[("A LON", Bounce), ("A PAR", Bounce)]);
}

#[test]
fn f03_an_army_being_convoyed_can_receive_support() {
    let r = moves(&[
        (
            "ENGLAND",
            &["F ENG C A LON - BRE", "A LON - BRE", "F MAO S A LON - BRE"],
        ),
        ("FRANCE", &["A PAR - BRE"]),
    ]);
    r.moved("A LON", "BRE");
    r.expect(&[("A PAR", Bounce)]);
}

#[test]
fn f04_an_attacked_convoy_is_not_disrupted() {
    let r = moves(&[
        ("ENGLAND", &["F NTH C A LON - HOL", "A LON - HOL"]),
        ("GERMANY", &["F SKA - NTH"]),
    ]);
    r.moved("A LON", "HOL");
}

#[test]
fn f05_a_beleaguered_convoy_is_not_disrupted() {
    let r = moves(&[
        ("ENGLAND", &["F NTH C A LON - HOL", "A LON - HOL"]),
        ("FRANCE", &["F ENG - NTH", "F BEL S F ENG - NTH"]),
        ("GERMANY", &["F SKA - NTH", "F DEN S F SKA - NTH"]),
    ]);
    r.moved("A LON", "HOL");
    r.stays("F NTH");
}

#[test]
fn f06_dislodged_convoy_does_not_cut_support() {
    let r = moves(&[
        ("ENGLAND", &["F NTH C A LON - HOL", "A LON - HOL"]),
        (
            "GERMANY",
            &[
                "A HOL S A BEL",
                "A BEL S A HOL",
                "F HEL S F SKA - NTH",
                "F SKA - NTH",
            ],
        ),
        ("FRANCE", &["A PIC - BEL", "A BUR S A PIC - BEL"]),
    ]);
    r.dislodged("F NTH");
    r.expect(&[("A LON", NoConvoy), ("A HOL", Ok), ("A PIC", Bounce)]);
    r.stays("A BEL");
}

#[test]
fn f07_dislodged_convoy_does_not_cause_contested_area() {
    let r = moves(&[
        ("ENGLAND", &["F NTH C A LON - HOL", "A LON - HOL"]),
        ("GERMANY", &["F HEL S F SKA - NTH", "F SKA - NTH"]),
    ]);
    r.dislodged("F NTH");
    let p = r.retreat(&[("ENGLAND", &["F NTH - HOL"])]);
    assert!(p.has("ENGLAND", "F HOL"));
}

#[test]
fn f08_dislodged_convoy_does_not_cause_a_bounce() {
    let r = moves(&[
        ("ENGLAND", &["F NTH C A LON - HOL", "A LON - HOL"]),
        (
            "GERMANY",
            &["F HEL S F SKA - NTH", "F SKA - NTH", "A BEL - HOL"],
        ),
    ]);
    r.moved("A BEL", "HOL");
    r.stays("A LON");
}

#[test]
fn f09_dislodge_of_multi_route_convoy() {
    let r = moves(&[
        (
            "ENGLAND",
            &["F ENG C A LON - BEL", "F NTH C A LON - BEL", "A LON - BEL"],
        ),
        ("FRANCE", &["F BRE S F MAO - ENG", "F MAO - ENG"]),
    ]);
    r.moved("A LON", "BEL");
    r.dislodged("F ENG");
}

#[test]
fn f10_dislodge_of_multi_route_convoy_with_foreign_fleet() {
    let r = moves(&[
        ("ENGLAND", &["F NTH C A LON - BEL", "A LON - BEL"]),
        ("GERMANY", &["F ENG C A LON - BEL"]),
        ("FRANCE", &["F BRE S F MAO - ENG", "F MAO - ENG"]),
    ]);
    r.moved("A LON", "BEL");
    r.dislodged("F ENG");
}

#[test]
fn f11_dislodge_of_multi_route_convoy_with_only_foreign_fleets() {
    let r = moves(&[
        ("ENGLAND", &["A LON - BEL"]),
        ("GERMANY", &["F ENG C A LON - BEL"]),
        ("RUSSIA", &["F NTH C A LON - BEL"]),
        ("FRANCE", &["F BRE S F MAO - ENG", "F MAO - ENG"]),
    ]);
    r.moved("A LON", "BEL");
    r.dislodged("F ENG");
}

#[test]
fn f12_dislodged_convoying_fleet_not_on_route() {
    let r = moves(&[
        (
            "ENGLAND",
            &["F ENG C A LON - BEL", "A LON - BEL", "F IRI C A LON - BEL"],
        ),
        ("FRANCE", &["F NAO S F MAO - IRI", "F MAO - IRI"]),
    ]);
    r.moved("A LON", "BEL");
    r.dislodged("F IRI");
}

#[test]
fn f13_the_unwanted_alternative() {
    let r = moves(&[
        ("ENGLAND", &["A LON - BEL", "F NTH C A LON - BEL"]),
        ("FRANCE", &["F ENG C A LON - BEL"]),
        ("GERMANY", &["F HOL S F DEN - NTH", "F DEN - NTH"]),
    ]);
    r.moved("A LON", "BEL");
    r.dislodged("F NTH");
}

#[test]
fn f14_simple_convoy_paradox() {
    let r = moves(&[
        ("ENGLAND", &["F LON S F WAL - ENG", "F WAL - ENG"]),
        ("FRANCE", &["A BRE - LON", "F ENG C A BRE - LON"]),
    ]);
    r.moved("F WAL", "ENG");
    r.dislodged("F ENG");
    r.stays("A BRE");
}

#[test]
fn f15_simple_convoy_paradox_with_additional_convoy() {
    let r = moves(&[
        ("ENGLAND", &["F LON S F WAL - ENG", "F WAL - ENG"]),
        ("FRANCE", &["A BRE - LON", "F ENG C A BRE - LON"]),
        (
            "ITALY",
            &["F IRI C A NAF - WAL", "F MAO C A NAF - WAL", "A NAF - WAL"],
        ),
    ]);
    r.moved("F WAL", "ENG");
    r.dislodged("F ENG");
    r.moved("A NAF", "WAL");
    r.stays("A BRE");
}

#[test]
fn f16_pandins_paradox() {
    let r = moves(&[
        ("ENGLAND", &["F LON S F WAL - ENG", "F WAL - ENG"]),
        ("FRANCE", &["A BRE - LON", "F ENG C A BRE - LON"]),
        ("GERMANY", &["F NTH S F BEL - ENG", "F BEL - ENG"]),
    ]);
    r.all_stay(&["F WAL", "A BRE", "F ENG", "F BEL"]);
    r.none_dislodged();
}

#[test]
fn f17_pandins_extended_paradox() {
    let r = moves(&[
        ("ENGLAND", &["F LON S F WAL - ENG", "F WAL - ENG"]),
        (
            "FRANCE",
            &["A BRE - LON", "F ENG C A BRE - LON", "F YOR S A BRE - LON"],
        ),
        ("GERMANY", &["F NTH S F BEL - ENG", "F BEL - ENG"]),
    ]);
    r.all_stay(&["F WAL", "A BRE", "F ENG", "F BEL", "F LON"]);
    r.none_dislodged();
}

#[test]
fn f18_betrayal_paradox() {
    let r = moves(&[
        (
            "ENGLAND",
            &["F NTH C A LON - BEL", "A LON - BEL", "F ENG S A LON - BEL"],
        ),
        ("FRANCE", &["F BEL S F NTH"]),
        ("GERMANY", &["F HEL S F SKA - NTH", "F SKA - NTH"]),
    ]);
    r.all_stay(&["A LON", "F NTH", "F SKA", "F BEL"]);
    r.none_dislodged();
}

#[test]
fn f19_multi_route_convoy_disruption_paradox() {
    let r = moves(&[
        (
            "FRANCE",
            &["A TUN - NAP", "F TYS C A TUN - NAP", "F ION C A TUN - NAP"],
        ),
        ("ITALY", &["F NAP S F ROM - TYS", "F ROM - TYS"]),
    ]);
    r.all_stay(&["A TUN", "F TYS", "F NAP", "F ROM"]);
    r.none_dislodged();
}

#[test]
fn f20_unwanted_multi_route_convoy_paradox() {
    let r = moves(&[
        ("FRANCE", &["A TUN - NAP", "F TYS C A TUN - NAP"]),
        ("ITALY", &["F NAP S F ION", "F ION C A TUN - NAP"]),
        ("TURKEY", &["F AEG S F EAS - ION", "F EAS - ION"]),
    ]);
    r.moved("F EAS", "ION");
    r.dislodged("F ION");
    r.stays("A TUN");
}

#[test]
fn f21_dads_army_convoy() {
    let r = moves(&[
        (
            "RUSSIA",
            &["A EDI S A NWY - CLY", "F NWG C A NWY - CLY", "A NWY - CLY"],
        ),
        ("FRANCE", &["F IRI S F MAO - NAO", "F MAO - NAO"]),
        (
            "ENGLAND",
            &[
                "A LVP - CLY VIA CONVOY",
                "F NAO C A LVP - CLY",
                "F CLY S F NAO",
            ],
        ),
    ]);
    r.moved("A NWY", "CLY");
    r.dislodged("F CLY");
    r.moved("F MAO", "NAO");
    r.dislodged("F NAO");
    r.stays("A LVP");
}

#[test]
fn f22_second_order_paradox_with_two_resolutions() {
    let r = moves(&[
        ("ENGLAND", &["F EDI - NTH", "F LON S F EDI - NTH"]),
        ("FRANCE", &["A BRE - LON", "F ENG C A BRE - LON"]),
        ("GERMANY", &["F BEL S F PIC - ENG", "F PIC - ENG"]),
        ("RUSSIA", &["A NWY - BEL", "F NTH C A NWY - BEL"]),
    ]);
    r.moved("F EDI", "NTH");
    r.dislodged("F NTH");
    r.moved("F PIC", "ENG");
    r.dislodged("F ENG");
    r.all_stay(&["A BRE", "A NWY"]);
}

#[test]
fn f23_second_order_paradox_with_two_exclusive_convoys() {
    let r = moves(&[
        ("ENGLAND", &["F EDI - NTH", "F YOR S F EDI - NTH"]),
        ("FRANCE", &["A BRE - LON", "F ENG C A BRE - LON"]),
        ("GERMANY", &["F BEL S F ENG", "F LON S F NTH"]),
        ("ITALY", &["F MAO - ENG", "F IRI S F MAO - ENG"]),
        ("RUSSIA", &["A NWY - BEL", "F NTH C A NWY - BEL"]),
    ]);
    r.all_stay(&["F EDI", "A BRE", "F MAO", "A NWY", "F ENG", "F NTH"]);
    r.none_dislodged();
}

#[test]
fn f24_second_order_paradox_with_no_resolution() {
    let r = moves(&[
        (
            "ENGLAND",
            &[
                "F EDI - NTH",
                "F LON S F EDI - NTH",
                "F IRI - ENG",
                "F MAO S F IRI - ENG",
            ],
        ),
        (
            "FRANCE",
            &["A BRE - LON", "F ENG C A BRE - LON", "F BEL S F ENG"],
        ),
        ("RUSSIA", &["A NWY - BEL", "F NTH C A NWY - BEL"]),
    ]);
    r.moved("F EDI", "NTH");
    r.dislodged("F NTH");
    r.all_stay(&["F IRI", "F ENG", "A BRE", "A NWY"]);
}

#[test]
fn f25_cut_support_last() {
    let r = moves(&[
        (
            "GERMANY",
            &[
                "A RUH - BEL",
                "A HOL S A RUH - BEL",
                "A DEN - NWY",
                "F SKA C A DEN - NWY",
                "A FIN S A DEN - NWY",
            ],
        ),
        (
            "ENGLAND",
            &[
                "A YOR - HOL",
                "F NTH C A YOR - HOL",
                "F HEL S A YOR - HOL",
                "A BEL H",
            ],
        ),
        (
            "RUSSIA",
            &["F NWG - NTH", "F NWY S F NWG - NTH", "F SWE - SKA"],
        ),
    ]);
    r.moved("A YOR", "HOL");
    r.dislodged("A HOL");
    r.all_stay(&["A RUH", "F NWG", "F SWE", "A BEL"]);
}

// ---------------------------------------------------------------- 6.G convoying to adjacent places

#[test]
fn g01_two_units_can_swap_provinces_by_convoy() {
    let r = moves(&[
        ("ENGLAND", &["A NWY - SWE", "F SKA C A NWY - SWE"]),
        ("RUSSIA", &["A SWE - NWY"]),
    ]);
    r.all_moved(&[("A NWY", "SWE"), ("A SWE", "NWY")]);
}

#[test]
fn g02_kidnapping_an_army() {
    // Preferred (intent rule): a foreign fleet's convoy does not make the army go by convoy.
    let r = moves(&[
        ("ENGLAND", &["A NWY - SWE"]),
        ("RUSSIA", &["F SWE - NWY"]),
        ("GERMANY", &["F SKA C A NWY - SWE"]),
    ]);
    r.all_stay(&["A NWY", "F SWE"]);
}

#[test]
fn g03_unwanted_disrupted_convoy_to_adjacent_province() {
    let r = moves(&[
        (
            "FRANCE",
            &[
                "F BRE - ENG",
                "A PIC - BEL",
                "A BUR S A PIC - BEL",
                "F MAO S F BRE - ENG",
            ],
        ),
        ("ENGLAND", &["F ENG C A PIC - BEL"]),
    ]);
    r.all_moved(&[("F BRE", "ENG"), ("A PIC", "BEL")]);
    r.dislodged("F ENG");
}

#[test]
fn g04_unwanted_disrupted_convoy_to_adjacent_province_and_opposite_move() {
    let r = moves(&[
        (
            "FRANCE",
            &[
                "F BRE - ENG",
                "A PIC - BEL",
                "A BUR S A PIC - BEL",
                "F MAO S F BRE - ENG",
            ],
        ),
        ("ENGLAND", &["F ENG C A PIC - BEL", "A BEL - PIC"]),
    ]);
    r.all_moved(&[("F BRE", "ENG"), ("A PIC", "BEL")]);
    r.dislodged("A BEL");
    r.dislodged("F ENG");
}

#[test]
fn g05_swapping_with_intent() {
    let r = moves(&[
        ("ITALY", &["A ROM - APU", "F TYS C A APU - ROM"]),
        ("TURKEY", &["A APU - ROM", "F ION C A APU - ROM"]),
    ]);
    r.all_moved(&[("A ROM", "APU"), ("A APU", "ROM")]);
}

#[test]
fn g06_swapping_with_unintended_intent() {
    let r = moves(&[
        ("ENGLAND", &["A LVP - EDI", "F ENG C A LVP - EDI"]),
        ("GERMANY", &["A EDI - LVP"]),
        ("FRANCE", &["F IRI H", "F NTH H"]),
        ("RUSSIA", &["F NWG C A LVP - EDI", "F NAO C A LVP - EDI"]),
    ]);
    r.all_moved(&[("A LVP", "EDI"), ("A EDI", "LVP")]);
}

#[test]
fn g07_swapping_with_illegal_intent() {
    // Preferred: the Russian fleet in the Gulf of Bothnia can never be part of a route, so its
    // convoy order is illegal and shows no intent; the army goes over land and bounces.
    let r = moves(&[
        ("ENGLAND", &["F SKA C A SWE - NWY", "F NWY - SWE"]),
        ("RUSSIA", &["A SWE - NWY", "F BOT C A SWE - NWY"]),
    ]);
    r.expect(&[("F BOT", Void), ("F NWY", Bounce), ("A SWE", Bounce)]);
    r.all_stay(&["F NWY", "A SWE"]);
}

#[test]
fn g08_explicit_convoy_that_isnt_there() {
    // Preferred (1982/2000 rules): with no convoy, "via convoy" is ignored and the army moves over
    // land.
    let r = moves(&[
        ("FRANCE", &["A BEL - HOL VIA CONVOY"]),
        ("ENGLAND", &["F NTH - HEL", "A HOL - KIE"]),
    ]);
    r.all_moved(&[("A BEL", "HOL"), ("F NTH", "HEL"), ("A HOL", "KIE")]);
}

#[test]
fn g09_swapped_or_dislodged() {
    let r = moves(&[
        (
            "ENGLAND",
            &["A NWY - SWE", "F SKA C A NWY - SWE", "F FIN S A NWY - SWE"],
        ),
        ("RUSSIA", &["A SWE - NWY"]),
    ]);
    r.all_moved(&[("A NWY", "SWE"), ("A SWE", "NWY")]);
    r.none_dislodged();
}

#[test]
fn g10_swapped_or_an_head_to_head_battle() {
    let r = moves(&[
        (
            "ENGLAND",
            &[
                "A NWY - SWE VIA CONVOY",
                "F DEN S A NWY - SWE",
                "F FIN S A NWY - SWE",
            ],
        ),
        ("GERMANY", &["F SKA C A NWY - SWE"]),
        ("RUSSIA", &["A SWE - NWY", "F BAR S A SWE - NWY"]),
        ("FRANCE", &["F NWG - NWY", "F NTH S F NWG - NWY"]),
    ]);
    r.moved("A NWY", "SWE");
    r.dislodged("A SWE");
    r.expect(&[("F NWG", Bounce)]);
}

#[test]
fn g11_a_convoy_to_an_adjacent_place_with_a_paradox() {
    // Szykman rule: the convoy in the paradox fails.
    let r = moves(&[
        ("ENGLAND", &["F NWY S F NTH - SKA", "F NTH - SKA"]),
        (
            "RUSSIA",
            &["A SWE - NWY", "F SKA C A SWE - NWY", "F BAR S A SWE - NWY"],
        ),
    ]);
    r.moved("F NTH", "SKA");
    r.dislodged("F SKA");
    r.stays("A SWE");
}

#[test]
fn g12_swapping_two_units_with_two_convoys() {
    let r = moves(&[
        (
            "ENGLAND",
            &[
                "A LVP - EDI VIA CONVOY",
                "F NAO C A LVP - EDI",
                "F NWG C A LVP - EDI",
            ],
        ),
        (
            "GERMANY",
            &[
                "A EDI - LVP VIA CONVOY",
                "F NTH C A EDI - LVP",
                "F ENG C A EDI - LVP",
                "F IRI C A EDI - LVP",
            ],
        ),
    ]);
    r.all_moved(&[("A LVP", "EDI"), ("A EDI", "LVP")]);
}

#[test]
fn g13_support_cut_on_attack_on_itself_via_convoy() {
    let r = moves(&[
        (
            "AUSTRIA",
            &["F ADR C A TRI - VEN", "A TRI - VEN VIA CONVOY"],
        ),
        ("ITALY", &["A VEN S F ALB - TRI", "F ALB - TRI"]),
    ]);
    r.moved("F ALB", "TRI");
    r.dislodged("A TRI");
    r.expect(&[("A VEN", Ok)]);
}

#[test]
fn g14_bounce_by_convoy_to_adjacent_place() {
    let r = moves(&[
        (
            "ENGLAND",
            &["A NWY - SWE", "F DEN S A NWY - SWE", "F FIN S A NWY - SWE"],
        ),
        ("FRANCE", &["F NWG - NWY", "F NTH S F NWG - NWY"]),
        ("GERMANY", &["F SKA C A SWE - NWY"]),
        ("RUSSIA", &["A SWE - NWY VIA CONVOY", "F BAR S A SWE - NWY"]),
    ]);
    r.moved("A NWY", "SWE");
    r.dislodged("A SWE");
    r.expect(&[("F NWG", Bounce)]);
}

#[test]
fn g15_bounce_and_dislodge_with_double_convoy() {
    let r = moves(&[
        (
            "ENGLAND",
            &[
                "F NTH C A LON - BEL",
                "A HOL S A LON - BEL",
                "A YOR - LON",
                "A LON - BEL VIA CONVOY",
            ],
        ),
        ("FRANCE", &["F ENG C A BEL - LON", "A BEL - LON VIA CONVOY"]),
    ]);
    r.moved("A LON", "BEL");
    r.dislodged("A BEL");
    r.stays("A YOR");
}

#[test]
fn g16_the_two_unit_in_one_area_bug_moving_by_convoy() {
    let r = moves(&[
        (
            "ENGLAND",
            &[
                "A NWY - SWE",
                "A DEN S A NWY - SWE",
                "F BAL S A NWY - SWE",
                "F NTH - NWY",
            ],
        ),
        (
            "RUSSIA",
            &[
                "A SWE - NWY VIA CONVOY",
                "F SKA C A SWE - NWY",
                "F NWG S A SWE - NWY",
            ],
        ),
    ]);
    r.all_moved(&[("A NWY", "SWE"), ("A SWE", "NWY")]);
    r.stays("F NTH");
}

#[test]
fn g17_the_two_unit_in_one_area_bug_moving_over_land() {
    let r = moves(&[
        (
            "ENGLAND",
            &[
                "A NWY - SWE VIA CONVOY",
                "A DEN S A NWY - SWE",
                "F BAL S A NWY - SWE",
                "F SKA C A NWY - SWE",
                "F NTH - NWY",
            ],
        ),
        ("RUSSIA", &["A SWE - NWY", "F NWG S A SWE - NWY"]),
    ]);
    r.all_moved(&[("A NWY", "SWE"), ("A SWE", "NWY")]);
    r.stays("F NTH");
}

#[test]
fn g18_the_two_unit_in_one_area_bug_with_double_convoy() {
    let r = moves(&[
        (
            "ENGLAND",
            &[
                "F NTH C A LON - BEL",
                "A HOL S A LON - BEL",
                "A YOR - LON",
                "A LON - BEL",
                "A RUH S A LON - BEL",
            ],
        ),
        (
            "FRANCE",
            &["F ENG C A BEL - LON", "A BEL - LON", "A WAL S A BEL - LON"],
        ),
    ]);
    r.all_moved(&[("A LON", "BEL"), ("A BEL", "LON")]);
    r.stays("A YOR");
}

#[test]
fn g19_swapping_with_intent_of_unnecessary_convoy() {
    // Intent rule: France has its own fleet convoying and a route exists, so the army goes by
    // convoy and the swap succeeds.
    let r = moves(&[
        ("FRANCE", &["A MAR - SPA", "F WES C A MAR - SPA"]),
        ("ITALY", &["F LYO C A MAR - SPA", "A SPA - MAR"]),
    ]);
    r.all_moved(&[("A MAR", "SPA"), ("A SPA", "MAR")]);
}

#[test]
fn g20_explicit_convoy_to_adjacent_province_disrupted() {
    let r = moves(&[
        (
            "FRANCE",
            &[
                "F BRE - ENG",
                "A PIC - BEL VIA CONVOY",
                "A BUR S A PIC - BEL",
                "F MAO S F BRE - ENG",
            ],
        ),
        ("ENGLAND", &["F ENG C A PIC - BEL"]),
    ]);
    r.moved("F BRE", "ENG");
    r.expect(&[("A PIC", NoConvoy)]);
    r.stays("A PIC");
}

// ---------------------------------------------------------------- 6.H retreating

#[test]
fn h01_no_supports_during_retreat() {
    let r = moves(&[
        ("AUSTRIA", &["F TRI H", "A SER H"]),
        ("TURKEY", &["F GRE H"]),
        (
            "ITALY",
            &[
                "A VEN S A TYR - TRI",
                "A TYR - TRI",
                "F ION - GRE",
                "F AEG S F ION - GRE",
            ],
        ),
    ]);
    r.dislodged("F TRI");
    r.dislodged("F GRE");
    let p = r.retreat(&[
        ("AUSTRIA", &["F TRI - ALB", "A SER S F TRI - ALB"]),
        ("TURKEY", &["F GRE - ALB"]),
    ]);
    assert_eq!(p.outcome("F TRI"), Bounce);
    assert_eq!(p.outcome("F GRE"), Bounce);
    assert!(!p.has("AUSTRIA", "F ALB") && !p.has("TURKEY", "F ALB"));
}

#[test]
fn h02_no_supports_from_retreating_unit() {
    let r = moves(&[
        (
            "ENGLAND",
            &["A LVP - EDI", "F YOR S A LVP - EDI", "F NWY H"],
        ),
        ("GERMANY", &["A KIE S A RUH - HOL", "A RUH - HOL"]),
        (
            "RUSSIA",
            &["F EDI H", "A SWE S A FIN - NWY", "A FIN - NWY", "F HOL H"],
        ),
    ]);
    let p = r.retreat(&[
        ("ENGLAND", &["F NWY - NTH"]),
        ("RUSSIA", &["F EDI - NTH", "F HOL S F EDI - NTH"]),
    ]);
    assert_eq!(p.outcome("F NWY"), Bounce);
    assert_eq!(p.outcome("F EDI"), Bounce);
    assert_eq!(p.outcome("F HOL"), Void);
    assert_eq!(
        p.report
            .units
            .iter()
            .filter(
                |u| u.kind == orbis_engine::rules::orders::adjudicator::UnitType::Fleet
                    && map().key(u.loc.province) == "NTH"
            )
            .count(),
        0
    );
}

#[test]
fn h03_no_convoy_during_retreat() {
    let r = moves(&[
        ("ENGLAND", &["F NTH H", "A HOL H"]),
        ("GERMANY", &["F KIE S A RUH - HOL", "A RUH - HOL"]),
    ]);
    r.dislodged("A HOL");
    let p = r.retreat(&[("ENGLAND", &["A HOL - YOR", "F NTH C A HOL - YOR"])]);
    assert_eq!(p.outcome("A HOL"), Void);
    assert!(!p.has("ENGLAND", "A YOR"));
}

#[test]
fn h04_no_other_moves_during_retreat() {
    let r = moves(&[
        ("ENGLAND", &["F NTH H", "A HOL H"]),
        ("GERMANY", &["F KIE S A RUH - HOL", "A RUH - HOL"]),
    ]);
    let p = r.retreat(&[("ENGLAND", &["A HOL - BEL", "F NTH - NWG"])]);
    assert!(p.has("ENGLAND", "A BEL"));
    assert!(p.has("ENGLAND", "F NTH"));
    assert!(!p.has("ENGLAND", "F NWG"));
}

#[test]
fn h05_a_unit_may_not_retreat_to_the_area_from_which_it_is_attacked() {
    let r = moves(&[
        ("RUSSIA", &["F CON S F BLA - ANK", "F BLA - ANK"]),
        ("TURKEY", &["F ANK H"]),
    ]);
    let p = r.retreat(&[("TURKEY", &["F ANK - BLA"])]);
    assert_eq!(p.outcome("F ANK"), Void);
    assert_eq!(p.count("TURKEY"), 0);
}

#[test]
fn h06_unit_may_not_retreat_to_a_contested_area() {
    let r = moves(&[
        ("AUSTRIA", &["A BUD S A TRI - VIE", "A TRI - VIE"]),
        ("GERMANY", &["A MUN - BOH", "A SIL - BOH"]),
        ("ITALY", &["A VIE H"]),
    ]);
    let p = r.retreat(&[("ITALY", &["A VIE - BOH"])]);
    assert_eq!(p.outcome("A VIE"), Void);
    assert_eq!(p.count("ITALY"), 0);
}

#[test]
fn h07_multiple_retreat_to_same_area_will_disband_units() {
    let r = moves(&[
        ("AUSTRIA", &["A BUD S A TRI - VIE", "A TRI - VIE"]),
        ("GERMANY", &["A MUN S A SIL - BOH", "A SIL - BOH"]),
        ("ITALY", &["A VIE H", "A BOH H"]),
    ]);
    let p = r.retreat(&[("ITALY", &["A VIE - TYR", "A BOH - TYR"])]);
    assert_eq!(p.outcome("A VIE"), Bounce);
    assert_eq!(p.outcome("A BOH"), Bounce);
    assert_eq!(p.count("ITALY"), 0);
}

#[test]
fn h08_triple_retreat_to_same_area_will_disband_units() {
    let r = moves(&[
        (
            "ENGLAND",
            &["A LVP - EDI", "F YOR S A LVP - EDI", "F NWY H"],
        ),
        ("GERMANY", &["A KIE S A RUH - HOL", "A RUH - HOL"]),
        (
            "RUSSIA",
            &["F EDI H", "A SWE S A FIN - NWY", "A FIN - NWY", "F HOL H"],
        ),
    ]);
    let p = r.retreat(&[
        ("ENGLAND", &["F NWY - NTH"]),
        ("RUSSIA", &["F EDI - NTH", "F HOL - NTH"]),
    ]);
    for u in ["F NWY", "F EDI", "F HOL"] {
        assert_eq!(p.outcome(u), Bounce, "{u}");
    }
    assert!(!p.has("ENGLAND", "F NTH") && !p.has("RUSSIA", "F NTH"));
}

#[test]
fn h09_dislodged_unit_will_not_make_attackers_area_contested() {
    let r = moves(&[
        ("ENGLAND", &["F HEL - KIE", "F DEN S F HEL - KIE"]),
        (
            "GERMANY",
            &["A BER - PRU", "F KIE H", "A SIL S A BER - PRU"],
        ),
        ("RUSSIA", &["A PRU - BER"]),
    ]);
    r.dislodged("F KIE");
    r.dislodged("A PRU");
    let p = r.retreat(&[("GERMANY", &["F KIE - BER"])]);
    assert!(p.has("GERMANY", "F BER"));
}

#[test]
fn h10_not_retreating_to_attacker_does_not_mean_contested() {
    let r = moves(&[
        ("ENGLAND", &["A KIE H"]),
        (
            "GERMANY",
            &["A BER - KIE", "A MUN S A BER - KIE", "A PRU H"],
        ),
        ("RUSSIA", &["A WAR - PRU", "A SIL S A WAR - PRU"]),
    ]);
    let p = r.retreat(&[("ENGLAND", &["A KIE - BER"]), ("GERMANY", &["A PRU - BER"])]);
    assert_eq!(p.outcome("A KIE"), Void);
    assert!(p.has("GERMANY", "A BER"));
}

#[test]
fn h11_retreat_when_dislodged_by_adjacent_convoy() {
    let r = moves(&[
        (
            "FRANCE",
            &[
                "A GAS - MAR VIA CONVOY",
                "A BUR S A GAS - MAR",
                "F MAO C A GAS - MAR",
                "F WES C A GAS - MAR",
                "F LYO C A GAS - MAR",
            ],
        ),
        ("ITALY", &["A MAR H"]),
    ]);
    r.moved("A GAS", "MAR");
    let p = r.retreat(&[("ITALY", &["A MAR - GAS"])]);
    assert!(p.has("ITALY", "A GAS"));
}

#[test]
fn h12_retreat_when_dislodged_by_adjacent_convoy_while_trying_to_do_the_same() {
    let r = moves(&[
        (
            "ENGLAND",
            &[
                "A LVP - EDI VIA CONVOY",
                "F IRI C A LVP - EDI",
                "F ENG C A LVP - EDI",
                "F NTH C A LVP - EDI",
            ],
        ),
        ("FRANCE", &["F BRE - ENG", "F MAO S F BRE - ENG"]),
        (
            "RUSSIA",
            &[
                "A EDI - LVP VIA CONVOY",
                "F NWG C A EDI - LVP",
                "F NAO C A EDI - LVP",
                "A CLY S A EDI - LVP",
            ],
        ),
    ]);
    r.moved("A EDI", "LVP");
    r.dislodged("A LVP");
    let p = r.retreat(&[("ENGLAND", &["A LVP - EDI"])]);
    assert!(p.has("ENGLAND", "A EDI"));
}

#[test]
fn h13_no_retreat_with_convoy_in_main_phase() {
    let r = moves(&[
        ("ENGLAND", &["A PIC H", "F ENG C A PIC - LON"]),
        ("FRANCE", &["A PAR - PIC", "A BRE S A PAR - PIC"]),
    ]);
    let p = r.retreat(&[("ENGLAND", &["A PIC - LON"])]);
    assert_eq!(p.outcome("A PIC"), Void);
    assert!(!p.has("ENGLAND", "A LON"));
}

#[test]
fn h14_no_retreat_with_support_in_main_phase() {
    let r = moves(&[
        ("ENGLAND", &["A PIC H", "F ENG S A PIC - BEL"]),
        ("FRANCE", &["A PAR - PIC", "A BRE S A PAR - PIC", "A BUR H"]),
        ("GERMANY", &["A MUN S A MAR - BUR", "A MAR - BUR"]),
    ]);
    let p = r.retreat(&[("ENGLAND", &["A PIC - BEL"]), ("FRANCE", &["A BUR - BEL"])]);
    assert_eq!(p.outcome("A PIC"), Bounce);
    assert_eq!(p.outcome("A BUR"), Bounce);
    assert!(!p.has("ENGLAND", "A BEL") && !p.has("FRANCE", "A BEL"));
}

#[test]
fn h15_no_coastal_crawl_in_retreat() {
    let r = moves(&[
        ("ENGLAND", &["F POR H"]),
        ("FRANCE", &["F SPA/SC - POR", "F MAO S F SPA/SC - POR"]),
    ]);
    let p = r.retreat(&[("ENGLAND", &["F POR - SPA/NC"])]);
    assert_eq!(p.outcome("F POR"), Void);
    assert_eq!(p.count("ENGLAND"), 0);
}

#[test]
fn h16_contested_for_both_coasts() {
    let r = moves(&[
        ("FRANCE", &["F MAO - SPA/NC", "F GAS - SPA/NC", "F WES H"]),
        ("ITALY", &["F TUN S F TYS - WES", "F TYS - WES"]),
    ]);
    r.dislodged("F WES");
    let p = r.retreat(&[("FRANCE", &["F WES - SPA/SC"])]);
    assert_eq!(p.outcome("F WES"), Void);
    assert!(!p.has("FRANCE", "F SPA/SC"));
}

// ---------------------------------------------------------------- 6.I building

#[test]
fn i01_too_many_build_orders() {
    let p = adjust(
        &[("GERMANY", &["F DEN", "A RUH", "A PRU"])],
        &[("GERMANY", &["BER", "KIE", "MUN", "DEN"])],
        &[("GERMANY", &["A WAR B", "A KIE B", "A MUN B"])],
    );
    assert_eq!(p.outcome("A WAR"), Void);
    assert_eq!(p.outcome("A KIE"), Ok);
    assert_eq!(p.outcome("A MUN"), Void);
    assert_eq!(p.count("GERMANY"), 4);
}

#[test]
fn i02_fleets_can_not_be_built_in_land_areas() {
    let p = adjust(
        &[("RUSSIA", &[])],
        &[("RUSSIA", &["MOS", "STP", "SEV", "WAR"])],
        &[("RUSSIA", &["F MOS B"])],
    );
    assert_eq!(p.outcome("F MOS"), Void);
    assert_eq!(p.count("RUSSIA"), 0);
}

#[test]
fn i03_supply_center_must_be_empty_for_building() {
    let p = adjust(
        &[("GERMANY", &["A BER"])],
        &[("GERMANY", &["BER", "KIE", "MUN"])],
        &[("GERMANY", &["A BER B"])],
    );
    assert_eq!(p.outcome("A BER"), Void);
    assert_eq!(p.count("GERMANY"), 1);
}

#[test]
fn i04_both_coasts_must_be_empty_for_building() {
    let p = adjust(
        &[("RUSSIA", &["F STP/SC"])],
        &[("RUSSIA", &["MOS", "STP", "SEV", "WAR"])],
        &[("RUSSIA", &["F STP/NC B"])],
    );
    assert_eq!(p.outcome("F STP"), Void);
    assert_eq!(p.count("RUSSIA"), 1);
}

#[test]
fn i05_building_in_home_supply_center_that_is_not_owned() {
    let p = adjust(
        &[("GERMANY", &[])],
        &[("GERMANY", &["KIE", "MUN"]), ("RUSSIA", &["BER"])],
        &[("GERMANY", &["A BER B"])],
    );
    assert_eq!(p.outcome("A BER"), Void);
    assert_eq!(p.count("GERMANY"), 0);
}

#[test]
fn i06_building_in_owned_supply_center_that_is_not_a_home_supply_center() {
    let p = adjust(
        &[("GERMANY", &[])],
        &[("GERMANY", &["WAR", "KIE", "MUN", "BER"])],
        &[("GERMANY", &["A WAR B"])],
    );
    assert_eq!(p.outcome("A WAR"), Void);
    assert_eq!(p.count("GERMANY"), 0);
}

#[test]
fn i07_only_one_build_in_a_home_supply_center() {
    let p = adjust(
        &[("RUSSIA", &[])],
        &[("RUSSIA", &["MOS", "STP", "SEV", "WAR"])],
        &[("RUSSIA", &["A MOS B", "A MOS B"])],
    );
    let results: Vec<_> = p.report.results.iter().map(|r| r.outcome).collect();
    assert_eq!(results, [Ok, Void]);
    assert_eq!(p.count("RUSSIA"), 1);
}

// ---------------------------------------------------------------- 6.J civil disorder and disbands

#[test]
fn j01_too_many_remove_orders() {
    let p = adjust(
        &[("FRANCE", &["A PIC", "A PAR"])],
        &[
            ("FRANCE", &["PAR"]),
            ("ENGLAND", &["BRE"]),
            ("ITALY", &["MAR"]),
        ],
        &[("FRANCE", &["F LYO D", "A PIC D", "A PAR D"])],
    );
    let results: Vec<_> = p.report.results.iter().map(|r| r.outcome).collect();
    assert_eq!(results, [Void, Ok, Void]);
    assert!(p.has("FRANCE", "A PAR"));
    assert_eq!(p.count("FRANCE"), 1);
}

#[test]
fn j02_removing_the_same_unit_twice() {
    let p = adjust(
        &[("FRANCE", &["A PAR", "F LYO", "A RUH"])],
        &[
            ("FRANCE", &["PAR"]),
            ("ENGLAND", &["BRE"]),
            ("ITALY", &["MAR"]),
        ],
        &[("FRANCE", &["A PAR D", "A PAR D"])],
    );
    assert!(!p.has("FRANCE", "A PAR"));
    assert_eq!(p.count("FRANCE"), 1);
    // The second disband is taken from civil disorder: the fleet in the Gulf of Lyon can never
    // reach Paris.
    assert_eq!(p.disbanded(), ["A PAR", "F LYO"]);
}

fn civil_disorder(
    power: &str,
    units: &[&str],
    owned: &[&str],
    others: &[(&str, &[&str])],
) -> Vec<String> {
    let mut centres: Vec<(&str, &[&str])> = vec![(power, owned)];
    centres.extend_from_slice(others);
    adjust(&[(power, units)], &centres, &[]).disbanded()
}

#[test]
fn j03_civil_disorder_two_armies_with_different_distance() {
    let d = civil_disorder(
        "RUSSIA",
        &["A LVN", "A PRU"],
        &["STP"],
        &[("GERMANY", &["WAR", "MOS"]), ("TURKEY", &["SEV"])],
    );
    assert_eq!(d, ["A PRU"]);
}

#[test]
fn j04_civil_disorder_two_armies_with_equal_distance() {
    let d = civil_disorder(
        "RUSSIA",
        &["A LVN", "A UKR"],
        &["MOS"],
        &[
            ("ENGLAND", &["STP"]),
            ("GERMANY", &["WAR"]),
            ("TURKEY", &["SEV"]),
        ],
    );
    assert_eq!(d, ["A LVN"]);
}

#[test]
fn j05_civil_disorder_two_fleets_with_different_distance() {
    let d = civil_disorder(
        "RUSSIA",
        &["F SKA", "F NAO"],
        &["STP"],
        &[
            ("ENGLAND", &["MOS"]),
            ("GERMANY", &["WAR"]),
            ("TURKEY", &["SEV"]),
        ],
    );
    assert_eq!(d, ["F NAO"]);
}

#[test]
fn j06_civil_disorder_two_fleets_with_equal_distance() {
    let d = civil_disorder(
        "RUSSIA",
        &["F BOT", "F NTH"],
        &["MUN"],
        &[
            ("ENGLAND", &["STP", "MOS"]),
            ("GERMANY", &["WAR"]),
            ("TURKEY", &["SEV"]),
        ],
    );
    assert_eq!(d, ["F BOT"]);
}

#[test]
fn j07_civil_disorder_two_fleets_and_army_with_equal_distance() {
    let d = civil_disorder(
        "RUSSIA",
        &["A BOH", "F SKA", "F NTH"],
        &["STP", "WAR"],
        &[("ENGLAND", &["MOS"]), ("TURKEY", &["SEV"])],
    );
    assert_eq!(d, ["F NTH"]);
}

#[test]
fn j08_civil_disorder_a_fleet_with_shorter_distance_then_the_army() {
    let d = civil_disorder(
        "RUSSIA",
        &["A TYR", "F BAL"],
        &["WAR"],
        &[("ENGLAND", &["STP", "MOS"]), ("TURKEY", &["SEV"])],
    );
    assert_eq!(d, ["A TYR"]);
}

#[test]
fn j09_civil_disorder_must_be_counted_from_both_coasts() {
    let d = civil_disorder(
        "RUSSIA",
        &["A ALB", "A SEV", "F BAL"],
        &["STP", "SEV"],
        &[("GERMANY", &["WAR"]), ("ENGLAND", &["MOS"])],
    );
    assert_eq!(d, ["A ALB"]);
    // The north coast counts as well: from Skagerrak St Petersburg is two moves away (via
    // Norway), nearer than Albania is to Sevastopol.
    let d = civil_disorder(
        "RUSSIA",
        &["A ALB", "A SEV", "F SKA"],
        &["STP", "SEV"],
        &[("GERMANY", &["WAR"]), ("ENGLAND", &["MOS"])],
    );
    assert_eq!(d, ["A ALB"]);
}

#[test]
fn j10_civil_disorder_counting_convoying_distance() {
    let d = civil_disorder(
        "ITALY",
        &["A PIE", "A ALB"],
        &["NAP"],
        &[("AUSTRIA", &["VEN"]), ("FRANCE", &["ROM"])],
    );
    assert_eq!(d, ["A PIE"]);
}

#[test]
fn j11_distance_to_owned_supply_center() {
    let d = civil_disorder(
        "ITALY",
        &["A WAR", "A TUS"],
        &["WAR"],
        &[("AUSTRIA", &["VEN", "NAP"]), ("FRANCE", &["ROM"])],
    );
    assert_eq!(d, ["A TUS"]);
}
