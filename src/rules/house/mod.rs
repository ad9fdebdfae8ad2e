//! A table's house rules (the house-rules text in the project's rules texts): each one
//! named, off by default, and switched on per scene with `rules: (house: (...))`. Each
//! function here returns the rule that decided, cited to the house-rules text; the book's
//! own rule is what applies when the switch is off. One idea a file:
//!
//! - [`critical`]: critical hits, their confirmation ("Take Initiative!" §3) and fumbles;
//! - [`gang`]: ganging up on one foe;
//! - [`time`]: lost surprise segments carried into the next round, and waiting on another's
//!   action — both leave a round short, and "precludes" is decided there;
//! - [`moving`]: move or strike, and multiple attacks only when standing still;
//! - [`parting`]: the parting shot at a figure leaving melee;
//! - [`brawl`]: weaponless combat with subdual damage;
//! - encounter distance, here: indoors d6+4 squares of 5 ft (25-50 ft), where the book's
//!   d6+4" is 50-100 ft (DMG p.62). The text writes "1d6+4 x 5" or squares" and counts an
//!   inch of scale as a square; our reading is 5 ft a square.
//!
//! **Armor type** is no switch: the engine always compares a weapon with the armor's
//! *type* (`ac_type`, default the AC), never with the magic that improves the AC, which is
//! also how the book reads its weapon-versus-armor table (PHB p.38). The adjustments
//! themselves are data: `vs_ac_type` of each weapon in `assets/weapons.ron`.
//!
//! Surprise carried over, waiting, move or strike and parting shots change the book's
//! segment timing; "Take Initiative!" has its own rules for them (hold and expect §2,
//! fleeing §4, moves §8-9), so a scene under that system that switches them on is refused.
//! The others work under either system.

mod brawl;
mod critical;
mod gang;
mod moving;
mod parting;
mod time;

pub use brawl::{BrawlSplit, knocked_out, split_brawl};
pub use critical::{
    DIRECTIONS, Fumble, confirms_critical, critical_multiplier, fumble, fumble_lands,
};
pub use gang::{gang_up, room_for_attackers};
pub use moving::{may_close_and_strike, one_attack_after_moving, routines_after_moving};
pub use parting::{PARTING_SHOT_BONUS, parting_shot};
pub use time::{Needs, TimeLeft, after_awaiting, after_surprise, fits};

use super::cite;
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
    /// A natural 1 to hit is a fumble: a miss, a weapon thrown, or broken (house rules,
    /// "Critical Misses").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fumbles: bool,
    /// Attackers on one foe help each other, up to a limit by its size (house rules,
    /// "Ganging Up").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ganging_up: bool,
    /// Indoor encounters start d6+4 squares of 5 ft apart (house rules, "Determine
    /// Distance").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub encounter_distance: bool,
    /// A surprised party's lost segments come off its next round (house rules, "Determine
    /// Surprise").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub surprise_carries_over: bool,
    /// A figure may wait on another's action (`awaits` in a round) and acts when it is done
    /// (house rules, "Delay Action").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub await_enemy: bool,
    /// A full move, or a half move and a blow, or a spell; several attacks only standing
    /// still (house rules, "Combat Actions").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub move_or_strike: bool,
    /// Leaving a melee draws a parting shot at +4 (house rules, "Parting Shots").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub parting_shots: bool,
    /// Hands and feet as weapons, with subdual damage (house rules, "Weaponless Combat").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub weaponless_combat: bool,
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

    /// The switches on here that change the book's segment timing, which "Take
    /// Initiative!" replaces with its own rules.
    pub fn timing_switches(&self) -> impl Iterator<Item = &'static HouseRule> + '_ {
        self.on().filter(|r| r.book_timing)
    }

    /// The same switches without those that change the book's segment timing (what a
    /// scene of the book's keeps when it is played under "Take Initiative!").
    pub fn without_timing(self) -> HouseRules {
        HouseRules {
            surprise_carries_over: false,
            await_enemy: false,
            move_or_strike: false,
            parting_shots: false,
            ..self
        }
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
    /// It changes the book's segment timing (refused under "Take Initiative!").
    pub book_timing: bool,
}

/// Every house rule a scene can switch on.
pub const RULES: &[HouseRule] = &[
    HouseRule {
        key: "critical_hits",
        name: "Critical hits",
        what: "a natural 20 to hit does double damage",
        page: "house rules §Critical Hits (the book: no extra damage)",
        is_on: |h| h.critical_hits,
        book_timing: false,
    },
    HouseRule {
        key: "confirm_criticals",
        name: "Confirming criticals",
        what: "with critical_hits: a second d20 (no bonuses, less a parry) must hit too",
        page: "Take Initiative! §3",
        is_on: |h| h.confirm_criticals,
        book_timing: false,
    },
    HouseRule {
        key: "fumbles",
        name: "Fumbles",
        what: "a natural 1: d20 + weapon magic; 10+ a miss, under 10 the weapon flies d3 squares, 3 or less it breaks",
        page: "house rules §Critical Misses (the book: a plain miss)",
        is_on: |h| h.fumbles,
        book_timing: false,
    },
    HouseRule {
        key: "ganging_up",
        name: "Ganging up",
        what: "N melee attackers on one foe: +N each, at most +4; room for 4 (M), 6 (L), 8 (H)",
        page: "house rules §Ganging Up (the book: no bonus, no limit)",
        is_on: |h| h.ganging_up,
        book_timing: false,
    },
    HouseRule {
        key: "encounter_distance",
        name: "Encounter distance",
        what: "indoor encounters start d6+4 squares of 5 ft apart (25-50 ft)",
        page: "house rules §Determine Distance (the book: d6+4\", DMG p.62)",
        is_on: |h| h.encounter_distance,
        book_timing: false,
    },
    HouseRule {
        key: "surprise_carries_over",
        name: "Surprise carries over",
        what: "lost surprise segments come off the next round: no spell or weapon (speed factor) longer than what is left",
        page: "house rules §Determine Surprise (the book: surprise ends with its segments, DMG p.61-62)",
        is_on: |h| h.surprise_carries_over,
        book_timing: true,
    },
    HouseRule {
        key: "await_enemy",
        name: "Await the enemy",
        what: "a figure waiting on another acts when that action is done; only speed factors that fit what is left strike",
        page: "house rules §Delay Action (the book: no waiting, DMG p.63)",
        is_on: |h| h.await_enemy,
        book_timing: true,
    },
    HouseRule {
        key: "move_or_strike",
        name: "Move or strike",
        what: "a full move, or half a move and one blow, or a spell; several attacks only from the 2nd round standing still",
        page: "house rules §Combat Actions (the book: a round spent closing, DMG p.66)",
        is_on: |h| h.move_or_strike,
        book_timing: true,
    },
    HouseRule {
        key: "parting_shots",
        name: "Parting shots",
        what: "leaving a melee draws one attack at +4 from each foe in it, unless by a fighting withdrawal (Withdraw)",
        page: "house rules §Parting Shots, after DMG p.70",
        is_on: |h| h.parting_shots,
        book_timing: true,
    },
    HouseRule {
        key: "weaponless_combat",
        name: "Weaponless combat",
        what: "hands 1d4, feet 1d6, scored as weapons: half subdual, half real (monks: all real, or all subdual)",
        page: "house rules §Weaponless Combat (the book: percentile brawling, DMG p.72-73)",
        is_on: |h| h.weaponless_combat,
        book_timing: false,
    },
];

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::size::Size;

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
            for size in [Size::S, Size::M, Size::L, Size::H] {
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
        assert_eq!(room_for_attackers(Size::H), 8);
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
