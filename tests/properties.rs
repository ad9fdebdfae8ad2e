//! Property tests for rules with a shape.

use firststrike::rules::action::{ActionKind, Declared};
use firststrike::rules::charge;
use firststrike::rules::first::{Context, who_first};
use firststrike::rules::options::{FirstRoundTiebreak, RulesOptions, SpellStart, TiedSpeedFactor};
use firststrike::rules::sequence::{round_sequence, routine_rows};
use firststrike::rules::speed_factor::{Extra, MeleeRound, extra_blows};
use firststrike::rules::surprise::{SurpriseRoll, segments_lost};
use proptest::prelude::*;

fn action() -> impl Strategy<Value = Declared> {
    (
        0u8..5,
        1u32..=6,
        1u32..=4,
        prop::option::of(1u32..=14),
        0u32..=20,
        1u32..=10,
        -2i32..=3,
        any::<bool>(),
    )
        .prop_map(|(kind, die, routines, sf, reach, time, dex, speed)| {
            let kind = match kind {
                0 => ActionKind::Melee,
                1 => ActionKind::Missile,
                2 => ActionKind::Charge {
                    arrival_segment: time,
                },
                3 => ActionKind::Cast {
                    segments: time,
                    device: false,
                },
                _ => ActionKind::Turn,
            };
            let routines = if matches!(kind, ActionKind::Melee | ActionKind::Missile) {
                routines
            } else {
                1
            };
            let mut a = Declared::melee("a", die)
                .kind(kind)
                .routines(routines)
                .reach(f64::from(reach))
                .dex(dex);
            a.speed_factor = sf;
            a.strikes_first = speed && matches!(kind, ActionKind::Melee | ActionKind::Missile);
            a
        })
}

fn context() -> impl Strategy<Value = Context> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(closing, sim, after, minus)| Context {
            melee_round: if closing {
                MeleeRound::FirstAfterClosing
            } else {
                MeleeRound::Continuing
            },
            options: RulesOptions {
                first_round_tiebreak: if sim {
                    FirstRoundTiebreak::Simultaneous
                } else {
                    FirstRoundTiebreak::WeaponLength
                },
                spell_start: if after {
                    SpellStart::AfterWinningDie
                } else {
                    SpellStart::RoundStart
                },
                tied_speed_factor: if minus {
                    TiedSpeedFactor::MinusTiedDie
                } else {
                    TiedSpeedFactor::Raw
                },
                ..RulesOptions::default()
            },
        },
    )
}

proptest! {
    #[test]
    fn charge_arrival_is_ceiling_of_distance_over_rate(distance in 1u32..2000, rate in 1u32..100) {
        let (n, _) = charge::arrival_segment(f64::from(distance), f64::from(rate));
        prop_assert_eq!(n, distance.div_ceil(rate));
        prop_assert!(n * rate >= distance && (n - 1) * rate < distance);
    }

    #[test]
    fn swapping_the_actions_swaps_the_answer(a in action(), b in action(), ctx in context()) {
        let mut b = b;
        b.name = "b".into();
        b.side = "b".into();
        let ab = who_first(&a, &b, &ctx);
        let ba = who_first(&b, &a, &ctx);
        prop_assert_eq!(ab.first, ba.first.swapped());
        prop_assert_eq!((ab.segment_a, ab.segment_b), (ba.segment_b, ba.segment_a));
        prop_assert_eq!(ab.rule, ba.rule);
    }

    #[test]
    fn extra_blow_thresholds(lower in 1u32..20, higher in 1u32..30) {
        let diff = higher.saturating_sub(lower);
        let want = if diff == 0 { None } else if diff >= 10 { Some(Extra::TwoBeforeOneTogether) } else if diff >= 5 || diff >= 2 * lower { Some(Extra::TwoBefore) } else { None };
        prop_assert_eq!(extra_blows(lower, higher), want);
    }

    #[test]
    fn routine_rows_are_centred_and_spaced_by_two(n in 1u32..20) {
        let rows = routine_rows(n);
        prop_assert_eq!(rows.len() as u32, n);
        prop_assert_eq!(rows.iter().sum::<i32>(), 0);
        prop_assert!(rows.windows(2).all(|w| w[1] - w[0] == 2));
    }

    #[test]
    fn every_routine_appears_once_in_the_sequence(a in action(), b in action(), ctx in context()) {
        let mut b = b;
        b.name = "b".into();
        b.side = "b".into();
        let s = round_sequence(&[a.clone(), b.clone()], &ctx);
        let count = |name: &str| s.beats.iter().flat_map(|x| &x.events).filter(|e| e.name == name).count() as u32;
        let expected = |x: &Declared| match x.kind {
            ActionKind::Charge { .. } => 2,
            ActionKind::Cast { .. } => 1,
            _ => x.routines,
        };
        // Speed-factor extra blows may add up to two more to one figure.
        prop_assert!((expected(&a)..=expected(&a) + 2).contains(&count("a")));
        prop_assert!((expected(&b)..=expected(&b) + 2).contains(&count("b")));
    }

    #[test]
    fn percent_surprise_segments_round_up(roll in 1u32..=100) {
        let (n, _) = segments_lost(SurpriseRoll::Percent(roll));
        // n - 1 < roll / (100/6) <= n, in exact integers.
        prop_assert!(6 * roll <= 100 * n && 100 * (n - 1) < 6 * roll);
    }
}

proptest! {
    /// Haste doubles a rate's routines over its cycle; slow halves them over twice the
    /// cycle (PHB p.74; reading `spell.slow`).
    #[test]
    fn haste_doubles_and_slow_halves_the_routines(r in 1u32..=6, p in 1u32..=2) {
        use firststrike::rules::attack_rate::AttackRate;
        use firststrike::rules::options::AlternatingRate;
        let rate = AttackRate { routines: r, per_rounds: p };
        let over = |a: AttackRate, rounds: u32| -> u32 {
            (1..=rounds).map(|n| a.routines_in(n, AlternatingRate::default()).0).sum()
        };
        prop_assert_eq!(over(rate.hasted().0, 4), 2 * over(rate, 4));
        prop_assert_eq!(2 * over(rate.slowed().0, 8), over(rate, 8));
    }
}
