//! What a DM declares at the table, beyond the worked examples: hesitation (DMG p.71), input
//! checked against its limits, and the calculator's syntax for both.

use firststrike::calc::{self, Defaults};
use firststrike::rules::first::Context;
use firststrike::rules::options::{HesitationRounding, RulesOptions};
use firststrike::scene::{Scene, parse};
use firststrike::sim::EventKind as K;
use firststrike::testing::SceneRun;

fn scene(combatants: &str, declare: &str, extra: &str) -> Result<Scene, String> {
    let src = format!(
        r#"Scene(name: "test", setting: Indoors, seed: 3,
            combatants: [{combatants}],
            rounds: [(declare: {{{declare}}}, initiative: {{ "A": 4, "B": 3 }}{extra})])"#
    );
    parse("test.ron", &src).map_err(|e| e.to_string())
}

fn play(s: Scene) -> SceneRun {
    let mut r = SceneRun::new(s, None, None);
    r.run_to_end();
    r
}

const OTTO_AND_CLERIC: &str = r#"
    (name: "Otto", side: "A", at: (0.0, 0.0), hp: Some(30)),
    (name: "Cleric", side: "B", at: (5.0, 0.0), weapon: Some("mace"), hp: Some(30))"#;

/// DMG p.71 and the text's example: Otto hesitates 20 s over his 5-segment dance; each whole
/// 6 s is a segment, so it goes off in segment 8 — or 9 if part spans count.
#[test]
fn otto_hesitates_twenty_seconds() {
    let decl = r#""Otto": Cast(spell: "otto's irresistible dance"), "Cleric": Hold"#;
    let r = play(scene(OTTO_AND_CLERIC, decl, r#", hesitation_s: { "Otto": 20 }"#).unwrap());
    assert_eq!(r.when(K::SpellComplete, "Otto"), vec![(1, 8)]);
    let said = r.events(K::Declare, Some("Otto"));
    assert!(said.iter().any(|e| e.rule.id == "declare.hesitation"));
    // The calculator, both readings.
    let d = Defaults::default();
    let figs: Vec<_> = [
        "Otto: cast time=5 hesitate=20s d6=4",
        "Cleric: melee sf=7 d6=3",
    ]
    .iter()
    .map(|a| calc::parse_action(a, &d).unwrap())
    .collect();
    let (_, seq) = calc::calculate(&figs, &d).unwrap();
    let done = |s: &firststrike::rules::sequence::Sequence| {
        s.beats
            .iter()
            .find(|b| b.events.iter().any(|e| e.name == "Otto"))
            .unwrap()
            .segment
    };
    assert_eq!(done(&seq), Some(8));
    let part = Defaults {
        context: Context {
            options: RulesOptions {
                hesitation: HesitationRounding::PartSegmentsCount,
                ..RulesOptions::default()
            },
            ..Context::default()
        },
        ..Defaults::default()
    };
    let figs: Vec<_> = [
        "Otto: cast time=5 hesitate=20s d6=4",
        "Cleric: melee sf=7 d6=3",
    ]
    .iter()
    .map(|a| calc::parse_action(a, &part).unwrap())
    .collect();
    assert_eq!(done(&calc::calculate(&figs, &part).unwrap().1), Some(9));
}

/// DMG p.71: a fighter who hesitates 13 s strikes two segments late, whatever the dice.
#[test]
fn a_hesitating_fighter_strikes_late() {
    let figs = r#"(name: "Fighter", side: "A", at: (0.0, 0.0), weapon: Some("long sword"), hp: Some(50)),
        (name: "Orc", side: "B", at: (5.0, 0.0), weapon: Some("club"), hp: Some(50))"#;
    let decl = r#""Fighter": Melee(targets: ["Orc"]), "Orc": Melee(targets: ["Fighter"])"#;
    let r = play(scene(figs, decl, r#", hesitation_s: { "Fighter": 13 }"#).unwrap());
    let blow = r
        .log()
        .events
        .iter()
        .find(|e| e.actor == "Fighter" && matches!(e.kind, K::Hit | K::Miss))
        .unwrap()
        .clone();
    assert_eq!((blow.round, blow.segment), (1, 3));
    assert_eq!(blow.rule.id, "declare.hesitation");
    // A hesitating charger sets off late: 95 ft at 24 ft a segment is 4, plus 2.
    let figs = r#"(name: "Knight", side: "A", at: (0.0, 0.0), weapon: Some("long sword"), hp: Some(50)),
        (name: "Orc", side: "B", at: (0.0, 100.0), weapon: Some("club"), hp: Some(50))"#;
    let decl = r#""Knight": Charge(targets: ["Orc"]), "Orc": Hold"#;
    let r = play(scene(figs, decl, r#", hesitation_s: { "Knight": 12 }"#).unwrap());
    assert_eq!(r.when(K::Arrive, "Knight"), vec![(1, 6)]);
    assert_eq!(
        r.when(K::Move, "Knight")[0],
        (1, 3),
        "no move in segments 1 and 2"
    );
}

/// Input is checked: each of these is refused with its field, never played.
#[test]
fn out_of_range_values_are_refused_with_their_field() {
    let ok = r#"(name: "A1", side: "A", at: (0.0, 0.0)), (name: "B1", side: "B", at: (5.0, 0.0))"#;
    for (combatants, declare, extra, field) in [
        (
            ok,
            r#""A1": Melee(targets: ["B1"], modifier: 99)"#,
            "",
            "modifier",
        ),
        (ok, r#""A1": Melee(targets: ["A1"])"#, "", "targets"),
        (
            ok,
            r#""A1": Cast(spell: "x", segments: Some(500))"#,
            "",
            "segments",
        ),
        (ok, r#""A1": Move(to: (inf, 0.0))"#, "", "to"),
        (
            ok,
            r#""A1": Hold"#,
            r#", hesitation_s: { "A1": 600 }"#,
            "hesitation_s",
        ),
        (
            r#"(name: "A1", side: "A", at: (0.0, 0.0), damage: Some("1000000d6")), (name: "B1", side: "B", at: (5.0, 0.0))"#,
            r#""A1": Hold"#,
            "",
            "damage",
        ),
        (
            r#"(name: "A1", side: "A", at: (0.0, 0.0), attacks: Some("10000/1")), (name: "B1", side: "B", at: (5.0, 0.0))"#,
            r#""A1": Hold"#,
            "",
            "attacks",
        ),
        (
            r#"(name: "A1", side: "A", at: (0.0, 0.0), initiative_die: Some(0)), (name: "B1", side: "B", at: (5.0, 0.0))"#,
            r#""A1": Hold"#,
            "",
            "initiative_die",
        ),
        (
            r#"(name: "A1", side: "A", at: (0.0, 0.0), infravision_ft: Some(1e9)), (name: "B1", side: "B", at: (5.0, 0.0))"#,
            r#""A1": Hold"#,
            "",
            "infravision_ft",
        ),
    ] {
        let err = scene(combatants, declare, extra).expect_err(field);
        assert!(err.contains(field), "{field}: {err}");
        assert!(err.contains("test.ron:"), "located: {err}");
    }
    // The calculator refuses the same kind of numbers.
    let d = Defaults::default();
    for bad in [
        "A: melee attacks=4294967295 d6=3",
        "A: melee sf=99 d6=3",
        "A: cast time=1000 d6=3",
        "A: melee hesitate=90s d6=3",
        "A: charge arrive=0 d6=3",
    ] {
        assert!(calc::parse_action(bad, &d).is_err(), "{bad}");
    }
}

/// Without dice, `first` plans every roll: each answer is what the same actions give with
/// those dice fixed, and the answers cover the 36 rolls once (DMG p.66-67 for the cells).
#[test]
fn first_without_dice_answers_every_roll() {
    use firststrike::calc::outcomes::every_roll;
    let d = Defaults::default();
    let parse = |xs: &[&str]| -> Vec<calc::Figure> {
        xs.iter()
            .map(|a| calc::parse_action(a, &d).unwrap())
            .collect()
    };
    let o = every_roll(&parse(&["Bigby: cast time=1", "Riggby: melee sf=4"]), &d).unwrap();
    assert_eq!(o.rolls.len(), 36);
    assert_eq!(o.outcomes.iter().map(|x| x.count).sum::<usize>(), 36);
    for r in &o.rolls {
        let (b, g) = (r.dice["Bigby"], r.dice["Riggby"]);
        let fixed = parse(&[
            &format!("Bigby: cast time=1 d6={b}"),
            &format!("Riggby: melee sf=4 d6={g}"),
        ]);
        let (_, seq) = calc::calculate(&fixed, &d).unwrap();
        assert_eq!(seq.beats[0].names(), r.first, "Bigby {b}, Riggby {g}");
    }
    // The text's case: Bigby wins 6-4, yet |4 - 4| = 0 beats the one-segment spell.
    let six_four = o
        .rolls
        .iter()
        .find(|r| r.dice["Bigby"] == 6 && r.dice["Riggby"] == 4);
    assert_eq!(six_four.unwrap().first, vec!["Riggby"]);
    // Two routines each: the dice, then the speed factor on a tie, decide (DMG p.63, p.66).
    let o = every_roll(
        &parse(&[
            "Cousin: melee sf=5 attacks=2",
            "Serten: melee sf=7 attacks=2",
        ]),
        &d,
    )
    .unwrap();
    assert_eq!(o.outcomes[0].first, vec!["Cousin"]);
    assert_eq!(o.outcomes[0].when, "when Cousin rolls higher or ties");
    assert_eq!(o.outcomes[0].count, 21);
}

const KNIGHT_CHARGES: &str =
    r#"(name: "Knight", side: "A", at: (0.0, 0.0), weapon: Some("lance"), hp: Some(60)),"#;

/// "Take Initiative!" §9: a spear set against a charge strikes the charger first, even a
/// longer lance, at contact, for double damage; a set that no charge meets does nothing.
#[test]
fn a_spear_set_against_a_charge() {
    let figs = format!(
        r#"{KNIGHT_CHARGES} (name: "Pikeman", side: "B", at: (0.0, 100.0), weapon: Some("spear"), hp: Some(60))"#
    );
    let decl = r#""Knight": Charge(targets: ["Pikeman"]), "Pikeman": Set(against: ["Knight"])"#;
    let s = scene(&figs, decl, "").unwrap();
    let src_dice = {
        let mut s = s.clone();
        s.dice.insert(
            firststrike::scene::DieKind::ToHit,
            [
                ("Pikeman".to_string(), vec![20]),
                ("Knight".to_string(), vec![20]),
            ]
            .into(),
        );
        s.dice.insert(
            firststrike::scene::DieKind::Damage,
            [
                ("Pikeman".to_string(), vec![4]),
                ("Knight".to_string(), vec![4]),
            ]
            .into(),
        );
        s
    };
    let r = play(src_dice);
    // 95 ft at 24 ft a segment (12" doubled): contact in segment 4.
    assert_eq!(r.when(K::Arrive, "Knight"), vec![(1, 4)]);
    let first_blow = r
        .log()
        .events
        .iter()
        .find(|e| matches!(e.kind, K::Hit | K::Miss))
        .unwrap()
        .clone();
    assert_eq!(first_blow.actor, "Pikeman");
    assert_eq!((first_blow.round, first_blow.segment), (1, 4));
    assert_eq!(first_blow.rule.id, "charge.set");
    let damage = r.events(K::Damage, Some("Pikeman"));
    assert!(
        damage[0].detail.starts_with("8 hp"),
        "double damage: {}",
        damage[0].detail
    );
    // No charge: the set does nothing.
    let figs = r#"(name: "Knight", side: "A", at: (0.0, 0.0), hp: Some(60)),
        (name: "Pikeman", side: "B", at: (0.0, 100.0), weapon: Some("spear"), hp: Some(60))"#;
    let r = play(scene(figs, r#""Knight": Hold, "Pikeman": Set()"#, "").unwrap());
    assert!(r.events(K::Hit, None).is_empty() && r.events(K::Miss, None).is_empty());
    assert!(
        r.events(K::Idle, Some("Pikeman"))[0]
            .detail
            .contains("does not come")
    );
    // A sword cannot be set: refused with its place.
    let figs = r#"(name: "Knight", side: "A", at: (0.0, 0.0), hp: Some(60)),
        (name: "Pikeman", side: "B", at: (0.0, 100.0), weapon: Some("long sword"), hp: Some(60))"#;
    let err = scene(figs, r#""Knight": Hold, "Pikeman": Set()"#, "").unwrap_err();
    assert!(err.contains("no spear or pole arm"), "{err}");
}

/// DMG p.66: a charged figure strikes back at contact whatever it declared — here it was
/// searching a pack — ordered by weapon length against the charger.
#[test]
fn a_charged_figure_strikes_back_whatever_it_declared() {
    let figs = r#"(name: "Knight", side: "A", at: (0.0, 0.0), weapon: Some("long sword"), hp: Some(60)),
        (name: "Orc", side: "B", at: (0.0, 100.0), weapon: Some("club"), hp: Some(60))"#;
    let decl = r#""Knight": Charge(targets: ["Orc"]), "Orc": Other("searches the fallen pack")"#;
    let r = play(scene(figs, decl, "").unwrap());
    let orc = r
        .log()
        .events
        .iter()
        .filter(|e| e.actor == "Orc" && matches!(e.kind, K::Hit | K::Miss))
        .cloned()
        .collect::<Vec<_>>();
    assert_eq!(orc.len(), 1);
    assert_eq!((orc[0].round, orc[0].segment), (1, 4));
    assert!(
        r.events(K::Act, Some("Orc"))
            .iter()
            .any(|e| e.rule.id == "charge.strike_back")
    );
    // The long sword (3.5 ft) outreaches the club (3 ft): the knight strikes first.
    let k = r
        .log()
        .events
        .iter()
        .position(|e| e.actor == "Knight" && matches!(e.kind, K::Hit | K::Miss));
    let o = r
        .log()
        .events
        .iter()
        .position(|e| e.actor == "Orc" && matches!(e.kind, K::Hit | K::Miss));
    assert!(k < o);
}

/// DMG p.66: a charge with no target, to a point, is movement at the charge rate (12"
/// doubled indoors: 24 ft a segment) with no blow.
#[test]
fn a_charge_to_a_point_is_movement_at_the_charge_rate() {
    let figs = r#"(name: "Knight", side: "A", at: (0.0, 0.0), hp: Some(60)),
        (name: "Orc", side: "B", at: (200.0, 0.0), hp: Some(60))"#;
    let r = play(
        scene(
            figs,
            r#""Knight": Charge(to: Some((0.0, 100.0))), "Orc": Hold"#,
            "",
        )
        .unwrap(),
    );
    let moves = r.events(K::Move, Some("Knight"));
    assert!(
        moves[0].detail.starts_with("moves 24 ft"),
        "{}",
        moves[0].detail
    );
    assert_eq!(moves.len(), 5, "100 ft at 24 a segment: five segments");
    assert!(r.events(K::Hit, None).is_empty() && r.events(K::Miss, None).is_empty());
    assert!(
        scene(figs, r#""Knight": Charge()"#, "")
            .unwrap_err()
            .contains("a point to charge to")
    );
}

/// DMG p.66 gives the charge as the alternative to closing from more than 1". Declared from
/// within 1", by default it is fought as normal melee (initiative, no +2); read the other way
/// it stays a charge (contact at once, reach first, +2).
#[test]
fn a_charge_from_within_an_inch() {
    let figs = r#"(name: "Knight", side: "A", at: (0.0, 0.0), weapon: Some("long sword"), hp: Some(60)),
        (name: "Orc", side: "B", at: (0.0, 8.0), weapon: Some("spear"), hp: Some(60))"#;
    let decl = r#""Knight": Charge(targets: ["Orc"]), "Orc": Melee(targets: ["Knight"])"#;
    let r = play(scene(figs, decl, "").unwrap());
    let knight = r
        .events(K::Hit, Some("Knight"))
        .into_iter()
        .chain(r.events(K::Miss, Some("Knight")))
        .next()
        .unwrap();
    assert_eq!(
        knight.rule.id, "initiative.d6",
        "normal melee: {}",
        knight.detail
    );
    // Long sword against armor type 10: +2 (PHB p.38), and no charge bonus on top.
    let modifier = |e: &firststrike::sim::LogEvent| match e.payload {
        firststrike::sim::Payload::Attack { modifier, .. } => modifier,
        _ => panic!("an attack"),
    };
    assert_eq!(modifier(&knight), 2);
    assert!(
        r.events(K::Act, Some("Knight"))
            .iter()
            .any(|e| e.detail.contains("normal melee"))
    );
    let mut s = scene(figs, decl, "").unwrap();
    s.rules.charge_within_inch = firststrike::rules::options::ChargeWithinInch::AsCharge;
    let r = play(s);
    let first = r
        .log()
        .events
        .iter()
        .find(|e| matches!(e.kind, K::Hit | K::Miss))
        .unwrap();
    // The spear (8 ft) outreaches the long sword at contact.
    assert_eq!(first.actor, "Orc");
    assert_eq!(first.rule.id, "charge.reach");
    let knight = r
        .log()
        .events
        .iter()
        .find(|e| e.actor == "Knight" && matches!(e.kind, K::Hit | K::Miss))
        .unwrap();
    assert_eq!(
        modifier(knight),
        4,
        "+2 against armor type 10, +2 for the charge"
    );
}

/// DMG p.61, PHB p.24, the table's example: Otis the ranger makes his party surprised only
/// 1 in 6 (Tenser alone: 2 in 6); alone, he surprises the orcs 3 in 6, but not with Tenser.
#[test]
fn a_ranger_changes_the_surprise_chances() {
    let play_with = |with_tenser: bool, d6_party: u32, d6_orcs: u32| {
        let tenser = if with_tenser {
            r#"(name: "Tenser", side: "Party", at: (0.0, 0.0), hp: Some(20)),"#
        } else {
            ""
        };
        let src = format!(
            r#"Scene(name: "t", setting: Outdoors, combatants: [{tenser}
                (name: "Otis", side: "Party", at: (5.0, 0.0), hp: Some(40),
                 surprised_less_often: 1, surprises_more_often: 1),
                (name: "Orc", side: "Orcs", at: (50.0, 0.0), hp: Some(5))],
               surprise: {{ "Party": ChanceIn6(2), "Orcs": ChanceIn6(2) }},
               encounter: [Outdoors(note: "in the forest")],
               dice: {{ Surprise: {{ "Party": [{d6_party}], "Orcs": [{d6_orcs}] }},
                        Distance: {{ "any": [4, 4, 4, 4, 4, 4] }} }})"#
        );
        play(parse("t.ron", &src).unwrap_or_else(|e| panic!("{e}")))
    };
    let lost = |r: &SceneRun, side: &str| -> u32 {
        r.events(K::Surprise, Some(side))
            .iter()
            .filter_map(|e| match e.payload {
                firststrike::sim::Payload::Surprise { segments } => Some(segments),
                _ => None,
            })
            .next_back()
            .unwrap()
    };
    // With Tenser: the party is surprised on 1 in 6 only, so a 2 does not surprise it; the
    // orcs keep their 2 in 6 (Otis is not alone), so a 3 does not surprise them.
    let r = play_with(true, 2, 3);
    assert_eq!(lost(&r, "Party"), 0);
    assert_eq!(lost(&r, "Orcs"), 0);
    assert!(
        r.events(K::Surprise, Some("Party"))
            .iter()
            .any(|e| e.rule.id == "surprise.less_often")
    );
    // Otis alone: his party is still surprised 1 in 6; the orcs now on 3 in 6, so a 3
    // surprises them for 3 segments, and the 6d4 (all 4s: 24") loses those 3: 21".
    let r = play_with(false, 2, 3);
    assert_eq!(lost(&r, "Party"), 0);
    assert_eq!(lost(&r, "Orcs"), 3);
    assert!(
        r.events(K::Surprise, Some("Orcs"))
            .iter()
            .any(|e| e.rule.id == "surprise.more_often")
    );
    let distance = r.events(K::Distance, None);
    assert!(
        distance[0].detail.contains("less 3 for surprise = 21\""),
        "{}",
        distance[0].detail
    );
}

/// PHB p.74 and the table's example: Erac's Cousin (3/2) hasted attacks three times every
/// round, first and last, with Serten's single routine diced for in the middle.
#[test]
fn a_hasted_fighter_attacks_three_times_a_round() {
    let src = r#"Scene(name: "t", setting: Indoors, combatants: [
            (name: "Cousin", side: "C", at: (0.0, 0.0), weapon: "long sword", attacks: "3/2", hasted: true, hp: 500, ac: 0),
            (name: "Serten", side: "S", at: (5.0, 0.0), weapon: "mace", hp: 500, ac: 0)],
        rounds: [(declare: { "Cousin": Melee(targets: ["Serten"]), "Serten": Melee(targets: ["Cousin"]) },
                  initiative: { "C": 2, "S": 5 }), (initiative: { "C": 5, "S": 2 })])"#;
    let r = play(parse("t.ron", src).unwrap_or_else(|e| panic!("{e}")));
    for round in [1, 2] {
        let order: Vec<&str> = r
            .log()
            .events
            .iter()
            .filter(|e| e.round == round && matches!(e.kind, K::Hit | K::Miss))
            .map(|e| e.actor.as_str())
            .collect();
        let expect = if round == 1 {
            vec!["Cousin", "Serten", "Cousin", "Cousin"]
        } else {
            vec!["Cousin", "Cousin", "Serten", "Cousin"]
        };
        assert_eq!(order, expect, "round {round}");
    }
}

/// A slowed fighter (reading `spell.slow`): one routine every other round, and it acts as if
/// its side lost initiative, even on a 6 against a 2.
#[test]
fn a_slowed_fighter_attacks_every_other_round_and_loses_initiative() {
    let src = r#"Scene(name: "t", setting: Indoors, combatants: [
            (name: "Fighter", side: "F", at: (0.0, 0.0), weapon: "long sword", slowed: true, hp: 500, ac: 0),
            (name: "Orc", side: "O", at: (5.0, 0.0), weapon: "mace", hp: 500, ac: 0)],
        rounds: [(declare: { "Fighter": Melee(targets: ["Orc"]), "Orc": Melee(targets: ["Fighter"]) },
                  initiative: { "F": 6, "O": 2 }), (initiative: { "F": 6, "O": 2 })])"#;
    let r = play(parse("t.ron", src).unwrap_or_else(|e| panic!("{e}")));
    let blows = |round: u32| -> Vec<&str> {
        r.log()
            .events
            .iter()
            .filter(|e| e.round == round && matches!(e.kind, K::Hit | K::Miss))
            .map(|e| e.actor.as_str())
            .collect()
    };
    assert_eq!(blows(1), vec!["Orc", "Fighter"]);
    assert_eq!(blows(2), vec!["Orc"]);
}

/// DMG p.66: "close" moves to engage with no blows this round (and speed factors then wait a
/// round), where "melee" stands; closing on a figure that charges it, it still strikes back.
#[test]
fn close_moves_in_without_blows_but_meets_a_charge() {
    let figs = r#"(name: "Fighter", side: "A", at: (0.0, 0.0), weapon: "long sword", hp: 60),
        (name: "Orc", side: "B", at: (0.0, 25.0), weapon: "club", hp: 60)"#;
    let r = play(
        scene(
            figs,
            r#""Fighter": Close(targets: ["Orc"]), "Orc": Hold"#,
            "",
        )
        .unwrap(),
    );
    assert!(r.events(K::Hit, None).is_empty() && r.events(K::Miss, None).is_empty());
    assert!(
        r.events(K::Idle, Some("Fighter"))[0]
            .detail
            .contains("closes on Orc")
    );
    assert_eq!(
        r.when(K::Arrive, "Fighter"),
        vec![(1, 2)],
        "20 ft at 12 ft a segment"
    );
    // The orc charges the closing fighter: the fighter strikes back at contact.
    let r = play(
        scene(
            figs,
            r#""Fighter": Close(targets: ["Orc"]), "Orc": Charge(targets: ["Fighter"])"#,
            "",
        )
        .unwrap(),
    );
    let fighter: Vec<_> = r
        .log()
        .events
        .iter()
        .filter(|e| e.actor == "Fighter" && matches!(e.kind, K::Hit | K::Miss))
        .collect();
    assert_eq!(fighter.len(), 1);
    assert_eq!(fighter[0].rule.id, "charge.reach");
}

/// A volley with a target per shot: the long bow's two shots (rate 2, PHB p.38) first and
/// last (DMG p.63), the first at Orc 1, the second at Orc 2.
#[test]
fn a_volley_with_a_target_per_shot() {
    let src = r#"Scene(name: "t", setting: Indoors, combatants: [
            (name: "Archer", side: "A", at: (0.0, 0.0), weapon: "long bow", hp: 30),
            (name: "Orc 1", side: "O", at: (0.0, 40.0), hp: 30),
            (name: "Orc 2", side: "O", at: (10.0, 40.0), hp: 30)],
        rounds: [(declare: { "Archer": Missile(targets: ["Orc 1", "Orc 2"], per_shot: true) },
                  initiative: { "A": 4, "O": 2 })])"#;
    let r = play(parse("t.ron", src).unwrap_or_else(|e| panic!("{e}")));
    let shots: Vec<Option<String>> = r
        .log()
        .events
        .iter()
        .filter(|e| e.actor == "Archer" && matches!(e.kind, K::Hit | K::Miss))
        .map(|e| e.target.as_deref().map(String::from))
        .collect();
    assert_eq!(
        shots,
        vec![Some("Orc 1".to_string()), Some("Orc 2".to_string())]
    );
}

/// DMG p.66: a charger loses its Dexterity bonus to AC (Dex 16: 2 classes, PHB p.11), or is
/// one class worse without one; not below AC 10.
#[test]
fn a_charger_loses_its_dexterity_ac() {
    let ac_struck = |dex: u32, ac: i32| -> i32 {
        let src = format!(
            r#"Scene(name: "t", setting: Indoors, combatants: [
                (name: "Knight", side: "A", at: (0.0, 0.0), dexterity: {dex}, ac: {ac}, weapon: "long sword", hp: 60),
                (name: "Pikeman", side: "B", at: (0.0, 100.0), weapon: "spear", hp: 60)],
               rounds: [(declare: {{ "Knight": Charge(targets: ["Pikeman"]), "Pikeman": Melee(targets: ["Knight"]) }},
                         initiative: {{ "A": 3, "B": 4 }})])"#
        );
        let r = play(parse("t.ron", &src).unwrap_or_else(|e| panic!("{e}")));
        let blow = r
            .log()
            .events
            .iter()
            .find(|e| e.actor == "Pikeman" && matches!(e.kind, K::Hit | K::Miss))
            .cloned()
            .unwrap();
        match blow.payload {
            firststrike::sim::Payload::Attack { ac, .. } => ac,
            _ => panic!("an attack"),
        }
    };
    assert_eq!(ac_struck(16, 3), 5, "Dex 16's two classes lost");
    assert_eq!(ac_struck(10, 4), 5, "no Dexterity bonus: one class worse");
    assert_eq!(ac_struck(10, 10), 10, "never worse than AC 10");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// A non-combat act takes its place by its side's initiative (DMG p.61-62): each side's
    /// act comes at its side's first action, so the winner's act comes before the loser's,
    /// before the loser's blow, and a tie leaves them in the same segment. No one is struck.
    #[test]
    fn a_non_combat_act_goes_by_side_initiative(p in 1u32..=6, o in 1u32..=6) {
        let src = format!(
            r#"Scene(name: "o", setting: Indoors, seed: 1, combatants: [
                (name: "Thief", side: "P", at: (0.0, 0.0), ac: 5, hp: 20),
                (name: "Guard", side: "P", at: (20.0, 0.0), ac: 5, hp: 20, weapon: "long sword"),
                (name: "Orc", side: "O", at: (20.0, 5.0), monster: "orc"),
                (name: "Lurker", side: "O", at: (60.0, 5.0), monster: "orc")],
              rounds: [(declare: {{ "Thief": Other("searches the fallen pack"),
                                   "Orc": Melee(targets: ["Guard"]),
                                   "Guard": Melee(targets: ["Orc"]),
                                   "Lurker": Other("bars the door") }},
                        initiative: {{ "P": {p}, "O": {o} }})])"#
        );
        let r = play(parse("o.ron", &src).unwrap());
        let ev = &r.log().events;
        let act = |who: &str| {
            ev.iter()
                .position(|e| e.kind == K::Act && e.actor == who)
                .expect("the act is played")
        };
        let blow = |who: &str| {
            ev.iter()
                .position(|e| matches!(e.kind, K::Hit | K::Miss) && e.actor == who)
                .expect("the blow is played")
        };
        let (thief, lurker) = (act("Thief"), act("Lurker"));
        if p > o {
            proptest::prop_assert!(thief < lurker && thief < blow("Orc"));
        } else if o > p {
            proptest::prop_assert!(lurker < thief && lurker < blow("Guard"));
        } else {
            proptest::prop_assert_eq!(ev[thief].segment, ev[lurker].segment);
        }
        proptest::prop_assert!(ev.iter().all(|e| !matches!(e.kind, K::Hit | K::Miss)
            || e.actor == "Orc" || e.actor == "Guard"));
    }
}

/// Two actions in a round, each in its own place: the archer's crossbow of speed shoots
/// before anything else whatever the dice (DMG p.168); her sword's blow is placed against
/// the orc's by initiative. The fighter's move after his potion sets off the segment after
/// the drink, which comes after the segments spent getting it out.
fn second_actions(party: u32, orcs: u32, prepare: u32) -> SceneRun {
    let src = std::fs::read_to_string("scenes/second_actions.ron")
        .unwrap()
        .replace(
            r#"initiative: { "Party": 2, "Orcs": 5 }"#,
            &format!(r#"initiative: {{ "Party": {party}, "Orcs": {orcs} }}"#),
        )
        .replace("prepare: 1", &format!("prepare: {prepare}"));
    play(parse("second_actions.ron", &src).unwrap())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    #[test]
    fn a_speed_shot_then_a_normal_attack_and_a_potion_then_a_move(
        party in 1u32..=6, orcs in 1u32..=6, prepare in 0u32..=3,
    ) {
        let r = second_actions(party, orcs, prepare);
        let ev = &r.log().events;
        let blows: Vec<(String, String)> = ev
            .iter()
            .filter(|e| matches!(e.kind, K::Hit | K::Miss))
            .map(|e| {
                let weapon = match &e.payload {
                    firststrike::sim::Payload::Attack { weapon, .. } => weapon.clone(),
                    _ => String::new(),
                };
                (e.actor.to_string(), weapon)
            })
            .collect();
        // Two shots (a crossbow of speed doubles the rate, DMG p.168), the sword, the orc.
        proptest::prop_assert_eq!(blows.len(), 4);
        proptest::prop_assert_eq!(&blows[0], &("Archer".to_string(), "light crossbow".to_string()));
        proptest::prop_assert_eq!(blows.iter().filter(|b| b.1 == "light crossbow").count(), 2);
        let sword = blows.iter().position(|b| b.1 == "short sword").unwrap();
        let orc = blows.iter().position(|b| b.0 == "Orc").unwrap();
        if orcs > party {
            proptest::prop_assert!(orc < sword);
        } else if party > orcs {
            proptest::prop_assert!(sword < orc);
        }
        let moves: Vec<u32> = ev
            .iter()
            .filter(|e| e.kind == K::Move && e.actor == "Fighter")
            .map(|e| e.segment)
            .collect();
        proptest::prop_assert_eq!(moves.first().copied(), Some(prepare + 2));
    }
}

#[test]
fn a_second_action_the_rules_do_not_allow_is_refused() {
    let base = std::fs::read_to_string("scenes/second_actions.ron").unwrap();
    for (from, to, says) in [
        (
            r#""Archer": Melee(targets: ["Orc"]),
            },"#,
            r#""Archer": Melee(targets: ["Orc"]), "Orc": Move(to: (10.0, 10.0)),
            },"#,
            "this round may only be",
        ),
        (
            "of_speed: true,",
            "of_speed: false,",
            "only an item of speed",
        ),
        (
            r#"off_hand: Some("short sword"), "#,
            "",
            "needs another weapon",
        ),
        (
            r#""Fighter": Potion(name: "potion of invisibility", prepare: 1),"#,
            "",
            "declares no first one",
        ),
    ] {
        assert!(base.contains(from), "{from}");
        let src = base.replace(from, to);
        let err = parse("second_actions.ron", &src).unwrap_err().to_string();
        assert!(err.contains(says), "{says}: {err}");
        assert!(err.contains("rounds[0].then"), "{err}");
    }
}

/// A heavy crossbow (one shot every other round) in the surprise segments shoots in one
/// and not the next, and the log says why it does not (DMG p.63): nothing is skipped
/// silently.
#[test]
fn a_surprise_segment_without_a_shot_says_why() {
    let src = r#"Scene(name: "x", setting: Indoors, seed: 3,
    combatants: [
        (name: "HeavyX", side: "A", at: (0.0, 0.0), weapon: "heavy crossbow", thac0: 10, hp: 30),
        (name: "Orc", side: "B", at: (0.0, 40.0), hp: 300, ac: 10),
    ],
    surprise: { "A": None, "B": D6(2) },
    surprise_segments: [ { "HeavyX": Missile(targets: ["Orc"]), "Orc": Hold } ],
)"#;
    let run = play(parse("x.ron", src).unwrap());
    let ev = &run.log().events;
    let shots = |k: u32| {
        ev.iter()
            .filter(|e| e.round == 0 && e.segment == k && e.actor == "HeavyX")
            .filter(|e| matches!(e.kind, K::Hit | K::Miss))
            .count()
    };
    assert!(shots(1) >= 1, "shoots in the first surprise segment");
    assert_eq!(shots(2), 0);
    assert!(
        ev.iter().any(|e| e.round == 0
            && e.segment == 2
            && e.actor == "HeavyX"
            && e.rule.id == "sequence.attack_rate"),
        "the empty segment is said"
    );
}

/// A misspelt weapon or spell in `first` is answered with a name the command line takes:
/// for every weapon and spell in the tables, a misspelling (a letter dropped, spaces typed
/// as hyphens) draws a suggestion, and the suggestion typed back as the setting is accepted
/// (the table's "long sword" has a space no setting can hold: it is offered as long_sword).
#[test]
fn a_suggested_name_is_one_the_command_line_takes() {
    let d = Defaults::default();
    let mut asked = 0;
    let weapons = firststrike::tables::weapons().iter().map(|w| {
        (
            "weapon",
            w.name.as_str(),
            if w.missile { "missile" } else { "melee" },
        )
    });
    let spells = firststrike::tables::spells()
        .iter()
        .map(|s| ("spell", s.name.as_str(), "cast"));
    for (key, name, kind) in weapons.chain(spells) {
        let typed: String = name.replace(' ', "-");
        // A letter dropped from the middle of a longer name.
        let typed = if typed.chars().count() > 6 {
            let k = typed.chars().count() / 2;
            typed
                .chars()
                .enumerate()
                .filter(|&(i, _)| i != k)
                .map(|(_, c)| c)
                .collect()
        } else {
            typed
        };
        let bad = format!("A: {kind} {key}={typed} d6=3");
        let Err(e) = calc::parse_action(&bad, &d) else {
            continue;
        };
        let Some(said) = e
            .split("did you mean '")
            .nth(1)
            .and_then(|t| t.split("'?)").next())
        else {
            continue;
        };
        asked += 1;
        assert!(
            !said.contains(' ') && !said.contains('\''),
            "{bad}: suggested '{said}' is awkward to type: {e}"
        );
        let again = format!("A: {kind} {key}={said} d6=3");
        if let Err(e2) = calc::parse_action(&again, &d) {
            assert!(
                !e2.contains("unknown"),
                "{bad}: the suggestion '{said}' typed back is unknown: {e2}"
            );
        }
    }
    assert!(asked > 30, "suggestions made for {asked} names only");
}

/// A side's fixed initiative die under `dice` shows what its die can: 1 to 6 on a d6, 1
/// to 8 on a spectator's d8 — as a round's `initiative` is checked. A 7 for a d6 side was
/// accepted and played as a 6 without a word.
#[test]
fn a_fixed_initiative_die_is_one_the_side_can_roll() {
    for (die, sides) in [("", 6), (", initiative_die: Some(8)", 8)] {
        for v in 1..=10 {
            let src = format!(
                r#"Scene(name: "test", setting: Indoors, seed: 3,
                    combatants: [(name: "A1", side: "A", at: (0.0, 0.0){die}), (name: "B1", side: "B", at: (5.0, 0.0))],
                    rounds: [(declare: {{ "A1": Hold, "B1": Hold }})],
                    dice: {{ Initiative: {{ "A": [{v}] }} }})"#
            );
            let got = parse("test.ron", &src).map_err(|e| e.to_string());
            if v <= sides {
                got.unwrap_or_else(|e| panic!("d{sides} showing {v}: {e}"));
            } else {
                let e = got.expect_err("a roll past the die");
                assert!(
                    e.contains("dice.Initiative.A") && e.contains(&format!("1 to {sides}")),
                    "{e}"
                );
                assert!(e.contains("test.ron:"), "located: {e}");
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

    /// Declarations for surprise segments the surprise does not last are not played, and
    /// the log says which (they were once dropped in silence): with the d6 showing `lost`
    /// and `declared` segments declared, the attacker strikes in each of the `lost`
    /// surprise segments (carrying on past its last declaration), and the log names segments `lost + 1` to `declared` exactly
    /// when there are any.
    #[test]
    fn surprise_declarations_past_the_surprise_are_said_not_dropped(
        lost in 1u32..=4,
        declared in 1u32..=5,
    ) {
        let segments: Vec<&str> = (0..declared).map(|_| r#"{ "A": Melee(targets: ["B"]) }"#).collect();
        let src = format!(
            r#"Scene(name: "s", setting: Indoors, seed: 3,
              combatants: [
                (name: "A", side: "A", at: (0.0, 0.0), weapon: "long sword", thac0: 15, ac: 5, hp: 300),
                (name: "B", side: "B", at: (0.0, 5.0), weapon: "long sword", thac0: 15, ac: 5, hp: 300),
              ],
              surprise: {{ "A": None, "B": D6({lost}) }},
              surprise_segments: [{}],
              rounds: [(declare: {{ "A": Melee(targets: ["B"]), "B": Melee(targets: ["A"]) }})],
            )"#,
            segments.join(", ")
        );
        let run = play(parse("s.ron", &src).unwrap_or_else(|e| panic!("{e}")));
        let log = &run.log().events;
        let struck: std::collections::BTreeSet<u32> = log
            .iter()
            .filter(|e| matches!(e.kind, K::Hit | K::Miss) && e.round == 0 && e.actor == "A")
            .map(|e| e.segment)
            .collect();
        // A figure named in no later segment carries on with what it was doing.
        proptest::prop_assert_eq!(struck.len() as u32, lost, "{:?}", struck);
        let said: Vec<&str> = log
            .iter()
            .filter(|e| e.detail.contains("are not played"))
            .map(|e| e.detail.as_str())
            .collect();
        if declared > lost {
            proptest::prop_assert_eq!(said.len(), 1);
            let first = lost + 1;
            let which = if first == declared { format!("segment {first}") } else { format!("segments {first}-{declared}") };
            proptest::prop_assert!(said[0].contains(&which), "{}", said[0]);
        } else {
            proptest::prop_assert!(said.is_empty(), "{:?}", said);
        }
    }
}
