//! Magical devices under the book's rules. A device with an activation time (a wand of
//! frost's 2 segments) is timed as a spell but is not ruined by a hit (DMG p.65). One with
//! no activation time (a ring, a word of command) is not timed as a spell at all: it is used
//! when its side's initiative comes, as any act (reading `device.instant`), and it may be
//! used in the round of a melee blow (reading `declare.melee_then_device`). Property tests
//! over every opposing action and every pair of dice, in `first` and in played scenes.

use firststrike::calc::{self, Defaults};
use firststrike::rules::sequence::{EventKind as SeqKind, Sequence};
use firststrike::scene::{Scene, parse};
use firststrike::sim::{EventKind as K, Runner};
use proptest::prelude::*;

/// An opposing action for figure B in `first`'s syntax.
fn foe() -> impl Strategy<Value = String> {
    (0u8..6, 1u32..=6, 1u32..=14, 1u32..=3, 1u32..=10, 0u32..=12).prop_map(
        |(kind, die, sf, attacks, time, reach)| {
            let body = match kind {
                0 => format!("melee sf={sf} attacks={attacks} reach={reach}"),
                1 => format!("natural attacks={attacks}"),
                2 => format!("missile attacks={attacks}"),
                3 => format!("charge arrive={time} reach={reach}"),
                4 => format!("cast time={time}"),
                _ => "turn".to_string(),
            };
            format!("B: {body} d6={die} side=b")
        },
    )
}

fn plan(actions: &[String]) -> Sequence {
    let d = Defaults::default();
    let figs: Vec<_> = actions
        .iter()
        .map(|s| calc::parse_action(s, &d).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect();
    calc::calculate(&figs, &d)
        .unwrap_or_else(|e| panic!("{actions:?}: {e}"))
        .1
}

/// Each beat's events as (name, fixed segment), sorted (a beat is simultaneous), leaving
/// out those of actor `skip`; empty beats dropped.
fn beats_without(seq: &Sequence, skip: Option<usize>) -> Vec<Vec<(String, Option<u32>)>> {
    seq.beats
        .iter()
        .map(|b| {
            b.events
                .iter()
                .filter(|e| Some(e.actor) != skip && e.kind != SeqKind::Arrive)
                .map(|e| (e.name.clone(), e.segment))
                .collect::<Vec<_>>()
        })
        .map(|mut v| {
            v.sort();
            v
        })
        .filter(|v| !v.is_empty())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    /// A device with no activation time takes the place any act of its side takes: against
    /// every opposing action and every pair of dice it is ordered as a single blow of its
    /// side's die would be, and against several routines as any act (by the die), at the
    /// same segments.
    #[test]
    fn a_device_without_activation_time_is_placed_by_its_sides_initiative(
        die in 1u32..=6, b in foe()
    ) {
        let device = plan(&[format!("A: device d6={die}"), b.clone()]);
        // Against one routine or a casting it is timed as a blow of its side's die;
        // against several routines, as any act: by the die, not first and last.
        let several = b.contains("attacks=2") || b.contains("attacks=3");
        let like = if several { "other" } else { "natural" };
        let other = plan(&[format!("A: {like} d6={die}"), b.clone()]);
        prop_assert_eq!(beats_without(&device, None), beats_without(&other, None), "{}", b);
        prop_assert!(
            device.beats.iter().flat_map(|x| &x.events).all(|e| e.kind != SeqKind::Complete
                || e.name != "A"),
            "no completion for A: nothing is cast ({})", b
        );
    }

    /// A melee blow, then a device: every blow keeps the place it has without the device,
    /// and the device is used no earlier than the blow.
    #[test]
    fn a_device_after_a_blow_leaves_every_blow_in_its_place(
        die in 1u32..=6, sf in 1u32..=10, b in foe()
    ) {
        let alone = plan(&[format!("A: melee sf={sf} d6={die}"), b.clone()]);
        let both = plan(&[format!("A: melee sf={sf} d6={die} then=device"), b.clone()]);
        // The device is the third action (index 2): the two figures' first.
        prop_assert_eq!(beats_without(&both, Some(2)), beats_without(&alone, None), "{}", b);
        let beat_of = |actor: usize| {
            both.beats.iter().position(|x| x.events.iter().any(|e| e.actor == actor))
        };
        let (blow, device) = (beat_of(0), beat_of(2));
        prop_assert!(device.is_some(), "the device is used ({})", b);
        if blow.is_some() {
            prop_assert!(device >= blow, "device {:?} before blow {:?} ({})", device, blow, b);
        }
    }
}

fn scene(declare: &str, then: &str, dice: &str) -> Result<Scene, String> {
    let src = format!(
        r#"Scene(name: "devices", setting: Indoors, seed: 3,
            combatants: [
                (name: "Fighter", side: "A", at: (0.0, 0.0), weapon: Some("long sword"), hp: Some(40)),
                (name: "Orc", side: "B", at: (5.0, 0.0), monster: Some("orc"), hp: Some(40)),
            ],
            rounds: [(declare: {{{declare}}}, then: {{{then}}}, initiative: {{ "A": 2, "B": 5 }})],
            dice: {{{dice}}})"#
    );
    parse("devices.ron", &src).map_err(|e| e.to_string())
}

const RING: &str = r#"Cast(spell: "ring of the ram", target: Some("Orc"), device: true)"#;

/// Struck before it is used, a device with no activation time still works: nothing was
/// under way to ruin (DMG p.65: only a casting is ruined by a hit).
#[test]
fn a_ring_works_although_its_wielder_was_struck_first() {
    let s = scene(
        &format!(r#""Fighter": {RING}, "Orc": Melee(targets: ["Fighter"])"#),
        "",
        r#"ToHit: { "Orc": [20] }"#,
    )
    .unwrap();
    let mut r = Runner::new(s, None, Some(1));
    r.run_to_end();
    let hit = r.when(K::Hit, "Orc");
    assert_eq!(hit.len(), 1, "the orc's blow lands: {:?}", r.log().events);
    let used: Vec<_> = r
        .events(K::Act, Some("Fighter"))
        .into_iter()
        .filter(|e| e.detail.starts_with("uses ring of the ram"))
        .collect();
    assert_eq!(used.len(), 1, "the ring is used once");
    assert!(
        used[0].segment >= hit[0].1,
        "the orcs won 5-2: the blow comes first"
    );
    assert!(r.events(K::SpellDisrupted, Some("Fighter")).is_empty());
    assert!(r.events(K::SpellStart, Some("Fighter")).is_empty());
    let planned = r.events(K::Act, Some("Fighter"));
    assert!(planned.iter().any(|e| e.rule.id == "device.instant"));
}

/// A blow and a ring in one round: both happen, the ring by the reading that allows it.
#[test]
fn a_blow_and_a_ring_in_one_round() {
    let s = scene(
        r#""Fighter": Melee(targets: ["Orc"]), "Orc": Hold"#,
        &format!(r#""Fighter": {RING}"#),
        r#"ToHit: { "Fighter": [20] }"#,
    )
    .unwrap();
    let mut r = Runner::new(s, None, Some(1));
    r.run_to_end();
    assert_eq!(r.when(K::Hit, "Fighter").len(), 1);
    let acts = r.events(K::Act, Some("Fighter"));
    assert!(
        acts.iter()
            .any(|e| e.rule.id == "declare.melee_then_device")
    );
    assert!(
        acts.iter()
            .any(|e| e.detail.starts_with("uses ring of the ram on Orc"))
    );
}

/// A device named almost as the table names one is a mistyped name, not a device with no
/// activation time: refused with the table's name as help. A ring besides a blow that
/// cannot land this round (its foe out of reach: the fighter closes) is an act of its own.
#[test]
fn a_mistyped_device_is_refused_and_a_ring_without_a_blow_is_its_own_act() {
    let wand = r#"Cast(spell: "wand of frost", target: Some("Orc"), device: true)"#;
    let e = scene(&format!(r#""Fighter": {wand}, "Orc": Hold"#), "", "").unwrap_err();
    assert!(e.contains("wand of frost (cone of cold)"), "{e}");
    let mut far = scene(
        r#""Fighter": Melee(targets: ["Orc"]), "Orc": Hold"#,
        &format!(r#""Fighter": {RING}"#),
        "",
    )
    .unwrap();
    far.combatants[1].at = (60.0, 0.0);
    let mut r = Runner::new(far, None, Some(1));
    r.run_to_end();
    let acts = r.events(K::Act, Some("Fighter"));
    assert!(
        acts.iter().any(|e| e.rule.id == "device.instant"),
        "{acts:?}"
    );
    assert!(
        !acts
            .iter()
            .any(|e| e.rule.id == "declare.melee_then_device")
    );
}

/// What the rules do not allow is refused at its place: a device with an activation time
/// after a blow (it is timed as a spell and takes the round), a device after missile fire,
/// and `then=device` after anything but melee in `first`.
#[test]
fn a_timed_device_or_a_device_after_anything_but_a_blow_is_refused() {
    let wand = r#"Cast(spell: "wand of frost (cone of cold)", target: Some("Orc"), device: true)"#;
    let e = scene(
        r#""Fighter": Melee(targets: ["Orc"]), "Orc": Hold"#,
        &format!(r#""Fighter": {wand}"#),
        "",
    )
    .unwrap_err();
    assert!(e.contains("devices.ron:"), "located: {e}");
    assert!(e.contains("activation time"), "{e}");
    let e = scene(
        r#""Fighter": Missile(targets: ["Orc"]), "Orc": Hold"#,
        &format!(r#""Fighter": {RING}"#),
        "",
    )
    .unwrap_err();
    assert!(e.contains("second action"), "{e}");
    let d = Defaults::default();
    for bad in [
        "A: missile d6=3 then=device",
        "A: cast time=3 d6=3 then=device",
        "A: charge arrive=5 then=device",
        "A: device d6=3 then=device",
    ] {
        let e = calc::parse_action(bad, &d).unwrap_err();
        assert!(e.contains("then=device"), "{bad}: {e}");
    }
    // A device the table times is timed as a spell, not placed by initiative.
    let seq = plan(&[
        "A: device time=2 d6=1".to_string(),
        "B: melee sf=4 d6=1 side=b".to_string(),
    ]);
    let done = seq
        .beats
        .iter()
        .find(|b| b.events.iter().any(|e| e.name == "A"))
        .unwrap();
    assert_eq!(done.segment, Some(2));
}

/// A timed device whose wielder falls to a blow before it goes off is lost, and the log
/// names that exception (the wielder fell), not the rule that a hit spares a device; a
/// wielder who stands keeps it under `device.not_disrupted` (DMG p.65).
#[test]
fn a_device_is_lost_only_when_its_wielder_falls() {
    let wand = |hp: u32| {
        let src = format!(
            r#"Scene(name: "wand", setting: Indoors, seed: 5,
                combatants: [
                    (name: "Bigby", side: "Bigby", at: (10.0, 10.0), ac: 4, hp: {hp}),
                    (name: "Riggby", side: "Riggby", at: (10.0, 15.0), weapon: "hammer", thac0: 10, ac: 4, hp: 40),
                ],
                rounds: [(
                    declare: {{
                        "Bigby": Cast(spell: "wand of frost (cone of cold)", target: "Riggby"),
                        "Riggby": Melee(targets: ["Bigby"]),
                    }},
                    initiative: {{ "Bigby": 2, "Riggby": 5 }},
                )],
                dice: {{ ToHit: {{ "Riggby": [19] }}, Damage: {{ "Riggby": [4] }} }})"#
        );
        let mut r = Runner::new(parse("wand.ron", &src).unwrap(), None, Some(1));
        r.run_to_end();
        r
    };
    let felled = wand(2);
    let ruined = felled.events(K::SpellDisrupted, Some("Bigby"));
    assert_eq!(ruined.len(), 1, "{:?}", felled.log().events);
    assert_eq!(ruined[0].rule.id, "device.wielder_fell");
    let standing = wand(40);
    assert!(standing.events(K::SpellDisrupted, Some("Bigby")).is_empty());
    assert!(
        standing
            .log()
            .events
            .iter()
            .any(|e| e.rule.id == "device.not_disrupted"),
        "{:?}",
        standing.log().events
    );
}
