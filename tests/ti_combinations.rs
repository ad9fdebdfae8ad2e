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
const ROWS: [&str; 12] = [
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
