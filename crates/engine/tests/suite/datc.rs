//! DATC (Diplomacy Adjudicator Test Cases, L. B. Kruijswijk), sections 6.A to 6.E, on the
//! Europe 1901 map. Sections 6.F to 6.J are in `datc_fj.rs`. Where the DATC leaves a choice, the
//! DATC's preferred option is used; see `src/rules/orders/DATC.md`.

use crate::datc_support;
use datc_support::*;

// ---------------------------------------------------------------- 6.A basic checks

#[test]
fn a01_moving_to_an_area_that_is_not_a_neighbour() {
    let r = moves(&[("ENGLAND", &["F NTH - PIC"])]);
    r.expect(&[("F NTH", Void)]);
    r.stays("F NTH");
}

#[test]
fn a02_move_army_to_sea() {
    let r = moves(&[("ENGLAND", &["A LVP - IRI"])]);
    r.expect(&[("A LVP", Void)]);
    r.stays("A LVP");
}

#[test]
fn a03_move_fleet_to_land() {
    let r = moves(&[("GERMANY", &["F KIE - MUN"])]);
    r.expect(&[("F KIE", Void)]);
    r.stays("F KIE");
}

#[test]
fn a04_move_to_own_sector() {
    let r = moves(&[("GERMANY", &["F KIE - KIE"])]);
    r.expect(&[("F KIE", Void)]);
    r.stays("F KIE");
}

#[test]
fn a05_move_to_own_sector_with_convoy() {
    let r = moves(&[
        (
            "ENGLAND",
            &["F NTH C A YOR - YOR", "A YOR - YOR", "A LVP S A YOR - YOR"],
        ),
        ("GERMANY", &["F LON - YOR", "A WAL S F LON - YOR"]),
    ]);
    r.expect(&[("F NTH", Void), ("A LVP", Void)]);
    r.moved("F LON", "YOR");
    r.dislodged("A YOR");
}

#[test]
fn a06_ordering_a_unit_of_another_country() {
    let r = moves_with(&[("ENGLAND", &["F LON"])], &[("GERMANY", &["F LON - NTH"])]);
    r.stays("F LON");
    assert_eq!(r.at("NTH"), None);
}

#[test]
fn a07_only_armies_can_be_convoyed() {
    let r = moves(&[("ENGLAND", &["F LON - BEL", "F NTH C A LON - BEL"])]);
    r.expect(&[("F LON", Void), ("F NTH", Void)]);
    r.stays("F LON");
}

#[test]
fn a08_support_to_hold_yourself_is_not_possible() {
    let r = moves(&[
        ("ITALY", &["A VEN - TRI", "A TYR S A VEN - TRI"]),
        ("AUSTRIA", &["F TRI S F TRI"]),
    ]);
    r.moved("A VEN", "TRI");
    r.dislodged("F TRI");
}

#[test]
fn a09_fleets_must_follow_coast_if_not_on_sea() {
    let r = moves(&[("ITALY", &["F ROM - VEN"])]);
    r.expect(&[("F ROM", Void)]);
    r.stays("F ROM");
}

#[test]
fn a10_support_on_unreachable_destination_not_possible() {
    let r = moves(&[
        ("AUSTRIA", &["A VEN H"]),
        ("ITALY", &["F ROM S A APU - VEN", "A APU - VEN"]),
    ]);
    r.expect(&[("F ROM", Void), ("A APU", Bounce)]);
    r.stays("A VEN");
}

#[test]
fn a11_simple_bounce() {
    let r = moves(&[("AUSTRIA", &["A VIE - TYR"]), ("ITALY", &["A VEN - TYR"])]);
    r.expect(&[("A VIE", Bounce), ("A VEN", Bounce)]);
    r.all_stay(&["A VIE", "A VEN"]);
}

#[test]
fn a12_bounce_of_three_units() {
    let r = moves(&[
        ("AUSTRIA", &["A VIE - TYR"]),
        ("GERMANY", &["A MUN - TYR"]),
        ("ITALY", &["A VEN - TYR"]),
    ]);
    r.expect(&[("A VIE", Bounce), ("A MUN", Bounce), ("A VEN", Bounce)]);
    assert_eq!(r.at("TYR"), None);
}

// ---------------------------------------------------------------- 6.B coastal issues

#[test]
fn b01_moving_with_unspecified_coast_when_coast_is_necessary() {
    let r = moves(&[("FRANCE", &["F POR - SPA"])]);
    r.expect(&[("F POR", Void)]);
    r.stays("F POR");
}

#[test]
fn b02_moving_with_unspecified_coast_when_coast_is_not_necessary() {
    // Preferred: the only reachable coast is taken.
    let r = moves(&[("FRANCE", &["F GAS - SPA"])]);
    r.moved("F GAS", "SPA/NC");
}

#[test]
fn b03_moving_with_wrong_coast_when_coast_is_not_necessary() {
    let r = moves(&[("FRANCE", &["F GAS - SPA/SC"])]);
    r.expect(&[("F GAS", Void)]);
    r.stays("F GAS");
}

#[test]
fn b04_support_to_unreachable_coast_allowed() {
    let r = moves(&[
        ("FRANCE", &["F GAS - SPA/NC", "F MAR S F GAS - SPA/NC"]),
        ("ITALY", &["F WES - SPA/SC"]),
    ]);
    r.moved("F GAS", "SPA/NC");
    r.expect(&[("F WES", Bounce)]);
}

#[test]
fn b05_support_from_unreachable_coast_not_allowed() {
    let r = moves(&[
        ("FRANCE", &["F MAR - LYO", "F SPA/NC S F MAR - LYO"]),
        ("ITALY", &["F LYO H"]),
    ]);
    r.expect(&[("F SPA/NC", Void), ("F MAR", Bounce)]);
    r.stays("F LYO");
}

#[test]
fn b06_support_can_be_cut_with_other_coast() {
    let r = moves(&[
        ("ENGLAND", &["F IRI S F NAO - MAO", "F NAO - MAO"]),
        ("FRANCE", &["F SPA/NC S F MAO", "F MAO H"]),
        ("ITALY", &["F LYO - SPA/SC"]),
    ]);
    r.expect(&[("F SPA/NC", Cut)]);
    r.moved("F NAO", "MAO");
    r.dislodged("F MAO");
}

#[test]
fn b07_supporting_with_unspecified_coast() {
    let r = moves(&[
        ("FRANCE", &["F POR S F MAO - SPA", "F MAO - SPA/NC"]),
        ("ITALY", &["F LYO S F WES - SPA/SC", "F WES - SPA/SC"]),
    ]);
    r.expect(&[("F POR", Ok), ("F MAO", Bounce), ("F WES", Bounce)]);
}

#[test]
fn b08_supporting_with_unspecified_coast_when_only_one_coast_is_possible() {
    let r = moves(&[
        ("FRANCE", &["F POR S F GAS - SPA", "F GAS - SPA/NC"]),
        ("ITALY", &["F LYO S F WES - SPA/SC", "F WES - SPA/SC"]),
    ]);
    r.expect(&[("F POR", Ok), ("F GAS", Bounce), ("F WES", Bounce)]);
}

#[test]
fn b09_supporting_with_wrong_coast() {
    let r = moves(&[
        ("FRANCE", &["F POR S F MAO - SPA/NC", "F MAO - SPA/SC"]),
        ("ITALY", &["F LYO S F WES - SPA/SC", "F WES - SPA/SC"]),
    ]);
    r.expect(&[("F POR", Void), ("F MAO", Bounce)]);
    r.moved("F WES", "SPA/SC");
}

#[test]
fn b10_unit_ordered_with_wrong_coast() {
    // Preferred: the order is carried out for the fleet that is there.
    let r = moves_with(
        &[("FRANCE", &["F SPA/SC"])],
        &[("FRANCE", &["F SPA/NC - LYO"])],
    );
    r.moved("F SPA", "LYO");
}

#[test]
fn b11_coast_can_not_be_ordered_to_change() {
    let r = moves_with(
        &[("FRANCE", &["F SPA/NC"])],
        &[("FRANCE", &["F SPA/SC - LYO"])],
    );
    r.expect(&[("F SPA", Void)]);
    r.stays("F SPA");
}

#[test]
fn b12_army_movement_with_coastal_specification() {
    // Preferred: the coast is ignored for an army.
    let r = moves(&[("FRANCE", &["A GAS - SPA/NC"])]);
    r.moved("A GAS", "SPA");
}

#[test]
fn b13_coastal_crawl_not_allowed() {
    let r = moves(&[("TURKEY", &["F BUL/SC - CON", "F CON - BUL/EC"])]);
    r.expect(&[("F BUL", Bounce), ("F CON", Bounce)]);
    r.all_stay(&["F BUL", "F CON"]);
}

#[test]
fn b14_building_with_unspecified_coast() {
    let r = adjust(
        &[("RUSSIA", &[])],
        &[("RUSSIA", &["STP", "MOS"])],
        &[("RUSSIA", &["F STP B"])],
    );
    assert_eq!(r.outcome("F STP"), Void);
    assert_eq!(r.count("RUSSIA"), 0);
}

#[test]
fn b15_supporting_foreign_unit_with_unspecified_coast() {
    let r = moves(&[
        ("ENGLAND", &["F MAO - SPA/NC"]),
        ("FRANCE", &["F POR S F MAO - SPA"]),
        ("ITALY", &["F LYO S F WES - SPA/SC", "F WES - SPA/SC"]),
    ]);
    r.expect(&[("F POR", Ok), ("F MAO", Bounce), ("F WES", Bounce)]);
}

// ---------------------------------------------------------------- 6.C circular movement

#[test]
fn c01_three_army_circular_movement() {
    let r = moves(&[("TURKEY", &["F ANK - CON", "A CON - SMY", "A SMY - ANK"])]);
    r.all_moved(&[("F ANK", "CON"), ("A CON", "SMY"), ("A SMY", "ANK")]);
}

#[test]
fn c02_three_army_circular_movement_with_support() {
    let r = moves(&[(
        "TURKEY",
        &[
            "F ANK - CON",
            "A CON - SMY",
            "A SMY - ANK",
            "A BUL S F ANK - CON",
        ],
    )]);
    r.all_moved(&[("F ANK", "CON"), ("A CON", "SMY"), ("A SMY", "ANK")]);
}

#[test]
fn c03_a_disrupted_three_army_circular_movement() {
    let r = moves(&[(
        "TURKEY",
        &["F ANK - CON", "A CON - SMY", "A SMY - ANK", "A BUL - CON"],
    )]);
    r.all_stay(&["F ANK", "A CON", "A SMY", "A BUL"]);
}

#[test]
fn c04_a_circular_movement_with_attacked_convoy() {
    let r = moves(&[
        ("AUSTRIA", &["A TRI - SER", "A SER - BUL"]),
        (
            "TURKEY",
            &[
                "A BUL - TRI",
                "F AEG C A BUL - TRI",
                "F ION C A BUL - TRI",
                "F ADR C A BUL - TRI",
            ],
        ),
        ("ITALY", &["F NAP - ION"]),
    ]);
    r.all_moved(&[("A TRI", "SER"), ("A SER", "BUL"), ("A BUL", "TRI")]);
    r.expect(&[("F NAP", Bounce)]);
}

#[test]
fn c05_a_disrupted_circular_movement_due_to_dislodged_convoy() {
    let r = moves(&[
        ("AUSTRIA", &["A TRI - SER", "A SER - BUL"]),
        (
            "TURKEY",
            &[
                "A BUL - TRI",
                "F AEG C A BUL - TRI",
                "F ION C A BUL - TRI",
                "F ADR C A BUL - TRI",
            ],
        ),
        ("ITALY", &["F NAP - ION", "F TUN S F NAP - ION"]),
    ]);
    r.all_stay(&["A TRI", "A SER", "A BUL"]);
    r.expect(&[("A BUL", NoConvoy)]);
    r.moved("F NAP", "ION");
    r.dislodged("F ION");
}

#[test]
fn c06_two_armies_with_two_convoys() {
    let r = moves(&[
        ("ENGLAND", &["F NTH C A LON - BEL", "A LON - BEL"]),
        ("FRANCE", &["F ENG C A BEL - LON", "A BEL - LON"]),
    ]);
    r.all_moved(&[("A LON", "BEL"), ("A BEL", "LON")]);
}

#[test]
fn c07_disrupted_unit_swap() {
    let r = moves(&[
        ("ENGLAND", &["F NTH C A LON - BEL", "A LON - BEL"]),
        (
            "FRANCE",
            &["F ENG C A BEL - LON", "A BEL - LON", "A BUR - BEL"],
        ),
    ]);
    r.all_stay(&["A LON", "A BEL", "A BUR"]);
}

#[test]
fn c08_no_self_dislodgement_in_disrupted_circular_movement() {
    let r = moves(&[
        (
            "TURKEY",
            &["F CON - BLA", "A BUL - CON", "A SMY S A BUL - CON"],
        ),
        ("RUSSIA", &["F BLA - BUL/EC"]),
        ("AUSTRIA", &["A SER - BUL"]),
    ]);
    r.all_stay(&["F CON", "A BUL", "F BLA", "A SER"]);
    r.none_dislodged();
}

#[test]
fn c09_no_help_in_dislodgement_of_own_unit_in_disrupted_circular_movement() {
    let r = moves(&[
        ("TURKEY", &["F CON - BLA", "A SMY S A BUL - CON"]),
        ("RUSSIA", &["F BLA - BUL/EC"]),
        ("AUSTRIA", &["A SER - BUL", "A BUL - CON"]),
    ]);
    r.all_stay(&["F CON", "A BUL", "F BLA", "A SER"]);
    r.none_dislodged();
}

// ---------------------------------------------------------------- 6.D supports and dislodges

#[test]
fn d01_supported_hold_can_prevent_dislodgement() {
    let r = moves(&[
        ("AUSTRIA", &["F ADR S A TRI - VEN", "A TRI - VEN"]),
        ("ITALY", &["A VEN H", "A TYR S A VEN"]),
    ]);
    r.expect(&[("A TRI", Bounce)]);
    r.stays("A VEN");
}

#[test]
fn d02_a_move_cuts_support_on_hold() {
    let r = moves(&[
        (
            "AUSTRIA",
            &["F ADR S A TRI - VEN", "A TRI - VEN", "A VIE - TYR"],
        ),
        ("ITALY", &["A VEN H", "A TYR S A VEN"]),
    ]);
    r.expect(&[("A TYR", Cut)]);
    r.moved("A TRI", "VEN");
    r.dislodged("A VEN");
}

#[test]
fn d03_a_move_cuts_support_on_move() {
    let r = moves(&[
        ("AUSTRIA", &["F ADR S A TRI - VEN", "A TRI - VEN"]),
        ("ITALY", &["A VEN H", "F ION - ADR"]),
    ]);
    r.expect(&[("F ADR", Cut), ("A TRI", Bounce)]);
    r.stays("A VEN");
}

#[test]
fn d04_support_to_hold_on_unit_supporting_a_hold_allowed() {
    let r = moves(&[
        ("GERMANY", &["A BER S F KIE", "F KIE S A BER"]),
        ("RUSSIA", &["F BAL S A PRU - BER", "A PRU - BER"]),
    ]);
    r.expect(&[("A PRU", Bounce), ("A BER", Cut)]);
    r.stays("A BER");
}

#[test]
fn d05_support_to_hold_on_unit_supporting_a_move_allowed() {
    let r = moves(&[
        (
            "GERMANY",
            &["A BER S A MUN - SIL", "F KIE S A BER", "A MUN - SIL"],
        ),
        ("RUSSIA", &["F BAL S A PRU - BER", "A PRU - BER"]),
    ]);
    r.expect(&[("A PRU", Bounce)]);
    r.stays("A BER");
    r.moved("A MUN", "SIL");
}

#[test]
fn d06_support_to_hold_on_convoying_unit_allowed() {
    let r = moves(&[
        (
            "GERMANY",
            &["A BER - SWE", "F BAL C A BER - SWE", "F PRU S F BAL"],
        ),
        ("RUSSIA", &["F LVN - BAL", "F BOT S F LVN - BAL"]),
    ]);
    r.moved("A BER", "SWE");
    r.stays("F BAL");
    r.expect(&[("F LVN", Bounce)]);
}

#[test]
fn d07_support_to_hold_on_moving_unit_not_allowed() {
    let r = moves(&[
        ("GERMANY", &["F BAL - SWE", "F PRU S F BAL"]),
        (
            "RUSSIA",
            &["F LVN - BAL", "F BOT S F LVN - BAL", "A FIN - SWE"],
        ),
    ]);
    r.expect(&[("F PRU", Void), ("A FIN", Bounce)]);
    r.moved("F LVN", "BAL");
    r.dislodged("F BAL");
}

#[test]
fn d08_failed_convoy_can_not_receive_hold_support() {
    let r = moves(&[
        (
            "AUSTRIA",
            &["F ION H", "A SER S A ALB - GRE", "A ALB - GRE"],
        ),
        ("TURKEY", &["A GRE - NAP", "A BUL S A GRE"]),
    ]);
    r.expect(&[("A BUL", Void)]);
    r.moved("A ALB", "GRE");
    r.dislodged("A GRE");
}

#[test]
fn d09_support_to_move_on_holding_unit_not_allowed() {
    let r = moves(&[
        ("ITALY", &["A VEN - TRI", "A TYR S A VEN - TRI"]),
        ("AUSTRIA", &["A ALB S A TRI - SER", "A TRI H"]),
    ]);
    r.expect(&[("A ALB", Void)]);
    r.moved("A VEN", "TRI");
    r.dislodged("A TRI");
}

#[test]
fn d10_self_dislodgment_prohibited() {
    let r = moves(&[(
        "GERMANY",
        &["A BER H", "F KIE - BER", "A MUN S F KIE - BER"],
    )]);
    r.expect(&[("F KIE", Bounce)]);
    r.all_stay(&["A BER", "F KIE"]);
}

#[test]
fn d11_no_self_dislodgment_of_returning_unit() {
    let r = moves(&[
        (
            "GERMANY",
            &["A BER - PRU", "F KIE - BER", "A MUN S F KIE - BER"],
        ),
        ("RUSSIA", &["A WAR - PRU"]),
    ]);
    r.all_stay(&["A BER", "F KIE", "A WAR"]);
    r.none_dislodged();
}

#[test]
fn d12_supporting_a_foreign_unit_to_dislodge_own_unit_prohibited() {
    let r = moves(&[
        ("AUSTRIA", &["F TRI H", "A VIE S A VEN - TRI"]),
        ("ITALY", &["A VEN - TRI"]),
    ]);
    r.expect(&[("A VEN", Bounce)]);
    r.stays("F TRI");
}

#[test]
fn d13_supporting_a_foreign_unit_to_dislodge_a_returning_own_unit_prohibited() {
    let r = moves(&[
        ("AUSTRIA", &["F TRI - ADR", "A VIE S A VEN - TRI"]),
        ("ITALY", &["A VEN - TRI", "F APU - ADR"]),
    ]);
    r.all_stay(&["F TRI", "A VEN", "F APU"]);
    r.none_dislodged();
}

#[test]
fn d14_supporting_a_foreign_unit_is_not_enough_to_prevent_dislodgement() {
    let r = moves(&[
        ("AUSTRIA", &["F TRI H", "A VIE S A VEN - TRI"]),
        (
            "ITALY",
            &["A VEN - TRI", "A TYR S A VEN - TRI", "F ADR S A VEN - TRI"],
        ),
    ]);
    r.moved("A VEN", "TRI");
    r.dislodged("F TRI");
}

#[test]
fn d15_defender_can_not_cut_support_for_attack_on_itself() {
    let r = moves(&[
        ("RUSSIA", &["F CON S F BLA - ANK", "F BLA - ANK"]),
        ("TURKEY", &["F ANK - CON"]),
    ]);
    r.expect(&[("F CON", Ok)]);
    r.moved("F BLA", "ANK");
    r.dislodged("F ANK");
}

#[test]
fn d16_convoying_a_unit_dislodging_a_unit_of_same_power_is_allowed() {
    let r = moves(&[
        ("ENGLAND", &["A LON H", "F NTH C A BEL - LON"]),
        ("FRANCE", &["F ENG S A BEL - LON", "A BEL - LON"]),
    ]);
    r.moved("A BEL", "LON");
    r.dislodged("A LON");
}

#[test]
fn d17_dislodgement_cuts_supports() {
    let r = moves(&[
        ("RUSSIA", &["F CON S F BLA - ANK", "F BLA - ANK"]),
        (
            "TURKEY",
            &["F ANK - CON", "A SMY S F ANK - CON", "A ARM - ANK"],
        ),
    ]);
    r.moved("F ANK", "CON");
    r.dislodged("F CON");
    r.expect(&[("F BLA", Bounce), ("A ARM", Bounce)]);
}

#[test]
fn d18_a_surviving_unit_will_sustain_support() {
    let r = moves(&[
        (
            "RUSSIA",
            &["F CON S F BLA - ANK", "F BLA - ANK", "A BUL S F CON"],
        ),
        (
            "TURKEY",
            &["F ANK - CON", "A SMY S F ANK - CON", "A ARM - ANK"],
        ),
    ]);
    r.moved("F BLA", "ANK");
    r.dislodged("F ANK");
    r.stays("F CON");
    r.expect(&[("A ARM", Bounce)]);
}

#[test]
fn d19_even_when_surviving_is_in_alternative_way() {
    let r = moves(&[
        (
            "RUSSIA",
            &["F CON S F BLA - ANK", "F BLA - ANK", "A SMY S F ANK - CON"],
        ),
        ("TURKEY", &["F ANK - CON"]),
    ]);
    r.moved("F BLA", "ANK");
    r.dislodged("F ANK");
    r.stays("F CON");
}

#[test]
fn d20_unit_can_not_cut_support_of_its_own_country() {
    let r = moves(&[
        (
            "ENGLAND",
            &["F LON S F NTH - ENG", "F NTH - ENG", "A YOR - LON"],
        ),
        ("FRANCE", &["F ENG H"]),
    ]);
    r.moved("F NTH", "ENG");
    r.dislodged("F ENG");
    r.expect(&[("F LON", Ok), ("A YOR", Bounce)]);
}

#[test]
fn d21_dislodging_does_not_cancel_a_support_cut() {
    let r = moves(&[
        ("AUSTRIA", &["F TRI H"]),
        ("ITALY", &["A VEN - TRI", "A TYR S A VEN - TRI"]),
        ("GERMANY", &["A MUN - TYR"]),
        ("RUSSIA", &["A SIL - MUN", "A BER S A SIL - MUN"]),
    ]);
    r.stays("F TRI");
    r.expect(&[("A TYR", Cut), ("A VEN", Bounce)]);
    r.moved("A SIL", "MUN");
    r.dislodged("A MUN");
}

#[test]
fn d22_impossible_fleet_move_can_not_be_supported() {
    let r = moves(&[
        ("GERMANY", &["F KIE - MUN", "A BUR S F KIE - MUN"]),
        ("RUSSIA", &["A MUN - KIE", "A BER S A MUN - KIE"]),
    ]);
    r.expect(&[("F KIE", Dislodged), ("A BUR", Void)]);
    r.moved("A MUN", "KIE");
}

#[test]
fn d23_impossible_coast_move_can_not_be_supported() {
    let r = moves(&[
        ("ITALY", &["F LYO - SPA/SC", "F WES S F LYO - SPA/SC"]),
        ("FRANCE", &["F SPA/NC - LYO", "F MAR S F SPA/NC - LYO"]),
    ]);
    r.moved("F LYO", "SPA/SC");
    r.dislodged("F SPA");
    r.expect(&[("F MAR", Void)]);
}

#[test]
fn d24_impossible_army_move_can_not_be_supported() {
    let r = moves(&[
        ("FRANCE", &["A MAR - LYO", "F SPA/SC S A MAR - LYO"]),
        ("ITALY", &["F LYO H"]),
        ("TURKEY", &["F TYS S F WES - LYO", "F WES - LYO"]),
    ]);
    r.expect(&[("A MAR", Void), ("F SPA", Void)]);
    r.moved("F WES", "LYO");
    r.dislodged("F LYO");
}

#[test]
fn d25_failing_hold_support_can_be_supported() {
    let r = moves(&[
        ("GERMANY", &["A BER S A PRU", "F KIE S A BER"]),
        ("RUSSIA", &["F BAL S A PRU - BER", "A PRU - BER"]),
    ]);
    r.expect(&[("A BER", Void), ("A PRU", Bounce)]);
    r.stays("A BER");
}

#[test]
fn d26_failing_move_support_can_be_supported() {
    let r = moves(&[
        ("GERMANY", &["A BER S A PRU - SIL", "F KIE S A BER"]),
        ("RUSSIA", &["F BAL S A PRU - BER", "A PRU - BER"]),
    ]);
    r.expect(&[("A BER", Void), ("A PRU", Bounce)]);
    r.stays("A BER");
}

#[test]
fn d27_failing_convoy_can_be_supported() {
    let r = moves(&[
        ("ENGLAND", &["F SWE - BAL", "F DEN S F SWE - BAL"]),
        ("GERMANY", &["A BER H"]),
        ("RUSSIA", &["F BAL C A BER - LVN", "F PRU S F BAL"]),
    ]);
    r.expect(&[("F SWE", Bounce), ("F BAL", Void)]);
    r.stays("F BAL");
}

#[test]
fn d28_impossible_move_and_support() {
    let r = moves(&[
        ("AUSTRIA", &["A BUD S F RUM"]),
        ("RUSSIA", &["F RUM - HOL"]),
        ("TURKEY", &["F BLA - RUM", "A BUL S F BLA - RUM"]),
    ]);
    r.expect(&[("F RUM", Void), ("A BUD", Ok), ("F BLA", Bounce)]);
    r.stays("F RUM");
}

#[test]
fn d29_move_to_impossible_coast_and_support() {
    let r = moves(&[
        ("AUSTRIA", &["A BUD S F RUM"]),
        ("RUSSIA", &["F RUM - BUL/SC"]),
        ("TURKEY", &["F BLA - RUM", "A BUL S F BLA - RUM"]),
    ]);
    r.expect(&[("F RUM", Void), ("F BLA", Bounce)]);
    r.stays("F RUM");
}

#[test]
fn d30_move_without_coast_and_support() {
    let r = moves(&[
        ("ITALY", &["F AEG S F CON"]),
        ("RUSSIA", &["F CON - BUL"]),
        ("TURKEY", &["F BLA - CON", "A BUL S F BLA - CON"]),
    ]);
    r.expect(&[("F CON", Void), ("F BLA", Bounce)]);
    r.stays("F CON");
}

#[test]
fn d31_a_tricky_impossible_support() {
    let r = moves(&[
        ("AUSTRIA", &["A RUM - ARM"]),
        ("TURKEY", &["F BLA S A RUM - ARM"]),
    ]);
    // Preferred: the only route is through the supporting fleet, so the support is impossible
    // and void; the move itself is possible and fails for want of a convoy.
    r.expect(&[("A RUM", NoConvoy), ("F BLA", Void)]);
    r.stays("A RUM");
}

#[test]
fn d32_a_missing_fleet() {
    let r = moves(&[
        ("ENGLAND", &["F EDI S A LVP - YOR", "A LVP - YOR"]),
        ("FRANCE", &["F LON S A YOR"]),
        ("GERMANY", &["A YOR - HOL"]),
    ]);
    // Preferred: with no fleet that could convoy, the move is illegal, so the army holds and
    // can receive the hold support.
    r.expect(&[("A YOR", Void), ("F LON", Ok), ("A LVP", Bounce)]);
    r.stays("A YOR");
}

#[test]
fn d33_unwanted_support_allowed() {
    let r = moves(&[
        ("AUSTRIA", &["A SER - BUD", "A VIE - BUD"]),
        ("RUSSIA", &["A GAL S A SER - BUD"]),
        ("TURKEY", &["A BUL - SER"]),
    ]);
    r.moved("A SER", "BUD");
    r.moved("A BUL", "SER");
    r.expect(&[("A VIE", Bounce)]);
}

#[test]
fn d34_support_targeting_own_area_not_allowed() {
    let r = moves(&[
        (
            "GERMANY",
            &["A BER - PRU", "A SIL S A BER - PRU", "F BAL S A BER - PRU"],
        ),
        ("ITALY", &["A PRU S A LVN - PRU"]),
        ("RUSSIA", &["A WAR S A LVN - PRU", "A LVN - PRU"]),
    ]);
    r.moved("A BER", "PRU");
    r.dislodged("A PRU");
    r.expect(&[("A LVN", Bounce)]);
}

// ---------------------------------------------------------------- 6.E head-to-head battles

#[test]
fn e01_dislodged_unit_has_no_effect_on_attackers_area() {
    let r = moves(&[
        (
            "GERMANY",
            &["A BER - PRU", "F KIE - BER", "A SIL S A BER - PRU"],
        ),
        ("RUSSIA", &["A PRU - BER"]),
    ]);
    r.all_moved(&[("A BER", "PRU"), ("F KIE", "BER")]);
    r.dislodged("A PRU");
}

#[test]
fn e02_no_self_dislodgement_in_head_to_head_battle() {
    let r = moves(&[(
        "GERMANY",
        &["A BER - KIE", "F KIE - BER", "A MUN S A BER - KIE"],
    )]);
    r.all_stay(&["A BER", "F KIE", "A MUN"]);
}

#[test]
fn e03_no_help_in_dislodging_own_unit() {
    let r = moves(&[
        ("GERMANY", &["A BER - KIE", "A MUN S F KIE - BER"]),
        ("ENGLAND", &["F KIE - BER"]),
    ]);
    r.all_stay(&["A BER", "F KIE"]);
    r.none_dislodged();
}

#[test]
fn e04_non_dislodged_loser_has_still_effect() {
    let r = moves(&[
        (
            "GERMANY",
            &["F HOL - NTH", "F HEL S F HOL - NTH", "F SKA S F HOL - NTH"],
        ),
        ("FRANCE", &["F NTH - HOL", "F BEL S F NTH - HOL"]),
        (
            "ENGLAND",
            &["F EDI S F NWG - NTH", "F YOR S F NWG - NTH", "F NWG - NTH"],
        ),
        ("AUSTRIA", &["A KIE S A RUH - HOL", "A RUH - HOL"]),
    ]);
    r.all_stay(&["F HOL", "F NTH", "F NWG", "A RUH"]);
    r.none_dislodged();
}

#[test]
fn e05_loser_dislodged_by_another_army_has_still_effect() {
    let r = moves(&[
        (
            "GERMANY",
            &["F HOL - NTH", "F HEL S F HOL - NTH", "F SKA S F HOL - NTH"],
        ),
        ("FRANCE", &["F NTH - HOL", "F BEL S F NTH - HOL"]),
        (
            "ENGLAND",
            &[
                "F EDI S F NWG - NTH",
                "F YOR S F NWG - NTH",
                "F NWG - NTH",
                "F LON S F NWG - NTH",
            ],
        ),
        ("AUSTRIA", &["A KIE S A RUH - HOL", "A RUH - HOL"]),
    ]);
    r.moved("F NWG", "NTH");
    r.dislodged("F NTH");
    r.all_stay(&["F HOL", "A RUH"]);
}

#[test]
fn e06_not_dislodge_because_of_own_support_has_still_effect() {
    let r = moves(&[
        ("GERMANY", &["F HOL - NTH", "F HEL S F HOL - NTH"]),
        (
            "FRANCE",
            &["F NTH - HOL", "F BEL S F NTH - HOL", "F ENG S F HOL - NTH"],
        ),
        ("AUSTRIA", &["A KIE S A RUH - HOL", "A RUH - HOL"]),
    ]);
    r.all_stay(&["F HOL", "F NTH", "A RUH"]);
    r.none_dislodged();
}

#[test]
fn e07_no_self_dislodgement_with_beleaguered_garrison() {
    let r = moves(&[
        ("ENGLAND", &["F NTH H", "F YOR S F NWY - NTH"]),
        ("GERMANY", &["F HOL S F HEL - NTH", "F HEL - NTH"]),
        ("RUSSIA", &["F SKA S F NWY - NTH", "F NWY - NTH"]),
    ]);
    r.all_stay(&["F NTH", "F HEL", "F NWY"]);
    r.none_dislodged();
}

#[test]
fn e08_no_self_dislodgement_with_beleaguered_garrison_and_head_to_head_battle() {
    let r = moves(&[
        ("ENGLAND", &["F NTH - NWY", "F YOR S F NWY - NTH"]),
        ("GERMANY", &["F HOL S F HEL - NTH", "F HEL - NTH"]),
        ("RUSSIA", &["F SKA S F NWY - NTH", "F NWY - NTH"]),
    ]);
    r.all_stay(&["F NTH", "F HEL", "F NWY"]);
    r.none_dislodged();
}

#[test]
fn e09_almost_self_dislodgement_with_beleaguered_garrison() {
    let r = moves(&[
        ("ENGLAND", &["F NTH - NWG", "F YOR S F NWY - NTH"]),
        ("GERMANY", &["F HOL S F HEL - NTH", "F HEL - NTH"]),
        ("RUSSIA", &["F SKA S F NWY - NTH", "F NWY - NTH"]),
    ]);
    r.all_moved(&[("F NTH", "NWG"), ("F NWY", "NTH")]);
    r.stays("F HEL");
}

#[test]
fn e10_almost_circular_movement_with_no_self_dislodgement_with_beleaguered_garrison() {
    let r = moves(&[
        ("ENGLAND", &["F NTH - DEN", "F YOR S F NWY - NTH"]),
        (
            "GERMANY",
            &["F HOL S F HEL - NTH", "F HEL - NTH", "F DEN - HEL"],
        ),
        ("RUSSIA", &["F SKA S F NWY - NTH", "F NWY - NTH"]),
    ]);
    r.all_stay(&["F NTH", "F HEL", "F DEN", "F NWY"]);
    r.none_dislodged();
}

#[test]
fn e11_no_self_dislodgement_with_beleaguered_garrison_unit_swap_with_adjacent_convoying_and_two_coasts(
) {
    let r = moves(&[
        (
            "FRANCE",
            &[
                "A SPA - POR VIA CONVOY",
                "F MAO C A SPA - POR",
                "F LYO S F POR - SPA/NC",
            ],
        ),
        ("GERMANY", &["A MAR S A GAS - SPA", "A GAS - SPA"]),
        ("ITALY", &["F POR - SPA/NC", "F WES S F POR - SPA/NC"]),
    ]);
    r.all_moved(&[("A SPA", "POR"), ("F POR", "SPA/NC")]);
    r.expect(&[("A GAS", Bounce)]);
}

#[test]
fn e12_support_on_attack_on_own_unit_can_be_used_for_other_means() {
    let r = moves(&[
        ("AUSTRIA", &["A BUD - RUM", "A SER S A VIE - BUD"]),
        ("ITALY", &["A VIE - BUD"]),
        ("RUSSIA", &["A GAL - BUD", "A RUM S A GAL - BUD"]),
    ]);
    r.all_stay(&["A BUD", "A VIE", "A GAL", "A RUM"]);
    r.none_dislodged();
}

#[test]
fn e13_three_way_beleaguered_garrison() {
    let r = moves(&[
        ("ENGLAND", &["F EDI S F YOR - NTH", "F YOR - NTH"]),
        ("FRANCE", &["F BEL - NTH", "F ENG S F BEL - NTH"]),
        ("GERMANY", &["F NTH H"]),
        ("RUSSIA", &["F NWG - NTH", "F NWY S F NWG - NTH"]),
    ]);
    r.all_stay(&["F YOR", "F BEL", "F NTH", "F NWG"]);
    r.none_dislodged();
}

#[test]
fn e14_illegal_head_to_head_battle_can_still_defend() {
    let r = moves(&[("ENGLAND", &["A LVP - EDI"]), ("RUSSIA", &["F EDI - LVP"])]);
    r.expect(&[("A LVP", Bounce), ("F EDI", Void)]);
    r.all_stay(&["A LVP", "F EDI"]);
}

#[test]
fn e15_the_friendly_head_to_head_battle() {
    let r = moves(&[
        ("ENGLAND", &["F HOL S A RUH - KIE", "A RUH - KIE"]),
        (
            "FRANCE",
            &["A KIE - BER", "A MUN S A KIE - BER", "A SIL S A KIE - BER"],
        ),
        (
            "GERMANY",
            &["A BER - KIE", "F DEN S A BER - KIE", "F HEL S A BER - KIE"],
        ),
        ("RUSSIA", &["F BAL S A PRU - BER", "A PRU - BER"]),
    ]);
    r.all_stay(&["A RUH", "A KIE", "A BER", "A PRU"]);
    r.none_dislodged();
}
