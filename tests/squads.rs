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
    /// at the one hero nearest it (one target: a melee at several is penalised under "Take
    /// Initiative!"); no hero's declaration changes; the scene still checks and plays.
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
            prop_assert_eq!(targets.len(), 1, "one target");
            let d = |n: &str| { let a = s.combatant(n).unwrap().at; (a.0 - me.0).hypot(a.1 - me.1) };
            for h in s.combatants.iter().filter(|c| c.side != "Monsters") {
                prop_assert!(d(targets[0]) <= d(&h.name), "{}: {} is nearer than {}", o, h.name, targets[0]);
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

/// A box dragged on the map takes in the figures whose tokens are drawn inside it at the
/// segment on screen — in a crowd, where the layout pushed them apart — whichever corner
/// it was dragged from; a box round the whole map takes everyone, and one narrower than a
/// token (a click on open ground) no one.
#[cfg(feature = "viewer")]
#[test]
fn a_box_takes_in_the_tokens_drawn_inside_it() {
    use firststrike::viewer::{Playback, boxed, label_size, layout};
    let path = std::path::PathBuf::from("scenes/stress_200.ron");
    let scene = firststrike::scene::load(&path).unwrap();
    let mut host = firststrike::sim::Runner::host();
    let world = host.app.world_mut();
    let mut pb = Playback::start(world, path, scene, None, 0);
    pb.goto(world, 3);
    let figures = pb.current().figures.clone();
    let placed = layout(&figures, label_size(0.0), None);
    let feet = |v: bevy::math::Vec2| (f64::from(v.x), -f64::from(v.y));
    let all = boxed(&figures, &placed, ((-1e4, -1e4), (1e4, 1e4)));
    assert_eq!(all.len(), figures.len(), "the whole map takes everyone");
    assert!(boxed(&figures, &placed, ((10.0, 10.0), (10.5, 10.5))).is_empty());
    // Boxes round parts of the crowd, from either corner.
    let (lo, hi) = placed.drawn.iter().fold(
        ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN)),
        |(lo, hi), d| {
            let (x, y) = feet(*d);
            ((lo.0.min(x), lo.1.min(y)), (hi.0.max(x), hi.1.max(y)))
        },
    );
    for k in 1..=4 {
        let t = f64::from(k) / 5.0;
        let a = (lo.0, lo.1);
        let b = (lo.0 + (hi.0 - lo.0) * t, lo.1 + (hi.1 - lo.1) * t);
        let got = boxed(&figures, &placed, (a, b));
        assert_eq!(got, boxed(&figures, &placed, (b, a)), "either corner");
        for (i, f) in figures.iter().enumerate() {
            let (x, y) = feet(placed.drawn[i]);
            let inside = x >= a.0 && x <= b.0 && y >= a.1 && y <= b.1;
            assert_eq!(
                got.contains(&f.name),
                inside,
                "{} drawn at ({x}, {y})",
                f.name
            );
        }
        assert!(
            !got.is_empty() || t < 0.5,
            "a box of {t} of the crowd takes someone"
        );
    }
}

/// A declaration, for one figure or a group, keeps the rounds a scene plays: the lair's
/// empty second round (it plays two) stays, and its tour, which speaks of round 2, still
/// passes the checks; clearing a round that had nothing adds none.
#[test]
fn a_declaration_keeps_the_rounds_the_scene_plays() {
    use firststrike::scene::edit::GroupOrder;
    let lair =
        firststrike::scene::load(std::path::Path::new("scenes/lizard_man_lair.ron")).unwrap();
    assert_eq!(lair.rounds.len(), 2);
    let check = firststrike::scene::check;
    let lizards: Vec<String> = (1..=4).map(|k| format!("Lizard man {k}")).collect();
    for edit in [
        Edit::Declare {
            round: 1,
            figure: "Lizard man 4".into(),
            act: Some(firststrike::scene::Act::melee(vec!["Quij".into()])),
        },
        Edit::Declare {
            round: 1,
            figure: "Lizard man 1".into(),
            act: None,
        },
        Edit::DeclareGroup {
            round: 1,
            figures: lizards.clone(),
            order: GroupOrder::MeleeNearest,
        },
        Edit::DeclareGroup {
            round: 2,
            figures: lizards.clone(),
            order: GroupOrder::Clear,
        },
    ] {
        let mut s = lair.clone();
        apply(&mut s, &edit).unwrap();
        assert_eq!(s.rounds.len(), 2, "{edit:?}");
        check(&s).unwrap_or_else(|e| panic!("{edit:?}: {e}"));
    }
    let mut s = lair.clone();
    let four = |act| Edit::Declare {
        round: 4,
        figure: "Quij".into(),
        act,
    };
    apply(&mut s, &four(Some(firststrike::scene::Act::Hold))).unwrap();
    assert_eq!(s.rounds.len(), 4);
    // Clearing it later keeps the four rounds the scene now plays (undo takes them back);
    // clearing within one edit what that edit added leaves none behind.
    apply(&mut s, &four(None)).unwrap();
    assert_eq!(
        s.rounds.len(),
        4,
        "a later edit keeps the rounds the scene plays"
    );
    let mut t = lair.clone();
    apply(&mut t, &four(None)).unwrap();
    assert_eq!(t.rounds.len(), 2, "nothing declared adds no round");
}
