//! The round as the rules order it, on situations no worked example scripts: several fights
//! at once, ruined spells, items of speed, full-round spells, a charge meeting a spell, two
//! charges meeting, and the end of the last round. Each test says the rule and its page.

use firststrike::rules::action::{ActionKind, Declared};
use firststrike::rules::first::Context;
use firststrike::rules::sequence::{EventKind as SeqKind, round_sequence};
use firststrike::scene::{Scene, parse};
use firststrike::sim::{EventKind as K, LogEvent};
use firststrike::testing::SceneRun;

/// A one-round indoor scene from its combatants, declarations, initiative and fixed dice.
fn scene(combatants: &str, declare: &str, initiative: &str, dice: &str) -> Scene {
    let src = format!(
        r#"Scene(name: "test", setting: Indoors, seed: 3,
            combatants: [{combatants}],
            rounds: [(declare: {{{declare}}}, initiative: {{{initiative}}})],
            dice: {{{dice}}})"#
    );
    parse("test.ron", &src).unwrap_or_else(|e| panic!("{e}"))
}

fn play(s: Scene) -> SceneRun {
    let mut r = SceneRun::new(s, None, None);
    r.run_to_end();
    r
}

fn blows(r: &SceneRun, actor: &str) -> Vec<LogEvent> {
    r.log()
        .events
        .iter()
        .filter(|e| e.actor == actor && matches!(e.kind, K::Hit | K::Miss))
        .cloned()
        .collect()
}

fn index_of(r: &SceneRun, f: impl Fn(&LogEvent) -> bool) -> usize {
    r.log().events.iter().position(f).expect("event in the log")
}

const MAGE_AND_ORC: &str = r#"
    (name: "Mage", side: "A", at: (0.0, 0.0), hp: Some(20)),
    (name: "Orc", side: "B", at: (5.0, 0.0), weapon: Some("long sword"), hp: Some(20), thac0: Some(20)),"#;
const FIGHTER_AND_GOBLIN: &str = r#"
    (name: "Fighter", side: "A", at: (100.0, 0.0), weapon: Some("long sword"), hp: Some(30)),
    (name: "Goblin", side: "B", at: (105.0, 0.0), weapon: Some("short sword"), hp: Some(30)),"#;

/// DMG p.61-67: the rules order the actions of opponents who engage each other. A caster's
/// segment in one fight must not drag an unrelated melee to that segment.
#[test]
fn an_unrelated_fight_keeps_its_own_timing() {
    let both = format!("{MAGE_AND_ORC}{FIGHTER_AND_GOBLIN}");
    let r = play(scene(
        &both,
        r#""Mage": Cast(spell: "flame strike"), "Orc": Melee(targets: ["Mage"]),
           "Fighter": Melee(targets: ["Goblin"]), "Goblin": Melee(targets: ["Fighter"])"#,
        r#""A": 5, "B": 2"#,
        r#"ToHit: { "Orc": [20] }, Damage: { "Orc": [1] }"#,
    ));
    // The orc lost 2-5: its long sword (speed factor 5) lands at |5 - 2| = 3 (DMG p.66-67).
    assert_eq!(
        (blows(&r, "Orc")[0].round, blows(&r, "Orc")[0].segment),
        (1, 3)
    );
    // The goblin's blow is ordered only against the fighter: not dragged to segment 3.
    let goblin = blows(&r, "Goblin");
    assert_eq!(goblin.len(), 1);
    assert!(goblin[0].segment < 3, "goblin at {}", goblin[0].segment);
    // And the fighter (won initiative) before the goblin.
    let f = index_of(&r, |e| {
        e.actor == "Fighter" && matches!(e.kind, K::Hit | K::Miss)
    });
    let g = index_of(&r, |e| {
        e.actor == "Goblin" && matches!(e.kind, K::Hit | K::Miss)
    });
    assert!(f < g);
}

/// DMG p.65: any hit on a caster before completion ruins the spell; a ruined spell never
/// completes, later in the round or ever.
#[test]
fn a_ruined_spell_never_completes() {
    let r = play(scene(
        MAGE_AND_ORC,
        r#""Mage": Cast(spell: "flame strike"), "Orc": Melee(targets: ["Mage"])"#,
        r#""A": 2, "B": 5"#,
        r#"ToHit: { "Orc": [20] }, Damage: { "Orc": [1] }"#,
    ));
    let ruined = r.events(K::SpellDisrupted, Some("Mage"));
    assert_eq!(ruined.len(), 1);
    assert_eq!(ruined[0].target.as_deref(), Some("Orc"));
    assert!(r.events(K::SpellComplete, Some("Mage")).is_empty());
}

/// DMG p.168, UA p.104: an item of speed strikes first regardless of initiative — also ahead
/// of a two-routine opponent who won the dice (whose first routine would otherwise open).
#[test]
fn an_item_of_speed_strikes_before_a_two_routine_winner() {
    let quick = Declared::melee("Quick", 1).side("Q").sf(3).of_speed();
    let fighter = Declared::melee("Fighter", 6).side("F").sf(5).routines(2);
    let s = round_sequence(&[quick, fighter], &Context::default());
    assert_eq!(s.outline(), vec!["Quick", "Fighter", "Fighter"]);
    // The engine: the short sword of quickness lands before the fighter's first blow.
    let r = play(scene(
        r#"(name: "Quick", side: "Q", at: (0.0, 0.0), weapon: Some("short sword"), of_speed: true, hp: Some(40)),
           (name: "Fighter", side: "F", at: (5.0, 0.0), weapon: Some("long sword"), attacks: Some("2/1"), hp: Some(40))"#,
        r#""Quick": Melee(targets: ["Fighter"]), "Fighter": Melee(targets: ["Quick"])"#,
        r#""Q": 1, "F": 6"#,
        "",
    ));
    let q = index_of(&r, |e| {
        e.actor == "Quick" && matches!(e.kind, K::Hit | K::Miss)
    });
    let f = index_of(&r, |e| {
        e.actor == "Fighter" && matches!(e.kind, K::Hit | K::Miss)
    });
    assert!(q < f, "the item of speed first");
}

/// DMG p.65: only the first of several routines can disrupt a spell — unless the spell takes
/// a full round, when the later routines fall within the casting and can ruin it too.
#[test]
fn later_routines_ruin_only_a_full_round_spell() {
    let two_routines = r#"(name: "Mage", side: "A", at: (0.0, 0.0), hp: Some(40)),
        (name: "Orc", side: "B", at: (5.0, 0.0), weapon: Some("long sword"), attacks: Some("2/1"), hp: Some(20), thac0: Some(20))"#;
    // The first routine misses (a 1), the second hits (a 20).
    let dice = r#"ToHit: { "Orc": [1, 20] }, Damage: { "Orc": [1] }"#;
    let five = play(scene(
        two_routines,
        r#""Mage": Cast(spell: "cure light wounds"), "Orc": Melee(targets: ["Mage"])"#,
        r#""A": 2, "B": 5"#,
        dice,
    ));
    assert_eq!(five.when(K::SpellComplete, "Mage"), vec![(1, 5)]);
    assert!(five.events(K::SpellDisrupted, None).is_empty());
    let done = index_of(&five, |e| e.kind == K::SpellComplete);
    let hit = index_of(&five, |e| e.kind == K::Hit && e.actor == "Orc");
    assert!(done < hit, "the second routine comes after the completion");

    let full = play(scene(
        two_routines,
        r#""Mage": Cast(spell: "meteor swarm", segments: Some(10)), "Orc": Melee(targets: ["Mage"])"#,
        r#""A": 2, "B": 5"#,
        dice,
    ));
    assert!(full.events(K::SpellComplete, Some("Mage")).is_empty());
    let ruined = full.events(K::SpellDisrupted, Some("Mage"));
    assert_eq!(ruined.len(), 1);
    assert!(ruined[0].segment < 10);
    // The rules core agrees: both routines before the 10-segment completion.
    let orc = Declared::melee("Orc", 5).side("B").sf(5).routines(2);
    let mage = Declared::melee("Mage", 2).side("A").kind(ActionKind::Cast {
        segments: 10,
        device: false,
    });
    assert_eq!(
        round_sequence(&[orc, mage], &Context::default()).outline(),
        vec!["Orc", "Orc", "Mage"]
    );
}

/// DMG p.66: a charge compares segments of movement with the casting time; when the charger
/// arrives in the segment the spell completes, the two are simultaneous — the spell goes off
/// and the blow lands.
#[test]
fn a_charge_arriving_as_the_spell_completes_is_simultaneous() {
    let bigby = Declared::melee("Bigby", 4)
        .side("P")
        .kind(ActionKind::Cast {
            segments: 5,
            device: false,
        });
    let giant = Declared::melee("Giant", 3)
        .side("G")
        .reach(10.0)
        .kind(ActionKind::Charge { arrival_segment: 5 });
    let s = round_sequence(&[bigby, giant], &Context::default());
    let beat = s
        .beats
        .iter()
        .find(|b| b.events.iter().any(|e| e.kind == SeqKind::Complete))
        .unwrap();
    assert_eq!(beat.segment, Some(5));
    assert!(
        beat.events
            .iter()
            .any(|e| e.name == "Giant" && matches!(e.kind, SeqKind::Routine { .. })),
        "the charge's blow is in the completion's beat: {:?}",
        s.outline()
    );
    // In the engine: 120 ft to cover at 24 ft a segment is segment 5; so is the 5-segment
    // cure. The spell completes, then the blow lands in the same segment.
    let r = play(scene(
        r#"(name: "Bigby", side: "P", at: (0.0, 0.0), hp: Some(40)),
           (name: "Hill giant", side: "G", at: (0.0, 130.0), monster: Some("hill giant"))"#,
        r#""Bigby": Cast(spell: "cure light wounds"), "Hill giant": Charge(targets: ["Bigby"])"#,
        r#""P": 4, "G": 3"#,
        r#"ToHit: { "Hill giant": [20] }, Damage: { "Hill giant": [5] }"#,
    ));
    assert_eq!(r.when(K::Arrive, "Hill giant"), vec![(1, 5)]);
    assert_eq!(r.when(K::SpellComplete, "Bigby"), vec![(1, 5)]);
    assert!(r.events(K::SpellDisrupted, None).is_empty());
    assert_eq!(r.when(K::Hit, "Hill giant"), vec![(1, 5)]);
}

/// DMG p.66, PHB p.102: two figures charging each other meet where their movements meet;
/// their blows fall in the segment the log says they meet, whatever the order of the file.
#[test]
fn two_charges_meet_where_their_movements_meet() {
    let a =
        r#"(name: "Knight", side: "K", at: (0.0, 0.0), weapon: Some("long sword"), hp: Some(40))"#;
    let b = r#"(name: "Ogre", side: "O", at: (0.0, 100.0), weapon: Some("club"), hp: Some(40))"#;
    let decl = r#""Knight": Charge(targets: ["Ogre"]), "Ogre": Charge(targets: ["Knight"])"#;
    let mut seen = Vec::new();
    for combatants in [format!("{a}, {b}"), format!("{b}, {a}")] {
        let r = play(scene(&combatants, decl, r#""K": 3, "O": 4"#, ""));
        // 12" doubled indoors: 24 ft a segment each; 95 ft to close at 48 a segment: 2.
        assert_eq!(r.when(K::Arrive, "Knight"), vec![(1, 2)]);
        assert_eq!(r.when(K::Arrive, "Ogre"), vec![(1, 2)]);
        for who in ["Knight", "Ogre"] {
            let b = blows(&r, who);
            assert_eq!(b.len(), 1, "{who} strikes once");
            assert_eq!((b[0].round, b[0].segment), (1, 2), "{who}");
        }
        let moves: Vec<String> = r
            .events(K::Move, None)
            .iter()
            .map(|e| format!("{} {}", e.actor, e.detail))
            .collect();
        seen.push({
            let mut m = moves;
            m.sort();
            m
        });
    }
    assert_eq!(seen[0], seen[1], "the file's order changes nothing");
    // They met in the middle: each covered 47.5 ft.
    assert!(seen[0].iter().any(|m| m.contains("Knight charges 23.5 ft")));
}

/// Nothing happens after the last round ends: no move, no blow, no second roll.
#[test]
fn nothing_happens_after_the_last_round() {
    // A scout walks all round; a giant's charge covers 240 ft at 24 a segment: segment 10.
    let r = play(scene(
        r#"(name: "Scout", side: "A", at: (0.0, 0.0), hp: Some(30)),
           (name: "Bigby", side: "A", at: (50.0, 0.0), hp: Some(60), ac: Some(10)),
           (name: "Hill giant", side: "G", at: (50.0, 250.0), monster: Some("hill giant"))"#,
        r#""Scout": Move(to: (0.0, 500.0)), "Hill giant": Charge(targets: ["Bigby"])"#,
        r#""A": 5, "G": 2"#,
        r#"ToHit: { "Hill giant": [20, 20] }, Damage: { "Hill giant": [5, 5] }"#,
    ));
    let last = r.log().events.last().unwrap();
    assert_eq!(last.kind, K::RoundEnd);
    assert_eq!((last.round, last.segment), (1, 10));
    assert_eq!(r.when(K::Arrive, "Hill giant"), vec![(1, 10)]);
    assert_eq!(blows(&r, "Hill giant").len(), 1, "one blow, rolled once");
    let scout: Vec<u32> = r
        .events(K::Move, Some("Scout"))
        .iter()
        .map(|e| e.segment)
        .collect();
    assert_eq!(scout, (1..=10).collect::<Vec<_>>(), "one move a segment");
    assert!(r.log().events.iter().all(|e| e.round <= 1));
}

/// DMG p.66: a figure that stands and strikes at its charger does so at contact — no
/// initiative at a charge's end, the longer weapon first, and the charger's +2 if it lives.
#[test]
fn a_charged_figure_strikes_back_at_contact() {
    let r = play(scene(
        r#"(name: "Knight", side: "K", at: (0.0, 0.0), weapon: Some("long sword"), hp: Some(40)),
           (name: "Ogre", side: "O", at: (0.0, 100.0), weapon: Some("halberd"), hp: Some(40))"#,
        r#""Knight": Charge(targets: ["Ogre"]), "Ogre": Melee(targets: ["Knight"])"#,
        r#""K": 6, "O": 1"#,
        r#"ToHit: { "Knight": [10], "Ogre": [10] }, Damage: { "Knight": [3], "Ogre": [3] }"#,
    ));
    // 95 ft at 24 ft a segment: contact in segment 4.
    assert_eq!(r.when(K::Arrive, "Knight"), vec![(1, 4)]);
    assert!(
        r.events(K::Idle, Some("Ogre")).is_empty(),
        "the ogre stands"
    );
    let ogre = blows(&r, "Ogre");
    let knight = blows(&r, "Knight");
    assert_eq!((ogre[0].round, ogre[0].segment), (1, 4));
    assert_eq!((knight[0].round, knight[0].segment), (1, 4));
    // The halberd (6 ft) outreaches the long sword (3.5 ft), though the ogre lost 1-6.
    let o = index_of(&r, |e| {
        e.actor == "Ogre" && matches!(e.kind, K::Hit | K::Miss)
    });
    let k = index_of(&r, |e| {
        e.actor == "Knight" && matches!(e.kind, K::Hit | K::Miss)
    });
    assert!(o < k);
    assert_eq!(ogre[0].rule.id, "charge.reach");
}
