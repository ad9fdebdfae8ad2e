//! Area spells cast at a point (`Cast(spell: …, at: (x, y))`): the area is centred on the
//! point and works on whoever its rule says stands in it — friend, foe or the caster —
//! wherever its target would have been; the declaration is refused at its place when the
//! spell has no area or also names a target; the editor declares one where the DM clicks.

use firststrike::scene::parse;
use firststrike::sim::{EventKind as K, Payload, Runner};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A mage casting `spell` at `point` among figures standing at `spots`, nobody else acting.
fn scene(spell: &str, point: (f64, f64), spots: &[(f64, f64)], ti: bool) -> String {
    let others: Vec<String> = spots
        .iter()
        .enumerate()
        .map(|(k, (x, y))| {
            let side = if k % 2 == 0 { "Orcs" } else { "Party" };
            format!(r#"(name: "F{k}", side: "{side}", at: ({x:.1}, {y:.1}), hp: 200, ac: 5)"#)
        })
        .collect();
    let holds: Vec<String> = (0..spots.len())
        .map(|k| format!(r#""F{k}": Hold"#))
        .collect();
    let system = if ti { "TakeInitiative" } else { "Book" };
    // Side dice under the book; under "Take Initiative!" each figure rolls its own.
    let initiative = if ti {
        ""
    } else {
        r#", initiative: { "Party": 4, "Orcs": 2 }"#
    };
    format!(
        r#"Scene(name: "area", setting: Indoors, seed: 3, rules: (system: {system}),
            combatants: [
                (name: "Mage", side: "Party", at: (0.0, 0.0), hp: 200, hit_dice: 5),
                {}],
            rounds: [(declare: {{ "Mage": Cast(spell: "{spell}", at: ({:.1}, {:.1})), {} }}{initiative})])"#,
        others.join(",\n"),
        point.0,
        point.1,
        holds.join(", ")
    )
}

/// Who the spell's effect events name.
fn caught(r: &Runner) -> BTreeSet<String> {
    r.events(K::Effect, Some("Mage"))
        .into_iter()
        .filter_map(|e| e.target.map(String::from))
        .collect()
}

fn spot() -> impl Strategy<Value = (f64, f64)> {
    (0u32..=160, 0u32..=160).prop_map(|(x, y)| (f64::from(x) / 2.0, f64::from(y) / 2.0))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// A fireball at any point catches exactly the figures within its 20 ft of that point
    /// (the caster too, when it is in it), of either side, and no one else — under the
    /// book and under "Take Initiative!".
    #[test]
    fn a_fireball_at_a_point_catches_everyone_within_its_radius_of_it(
        point in spot(), spots in prop::collection::vec(spot(), 1..12), ti in any::<bool>(),
    ) {
        let text = scene("fireball", point, &spots, ti);
        let mut r = Runner::new(parse("area.ron", &text).unwrap(), None, Some(1));
        r.run_to_end();
        let d = |(x, y): (f64, f64)| ((x - point.0).powi(2) + (y - point.1).powi(2)).sqrt();
        let mut want: BTreeSet<String> = spots
            .iter()
            .enumerate()
            .filter(|(_, s)| d(**s) <= 20.0)
            .map(|(k, _)| format!("F{k}"))
            .collect();
        if d((0.0, 0.0)) <= 20.0 {
            want.insert("Mage".into());
        }
        prop_assert_eq!(caught(&r), want);
        prop_assert_eq!(r.events(K::SpellComplete, Some("Mage")).len(), 1);
    }
}

/// Sleep at a point where an orc stands puts the same orcs to sleep as sleep aimed at that
/// orc: the area is the same, only how it was aimed differs.
#[test]
fn sleep_at_a_point_is_sleep_round_a_figure_standing_there() {
    let orcs = |cast: &str| {
        let list: Vec<String> = (0..8)
            .map(|k| {
                let x = 50 + 3 * k;
                format!(
                    r#"(name: "Orc {k}", side: "Orcs", at: ({x}.0, 50.0), monster: "orc", hp: 5)"#
                )
            })
            .collect();
        let holds: Vec<String> = (0..8).map(|k| format!(r#""Orc {k}": Hold"#)).collect();
        format!(
            r#"Scene(name: "sleep", setting: Indoors, seed: 1,
                combatants: [(name: "Mage", side: "Party", at: (0.0, 50.0), hp: 10), {}],
                rounds: [(declare: {{ "Mage": {cast}, {} }}, initiative: {{ "Party": 4, "Orcs": 2 }})],
                dice: {{ D4: {{ "Mage": [4, 4, 4, 4] }} }})"#,
            list.join(",\n"),
            holds.join(", ")
        )
    };
    let asleep = |cast: &str| {
        let mut r = Runner::new(parse("sleep.ron", &orcs(cast)).unwrap(), None, Some(1));
        r.run_to_end();
        r.events(K::Effect, Some("Mage"))
            .into_iter()
            .filter(|e| matches!(&e.payload, Payload::Effect { took: true, .. }))
            .filter_map(|e| e.target.map(String::from))
            .collect::<Vec<_>>()
    };
    let round_orc = asleep(r#"Cast(spell: "sleep", target: "Orc 0")"#);
    let at_point = asleep(r#"Cast(spell: "sleep", at: (50.0, 50.0))"#);
    // Orc k stands 3k ft from the centre: Orc 0 to Orc 5 are inside 15 ft.
    let want: Vec<String> = (0..6).map(|k| format!("Orc {k}")).collect();
    assert_eq!(round_orc, want);
    assert_eq!(at_point, want);
    // Away from them, at the far end of the row: only the orcs near that end.
    let far = asleep(r#"Cast(spell: "sleep", at: (71.0, 50.0))"#);
    let want_far: Vec<String> = (2..8).map(|k| format!("Orc {k}")).collect();
    assert_eq!(
        far.iter().cloned().collect::<BTreeSet<_>>(),
        want_far.into_iter().collect::<BTreeSet<_>>()
    );
}

/// A point for a spell with no area, or a point and a target together, or a point no map
/// could hold, is refused at its place in the file with the field named.
#[test]
fn a_point_is_refused_where_it_makes_no_sense() {
    let with = |cast: &str| {
        format!(
            r#"Scene(name: "bad", setting: Indoors, seed: 1,
    combatants: [
        (name: "Mage", side: "Party", at: (0.0, 0.0)),
        (name: "Orc", side: "Orcs", at: (30.0, 0.0), monster: "orc"),
    ],
    rounds: [(declare: {{ "Mage": {cast} }})])"#
        )
    };
    let refused = |cast: &str, says: &str| {
        let e = parse("bad.ron", &with(cast))
            .err()
            .unwrap_or_else(|| panic!("{cast} was taken"))
            .render();
        assert!(e.contains(says), "{cast}: {e}");
        assert!(e.contains("bad.ron:6:"), "{cast}: located at its line: {e}");
    };
    refused(r#"Cast(spell: "haste", at: (10.0, 0.0))"#, "has no area");
    refused(
        r#"Cast(spell: "fireball", target: "Orc", at: (10.0, 0.0))"#,
        "a spell cast at a point",
    );
    refused(
        r#"Cast(spell: "fireball", at: (1e12, 0.0))"#,
        "a spell cast at",
    );
    // The same spell at a sensible point is taken.
    parse(
        "ok.ron",
        &with(r#"Cast(spell: "fireball", at: (10.0, 0.0))"#),
    )
    .unwrap();
}

/// The editor: with sleep picked from a token's menu, a click on open ground declares it
/// at that point and a click on a figure aims it round that figure; a spell with no area
/// clicked on open ground takes no point.
#[cfg(feature = "viewer")]
#[test]
fn the_editor_declares_an_area_spell_where_the_dm_clicks() {
    use firststrike::scene::Act;
    use firststrike::viewer::{Pick, picked};
    let pick = |spell: &str| Pick {
        figure: "Mage".into(),
        kind: "cast",
        spell: Some((spell.into(), None)),
    };
    let ground = picked(&pick("sleep"), None, (40.0, 25.0)).unwrap();
    assert_eq!(ground.point(), Some((40.0, 25.0)));
    assert!(ground.targets().is_empty());
    let orc = picked(&pick("sleep"), Some("Orc"), (40.0, 25.0)).unwrap();
    assert_eq!(orc.point(), None);
    assert_eq!(orc.targets(), vec!["Orc".to_string()]);
    let odd = picked(
        &pick("fireball"),
        None,
        (102.42372131347656, 52.297203063964844),
    );
    assert_eq!(
        odd.unwrap().point(),
        Some((102.4, 52.3)),
        "to a tenth of a foot"
    );
    // On the caster's own token: round the caster (it follows them), not at a point.
    let own = picked(&pick("silence 15' radius"), Some("Mage"), (40.0, 25.0)).unwrap();
    assert_eq!(own.point(), None);
    let haste = picked(&pick("haste"), None, (40.0, 25.0)).unwrap();
    assert!(matches!(haste, Act::Cast { at: None, .. }));
}
