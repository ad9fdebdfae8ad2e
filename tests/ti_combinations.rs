//! "Take Initiative!": which actions go together in one round, for every figure and every
//! combination — not only the text's scenarios (Appendix A, Appendix B's notes, the
//! Glossary, §9). `first` and a scene refuse the same combinations, each at its place; the
//! engine plays a minor action as one attack and refuses a charge by an engaged figure.

mod common;

use common::firststrike;
use firststrike::sim::{EventKind as K, LogEvent};
use firststrike::testing::SceneRun;
use proptest::prelude::*;

/// The kinds `first` knows, each with the declaration a scene gives for it.
const KINDS: [(&str, &str); 12] = [
    ("melee sf=5", r#"Melee(targets: ["Orc"])"#),
    ("natural", r#"Melee(targets: ["Orc"])"#),
    ("missile weapon=short_bow", r#"Missile(targets: ["Orc"])"#),
    ("charge", r#"Charge(targets: ["Orc"])"#),
    (
        "cast level=1",
        r#"Cast(spell: "magic missile", target: Some("Orc"))"#,
    ),
    (
        "device",
        r#"Cast(spell: "wand of frost (cone of cold)", device: true)"#,
    ),
    ("move", "Move(to: Some((10.0, 40.0)))"),
    ("flee", "Flee(to: (10.0, 0.0))"),
    ("withdraw", "Withdraw(to: (10.0, 0.0))"),
    ("parry", r#"Parry(against: ["Orc"])"#),
    ("hide", "Hide"),
    ("turn", r#"Turn(targets: ["Orc"])"#),
];

/// Extra Appendix B rows a figure may add.
const ROWS: [&str; 14] = [
    "draw_weapon",
    "change_weapon",
    "open_door",
    "drop_weapon",
    "move_half",
    "move_full",
    "flee",
    "spell",
    "magic_item",
    "higher_ground",
    "hindered",
    "multiple_targets",
    "stand_up",
    "unarmed_m",
];

/// A one-round scene under "Take Initiative!": a mage declaring `act` with these extra
/// rows, an orc 60 ft off (not engaged).
fn scene(act: &str, rows: &[&str], extra_round: bool) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    let first = format!(
        r#"(declare: {{ "Mage": {act}, "Orc": Melee(targets: ["Mage"]) }}, modifiers: {{ "Mage": [{}] }})"#,
        rows.join(", ")
    );
    let rounds = if extra_round {
        format!(r#"(declare: {{ "Mage": Hold, "Orc": Hold }}), {first}"#)
    } else {
        first
    };
    format!(
        r#"Scene(name: "combination", setting: Indoors, seed: 1, rules: (system: TakeInitiative),
  combatants: [
    (name: "Mage", side: "Blue", at: (10.0, 10.0), weapon: "dagger", thac0: 20, ac: 10, hp: 20),
    (name: "Orc", side: "Red", at: (10.0, 70.0), weapon: "long sword", thac0: 19, ac: 6, hp: 20),
  ],
  rounds: [ {rounds} ])"#
    )
}

/// `first --system take-initiative --format json` on two actions: the JSON, or the
/// exit code and stderr when it fails.
fn ti_first(a: &str, b: &str) -> Result<serde_json::Value, (i32, String)> {
    let (code, out, err) = firststrike(&[
        "first",
        "--system",
        "take-initiative",
        "--format",
        "json",
        a,
        b,
    ]);
    match code {
        0 => Ok(serde_json::from_str(&out).expect("valid JSON")),
        _ => Err((code, err)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// `first` and a scene refuse the same combinations: one rule, asked from both places.
    #[test]
    fn first_and_a_scene_refuse_the_same_combinations(
        k in 0usize..KINDS.len(),
        rows in proptest::sample::subsequence(ROWS.to_vec(), 0..=3),
    ) {
        let (kind, act) = KINDS[k];
        let mods: Vec<String> = rows.iter().map(|r| format!("mod={r}")).collect();
        let spec = format!("Mage: {kind} {}", mods.join(" "));
        let by_first = firststrike::calc::take_initiative::parse(&spec);
        let by_scene = firststrike::scene::parse("combination.ron", &scene(act, &rows, false));
        prop_assert_eq!(
            by_first.is_err(),
            by_scene.is_err(),
            "first: {:?}\nscene: {:?}",
            by_first.as_ref().err(),
            by_scene.as_ref().err().map(|e| e.to_string())
        );
        if let Err(e) = by_scene {
            let text = e.to_string();
            prop_assert!(text.contains("rounds[0].modifiers.Mage"), "{}", text);
            prop_assert!(text.contains("Take Initiative!"), "names its rule: {}", text);
        }
    }

    /// A minor action takes away multiple attacks that round, whatever the rate; without
    /// one every routine is struck.
    #[test]
    fn a_minor_action_leaves_one_attack(routines in 2u32..=4, minor in proptest::sample::select(vec!["draw_weapon", "open_door", "drop_weapon", "change_weapon"])) {
        let src = |rows: &str| format!(
            r#"Scene(name: "minor", setting: Indoors, seed: 3, rules: (system: TakeInitiative),
  combatants: [
    (name: "Fighter", side: "Blue", at: (10.0, 10.0), weapon: "long sword", attacks: "{routines}/1", thac0: 10, ac: 3, hp: 200),
    (name: "Troll", side: "Red", at: (10.0, 15.0), weapon: "club", thac0: 19, ac: 4, hp: 200),
  ],
  rounds: [ (declare: {{ "Fighter": Melee(targets: ["Troll"]), "Troll": Melee(targets: ["Fighter"]) }}, modifiers: {{ {rows} }}) ])"#
        );
        let count = |rows: &str| {
            let s = firststrike::scene::parse("minor.ron", &src(rows)).unwrap();
            let mut run = SceneRun::new(s, None, None);
            run.run_to_end();
            let ev: Vec<LogEvent> = run.log().events.clone();
            let n = ev.iter().filter(|e| e.actor == "Fighter" && e.round == 1 && matches!(e.kind, K::Hit | K::Miss)).count();
            (n, ev)
        };
        let (plain, _) = count("");
        prop_assert_eq!(plain, routines as usize);
        let (with_minor, ev) = count(&format!(r#""Fighter": ["{minor}"]"#));
        prop_assert_eq!(with_minor, 1);
        prop_assert!(ev.iter().any(|e| e.actor == "Fighter" && e.rule.id == "ti.minor_one_attack"));
    }
}

/// `first` refuses what does not go together, with the rule's place, and exits 2.
#[test]
fn first_refuses_each_combination_with_its_rule() {
    let cases = [
        (
            "Mage: cast level=3 mod=move_full d10=3",
            "two normal actions",
        ),
        ("Mage: cast level=1 mod=move_half d10=3", "prevents casting"),
        (
            "Sword: melee sf=5 mod=draw_weapon mod=open_door d10=3",
            "minor action",
        ),
        ("Sword: move mod=flee d10=3", "two kinds of movement"),
        (
            "Sword: missile weapon=short_bow mod=multiple_targets",
            "several melee targets",
        ),
    ];
    for (spec, says) in cases {
        let (code, _out, err) = firststrike(&[
            "first",
            "--system",
            "take-initiative",
            spec,
            "Orc: melee sf=7 d10=3",
        ]);
        assert_eq!(code, 2, "{spec}: {err}");
        assert!(err.contains(says), "{spec}: {err}");
        assert!(err.contains("Take Initiative!"), "{spec}: {err}");
    }
    // Two minor actions with no other action are its normal action.
    let (code, _out, err) = firststrike(&[
        "first",
        "--system",
        "take-initiative",
        "Sword: wait mod=draw_weapon mod=open_door d10=3",
        "Orc: melee sf=7 d10=3",
    ]);
    assert_eq!(code, 0, "{err}");
}

/// §9: a figure with a foe within 1" at the round's start cannot charge: refused in the
/// scene for the first round, at the declaration; in a later round the engine logs why.
#[test]
fn an_engaged_figure_cannot_charge() {
    let src = |orc_y: f64, rounds: &str| {
        format!(
            r#"Scene(name: "engaged", setting: Indoors, seed: 1, rules: (system: TakeInitiative),
  combatants: [
    (name: "Knight", side: "Blue", at: (10.0, 10.0), weapon: "long sword", thac0: 12, ac: 2, hp: 60),
    (name: "Orc", side: "Red", at: (10.0, {orc_y}), weapon: "long sword", thac0: 19, ac: 6, hp: 60),
    (name: "Archer", side: "Red", at: (10.0, 80.0), weapon: "short bow", thac0: 19, ac: 7, hp: 60),
  ],
  rounds: [ {rounds} ])"#
        )
    };
    let charge = r#"(declare: { "Knight": Charge(targets: ["Archer"]), "Orc": Melee(targets: ["Knight"]), "Archer": Missile(targets: ["Knight"]) })"#;
    let err = firststrike::scene::parse("engaged.ron", &src(15.0, charge))
        .unwrap_err()
        .to_string();
    assert!(err.contains("rounds[0].declare.Knight"), "{err}");
    assert!(err.contains("engaged"), "{err}");
    // Twenty feet off, he may charge.
    assert!(firststrike::scene::parse("free.ron", &src(30.0, charge)).is_ok());
    // Engaged in the second round: the engine refuses the charge and says why.
    let hold = r#"(declare: { "Knight": Hold, "Orc": Hold, "Archer": Hold })"#;
    let s =
        firststrike::scene::parse("later.ron", &src(15.0, &format!("{hold}, {charge}"))).unwrap();
    let mut run = SceneRun::new(s, None, None);
    run.run_to_end();
    let ev = &run.log().events;
    assert!(
        ev.iter()
            .any(|e| e.round == 2 && e.actor == "Knight" && e.rule.id == "ti.charge_engaged"),
        "the refusal is logged"
    );
    assert!(
        !ev.iter()
            .any(|e| e.round == 2 && e.actor == "Knight" && matches!(e.kind, K::Hit | K::Miss)),
        "no charge blow"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// App. B, Weapon: a melee naming several targets adds 1 for each and strikes at the
    /// round's end — after every other blow of the round, whatever the dice — its
    /// routines at the targets in turn; `first` puts it on the same segment.
    #[test]
    fn several_melee_targets_strike_at_the_round_end_in_turn(
        routines in 1u32..=4,
        targets in 2usize..=3,
        d10 in 1u32..=10,
        orc_dice in proptest::collection::vec(1u32..=10, 3),
    ) {
        let orcs: Vec<String> = (1..=3).map(|k| format!("Orc {k}")).collect();
        let named: Vec<String> = orcs[..targets].iter().map(|o| format!("\"{o}\"")).collect();
        let mut init = format!(r#""Fighter": {d10}"#);
        for (o, d) in orcs.iter().zip(&orc_dice) {
            init.push_str(&format!(r#", "{o}": {d}"#));
        }
        let src = format!(
            r#"Scene(name: "several", setting: Indoors, seed: 5, rules: (system: TakeInitiative),
  combatants: [
    (name: "Fighter", side: "Blue", at: (10.0, 10.0), weapon: "long sword", attacks: "{routines}/1", thac0: 10, ac: 3, hp: 300),
    (name: "Orc 1", side: "Red", at: (10.0, 15.0), weapon: "spear", thac0: 19, ac: 6, hp: 300),
    (name: "Orc 2", side: "Red", at: (15.0, 10.0), weapon: "club", thac0: 19, ac: 6, hp: 300),
    (name: "Orc 3", side: "Red", at: (5.0, 10.0), weapon: "dagger", thac0: 19, ac: 6, hp: 300),
  ],
  rounds: [ (declare: {{ "Fighter": Melee(targets: [{}]), "Orc 1": Melee(targets: ["Fighter"]), "Orc 2": Melee(targets: ["Fighter"]), "Orc 3": Melee(targets: ["Fighter"]) }}, initiative: {{ {init} }}) ])"#,
            named.join(", ")
        );
        let s = firststrike::scene::parse("several.ron", &src).unwrap();
        let mut run = SceneRun::new(s, None, None);
        run.run_to_end();
        let ev = &run.log().events;
        // The total: d10 + the long sword's 5 + 1 for each target.
        let total = i64::from(d10) + 5 + targets as i64;
        let init = ev.iter().find(|e| e.actor == "Fighter" && matches!(e.kind, K::Initiative)).unwrap();
        prop_assert!(init.detail.contains(&format!("= {total}")), "{}", init.detail);
        let blows: Vec<&LogEvent> = ev.iter().filter(|e| e.round == 1 && matches!(e.kind, K::Hit | K::Miss)).collect();
        let own: Vec<&&LogEvent> = blows.iter().filter(|e| e.actor == "Fighter").collect();
        prop_assert_eq!(own.len(), routines as usize);
        for (k, e) in own.iter().enumerate() {
            prop_assert_eq!(e.segment, 20, "at the round's end");
            prop_assert_eq!(e.target.as_deref(), Some(orcs[k % targets].as_str()), "in turn");
            prop_assert_eq!(e.rule.id, "ti.multiple_targets");
        }
        let first_own = blows.iter().position(|e| e.actor == "Fighter").unwrap();
        prop_assert!(blows[first_own..].iter().all(|e| e.actor == "Fighter"), "after every other blow");
        // `first` agrees.
        let v = ti_first(&format!("Fighter: melee weapon=long_sword targets={targets} d10={d10}"), &format!("Orc: melee sf=7 d10={}", orc_dice[0]));
        prop_assert!(v.is_ok(), "{:?}", v.as_ref().err());
        let v = v.unwrap();
        prop_assert_eq!(v["actions"][0]["total"].as_i64(), Some(total));
        prop_assert_eq!(v["actions"][0]["acts"]["segment"].as_u64(), Some(20));
    }
}

/// The Dexterity adjustment to AC (PHB p.11): classes taken off the AC, from the table.
fn dex_ac_bonus(dex: u32) -> i32 {
    match dex {
        15 => 1,
        16 => 2,
        17 => 3,
        18 => 4,
        _ => 0,
    }
}

/// The AC a blow was rolled against (its payload).
fn struck_ac(e: &LogEvent) -> i32 {
    match &e.payload {
        firststrike::sim::Payload::Attack { ac, .. } => *ac,
        p => panic!("not an attack: {p:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// §9d and the Glossary: a figure casting a spell this round is struck without its
    /// Dexterity bonus to AC (the whole round, our reading), and at its own AC the round
    /// after; a charger without a Dexterity bonus is one class worse. The log shows the AC.
    #[test]
    fn a_caster_and_a_charger_are_struck_at_their_adjusted_ac(
        dex in 3u32..=18,
        ac in 0i32..=8,
        mage_d10 in 1u32..=10,
        fighter_d10 in 1u32..=10,
    ) {
        let src = format!(
            r#"Scene(name: "ac", setting: Indoors, seed: 9, rules: (system: TakeInitiative),
  combatants: [
    (name: "Mage", side: "Blue", at: (10.0, 10.0), dexterity: {dex}, ac: {ac}, thac0: 20, hp: 400),
    (name: "Fighter", side: "Red", at: (10.0, 15.0), weapon: "long sword", attacks: "2/1", thac0: 15, ac: 5, hp: 400),
  ],
  rounds: [
    (declare: {{ "Mage": Cast(spell: "magic missile", target: "Fighter"), "Fighter": Melee(targets: ["Mage"]) }}, initiative: {{ "Mage": {mage_d10}, "Fighter": {fighter_d10} }}),
    (declare: {{ "Mage": Hold, "Fighter": Melee(targets: ["Mage"]) }}, initiative: {{ "Mage": {mage_d10}, "Fighter": {fighter_d10} }}),
  ])"#
        );
        let s = firststrike::scene::parse("ac.ron", &src).unwrap();
        let mut run = SceneRun::new(s, None, None);
        run.run_to_end();
        let ev = &run.log().events;
        let blows = |round: u32| -> Vec<&LogEvent> {
            ev.iter().filter(|e| e.round == round && e.actor == "Fighter" && matches!(e.kind, K::Hit | K::Miss)).collect()
        };
        prop_assert!(!blows(1).is_empty() && !blows(2).is_empty());
        for e in blows(1) {
            // No worse than AC 10 for the bonus lost.
            prop_assert_eq!(struck_ac(e), (ac + dex_ac_bonus(dex)).min(10), "casting: {}", e.detail);
            if dex_ac_bonus(dex) > 0 {
                prop_assert!(e.detail.contains("(casting"), "{}", e.detail);
            }
        }
        for e in blows(2) {
            prop_assert_eq!(struck_ac(e), ac, "not casting: {}", e.detail);
        }

        // A charger: its Dexterity bonus gone, or one class worse without one.
        let src = format!(
            r#"Scene(name: "charge ac", setting: Indoors, seed: 9, rules: (system: TakeInitiative),
  combatants: [
    (name: "Knight", side: "Blue", at: (10.0, 10.0), weapon: "long sword", dexterity: {dex}, ac: {ac}, thac0: 12, hp: 400),
    (name: "Orc", side: "Red", at: (10.0, 40.0), weapon: "spear", thac0: 15, ac: 6, hp: 400),
  ],
  rounds: [ (declare: {{ "Knight": Charge(targets: ["Orc"]), "Orc": Melee(targets: ["Knight"]) }}, initiative: {{ "Knight": {mage_d10}, "Orc": {fighter_d10} }}) ])"#
        );
        let s = firststrike::scene::parse("charge.ron", &src).unwrap();
        let mut run = SceneRun::new(s, None, None);
        run.run_to_end();
        // No Dexterity AC, or one class worse without one; never worse than AC 10 for the
        // bonus lost (DMG p.66).
        let worse = if dex_ac_bonus(dex) > 0 { (ac + dex_ac_bonus(dex)).min(10) } else { ac + 1 };
        let orc: Vec<&LogEvent> = run.log().events.iter().filter(|e| e.round == 1 && e.actor == "Orc" && matches!(e.kind, K::Hit | K::Miss)).collect();
        prop_assert!(!orc.is_empty(), "the orc strikes the charger");
        for e in orc {
            prop_assert_eq!(struck_ac(e), worse, "{}", e.detail);
            prop_assert!(e.detail.contains("(charging)"), "{}", e.detail);
        }
    }
}

/// App. B notes 2, 3, 5 (iaijutsu): the weapon rows' numbers for a master, from the text —
/// draw +4 (a master 0), change +10 (a master of both weapons +5, of one still +10),
/// sheath +6 (a master half, 3) — the same in `first` and in a scene's initiative.
#[test]
fn iaijutsu_changes_the_weapon_rows_in_first_and_in_a_scene() {
    let cases = [
        ("draw_weapon", "", 4),
        ("draw_weapon", "One", 0),
        ("draw_weapon", "Both", 0),
        ("change_weapon", "", 10),
        ("change_weapon", "One", 10),
        ("change_weapon", "Both", 5),
        ("sheath_weapon", "", 6),
        ("sheath_weapon", "One", 3),
        ("sheath_weapon", "Both", 3),
    ];
    for (row, master, value) in cases {
        let total = 3 + 5 + value;
        // `first`
        let flag = match master {
            "" => String::new(),
            "One" => " iaijutsu".to_string(),
            _ => " iaijutsu=both".to_string(),
        };
        let v = ti_first(
            &format!("Samurai: melee sf=5 mod={row}{flag} d10=3"),
            "Orc: melee sf=7 d10=3",
        )
        .unwrap_or_else(|(_, err)| panic!("{row} {master}: {err}"));
        assert_eq!(
            v["actions"][0]["total"].as_i64(),
            Some(total),
            "{row} {master}"
        );
        // A scene.
        let field = if master.is_empty() {
            String::new()
        } else {
            format!(", iaijutsu: {master}")
        };
        let src = format!(
            r#"Scene(name: "iai", setting: Indoors, seed: 2, rules: (system: TakeInitiative),
  combatants: [
    (name: "Samurai", side: "Blue", at: (10.0, 10.0), weapon: "long sword", thac0: 12, ac: 4, hp: 50{field}),
    (name: "Orc", side: "Red", at: (10.0, 15.0), weapon: "spear", thac0: 19, ac: 6, hp: 50),
  ],
  rounds: [ (declare: {{ "Samurai": Melee(targets: ["Orc"]), "Orc": Melee(targets: ["Samurai"]) }}, initiative: {{ "Samurai": 3, "Orc": 3 }}, modifiers: {{ "Samurai": ["{row}"] }}) ])"#
        );
        let s = firststrike::scene::parse("iai.ron", &src).unwrap();
        let mut run = SceneRun::new(s, None, None);
        run.run_to_end();
        let init = run
            .log()
            .events
            .iter()
            .find(|e| e.actor == "Samurai" && matches!(e.kind, K::Initiative))
            .unwrap()
            .clone();
        assert!(
            init.detail.contains(&format!("= {total} ")),
            "{row} {master}: {}",
            init.detail
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// §2 for every answering weapon: the answer comes at the later of the expecting
    /// figure's total and the event, − 3 + a new d10 + the answer's own row — a weapon's
    /// speed, or the unarmed row for its size (App. B: S +2, M +3, L +5) for hands, feet or
    /// no weapon — and never before the event. Its own total is d10 + 5 (expecting).
    #[test]
    fn an_expected_event_is_answered_with_the_answers_own_row(
        s in 1u32..=10, o in 1u32..=10, r in 1u32..=10,
        arms in proptest::sample::select(vec![
            (r#"weapon: "long sword""#, 5),
            (r#"weapon: "dagger""#, 2),
            (r#"weapon: "hands""#, 3),
            (r#"weapon: "hands", size: S"#, 2),
            (r#"weapon: "feet", size: L"#, 5),
            ("size: M", 3),
            ("size: S", 2),
        ]),
    ) {
        let (arms, row) = arms;
        let src = format!(
            r#"Scene(name: "expect", setting: Indoors, seed: 2, rules: (system: TakeInitiative, house: (weaponless_combat: true)),
  combatants: [
    (name: "Sentry", side: "Blue", at: (10.0, 20.0), {arms}, thac0: 16, ac: 5, hp: 20),
    (name: "Orc", side: "Red", at: (10.0, 40.0), weapon: "battle axe", thac0: 19, ac: 6, hp: 15),
  ],
  rounds: [ (declare: {{ "Sentry": Expect(target: "Orc"), "Orc": Close(targets: ["Sentry"]) }},
             initiative: {{ "Sentry": {s}, "Orc": {o} }}, modifiers: {{ "Orc": ["open_door"] }}) ],
  dice: {{ Initiative: {{ "Sentry": [{r}] }} }})"#
        );
        let sc = firststrike::scene::parse("expect.ron", &src).unwrap();
        let mut run = SceneRun::new(sc, None, None);
        run.run_to_end();
        let ev = &run.log().events;
        // The orc: d10 + 6 (the door) + 4 (a short move).
        let (own, event) = (i64::from(s) + 5, i64::from(o) + 10);
        let answer = (own.max(event) - 3 + i64::from(r) + row).max(event);
        let said = ev.iter().find(|e| e.actor == "Sentry" && matches!(e.kind, K::Initiative) && e.target.is_some());
        if event <= 20 {
            let said = said.expect("the answer is logged");
            prop_assert!(said.detail.ends_with(&format!("= {answer}")), "{}", said.detail);
            let blows: Vec<u32> = ev.iter().filter(|e| e.actor == "Sentry" && matches!(e.kind, K::Hit | K::Miss)).map(|e| e.segment).collect();
            if answer <= 20 {
                prop_assert_eq!(blows, vec![answer as u32]);
            }
        }
    }
}

/// §2: an expect declared in a surprise segment is refused where it stands — before combat
/// is under way, surprise decides; in a round it is accepted.
#[test]
fn an_expect_before_combat_is_refused() {
    let src = |where_: &str| {
        format!(
            r#"Scene(name: "early", setting: Indoors, seed: 2, rules: (system: TakeInitiative),
  combatants: [
    (name: "Sentry", side: "Blue", at: (10.0, 20.0), weapon: "long sword", thac0: 16, ac: 5, hp: 20),
    (name: "Orc", side: "Red", at: (10.0, 40.0), weapon: "battle axe", thac0: 19, ac: 6, hp: 15),
  ],
  surprise: {{ "Red": D6(1), "Blue": None }},
  {where_})"#
        )
    };
    let early = src(
        r#"surprise_segments: [ { "Sentry": Expect(target: "Orc") } ], rounds: [ (declare: { "Sentry": Hold, "Orc": Hold }) ]"#,
    );
    let err = firststrike::scene::parse("early.ron", &early)
        .unwrap_err()
        .to_string();
    assert!(err.contains("surprise_segments[0].Sentry"), "{err}");
    assert!(err.contains("§2"), "{err}");
    let later = src(
        r#"surprise_segments: [ { "Sentry": Hold } ], rounds: [ (declare: { "Sentry": Expect(target: "Orc"), "Orc": Hold }) ]"#,
    );
    assert!(firststrike::scene::parse("later.ron", &later).is_ok());
}

/// App. B: an unarmed attack costs the row for the attacker's size, in `first` and a scene.
#[test]
fn an_unarmed_attack_costs_its_size_row() {
    for (size, row) in [("S", 2), ("M", 3), ("L", 5)] {
        let v = ti_first(
            &format!("Brawler: unarmed size={size} d10=4"),
            "Orc: melee sf=7 d10=3",
        )
        .unwrap_or_else(|(_, err)| panic!("{err}"));
        assert_eq!(v["actions"][0]["total"].as_i64(), Some(4 + row), "{size}");
        let src = format!(
            r#"Scene(name: "fists", setting: Indoors, seed: 2, rules: (system: TakeInitiative, house: (weaponless_combat: true)),
  combatants: [
    (name: "Brawler", side: "Blue", at: (10.0, 10.0), weapon: "hands", size: {size}, thac0: 16, ac: 8, hp: 30),
    (name: "Orc", side: "Red", at: (10.0, 15.0), weapon: "spear", thac0: 19, ac: 6, hp: 30),
  ],
  rounds: [ (declare: {{ "Brawler": Melee(targets: ["Orc"]), "Orc": Melee(targets: ["Brawler"]) }}, initiative: {{ "Brawler": 4, "Orc": 3 }}) ])"#
        );
        let s = firststrike::scene::parse("fists.ron", &src).unwrap();
        let mut run = SceneRun::new(s, None, None);
        run.run_to_end();
        let init = run
            .log()
            .events
            .iter()
            .find(|e| e.actor == "Brawler" && matches!(e.kind, K::Initiative))
            .unwrap()
            .clone();
        assert!(
            init.detail.contains(&format!("= {} ", 4 + row)),
            "{size}: {}",
            init.detail
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// §4b for any dice: a figure whose foe turns to flee from it may change its action to
    /// pursue only if its base d10 comes after the fleer's total; then at base + 2 + a new
    /// d10 + 8 (a long move), its own blow dropped. Otherwise it stays, and says why.
    #[test]
    fn a_pursuer_changes_to_pursue_only_after_the_fleer(p in 1u32..=10, d in 1u32..=10, r in 1u32..=10) {
        let src = format!(
            r#"Scene(name: "pursue", setting: Indoors, seed: 4, rules: (system: TakeInitiative),
  combatants: [
    (name: "Pursuer", side: "Red", at: (20.0, 20.0), weapon: "long sword", thac0: 15, ac: 5, hp: 300),
    (name: "Defender", side: "Blue", at: (20.0, 25.0), weapon: "short sword", thac0: 17, ac: 6, hp: 300),
  ],
  rounds: [ (declare: {{ "Pursuer": Melee(targets: ["Defender"]), "Defender": Flee(to: (20.0, 400.0)) }},
             initiative: {{ "Pursuer": {p}, "Defender": {d} }},
             change: {{ "Pursuer": Close(targets: ["Defender"]) }}) ],
  dice: {{ Initiative: {{ "Pursuer": [{r}] }} }})"#
        );
        let sc = firststrike::scene::parse("pursue.ron", &src).unwrap();
        let mut run = SceneRun::new(sc, None, None);
        run.run_to_end();
        let ev = &run.log().events;
        let fleer_total = (i64::from(d) - 2).max(1) as u32;
        let changed = ev.iter().find(|e| e.actor == "Pursuer" && matches!(e.kind, K::Initiative) && e.detail.starts_with("changes to"));
        let own_blow_at = p + 5;
        if p > fleer_total {
            let c = changed.expect("it changes to pursue");
            prop_assert_eq!(c.segment, fleer_total);
            let total = i64::from(p + 2 + r + 8).max(i64::from(fleer_total) + 1);
            prop_assert!(c.detail.contains(&format!("= {total} ")), "{}", c.detail);
            // Its blow on its own total is gone (only the free attack as the foe turns).
            let blows: Vec<u32> = ev.iter().filter(|e| e.actor == "Pursuer" && e.round == 1 && matches!(e.kind, K::Hit | K::Miss)).map(|e| e.segment).collect();
            prop_assert!(!blows.contains(&own_blow_at) || own_blow_at == fleer_total, "{:?}", blows);
        } else {
            prop_assert!(changed.is_none());
            if own_blow_at > fleer_total {
                prop_assert!(ev.iter().any(|e| e.actor == "Pursuer" && e.rule.id == "ti.pursue_change"), "it says why it stays");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// §3 for every placing: a parry meets no blow from behind (our reading: the rear arc,
    /// 135° or more off the first attacker it names) and no missile unless the parrier is
    /// a monk. A 9th-level fighter's −6 is divided across the attacks it meets (a short
    /// bow's two shots are two attacks).
    #[test]
    fn a_parry_meets_no_blow_from_behind_and_missiles_only_for_a_monk(
        k in 1u32..8, missile in any::<bool>(), monk in any::<bool>(), d1 in 2u32..=10, d2 in 2u32..=10,
    ) {
        let angle = f64::from(k) * std::f64::consts::FRAC_PI_4;
        let r = if missile { 30.0 } else { 5.0 };
        // North of the parrier is -y; the second attacker stands k × 45° round from north.
        let (x2, y2) = (50.0 + r * angle.sin(), 50.0 - r * angle.cos());
        let arms = if missile { r#"weapon: "short bow""# } else { r#"weapon: "mace""# };
        let act2 = if missile { r#"Missile(targets: ["Parrier"])"# } else { r#"Melee(targets: ["Parrier"])"# };
        let src = format!(
            r#"Scene(name: "parry", setting: Indoors, seed: 3, rules: (system: TakeInitiative),
  combatants: [
    (name: "Parrier", side: "Blue", at: (50.0, 50.0), weapon: "long sword", hit_dice: 9, fighter: true, monk: {monk}, thac0: 12, ac: 4, hp: 300),
    (name: "First", side: "Red", at: (50.0, 45.0), weapon: "mace", thac0: 15, ac: 6, hp: 300),
    (name: "Second", side: "Red", at: ({x2:.3}, {y2:.3}), {arms}, thac0: 15, ac: 6, hp: 300),
  ],
  rounds: [ (declare: {{ "Parrier": Parry(against: ["First", "Second"]), "First": Melee(targets: ["Parrier"]), "Second": {act2} }},
             initiative: {{ "Parrier": 1, "First": {d1}, "Second": {d2} }}) ],
  // The shots fly into the parrier's melee with First (DMG p.63): the dice keep the parrier.
  dice: {{ IntoMelee: {{ "Second": [1, 1, 1, 1] }} }})"#
        );
        let sc = firststrike::scene::parse("parry.ron", &src).unwrap();
        let mut run = SceneRun::new(sc, None, None);
        run.run_to_end();
        let ev = &run.log().events;
        let behind = (3..=5).contains(&k);
        let meets_second = !behind && (!missile || monk);
        let parried = |who: &str| -> Vec<bool> {
            ev.iter().filter(|e| e.actor == who && e.round == 1 && matches!(e.kind, K::Hit | K::Miss)).map(|e| e.detail.contains("parried")).collect()
        };
        let (first, second) = (parried("First"), parried("Second"));
        prop_assert!(!first.is_empty() && !second.is_empty());
        prop_assert!(first.iter().all(|p| *p), "the first attacker, faced, is parried");
        prop_assert!(second.iter().all(|p| *p == meets_second), "behind {behind}, missile {missile}, monk {monk}: {second:?}");
        // A short bow shoots twice a round (2/1); a mace strikes once.
        let second_attacks = if missile { 2 } else { 1 };
        let n = 1 + if meets_second { second_attacks } else { 0 };
        let share = 6 / n + usize::from(6 % n > 0);
        let said = format!("parried -{share}");
        prop_assert!(ev.iter().any(|e| e.actor == "First" && e.detail.contains(&said)), "{}", said);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// App. B note 6: casting is +6 + the spell's level with spell cards and +8 + level
    /// without (the scene's `spell_cards: Without`, `first`'s `nocards`); both agree. "Max
    /// 20" caps the row (our reading: capping the total would make casting without cards
    /// faster than with them whenever the total passes 20).
    #[test]
    fn casting_without_spell_cards_costs_two_more(level in 1u32..=9, d10 in 1u32..=10, cards in any::<bool>()) {
        let total = i64::from(d10 + level + if cards { 6 } else { 8 });
        let flag = if cards { "" } else { " nocards" };
        let v = ti_first(&format!("Mage: cast level={level} d10={d10}{flag}"), "Orc: melee sf=7 d10=3");
        prop_assert!(v.is_ok(), "{:?}", v.as_ref().err());
        let v = v.unwrap();
        prop_assert_eq!(v["actions"][0]["total"].as_i64(), Some(total));
        let option = if cards { "" } else { ", spell_cards: Without" };
        let src = format!(
            r#"Scene(name: "cards", setting: Indoors, seed: 2, rules: (system: TakeInitiative{option}),
  combatants: [
    (name: "Mage", side: "Blue", at: (10.0, 10.0), thac0: 20, ac: 9, hp: 30),
    (name: "Orc", side: "Red", at: (10.0, 60.0), weapon: "spear", thac0: 19, ac: 6, hp: 30),
  ],
  rounds: [ (declare: {{ "Mage": Cast(spell: "spell", segments: {level}), "Orc": Hold }}, initiative: {{ "Mage": {d10}, "Orc": 3 }}) ])"#
        );
        let s = firststrike::scene::parse("cards.ron", &src).unwrap();
        let mut run = SceneRun::new(s, None, None);
        run.run_to_end();
        let init = run.log().events.iter().find(|e| e.actor == "Mage" && matches!(e.kind, K::Initiative)).unwrap().clone();
        prop_assert!(init.detail.contains(&format!("= {total} ")), "{}", init.detail);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A free attack at a fleer (§4) needs a weapon in hand: a foe still drawing, changing
    /// or picking up its weapon when the fleer turns (before its own total), or getting up
    /// off the floor (the whole round), swings nothing, as it strikes nothing at a
    /// charger's contact (§9c); one whose weapon is ready, or whose handling is done by
    /// then, swings.
    #[test]
    fn a_free_attack_at_a_fleer_needs_a_weapon_in_hand(
        row in prop::sample::select(vec!["", "draw_weapon", "change_weapon", "pick_up_weapon", "stand_up"]),
        fleer in 1u32..=10,
        foe in 1u32..=10,
    ) {
        let rows = if row.is_empty() { String::new() } else { format!(r#""Foe": ["{row}"]"#) };
        // Standing up and picking a weapon up are starred rows: nothing beside them.
        let act = if matches!(row, "stand_up" | "pick_up_weapon") {
            r#"Other("busy")"#
        } else {
            r#"Melee(targets: ["Other"])"#
        };
        let src = format!(
            r#"Scene(name: "flee", setting: Indoors, seed: 5, rules: (system: TakeInitiative),
                combatants: [
                    (name: "Thief", side: "Blue", at: (50.0, 50.0), weapon: "short sword", thac0: 16, ac: 7, hp: 40),
                    (name: "Foe", side: "Red", at: (50.0, 55.0), weapon: "long sword", thac0: 16, ac: 5, hp: 30),
                    (name: "Other", side: "Green", at: (90.0, 90.0), weapon: "long sword", thac0: 16, ac: 5, hp: 30),
                ],
                rounds: [(
                    declare: {{ "Thief": Flee(to: (50.0, 0.0)), "Foe": {act}, "Other": Other("waits") }},
                    modifiers: {{ {rows} }},
                    initiative: {{ "Thief": {fleer}, "Foe": {foe}, "Other": 5 }},
                )])"#
        );
        let mut run = SceneRun::new(firststrike::scene::parse("flee.ron", &src).unwrap(), None, None);
        run.run_to_end();
        let log: Vec<LogEvent> = run.log().events.clone();
        let total = |who: &str| -> Option<u32> {
            log.iter()
                .filter(|e| e.actor == who && e.rule.id.starts_with("ti."))
                .find_map(|e| e.detail.split("→ segment ").nth(1)?.split_whitespace().next()?.parse().ok())
        };
        let fled_on = total("Thief").expect("the fleer's total");
        let free = log.iter().any(|e| {
            e.actor == "Foe" && matches!(e.kind, K::Hit | K::Miss) && e.detail.contains("turns to flee")
        });
        let in_hand = match row {
            "" => true,
            "stand_up" => false,
            _ => total("Foe").is_some_and(|own| own <= fled_on),
        };
        prop_assert_eq!(free, in_hand, "row {:?}, fleer {} (segment {}), foe {:?}: {:#?}", row, fleer, fled_on, total("Foe"), log);
    }
}

/// A key that means nothing for a kind is refused with exit 2, naming the kinds it is
/// for, never dropped or misread: ammo on a melee took the place of the weapon's speed,
/// `far` on a device added nothing (the tester's totals).
#[test]
fn keys_that_do_not_belong_to_the_kind_are_refused() {
    let kinds = [
        "melee sf=5",
        "natural",
        "unarmed",
        "missile weapon=long_bow",
        "move-missile weapon=long_bow",
        "hurl weapon=spear",
        "charge",
        "cast level=2",
        "move",
        "flee",
        "withdraw",
        "parry",
        "expect",
        "hide",
        "turn",
        "device",
        "wait",
        "block",
    ];
    let keys: [(&str, &[&str]); 4] = [
        ("ammo=arrows", &["missile", "move-missile"]),
        ("far", &["move", "move-missile"]),
        ("nocards", &["cast"]),
        ("level=3", &["cast"]),
    ];
    for kind in kinds {
        let word = kind.split_whitespace().next().unwrap();
        for (key, belongs) in keys {
            // `level=` twice is another error; a cast already has its level.
            if word == "cast" && key.starts_with("level") {
                continue;
            }
            let got = ti_first(&format!("A: {kind} {key} d10=3"), "B: melee sf=7 d10=5");
            if belongs.contains(&word) {
                assert!(got.is_ok(), "{kind} {key}: {got:?}");
            } else {
                let (code, err) = got.expect_err(&format!("{kind} {key} accepted"));
                assert_eq!(code, 2, "{kind} {key}: {err}");
                let name = key.trim_end_matches(|c: char| c != '=' && !c.is_alphabetic());
                assert!(
                    err.contains(name.split('=').next().unwrap()),
                    "{kind} {key}: {err}"
                );
                assert!(err.contains(belongs[0]), "{kind} {key}: {err}");
            }
        }
    }
}

/// A fleer's d10 line: does it hold the flee row, and the free attacks at it.
fn flee_at(d: f64, reach: f64, aims: bool) -> (bool, usize, bool) {
    let act = if aims {
        r#"Melee(targets: ["Runner"])"#
    } else {
        "Hold"
    };
    let src = format!(
        r#"Scene(name: "flee", setting: Indoors, seed: 3, rules: (system: TakeInitiative),
            combatants: [
                (name: "Runner", side: "A", at: (0.0, 0.0), weapon: "long sword", thac0: 16, ac: 5, hp: 500),
                (name: "Foe", side: "B", at: (0.0, {d:.2}), weapon: "spear", reach_ft: {reach:.1}, thac0: 16, ac: 5, hp: 500),
            ],
            rounds: [(declare: {{ "Runner": Flee(to: (0.0, -200.0)), "Foe": {act} }}, initiative: {{ "Runner": 6, "Foe": 8 }})])"#
    );
    let s = firststrike::scene::parse("flee.ron", &src).unwrap_or_else(|e| panic!("{e}"));
    let mut r = SceneRun::new(s, None, Some(1));
    r.run_to_end();
    let ev = &r.log().events;
    let row = ev
        .iter()
        .any(|e| e.actor == "Runner" && e.detail.contains("Turn to flee"));
    let free = ev
        .iter()
        .filter(|e| e.actor == "Foe" && matches!(e.kind, K::Hit | K::Miss))
        .filter(|e| e.detail.contains("free attack"))
        .count();
    // Whether the same figure, charging instead, is refused as engaged (§9), where the
    // scene is checked.
    let charge = src.replace(r#"Flee(to: (0.0, -200.0))"#, r#"Charge(targets: ["Foe"])"#);
    let engaged = firststrike::scene::parse("charge.ron", &charge)
        .is_err_and(|e| e.to_string().contains("already engaged"));
    (row, free, engaged)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// One meaning of "in melee" for fleeing and charging (§4, §9): a figure with a foe
    /// aiming its blows at it within 1" (10 ft), or standing within the foe's reach, turns
    /// to flee (the -2 row) and draws that foe's free attack; one that far is also engaged
    /// and may not charge. A foe 7 ft off once forbade the charge, yet the flee from it was
    /// a plain move with no free attack.
    #[test]
    fn in_melee_means_the_same_for_fleeing_and_charging(
        d in 3.0f64..16.0,
        reach in prop::sample::select(vec![5.0f64, 7.5]),
        aims in any::<bool>(),
    ) {
        // The scene states the distance to the hundredth of a foot: judged as stated.
        let d = (d * 100.0).round() / 100.0;
        let (row, free, engaged) = flee_at(d, reach, aims);
        let within = d <= reach || (aims && d <= 10.0);
        prop_assert_eq!(row, within, "flee row at {} ft (reach {}, aims {})", d, reach, aims);
        prop_assert_eq!(free, usize::from(within), "free attacks at {} ft (reach {}, aims {})", d, reach, aims);
        if within && aims {
            prop_assert!(engaged, "in melee at {} ft but free to charge", d);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A charge declared to hurl its weapon (§9h) either hurls it — when it carries from
    /// the half-way point: the thrown row on the total, a throw, no blow at the end — or
    /// keeps it: the charge's row, and the charge's blow at contact (§9: a charge gives a
    /// single melee attack at the end of its movement). It once neither threw nor struck.
    #[test]
    fn a_charge_hurls_its_weapon_or_strikes_with_it(
        weapon in prop::sample::select(vec!["dagger", "hand axe", "javelin", "spear"]),
        gap in 20.0f64..150.0,
    ) {
        let src = format!(
            r#"Scene(name: "hurl", setting: Indoors, seed: 3, rules: (system: TakeInitiative),
                combatants: [
                    (name: "C", side: "A", at: (0.0, 0.0), weapon: "{weapon}", movement: 12, thac0: 16, ac: 5, hp: 500),
                    (name: "O", side: "B", at: (0.0, {gap:.1}), weapon: "club", thac0: 16, ac: 5, hp: 500),
                ],
                rounds: [(declare: {{ "C": Charge(targets: ["O"], hurl: true), "O": Hold }}, initiative: {{ "C": 2, "O": 9 }})])"#
        );
        let s = firststrike::scene::parse("hurl.ron", &src).unwrap_or_else(|e| panic!("{e}"));
        let mut r = SceneRun::new(s, None, Some(1));
        r.run_to_end();
        let ev = &r.log().events;
        let (short, _, long) = firststrike::tables::weapon(weapon)
            .unwrap()
            .range_ft(firststrike::rules::distance::Setting::Indoors)
            .unwrap();
        let carries = gap / 2.0 <= long + 1e-6 && short > 0.0;
        let throws = ev.iter().any(|e| e.actor == "C" && e.detail.contains("hurls its weapon"));
        let contact_blow = ev.iter().any(|e| {
            e.actor == "C" && matches!(e.kind, K::Hit | K::Miss) && e.detail.contains("the charge's blow")
        });
        let arrived = ev.iter().any(|e| e.actor == "C" && e.kind == K::Arrive);
        let charge_row = ev.iter().any(|e| e.actor == "C" && e.detail.contains("Charging"));
        prop_assert_eq!(throws, carries, "{} at {} ft: {:#?}", weapon, gap, ev);
        prop_assert_eq!(charge_row, !carries, "{} at {} ft", weapon, gap);
        if !carries && arrived {
            prop_assert!(contact_blow, "{} at {} ft: kept its weapon yet no blow: {:#?}", weapon, gap, ev);
        }
        if carries {
            prop_assert!(!contact_blow, "{} at {} ft: hurled and struck with it", weapon, gap);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// §9 (italic line) and the Glossary: a charge gives a single melee attack at the end of
    /// its move — whatever the charger holds (one weapon, a weapon in each hand, a
    /// monster's claw/claw/bite), with a minor action or without, and whatever the dice. It
    /// once struck with every attack of its routine.
    #[test]
    fn a_charge_strikes_a_single_attack(
        who in prop::sample::select(vec![
            r#"weapon: "long sword""#,
            r#"weapon: "long sword", off_hand: Some("dagger")"#,
            r#"monster: "owlbear""#,
            r#"monster: "bugbear""#,
        ]),
        minor in prop::bool::ANY,
        dc in 1u32..=10,
        dd in 1u32..=10,
        gap in 25.0f64..60.0,
    ) {
        let modifiers = if minor { r#"modifiers: { "C": ["draw_weapon"] },"# } else { "" };
        let src = format!(
            r#"Scene(name: "one", setting: Indoors, seed: 3, rules: (system: TakeInitiative),
                combatants: [
                    (name: "C", side: "A", at: (0.0, 0.0), {who}, movement: 12, thac0: 16, ac: 5, hp: 900),
                    (name: "O", side: "B", at: (0.0, {gap:.1}), weapon: "club", thac0: 16, ac: 5, hp: 900),
                ],
                rounds: [(declare: {{ "C": Charge(targets: ["O"]), "O": Hold }}, {modifiers}
                          initiative: {{ "C": {dc}, "O": {dd} }})])"#
        );
        let s = firststrike::scene::parse("one.ron", &src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let mut r = SceneRun::new(s, None, Some(1));
        r.run_to_end();
        let ev = &r.log().events;
        let arrived = ev.iter().any(|e| e.actor == "C" && e.kind == K::Arrive);
        let attacks = ev.iter().filter(|e| e.actor == "C" && matches!(e.kind, K::Hit | K::Miss)).count();
        prop_assert_eq!(attacks, usize::from(arrived), "{}: {:#?}", src, ev);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// §11a: two figures racing to a point arrive together on a tied total; neither attacks
    /// unless one (or both) charged, and then they attack by weapon length — with no charge
    /// bonus, as a charge to a point has no known foe (note 4). Whatever the weapons and the
    /// tied d10, and whichever of the two charge. It once struck nobody ("no target left
    /// standing").
    #[test]
    fn racers_to_a_point_fight_only_if_one_charged(
        a_weapon in prop::sample::select(vec!["dagger", "long sword", "spear", "halberd"]),
        b_weapon in prop::sample::select(vec!["dagger", "long sword", "spear", "halberd"]),
        d in 1u32..=10,
        a_charges in prop::bool::ANY,
        b_charges in prop::bool::ANY,
    ) {
        let act = |c: bool| if c { "Charge(to: Some((60.0, 80.0)))" } else { "Move(to: (60.0, 80.0))" };
        // A plain move is +4 or +8 and a charge +4: the movers' totals tie only when both
        // add the same, so the one who only moves starts as near as the charger's move lets
        // it arrive by the same total.
        let src = format!(
            r#"Scene(name: "race", setting: Indoors, seed: 7, rules: (system: TakeInitiative),
                combatants: [
                    (name: "A", side: "Blue", at: (10.0, 10.0), weapon: "{a_weapon}", movement: 12, thac0: 17, ac: 6, hp: 900),
                    (name: "B", side: "Red", at: (110.0, 10.0), weapon: "{b_weapon}", movement: 12, thac0: 17, ac: 5, hp: 900),
                ],
                rounds: [(declare: {{ "A": {}, "B": {} }}, initiative: {{ "A": {d}, "B": {d} }})])"#,
            act(a_charges),
            act(b_charges)
        );
        let s = firststrike::scene::parse("race.ron", &src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let mut r = SceneRun::new(s, None, Some(1));
        r.run_to_end();
        let ev = &r.log().events;
        let blows: Vec<&LogEvent> = ev.iter().filter(|e| matches!(e.kind, K::Hit | K::Miss)).collect();
        let arrived = |n: &str| {
            ev.iter()
                .find(|e| e.actor == n && e.detail.contains("(60.0, 80.0)"))
                .map(|e| (e.round, e.segment))
        };
        let together = arrived("A").is_some() && arrived("A") == arrived("B");
        if !(a_charges || b_charges) {
            prop_assert!(blows.is_empty(), "nobody charged, yet: {:#?}", blows);
            return Ok(());
        }
        // A charger strikes the foe it meets there, once, without the charge's +2.
        for (who, charges) in [("A", a_charges), ("B", b_charges)] {
            let own: Vec<_> = blows.iter().filter(|e| e.actor == who).collect();
            if charges && together {
                prop_assert_eq!(own.len(), 1, "{} charged: {:#?}", who, ev);
                prop_assert!(own[0].detail.contains("no charge bonus"), "{}", own[0].detail);
            }
            if !charges {
                prop_assert!(own.is_empty(), "{} only moved yet struck: {:#?}", who, own);
            }
        }
        // Both charged and met on the same total: the longer weapon first.
        if a_charges && b_charges && blows.len() == 2 {
            let reach = |w: &str| firststrike::tables::weapon(w).unwrap().length_ft;
            let (ra, rb) = (reach(a_weapon), reach(b_weapon));
            if ra != rb {
                let longer = if ra > rb { "A" } else { "B" };
                prop_assert_eq!(blows[0].actor.as_str(), longer, "{:#?}", blows);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// §4 (and §5): a pursuer with a weapon usable at range throws it on its total at a
    /// figure that turned to flee before it, with the +2 rear bonus, less the range's
    /// penalty; a throw that comes first (a lower total) or together has no back to aim
    /// at. Whatever the dice and the distance within the dagger's range. It had only the
    /// range's penalty.
    #[test]
    fn a_throw_at_a_fleeing_back_has_the_rear_bonus(
        dp in 1u32..=10, dd in 1u32..=10, gap in 12.0f64..30.0,
    ) {
        let src = format!(
            r#"Scene(name: "throw", setting: Indoors, seed: 3, rules: (system: TakeInitiative),
                combatants: [
                    (name: "Pursuer", side: "A", at: (0.0, 0.0), weapon: "dagger", movement: 12, thac0: 16, ac: 5, hp: 900),
                    (name: "Defender", side: "B", at: (0.0, {gap:.1}), weapon: "club", movement: 3, thac0: 16, ac: 5, hp: 900),
                ],
                rounds: [(declare: {{ "Pursuer": Missile(targets: ["Defender"]), "Defender": Flee(to: (0.0, 200.0)) }},
                          initiative: {{ "Pursuer": {dp}, "Defender": {dd} }})])"#
        );
        let s = firststrike::scene::parse("throw.ron", &src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let mut r = SceneRun::new(s, None, Some(1));
        r.run_to_end();
        let ev = &r.log().events;
        let totals: Vec<i64> = ["Pursuer", "Defender"]
            .iter()
            .map(|n| {
                ev.iter()
                    .find(|e| e.actor == *n && e.rule.id == "ti.total")
                    .and_then(|e| e.detail.split("= ").nth(1)?.split_whitespace().next()?.parse().ok())
                    .unwrap_or(i64::MAX)
            })
            .collect();
        let shots: Vec<&LogEvent> = ev
            .iter()
            .filter(|e| e.actor == "Pursuer" && matches!(e.kind, K::Hit | K::Miss) && !e.detail.contains("free attack"))
            .collect();
        for shot in shots {
            let rear = shot.detail.contains("from behind");
            prop_assert_eq!(rear, totals[1] < totals[0], "totals {:?}: {}", totals, shot.detail);
        }
    }
}

/// The blows of a one-round scene where "Runner", `d` ft from a foe of `reach` (aiming its
/// blows at it or holding), declares `runner`: each (actor, segment, target, free attack?),
/// and whether the log names a move out of melee.
fn runner_blows(
    d: f64,
    reach: f64,
    aims: bool,
    runner: &str,
) -> (Vec<(String, u32, String, bool)>, bool) {
    let act = if aims {
        r#"Melee(targets: ["Runner"])"#
    } else {
        "Hold"
    };
    let src = format!(
        r#"Scene(name: "off", setting: Indoors, seed: 3, rules: (system: TakeInitiative),
            combatants: [
                (name: "Runner", side: "A", at: (0.0, 0.0), weapon: "long sword", movement: 12, thac0: 16, ac: 5, hp: 500),
                (name: "Foe", side: "B", at: (0.0, {d:.2}), weapon: "spear", reach_ft: {reach:.1}, thac0: 16, ac: 5, hp: 500),
            ],
            rounds: [(declare: {{ "Runner": {runner}, "Foe": {act} }}, initiative: {{ "Runner": 6, "Foe": 8 }})])"#
    );
    let s = firststrike::scene::parse("off.ron", &src).unwrap_or_else(|e| panic!("{e}"));
    let mut r = SceneRun::new(s, None, Some(1));
    r.run_to_end();
    let ev = &r.log().events;
    let blows = ev
        .iter()
        .filter(|e| matches!(e.kind, K::Hit | K::Miss))
        .map(|e| {
            let at = e.target.as_ref().map(|t| t.to_string()).unwrap_or_default();
            (
                e.actor.to_string(),
                e.segment,
                at,
                e.detail.contains("free attack"),
            )
        })
        .collect();
    let named = ev
        .iter()
        .any(|e| e.actor == "Runner" && e.kind == K::Act && e.detail.contains("out of melee"));
    (blows, named)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A plain move out of melee is one of the variant's two ways out (§4, §6): half the
    /// move or less (60 ft of a 12" move indoors) is played as a withdrawal to the same
    /// point, more as a flight — the foe's free attack included — and the log says which.
    /// A move that starts out of melee, or stays in it, is only a move. A move once walked
    /// out of a foe's reach with no free attack and no word.
    #[test]
    fn a_move_out_of_melee_is_a_withdrawal_or_a_flight(
        d in 3.0f64..16.0,
        reach in prop::sample::select(vec![5.0f64, 7.5]),
        aims in any::<bool>(),
        run in 2.0f64..200.0,
    ) {
        // The scene states the distance to the hundredth of a foot, the move to the tenth:
        // judged as stated.
        let (d, run) = ((d * 100.0).round() / 100.0, (run * 10.0).round() / 10.0);
        let declared = format!("Move(to: (0.0, -{run:.1}))");
        let (blows, named) = runner_blows(d, reach, aims, &declared);
        let near = |x: f64| x <= reach + 1e-6 || (aims && x <= 10.0 + 1e-6);
        let moved = run.min(120.0);
        let leaves = near(d) && !near(d + moved);
        prop_assert_eq!(named, leaves, "{} ft off, moving {} ft", d, run);
        if leaves {
            let way = if moved <= 60.0 + 1e-6 { "Withdraw" } else { "Flee" };
            let (as_declared, _) = runner_blows(d, reach, aims, &format!("{way}(to: (0.0, -{run:.1}))"));
            prop_assert_eq!(&blows, &as_declared, "{} ft off, moving {} ft: played as {}", d, run, way);
            if way == "Flee" {
                prop_assert!(blows.iter().any(|b| b.0 == "Foe" && b.3), "no free attack: {:?}", blows);
            }
        }
    }
}

/// A fighter's save vs. spells at 1st to 12th level (DMG p.79), which a figure saves as
/// when the scene gives it no number.
fn fighter_save_vs_spell(hit_dice: u32) -> i64 {
    [17, 17, 16, 16, 14, 14, 13, 13, 11, 11, 10, 10][hit_dice as usize - 1]
}

proptest! {
    /// Basics: a caster wounded before its spell goes off keeps it when d20 - spell level
    /// + its level - the damage meets its save vs. spells. Every caster rolls, whether the
    /// scene gives its save or not (then a fighter's of its hit dice, as monsters save):
    /// a spell is never lost without the roll the rule asks for.
    #[test]
    fn every_wounded_caster_rolls_to_keep_its_spell(
        hit_dice in 1u32..=12,
        d20 in 1u32..=20,
        damage in 1u32..=8,
        given in proptest::option::of(2u32..=20),
    ) {
        let save = given.map_or(String::new(), |s| format!(", save_vs_spell: {s}"));
        let src = format!(r#"Scene(
    name: "A blow on a caster", setting: Indoors, seed: 2,
    rules: (system: TakeInitiative),
    combatants: [
        (name: "Fighter", side: "Blue", at: (0.0, 0.0), weapon: "long sword", thac0: 14, ac: 5, hp: 60),
        (name: "Mage", side: "Red", at: (0.0, 5.0), thac0: 19, ac: 9, hp: 60, hit_dice: {hit_dice}{save}),
    ],
    rounds: [(
        declare: {{ "Fighter": Melee(targets: ["Mage"]), "Mage": Cast(spell: "fireball", target: "Fighter") }},
        initiative: {{ "Fighter": 1, "Mage": 2 }},
    )],
    dice: {{ ToHit: {{ "Fighter": [18] }}, Damage: {{ "Fighter": [{damage}] }}, Save: {{ "Mage": [{d20}] }} }},
)"#);
        let events = common::play(&src);
        let needed = given.map_or(fighter_save_vs_spell(hit_dice), i64::from);
        let keeps = i64::from(d20) - 3 + i64::from(hit_dice) - i64::from(damage) >= needed;
        let by_mage = |k: K| events.iter().any(|e| e.kind == k && e.actor == "Mage");
        prop_assert!(events.iter().any(|e| e.kind == K::Hit && e.actor == "Fighter"));
        prop_assert_eq!(by_mage(K::SpellComplete), keeps);
        prop_assert_eq!(by_mage(K::SpellDisrupted), !keeps);
        prop_assert!(events.iter().all(|e| !e.detail.contains("no saving throw")));
    }
}

proptest! {
    /// §2 and App. B: the surprise is played by the book, and a spell begun in it goes on at
    /// its own time when the variant's rounds start — never begun again, never timed by the
    /// d10. Whatever its length, the surprise and the d10, it goes off after the book
    /// segments it has left, two ordering segments each: a short spell and a long one alike.
    #[test]
    fn a_spell_begun_in_the_surprise_keeps_its_time(
        length in 2u32..=30,
        lost in 1u32..=3,
        d10 in 1u32..=10,
    ) {
        prop_assume!(length > lost);
        let src = format!(r#"Scene(
    name: "A spell from the surprise", setting: Indoors, seed: 3,
    rules: (system: TakeInitiative),
    combatants: [
        (name: "Mage", side: "Party", at: (0.0, 0.0), thac0: 20, ac: 10, hp: 30, hit_dice: 12),
        (name: "Orc", side: "Orcs", at: (0.0, 60.0), monster: "orc"),
    ],
    surprise: {{ "Orcs": D6({lost}) }},
    surprise_segments: [ {{ "Mage": Cast(spell: "long ritual", segments: Some({length})) }} ],
    rounds: [
        (declare: {{ "Orc": Other("waits") }}, initiative: {{ "Mage": {d10}, "Orc": 3 }}),
        (initiative: {{ "Mage": {d10}, "Orc": 3 }}),
        (initiative: {{ "Mage": {d10}, "Orc": 3 }}),
        (initiative: {{ "Mage": {d10}, "Orc": 3 }}),
    ],
)"#);
        let events = common::play(&src);
        let total = 2 * (length - lost);
        let expected = (1 + (total - 1) / 20, (total - 1) % 20 + 1);
        let done: Vec<(u32, u32)> = events
            .iter()
            .filter(|e| e.kind == K::SpellComplete && e.actor == "Mage")
            .map(|e| (e.round, e.segment))
            .collect();
        prop_assert_eq!(done, vec![expected]);
        let begun: Vec<&LogEvent> = events.iter().filter(|e| e.kind == K::SpellStart && e.actor == "Mage").collect();
        prop_assert_eq!(begun.len(), 1, "begun once, in the surprise");
        // Its surprise line says the same moment, in ordering segments.
        let said = format!("ordering segment {} of round {}", expected.1, expected.0);
        prop_assert!(begun[0].detail.contains(&said), "{}", begun[0].detail);
    }
}
