//! Property tests for rules with a shape.

use firststrike::rules::action::{ActionKind, Declared};
use firststrike::rules::charge;
use firststrike::rules::first::{Context, First, who_first};
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

proptest! {
    /// DMG p.66: a charger's AC is never better than before, never worse than AC 10 once at
    /// or above it, loses exactly its Dexterity bonus when it has one, and one class without.
    #[test]
    fn a_chargers_ac(ac in -10i32..=10, bonus in 0i32..=5) {
        let (worse, _) = charge::charging_ac(ac, bonus);
        prop_assert!(worse >= ac);
        if bonus > 0 {
            // Without the Dexterity bonus, but no worse than AC 10, which takes no
            // penalty for charging (DMG p.66).
            prop_assert_eq!(worse, (ac + bonus).min(10));
        } else if ac >= 10 {
            prop_assert_eq!(worse, ac);
        } else {
            prop_assert_eq!(worse, ac + 1);
        }
    }

    /// DMG p.66-67 with reading `spell.slow`: a slowed melee attacker acts as the loser, so
    /// against a caster its blow is timed exactly as a real loser's holding the lower of the
    /// two dice — whatever it rolled, and from either side of the pair — except that on tied
    /// dice it is never sooner than the tie's straight speed factor (the slow must not speed
    /// it up: a loser's |speed factor - die| can be sooner than its speed factor).
    #[test]
    fn a_slowed_attacker_against_a_caster_is_timed_by_the_losing_die(
        da in 1u32..=6, dc in 1u32..=6, sf in 1u32..=12, time in 1u32..=9,
    ) {
        let mut slowed = Declared::melee("Slowed", da).side("S").sf(sf);
        slowed.slowed = true;
        let caster = Declared::melee("Caster", dc)
            .side("C")
            .kind(ActionKind::Cast { segments: time, device: false });
        // The loser it acts as: the same figure, not slowed, holding the lower die, against
        // a caster who won (a tie it still loses).
        let low = da.min(dc);
        let loser = Declared::melee("Slowed", low).side("S").sf(sf);
        let caster_won = Declared::melee("Caster", low + 1)
            .side("C")
            .kind(ActionKind::Cast { segments: time, device: false });
        let ctx = Context::default();
        let want = who_first(&loser, &caster_won, &ctx);
        let (ab, ba) = (who_first(&slowed, &caster, &ctx), who_first(&caster, &slowed, &ctx));
        for (d, blow) in [(&ab, ab.segment_a), (&ba, ba.segment_b)] {
            if da == dc && sf > sf.abs_diff(low) {
                prop_assert_eq!(d.rule.id, "spell.slow");
                prop_assert_eq!(blow, Some(sf.min(10)));
                continue;
            }
            prop_assert_eq!(d.rule.id, "spell.melee_attacker_loses");
            if sf.abs_diff(low) <= 10 {
                prop_assert_eq!(blow, Some(sf.abs_diff(low)));
            }
            prop_assert_eq!(blow, want.segment_a);
        }
    }

    /// Reading `spell.slow` against DMG p.66-67: being slowed never makes a melee attacker's
    /// blow against a caster come sooner than the same figure's unslowed, whatever the dice,
    /// the speed factor and the casting time — in which of the two goes first, and in the
    /// segment of the blow.
    #[test]
    fn a_slow_never_hastens_a_blow_against_a_caster(
        da in 1u32..=6, dc in 1u32..=6, sf in 0u32..=12, time in 1u32..=12,
    ) {
        let quick = Declared::melee("A", da).side("S").sf(sf);
        let mut slowed = quick.clone();
        slowed.slowed = true;
        let caster = Declared::melee("Caster", dc)
            .side("C")
            .kind(ActionKind::Cast { segments: time, device: false });
        let ctx = Context::default();
        let (q, s) = (who_first(&quick, &caster, &ctx), who_first(&slowed, &caster, &ctx));
        // Rank of the attacker in the pair: 0 first, 1 together, 2 after.
        let rank = |f: First| match f {
            First::A => 0,
            First::Together => 1,
            First::B => 2,
        };
        prop_assert!(rank(s.first) >= rank(q.first), "slowed {:?}, unslowed {:?}", s, q);
        if let (Some(a), Some(b)) = (s.segment_a, q.segment_a) {
            prop_assert!(a >= b, "slowed blow in {a}, unslowed in {b}");
        }
    }

    /// "Take Initiative!" §9: a weapon set against a charge strikes first whatever the dice,
    /// the reaches and the arrival, in either order of the two actions.
    #[test]
    fn a_set_weapon_strikes_a_charger_first(
        ds in 1u32..=6, dc in 1u32..=6, rs in 0u32..=20, rc in 0u32..=20, arrive in 1u32..=10,
    ) {
        let mut set = Declared::melee("Set", ds).side("S").sf(6).reach(f64::from(rs));
        set.set_vs_charge = true;
        let charger = Declared::melee("Charger", dc)
            .side("C")
            .reach(f64::from(rc))
            .kind(ActionKind::Charge { arrival_segment: arrive });
        let ctx = Context::default();
        let d = who_first(&set, &charger, &ctx);
        prop_assert_eq!((d.first, d.rule.id), (First::A, "charge.set"));
        let d = who_first(&charger, &set, &ctx);
        prop_assert_eq!(d.first, First::B);
        let s = round_sequence(&[set, charger], &ctx);
        let first_blow = s.beats.iter().flat_map(|b| &b.events)
            .find(|e| matches!(e.kind, firststrike::rules::sequence::EventKind::Routine { .. }))
            .unwrap();
        prop_assert_eq!(first_blow.name.as_str(), "Set");
        prop_assert_eq!(first_blow.segment, Some(arrive));
    }

    /// DMG p.71: hesitating s seconds delays by whole 6-second spans (or part spans under the
    /// other reading); the calculator's engine puts a spell's completion that much later and
    /// a blow no earlier than segment 1 + delay, whatever the dice.
    #[test]
    fn hesitation_delays_by_its_segments(
        secs in 0u32..=30, time in 1u32..=5, d1 in 1u32..=6, d2 in 1u32..=6, sf in 1u32..=9,
    ) {
        use firststrike::calc::{self, Defaults};
        use firststrike::rules::declare::hesitation_delay;
        use firststrike::rules::options::HesitationRounding as H;
        let (whole, part) = (hesitation_delay(secs, H::WholeSegments).0, hesitation_delay(secs, H::PartSegmentsCount).0);
        prop_assert!(whole <= part && part <= whole + 1);
        prop_assert_eq!(whole, secs / 6);
        let d = Defaults::default();
        let figs = |a: String, b: String| -> Vec<calc::Figure> {
            [a, b].iter().map(|s| calc::parse_action(s, &d).unwrap()).collect()
        };
        let (_, seq) = calc::calculate(
            &figs(format!("Caster: cast time={time} hesitate={secs}s d6={d1}"), format!("Foe: natural d6={d2}")),
            &d,
        ).unwrap();
        let done = seq.beats.iter().find(|b| b.events.iter().any(|e| e.name == "Caster")).unwrap();
        prop_assert_eq!(done.segment, Some(time + whole));
        let (_, seq) = calc::calculate(
            &figs(format!("Slow: melee sf={sf} hesitate={secs}s d6={d1}"), format!("Foe: melee sf={sf} d6={d2}")),
            &d,
        ).unwrap();
        let blow = seq.beats.iter().find(|b| b.events.iter().any(|e| e.name == "Slow")).unwrap();
        if whole > 0 {
            prop_assert!(blow.segment.is_some_and(|s| s > whole), "{:?}", blow.segment);
        }
    }
}

proptest! {
    /// Reading (DMG p.65-67): a melee blow against a spell of more than a round is struck
    /// in its own round, by segment 10 at the latest — so against a spell of 11 segments or
    /// more it always comes first, whatever its speed factor and the dice; against one of
    /// 10 or less, the blow's number is compared with the casting time as it is.
    #[test]
    fn a_blow_against_a_spell_longer_than_a_round_comes_within_its_round(
        da in 1u32..=6, dc in 1u32..=6, sf in 0u32..=20, time in 1u32..=20,
    ) {
        let attacker = Declared::melee("A", da).side("S").sf(sf);
        let caster = Declared::melee("Caster", dc)
            .side("C")
            .kind(ActionKind::Cast { segments: time, device: false });
        let d = who_first(&attacker, &caster, &Context::default());
        if let Some(blow) = d.segment_a {
            prop_assert!(blow <= 10, "a blow in segment {blow}");
        }
        if time > 10 && da <= dc {
            prop_assert_eq!(d.first, First::A, "{:?}", d);
        }
    }
}
