//! Sight events are exactly the gains and losses of sight (DMG p.62), at every segment of
//! a generated battle with walls, torches, charges and falls: folding the `sight` events
//! of the log so far gives who sees whom now, as the engine holds it and as the viewer
//! shows it. The one kind of loss not logged is covered by a `down` event: the viewer
//! fell, or the one it saw is dead.

use firststrike::rules::combat::Condition;
use firststrike::sim::components::{Combatant, HitPoints};
use firststrike::sim::{EventKind, Payload, Sightings};
use firststrike::testing::SceneRun;
use firststrike::testing::battle::lit_battle;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

type Pairs = BTreeSet<(usize, usize)>;

/// Who sees whom as the engine holds it now.
fn engine(run: &SceneRun) -> Pairs {
    run.app
        .world()
        .resource::<Sightings>()
        .iter()
        .map(|p| p.0)
        .collect()
}

/// Each figure's condition now, by scene index.
fn conditions(run: &mut SceneRun) -> BTreeMap<usize, Condition> {
    let world = run.app.world_mut();
    let mut q = world.query::<(&Combatant, &HitPoints)>();
    q.iter(world).map(|(c, h)| (c.index, h.condition)).collect()
}

/// The battle's scene with walls put on some open cells no figure stands on.
fn walled(n: usize, seed: u64, walls: &[(usize, usize)]) -> firststrike::scene::Scene {
    let mut scene = firststrike::scene::parse("battle.ron", &lit_battle(n, seed)).unwrap();
    let taken: BTreeSet<(usize, usize)> = scene
        .combatants
        .iter()
        .map(|c| ((c.at.0 / 5.0) as usize, (c.at.1 / 5.0) as usize))
        .collect();
    let map = scene.map.as_mut().unwrap();
    let (h, w) = (map.rows.len(), map.rows[0].len());
    for &(x, y) in walls {
        let (x, y) = (1 + x % (w - 2), 1 + y % (h - 2));
        if !taken.contains(&(x, y)) {
            map.rows[y].replace_range(x..x + 1, "#");
        }
    }
    scene
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn sight_events_are_the_gains_and_losses_of_sight(
        n in 4usize..36,
        seed in 0u64..1000,
        walls in proptest::collection::vec((0usize..100, 0usize..100), 0..40),
    ) {
        let scene = walled(n, seed, &walls);
        let mut run = SceneRun::new(scene, None, None);
        let mut folded = Pairs::new();
        let mut read = 0;
        let mut steps = 0;
        loop {
            let more = firststrike::sim::step(run.app.world_mut());
            steps += 1;
            let now = conditions(&mut run);
            let log = &run.log().events;
            for e in &log[read..] {
                let Payload::Sight { gained, .. } = e.payload else { continue };
                prop_assert_eq!(e.kind, EventKind::Sight);
                let pair = (e.who.unwrap().0 as usize, e.whom.unwrap().0 as usize);
                if gained {
                    prop_assert!(folded.insert(pair), "sight of {:?} gained twice", pair);
                } else {
                    prop_assert!(folded.remove(&pair), "sight of {:?} lost, never gained", pair);
                }
            }
            read = log.len();
            let held = engine(&run);
            // A gain the log missed: seen now, never logged.
            let unlogged: Vec<_> = held.difference(&folded).collect();
            prop_assert!(unlogged.is_empty(), "seen but not logged: {:?}", unlogged);
            // A loss the log missed is allowed only where a fall covers it.
            let stale: Vec<(usize, usize)> = folded.difference(&held).copied().collect();
            for (a, b) in stale {
                prop_assert!(
                    !now[&a].is_up() || now[&b] == Condition::Dead,
                    "sight of {:?} lost without an event", (a, b)
                );
                folded.remove(&(a, b));
            }
            #[cfg(feature = "viewer")]
            {
                let shown: Pairs = firststrike::viewer::Snapshot::capture(run.app.world_mut())
                    .sightings
                    .iter()
                    .map(|s| (s.0, s.1))
                    .collect();
                prop_assert_eq!(&shown, &folded, "the viewer's who sees whom");
            }
            if !more || steps > 60 {
                break;
            }
        }
        prop_assert!(steps > 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Turning the sight events off (`odds`, `compare`, `quiz`) changes nothing else: the
    /// log without its sight events is the same, event by event, and who sees whom at the
    /// end is the same.
    #[test]
    fn without_sight_events_the_rest_of_the_log_is_the_same(n in 4usize..40, seed in 0u64..1000) {
        let scene = firststrike::scene::parse("battle.ron", &lit_battle(n, seed)).unwrap();
        let mut with = SceneRun::new(scene.clone(), Some(seed), Some(2));
        with.run_to_end();
        let mut without = SceneRun::new(scene, Some(seed), Some(2)).without_sight_events();
        without.run_to_end();
        let key = |e: &firststrike::sim::LogEvent| {
            (e.round, e.segment, e.actor.to_string(), e.kind, e.target.clone().map(|t| t.to_string()), e.detail.clone(), e.rule.id)
        };
        let kept: Vec<_> = with.log().events.iter().filter(|e| e.kind != EventKind::Sight).map(key).collect();
        let got: Vec<_> = without.log().events.iter().map(key).collect();
        prop_assert!(with.log().events.iter().any(|e| e.kind == EventKind::Sight), "the battle logs sight");
        prop_assert!(without.log().events.iter().all(|e| e.kind != EventKind::Sight));
        prop_assert_eq!(kept, got);
        prop_assert_eq!(engine(&with), engine(&without));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Sight events counted, not made (`run --hide sight`), leave every other event as it
    /// is when they are made, its number in its segment (`seq`) included, in a lit battle
    /// and in a walking crowd on a map with pillars.
    #[test]
    fn counted_sight_events_leave_every_other_event_and_its_number(
        n in 4usize..40,
        seed in 0u64..1000,
        crowd in any::<bool>(),
    ) {
        let text = if crowd {
            firststrike::testing::crowd::walking_crowd(n, 12 + n / 2, seed)
        } else {
            lit_battle(n, seed)
        };
        let scene = firststrike::scene::parse("scene.ron", &text).unwrap();
        let mut made = SceneRun::new(scene.clone(), Some(seed), Some(2));
        made.run_to_end();
        let mut counted = SceneRun::new(scene, Some(seed), Some(2)).counting_sight_events();
        counted.run_to_end();
        let key = |e: &firststrike::sim::LogEvent| {
            (e.round, e.segment, e.seq, e.actor.to_string(), e.kind, e.detail.clone(), e.rule.id)
        };
        let rest = |r: &SceneRun| -> Vec<_> {
            r.log().events.iter().filter(|e| e.kind != EventKind::Sight).map(key).collect()
        };
        prop_assert!(made.log().events.iter().any(|e| e.kind == EventKind::Sight), "the scene logs sight");
        prop_assert_eq!(rest(&made), rest(&counted));
        // Fewer events held: one a batch in place of each batch.
        let sights = |r: &SceneRun| r.log().events.iter().filter(|e| e.kind == EventKind::Sight).count();
        prop_assert!(sights(&counted) <= sights(&made));
        prop_assert_eq!(engine(&made), engine(&counted));
    }
}

/// `run --hide sight` prints what `run` prints without its sight events, line for line in
/// JSON (every key and number the same), on every library scene and a generated crowd.
#[test]
fn run_hide_sight_is_run_without_its_sight_lines() {
    let dir = std::env::temp_dir().join(format!("fs-hide-sight-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let crowd = dir.join("crowd.ron");
    std::fs::write(
        &crowd,
        firststrike::testing::crowd::walking_crowd(60, 24, 3),
    )
    .unwrap();
    let mut scenes = firststrike::testing::library_scenes();
    scenes.push(crowd);
    for s in &scenes {
        let s = s.to_str().unwrap();
        let run = |args: &[&str]| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_firststrike"))
                .args(args)
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}");
            String::from_utf8(out.stdout).unwrap()
        };
        let all = run(&["run", s, "--format", "json"]);
        let hidden = run(&["run", s, "--format", "json", "--hide", "sight"]);
        let want: Vec<&str> = all
            .lines()
            .filter(|l| !l.contains(r#""kind":"sight""#))
            .collect();
        assert_eq!(hidden.lines().collect::<Vec<_>>(), want, "{s}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
