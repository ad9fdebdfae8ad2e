//! Sleep by hit dice in an area (PHB p.68; our reading `spell.sleep_weakest_first` for a
//! mixed crowd): property tests of the rule over generated crowds and dice, and of the
//! engine playing it on generated scenes.

use firststrike::rules::effect::{sleep_band, sleep_dice, sleepers};
use firststrike::scene::parse;
use firststrike::sim::{EventKind as K, Runner};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// A crowd in the area: (sleep band, distance from the centre in whole feet).
fn crowd() -> impl Strategy<Value = Vec<(u32, f64)>> {
    prop::collection::vec(
        (1u32..=7, 0u32..=15).prop_map(|(h, d)| (h, f64::from(d))),
        0..20,
    )
}

/// A number rolled for each sleep band, within its dice (PHB p.68: 4d4, 2d4, 1d4, one,
/// and 0 or 1 from 4+1 to 4+4 hit dice).
fn rolls() -> impl Strategy<Value = BTreeMap<u32, u32>> {
    (4u32..=16, 2u32..=8, 1u32..=4, 0u32..=1).prop_map(|(a, b, c, e)| {
        BTreeMap::from([(1, a), (2, b), (3, c), (4, 1), (5, e), (6, 0), (7, 0)])
    })
}

/// PHB p.68's rows, written out: the creatures of each row, by dice and points added.
#[test]
fn sleep_reads_the_points_added_to_hit_dice() {
    let rows: [(&[(u32, i32)], u32); 6] = [
        (&[(0, 0), (1, 0), (1, -1)], 1),
        (&[(1, 1), (1, 3), (2, 0), (2, -1)], 2),
        (&[(2, 1), (2, 2), (3, 0)], 3),
        (&[(3, 1), (3, 4), (4, 0)], 4),
        (&[(4, 1), (4, 4)], 5),
        (&[(4, 5), (5, 0), (5, 1), (6, 6), (11, 0)], 6),
    ];
    for (hds, band) in rows {
        for &hd in hds {
            assert_eq!(sleep_band(Some(hd)), band, "{hd:?}");
        }
    }
    assert_eq!(sleep_band(None), 1, "no hit dice given: taken as 1");
    assert_eq!(sleep_dice(5).0, Some((1, 2, -1)), "0 or 1 from 4+1 to 4+4");
    assert_eq!(sleep_dice(6).0, None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Whatever the crowd: none over 4 hit dice sleeps; the weaker sleep before the
    /// stronger and the nearer before the farther among equals; the shares used never
    /// exceed the spell; and a crowd all of one kind sleeps exactly as many as were rolled.
    #[test]
    fn sleep_takes_the_weakest_first_and_no_more_than_its_strength(
        c in crowd(), r in rolls(),
    ) {
        let rolled = |band: u32| r[&band];
        let (asleep, _) = sleepers(&c, rolled);
        for &k in &asleep {
            prop_assert!(sleep_dice(c[k].0).0.is_some(), "{:?} over 4+4 HD slept", c[k]);
            prop_assert!(rolled(c[k].0) > 0, "{:?} slept on a roll of none", c[k]);
        }
        for (k, &(hd, d)) in c.iter().enumerate() {
            if asleep.contains(&k) {
                continue;
            }
            // Awake: no one stronger, or as strong and farther, sleeps.
            for &j in &asleep {
                let (hj, dj) = c[j];
                prop_assert!(hj < hd || (hj == hd && dj <= d), "{:?} slept before {:?}", c[j], c[k]);
            }
        }
        let used: f64 = asleep.iter().map(|&k| 1.0 / f64::from(rolled(c[k].0))).sum();
        prop_assert!(used <= 1.0 + 1e-9, "shares used {}", used);
        let hds: std::collections::BTreeSet<u32> = c.iter().map(|x| x.0).collect();
        if hds.len() == 1 && c[0].0 <= 5 {
            let n = rolled(c[0].0) as usize;
            prop_assert_eq!(asleep.len(), c.len().min(n));
        }
    }
}

/// A crowd of orcs round a point, played by the engine: the orcs in the area sleep,
/// nearest first, as many as the fixed 4d4 shows; those outside and the ones the spell did
/// not reach go on fighting.
fn orcs_scene(n: usize, d4: [u32; 4]) -> String {
    let orcs: Vec<String> = (0..n)
        .map(|k| {
            format!(
                r#"(name: "Orc {k}", side: "Orcs", at: ({}.0, 50.0), monster: "orc", hp: 5)"#,
                50 + 3 * k
            )
        })
        .collect();
    let declare: Vec<String> = (0..n).map(|k| format!(r#""Orc {k}": Hold"#)).collect();
    format!(
        r#"Scene(name: "sleep", setting: Indoors, seed: 1,
            combatants: [
                (name: "Mage", side: "Party", at: (0.0, 50.0), thac0: 20, ac: 10, hp: 10),
                {}],
            rounds: [(declare: {{ "Mage": Cast(spell: "sleep", target: "Orc 0"), {} }},
                      initiative: {{ "Party": 4, "Orcs": 2 }})],
            dice: {{ D4: {{ "Mage": {:?} }} }})"#,
        orcs.join(",\n"),
        declare.join(", "),
        d4
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn the_engine_puts_the_nearest_orcs_to_sleep(n in 1usize..=12, d4 in prop::array::uniform4(1u32..=4)) {
        let scene = parse("sleep.ron", &orcs_scene(n, d4)).unwrap();
        let mut r = Runner::new(scene, None, Some(1));
        r.run_to_end();
        let asleep: Vec<String> = r
            .events(K::Effect, Some("Mage"))
            .into_iter()
            .filter(|e| e.detail.contains("is asleep"))
            .filter_map(|e| e.target.map(String::from))
            .collect();
        // Orc k stands 3k ft from Orc 0, the centre: inside 15 ft for k <= 5.
        let inside = n.min(6);
        let rolled: u32 = d4.iter().sum();
        let want: Vec<String> = (0..inside.min(rolled as usize)).map(|k| format!("Orc {k}")).collect();
        prop_assert_eq!(asleep, want);
    }
}

/// A charge that arrives in the very segment a sleep spell completes (DMG p.66: a tie, and
/// tied acts are simultaneous, DMG p.63): the charger is put to sleep and its blow still
/// lands — and the blow's line says they were simultaneous, so it does not read as a blow
/// from a sleeping orc (the new user's report).
#[test]
fn a_charge_tied_with_sleep_strikes_and_says_it_was_simultaneous() {
    let src = r#"Scene(name: "tie", setting: Indoors, seed: 2,
        combatants: [
          (name: "Mage", side: "Party", at: (12.5, 12.5), class: "magic-user", level: 1, ac: 10, hp: 30),
          (name: "Orc", side: "Orcs", at: (27.5, 17.5), monster: "orc")],
        rounds: [(declare: { "Mage": Cast(spell: "sleep", at: (27.5, 22.5)), "Orc": Charge(targets: ["Mage"]) },
                  initiative: { "Party": 2, "Orcs": 2 })])"#;
    let mut r = Runner::new(parse("tie.ron", src).unwrap(), None, Some(1));
    r.run_to_end();
    let asleep = r.events(K::Effect, Some("Mage"));
    assert!(
        asleep
            .iter()
            .any(|e| e.target.as_deref() == Some("Orc") && e.detail.contains("asleep"))
    );
    let blows: Vec<_> = [K::Hit, K::Miss]
        .into_iter()
        .flat_map(|k| r.events(k, Some("Orc")))
        .collect();
    assert_eq!(blows.len(), 1, "the charge's one blow");
    assert_eq!((blows[0].round, blows[0].segment), (1, 1));
    assert!(
        blows[0].detail.contains("simultaneous"),
        "{}",
        blows[0].detail
    );
}

/// PHB p.68 played: an ogre (4+1 HD) sleeps on 0 or 1 (d2 - 1), never always; a
/// hobgoblin (1+1) is counted among the 2d4 of up to 2 HD, not the orcs' 4d4.
#[test]
fn the_engine_sleeps_by_the_row_of_the_table() {
    let play = |monster: &str, d4: &[u32]| {
        let src = format!(
            r#"Scene(name: "sleep", setting: Indoors, seed: 1,
                combatants: [
                  (name: "Mage", side: "Party", at: (0.0, 50.0), thac0: 20, ac: 10, hp: 10),
                  (name: "It", side: "Them", at: (40.0, 50.0), monster: "{monster}")],
                rounds: [(declare: {{ "Mage": Cast(spell: "sleep", target: "It"), "It": Hold }},
                          initiative: {{ "Party": 4, "Them": 2 }})],
                dice: {{ D4: {{ "Mage": {d4:?} }} }})"#
        );
        let mut r = Runner::new(parse("sleep.ron", &src).unwrap(), None, Some(1));
        r.run_to_end();
        r.events(K::Effect, Some("Mage"))
    };
    let asleep =
        |ev: &[firststrike::sim::LogEvent]| ev.iter().any(|e| e.detail.contains("is asleep"));
    let ogre_none = play("ogre", &[1]);
    assert!(!asleep(&ogre_none), "{ogre_none:#?}");
    assert!(
        ogre_none
            .iter()
            .any(|e| e.detail.contains("4+1 HD") && e.detail.contains("came to none"))
    );
    assert!(asleep(&play("ogre", &[2])));
    // A d4's 3 or 4 fixed for the d2 counts as its highest face: one ogre, not three.
    let ogre_four = play("ogre", &[4]);
    assert!(
        ogre_four
            .iter()
            .any(|e| e.detail.contains("enough for 1 of 4+1 to 4+4 HD")),
        "{ogre_four:#?}"
    );
    let hob = play("hobgoblin", &[2, 1]);
    assert!(asleep(&hob));
    assert!(
        hob.iter().any(|e| e.detail.contains("3 of 1+1 to 2 HD")),
        "{hob:#?}"
    );
}

/// A scene's own `hit_dice` for a bestiary monster are plain dice (docs/scenes.md): a
/// hobgoblin given `hit_dice: 1` is among the 4d4 of up to 1 HD, not the 2d4 of 1+1.
#[test]
fn a_scenes_own_hit_dice_have_no_points_added() {
    let src = r#"Scene(name: "sleep", setting: Indoors, seed: 1,
        combatants: [
          (name: "Mage", side: "Party", at: (0.0, 50.0), thac0: 20, ac: 10, hp: 10),
          (name: "H1", side: "Them", at: (40.0, 50.0), monster: "hobgoblin", hit_dice: 1),
          (name: "H2", side: "Them", at: (43.0, 50.0), monster: "hobgoblin", hit_dice: 1),
          (name: "H3", side: "Them", at: (46.0, 50.0), monster: "hobgoblin", hit_dice: 1),
          (name: "H4", side: "Them", at: (49.0, 50.0), monster: "hobgoblin", hit_dice: 1)],
        rounds: [(declare: { "Mage": Cast(spell: "sleep", target: "H1"), "H1": Hold, "H2": Hold, "H3": Hold, "H4": Hold },
                  initiative: { "Party": 4, "Them": 2 })],
        dice: { D4: { "Mage": [1, 1, 1, 1] } })"#;
    let mut r = Runner::new(parse("sleep.ron", src).unwrap(), None, Some(1));
    r.run_to_end();
    let ev = r.events(K::Effect, Some("Mage"));
    assert!(
        ev.iter().any(|e| e.detail.contains("4 of up to 1 HD")),
        "{ev:#?}"
    );
    assert_eq!(
        ev.iter().filter(|e| e.detail.contains("is asleep")).count(),
        4,
        "{ev:#?}"
    );
}
