//! Adding figures in the editor (issue "the DM's own encounter", point 3 and squads): a new
//! figure never lands on another or on a wall; "add 12 orcs" places Orc 1 to Orc 12 in a
//! block, spread; duplicates spread the same way. The edit core, without a window.

use firststrike::rules::distance::Setting;
use firststrike::scene::CombatantSpec;
use firststrike::scene::edit::{Edit, apply, new_scene};
use proptest::prelude::*;

fn orc(at: (f64, f64)) -> Box<CombatantSpec> {
    Box::new(CombatantSpec {
        name: "Orc".into(),
        side: "Monsters".into(),
        at,
        monster: Some("orc".into()),
        ..CombatantSpec::default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Over room sizes, walls inside them, where the squad is put and how many: every
    /// figure of the squad stands on open ground, no two within half a cell, names Orc 1
    /// to Orc N (unique), and the squad is refused whole when the room cannot hold it.
    #[test]
    fn a_squad_is_spread_on_open_ground(
        w in 2.0f64..12.0, h in 2.0f64..12.0,
        walls in proptest::collection::vec((0usize..12, 0usize..12), 0..20),
        at in (0.0f64..70.0, 0.0f64..70.0),
        count in 1u32..30,
        first in any::<bool>(),
    ) {
        let mut s = new_scene(Setting::Indoors, w.floor() * 5.0, h.floor() * 5.0, 5.0);
        {
            let map = s.map.as_mut().unwrap();
            let rows: Vec<Vec<char>> = map.rows.iter().map(|r| r.chars().collect()).collect();
            let mut rows = rows;
            for (x, y) in walls {
                if y < rows.len() && x < rows[y].len() {
                    rows[y][x] = '#';
                }
            }
            map.rows = rows.into_iter().map(|r| r.into_iter().collect()).collect();
        }
        if first {
            apply(&mut s, &Edit::AddFigure(orc(at))).ok();
        }
        let before = s.combatants.len();
        let grid = s.map.as_ref().unwrap().grid().unwrap();
        let open = (0..grid.height as i64)
            .flat_map(|y| (0..grid.width as i64).map(move |x| (x, y)))
            .filter(|&(x, y)| grid.get(x, y).is_some_and(|k| !k.blocks_movement()))
            .count();
        let result = apply(&mut s, &Edit::AddSquad { spec: orc(at), count });
        let room = open - before;
        if (count as usize) > room {
            prop_assert!(result.is_err(), "{} in a room for {}", count, room);
            prop_assert_eq!(s.combatants.len(), before, "refused whole");
            return Ok(());
        }
        prop_assert!(result.is_ok(), "{:?}", result);
        prop_assert_eq!(s.combatants.len(), before + count as usize);
        let all = &s.combatants;
        for (i, a) in all.iter().enumerate() {
            prop_assert!(grid.passable_ft(a.at.0, a.at.1), "{} at {:?}", a.name, a.at);
            for b in &all[i + 1..] {
                prop_assert!((a.at.0 - b.at.0).hypot(a.at.1 - b.at.1) >= 2.5, "{} and {} stacked", a.name, b.name);
                prop_assert!(a.name != b.name);
            }
        }
        let names: Vec<&str> = all[before..].iter().map(|c| c.name.as_str()).collect();
        if !first {
            let want: Vec<String> = (1..=count).map(|k| format!("Orc {k}")).collect();
            prop_assert_eq!(names, want.iter().map(String::as_str).collect::<Vec<_>>());
        }
    }
}

#[test]
fn two_figures_added_at_one_spot_stand_apart() {
    let mut s = new_scene(Setting::Indoors, 30.0, 30.0, 5.0);
    for _ in 0..3 {
        apply(&mut s, &Edit::AddFigure(orc((17.5, 17.5)))).unwrap();
    }
    let at: Vec<(f64, f64)> = s.combatants.iter().map(|c| c.at).collect();
    assert_eq!(at[0], (17.5, 17.5), "the first where it was put");
    assert!(at[1] != at[0] && at[2] != at[0] && at[1] != at[2], "{at:?}");
    for p in &at[1..] {
        assert!((p.0 - 17.5).hypot(p.1 - 17.5) <= 7.1, "next to it: {p:?}");
    }
    // Duplicates spread the same way.
    apply(
        &mut s,
        &Edit::Duplicate {
            figure: "Orc".into(),
            count: 4,
        },
    )
    .unwrap();
    let n = s.combatants.len();
    assert_eq!(n, 7);
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (s.combatants[i].at, s.combatants[j].at);
            assert!((a.0 - b.0).hypot(a.1 - b.1) >= 2.5, "{a:?} {b:?}");
        }
    }
}

/// A party of three and a squad of `n` orcs, spread in a 60 x 40 ft room.
fn party_and_squad(n: u32, party: &[(f64, f64)]) -> firststrike::scene::Scene {
    let mut s = new_scene(Setting::Indoors, 60.0, 40.0, 5.0);
    for (k, &at) in party.iter().enumerate() {
        let f = CombatantSpec {
            name: format!("Hero {}", k + 1),
            side: "Party".into(),
            at,
            ..CombatantSpec::default()
        };
        apply(&mut s, &Edit::AddFigure(Box::new(f))).unwrap();
    }
    apply(
        &mut s,
        &Edit::AddSquad {
            spec: orc((40.0, 20.0)),
            count: n,
        },
    )
    .unwrap();
    s
}

fn orcs(s: &firststrike::scene::Scene) -> Vec<String> {
    s.combatants
        .iter()
        .filter(|c| c.side == "Monsters")
        .map(|c| c.name.clone())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// "Melee the nearest foe" for a whole side: every orc gets its own declaration, aimed
    /// at every hero, the nearest to it first; no hero's declaration changes; the scene
    /// still checks and plays.
    #[test]
    fn a_group_order_becomes_each_figures_own(
        n in 1u32..14,
        party in proptest::collection::vec((7.5f64..52.5, 7.5f64..32.5), 1..4),
    ) {
        use firststrike::scene::edit::GroupOrder;
        let mut s = party_and_squad(n, &party);
        let heroes_before = s.rounds.first().map(|r| r.declare.clone());
        let squad = orcs(&s);
        apply(&mut s, &Edit::DeclareGroup { round: 1, figures: squad.clone(), order: GroupOrder::MeleeNearest }).unwrap();
        let declared = &s.rounds[0].declare;
        for o in &squad {
            let me = s.combatant(o).unwrap().at;
            let targets = declared[o].targets();
            prop_assert_eq!(targets.len(), party.len(), "every hero, in order");
            let d = |n: &str| { let a = s.combatant(n).unwrap().at; (a.0 - me.0).hypot(a.1 - me.1) };
            for w in targets.windows(2) {
                prop_assert!(d(w[0]) <= d(w[1]), "{}: nearest first", o);
            }
        }
        if let Some(before) = heroes_before {
            for (who, act) in before.iter().filter(|(w, _)| w.starts_with("Hero")) {
                prop_assert_eq!(declared.get(who), Some(act));
            }
        }
        prop_assert!(firststrike::scene::check(&s).is_ok());
    }
}

/// All or nothing: a group with a name that is not there, or a charge at a figure that is
/// not there, changes no one; Clear takes every declaration of the group back.
#[test]
fn a_group_order_is_all_or_nothing() {
    use firststrike::scene::edit::GroupOrder;
    let mut s = party_and_squad(4, &[(10.0, 10.0)]);
    let squad = orcs(&s);
    let before = s.clone();
    let mut wrong = squad.clone();
    wrong.push("Orc 99".into());
    let e = apply(
        &mut s,
        &Edit::DeclareGroup {
            round: 1,
            figures: wrong,
            order: GroupOrder::Hold,
        },
    );
    assert!(e.unwrap_err().contains("Orc 99"));
    assert_eq!(s, before, "nothing changed");
    let e = apply(
        &mut s,
        &Edit::DeclareGroup {
            round: 1,
            figures: squad.clone(),
            order: GroupOrder::Charge("Nobody".into()),
        },
    );
    assert!(e.unwrap_err().contains("Nobody"));
    assert_eq!(s, before, "nothing changed");
    apply(
        &mut s,
        &Edit::DeclareGroup {
            round: 1,
            figures: squad.clone(),
            order: GroupOrder::Charge("Hero 1".into()),
        },
    )
    .unwrap();
    assert!(
        squad
            .iter()
            .all(|o| s.rounds[0].declare[o].targets() == vec!["Hero 1"])
    );
    apply(
        &mut s,
        &Edit::DeclareGroup {
            round: 1,
            figures: squad.clone(),
            order: GroupOrder::Clear,
        },
    )
    .unwrap();
    assert!(
        squad
            .iter()
            .all(|o| s.rounds.first().is_none_or(|r| !r.declare.contains_key(o)))
    );
    // A side with no foe in the scene has no one to fight.
    let mut alone = new_scene(Setting::Indoors, 30.0, 30.0, 5.0);
    apply(
        &mut alone,
        &Edit::AddSquad {
            spec: orc((15.0, 15.0)),
            count: 3,
        },
    )
    .unwrap();
    let squad = orcs(&alone);
    let e = apply(
        &mut alone,
        &Edit::DeclareGroup {
            round: 1,
            figures: squad,
            order: GroupOrder::MeleeNearest,
        },
    );
    assert!(e.unwrap_err().contains("no foe"));
}
