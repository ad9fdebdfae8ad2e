//! The two "which of two actions comes first" charts of the initiative and combat table,
//! as data: one for a tied d6, one for a high d6 against a low d6 (rows are the high
//! roller). Every cell names the [`Cell`] rule that decides; [`super::first`] evaluates it.
//!
//! The cells transcribe the charts at the end of the rules text, which summarise DMG
//! p.61-67 and UA p.18-22.

use serde::Serialize;

/// The eight kinds of declared action the charts compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Category {
    /// Natural attacks without a speed factor (claw/claw/bite).
    Melee,
    /// A melee weapon with a speed factor; speed factor breaks ties after the first round.
    MeleeSf,
    /// More than one melee routine this round.
    MeleeMulti,
    /// A charge: no initiative at contact; reach decides.
    Charge,
    /// Missiles: the Dexterity attacking adjustment joins the d6.
    Missile,
    /// A rate of fire above 1.
    MissileMulti,
    /// A spell, or a scroll, potion or device with an activation time.
    Spell,
    /// Turning undead: follows initiative, is not interrupted.
    Turn,
}

impl Category {
    /// All eight, in chart order.
    pub const ALL: [Category; 8] = [
        Category::Melee,
        Category::MeleeSf,
        Category::MeleeMulti,
        Category::Charge,
        Category::Missile,
        Category::MissileMulti,
        Category::Spell,
        Category::Turn,
    ];

    /// The chart's heading for this category.
    pub fn heading(self) -> &'static str {
        match self {
            Category::Melee => "MELEE",
            Category::MeleeSf => "MELEE W/ SF",
            Category::MeleeMulti => "MELEE MULTI",
            Category::Charge => "CHARGE",
            Category::Missile => "MISSILE",
            Category::MissileMulti => "MISSILE MULTI",
            Category::Spell => "SPELL",
            Category::Turn => "TURN",
        }
    }

    fn index(self) -> usize {
        Category::ALL
            .iter()
            .position(|c| *c == self)
            .expect("in ALL")
    }
}

/// What decides between two same-count routines once "higher number of attacks" has not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Then {
    /// Both at once.
    SameTime,
    /// Decide as the single-routine categories would (MELEE or MELEE W/ SF, MISSILE).
    AsSingle,
    /// The longer weapon or reach.
    LongerReach,
    /// The high d6.
    HighD6,
    /// The high d6 with the missile user's Dexterity adjustment.
    HighD6Dex,
}

/// The rule in one cell of a chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Cell {
    /// Both act at once; damage accrues to each.
    SameTime,
    /// The side with the higher d6 acts first.
    HighD6,
    /// The higher d6, after the missile user's Dexterity adjustment.
    HighD6Dex,
    /// The longer weapon or reach strikes first.
    LongerReach,
    /// The lower speed factor strikes first (after the first round of melee).
    LowSpeedFactor,
    /// The figure with more routines strikes first (and last); then as given.
    HigherAttacks(Then),
    /// The attack lands on the segment shown by the caster's die, compared with the casting time.
    CasterDie,
    /// The weapon's speed factor is compared with the casting time.
    SpeedFactorVsCasting,
    /// |speed factor − the attacker's losing die| is compared with the casting time.
    SpeedFactorMinusLowDie,
    /// Against a multi-routine attacker, its first routine is timed as a single one.
    AsSingleVsSpell,
    /// The charger's segments of movement are compared with the casting time.
    MoveVsCasting,
    /// Missile fire beats a charge.
    Missile,
    /// Turning undead beats a charge.
    Turn,
    /// The shorter casting time first; then as given.
    ShorterCasting(Then),
}

impl Cell {
    /// The chart's wording for the cell, as seen from the row.
    pub fn label(self) -> String {
        let then = |t: Then| match t {
            Then::SameTime => "Same Time",
            Then::AsSingle => "as MELEE or MELEE W/ SF",
            Then::LongerReach => "Longer Reach",
            Then::HighD6 => "High d6",
            Then::HighD6Dex => "High d6 (+ DEX)",
        };
        match self {
            Cell::SameTime => "Same Time".into(),
            Cell::HighD6 => "High d6".into(),
            Cell::HighD6Dex => "High d6 (+ DEX)".into(),
            Cell::LongerReach => "Longer Reach".into(),
            Cell::LowSpeedFactor => "Low Speed Factor (after round 1)".into(),
            Cell::HigherAttacks(t) => format!("Higher #AT, then {}", then(t)),
            Cell::CasterDie => "Caster's d6 vs. Casting Time".into(),
            Cell::SpeedFactorVsCasting => "Speed Factor vs. Casting Time".into(),
            Cell::SpeedFactorMinusLowDie => "Casting Time vs. (Speed Factor - Low d6)".into(),
            Cell::AsSingleVsSpell => "As MELEE or MELEE W/ SF".into(),
            Cell::MoveVsCasting => "Move vs. Casting Time".into(),
            Cell::Missile => "Missile".into(),
            Cell::Turn => "Turn".into(),
            Cell::ShorterCasting(t) => format!("Shorter Casting Time, then {}", then(t)),
        }
    }
}

use Cell::*;
use Then as T;

/// The tied-d6 chart (symmetric: row and column may be swapped).
pub const TIED: [[Cell; 8]; 8] = [
    // MELEE
    [
        SameTime,
        SameTime,
        HigherAttacks(T::SameTime),
        LongerReach,
        SameTime,
        HigherAttacks(T::SameTime),
        CasterDie,
        SameTime,
    ],
    // MELEE W/ SF
    [
        SameTime,
        LowSpeedFactor,
        HigherAttacks(T::AsSingle),
        LongerReach,
        SameTime,
        HigherAttacks(T::SameTime),
        SpeedFactorVsCasting,
        SameTime,
    ],
    // MELEE MULTI
    [
        HigherAttacks(T::SameTime),
        HigherAttacks(T::AsSingle),
        HigherAttacks(T::AsSingle),
        HigherAttacks(T::LongerReach),
        HigherAttacks(T::SameTime),
        HigherAttacks(T::SameTime),
        AsSingleVsSpell,
        SameTime,
    ],
    // CHARGE
    [
        LongerReach,
        LongerReach,
        HigherAttacks(T::LongerReach),
        LongerReach,
        Missile,
        Missile,
        MoveVsCasting,
        Turn,
    ],
    // MISSILE
    [
        SameTime,
        SameTime,
        HigherAttacks(T::SameTime),
        Missile,
        SameTime,
        HigherAttacks(T::SameTime),
        CasterDie,
        SameTime,
    ],
    // MISSILE MULTI
    [
        HigherAttacks(T::SameTime),
        HigherAttacks(T::SameTime),
        HigherAttacks(T::SameTime),
        Missile,
        HigherAttacks(T::SameTime),
        HigherAttacks(T::SameTime),
        CasterDie,
        SameTime,
    ],
    // SPELL
    [
        CasterDie,
        SpeedFactorVsCasting,
        AsSingleVsSpell,
        MoveVsCasting,
        CasterDie,
        CasterDie,
        ShorterCasting(T::SameTime),
        CasterDie,
    ],
    // TURN
    [
        SameTime, SameTime, SameTime, Turn, SameTime, SameTime, CasterDie, SameTime,
    ],
];

/// The high-d6-versus-low-d6 chart: the row is the high roller, the column the low one.
pub const HIGH_LOW: [[Cell; 8]; 8] = [
    // MELEE (high)
    [
        HighD6,
        HighD6,
        HigherAttacks(T::HighD6),
        LongerReach,
        HighD6Dex,
        HigherAttacks(T::HighD6Dex),
        HighD6,
        HighD6,
    ],
    // MELEE W/ SF (high)
    [
        HighD6,
        HighD6,
        HigherAttacks(T::HighD6),
        LongerReach,
        HighD6Dex,
        HigherAttacks(T::HighD6Dex),
        HighD6,
        HighD6,
    ],
    // MELEE MULTI (high)
    [
        HigherAttacks(T::HighD6),
        HigherAttacks(T::HighD6),
        HigherAttacks(T::HighD6),
        HigherAttacks(T::LongerReach),
        HigherAttacks(T::HighD6Dex),
        HigherAttacks(T::HighD6Dex),
        HighD6,
        HighD6,
    ],
    // CHARGE (high)
    [
        LongerReach,
        LongerReach,
        HigherAttacks(T::LongerReach),
        LongerReach,
        Missile,
        Missile,
        MoveVsCasting,
        Turn,
    ],
    // MISSILE (high)
    [
        HighD6Dex,
        HighD6Dex,
        HigherAttacks(T::HighD6Dex),
        Missile,
        HighD6Dex,
        HigherAttacks(T::HighD6Dex),
        HighD6Dex,
        HighD6Dex,
    ],
    // MISSILE MULTI (high)
    [
        HigherAttacks(T::HighD6Dex),
        HigherAttacks(T::HighD6Dex),
        HigherAttacks(T::HighD6Dex),
        Missile,
        HigherAttacks(T::HighD6Dex),
        HigherAttacks(T::HighD6Dex),
        HighD6Dex,
        HighD6Dex,
    ],
    // SPELL (high)
    [
        CasterDie,
        SpeedFactorMinusLowDie,
        AsSingleVsSpell,
        MoveVsCasting,
        CasterDie,
        CasterDie,
        ShorterCasting(T::HighD6),
        CasterDie,
    ],
    // TURN (high)
    [HighD6, HighD6, HighD6, Turn, HighD6, HighD6, HighD6, HighD6],
];

/// Which chart a comparison uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Chart {
    /// The d6s (after Dexterity) are tied.
    Tied,
    /// One side rolled higher; the row is the high roller.
    HighLow,
}

/// The cell for `row` against `col` in the given chart.
pub fn cell(chart: Chart, row: Category, col: Category) -> Cell {
    match chart {
        Chart::Tied => TIED[row.index()][col.index()],
        Chart::HighLow => HIGH_LOW[row.index()][col.index()],
    }
}
