//! Cases written from the rule texts by testers outside the code, that the engine once got
//! wrong; each checked for every figure and combination it must hold for, not only the
//! case that found it.

mod common;

use common::firststrike;
use common::{blows, play};
use firststrike::rules::action::Declared;
use firststrike::rules::first::{Context, First};
use firststrike::rules::sequence::round_sequence;
use firststrike::scene::parse;
use firststrike::sim::{EventKind as K, LogEvent, Payload};
use proptest::prelude::*;

/// The segments each goblin stays surprised, by the scene's die and its Dexterity (DMG
/// p.62: a reaction adjustment of -N or +N changes the side's segments by N, a penalty
/// always, a bonus only in light gear; never below 0).
fn own_segments(die: u32, dexterity: u32) -> u32 {
    let reaction = firststrike::rules::dexterity::reaction_adjustment(dexterity);
    (die as i32 - reaction).max(0) as u32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Free blows in a surprise segment land only on a figure still surprised (DMG p.61,
    /// p.71): one whose surprise is over is on guard while anyone of its side is still
    /// surprised, whoever keeps the surprise segments going.
    #[test]
    fn free_blows_only_on_the_still_surprised(
        die in 1u32..=3,
        dex in proptest::collection::vec(prop::sample::select(vec![3u32, 4, 5, 6, 10, 15, 16, 17, 18]), 3),
    ) {
        let gob = |k: usize, at: (f64, f64)| format!(
            "(name: \"Gob {k}\", side: \"Gobs\", at: ({:.1}, {:.1}), monster: \"goblin\", dexterity: {}, movement: 12, hp: 500)",
            at.0, at.1, dex[k]
        );
        let swings: Vec<String> = (0..6)
            .map(|s| format!("{{ \"Fighter\": Melee(targets: [\"Gob {}\"]) }}", s % 3))
            .collect();
        let src = format!(
            "Scene(name: \"s\", about: \"s\", setting: Indoors, seed: 4,
              combatants: [
                (name: \"Fighter\", side: \"Party\", at: (10.0, 25.0), weapon: \"mace\", thac0: 5, ac: 2, hp: 90),
                {}, {}, {},
              ],
              surprise: {{ \"Party\": None, \"Gobs\": D6({die}) }},
              surprise_segments: [{}],
              rounds: [(initiative: {{ \"Party\": 4, \"Gobs\": 2 }})],
            )",
            gob(0, (10.0, 30.0)), gob(1, (13.0, 29.0)), gob(2, (7.0, 29.0)), swings.join(", ")
        );
        let events = play(&src);
        for e in blows(&events).filter(|e| e.round == 0) {
            let k: usize = e.target.as_deref().unwrap()[4..].parse().unwrap();
            prop_assert!(
                e.segment <= own_segments(die, dex[k]),
                "{} struck in surprise segment {} though its surprise ({}) was over: {}",
                e.target.as_deref().unwrap(), e.segment, own_segments(die, dex[k]), e.detail
            );
        }
    }

    /// A caster in the middle of a spell has no Dexterity bonus to its armour class (DMG
    /// p.65), whatever its Dexterity; the same figure not casting keeps it.
    #[test]
    fn a_caster_is_struck_without_its_dexterity_bonus(dex in 3u32..=18, ac in 0i32..=7) {
        let bonus = (-firststrike::rules::dexterity::defensive_adjustment(dex)).max(0);
        let scene = |act: &str| format!(
            "Scene(name: \"c\", about: \"c\", setting: Indoors, seed: 2,
              combatants: [
                (name: \"Mage\", side: \"M\", at: (0.0, 0.0), dexterity: {dex}, movement: 12, thac0: 20, ac: {ac}, hp: 300),
                (name: \"Orc\", side: \"O\", at: (0.0, 5.0), weapon: \"mace\", thac0: 15, ac: 6, hp: 300),
              ],
              rounds: [(declare: {{ \"Mage\": {act}, \"Orc\": Melee(targets: [\"Mage\"]) }},
                        initiative: {{ \"M\": 2, \"O\": 5 }})],
            )"
        );
        let struck_at = |act: &str| -> i32 {
            let events = play(&scene(act));
            let b = blows(&events).find(|e| e.actor == "Orc").expect("the orc strikes");
            match b.payload { Payload::Attack { ac, .. } => ac, _ => unreachable!() }
        };
        // Never worse than AC 10 for the loss (AC 10 is the worst armour).
        prop_assert_eq!(struck_at("Cast(spell: \"hold person\", target: \"Orc\")"), (ac + bonus).min(10));
        prop_assert_eq!(struck_at("Melee(targets: [\"Orc\"])"), ac);
    }

    /// Hesitating in declaring holds back the one who hesitated, not its foe (DMG p.71):
    /// for any dice and weapons, when one of two melee figures hesitated longer, the other
    /// strikes first (or its blow falls no later), and the pair's decision says the same.
    #[test]
    fn hesitation_holds_back_only_the_hesitater(
        (da, db) in (1u32..=6, 1u32..=6),
        (sa, sb) in (1u32..=10, 1u32..=10),
        late in 1u32..=8,
    ) {
        let mut a = Declared::melee("A", da).side("A").sf(sa);
        a.delay = late;
        let b = Declared::melee("B", db).side("B").sf(sb);
        let seq = round_sequence(&[a, b], &Context::default());
        let beat_of = |name: &str| seq.beats.iter().position(|bt| bt.names().contains(&name)).unwrap();
        prop_assert!(beat_of("B") < beat_of("A"), "B waits for A's hesitation: {:?}", seq.outline());
        prop_assert_eq!(seq.decisions[0].decision.first, First::B);
    }
}

/// `first` names a completion or a blow past the round's tenth segment for what it is.
#[test]
fn first_never_puts_a_segment_past_the_round_in_it() {
    let (code, out, _) = firststrike(&[
        "first",
        "O: cast time=9 hesitate=12s d6=4",
        "C: natural d6=3",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("segment 1 of the next round"), "{out}");
    assert!(!out.contains("segment 11"), "{out}");
    assert!(
        !out.contains("begun before the round"),
        "a late start is not an early one: {out}"
    );
    let (_, out, _) = firststrike(&[
        "first",
        "A: melee sf=5 d6=3 hesitate=60s",
        "B: melee sf=5 d6=3",
    ]);
    assert!(out.contains("no blow this round"), "{out}");
}

/// The input slips an outside tester made are refused with exit 2 and a located message.
#[test]
fn slips_in_the_input_are_refused() {
    // A key given twice, a round of attacking before the first, a row counted twice, and
    // several targets for what is not melee.
    for args in [
        vec!["first", "B: melee sf=5 d6=3 sf=6", "C: melee d6=2"],
        vec![
            "first",
            "--round",
            "0",
            "A: melee rate=3/2 d6=3",
            "B: melee d6=2",
        ],
        vec![
            "first",
            "--system",
            "take-initiative",
            "A: melee sf=5 mod=higher_ground mod=higher_ground d10=3",
            "B: wait d10=1",
        ],
        vec![
            "first",
            "--system",
            "take-initiative",
            "A: expect mod=expect d10=3",
            "B: wait d10=1",
        ],
        vec![
            "first",
            "--system",
            "take-initiative",
            "A: parry targets=3 d10=3",
            "B: wait d10=1",
        ],
    ] {
        let (code, _, err) = firststrike(&args);
        assert_eq!(code, 2, "{args:?} was accepted");
        assert!(!err.is_empty(), "{args:?}: no message");
    }
    let dir = std::env::temp_dir().join(format!("fs-outside-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, src: &str| {
        let p = dir.join(name);
        std::fs::write(&p, src).unwrap();
        p.display().to_string()
    };
    // A negative count: the message gives the field's allowed range.
    let neg = write(
        "neg.ron",
        "Scene(name: \"n\", about: \"n\", setting: Indoors, seed: 1,\n    combatants: [\n        (name: \"A\", side: \"A\", at: (0.0, 0.0), dexterity: -4, thac0: 10, ac: 3, hp: 60),\n        (name: \"B\", side: \"B\", at: (0.0, 5.0), thac0: 10, ac: 3, hp: 60),\n    ],\n)\n",
    );
    let (code, _, err) = firststrike(&["check", &neg]);
    assert_eq!(code, 2);
    assert!(err.contains("allowed: 3 to 25"), "{err}");
    // Two figures of one name: the second is pointed at, on its own line.
    let twice = write(
        "twice.ron",
        "Scene(name: \"t\", about: \"t\", setting: Indoors, seed: 1,\n    combatants: [\n        (name: \"A\", side: \"A\", at: (0.0, 0.0), thac0: 10, ac: 3, hp: 60),\n        (name: \"A\", side: \"B\", at: (0.0, 5.0), thac0: 10, ac: 3, hp: 60),\n    ],\n)\n",
    );
    let (code, _, err) = firststrike(&["check", &twice]);
    assert_eq!(code, 2);
    assert!(err.contains("twice.ron:4:"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A "Take Initiative!" scene of two figures 100 ft apart, with these declarations.
fn ti(declare: &str, rounds: &str) -> String {
    format!(
        "Scene(name: \"t\", about: \"t\", setting: Indoors, seed: 3, rules: (system: TakeInitiative),
          combatants: [
            (name: \"Blue\", side: \"Blue\", at: (0.0, 0.0), weapon: \"long sword\", movement: 12, thac0: 10, ac: 5, hp: 60),
            (name: \"Red\", side: \"Red\", at: (100.0, 0.0), weapon: \"long sword\", movement: 12, thac0: 15, ac: 5, hp: 60),
          ],
          rounds: [(declare: {{ {declare} }}, initiative: {{ \"Blue\": 4, \"Red\": 3 }}){rounds}],
        )"
    )
}

fn total_of(events: &[LogEvent], who: &str, round: u32) -> i64 {
    events
        .iter()
        .find_map(|e| match e.payload {
            Payload::TakeInitiative { total, .. } if e.actor == who && e.round == round => {
                Some(total)
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no total for {who}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// App. B costs only movement over 10 ft: a move of 10 ft or less adds nothing, over
    /// 10 ft up to half the move +4, more +8 (indoors 12" is 120 ft a round).
    #[test]
    fn a_move_costs_by_its_length(feet in 1u32..=100) {
        let events = play(&ti(&format!("\"Blue\": Move(to: ({feet}.0, 0.0)), \"Red\": Hold"), ""));
        let want = 4 + match feet {
            0..=10 => 0,
            11..=60 => 4,
            _ => 8,
        };
        prop_assert_eq!(total_of(&events, "Blue", 1), want);
    }

    /// A melee attack steps in at most 10 ft: at a foe farther off (and not coming at it)
    /// the figure strikes no blow, and says why (App. B: movement prevents normal melee).
    #[test]
    fn melee_does_not_walk_to_a_distant_foe(gap in 11u32..=90) {
        let src = ti("\"Blue\": Melee(targets: [\"Red\"]), \"Red\": Hold", "")
            .replace("at: (100.0, 0.0)", &format!("at: ({}.0, 0.0)", gap + 5));
        let events = play(&src);
        prop_assert!(blows(&events).all(|e| e.actor != "Blue"));
        prop_assert!(events.iter().any(|e| e.actor == "Blue" && e.kind == K::Idle && e.rule.id == "ti.move_prevents"));
    }
}

/// A spell over a round keeps its own time (App. B): a 20-segment spell begun in round 1
/// goes off at the end of round 2, whatever the d10; in round 2 its caster cannot start
/// anything else (§Basics).
#[test]
fn a_long_spell_takes_its_time_and_its_caster_with_it() {
    let src = ti(
        "\"Blue\": Cast(spell: \"ritual\", segments: Some(20)), \"Red\": Hold",
        ", (declare: { \"Blue\": Melee(targets: [\"Red\"]) }, initiative: { \"Red\": 3 })",
    );
    let events = play(&src);
    let done = events
        .iter()
        .find(|e| e.kind == K::SpellComplete && e.actor == "Blue")
        .expect("the spell goes off");
    assert_eq!((done.round, done.segment), (2, 20));
    assert!(events.iter().any(|e| e.round == 2
        && e.actor == "Blue"
        && e.kind == K::Idle
        && e.rule.id == "ti.change_precluded"));
}

/// A charge once a turn (§9): a figure that charged in round 1 cannot charge in round 2,
/// though it is free to (its first foe fell, the next stands far off).
#[test]
fn one_charge_a_turn() {
    let src = "Scene(name: \"c\", about: \"c\", setting: Indoors, seed: 3, rules: (system: TakeInitiative),
      combatants: [
        (name: \"Blue\", side: \"Blue\", at: (0.0, 0.0), weapon: \"long sword\", movement: 12, thac0: 1, ac: 5, hp: 90),
        (name: \"Red\", side: \"Red\", at: (60.0, 0.0), weapon: \"long sword\", movement: 12, thac0: 15, ac: 5, hp: 1),
        (name: \"Green\", side: \"Red\", at: (0.0, 150.0), weapon: \"long sword\", movement: 12, thac0: 15, ac: 5, hp: 60),
      ],
      rounds: [
        (declare: { \"Blue\": Charge(targets: [\"Red\"]), \"Red\": Hold, \"Green\": Hold }, initiative: { \"Blue\": 2, \"Red\": 9, \"Green\": 9 }),
        (declare: { \"Blue\": Charge(targets: [\"Green\"]) }, initiative: { \"Blue\": 2, \"Green\": 9 }),
      ],
      dice: { ToHit: { \"Blue\": [20, 20] } },
    )";
    let events = play(src);
    assert!(
        events.iter().any(|e| e.round == 1 && e.kind == K::Down),
        "the first charge fells Red"
    );
    let refused = events
        .iter()
        .find(|e| e.round == 2 && e.actor == "Blue" && e.kind == K::Idle)
        .expect("the second charge is refused");
    assert_eq!(refused.rule.id, "ti.charge");
    assert!(refused.detail.contains("once a turn"), "{}", refused.detail);
}

/// Totals below 1 keep their order: the lower acts first (Glossary, "Win Initiative").
#[test]
fn a_total_below_one_still_beats_a_higher_one() {
    let src = "Scene(name: \"n\", about: \"n\", setting: Indoors, seed: 1, rules: (system: TakeInitiative),
      combatants: [
        (name: \"A\", side: \"A\", at: (0.0, 0.0), weapon: \"dart\", ready: true, dexterity: 18, thac0: 1, ac: 5, hp: 1),
        (name: \"B\", side: \"B\", at: (30.0, 0.0), weapon: \"dart\", ready: true, dexterity: 17, thac0: 1, ac: 5, hp: 1),
      ],
      rounds: [(declare: { \"A\": Missile(targets: [\"B\"]), \"B\": Missile(targets: [\"A\"]) }, initiative: { \"A\": 1, \"B\": 1 })],
      dice: { ToHit: { \"A\": [20, 20, 20], \"B\": [20, 20, 20] } },
    )";
    let events = play(src);
    assert!(total_of(&events, "A", 1) < total_of(&events, "B", 1));
    assert!(total_of(&events, "B", 1) < 1);
    let first = blows(&events).next().expect("a dart flies");
    assert_eq!(first.actor, "A");
    assert!(
        blows(&events).all(|e| e.actor == "A"),
        "B fell before its turn"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Two spells that go off in the same beat both take effect (DMG p.63: simultaneous
    /// means both happen), whichever figure the scene lists first, under either system: a
    /// caster held or slain by the other's spell still gets its own off.
    #[test]
    fn simultaneous_spells_both_go_off(
        spell in prop::sample::select(vec!["hold person", "power word kill"]),
        swap in any::<bool>(),
        ti in any::<bool>(),
    ) {
        let red = "(name: \"Red\", side: \"A\", at: (0.0, 0.0), thac0: 19, ac: 9, hp: 30, hit_dice: 7)";
        let blue = "(name: \"Blue\", side: \"B\", at: (0.0, 30.0), thac0: 19, ac: 9, hp: 30, hit_dice: 7)";
        let (first, second) = if swap { (blue, red) } else { (red, blue) };
        let (rules, dice) = if ti {
            (", rules: (system: TakeInitiative)", "{ \"Red\": 3, \"Blue\": 3 }")
        } else {
            ("", "{ \"A\": 3, \"B\": 3 }")
        };
        let src = format!(
            "Scene(name: \"d\", about: \"d\", setting: Indoors, seed: 3{rules},
              combatants: [{first}, {second}],
              rounds: [(declare: {{ \"Red\": Cast(spell: \"{spell}\", target: \"Blue\"), \"Blue\": Cast(spell: \"{spell}\", target: \"Red\") }},
                        initiative: {dice})],
              dice: {{ Save: {{ \"Red\": [1], \"Blue\": [1] }} }},
            )"
        );
        let events = play(&src);
        for who in ["Red", "Blue"] {
            prop_assert!(
                events.iter().any(|e| e.kind == K::SpellComplete && e.actor == who),
                "{who}'s {spell} did not go off"
            );
            prop_assert!(!events.iter().any(|e| e.kind == K::SpellDisrupted && e.actor == who));
        }
    }
}

/// Missile fire needs a weapon that is shot or thrown: a long sword is refused in a scene
/// and in `first`; a dagger (thrown) is not.
#[test]
fn missile_fire_needs_a_missile_weapon() {
    let (code, _, err) = firststrike(&[
        "first",
        "A: missile weapon=long_sword d6=3",
        "B: melee d6=2",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("neither shot nor thrown"), "{err}");
    let (code, _, _) = firststrike(&["first", "A: missile weapon=dagger d6=3", "B: melee d6=2"]);
    assert_eq!(code, 0);
    let src = "Scene(name: \"m\", about: \"m\", setting: Indoors, seed: 1,
      combatants: [
        (name: \"A\", side: \"A\", at: (0.0, 0.0), weapon: \"long sword\", thac0: 10, ac: 3, hp: 60),
        (name: \"B\", side: \"B\", at: (0.0, 60.0), thac0: 10, ac: 3, hp: 60),
      ],
      rounds: [(declare: { \"A\": Missile(targets: [\"B\"]) })],
    )";
    let err = parse("m.ron", src).expect_err("a sword is not thrown");
    assert!(err.to_string().contains("neither shot nor thrown"), "{err}");
}

/// "Take Initiative!" §8: a shooter's Dexterity counts to hit as well as on initiative,
/// for any Dexterity: the shot's modifier is the adjustment (nothing else modifies it here).
#[test]
fn a_shooters_dexterity_counts_to_hit() {
    for dex in [3u32, 5, 9, 15, 16, 17, 18] {
        let src = format!(
            "Scene(name: \"d\", about: \"d\", setting: Indoors, seed: 1, rules: (system: TakeInitiative),
              combatants: [
                (name: \"Archer\", side: \"A\", at: (0.0, 0.0), weapon: \"light crossbow\", ready: true, dexterity: {dex}, movement: 12, thac0: 10, ac: 5, hp: 60),
                (name: \"Orc\", side: \"O\", at: (20.0, 0.0), thac0: 15, ac: 0, hp: 300),
              ],
              rounds: [(declare: {{ \"Archer\": Missile(targets: [\"Orc\"]), \"Orc\": Hold }}, initiative: {{ \"Archer\": 2, \"Orc\": 9 }})],
            )"
        );
        let events = play(&src);
        let shot = blows(&events).next().expect("the archer shoots");
        let want = firststrike::rules::dexterity::reaction_adjustment(dex);
        match shot.payload {
            Payload::Attack { modifier, .. } => assert_eq!(modifier, want, "Dexterity {dex}"),
            _ => unreachable!(),
        }
    }
}

/// "Take Initiative!" §3: a parry meets one attack; a single-classed fighter divides it
/// across every attack in time. Against two routines of a 2/1 attacker: a 6th-level
/// cleric's -3 on the first blow only, a 6th-level fighter's -4 as -2 and -2.
#[test]
fn a_parry_meets_attacks_not_attackers() {
    let src = |fighter: bool| {
        format!(
        "Scene(name: \"p\", about: \"p\", setting: Indoors, seed: 1, rules: (system: TakeInitiative),
          combatants: [
            (name: \"P\", side: \"A\", at: (0.0, 0.0), weapon: \"long sword\", thac0: 15, ac: 5, hp: 90, hit_dice: 6, fighter: {fighter}),
            (name: \"S\", side: \"B\", at: (0.0, 5.0), weapon: \"long sword\", attacks: \"2/1\", thac0: 15, ac: 5, hp: 90),
          ],
          rounds: [(declare: {{ \"P\": Parry(against: [\"S\"]), \"S\": Melee(targets: [\"P\"]) }}, initiative: {{ \"P\": 2, \"S\": 3 }})],
        )"
    )
    };
    let mods = |fighter: bool| -> Vec<i32> {
        blows(&play(&src(fighter)))
            .map(|e| match e.payload {
                Payload::Attack { modifier, .. } => modifier,
                _ => unreachable!(),
            })
            .collect()
    };
    assert_eq!(mods(false), vec![-3, 0]);
    assert_eq!(mods(true), vec![-2, -2]);
}
