//! What a declared action adds to a figure's d10 (Appendix B): the rows each kind of
//! action takes, worked out for the figure. Scenes, the calculator and the engine all ask
//! here, so an action is never costed in two places.

use super::{Modifier, ModifierContext, Table, modifier};
use crate::rules::cite::{self, Rule};

/// An action as "Take Initiative!" costs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Melee with a weapon of this speed factor (none: natural attacks, no modifier).
    Melee {
        /// The weapon's speed factor.
        speed_factor: Option<u32>,
    },
    /// An unarmed attack (fists, feet, grappling): the App. B row for the attacker's size,
    /// small +2, man-sized +3, large +5, in place of a weapon's speed.
    Unarmed {
        /// The attacker's size.
        size: crate::rules::size::Size,
    },
    /// Missile fire at this missile speed (note 1), less the Dexterity attacking bonus.
    Missile {
        /// Its speed.
        speed: i32,
        /// The Dexterity attacking bonus.
        dexterity: i32,
    },
    /// Moving (up to half the move, or more) and then firing (§8b, §8c): a missile can't
    /// be nocked and ready on the move.
    MoveAndShoot {
        /// More than half the move.
        far: bool,
        /// The missile's speed.
        speed: i32,
        /// The Dexterity attacking bonus.
        dexterity: i32,
    },
    /// A charge.
    Charge,
    /// Moving 10 ft (1") or less: no row (App. B costs only movement over 10 ft), and not
    /// movement that keeps a figure from casting or melee.
    Step,
    /// Moving (or closing) over 10 ft: up to half the move, or more.
    Move {
        /// More than half the move.
        far: bool,
    },
    /// Casting a spell of this level.
    Cast {
        /// Its level.
        level: u32,
    },
    /// Using a magic item (a wand, rod or staff).
    Device,
    /// Turning undead.
    Turn,
    /// A spear or pole arm set to receive a charge.
    SetToReceive,
    /// A potion: quaffing it is a minor action; it works d4+1 segments later.
    Potion,
    /// Turning to flee (§4).
    Flee,
    /// Withdrawing: backing off at half the move (§6).
    Withdraw,
    /// Parrying in place of an attack (§3).
    Parry,
    /// Expecting an event (§2).
    Expect,
    /// Hiding in shadows (§10).
    Hide,
    /// Anything else, or waiting: the d10 alone.
    Other,
}

/// The unarmed row for a size: small, man-sized, large (huge and gargantuan as large).
pub fn unarmed_row(size: crate::rules::size::Size) -> &'static str {
    use crate::rules::size::Size;
    match size {
        Size::S => "unarmed_s",
        Size::M => "unarmed_m",
        _ => "unarmed_l",
    }
}

/// How a melee blow is costed: a brawling weapon (hands, feet) or none at all for a
/// figure that is not a monster is an unarmed attack by its size; a weapon by its speed;
/// a monster's natural weapons (no weapon) add nothing (our reading: the text costs
/// weapons and unarmed attacks, not claws and bites).
pub fn melee_action(
    speed_factor: Option<u32>,
    brawling: bool,
    natural: bool,
    size: crate::rules::size::Size,
) -> Action {
    if brawling || (speed_factor.is_none() && !natural) {
        Action::Unarmed { size }
    } else {
        Action::Melee { speed_factor }
    }
}

/// The modifiers of `action` from the table.
pub fn modifiers(table: &Table, action: Action) -> (Vec<Modifier>, Rule) {
    let ctx = |speed: Option<i32>, level: Option<u32>| ModifierContext {
        weapon_speed: speed,
        spell_level: level,
        targets: 1,
        iaijutsu: Default::default(),
    };
    let rows: Vec<(&str, ModifierContext)> = match action {
        Action::Melee {
            speed_factor: Some(sf),
        } => vec![("weapon", ctx(Some(sf as i32), None))],
        Action::Melee { speed_factor: None } | Action::Potion | Action::Other | Action::Step => {
            vec![]
        }
        Action::Unarmed { size } => vec![(unarmed_row(size), ctx(None, None))],
        Action::Missile { speed, .. } => vec![("weapon", ctx(Some(speed), None))],
        Action::MoveAndShoot { far, speed, .. } => vec![
            (if far { "move_full" } else { "move_half" }, ctx(None, None)),
            ("weapon", ctx(Some(speed), None)),
        ],
        Action::Charge => vec![("charge", ctx(None, None))],
        Action::Move { far: true } => vec![("move_full", ctx(None, None))],
        Action::Move { far: false } => vec![("move_half", ctx(None, None))],
        Action::Cast { level } => vec![("spell", ctx(None, Some(level)))],
        Action::Device => vec![("magic_item", ctx(None, None))],
        Action::Turn => vec![("turn_undead", ctx(None, None))],
        Action::SetToReceive => vec![("set_to_receive", ctx(None, None))],
        Action::Flee => vec![("flee", ctx(None, None))],
        Action::Withdraw => vec![("move_half", ctx(None, None))],
        Action::Parry => vec![("parry", ctx(None, None))],
        Action::Expect => vec![("expect", ctx(None, None))],
        Action::Hide => vec![("hide", ctx(None, None))],
    };
    let mut out: Vec<Modifier> = rows
        .into_iter()
        .filter_map(|(id, c)| modifier(table, id, &c).ok())
        .collect();
    if let Action::Missile { dexterity, .. } | Action::MoveAndShoot { dexterity, .. } = action
        && dexterity != 0
    {
        // A bonus lowers the total, a penalty raises it (§8): named for which it is.
        let name = if dexterity > 0 {
            "Dexterity attacking bonus"
        } else {
            "Dexterity attacking penalty"
        };
        out.push(Modifier::new("dexterity", name, -dexterity));
    }
    (out, cite::TI_TOTAL)
}

/// Whether a missile weapon can be nocked (or loaded) and ready (note 1 names bows and
/// darts; a loaded crossbow or sling is read alike): a thrown weapon — a dagger, a spear,
/// a javelin, an axe — is an "other thrown object" in hand or not.
pub fn can_be_ready(weapon: &str) -> bool {
    let w = weapon.to_lowercase();
    ["bow", "dart", "sling"].iter().any(|k| w.contains(k))
}

/// A missile weapon's speed (note 1): 1 nocked and ready (a bow, crossbow, sling or darts
/// only, [`can_be_ready`]); otherwise arrows for a bow, quarrels for a crossbow, darts for
/// darts, and any other thrown object.
pub fn missile_speed(table: &Table, weapon: &str, ready: bool) -> i32 {
    let w = weapon.to_lowercase();
    let id = if ready && can_be_ready(&w) {
        "nocked"
    } else if w.contains("crossbow") {
        "quarrels"
    } else if w.contains("bow") {
        "arrows"
    } else if w.contains("dart") {
        "darts"
    } else {
        "thrown"
    };
    table
        .missile_speeds
        .iter()
        .find(|m| m.id == id)
        .map_or(4, |m| m.speed)
}

/// Whether a move of `feet` is more than half of an allowance of `allowance_ft`.
pub fn far(feet: f64, allowance_ft: f64) -> bool {
    feet > allowance_ft / 2.0
}

/// The most a move may cover and cost nothing (App. B: only movement over 10 ft, 1", has
/// a row).
pub const STEP_FT: f64 = 10.0;

/// A move (or close) of `feet` against an allowance of `allowance_ft`, as App. B costs it:
/// 10 ft or less a step with no row, up to half the move +4, more +8.
pub fn moving(feet: f64, allowance_ft: f64) -> Action {
    if feet <= STEP_FT + 1e-9 {
        Action::Step
    } else {
        Action::Move {
            far: far(feet, allowance_ft),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables;

    /// The Dexterity row is called a bonus when it lowers the total and a penalty when it
    /// raises it (Dex 3 shot "+ Dexterity attacking bonus 3"), for every adjustment.
    #[test]
    fn a_dexterity_penalty_is_named_a_penalty() {
        let t = tables::take_initiative();
        for dexterity in -4..=4 {
            let (rows, _) = modifiers(
                t,
                Action::Missile {
                    speed: 7,
                    dexterity,
                },
            );
            let row = rows.iter().find(|m| m.id == "dexterity");
            match dexterity {
                0 => assert!(row.is_none()),
                d => {
                    let row = row.expect("a Dexterity row");
                    assert_eq!(row.value, -d);
                    assert_eq!(row.words.contains("bonus"), d > 0, "{}", row.words);
                    assert_eq!(row.words.contains("penalty"), d < 0, "{}", row.words);
                }
            }
        }
    }

    #[test]
    fn each_kind_costs_its_rows() {
        let t = tables::take_initiative();
        let sum = |a| modifiers(t, a).0.iter().map(|m| m.value).sum::<i32>();
        assert_eq!(
            sum(Action::Melee {
                speed_factor: Some(5)
            }),
            5
        );
        assert_eq!(sum(Action::Melee { speed_factor: None }), 0);
        assert_eq!(sum(Action::Charge), 4);
        assert_eq!(sum(Action::Move { far: true }), 8);
        assert_eq!(sum(Action::Cast { level: 3 }), 9);
        assert_eq!(sum(Action::SetToReceive), -2);
        assert_eq!(
            sum(Action::Missile {
                speed: 7,
                dexterity: 2
            }),
            5
        );
        assert_eq!(missile_speed(t, "long bow", false), 7);
        assert_eq!(missile_speed(t, "light crossbow", false), 10);
        assert_eq!(missile_speed(t, "light crossbow", true), 1);
        // A thrown weapon in hand is still an "other thrown object".
        for w in ["dagger", "spear", "javelin", "hand axe"] {
            assert_eq!(missile_speed(t, w, true), 4, "{w}");
        }
        assert_eq!(missile_speed(t, "dart", false), 2);
        assert_eq!(missile_speed(t, "spear", false), 4);
    }
}
