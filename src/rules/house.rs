//! A table's house rules (the house-rules text in the project's rules texts): each one
//! named, off by default, and switched on per scene with `rules: (house: (...))`, under
//! either initiative system. Each function here returns the rule that decided, cited to
//! the house-rules text; the book's own rule is what applies when the switch is off.
//!
//! In force so far:
//! - **Critical hits** ([`critical_multiplier`]): a natural 20 to hit does double damage.
//!   The book gives a natural 20 no extra damage (its combat tables, DMG p.74-75, only
//!   make 20 a hit).
//! - **Ganging up** ([`gang_up`]): each of N melee attackers on one foe gets +N to hit, at
//!   most +4; at most 4 attackers on a man-sized (or smaller) foe, 6 on a large one. The
//!   book has no such bonus or limit.
//! - **Confirming criticals** ([`confirms_critical`], with critical hits): a natural 20
//!   is a critical only if a second d20, less any parry against the blow and with no
//!   to-hit bonuses, hits too; otherwise it is a plain hit ("Take Initiative!" §3, which
//!   names it as its author's house rule).
//! - **Encounter distance** ([`encounter_distance`]): indoors d6+4 squares of 5 ft (25-50
//!   ft), where the book's d6+4" is 50-100 ft (DMG p.62). The text writes "1d6+4 x 5" or
//!   squares" and counts one inch of scale as one square; our reading is 5 ft a square.

use super::cite::{self, Rule};
use super::size::Size;
use serde::{Deserialize, Serialize};

/// The house rules a scene switches on (all off: the book's rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HouseRules {
    /// A natural 20 to hit does double damage (house rules, "Critical Hits").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub critical_hits: bool,
    /// With `critical_hits`: a natural 20 must be confirmed by a second roll ("Take
    /// Initiative!" §3).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub confirm_criticals: bool,
    /// Attackers on one foe help each other, up to a limit by its size (house rules,
    /// "Ganging Up").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ganging_up: bool,
    /// Indoor encounters start d6+4 squares of 5 ft apart (house rules, "Determine
    /// Distance").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub encounter_distance: bool,
}

impl HouseRules {
    /// Whether any house rule is on.
    pub fn any(&self) -> bool {
        *self != HouseRules::default()
    }

    /// The house rules switched on, in the order of [`RULES`].
    pub fn on(&self) -> impl Iterator<Item = &'static HouseRule> + '_ {
        RULES.iter().filter(|r| (r.is_on)(self))
    }

    /// One line per house rule switched on, as a scene writes it.
    pub fn describe(&self) -> Vec<String> {
        self.on()
            .map(|r| format!("house.{}: true", r.key))
            .collect()
    }
}

/// One house rule as people read it: the one description behind `first --help`, the
/// viewer's rules panel and `run`'s readings line.
#[derive(Debug)]
pub struct HouseRule {
    /// Its switch in a scene's `rules: (house: (...))`.
    pub key: &'static str,
    /// Its name, as the rules panel shows it.
    pub name: &'static str,
    /// What it does, in a line.
    pub what: &'static str,
    /// Where the text says it (and what the book does instead).
    pub page: &'static str,
    /// Whether a scene's switches turn it on.
    pub is_on: fn(&HouseRules) -> bool,
}

/// Every house rule a scene can switch on.
pub const RULES: &[HouseRule] = &[
    HouseRule {
        key: "critical_hits",
        name: "Critical hits",
        what: "a natural 20 to hit does double damage",
        page: "house rules §Critical Hits (the book: no extra damage)",
        is_on: |h| h.critical_hits,
    },
    HouseRule {
        key: "confirm_criticals",
        name: "Confirming criticals",
        what: "with critical_hits: a second d20 (no bonuses, less a parry) must hit too",
        page: "Take Initiative! §3",
        is_on: |h| h.confirm_criticals,
    },
    HouseRule {
        key: "ganging_up",
        name: "Ganging up",
        what: "N melee attackers on one foe: +N each, at most +4; room for 4 (M), 6 (L)",
        page: "house rules §Ganging Up (the book: no bonus, no limit)",
        is_on: |h| h.ganging_up,
    },
    HouseRule {
        key: "encounter_distance",
        name: "Encounter distance",
        what: "indoor encounters start d6+4 squares of 5 ft apart (25-50 ft)",
        page: "house rules §Determine Distance (the book: d6+4\", DMG p.62)",
        is_on: |h| h.encounter_distance,
    },
];

/// Confirming a critical ("Take Initiative!" §3): the second d20, less the parry against
/// the blow and with none of the attacker's to-hit bonuses, against the number the blow
/// needed. Whether the natural 20 stands as a critical.
pub fn confirms_critical(second_d20: i32, parry: i32, needed: i32) -> (bool, Rule) {
    (second_d20 - parry >= needed, cite::HOUSE_CONFIRM_CRITICAL)
}

/// Feet in a square of the house rules' tactical scale (our reading of "x 5"").
pub const SQUARE_FT: f64 = 5.0;

/// Indoor encounter distance under the house rule: d6+4 squares of [`SQUARE_FT`].
pub fn encounter_distance(d6: u32) -> super::distance::Distance {
    super::distance::in_squares(d6 + 4, SQUARE_FT, cite::HOUSE_DISTANCE)
}

/// Indoor encounter distance for this d6 under these house rules: the house rule's
/// squares when it is on, else the book's d6+4" (DMG p.62).
pub fn indoor_distance(d6: u32, house: HouseRules) -> super::distance::Distance {
    if house.encounter_distance {
        encounter_distance(d6)
    } else {
        super::distance::indoor_distance(d6)
    }
}

/// The most melee attackers a foe of this size has room for under the house rule of
/// ganging up: 4 on a man-sized foe, 6 on a large one. The text says nothing of smaller
/// foes: ours gives them a man-sized foe's 4. (Its 8 for huge foes waits for a size the
/// scenes can give.)
pub fn room_for_attackers(size: Size) -> u32 {
    match size {
        Size::S | Size::M => 4,
        Size::L => 6,
    }
}

/// Ganging up (house rules, "Ganging Up"): when `attackers` figures attack one foe in melee,
/// the bonus to hit each gets — their number, at most +4, and none for a lone attacker
/// ("more than one") — and whether the one at `place` (0-based, in the scene's order) has
/// room to strike at all on a foe of this size.
pub fn gang_up(attackers: u32, place: u32, size: Size) -> (i32, bool, Rule) {
    let room = room_for_attackers(size);
    let fighting = attackers.min(room);
    let bonus = if fighting >= 2 { fighting.min(4) } else { 0 };
    (bonus as i32, place < room, cite::HOUSE_GANG_UP)
}

/// How many times its damage a blow does, for the natural d20 it rolled: twice on a
/// natural 20 under the house rule of critical hits, else once (and no rule to cite).
pub fn critical_multiplier(natural: i32, house: HouseRules) -> (i32, Option<Rule>) {
    if house.critical_hits && natural == 20 {
        (2, Some(cite::HOUSE_CRITICAL_HIT))
    } else {
        (1, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_natural_20_doubles_and_only_when_switched_on() {
        let on = HouseRules {
            critical_hits: true,
            ..HouseRules::default()
        };
        for d in 1..=20 {
            let (m, rule) = critical_multiplier(d, on);
            assert_eq!(m, if d == 20 { 2 } else { 1 }, "d20 {d}");
            assert_eq!(rule.is_some(), d == 20);
            assert_eq!(critical_multiplier(d, HouseRules::default()), (1, None));
        }
        assert!(on.any() && !HouseRules::default().any());
    }

    #[test]
    fn the_bonus_is_the_number_of_attackers_up_to_4_and_the_room_goes_by_size() {
        for n in 1..=10 {
            for size in [Size::S, Size::M, Size::L] {
                let room = room_for_attackers(size);
                let (bonus, _, _) = gang_up(n, 0, size);
                let expected = if n >= 2 { n.min(room).min(4) } else { 0 };
                assert_eq!(bonus, expected as i32, "{n} attackers on {size:?}");
                for place in 0..n {
                    assert_eq!(gang_up(n, place, size).1, place < room);
                }
            }
        }
        assert_eq!(room_for_attackers(Size::M), 4);
        assert_eq!(room_for_attackers(Size::L), 6);
    }

    #[test]
    fn a_critical_stands_when_the_bare_second_roll_still_hits() {
        for d in 1..=20 {
            for parry in 0..=4 {
                for needed in 1..=20 {
                    let (ok, rule) = confirms_critical(d, parry, needed);
                    assert_eq!(ok, d - parry >= needed, "{d} - {parry} vs {needed}");
                    assert_eq!(rule.id, "house.confirm_critical");
                }
            }
        }
    }

    #[test]
    fn every_switch_has_one_entry_under_its_own_key() {
        for r in RULES {
            let one: HouseRules = ron::from_str(&format!("({}: true)", r.key))
                .unwrap_or_else(|e| panic!("{}: {e}", r.key));
            let on: Vec<&str> = one.on().map(|x| x.key).collect();
            assert_eq!(on, vec![r.key]);
            assert_eq!(one.describe(), vec![format!("house.{}: true", r.key)]);
            assert_eq!(
                super::super::options::RulesOptions::page(r.name),
                r.page,
                "the rules panel cites {}",
                r.key
            );
        }
        assert_eq!(HouseRules::default().on().count(), 0);
    }

    #[test]
    fn house_distance_is_half_the_books_for_every_d6() {
        for d6 in 1..=6 {
            let house = encounter_distance(d6);
            let book = super::super::distance::indoor_distance(d6);
            assert_eq!(house.feet, f64::from((d6 + 4) * 5));
            assert_eq!(
                house.inches, book.inches,
                "the same count of inches (squares)"
            );
            assert_eq!(house.feet * 2.0, book.feet);
            let on = HouseRules {
                encounter_distance: true,
                ..HouseRules::default()
            };
            assert_eq!(indoor_distance(d6, on), house);
            assert_eq!(indoor_distance(d6, HouseRules::default()), book);
        }
    }
}
