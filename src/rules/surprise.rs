//! Surprise: chances, segments lost, Dexterity adjustments, and what may be done in a
//! surprise segment (DMG p.61-62, p.71; PHB p.24; DRAGON "Surprise!" p.74).

use super::cite::{self, Rule};
use super::dexterity::reaction_adjustment;
use super::distance::Setting;
use serde::Serialize;

/// A chance of surprise, held exactly in 600ths so that d6, d8, d10, d12, d20 and d%
/// chances and their sums stay exact (1 in 6 = 100/600; 1 in 8 = 75/600; 22% = 132/600).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Chance(u32);

impl Chance {
    /// `n` in `sides` (e.g. 2 in 6). `sides` must divide 600 (d2, d3, d4, d6, d8, d10, d12, d20…).
    pub fn in_die(n: u32, sides: u32) -> Chance {
        debug_assert!(sides > 0 && 600 % sides == 0, "die must divide 600");
        Chance(n * 600 / sides)
    }
    /// A whole percentage.
    pub fn percent(p: u32) -> Chance {
        Chance(p * 6)
    }
    /// The chance in 600ths.
    pub fn sixhundredths(self) -> u32 {
        self.0
    }
    /// The chance as a percentage (possibly fractional, e.g. 26.666…).
    pub fn as_percent(self) -> f64 {
        f64::from(self.0) / 6.0
    }
    /// The percentage rounded to the nearest whole number, as a table would print it.
    pub fn rounded_percent(self) -> u32 {
        (self.0 + 3) / 6
    }
    /// The chance in sixes when it is a whole number of sixes (for d6 rolls).
    pub fn in_six(self) -> Option<u32> {
        self.0.is_multiple_of(100).then_some(self.0 / 100)
    }
    /// Adds `n` in 6 (a "more often" or "less often" edge), clamped to 0..=100%.
    pub fn shifted_by_sixes(self, n: i32) -> Chance {
        let v = self.0 as i64 + i64::from(n) * 100;
        Chance(v.clamp(0, 600) as u32)
    }
    /// Whether a roll on the side's die shows surprise: a d6 roll for whole sixes, otherwise
    /// a d% roll (1-100).
    pub fn is_surprised(self, roll: SurpriseRoll) -> bool {
        match roll {
            SurpriseRoll::D6(r) => r * 100 <= self.0,
            SurpriseRoll::Percent(r) => r * 6 <= self.0,
        }
    }
}

/// A side's surprise roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SurpriseRoll {
    /// A d6 roll, 1-6.
    D6(u32),
    /// A d% roll, 1-100.
    Percent(u32),
}

/// The chance that a party is surprised (DMG p.61): the base chance, less the best
/// "surprised less often" edge any member has (a ranger's 1 in 6 covers the whole party).
pub fn party_surprise_chance(base: Chance, less_often_in_six: &[u32]) -> (Chance, Rule) {
    let best = less_often_in_six.iter().copied().max().unwrap_or(0);
    if best == 0 {
        (base, cite::SURPRISE_D6)
    } else {
        (
            base.shifted_by_sixes(-(best as i32)),
            cite::SURPRISE_LESS_OFTEN,
        )
    }
}

/// The chance that a party surprises a target whose own chance of being surprised is
/// `target`, given each member's "surprises others more often" edge in sixes (PHB p.24,
/// DMG p.61): an edge is the side's only when every member has it — a ranger alone, a
/// band of duergar (DMG p.61's example) — and then it is the least of theirs; one member's
/// edge is never the whole party's.
pub fn chance_to_surprise(target: Chance, more_often_in_six: &[u32]) -> (Chance, Rule) {
    match band_edge(more_often_in_six) {
        least if least > 0 => (
            target.shifted_by_sixes(least as i32),
            cite::SURPRISE_MORE_OFTEN,
        ),
        _ => (target, cite::SURPRISE_D6),
    }
}

/// The "surprises others more often" edge a band has, in sixes, from each member's: the
/// least of theirs, so none unless every member has one.
pub fn band_edge(more_often_in_six: &[u32]) -> u32 {
    more_often_in_six.iter().copied().min().unwrap_or(0)
}

/// Whether a side with a chance of `chance_in_six` in 6 is surprised on this d6 (DMG p.61):
/// it is when the die shows that number or less.
pub fn surprised_on_d6(roll: u32, chance_in_six: u32) -> (bool, Rule) {
    (roll <= chance_in_six, cite::SURPRISE_D6)
}

/// Segments lost to a surprise roll: d6 pips (DMG p.61), or a d% roll divided by 16 2/3
/// and rounded up (DRAGON p.74). Exact: 50 gives 3, 12 gives 1, 38 gives 3.
pub fn segments_lost(roll: SurpriseRoll) -> (u32, Rule) {
    match roll {
        SurpriseRoll::D6(r) => (r, cite::SURPRISE_SEGMENTS),
        // r / (100/6) = 6r / 100, rounded up.
        SurpriseRoll::Percent(r) => ((6 * r).div_ceil(100), cite::SURPRISE_PERCENT_SEGMENTS),
    }
}

/// Which side loses how many segments once both surprise results are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum NetSurprise {
    /// Nobody is surprised.
    None,
    /// Side A loses this many segments.
    A(u32),
    /// Side B loses this many segments.
    B(u32),
}

impl NetSurprise {
    /// The segments the given side loses (A when `a` is true).
    pub fn lost_by(self, a: bool) -> u32 {
        match (self, a) {
            (NetSurprise::A(n), true) | (NetSurprise::B(n), false) => n,
            _ => 0,
        }
    }
    /// The number of surprise segments in the encounter.
    pub fn segments(self) -> u32 {
        match self {
            NetSurprise::None => 0,
            NetSurprise::A(n) | NetSurprise::B(n) => n,
        }
    }
}

/// Net surprise when either or both sides are surprised (DMG p.61-62): the smaller loss is
/// taken from the larger. `None` means that side was not surprised.
pub fn net_surprise(a: Option<u32>, b: Option<u32>) -> (NetSurprise, Rule) {
    match (a, b) {
        (None, None) => (NetSurprise::None, cite::SURPRISE_D6),
        (Some(a), None) => (
            if a > 0 {
                NetSurprise::A(a)
            } else {
                NetSurprise::None
            },
            cite::SURPRISE_SEGMENTS,
        ),
        (None, Some(b)) => (
            if b > 0 {
                NetSurprise::B(b)
            } else {
                NetSurprise::None
            },
            cite::SURPRISE_SEGMENTS,
        ),
        (Some(a), Some(b)) => {
            let n = if a > b {
                NetSurprise::A(a - b)
            } else if b > a {
                NetSurprise::B(b - a)
            } else {
                NetSurprise::None
            };
            (n, cite::SURPRISE_NET)
        }
    }
}

/// A figure's own segments of surprise (DMG p.62, PHB p.101): the side's segments moved by
/// the figure's Dexterity reaction adjustment. Only a surprised side is affected (a penalty
/// never creates surprise); bonuses need light gear (12" base movement), penalties always
/// apply.
pub fn individual_surprise(side_segments: u32, dexterity: u32, light_gear: bool) -> (u32, Rule) {
    if side_segments == 0 {
        return (0, cite::SURPRISE_DEX);
    }
    let adj = reaction_adjustment(dexterity);
    if adj > 0 && !light_gear {
        return (side_segments, cite::LIGHT_GEAR);
    }
    let n = (side_segments as i32 - adj).max(0) as u32;
    (n, cite::SURPRISE_DEX)
}

/// The surprise segment in which a surprised figure armed with a crossbow of speed may
/// shoot (DMG p.168): the second, when it is surprised for more than one.
pub fn crossbow_of_speed_segment(own_segments: u32) -> Option<u32> {
    (own_segments > 1).then_some(2)
}

/// What a figure does with one surprise segment (DMG p.61-62).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SurpriseAction {
    /// A full round of melee routines in the one segment.
    MeleeRound,
    /// A full round of missiles in the one segment (three rounds' worth if ready).
    Missiles {
        /// Missiles per round.
        per_round: u32,
        /// Cocked, nocked or in hand at the start.
        ready: bool,
    },
    /// One segment of movement.
    Move {
        /// Movement rate in inches.
        rate_inches: u32,
    },
    /// Cast a one-segment spell or start a longer one.
    Cast {
        /// The spell's casting time in segments.
        casting_segments: u32,
    },
    /// Any other action that takes 6 seconds (draw a weapon, drink a potion, use a wand).
    Other,
}

impl SurpriseAction {
    /// Whether the action attacks another figure (and so needs a target that may be struck).
    pub fn is_attack(self) -> bool {
        matches!(
            self,
            SurpriseAction::MeleeRound | SurpriseAction::Missiles { .. }
        )
    }

    /// Missiles loosed in the segment (three times the rate when ready).
    pub fn missiles(self) -> u32 {
        match self {
            SurpriseAction::Missiles { per_round, ready } => per_round * if ready { 3 } else { 1 },
            _ => 0,
        }
    }

    /// Feet moved in the segment: 1 foot per inch of rate (PHB p.102).
    pub fn feet_moved(self) -> u32 {
        match self {
            SurpriseAction::Move { rate_inches } => rate_inches,
            _ => 0,
        }
    }
}

/// Missiles a figure looses in a surprise segment, its `nth` of shooting (DMG p.62): a
/// full round's worth by its rate, and a first volley of missiles at the ready at three
/// times that rate — the rate tripled, so what a fraction gives is tripled with it: a
/// heavy crossbow's 1/2 is 3/2 (two bolts, the extra one in odd segments by `alt`, not
/// three), a long bow's 2 is 6.
pub fn missiles_in_segment(
    rate: crate::rules::attack_rate::AttackRate,
    nth: u32,
    ready: bool,
    alt: crate::rules::options::AlternatingRate,
) -> (u32, Rule) {
    let volley = if ready {
        crate::rules::attack_rate::AttackRate {
            routines: rate.routines.saturating_mul(3),
            ..rate
        }
    } else {
        rate
    };
    (volley.routines_in(nth, alt).0, cite::SURPRISE_ACTIONS)
}

/// Segments each of several sides loses, its surprise netted against every other side's
/// at once (DMG p.61-62): when every side is surprised, the least loss is taken from each
/// (two sides: the smaller from the larger, [`net_surprise`]); when one side is not, each
/// loses what it rolled. Either way, in the segments played, side `i` stands helpless
/// while side `j` acts in exactly `net_surprise(i, j)`'s segments for `i` — a side
/// surprised less than another but more than a third is not let off against the third.
/// `None`: that side is not surprised.
pub fn net_among(rolls: &[Option<u32>]) -> (Vec<u32>, Rule) {
    let all: Option<Vec<u32>> = rolls.iter().copied().collect();
    match all {
        Some(all) if all.len() >= 2 => {
            let least = all.iter().copied().min().unwrap_or(0);
            (all.iter().map(|n| n - least).collect(), cite::SURPRISE_NET)
        }
        _ => (
            rolls.iter().map(|r| r.unwrap_or(0)).collect(),
            cite::SURPRISE_SEGMENTS,
        ),
    }
}

/// What a melee declared in a surprise segment is (DMG p.61-62), `gap_ft` short of its foe:
/// a round of blows at a foe in reach, or within 1" (the step in is part of the fighting,
/// DMG p.66); farther, the segment's move toward it (one foot per inch of rate), as the
/// fighters of the Example of Melee close over the surprise segments before they strike.
/// Only a charge both covers ground and strikes in one segment.
pub fn melee_action(gap_ft: f64, setting: Setting, rate_inches: u32) -> (SurpriseAction, Rule) {
    if gap_ft <= 0.0 {
        (SurpriseAction::MeleeRound, cite::SURPRISE_ACTIONS)
    } else if crate::rules::charge::melee_possible(gap_ft, setting).0 {
        (SurpriseAction::MeleeRound, cite::CHARGE_NO_MELEE)
    } else {
        (SurpriseAction::Move { rate_inches }, cite::SURPRISE_CLOSES)
    }
}

/// Whether a figure may take `action` in a surprise segment. `surprised` is whether it is
/// still surprised; `side_surprised` whether its side still is (a figure less surprised
/// than its side may only move, cast or act: DMG p.71).
pub fn may_act(action: SurpriseAction, surprised: bool, side_surprised: bool) -> (bool, Rule) {
    if surprised {
        return (false, cite::SURPRISE_SEGMENTS);
    }
    if side_surprised && action.is_attack() {
        return (false, cite::SURPRISE_PARTIAL);
    }
    (true, cite::SURPRISE_ACTIONS)
}

/// Whether a figure may be targeted by melee or missiles in a surprise segment: not when it
/// is awake while its side is still surprised (DMG p.71).
pub fn may_be_struck(surprised: bool, side_surprised: bool) -> (bool, Rule) {
    if !surprised && side_surprised {
        (false, cite::SURPRISE_PARTIAL)
    } else {
        (true, cite::SURPRISE_ACTIONS)
    }
}

/// Whether an attacker may strike a target at all in a surprise segment, by their sides:
/// the free actions of surprise are the unsurprised side's against the surprised (DMG
/// p.61-62), so two figures neither of whose sides is surprised in the segment — with
/// three sides or more, a fight beside the surprise — trade no blows in it; their fight
/// waits for round 1 (our reading). A surprised side's figure that may act (an item of
/// speed, one on guard) is not held back by this.
pub fn sides_at_surprise(
    attacker_side_surprised: bool,
    target_side_surprised: bool,
) -> (bool, Rule) {
    if attacker_side_surprised || target_side_surprised {
        (true, cite::SURPRISE_ACTIONS)
    } else {
        (false, cite::SURPRISE_NEITHER)
    }
}

/// Whether a blow may land on a figure in a surprise segment (DMG p.66, p.71). The free
/// blows of a surprise segment may not be aimed at a figure that is awake while its side is
/// still surprised; a charge begun while that figure was still surprised (`ends_charge`)
/// still ends with its blow (the paladin's charge on the illusionist in the Example of
/// Melee). A charge begun at a figure already on guard engages it without a blow.
pub fn may_be_struck_by(surprised: bool, side_surprised: bool, ends_charge: bool) -> (bool, Rule) {
    match may_be_struck(surprised, side_surprised) {
        (false, _) if ends_charge => (true, cite::CHARGE_COMPLETES),
        other => other,
    }
}

/// The order of routines within one surprise segment (DMG p.62-63, p.168). Each figure is
/// given as (routines this segment, armed with an item of speed). Items of speed strike
/// first; then routines fall on the rows of the attack-sequence chart (two routines first
/// and last, one in the middle), and routines on the same row land together. Returns, for
/// each figure, the 0-based beat of each of its routines.
pub fn segment_beats(figures: &[(u32, bool)]) -> (Vec<Vec<usize>>, Rule) {
    let key = |k: usize, row: i32, speed: bool| (i32::from(!(speed && k == 0)), row);
    let mut keys: Vec<(i32, i32)> = Vec::new();
    for &(n, speed) in figures {
        for (k, row) in super::sequence::routine_rows(n).into_iter().enumerate() {
            keys.push(key(k, row, speed));
        }
    }
    keys.sort_unstable();
    keys.dedup();
    let beats = figures
        .iter()
        .map(|&(n, speed)| {
            super::sequence::routine_rows(n)
                .into_iter()
                .enumerate()
                .map(|(k, row)| {
                    keys.binary_search(&key(k, row, speed))
                        .expect("every key was collected")
                })
                .collect()
        })
        .collect();
    (beats, cite::SURPRISE_ORDER)
}

/// The segment of the first full round in which a spell started during surprise completes:
/// its casting time less the surprise segments spent on it (DMG p.61). `None` when it
/// completes within surprise, with the surprise segment it completes in.
pub fn spell_completion_after_surprise(
    casting_segments: u32,
    started_in_surprise_segment: u32,
    surprise_segments: u32,
) -> SpellFromSurprise {
    let spent = surprise_segments + 1 - started_in_surprise_segment;
    if casting_segments <= spent {
        SpellFromSurprise::InSurprise(started_in_surprise_segment + casting_segments - 1)
    } else {
        SpellFromSurprise::InRound1(casting_segments - spent)
    }
}

/// Where a spell begun during surprise completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SpellFromSurprise {
    /// In this surprise segment.
    InSurprise(u32),
    /// In this segment of the first full round.
    InRound1(u32),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_roll_division_is_exact() {
        for (roll, want) in [
            (1, 1),
            (12, 1),
            (16, 1),
            (17, 2),
            (33, 2),
            (34, 3),
            (38, 3),
            (50, 3),
            (67, 5),
            (100, 6),
        ] {
            assert_eq!(
                segments_lost(SurpriseRoll::Percent(roll)).0,
                want,
                "d% {roll}"
            );
        }
    }

    #[test]
    fn surprise_segment_order() {
        // Surprise segment 1 of the Example of Melee: the ranger's two bolts come first and
        // last, the druid's spear and the barbarian's charge blow in the middle.
        let (b, _) = segment_beats(&[(2, false), (1, false), (1, false)]);
        assert_eq!(b, vec![vec![0, 2], vec![1], vec![1]]);
        // An item of speed goes before everything.
        let (b, _) = segment_beats(&[(1, true), (2, false)]);
        assert_eq!(b, vec![vec![0], vec![1, 2]]);
    }

    #[test]
    fn charge_completes_on_a_recovered_foe() {
        assert!(!may_be_struck_by(false, true, false).0);
        assert!(may_be_struck_by(false, true, true).0);
        assert!(may_be_struck_by(true, true, false).0);
    }

    #[test]
    fn penalties_never_create_surprise() {
        assert_eq!(individual_surprise(0, 3, true).0, 0);
        assert_eq!(individual_surprise(2, 3, false).0, 5);
    }

    proptest::proptest! {
        /// Missiles at the ready fly at three times the rate (DMG p.62): over the segments
        /// a rate spans (1/2 spans two), a ready volley each time would loose exactly three
        /// times the rate's missiles, and an unready one the rate's own — whatever the rate
        /// and whichever segments take the odd missile. A heavy crossbow (1/2) ready looses
        /// two bolts, never three, in its first segment.
        #[test]
        fn a_ready_volley_is_three_times_the_rate(
            routines in 1u32..=12,
            per_rounds in 1u32..=2,
            even in proptest::bool::ANY,
        ) {
            use crate::rules::attack_rate::AttackRate;
            use crate::rules::options::AlternatingRate;
            let rate = AttackRate { routines, per_rounds };
            let alt = if even { AlternatingRate::ExtraInEvenRounds } else { AlternatingRate::ExtraInOddRounds };
            let total = |ready: bool| (1..=per_rounds)
                .map(|nth| missiles_in_segment(rate, nth, ready, alt).0)
                .sum::<u32>();
            proptest::prop_assert_eq!(total(true), 3 * routines);
            proptest::prop_assert_eq!(total(false), routines);
            let first = missiles_in_segment(rate, 1, true, alt).0;
            proptest::prop_assert!(first * per_rounds < 3 * routines + per_rounds);
        }
    }

    proptest::proptest! {
        /// Netted among any number of sides, each pair keeps its own net: side i stands
        /// helpless while side j acts in exactly the segments two-side netting gives i
        /// against j — whether every side is surprised or one is not; two sides net as
        /// two always did.
        #[test]
        fn every_pair_keeps_its_own_net(
            rolls in proptest::collection::vec(proptest::option::of(1u32..=6), 2..5),
        ) {
            let (net, _) = net_among(&rolls);
            let last = net.iter().copied().max().unwrap_or(0);
            for i in 0..rolls.len() {
                for j in (0..rolls.len()).filter(|&j| j != i) {
                    // Segments in which i is still surprised and j no longer is.
                    let free = (1..=last).filter(|&k| k <= net[i] && k > net[j]).count() as u32;
                    let (pair, _) = net_surprise(rolls[i], rolls[j]);
                    proptest::prop_assert_eq!(free, pair.lost_by(true), "{:?} {:?}", rolls, net);
                }
            }
            if let [a, b] = rolls[..] {
                let (pair, _) = net_surprise(a, b);
                proptest::prop_assert_eq!(net, vec![pair.lost_by(true), pair.lost_by(false)]);
            }
        }
    }
}
