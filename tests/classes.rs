//! Characters by class and level (issue "the DM's own encounter": classes as data): a
//! figure given `class` and `level` fights with the attack matrix's number, the fighter's
//! attack rate by level and the average hit points, unless the scene gives them itself;
//! a bad class or level is refused at its place.

use firststrike::sim::{EventKind as K, Payload};
use firststrike::testing::SceneRun;

/// Plays two rounds of `class` at `level` against a sturdy target: its blows' rolls
/// needed per round, and its hit points.
fn play(class: &str, level: u32, extra: &str) -> (Vec<Vec<i32>>, i32) {
    let src = format!(
        r#"Scene(name: "class", setting: Indoors, seed: 3,
  combatants: [
    (name: "Hero", side: "Blue", at: (10.0, 10.0), class: "{class}", level: {level}, weapon: "long sword", ac: 3{extra}),
    (name: "Post", side: "Red", at: (10.0, 15.0), ac: 0, hp: 1000, thac0: 30),
  ],
  rounds: [
    (declare: {{ "Hero": Melee(targets: ["Post"]), "Post": Hold }}),
    (declare: {{ "Hero": Melee(targets: ["Post"]), "Post": Hold }}),
  ])"#
    );
    let scene = firststrike::scene::parse("class.ron", &src).unwrap_or_else(|e| panic!("{e}"));
    let stats = firststrike::scene::figure::FigureStats::resolve(&scene.combatants[0]).unwrap();
    let mut run = SceneRun::new(scene, None, None);
    run.run_to_end();
    let needs = (1..=2)
        .map(|r| {
            run.log()
                .events
                .iter()
                .filter(|e| e.round == r && e.actor == "Hero" && matches!(e.kind, K::Hit | K::Miss))
                .map(|e| match e.payload {
                    Payload::Attack { needed, .. } => needed,
                    _ => panic!("an attack"),
                })
                .collect()
        })
        .collect();
    (needs, stats.hp)
}

#[test]
fn fighters_by_the_book() {
    // DMG p.74 at AC 0; DMG p.25: 1/1 to 6th, 3/2 from 7th (two blows in odd rounds, one
    // in even), 2/1 from 13th; average hit points 5.5 a level to 9th, then 3.
    assert_eq!(play("fighter", 1, ""), (vec![vec![20], vec![20]], 5));
    assert_eq!(play("fighter", 7, ""), (vec![vec![14, 14], vec![14]], 38));
    // 13th: nine d10 at 5.5 (49), then four levels at 3.
    assert_eq!(play("paladin", 13, ""), (vec![vec![8, 8], vec![8, 8]], 61));
    assert_eq!(play("ranger", 7, "").0, vec![vec![14, 14], vec![14]]);
    // What the scene gives wins.
    assert_eq!(
        play("fighter", 7, r#", attacks: "1/1", thac0: 10, hp: 9"#),
        (vec![vec![10], vec![10]], 9)
    );
}

#[test]
fn the_other_classes_by_their_matrices() {
    // A roll to hit AC 0 of 21 by the plain count, but the matrix's 20 stands for six
    // classes (AC 1 to AC -4 here): 20 at AC 0 (DMG p.74).
    assert_eq!(play("magic-user", 1, "").0, vec![vec![20], vec![20]]);
    assert_eq!(play("illusionist", 6, "").0, vec![vec![19], vec![19]]);
    assert_eq!(play("cleric", 4, "").0, vec![vec![18], vec![18]]);
    assert_eq!(play("druid", 10, "").0, vec![vec![14], vec![14]]);
    assert_eq!(play("thief", 9, "").0, vec![vec![16], vec![16]]);
    assert_eq!(play("assassin", 13, "").0, vec![vec![14], vec![14]]);
}

#[test]
fn a_bad_class_or_level_is_refused_at_its_place() {
    for (fields, place, says) in [
        (
            r#"class: "wizard", level: 3"#,
            "combatants[0].class",
            "unknown class",
        ),
        (
            r#"class: "fighter", level: 21"#,
            "combatants[0].level",
            "1 to 20",
        ),
        (
            r#"class: "fighter""#,
            "combatants[0].level",
            "needs its level",
        ),
        (r#"level: 4"#, "combatants[0].class", "needs its class"),
    ] {
        let src = format!(
            r#"Scene(name: "bad", setting: Indoors, seed: 1, combatants: [(name: "A", side: "B", at: (1.0, 1.0), {fields})], rounds: [])"#
        );
        let err = firststrike::scene::parse("bad.ron", &src)
            .unwrap_err()
            .to_string();
        assert!(err.contains(place) && err.contains(says), "{fields}: {err}");
    }
}

/// A figure given a class and level gets its hit points and THAC0 from them, so `check`
/// does not warn that it has 1 hit point or THAC0 20 (the log plays it with the class's);
/// a figure given neither still gets both warnings.
#[test]
fn a_classed_figure_is_not_warned_of_defaults_its_class_gives() {
    let text = r#"Scene(name: "w", setting: Indoors, seed: 1,
    combatants: [
        (name: "Mage", side: "Party", at: (0.0, 0.0), class: "magic-user", level: 5, ac: 10),
        (name: "Bare", side: "Party", at: (5.0, 0.0), ac: 10),
        (name: "Orc", side: "Orcs", at: (30.0, 0.0), monster: "orc"),
    ],
    rounds: [(declare: { "Mage": Melee(targets: ["Orc"]), "Bare": Melee(targets: ["Orc"]) })])"#;
    let scene = firststrike::scene::parse("w.ron", text).unwrap();
    let warned: Vec<String> = firststrike::scene::warnings("w.ron", text, &scene)
        .iter()
        .map(|w| w.to_string())
        .collect();
    let about = |who: &str, what: &str| warned.iter().any(|w| w.contains(who) && w.contains(what));
    assert!(!about("'Mage'", "hit points"), "{warned:?}");
    assert!(!about("'Mage'", "THAC0"), "{warned:?}");
    assert!(about("'Bare'", "hit points"), "{warned:?}");
    assert!(about("'Bare'", "THAC0"), "{warned:?}");
    let stats = firststrike::scene::figure::FigureStats::resolve(&scene.combatants[0]).unwrap();
    assert!(stats.hp > 1, "the class gives hit points: {}", stats.hp);
}

/// Changing a character's class in the editor's form changes its gear with it where the
/// gear was the old class's, and keeps what the DM chose (the new user's report: a fighter
/// made a magic-user kept the long sword and the chain).
#[cfg(feature = "viewer")]
#[test]
fn a_class_change_brings_its_own_gear_and_keeps_the_dms() {
    use firststrike::scene::CombatantSpec;
    use firststrike::viewer::redress;
    let kit = |c: &str| firststrike::tables::class(c).unwrap().kit.clone();
    let gear = |f: &CombatantSpec| (f.weapon.clone(), f.armor, f.ac);
    let mut f = CombatantSpec::default();
    redress(&mut f, Some("fighter"));
    let k = kit("fighter");
    assert_eq!(gear(&f), (Some(k.weapon), Some(k.armor), Some(k.ac)));
    assert_eq!((f.class.as_deref(), f.level), (Some("fighter"), Some(1)));
    // Every class from a fighter, and back: the kit follows the class.
    for class in firststrike::tables::classes() {
        let mut g = f.clone();
        redress(&mut g, Some(&class.name));
        let k = &class.kit;
        assert_eq!(
            gear(&g),
            (Some(k.weapon.clone()), Some(k.armor), Some(k.ac)),
            "{}",
            class.name
        );
        redress(&mut g, Some("fighter"));
        assert_eq!(gear(&g), gear(&f), "{} and back", class.name);
    }
    // The DM's own weapon stays; the armor the fighter's kit gave goes.
    let mut g = f.clone();
    g.weapon = Some("bastard sword".into());
    redress(&mut g, Some("magic-user"));
    assert_eq!(g.weapon.as_deref(), Some("bastard sword"));
    assert_eq!(
        (g.armor, g.ac),
        (Some(kit("magic-user").armor), Some(kit("magic-user").ac))
    );
    // A monster given a class keeps what its table gives (an orc shaman keeps AC 6 and its
    // long sword), and gets the class's kit only in place of an old class's.
    let mut shaman = CombatantSpec {
        monster: Some("orc".into()),
        ..CombatantSpec::default()
    };
    redress(&mut shaman, Some("cleric"));
    assert_eq!(gear(&shaman), (None, None, None));
    assert_eq!(shaman.class.as_deref(), Some("cleric"));
    // No class: the kit goes, the DM's weapon stays.
    redress(&mut g, None);
    assert_eq!(
        (g.class, g.weapon.as_deref(), g.armor, g.ac),
        (None, Some("bastard sword"), None, None)
    );
}

/// The "add monster" list's search: names holding what is typed, in any case, sorted.
#[test]
fn the_monster_list_finds_by_part_of_a_name_in_order() {
    let names = |t: &str| -> Vec<String> {
        firststrike::tables::monsters_matching(t)
            .iter()
            .map(|m| m.name.clone())
            .collect()
    };
    let giants = names("GIANT");
    assert!(giants.len() >= 6, "{giants:?}");
    assert!(giants.iter().all(|n| n.contains("giant")));
    assert!(giants.windows(2).all(|w| w[0] < w[1]), "{giants:?}");
    assert_eq!(names("").len(), firststrike::tables::monsters().len());
    assert!(names("zzz").is_empty());
}

/// "add monster" after a search: what is typed chooses; a search that finds nothing adds
/// nothing (the new user's report: the orc chosen before was added silently).
#[cfg(feature = "viewer")]
#[test]
fn add_monster_takes_what_the_search_finds_or_nothing() {
    use firststrike::viewer::monster_choice;
    let name = |t: &str, c: &str| monster_choice(t, c).map(|m| m.name.as_str());
    assert_eq!(name("", "orc"), Some("orc"));
    assert_eq!(name("troll", "orc"), Some("troll"));
    assert_eq!(
        name("GIANT", "frost giant"),
        Some("frost giant"),
        "the chosen one while it matches"
    );
    assert_eq!(name("orc shaman", "orc"), None);
}

/// Weapon specialization's rates as UA p.18 gives them, typed from the book's table (the
/// test's own copy, not the asset): (routines, per rounds) in levels 1-6, 7-12 and 13+.
fn ua_rate(weapon: &str, melee: bool, level: Option<u32>) -> (u32, u32) {
    let row: [(u32, u32); 3] = match (melee, weapon) {
        (true, _) => [(3, 2), (2, 1), (5, 2)],
        (false, "long bow" | "short bow") => [(2, 1), (3, 1), (4, 1)],
        (false, "light crossbow") => [(1, 1), (3, 2), (2, 1)],
        (false, "heavy crossbow") => [(1, 2), (1, 1), (3, 2)],
        (false, "dagger") => [(3, 1), (4, 1), (5, 1)],
        (false, "dart") => [(4, 1), (5, 1), (6, 1)],
        (false, _) => [(3, 2), (2, 1), (5, 2)],
    };
    match level.unwrap_or(1) {
        1..=6 => row[0],
        7..=12 => row[1],
        _ => row[2],
    }
}

/// `first`'s routines for the specialist in its `round` of attacking.
fn first_routines(weapon: &str, melee: bool, level: Option<u32>, round: u32) -> u32 {
    use firststrike::calc::{self, Defaults};
    let d = Defaults::default();
    let kind = if melee { "melee" } else { "missile" };
    let level = level.map_or(String::new(), |l| format!(" level={l}"));
    let spec = format!(
        "A: {kind} weapon={} specialist{level} d6=1 round={round}",
        weapon.replace(' ', "_")
    );
    let fig = match calc::parse_action(&spec, &d) {
        Ok(f) => f,
        // A rate with no attack in the asked round is refused, saying so: it has none.
        Err(e) if e.contains("has no attack in its round") => return 0,
        Err(e) => panic!("{spec}: {e}"),
    };
    let foe = calc::parse_action("O: melee sf=5 d6=6", &d).unwrap();
    let (acts, _) = calc::calculate(&[fig, foe], &d).unwrap_or_else(|e| panic!("{spec}: {e}"));
    acts[0].routines
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// A fighter or ranger specialized in its weapon (or a specialist given no class, read
    /// as levels 1-6) attacks, over two rounds, exactly as often as its specialist's rate
    /// says (UA p.18) — for every weapon, swung or shot or thrown, at every level — and
    /// `first` gives it the same routines each round as the played scene does.
    #[test]
    fn a_specialist_attacks_at_its_rate_by_level(
        weapon in proptest::sample::select(vec!["long sword", "mace", "dagger", "hand axe", "spear", "long bow", "short bow", "light crossbow", "heavy crossbow", "sling", "dart", "javelin"]),
        swing in proptest::bool::ANY,
        class in proptest::sample::select(vec![Some("fighter"), Some("ranger"), None]),
        level in 1u32..=20,
    ) {
        let shot_only = matches!(weapon, "long bow" | "short bow" | "light crossbow" | "heavy crossbow" | "sling" | "dart");
        let throws = matches!(weapon, "dagger" | "hand axe" | "spear" | "javelin");
        let melee = !shot_only && (swing || !throws);
        let level = class.map(|_| level);
        let who = class.map_or(String::new(), |c| format!(r#", class: "{c}", level: {}"#, level.unwrap()));
        let (act, gap) = if melee { ("Melee", 5.0) } else { ("Missile", 15.0) };
        let src = format!(
            r#"Scene(name: "specialist", setting: Indoors, seed: 5,
              combatants: [
                (name: "A", side: "A", at: (0.0, 0.0), weapon: "{weapon}", specialist: true, ac: 5, thac0: 10, hp: 500{who}),
                (name: "O", side: "O", at: (0.0, {gap}), ac: 0, hp: 1000, thac0: 30),
              ],
              rounds: [
                (declare: {{ "A": {act}(targets: ["O"]), "O": Hold }}, initiative: {{ "A": 6, "O": 1 }}),
                (declare: {{}}, initiative: {{ "A": 6, "O": 1 }}),
              ])"#
        );
        let scene = firststrike::scene::parse("s.ron", &src).unwrap_or_else(|e| panic!("{e}"));
        let mut run = SceneRun::new(scene, None, None);
        run.run_to_end();
        let per_round: Vec<u32> = (1..=2)
            .map(|r| {
                run.log()
                    .events
                    .iter()
                    .filter(|e| e.round == r && e.actor == "A" && matches!(e.kind, K::Hit | K::Miss))
                    .count() as u32
            })
            .collect();
        let (n, per) = ua_rate(weapon, melee, level);
        proptest::prop_assert_eq!(per_round[0] + per_round[1], n * 2 / per, "{} melee {} level {:?}: {:?}", weapon, melee, level, per_round);
        for r in 1..=2 {
            proptest::prop_assert_eq!(first_routines(weapon, melee, level, r), per_round[r as usize - 1], "first, round {}", r);
        }
    }
}

/// Only fighters and rangers specialize (UA p.18): a paladin or a magic-user marked a
/// specialist is refused at its place, and `first` refuses a level with no specialist.
#[test]
fn a_specialist_of_another_class_is_refused_at_its_place() {
    for class in ["paladin", "magic-user", "cleric", "thief"] {
        let src = format!(
            r#"Scene(name: "bad", setting: Indoors, seed: 1, combatants: [(name: "A", side: "B", at: (1.0, 1.0), class: "{class}", level: 3, weapon: "long sword", specialist: true)], rounds: [])"#
        );
        let err = firststrike::scene::parse("bad.ron", &src)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("combatants[0].specialist") && err.contains("UA p.18"),
            "{class}: {err}"
        );
    }
    let d = firststrike::calc::Defaults::default();
    for spec in [
        "A: melee weapon=long_sword level=7 d6=1",
        "A: melee specialist d6=1",
        "A: melee weapon=long_sword specialist level=21 d6=1",
    ] {
        assert!(
            firststrike::calc::parse_action(spec, &d).is_err(),
            "{spec} accepted"
        );
    }
}
