//! The table's house rules (the house-rules text in the rules texts), each switched on per
//! scene with `rules: (house: (...))` and off by default. One named test per rule from its
//! text, and a property test where the rule has a shape.

use firststrike::scene::{Scene, parse};
use firststrike::sim::{EventKind as K, Payload};
use firststrike::testing::SceneRun;
use proptest::prelude::*;
mod common;

/// A fighter striking an orc once, with its d20 and damage fixed, under these house rules
/// (`""` for none).
fn blow(house: &str, d20: i32, damage: i32, system: &str) -> Scene {
    let src = format!(
        r#"Scene(name: "crit", setting: Indoors, seed: 3,
            rules: (system: {system}, house: ({house})),
            combatants: [
                (name: "Fighter", side: "A", at: (0.0, 0.0), weapon: Some("long sword"), hp: Some(30), thac0: Some(15)),
                (name: "Orc", side: "B", at: (5.0, 0.0), hp: Some(40), ac: Some(10)),
            ],
            rounds: [(declare: {{"Fighter": Melee(targets: ["Orc"]), "Orc": Other("waits")}})],
            dice: {{ToHit: {{"Fighter": [{d20}]}}, Damage: {{"Fighter": [{damage}]}}}})"#
    );
    parse("crit.ron", &src).unwrap_or_else(|e| panic!("{e}"))
}

/// The fighter's damage events: (amount, critical, rule id).
fn damage(s: Scene) -> Vec<(i32, bool, &'static str)> {
    let mut r = SceneRun::new(s, None, Some(1));
    r.run_to_end();
    r.log()
        .events
        .iter()
        .filter(|e| e.kind == K::Damage && e.actor == "Fighter")
        .map(|e| match e.payload {
            Payload::Damage {
                amount, critical, ..
            } => (amount, critical, e.rule.id),
            _ => panic!("a damage event carries its damage"),
        })
        .collect()
}

/// Whether the fighter's blow hit (read from its attack event).
fn hits(s: Scene) -> bool {
    let mut r = SceneRun::new(s, None, Some(1));
    r.run_to_end();
    r.log()
        .events
        .iter()
        .find_map(|e| match e.payload {
            Payload::Attack { hit, .. } if e.actor == "Fighter" => Some(hit),
            _ => None,
        })
        .expect("the fighter attacks")
}

/// House rules, "Critical Hits": a natural 20 to hit does double damage. The book gives a
/// natural 20 no more than a hit (DMG p.74-75), so with the rule off the same blow does
/// its plain damage.
#[test]
fn a_natural_20_does_double_damage_under_critical_hits() {
    let on = damage(blow("critical_hits: true", 20, 6, "Book"));
    assert_eq!(on, vec![(12, true, "house.critical_hit")]);
    let off = damage(blow("", 20, 6, "Book"));
    assert_eq!(off.len(), 1);
    assert_eq!((off[0].0, off[0].1), (6, false));
    assert_ne!(off[0].2, "house.critical_hit");
    // A 19 that hits is no critical.
    let nineteen = damage(blow("critical_hits: true", 19, 6, "Book"));
    assert_eq!((nineteen[0].0, nineteen[0].1), (6, false));
}

/// The house rules combine with either initiative system: the same natural 20 doubles the
/// same damage under "Take Initiative!".
#[test]
fn critical_hits_under_take_initiative_too() {
    let on = damage(blow("critical_hits: true", 20, 4, "TakeInitiative"));
    assert_eq!(on, vec![(8, true, "house.critical_hit")]);
}

/// A house rule the engine does not know is refused with the scene's located error, not
/// ignored.
#[test]
fn an_unknown_house_rule_is_refused() {
    let err = refused("critical_hit: true");
    assert!(err.contains("critical_hit"), "{err}");
}

/// The error of a one-figure scene (file `x.ron`) with these house switches, which must be
/// refused; the switches stand on its line 2.
fn refused(house: &str) -> String {
    let src = format!(
        r#"Scene(name: "x", setting: Indoors, seed: 1,
        rules: (house: ({house})),
        combatants: [(name: "A", side: "A", at: (0.0, 0.0))])"#
    );
    parse("x.ron", &src)
        .expect_err("the scene is refused")
        .to_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// For every d20 that hits and every damage die, the damage is the die's, doubled
    /// exactly when the rule is on and the d20 shows 20.
    #[test]
    fn damage_doubles_only_on_a_natural_20_with_the_rule_on(
        d20 in 1..=20i32, base in 1..=10i32, on in any::<bool>()
    ) {
        let house = if on { "critical_hits: true" } else { "" };
        let scene = blow(house, d20, base, "Book");
        let hit = hits(scene.clone());
        let got = damage(scene);
        prop_assert_eq!(got.len(), usize::from(hit), "damage only on a hit");
        if let Some(&(amount, critical, _)) = got.first() {
            let doubled = on && d20 == 20;
            prop_assert_eq!(amount, if doubled { 2 * base } else { base });
            prop_assert_eq!(critical, doubled);
        }
    }
}

/// The library's scene of the rule: Robilar's natural 20 on his first routine does 18
/// (his fixed 9, doubled); the same scene with the house rules off does 9, and every other
/// blow, and the order of all four, is the same either way.
#[test]
fn the_critical_hits_scene_against_the_book() {
    use firststrike::rules::house::HouseRules;
    let on = firststrike::scene::load("scenes/house/critical_hits.ron").unwrap();
    let mut off = on.clone();
    off.rules.house = HouseRules::default();
    let amounts = |s: Scene| {
        let mut r = SceneRun::new(s, None, None);
        r.run_to_end();
        r.log()
            .events
            .iter()
            .filter_map(|e| match e.payload {
                Payload::Damage {
                    amount, critical, ..
                } => Some((e.actor.to_string(), amount, critical)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (amounts(on), amounts(off));
    let r = |n: &str, v: i32, c: bool| (n.to_string(), v, c);
    assert_eq!(
        a,
        vec![
            r("Robilar", 18, true),
            r("Otis", 8, false),
            r("Robilar", 7, false)
        ]
    );
    assert_eq!(
        b,
        vec![
            r("Robilar", 9, false),
            r("Otis", 8, false),
            r("Robilar", 7, false)
        ]
    );
}

/// `n` fighters (no weapon, so no other modifier) around one foe of `size`, all within
/// reach and all attacking it, under the house rule of ganging up (or not).
fn gang(n: usize, size: &str, on: bool) -> Scene {
    let spots = [
        (4.0, 0.0),
        (0.0, 4.0),
        (-4.0, 0.0),
        (0.0, -4.0),
        (3.0, 3.0),
        (-3.0, 3.0),
        (3.0, -3.0),
        (-3.0, -3.0),
        (2.0, -4.0),
        (-2.0, 4.0),
    ];
    let mut combatants =
        format!(r#"(name: "Ogre", side: "B", at: (20.0, 20.0), size: {size}, hp: Some(900)),"#);
    let mut declare = String::from(r#""Ogre": Other("roars"), "#);
    for (k, (x, y)) in spots.iter().take(n).enumerate() {
        combatants.push_str(&format!(
            r#"(name: "F{k}", side: "A", at: ({}, {}), hp: Some(20)),"#,
            20.0 + x,
            20.0 + y
        ));
        declare.push_str(&format!(r#""F{k}": Melee(targets: ["Ogre"]), "#));
    }
    let house = if on { "ganging_up: true" } else { "" };
    let src = format!(
        r#"Scene(name: "gang", setting: Indoors, seed: 5,
            rules: (house: ({house})),
            combatants: [{combatants}],
            rounds: [(declare: {{{declare}}}, initiative: {{"A": 4, "B": 2}})])"#
    );
    parse("gang.ron", &src).unwrap_or_else(|e| panic!("{e}"))
}

/// Something of a figure, with its name.
type Named<T> = (String, T);

/// Each attacker's to-hit modifier, by name, and who was left without room (with the rule
/// that said so).
fn gang_blows(s: Scene) -> (Vec<Named<i32>>, Vec<Named<&'static str>>) {
    let mut r = SceneRun::new(s, None, Some(1));
    r.run_to_end();
    let mut blows = Vec::new();
    let mut left_out = Vec::new();
    for e in &r.log().events {
        match (&e.kind, &e.payload) {
            (_, Payload::Attack { modifier, .. }) => blows.push((e.actor.to_string(), *modifier)),
            (K::Idle, _) => left_out.push((e.actor.to_string(), e.rule.id)),
            _ => {}
        }
    }
    (blows, left_out)
}

/// House rules, "Ganging Up": four attackers on one man-sized foe each strike at +4; a
/// fifth finds no room (at most four on a man-sized foe). With the rule off all five strike
/// with no bonus.
#[test]
fn four_attackers_get_plus_4_and_a_fifth_has_no_room() {
    let (blows, left_out) = gang_blows(gang(5, "M", true));
    let names: Vec<&str> = blows.iter().map(|b| b.0.as_str()).collect();
    assert_eq!(names, ["F0", "F1", "F2", "F3"]);
    assert!(blows.iter().all(|b| b.1 == 4), "{blows:?}");
    assert_eq!(left_out, vec![("F4".to_string(), "house.gang_up")]);
    let (blows, left_out) = gang_blows(gang(5, "M", false));
    assert_eq!(blows.len(), 5);
    assert!(blows.iter().all(|b| b.1 == 0) && left_out.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// For any number of attackers on a man-sized or large foe: the first min(N, room)
    /// strike (room 4 or 6), each at +min(N, room, 4) when more than one, and the rest are
    /// left out; with the rule off every one strikes at +0.
    #[test]
    fn the_bonus_is_min_of_attackers_and_4(n in 1usize..=10, size in 0usize..3, on in any::<bool>()) {
        // Room by the text: 4 on a medium foe, 6 on a large, 8 on a huge one.
        let (size, room) = [("M", 4), ("L", 6), ("H", 8)][size];
        let (blows, left_out) = gang_blows(gang(n, size, on));
        let striking = if on { n.min(room) } else { n };
        prop_assert_eq!(blows.len(), striking);
        prop_assert_eq!(left_out.len(), n - striking);
        let bonus = if on && striking >= 2 { striking.min(4) as i32 } else { 0 };
        for (who, m) in &blows {
            prop_assert_eq!(*m, bonus, "{}", who);
        }
    }
}

/// An indoor encounter check with its d6 fixed, under the house rule of encounter distance
/// (or not): the distance event's feet and rule.
fn encounter(d6: u32, on: bool) -> (f64, &'static str) {
    let house = if on { "encounter_distance: true" } else { "" };
    let src = format!(
        r#"Scene(name: "meet", setting: Indoors, seed: 2,
            rules: (house: ({house})),
            encounter: [Indoors(note: "the corridor")],
            combatants: [(name: "A", side: "A", at: (0.0, 0.0)), (name: "B", side: "B", at: (10.0, 0.0))],
            dice: {{Distance: {{"any": [{d6}]}}}})"#
    );
    let mut r = SceneRun::new(parse("meet.ron", &src).unwrap(), None, Some(1));
    r.run_to_end();
    r.log()
        .events
        .iter()
        .find_map(|e| match e.payload {
            Payload::Distance { feet } => Some((feet, e.rule.id)),
            _ => None,
        })
        .expect("a distance event")
}

/// House rules, "Determine Distance": indoors d6+4 squares of 5 ft — a 3 puts the parties
/// 35 ft apart, where the book's d6+4" puts them 70 ft apart (DMG p.62). Every face of the
/// die: the house distance is (d6 + 4) × 5 ft, half the book's.
#[test]
fn encounter_distance_in_squares() {
    assert_eq!(encounter(3, true), (35.0, "house.encounter_distance"));
    assert_eq!(encounter(3, false), (70.0, "distance.indoors"));
    for d6 in 1..=6u32 {
        let (house, _) = encounter(d6, true);
        let (book, _) = encounter(d6, false);
        assert_eq!(house, f64::from((d6 + 4) * 5), "d6 {d6}");
        assert_eq!(book, 2.0 * house, "d6 {d6}");
    }
}

/// A bare-handed fighter (no weapon, so no modifier: it needs 15 - 10 = 5) striking an orc
/// once with its two d20s fixed, under critical hits with confirmation.
fn confirmed(first: i32, second: i32) -> Vec<(i32, bool, &'static str)> {
    let src = format!(
        r#"Scene(name: "confirm", setting: Indoors, seed: 3,
            rules: (house: (critical_hits: true, confirm_criticals: true)),
            combatants: [
                (name: "Fighter", side: "A", at: (0.0, 0.0), hp: Some(30), thac0: Some(15)),
                (name: "Orc", side: "B", at: (5.0, 0.0), hp: Some(40), ac: Some(10)),
            ],
            rounds: [(declare: {{"Fighter": Melee(targets: ["Orc"]), "Orc": Other("waits")}})],
            dice: {{ToHit: {{"Fighter": [{first}, {second}]}}, Damage: {{"Fighter": [3]}}}})"#
    );
    damage(parse("confirm.ron", &src).unwrap_or_else(|e| panic!("{e}")))
}

/// "Take Initiative!" §3 (its author's house rule, a switch of its own here): a natural 20
/// is confirmed by a second roll with no to-hit bonuses; still a hit, the blow is a
/// critical, else a plain hit. For every second roll: doubled exactly when it reaches the
/// 5 needed. A first roll under 20 never asks for a second.
#[test]
fn a_natural_20_is_a_critical_only_when_confirmed() {
    for second in 1..=20 {
        let got = confirmed(20, second);
        if second >= 5 {
            assert_eq!(
                got,
                vec![(6, true, "house.critical_hit")],
                "second {second}"
            );
        } else {
            assert_eq!(got.len(), 1);
            assert_eq!((got[0].0, got[0].1), (3, false), "second {second}");
        }
    }
    let plain = confirmed(19, 20);
    assert_eq!((plain[0].0, plain[0].1), (3, false));
}

/// Confirming criticals without critical hits would switch nothing on: refused, located.
#[test]
fn confirming_without_critical_hits_is_refused() {
    let err = refused("confirm_criticals: true");
    assert!(err.contains("critical hits"), "{err}");
    assert!(err.contains("x.ron:2:"), "located on its line: {err}");
}

/// A fighter with a battle axe +`magic` fumbling on a natural 1 (second d20 `second`, the
/// flight's d3 and d8 fixed), then attacking again in its second routine.
fn fumbling(second: i32, magic: i32, d3: i32, d8: i32) -> Vec<firststrike::sim::LogEvent> {
    let src = format!(
        r#"Scene(name: "f", setting: Indoors, seed: 3, rules: (house: (fumbles: true)),
        combatants: [
            (name: "Fighter", side: "A", at: (50.0, 50.0), weapon: "battle axe", weapon_magic: {magic}, attacks: "2/1", thac0: 15, hp: 30),
            (name: "Orc", side: "B", at: (50.0, 55.0), hp: 40, ac: 10),
        ],
        rounds: [(declare: {{"Fighter": Melee(targets: ["Orc"]), "Orc": Other("waits")}}, initiative: {{"A": 6, "B": 1}})],
        dice: {{ToHit: {{"Fighter": [1, {second}, 15]}}, Scatter: {{"Fighter": [{d3}, {d8}]}}}})"#
    );
    let mut r = SceneRun::new(parse("f.ron", &src).unwrap(), None, Some(1));
    r.run_to_end();
    r.log().events.clone()
}

/// House rules, "Critical Misses": a natural 1 is a fumble; a second d20 plus the weapon's
/// magic over 10 is a plain miss (our reading: 10 too), under 10 the weapon flies 1-3
/// squares in a d8 direction, 3 or less it breaks. A figure that lost its weapon strikes
/// no more; one that only missed strikes on.
#[test]
fn a_fumble_throws_the_weapon_one_to_three_squares() {
    for second in 1..=20 {
        for magic in 0..=3 {
            let log = fumbling(second, magic, 2, 3);
            let f = log
                .iter()
                .find_map(|e| match &e.payload {
                    Payload::Fumble {
                        outcome,
                        total,
                        lands,
                        ..
                    } => Some((*outcome, *total, *lands)),
                    _ => None,
                })
                .expect("a natural 1 fumbles");
            use firststrike::rules::house::Fumble::*;
            let expected = match second + magic {
                t if t <= 3 => Broken,
                t if t < 10 => Thrown,
                _ => Miss,
            };
            assert_eq!(
                (f.0, f.1),
                (expected, second + magic),
                "d20 {second} + {magic}"
            );
            assert_eq!(f.2.is_some(), expected == Thrown);
            let swings = log
                .iter()
                .filter(|e| e.actor == "Fighter" && matches!(e.payload, Payload::Attack { .. }))
                .count();
            assert_eq!(
                swings,
                if expected == Miss { 2 } else { 1 },
                "disarmed after {expected:?}"
            );
        }
    }
    // Where it lands: d3 squares of 5 ft in the d8's direction (1 north, clockwise).
    let step = [
        (0, -1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    for d3 in 1..=3 {
        for d8 in 1..=8 {
            let log = fumbling(5, 0, d3, d8);
            let lands = log
                .iter()
                .find_map(|e| match &e.payload {
                    Payload::Fumble { lands, squares, .. } => {
                        Some((lands.unwrap(), squares.unwrap()))
                    }
                    _ => None,
                })
                .unwrap();
            let (dx, dy) = step[d8 as usize - 1];
            let want = (50.0 + f64::from(dx * d3 * 5), 50.0 + f64::from(dy * d3 * 5));
            assert_eq!(lands, (want, d3 as u32), "d3 {d3}, d8 {d8}");
        }
    }
}

/// Without the rule a natural 1 is only a miss (and hits if the bonuses reach).
#[test]
fn no_fumbles_in_the_book() {
    let s = std::fs::read_to_string("scenes/house/fumble.ron").unwrap();
    let s = s.replace("rules: (house: (fumbles: true)),", "");
    let mut r = SceneRun::new(parse("f.ron", &s).unwrap(), None, None);
    r.run_to_end();
    assert!(
        !r.log()
            .events
            .iter()
            .any(|e| matches!(e.payload, Payload::Fumble { .. }))
    );
    let otis = r
        .log()
        .events
        .iter()
        .filter(|e| e.actor == "Otis" && matches!(e.payload, Payload::Attack { .. }))
        .count();
    assert_eq!(otis, 2, "both of Otis's routines");
}

/// A brawler's blow (`weapon` hands or feet) of `dmg`, by a monk or not.
fn brawl(weapon: &str, dmg: i32, monk: bool, subdual: bool, hp: i32) -> (i32, i32, bool) {
    let src = format!(
        r#"Scene(name: "b", setting: Indoors, seed: 3, rules: (house: (weaponless_combat: true)),
        combatants: [
            (name: "A", side: "A", at: (0.0, 0.0), weapon: "{weapon}", monk: {monk}, subdual: {subdual}, thac0: 15, hp: 30),
            (name: "B", side: "B", at: (0.0, 5.0), hp: {hp}, ac: 10),
        ],
        rounds: [(declare: {{"A": Melee(targets: ["B"]), "B": Other("waits")}})],
        dice: {{ToHit: {{"A": [18]}}, Damage: {{"A": [{dmg}]}}}})"#
    );
    let mut r = SceneRun::new(parse("b.ron", &src).unwrap(), None, Some(1));
    r.run_to_end();
    let (real, sub) = r
        .log()
        .events
        .iter()
        .find_map(|e| match e.payload {
            Payload::Damage {
                amount, subdual, ..
            } => Some((amount, subdual)),
            _ => None,
        })
        .unwrap();
    let out = r
        .log()
        .events
        .iter()
        .any(|e| e.kind == K::Down && e.rule.id == "house.subdued");
    (real, sub, out)
}

/// House rules, "Weaponless Combat": half real and half subdual (the odd point subdual, our
/// reading); a monk's all real, or all subdual by choice; knocked out when the subdual
/// damage reaches the hit points left.
#[test]
fn weaponless_blows_split_real_and_subdual() {
    for weapon in ["hands", "feet"] {
        for dmg in 1..=6 {
            let (real, sub, _) = brawl(weapon, dmg, false, false, 40);
            assert_eq!(real + sub, dmg);
            assert_eq!(real, dmg / 2, "{weapon} {dmg}");
            assert_eq!(
                brawl(weapon, dmg, false, true, 40).1,
                sub,
                "only monks choose"
            );
            assert_eq!(brawl(weapon, dmg, true, false, 40), (dmg, 0, false));
            assert_eq!(brawl(weapon, dmg, true, true, 40).1, dmg);
        }
    }
    // 6 on a figure of 4 hp: 3 real leaves 1, 3 subdual knocks it out.
    assert_eq!(brawl("feet", 6, false, false, 4), (3, 3, true));
    assert_eq!(brawl("feet", 2, false, false, 4), (1, 1, false));
    // Hands and feet need the rule: the book's brawling is not modelled.
    let err = parse(
        "b.ron",
        r#"Scene(name: "b", setting: Indoors, combatants: [(name: "A", side: "A", at: (0.0, 0.0), weapon: "hands")])"#,
    )
    .expect_err("refused")
    .to_string();
    assert!(err.contains("weaponless"), "{err}");
}

/// The Example of Melee replays as the book has it with every house rule off (its own
/// tests hold it to the text); the variant with them on differs, and each difference it
/// shows is cited to a house rule or follows from one.
#[test]
fn the_example_of_melee_with_house_rules() {
    let play = |p: &str| {
        let mut r = SceneRun::load(p);
        r.run_to_end();
        r.log().events.clone()
    };
    let book = play("scenes/example_of_melee.ron");
    let house = play("scenes/house/example_of_melee_house.ron");
    assert!(!book.iter().any(|e| e.rule.id.starts_with("house.")));
    let cited: std::collections::BTreeSet<&str> = house
        .iter()
        .map(|e| e.rule.id)
        .filter(|id| id.starts_with("house."))
        .collect();
    for id in [
        "house.surprise_carries_over",
        "house.fumble",
        "house.multiple_attacks",
    ] {
        assert!(cited.contains(id), "{id} shows in the variant: {cited:?}");
    }
    // Ganging up: the barbarian and the cavalier on the magic-user in surprise segment 2,
    // +2 each over the book's same roll.
    let modifier = |log: &[firststrike::sim::LogEvent], who: &str| {
        log.iter().find_map(|e| match e.payload {
            Payload::Attack { modifier, .. }
                if e.actor == who && (e.round, e.segment) == (0, 2) =>
            {
                Some(modifier)
            }
            _ => None,
        })
    };
    for who in ["Barbarian", "Cavalier"] {
        assert_eq!(
            modifier(&house, who).unwrap() - modifier(&book, who).unwrap(),
            2,
            "{who} ganging up"
        );
    }
    // The book scene's Paladin hits with his natural 1 (d20 1 + 8 against 3 needed); with
    // fumbles on the same roll misses.
    let nat1 = |log: &[firststrike::sim::LogEvent]| {
        log.iter().find_map(|e| match e.payload {
            Payload::Attack { roll: 1, hit, .. } if e.actor == "Paladin" && e.round == 1 => {
                Some(hit)
            }
            _ => None,
        })
    };
    assert_eq!((nat1(&book), nat1(&house)), (Some(true), Some(false)));
}

/// A problem in a round's `awaits` or `psionics` entry is located on that entry: not on a
/// comment that names the field, nor on another figure's entry that names it as a value.
#[test]
fn await_and_psionic_problems_are_located_on_their_entry() {
    let awaits = r#"Scene(name: "w", setting: Indoors,
    rules: (house: (await_enemy: true)),
    combatants: [
        (name: "Thief", side: "P", at: (0.0, 0.0), weapon: "dagger", hp: 9),
        // the thief awaits the orc's blow
        (name: "Orc", side: "O", at: (5.0, 0.0), weapon: "club", hp: 9),
    ],
    rounds: [(
        declare: { "Thief": Melee(targets: ["Orc"]), "Orc": Melee(targets: ["Thief"]) },
        awaits: { "Thief": "Thief" },
    )],
)"#;
    let e = firststrike::scene::parse("w.ron", awaits).unwrap_err();
    assert_eq!(
        (e.0[0].field.as_str(), e.0[0].line),
        ("rounds[0].awaits.Thief", 10),
        "{e}"
    );
    let psi = r#"Scene(name: "p", setting: Indoors,
    combatants: [
        (name: "Illithid", side: "I", at: (40.0, 10.0), hp: 40, psionic: (attack: 30, defense: 240)),
        (name: "Apprentice", side: "W", at: (40.0, 40.0), hp: 9, psionic: (attack: 120, defense: 10)),
    ],
    rounds: [(
        psionics: {
            "Illithid": [(attack: "psionic blast", at: "Apprentice", defense: "mind blank")],
            "Apprentice": [(attack: "psionic blast", at: "Apprentice", defense: "mind blank")],
        },
    )],
)"#;
    let e = firststrike::scene::parse("p.ron", psi).unwrap_err();
    let mine =
        e.0.iter()
            .find(|p| p.field.starts_with("rounds[0].psionics.Apprentice"))
            .unwrap_or_else(|| panic!("{e}"));
    assert_eq!(mine.line, 9, "{e}");
}

/// Waiting on another's action (house "Delay Action") never places the waiter before the
/// action it waits on, however long the chain of waits: Thief waits on Archer, Archer on
/// Knight, Knight on Mage's magic missile; each strikes after the one it waits on (the
/// archer throws darts, speed factor 2: a bow's 8 would not fit the 4 segments left). A ring
/// of waits, in which no one would ever act, is refused where it is written.
#[test]
fn a_chain_of_waits_is_followed_and_a_ring_refused() {
    let scene = |awaits: &str| {
        format!(
            r#"Scene(name: "w", setting: Indoors, seed: 8,
    rules: (house: (await_enemy: true)),
    combatants: [
        (name: "Thief", side: "P", at: (0.0, 0.0), weapon: "dagger", hp: 30),
        (name: "Archer", side: "P", at: (10.0, 0.0), weapon: "dart", hp: 30),
        (name: "Knight", side: "P", at: (20.0, 0.0), weapon: "long sword", hp: 30),
        (name: "Mage", side: "P", at: (30.0, 0.0), hp: 20),
        (name: "Post", side: "M", at: (10.0, 5.0), hp: 900, ac: 10),
    ],
    rounds: [(
        declare: {{ "Thief": Melee(targets: ["Post"]), "Archer": Missile(targets: ["Post"]),
                   "Knight": Melee(targets: ["Post"]), "Mage": Cast(spell: "magic missile", target: "Post"),
                   "Post": Hold }},
        initiative: {{ "P": 2, "M": 5 }},
        awaits: {{ {awaits} }},
    )],
)"#
        )
    };
    let src = scene(r#""Thief": "Archer", "Archer": "Knight", "Knight": "Mage""#);
    let events = common::play(&src);
    let first = |who: &str| {
        events
            .iter()
            .filter(|e| e.actor.as_str() == who)
            .find(|e| matches!(e.kind, K::Hit | K::Miss | K::SpellComplete))
            .map(|e| e.segment)
            .unwrap_or_else(|| panic!("{who} never acts"))
    };
    let (mage, knight, archer, thief) = (
        first("Mage"),
        first("Knight"),
        first("Archer"),
        first("Thief"),
    );
    assert!(mage < knight, "Knight {knight} before the Mage {mage}");
    assert!(
        knight < archer,
        "Archer {archer} before the Knight {knight}"
    );
    assert!(archer < thief, "Thief {thief} before the Archer {archer}");
    for ring in [
        r#""Thief": "Archer", "Archer": "Thief""#,
        r#""Thief": "Archer", "Archer": "Knight", "Knight": "Thief""#,
    ] {
        let e = parse("w.ron", &scene(ring)).unwrap_err();
        assert!(
            e.0.iter().any(|p| p.message.contains("a ring of waits")),
            "{ring}: {e}"
        );
    }
}

/// A fumble (house "Critical Misses") throws or breaks a weapon only: a claw, a bite or a
/// fist is a plain miss, and the creature keeps fighting. A figure that loses its main
/// weapon still strikes with the one in its other hand, in that routine and after.
#[test]
fn a_fumble_takes_a_weapon_never_a_claw_nor_the_other_hand() {
    let src = r#"Scene(name: "f", setting: Indoors, seed: 2,
    rules: (house: (fumbles: true)),
    combatants: [
        (name: "Bear", side: "B", at: (0.0, 0.0), monster: "brown bear", hp: 900),
        (name: "Dual", side: "B", at: (20.0, 0.0), weapon: "long sword", off_hand: "dagger", hp: 900, thac0: 2),
        (name: "T1", side: "T", at: (0.0, 5.0), hp: 900, ac: 10),
        (name: "T2", side: "T", at: (20.0, 5.0), hp: 900, ac: 10),
    ],
    rounds: [
        (declare: { "Bear": Melee(targets: ["T1"]), "Dual": Melee(targets: ["T2"]), "T1": Hold, "T2": Hold }),
        (declare: { "Bear": Melee(targets: ["T1"]), "Dual": Melee(targets: ["T2"]), "T1": Hold, "T2": Hold }),
    ],
    dice: { ToHit: { "Bear": [1, 2], "Dual": [1, 2] } },
)"#;
    let events = common::play(src);
    let rolls = |who: &str, round: u32, weapon: &str| {
        common::blows(&events)
            .filter(|e| e.actor.as_str() == who && e.round == round)
            .filter(
                |e| matches!(&e.payload, Payload::Attack { weapon: w, .. } if w.contains(weapon)),
            )
            .count()
    };
    let words: Vec<&str> = events
        .iter()
        .filter(|e| e.actor.as_str() == "Bear")
        .map(|e| e.detail.as_str())
        .collect();
    assert!(
        words
            .iter()
            .any(|w| w.contains("nothing to throw or break (no second roll)")),
        "{words:#?}"
    );
    // No second d20 for a claw: the die the scene fixed next goes to the next attack.
    let second = common::blows(&events)
        .filter(|e| e.actor.as_str() == "Bear" && e.round == 1)
        .nth(1)
        .expect("the second claw");
    assert!(
        matches!(second.payload, Payload::Attack { roll: 2, .. }),
        "{}",
        second.detail
    );
    assert!(!words.iter().any(|w| w.contains("disarmed")), "{words:#?}");
    assert_eq!(
        rolls("Bear", 1, "attack"),
        3,
        "claw, claw, bite: each rolled"
    );
    assert_eq!(rolls("Bear", 2, "attack"), 3, "the bear fights on");
    // Dual's sword is broken (second d20 2), its dagger strikes on.
    assert_eq!(rolls("Dual", 1, "long sword"), 1);
    assert_eq!(
        rolls("Dual", 1, "dagger"),
        1,
        "the other hand strikes in the same routine"
    );
    assert_eq!(rolls("Dual", 2, "long sword"), 0, "the sword is lost");
    assert_eq!(rolls("Dual", 2, "dagger"), 1, "the dagger strikes on");
}

/// Move or strike (house "Combat Actions"): several attacks only from the second round
/// standing still, whatever the step was (a plain move as much as a close or a charge) and
/// whatever the attack (arrows as much as blows).
#[test]
fn several_attacks_only_after_a_round_standing_still_for_arrows_too() {
    let src = r#"Scene(name: "m", setting: Indoors, seed: 4,
    rules: (house: (move_or_strike: true)),
    combatants: [
        (name: "Archer", side: "P", at: (0.0, 0.0), weapon: "long bow", movement: 12, hp: 40),
        (name: "Dummy", side: "M", at: (0.0, 60.0), weapon: "long sword", hp: 900, ac: 10),
    ],
    rounds: [
        (declare: { "Archer": Move(to: (0.0, 20.0)), "Dummy": Hold }, initiative: { "P": 5, "M": 2 }),
        (declare: { "Archer": Missile(targets: ["Dummy"]), "Dummy": Hold }, initiative: { "P": 5, "M": 2 }),
        (declare: { "Archer": Missile(targets: ["Dummy"]), "Dummy": Hold }, initiative: { "P": 5, "M": 2 }),
    ],
)"#;
    let events = common::play(src);
    let arrows = |round: u32| {
        common::blows(&events)
            .filter(|e| e.actor.as_str() == "Archer" && e.round == round)
            .count()
    };
    assert_eq!(arrows(2), 1, "moved last round: one arrow, not two");
    assert!(
        events.iter().any(|e| e.round == 2
            && e.actor.as_str() == "Archer"
            && e.detail.contains("moved last round")),
        "the cut is said"
    );
    assert_eq!(arrows(3), 2, "a round standing still: both arrows");
}

/// The encounter distance rolled (the book's d6+4", or the house's d6+4 squares) is how far
/// apart the parties met; the figures stand where the scene put them, and where the two
/// differ the log says so instead of claiming a distance the play contradicts.
#[test]
fn a_rolled_distance_that_differs_from_the_places_is_said() {
    for (house, roll, differs) in [
        ("(encounter_distance: true)", 3, true),
        ("(encounter_distance: true)", 2, false),
        ("()", 3, true),
    ] {
        let src = format!(
            r#"Scene(name: "d", setting: Indoors, rules: (house: {house}),
    combatants: [
        (name: "A", side: "A", at: (0.0, 0.0), weapon: "long sword", hp: 9),
        (name: "B", side: "B", at: (0.0, 30.0), weapon: "long sword", hp: 9),
    ],
    encounter: [Indoors(note: "x")],
    rounds: [(declare: {{ "A": Melee(targets: ["B"]), "B": Melee(targets: ["A"]) }})],
    dice: {{ Distance: {{ "any": [{roll}] }} }},
)"#
        );
        let events = common::play(&src);
        let d = events
            .iter()
            .find(|e| e.kind == K::Distance)
            .expect("the distance is logged");
        assert_eq!(
            d.detail.contains("the nearest foes 30 ft apart"),
            differs,
            "{house} d6 {roll}: {}",
            d.detail
        );
    }
}

/// Parting shots (house rules): a foe may always negate a fighting withdrawal by moving
/// with the figure, continuing the melee: declaring a close or a charge on it, it keeps
/// its place beside it and strikes; standing (melee) it gets nothing. A parting shot is a
/// single attack: one claw of a bear's claw/claw/bite.
#[test]
fn a_foe_moving_with_a_withdrawal_negates_it_and_a_parting_shot_is_one_attack() {
    let text = std::fs::read_to_string("scenes/house/parting_shot.ron").unwrap();
    for (declared, follows) in [("Close", true), ("Charge", true), ("Melee", false)] {
        let src = text.replace(
            r#""Orc 2": Melee(targets: ["Fighter"])"#,
            &format!(r#""Orc 2": {declared}(targets: ["Fighter"])"#),
        );
        let events = common::play(&src);
        let struck = common::blows(&events)
            .filter(|e| e.actor.as_str() == "Orc 2" && e.target.as_deref() == Some("Fighter"))
            .count();
        let moved = events
            .iter()
            .any(|e| e.actor.as_str() == "Orc 2" && e.kind == K::Move);
        assert_eq!((struck > 0, moved), (follows, follows), "{declared}");
    }
    let bear = text.replace(
        r#"(name: "Orc 1", side: "Orcs", at: (10.0, 15.0), monster: "orc"),"#,
        r#"(name: "Orc 1", side: "Orcs", at: (10.0, 15.0), monster: "brown bear"),"#,
    );
    let events = common::play(&bear);
    let shots = common::blows(&events)
        .filter(|e| e.actor.as_str() == "Orc 1" && e.round == 1 && e.segment == 1)
        .filter(|e| e.detail.contains("parting shot"))
        .count();
    assert_eq!(shots, 1, "one attack, not the whole routine");
}

/// Move or strike, two foes moving up to each other: each covers only its share of the gap,
/// so each strikes when the gap is within half their two moves together (12" each, 100 ft
/// apart: 47.5 ft each, under the 60 ft of half a move), and neither past it.
#[test]
fn two_foes_moving_up_to_each_other_each_cover_their_share() {
    let scene = |apart: f64| {
        format!(
            r#"Scene(name: "m", setting: Indoors, seed: 3, rules: (house: (move_or_strike: true)),
    combatants: [
        (name: "D", side: "P", at: (0.0, 0.0), weapon: "long sword", movement: 12, hp: 900, ac: 10),
        (name: "TD", side: "M", at: (0.0, {apart}), weapon: "long sword", movement: 12, hp: 900, ac: 10),
    ],
    rounds: [(declare: {{ "D": Melee(targets: ["TD"]), "TD": Melee(targets: ["D"]) }},
              initiative: {{ "P": 5, "M": 2 }})],
)"#
        )
    };
    let swings = |apart: f64| common::blows(&common::play(&scene(apart))).count();
    assert_eq!(swings(100.0), 2, "each within half its move once both move");
    assert_eq!(
        swings(140.0),
        0,
        "135 ft: more than the 120 ft of two half moves"
    );
}

/// Weaponless combat's fields where they do nothing are warned of, located on the figure:
/// `subdual` on a figure that is no monk, and `monk` or `subdual` with the house rule off.
#[test]
fn weaponless_fields_that_do_nothing_are_warned_of() {
    let scene = |house: &str, fields: &str| {
        format!(
            r#"Scene(name: "b", setting: Indoors, seed: 1, rules: (house: ({house})),
    combatants: [
        (name: "Sailor", side: "A", at: (0.0, 0.0), hp: 10, ac: 9{fields}),
        (name: "Dock hand", side: "B", at: (0.0, 5.0), hp: 10, ac: 9),
    ])"#
        )
    };
    let warned = |src: &str| -> Vec<String> {
        let s = parse("b.ron", src).unwrap_or_else(|e| panic!("{e}"));
        firststrike::scene::warnings("b.ron", src, &s)
            .iter()
            .map(|w| w.field.clone())
            .collect()
    };
    let on = "weaponless_combat: true";
    assert_eq!(
        warned(&scene(on, ", subdual: true")),
        vec!["combatants[0].subdual"]
    );
    assert!(warned(&scene(on, ", monk: true, subdual: true")).is_empty());
    assert_eq!(
        warned(&scene("", ", monk: true")),
        vec!["combatants[0].monk"]
    );
    assert_eq!(
        warned(&scene("", ", subdual: true")),
        vec!["combatants[0].subdual"]
    );
    assert!(warned(&scene(on, "")).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Move or strike (house rules): a monster whose one routine is several attacks (the
    /// brown bear's claw/claw/bite) makes one attack in a round it moved up and in the next,
    /// and all of them from its second round of standing still — as the log says ("one
    /// attack, not 3"); without the house rule, all of them every round.
    #[test]
    fn a_bear_that_moved_makes_one_attack(gap in 12.0f64..30.0, house in any::<bool>()) {
        let rules = if house { "rules: (house: (move_or_strike: true))," } else { "" };
        let src = format!(
            r#"Scene(name: "bear", setting: Indoors, seed: 9, {rules}
                combatants: [
                    (name: "Bear", side: "O", at: (60.0, 10.0), monster: "brown bear", hp: 500),
                    (name: "Ranger", side: "P", at: (60.0, {y}), weapon: "long sword", thac0: 10, ac: 3, hp: 500),
                ],
                rounds: [
                    (declare: {{ "Bear": Melee(targets: ["Ranger"]), "Ranger": Other("waits") }}, initiative: {{ "P": 5, "O": 2 }}),
                    (initiative: {{ "P": 5, "O": 2 }}),
                    (initiative: {{ "P": 5, "O": 2 }}),
                ],
            )"#,
            y = 10.0 + gap
        );
        let mut r = SceneRun::new(parse("bear.ron", &src).unwrap(), None, None);
        r.run_to_end();
        let per_round = |round: u32| {
            r.log()
                .events
                .iter()
                .filter(|e| e.round == round && e.actor == "Bear" && matches!(e.kind, K::Hit | K::Miss))
                .count()
        };
        let (one, two, three) = (per_round(1), per_round(2), per_round(3));
        if house {
            // Moving up (within half its move, it strikes; farther, it only moves).
            prop_assert!(one <= 1, "round 1: {}", one);
            prop_assert!(two <= 1, "round 2, moved last round: {}", two);
            prop_assert_eq!(three, 3, "round 3, standing still");
        } else {
            prop_assert_eq!(three, 3);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Surprise carried over (house rules): a charger whose weapon is ruled out for the
    /// segments left still runs at the charge rate from when its side may act, beside one
    /// whose weapon fits — both reach their foes in the same segment — and strikes no blow.
    #[test]
    fn a_charger_whose_weapon_is_ruled_out_still_charges_in_step(lost in 1u32..=3, far in 60.0f64..110.0) {
        let src = format!(
            r#"Scene(name: "cut short", setting: Indoors, seed: 5,
                rules: (house: (surprise_carries_over: true)),
                combatants: [
                    (name: "Charger", side: "Party", at: (20.0, 20.0), weapon: "two-handed sword", thac0: 16, ac: 3, hp: 40),
                    (name: "Sword", side: "Party", at: (60.0, 20.0), weapon: "long sword", thac0: 16, ac: 3, hp: 40),
                    (name: "Orc B", side: "Orcs", at: (20.0, {y}), monster: "orc", hp: 300),
                    (name: "Orc C", side: "Orcs", at: (60.0, {y}), monster: "orc", hp: 300),
                ],
                surprise: {{ "Party": D6({lost}), "Orcs": None }},
                surprise_segments: [{surprise}],
                rounds: [(declare: {{
                    "Charger": Charge(targets: ["Orc B"]), "Sword": Charge(targets: ["Orc C"]),
                    "Orc B": Other("waits"), "Orc C": Other("waits"),
                }}, initiative: {{ "Party": 6, "Orcs": 2 }})],
            )"#,
            y = 20.0 + far,
            surprise = vec!["{}"; lost as usize].join(", ")
        );
        let mut r = SceneRun::new(parse("cut.ron", &src).unwrap(), None, None);
        r.run_to_end();
        let log = &r.log().events;
        let reaches = |who: &str| {
            log.iter()
                .find(|e| e.round == 1 && e.actor == who && e.detail.contains("reaches striking distance"))
                .map(|e| e.segment)
        };
        let first_move = |who: &str| {
            log.iter()
                .find(|e| e.round == 1 && e.actor == who && e.kind == K::Move)
                .map(|e| e.segment)
        };
        prop_assert_eq!(reaches("Charger"), reaches("Sword"), "{:#?}", log);
        prop_assert_eq!(first_move("Charger"), first_move("Sword"));
        prop_assert!(!log.iter().any(|e| e.round == 1 && e.actor == "Charger" && matches!(e.kind, K::Hit | K::Miss)));
        prop_assert!(!log.iter().any(|e| e.actor == "Charger" && e.rule.id == "charge.no_melee"));
    }
}
