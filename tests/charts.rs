//! Every cell of both "who acts first" charts, evaluated on representative actions; and the
//! attack-sequence chart for 1-6 routines.
//!
//! Row actions and column actions differ (reach, speed factor, routines, casting time,
//! arrival), so each cell's rule shows in its outcome. Expected outcomes were worked out by
//! hand from the chart's wording: `A` = the row acts first, `B` = the column, `=` together.

use firststrike::rules::action::{ActionKind, Declared};
use firststrike::rules::chart::{self, Category, Chart};
use firststrike::rules::first::{Context, First, who_first};
use firststrike::rules::sequence::{chart_rows, round_sequence};

fn row_action(c: Category, die: u32) -> Declared {
    let base = Declared::melee("row", die).side("Row");
    match c {
        Category::Melee => base.reach(5.0),
        Category::MeleeSf => base.sf(5).reach(4.0),
        Category::MeleeMulti => base.sf(4).reach(3.0).routines(2),
        Category::Charge => base
            .kind(ActionKind::Charge { arrival_segment: 3 })
            .reach(10.0),
        Category::Missile => base.kind(ActionKind::Missile),
        Category::MissileMulti => base.kind(ActionKind::Missile).routines(2),
        Category::Spell => base.kind(ActionKind::Cast {
            segments: 4,
            device: false,
        }),
        Category::Turn => base.kind(ActionKind::Turn),
    }
}

fn col_action(c: Category, die: u32) -> Declared {
    let base = Declared::melee("col", die).side("Col");
    match c {
        Category::Melee => base.reach(8.0),
        Category::MeleeSf => base.sf(7).reach(6.0),
        Category::MeleeMulti => base.sf(2).reach(1.5).routines(3),
        Category::Charge => base
            .kind(ActionKind::Charge { arrival_segment: 6 })
            .reach(4.0),
        Category::Missile => base.kind(ActionKind::Missile),
        Category::MissileMulti => base.kind(ActionKind::Missile).routines(3),
        Category::Spell => base.kind(ActionKind::Cast {
            segments: 2,
            device: false,
        }),
        Category::Turn => base.kind(ActionKind::Turn),
    }
}

//                 M    SF   MM   CH   MI   MIM  SP   TU
const TIED: [[char; 8]; 8] = [
    ['=', '=', 'B', 'A', '=', 'B', 'B', '='], // MELEE
    ['=', 'A', 'B', '=', '=', 'B', 'B', '='], // MELEE W/ SF
    ['A', 'A', 'B', 'A', 'A', 'B', 'B', '='], // MELEE MULTI
    ['A', 'A', 'B', 'A', 'B', 'B', 'B', 'B'], // CHARGE
    ['=', '=', 'B', 'A', '=', 'B', 'B', '='], // MISSILE
    ['A', 'A', 'B', 'A', 'A', 'B', 'B', '='], // MISSILE MULTI
    ['B', 'A', 'B', 'A', 'B', 'B', 'B', 'B'], // SPELL
    ['=', '=', '=', 'A', '=', '=', 'B', '='], // TURN
];

const HIGH_LOW: [[char; 8]; 8] = [
    ['A', 'A', 'B', 'A', 'A', 'B', 'A', 'A'], // MELEE (high)
    ['A', 'A', 'B', '=', 'A', 'B', 'A', 'A'], // MELEE W/ SF
    ['A', 'A', 'B', 'A', 'A', 'B', 'A', 'A'], // MELEE MULTI
    ['A', 'A', 'B', 'A', 'B', 'B', 'B', 'B'], // CHARGE
    ['A', 'A', 'B', 'A', 'A', 'B', 'A', 'A'], // MISSILE
    ['A', 'A', 'B', 'A', 'A', 'B', 'A', 'A'], // MISSILE MULTI
    ['A', 'A', 'B', 'A', 'A', 'A', 'B', 'A'], // SPELL
    ['A', 'A', 'A', 'A', 'A', 'A', 'A', 'A'], // TURN
];

fn symbol(f: First) -> char {
    match f {
        First::A => 'A',
        First::B => 'B',
        First::Together => '=',
    }
}

fn check(chart: Chart, want: &[[char; 8]; 8], row_die: u32, col_die: u32) {
    let mut failures = Vec::new();
    for (i, &rc) in Category::ALL.iter().enumerate() {
        for (j, &cc) in Category::ALL.iter().enumerate() {
            let (r, c) = (row_action(rc, row_die), col_action(cc, col_die));
            assert_eq!((r.category(), c.category()), (rc, cc));
            let d = who_first(&r, &c, &Context::default());
            assert_eq!(d.chart, chart, "{} vs {}", rc.heading(), cc.heading());
            assert_eq!(
                d.cell,
                chart::cell(chart, rc, cc),
                "{} vs {}: cell read",
                rc.heading(),
                cc.heading()
            );
            if symbol(d.first) != want[i][j] {
                failures.push(format!(
                    "{} vs {} [{}]: got {}, want {} ({})",
                    rc.heading(),
                    cc.heading(),
                    d.cell.label(),
                    symbol(d.first),
                    want[i][j],
                    d.why
                ));
            }
            // Seen from the column's side, the answer swaps.
            let back = who_first(&c, &r, &Context::default());
            assert_eq!(
                back.first,
                d.first.swapped(),
                "{} vs {} swapped",
                rc.heading(),
                cc.heading()
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} cells wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_cell_of_the_tied_chart() {
    check(Chart::Tied, &TIED, 3, 3);
}

#[test]
fn every_cell_of_the_high_low_chart() {
    check(Chart::HighLow, &HIGH_LOW, 5, 2);
}

#[test]
fn tied_chart_is_symmetric() {
    for &a in &Category::ALL {
        for &b in &Category::ALL {
            assert_eq!(
                chart::cell(Chart::Tied, a, b),
                chart::cell(Chart::Tied, b, a),
                "{} / {}",
                a.heading(),
                b.heading()
            );
        }
    }
}

#[test]
fn chart_labels_match_the_table_wording() {
    use Category::*;
    let cases = [
        (
            Chart::Tied,
            MeleeSf,
            MeleeSf,
            "Low Speed Factor (after round 1)",
        ),
        (Chart::Tied, MeleeSf, Spell, "Speed Factor vs. Casting Time"),
        (
            Chart::Tied,
            MeleeMulti,
            MeleeSf,
            "Higher #AT, then as MELEE or MELEE W/ SF",
        ),
        (
            Chart::Tied,
            Spell,
            Spell,
            "Shorter Casting Time, then Same Time",
        ),
        (Chart::Tied, Charge, Spell, "Move vs. Casting Time"),
        (
            Chart::HighLow,
            Spell,
            MeleeSf,
            "Casting Time vs. (Speed Factor - Low d6)",
        ),
        (
            Chart::HighLow,
            Spell,
            Spell,
            "Shorter Casting Time, then High d6",
        ),
        (
            Chart::HighLow,
            Missile,
            MeleeMulti,
            "Higher #AT, then High d6 (+ DEX)",
        ),
        (Chart::HighLow, Charge, Missile, "Missile"),
        (Chart::HighLow, Charge, Turn, "Turn"),
        (Chart::HighLow, Spell, MeleeMulti, "As MELEE or MELEE W/ SF"),
    ];
    for (chart, r, c, label) in cases {
        assert_eq!(
            chart::cell(chart, r, c).label(),
            label,
            "{:?} {} vs {}",
            chart,
            r.heading(),
            c.heading()
        );
    }
}

#[test]
fn attack_sequence_chart_rows_one_to_six() {
    assert_eq!(chart_rows(1), vec![6]);
    assert_eq!(chart_rows(2), vec![5, 7]);
    assert_eq!(chart_rows(3), vec![4, 6, 8]);
    assert_eq!(chart_rows(4), vec![3, 5, 7, 9]);
    assert_eq!(chart_rows(5), vec![2, 4, 6, 8, 10]);
    assert_eq!(chart_rows(6), vec![1, 3, 5, 7, 9, 11]);
    // Beyond six the spacing is extrapolated: seven routines stand one row above the top.
    assert_eq!(chart_rows(7), vec![0, 2, 4, 6, 8, 10, 12]);
}

#[test]
fn attack_sequence_orders_every_pair_of_counts() {
    // The figure with more routines brackets the other's; same-row ties go to initiative.
    let ctx = Context::default();
    let outline = |a: u32, b: u32| {
        let x = Declared::melee("X", 5).routines(a);
        let y = Declared::melee("Y", 2).routines(b);
        round_sequence(&[x, y], &ctx).outline().join(" ")
    };
    assert_eq!(outline(1, 1), "X Y");
    assert_eq!(outline(1, 2), "Y X Y");
    assert_eq!(outline(2, 2), "X Y X Y");
    assert_eq!(outline(1, 3), "Y X Y Y");
    assert_eq!(outline(2, 3), "Y X Y X Y");
    assert_eq!(outline(1, 4), "Y Y X Y Y");
    assert_eq!(outline(3, 5), "Y X Y X Y X Y Y");
    assert_eq!(outline(1, 6), "Y Y Y X Y Y Y");
    assert_eq!(outline(6, 6), "X Y X Y X Y X Y X Y X Y");
}
