//! The house rules that change the book's segment timing: lost surprise segments carried
//! into the next round, waiting on another's action, move or strike, and parting shots.
//! Named tests from the text's examples, and property tests over every number the rules
//! turn on (lost segments, speed factors, casting times, distances).

use firststrike::scene::{Scene, parse};
use firststrike::sim::{EventKind as K, LogEvent, Payload};
use firststrike::testing::SceneRun;
use proptest::prelude::*;

fn play(s: Scene) -> Vec<LogEvent> {
    let mut r = SceneRun::new(s, None, None);
    r.run_to_end();
    r.log().events.clone()
}

fn scene(src: &str) -> Scene {
    parse("x.ron", src).unwrap_or_else(|e| panic!("{e}"))
}

/// The segments of `who`'s attack rolls in `round`.
fn attacks(log: &[LogEvent], who: &str, round: u32) -> Vec<u32> {
    log.iter()
        .filter(|e| e.round == round && e.actor == who)
        .filter(|e| matches!(e.payload, Payload::Attack { .. }))
        .map(|e| e.segment)
        .collect()
}

/// The rule ids of `who`'s idle events in `round`.
fn idles(log: &[LogEvent], who: &str, round: u32) -> Vec<&'static str> {
    log.iter()
        .filter(|e| e.round == round && e.actor == who && e.kind == K::Idle)
        .map(|e| e.rule.id)
        .collect()
}

/// The segment `who`'s spell completes in, if it does.
fn completes(log: &[LogEvent], who: &str) -> Option<(u32, u32)> {
    log.iter()
        .find(|e| e.actor == who && e.kind == K::SpellComplete)
        .map(|e| (e.round, e.segment))
}

/// The text's example: a party that lost 3 segments to surprise has 7 in the next round,
/// which rules out a two-handed sword (speed factor 10) and a long clerical spell; what
/// fits comes 3 segments late.
#[test]
fn three_lost_segments_leave_a_round_of_seven() {
    let log = play(firststrike::scene::load("scenes/house/surprise_carries_over.ron").unwrap());
    assert_eq!(
        attacks(&log, "Fighter", 1),
        Vec::<u32>::new(),
        "no two-handed sword"
    );
    assert_eq!(
        idles(&log, "Fighter", 1),
        vec!["house.surprise_carries_over"]
    );
    assert_eq!(
        idles(&log, "Cleric", 1),
        vec!["house.surprise_carries_over"]
    );
    assert!(
        !log.iter()
            .any(|e| e.actor == "Cleric" && e.kind == K::SpellStart),
        "the 8-segment flame strike is not begun"
    );
    assert_eq!(
        attacks(&log, "Swordsman", 1),
        vec![4],
        "long sword from segment 4"
    );
    assert_eq!(
        completes(&log, "Mage"),
        Some((1, 4)),
        "magic missile in segment 4"
    );
    // The book: the same round with the rule off.
    let mut book = firststrike::scene::load("scenes/house/surprise_carries_over.ron").unwrap();
    book.rules.house = Default::default();
    let log = play(book);
    assert_eq!(
        attacks(&log, "Fighter", 1).len(),
        1,
        "the book swings the sword"
    );
    assert_eq!(completes(&log, "Mage"), Some((1, 1)));
    assert!(attacks(&log, "Swordsman", 1).iter().all(|&s| s <= 1));
}

/// A one-round scene: the party is surprised for `lost` segments (a d6 of `lost`), then a
/// swordsman with a weapon of speed factor `sf` and a mage casting a spell of `segs`
/// segments, with the party winning initiative 6-1.
fn surprised(lost: u32, sf: u32, segs: u32, on: bool) -> Scene {
    scene(&format!(
        r#"Scene(name: "x", setting: Indoors, seed: 2, rules: (house: (surprise_carries_over: {on})),
        combatants: [
            (name: "Swordsman", side: "Party", at: (0.0, 0.0), weapon: "long sword", speed_factor: {sf}, thac0: 15, hp: 50),
            (name: "Mage", side: "Party", at: (20.0, 0.0), hp: 50),
            (name: "Ogre", side: "Ogres", at: (0.0, 5.0), hp: 200, thac0: 15),
        ],
        surprise: {{ "Party": D6({lost}), "Ogres": None }},
        rounds: [(
            declare: {{ "Swordsman": Melee(targets: ["Ogre"]), "Mage": Cast(spell: "spell", segments: {segs}),
                        "Ogre": Other("roars") }},
            initiative: {{ "Party": 6, "Ogres": 1 }},
        )],
        dice: {{ ToHit: {{ "Swordsman": [15] }} }})"#
    ))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Lost segments + segments left = 10: a weapon strikes only if its speed factor fits
    /// the segments left, and then no earlier than the first segment after those lost; a
    /// spell is begun only if its casting time fits, and completes that much later. With
    /// the rule off, surprise ends with its segments.
    #[test]
    fn lost_and_left_make_ten(lost in 1u32..=6, sf in 1u32..=10, segs in 1u32..=10) {
        let left = 10 - lost;
        let log = play(surprised(lost, sf, segs, true));
        let blows = attacks(&log, "Swordsman", 1);
        if sf <= left {
            prop_assert_eq!(blows, vec![lost + 1]);
        } else {
            prop_assert!(blows.is_empty());
            prop_assert_eq!(idles(&log, "Swordsman", 1), vec!["house.surprise_carries_over"]);
        }
        if segs <= left {
            prop_assert_eq!(completes(&log, "Mage"), Some((1, segs + lost)));
        } else {
            prop_assert_eq!(completes(&log, "Mage"), None);
            prop_assert_eq!(idles(&log, "Mage", 1), vec!["house.surprise_carries_over"]);
        }
        let book = play(surprised(lost, sf, segs, false));
        prop_assert_eq!(attacks(&book, "Swordsman", 1).len(), 1);
        prop_assert_eq!(completes(&book, "Mage"), Some((1, segs)));
    }
}

/// A round made short counts a missile weapon's speed as a melee weapon's (PHB p.38: a
/// long bow's is 8): for every bow, crossbow and thrown weapon of the table, after `lost`
/// surprise segments it shoots only if its speed factor fits the segments left, and then
/// no earlier than the first segment after those lost; else the log says why not.
#[test]
fn missile_weapons_are_precluded_by_their_speed_factor_too() {
    for w in firststrike::tables::weapons().iter().filter(|w| w.missile) {
        for lost in [2u32, 4, 6] {
            let src = format!(
                r#"Scene(name: "x", setting: Indoors, seed: 2, rules: (house: (surprise_carries_over: true)),
                combatants: [
                    (name: "Archer", side: "Party", at: (0.0, 0.0), weapon: "{}", thac0: 15, hp: 50),
                    (name: "Ogre", side: "Ogres", at: (0.0, 20.0), hp: 200, thac0: 15),
                ],
                surprise: {{ "Party": D6({lost}), "Ogres": None }},
                rounds: [(
                    declare: {{ "Archer": Missile(targets: ["Ogre"]), "Ogre": Other("roars") }},
                    initiative: {{ "Party": 6, "Ogres": 1 }},
                )])"#,
                w.name
            );
            let log = play(scene(&src));
            let shots = attacks(&log, "Archer", 1);
            if w.speed_factor <= 10 - lost {
                assert!(!shots.is_empty(), "{} after {lost} lost", w.name);
                assert!(shots.iter().all(|&s| s > lost), "{}: {shots:?}", w.name);
            } else {
                assert!(
                    shots.is_empty(),
                    "{} (speed factor {}) shot with {} left: {shots:?}",
                    w.name,
                    w.speed_factor,
                    10 - lost
                );
                assert_eq!(
                    idles(&log, "Archer", 1),
                    vec!["house.surprise_carries_over"],
                    "{}",
                    w.name
                );
            }
        }
    }
}

/// The text's example: waiting on the cleric's 6-segment dispel magic, only weapons of
/// speed factor 4 or less strike that round (in segment 7), though everyone may move.
#[test]
fn waiting_on_dispel_magic_admits_speed_factor_4_or_less() {
    let log = play(firststrike::scene::load("scenes/house/await_dispel.ron").unwrap());
    assert_eq!(completes(&log, "Cleric"), Some((1, 6)));
    assert_eq!(
        attacks(&log, "Thief", 1),
        vec![7],
        "short sword, speed factor 3"
    );
    assert!(
        attacks(&log, "Fighter", 1).is_empty(),
        "long sword, speed factor 5"
    );
    assert_eq!(idles(&log, "Fighter", 1)[0], "house.await");
    assert!(
        log.iter()
            .any(|e| e.actor == "Fighter" && e.kind == K::Move),
        "the fighter still moves"
    );
    for sf in 1..=10 {
        let src = std::fs::read_to_string("scenes/house/await_dispel.ron").unwrap();
        let src = src.replace(
            r#"weapon: "short sword","#,
            &format!(r#"weapon: "short sword", speed_factor: {sf},"#),
        );
        let log = play(scene(&src));
        let expected = if sf <= 4 { vec![7] } else { vec![] };
        assert_eq!(attacks(&log, "Thief", 1), expected, "speed factor {sf}");
    }
}

/// Waiting on a blow: its speed factor counts as segments.
#[test]
fn waiting_on_a_blow_counts_its_speed_factor() {
    for (awaited_sf, own_sf) in [(3, 7), (3, 8), (6, 4), (6, 5), (1, 9)] {
        let s = scene(&format!(
            r#"Scene(name: "x", setting: Indoors, seed: 2, rules: (house: (await_enemy: true)),
            combatants: [
                (name: "First", side: "A", at: (0.0, 0.0), weapon: "long sword", speed_factor: {awaited_sf}, thac0: 15, hp: 50),
                (name: "Second", side: "A", at: (10.0, 0.0), weapon: "long sword", speed_factor: {own_sf}, thac0: 15, hp: 50),
                (name: "Ogre", side: "B", at: (5.0, 5.0), hp: 200),
            ],
            rounds: [(
                declare: {{ "First": Melee(targets: ["Ogre"]), "Second": Melee(targets: ["Ogre"]), "Ogre": Other("roars") }},
                initiative: {{ "A": 6, "B": 1 }},
                awaits: {{ "Second": "First" }},
            )])"#
        ));
        let log = play(s);
        let expected = if own_sf <= 10 - awaited_sf {
            vec![awaited_sf + 1]
        } else {
            vec![]
        };
        assert_eq!(
            attacks(&log, "Second", 1),
            expected,
            "{awaited_sf} then {own_sf}"
        );
    }
}

/// Move or strike: a foe within half a move is reached and struck once, no earlier than
/// the arrival; beyond half a move, a full move and no blow; several attacks come back
/// only in the second round of standing still.
#[test]
fn half_a_move_and_one_blow() {
    let log = play(firststrike::scene::load("scenes/house/move_or_strike.ron").unwrap());
    let arrive = |who: &str| {
        log.iter()
            .find(|e| e.actor == who && e.kind == K::Arrive)
            .map(|e| e.segment)
            .unwrap()
    };
    // 40 ft apart, both moving 9 ft a segment toward each other: they meet in segment 3.
    assert_eq!(arrive("Fighter"), 3);
    assert_eq!(attacks(&log, "Fighter", 1), vec![3]);
    assert!(attacks(&log, "Ranger", 1).is_empty(), "80 ft: a full move");
    assert_eq!(attacks(&log, "Ranger", 2).len(), 1, "one blow after moving");
    assert_eq!(
        attacks(&log, "Ranger", 3).len(),
        2,
        "2/1 in the second still round"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// For any distance, a 12" figure (120 ft a round indoors) closing on a standing foe
    /// strikes once if the gap is at most 60 ft, in the segment it arrives; otherwise not.
    #[test]
    fn within_half_a_move_strikes_once(gap in 1u32..=110) {
        let s = scene(&format!(
            r#"Scene(name: "x", setting: Indoors, seed: 2, rules: (house: (move_or_strike: true)),
            combatants: [
                (name: "Runner", side: "A", at: (0.0, 0.0), movement: 12, attacks: "2/1", weapon: "long sword", thac0: 15, hp: 50),
                (name: "Post", side: "B", at: ({x}.0, 0.0), hp: 200),
            ],
            rounds: [(declare: {{ "Runner": Melee(targets: ["Post"]), "Post": Other("stands") }},
                      initiative: {{ "A": 6, "B": 1 }})])"#,
            x = gap + 5
        ));
        let log = play(s);
        let blows = attacks(&log, "Runner", 1);
        if gap <= 60 {
            // 12 ft a segment: it arrives in the segment that covers the gap.
            prop_assert_eq!(blows, vec![gap.div_ceil(12)]);
        } else {
            prop_assert!(blows.is_empty());
        }
    }
}

/// Parting shots: the mage who steps away draws one blow at +4 from the orc fighting her;
/// the fighter's fighting withdrawal draws none.
#[test]
fn a_parting_shot_at_plus_4() {
    let log = play(firststrike::scene::load("scenes/house/parting_shot.ron").unwrap());
    let shots: Vec<&LogEvent> = log
        .iter()
        .filter(|e| {
            e.rule.id == "house.parting_shot" && matches!(e.payload, Payload::Attack { .. })
        })
        .collect();
    assert_eq!(shots.len(), 1);
    assert_eq!(
        (shots[0].actor.as_str(), shots[0].target.as_deref()),
        ("Orc 1", Some("Mage"))
    );
    assert_eq!(shots[0].segment, 1);
    let Payload::Attack { modifier, .. } = shots[0].payload else {
        unreachable!()
    };
    // The same orc, the same d20, on a mage who stays: the difference is the +4.
    let src = std::fs::read_to_string("scenes/house/parting_shot.ron").unwrap();
    let stays = src.replace(
        r#""Mage": Move(to: (10.0, -40.0)),"#,
        r#""Mage": Other("stays"),"#,
    );
    let log2 = play(scene(&stays));
    let plain = log2
        .iter()
        .find_map(|e| match e.payload {
            Payload::Attack { modifier, .. } if e.actor == "Orc 1" => Some(modifier),
            _ => None,
        })
        .unwrap();
    assert_eq!(modifier - plain, 4);
    assert!(
        log.iter()
            .any(|e| e.actor == "Orc 2" && e.kind == K::Idle && e.rule.id == "house.parting_shot"),
        "the fighting withdrawal is logged"
    );
    assert!(!log.iter().any(|e| e.actor == "Orc 2"
        && e.rule.id == "house.parting_shot"
        && matches!(e.payload, Payload::Attack { .. })));
    // Without the rule there is no parting shot, and a withdrawal is not a book action.
    let off = src.replace("rules: (house: (parting_shots: true)),", "");
    assert!(
        parse("x.ron", &off).is_err(),
        "Withdraw needs Take Initiative! or the rule"
    );
}

/// The timing switches are the book's: under "Take Initiative!" each is refused, located
/// on its switch, with the system's own rules named.
#[test]
fn timing_switches_are_refused_under_take_initiative() {
    for key in [
        "surprise_carries_over",
        "await_enemy",
        "move_or_strike",
        "parting_shots",
    ] {
        let src = format!(
            r#"Scene(name: "x", setting: Indoors, seed: 1,
            rules: (system: TakeInitiative, house: ({key}: true)),
            combatants: [(name: "A", side: "A", at: (0.0, 0.0))])"#
        );
        let err = parse("x.ron", &src).expect_err("refused").to_string();
        assert!(
            err.contains(key) && err.contains("x.ron:2:"),
            "{key}: {err}"
        );
    }
    // The others combine with either system.
    for key in [
        "critical_hits",
        "fumbles",
        "ganging_up",
        "weaponless_combat",
    ] {
        let src = format!(
            r#"Scene(name: "x", setting: Indoors, seed: 1,
            rules: (system: TakeInitiative, house: ({key}: true)),
            combatants: [(name: "A", side: "A", at: (0.0, 0.0))])"#
        );
        assert!(parse("x.ron", &src).is_ok(), "{key}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// A parting shot lands as the leaver goes, before anything else in segment 1: in the
    /// log it comes before the leaver's first step, and a leaver it fells lies where it
    /// stood, within the orc's reach — for any d20 and damage.
    #[test]
    fn a_parting_shot_lands_before_the_leaver_steps(d20 in 1i32..=20, damage in 1i32..=8, hp in 1i32..=8) {
        let src = std::fs::read_to_string("scenes/house/parting_shot.ron").unwrap();
        let start = src.find("(name: \"Mage\"").unwrap();
        let at = src[start..].find("hp:").unwrap() + start;
        let end = at + src[at..].find([',', ')']).unwrap();
        let mut src = format!("{}hp: {hp}{}", &src[..at], &src[end..]);
        src = src.replace(
            r#"dice: { ToHit: { "Orc 1": [12] }, Damage: { "Orc 1": [5] } },"#,
            &format!(r#"dice: {{ ToHit: {{ "Orc 1": [{d20}] }}, Damage: {{ "Orc 1": [{damage}] }} }},"#),
        );
        let log = play(scene(&src));
        let shot = log.iter().position(|e| e.rule.id == "house.parting_shot" && matches!(e.payload, Payload::Attack { .. }));
        let step = log.iter().position(|e| e.actor == "Mage" && e.kind == K::Move);
        let shot = shot.expect("the parting shot");
        if let Some(step) = step {
            prop_assert!(shot < step, "the mage stepped before the shot");
        }
        let felled = log.iter().any(|e| e.actor == "Mage" && e.kind == K::Down && e.round == 1 && e.segment == 1);
        if felled {
            let stepped_in_1 = log.iter().any(|e| e.actor == "Mage" && e.kind == K::Move && e.round == 1 && e.segment == 1);
            prop_assert!(!stepped_in_1, "a mage felled as it went still stepped away");
        }
    }
}

fn waits_on_a_walker(d: u32, act: &str) -> Scene {
    scene(&format!(
        r#"Scene(name: "w", setting: Indoors, seed: 4, rules: (house: (await_enemy: true)),
        combatants: [
            (name: "Walker", side: "M", at: (100.0, 100.0), movement: 12, hp: 50),
            (name: "Thief", side: "P", at: (0.0, 0.0), weapon: "dagger", thac0: 15, hp: 50),
            (name: "Post", side: "M", at: (0.0, 5.0), hp: 900, ac: 10),
        ],
        rounds: [(
            declare: {{ "Walker": {act}, "Thief": Melee(targets: ["Post"]), "Post": Hold }},
            initiative: {{ "P": 6, "M": 1 }},
            awaits: {{ "Thief": "Walker" }},
        )],
        dice: {{ ToHit: {{ "Thief": [15] }} }})"#,
        act = act.replace("D", &format!("{}.0", 100 + d))
    ))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// A wait on a figure that only moves lasts until its move ends (at 12 ft a segment
    /// indoors, the whole round at most); on a non-combat act, its one segment. The waiter
    /// strikes in the next segment, when its dagger (speed factor 2) fits what is left —
    /// never before the act it waits on, and never silently.
    #[test]
    fn a_wait_on_a_move_lasts_until_the_move_ends(d in 1u32..=140) {
        let log = play(waits_on_a_walker(d, "Move(to: (100.0, D))"));
        let moving = d.div_ceil(12).clamp(1, 10);
        let blows = attacks(&log, "Thief", 1);
        if 10 - moving >= 2 {
            prop_assert_eq!(blows, vec![moving + 1], "{} ft", d);
        } else {
            prop_assert!(blows.is_empty(), "{:?}", blows);
            prop_assert_eq!(idles(&log, "Thief", 1), vec!["house.await"]);
        }
        let log = play(waits_on_a_walker(d, r#"Other("looks about")"#));
        prop_assert_eq!(attacks(&log, "Thief", 1), vec![2]);
    }
}

/// A surprised charger with a weapon too slow for what surprise left of its round (a
/// two-handed sword, speed factor 10), `d` feet from a foe that does `foe`.
fn blowless_charge(lost: u32, d: u32, foe: &str) -> Scene {
    scene(&format!(
        r#"Scene(name: "x", setting: Indoors, seed: 2, rules: (house: (surprise_carries_over: true)),
        combatants: [
            (name: "Charger", side: "Party", at: (0.0, 0.0), weapon: "two-handed sword", reach_ft: 5.0, movement: 12, thac0: 15, hp: 500),
            (name: "Foe", side: "Ogres", at: (0.0, {d}.0), weapon: "long sword", reach_ft: 5.0, hp: 500, thac0: 15),
        ],
        surprise: {{ "Party": D6({lost}), "Ogres": None }},
        rounds: [(
            declare: {{ "Charger": Charge(targets: ["Foe"]), "Foe": {foe} }},
            initiative: {{ "Party": 6, "Ogres": 1 }},
        )])"#
    ))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// A charge the short round leaves without a blow still runs and makes contact (house
    /// rules: moving is never ruled out), and the foe it reaches strikes back at contact
    /// (DMG p.66) — standing idle, busy with a non-combat act, or already aiming at the
    /// charger — in the segment the charge arrives: after the lost segments, the gap past
    /// the charger's 5-ft reach at 24 ft a segment (12" doubled indoors). Never before
    /// contact; none in a round the charge does not arrive in.
    #[test]
    fn a_blowless_charge_still_meets_the_blow_struck_back(
        lost in 1u32..=6,
        // Past 1" of gap (within it a charge is fought as plain melee, DMG p.66).
        d in 16u32..=200,
        foe in prop::sample::select(vec!["Hold", r#"Other("waits")"#, r#"Melee(targets: ["Charger"])"#]),
    ) {
        let log = play(blowless_charge(lost, d, foe));
        prop_assert!(attacks(&log, "Charger", 1).is_empty(), "the charger has no blow");
        let arrival = lost + (d - 5).div_ceil(24).max(1);
        let back = attacks(&log, "Foe", 1);
        if arrival <= 10 {
            prop_assert_eq!(back.first().copied(), Some(arrival), "{:#?}", log);
        } else if foe != r#"Melee(targets: ["Charger"])"# {
            prop_assert!(back.is_empty(), "{:?}", back);
        }
    }
}
