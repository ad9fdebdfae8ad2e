//! A missile's range (PHB p.38) under both systems: -2 at medium range, -5 at long, and
//! no shot past long range — for every weapon with ranges, any distance, indoors (1" = 10
//! ft) and outdoors (1" = 10 yd). The book's system once shot any distance at +0.

use firststrike::rules::distance::Setting;
use firststrike::rules::missile_range;
use firststrike::rules::options::RulesSystem;
use firststrike::scene::parse;
use firststrike::sim::{EventKind as K, LogEvent, Payload};
use firststrike::testing::SceneRun;
use proptest::prelude::*;

/// One shot of `weapon` at a target `d` feet off, the to-hit die fixed.
fn shot(weapon: &str, d: f64, ti: bool, outdoors: bool) -> Vec<LogEvent> {
    let (system, init) = if ti {
        ("rules: (system: TakeInitiative),", r#""S": 2, "T": 9"#)
    } else {
        ("", r#""A": 6, "B": 1"#)
    };
    let setting = if outdoors { "Outdoors" } else { "Indoors" };
    let src = format!(
        r#"Scene(name: "range", setting: {setting}, seed: 4, {system}
            combatants: [
                (name: "S", side: "A", at: (0.0, 0.0), weapon: "{weapon}", thac0: 15, hp: 20),
                (name: "T", side: "B", at: (0.0, {d:.1}), ac: 5, hp: 200),
            ],
            rounds: [(declare: {{ "S": Missile(targets: ["T"]), "T": Hold }}, initiative: {{ {init} }})],
            dice: {{ ToHit: {{ "S": [10, 10, 10, 10] }} }})"#
    );
    let s = parse("range.ron", &src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let mut r = SceneRun::new(s, None, Some(1));
    r.run_to_end();
    r.log().events.clone()
}

/// One shot of `weapon` from 10 ft by a shooter of Dexterity `dex`, the to-hit die fixed.
fn shot_with_dexterity(weapon: &str, dex: u32, ti: bool) -> Vec<LogEvent> {
    let (system, init) = if ti {
        ("rules: (system: TakeInitiative),", r#""S": 2, "T": 9"#)
    } else {
        ("", r#""A": 6, "B": 1"#)
    };
    let src = format!(
        r#"Scene(name: "dex", setting: Indoors, seed: 4, {system}
            combatants: [
                (name: "S", side: "A", at: (0.0, 0.0), weapon: "{weapon}", dexterity: {dex}, thac0: 15, hp: 20),
                (name: "T", side: "B", at: (0.0, 10.0), ac: 5, hp: 200),
            ],
            rounds: [(declare: {{ "S": Missile(targets: ["T"]), "T": Hold }}, initiative: {{ {init} }})],
            dice: {{ ToHit: {{ "S": [10, 10, 10, 10] }} }})"#
    );
    let s = parse("dex.ron", &src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let mut r = SceneRun::new(s, None, Some(1));
    r.run_to_end();
    r.log().events.clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// PHB p.11: the Dexterity reaction/attacking adjustment counts to hit with every
    /// missile, a penalty as well as a bonus, under the book's rules as under "Take
    /// Initiative!" §8 (the book once counted it on initiative only).
    #[test]
    fn dexterity_counts_to_hit_with_a_missile_under_either_system(
        weapon in prop::sample::select(ranged_weapons()),
        dex in 3u32..=18,
        ti in any::<bool>(),
    ) {
        // PHB p.11's column, written out here.
        let table = [(3, -3), (4, -2), (5, -1), (16, 1), (17, 2), (18, 3)];
        let expected = table.iter().find(|(d, _)| *d == dex).map_or(0, |(_, a)| *a);
        let plain = modifier(&shot_with_dexterity(&weapon, 10, ti));
        let events = shot_with_dexterity(&weapon, dex, ti);
        let (plain, with) = (plain.expect("a shot at 10 ft"), modifier(&events));
        prop_assert_eq!(with, Some(plain + expected), "{} Dex {}: {:#?}", weapon, dex, events);
        if expected != 0 {
            prop_assert!(events.iter().any(|e| e.detail.contains("Dexterity attacking adjustment")), "{:#?}", events);
        }
    }
}

/// The modifier of the shooter's first attack roll, if it made one.
fn modifier(events: &[LogEvent]) -> Option<i32> {
    events.iter().find_map(|e| match e.payload {
        Payload::Attack { modifier, .. } if e.actor == "S" => Some(modifier),
        _ => None,
    })
}

fn ranged_weapons() -> Vec<String> {
    firststrike::tables::weapons()
        .iter()
        .filter(|w| w.range_in.is_some() && w.fire_rate.is_some())
        .map(|w| w.name.clone())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_shot_takes_its_range_band_under_either_system(
        weapon in prop::sample::select(ranged_weapons()),
        frac in 0.05f64..1.4,
        ti in any::<bool>(),
        outdoors in any::<bool>(),
    ) {
        let setting = if outdoors { Setting::Outdoors } else { Setting::Indoors };
        let limits = firststrike::tables::weapon(&weapon).unwrap().range_ft(setting).unwrap();
        // Off the bands' edges by more than the scene's tenth of a foot.
        let d = (limits.2 * frac).round() + 0.5;
        let system = if ti { RulesSystem::TakeInitiative } else { RulesSystem::Book };
        let near = modifier(&shot(&weapon, 1.0, ti, outdoors));
        let far = shot(&weapon, d, ti, outdoors);
        match missile_range::penalty_at(system, d, limits) {
            Ok((penalty, _, rule)) => {
                let (near, at) = (near.expect("a shot at 1 ft"), modifier(&far));
                prop_assert_eq!(at, Some(near + penalty), "{} at {} ft of {:?}: {:#?}", weapon, d, limits, far);
                if penalty != 0 {
                    prop_assert!(far.iter().any(|e| e.detail.contains("range at")), "{:#?}", far);
                }
                prop_assert_eq!(rule, missile_range::rule_of(system));
            }
            Err(_) => {
                prop_assert_eq!(modifier(&far), None, "{} at {} ft past {:?}: {:#?}", weapon, d, limits, far);
                prop_assert!(
                    far.iter().any(|e| e.actor == "S" && e.kind == K::Idle
                        && e.rule.id == missile_range::rule_of(system).id),
                    "no 'out of range' said: {:#?}", far
                );
            }
        }
    }
}
