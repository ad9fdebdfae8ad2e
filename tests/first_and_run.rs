//! `firststrike first` and `firststrike run` agree: on every generated two-figure situation
//! the engine's plan is the rules core's order for the same actions, and playing the scene
//! lands the blows and completions in the order, and at the segments, `first` reports.
//! `odds` counts what `first` says, and the viewer (its own world, its preview) plays what
//! `run` plays.

use firststrike::calc::{self, Defaults};
use firststrike::rules::sequence::{EventKind as SeqKind, round_sequence};
use firststrike::scene::DieKind;
use firststrike::sim::{EventKind as K, Runner};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// One action in `first`'s syntax.
fn action(name: &'static str) -> impl Strategy<Value = String> {
    (
        0u8..8,
        1u32..=6,
        prop::option::of(1u32..=14),
        1u32..=3,
        0u32..=12,
        1u32..=10,
        prop::bool::weighted(0.2),
        3u32..=18,
    )
        .prop_map(move |(kind, die, sf, attacks, reach, time, speed, dex)| {
            let speed = if speed { " speed" } else { "" };
            let sf = sf.map(|s| format!(" sf={s}")).unwrap_or_default();
            let body = match kind {
                0 => format!("melee{sf} attacks={attacks} reach={reach}{speed}"),
                1 => format!("natural attacks={attacks} reach={reach}"),
                2 => format!("missile attacks={attacks} dex={dex}{speed}"),
                3 => format!("charge arrive={time} reach={reach}"),
                4 => format!("cast time={time}"),
                5 => "turn".to_string(),
                // A device with no activation time, alone or besides a blow.
                6 => "device".to_string(),
                _ => format!("melee{sf} reach={reach} then=device"),
            };
            format!("{name}: {body} d6={die}")
        })
}

fn figures(a: &str, b: &str) -> Vec<calc::Figure> {
    let d = Defaults::default();
    [a, b]
        .iter()
        .map(|s| calc::parse_action(s, &d).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The engine plans the same order as the rules core given the same two actions.
    #[test]
    fn the_engine_plans_the_rules_cores_order(a in action("A"), b in action("B")) {
        // Two charges at each other meet where their movements meet (the engine's
        // mutual arrival, tested in round_order.rs), not at each one's arrive=.
        prop_assume!(!(a.contains("charge") && b.contains("charge")));
        // A second action is the engine's (the core sees one action a figure).
        prop_assume!(!(a.contains("then=") || b.contains("then=")));
        let figs = figures(&a, &b);
        let d = Defaults::default();
        let (_, engine) = calc::calculate(&figs, &d).unwrap();
        let declared: Vec<_> = figs.iter().map(|f| f.declared.clone()).collect();
        let core = round_sequence(&declared, &d.context);
        // Beat by beat; the figures of one beat act together, in no order.
        let beats = |s: &firststrike::rules::sequence::Sequence| {
            s.outline()
                .into_iter()
                .map(|b| {
                    let mut names: Vec<String> = b.split('+').map(str::to_string).collect();
                    names.sort();
                    names.join("+")
                })
                .collect::<Vec<_>>()
        };
        prop_assert_eq!(beats(&engine), beats(&core), "{} / {}", a, b);
        let segs = |s: &firststrike::rules::sequence::Sequence| {
            s.beats.iter().map(|b| b.segment).collect::<Vec<_>>()
        };
        prop_assert_eq!(segs(&engine), segs(&core));
    }

    /// Playing the scene (every blow misses, so nothing is ruined and nobody falls) lands
    /// each blow and completion in the order `first` lays out, and at the segment it names
    /// where a rule fixes one.
    #[test]
    fn run_plays_what_first_says(a in action("A"), b in action("B")) {
        prop_assume!(!(a.contains("charge") && b.contains("charge")));
        let figs = figures(&a, &b);
        let d = Defaults::default();
        let (_, seq) = calc::calculate(&figs, &d).unwrap();
        let mut scene = calc::to_scene(&figs, &d);
        for c in &mut scene.combatants {
            c.hp = Some(1000);
        }
        let ones = |n: &str| (n.to_string(), vec![1; 40]);
        scene.dice.insert(DieKind::ToHit, BTreeMap::from([ones("A"), ones("B")]));
        let mut run = Runner::new(scene, None, None);
        run.run_to_end();
        // What `first` says, beat by beat: (actor, fixed segment) of blows and completions.
        let said: Vec<Vec<(String, Option<u32>)>> = seq
            .beats
            .iter()
            .map(|b| {
                b.events
                    .iter()
                    .filter(|e| e.kind != SeqKind::Arrive)
                    .map(|e| (e.name.clone(), e.segment))
                    .collect::<Vec<_>>()
            })
            .filter(|v| !v.is_empty())
            .collect();
        let played: Vec<(String, u32)> = run
            .log()
            .events
            .iter()
            .filter(|e| e.round == 1)
            .filter(|e| {
                matches!(e.kind, K::Hit | K::Miss | K::SpellComplete)
                    || (e.kind == K::Act && e.detail.starts_with("turns undead"))
                    || (e.kind == K::Act && e.detail.starts_with("uses the device"))
            })
            .map(|e| (e.actor.to_string(), e.segment))
            .collect();
        let said_flat: Vec<&(String, Option<u32>)> = said.iter().flatten().collect();
        prop_assert_eq!(played.len(), said_flat.len(), "{} / {}: {:?} vs {:?}", a, b, played, said);
        // Beat by beat: the same figures, in beat order (within a beat in any order).
        let mut k = 0;
        for beat in &said {
            let mut want: Vec<&String> = beat.iter().map(|x| &x.0).collect();
            let mut got: Vec<&String> = played[k..k + beat.len()].iter().map(|x| &x.0).collect();
            want.sort();
            got.sort();
            prop_assert_eq!(want, got, "{} / {}", a, b);
            for (who, seg) in beat {
                if let Some(s) = seg {
                    let at = played[k..k + beat.len()].iter().find(|x| &x.0 == who).unwrap().1;
                    prop_assert_eq!(at, *s, "{} at the segment first names ({} / {})", who, a, b);
                }
            }
            k += beat.len();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// `odds` counts what `first` says: on generated two-figure fights that strike each
    /// other, with every die the rules order by fixed, the trials agree (the outcome has
    /// probability 1) on who strikes the other first — the same answer as `first`'s beats.
    #[test]
    fn odds_counts_what_first_says(a in action("A"), b in action("B")) {
        use firststrike::calc::odds::{self, Reroll};
        let strikes = |s: &str| ["melee", "natural", "missile", "charge"].iter().any(|k| s.contains(k));
        prop_assume!(strikes(&a) && strikes(&b));
        prop_assume!(!(a.contains("charge") && b.contains("charge")));
        let figs = figures(&a, &b);
        let d = Defaults::default();
        let (_, seq) = calc::calculate(&figs, &d).unwrap();
        let beat_of = |who: &str| {
            seq.beats.iter().position(|bt| {
                bt.events.iter().any(|e| e.name == who && e.kind != SeqKind::Arrive)
            })
        };
        let (Some(ba), Some(bb)) = (beat_of("A"), beat_of("B")) else {
            return Ok(());
        };
        let want = match ba.cmp(&bb) {
            std::cmp::Ordering::Less => "first",
            std::cmp::Ordering::Equal => "together",
            std::cmp::Ordering::Greater => "second",
        };
        let mut scene = calc::to_scene(&figs, &d);
        for c in &mut scene.combatants {
            c.hp = Some(1000);
        }
        let ones = |n: &str| (n.to_string(), vec![1; 40]);
        scene.dice.insert(DieKind::ToHit, BTreeMap::from([ones("A"), ones("B")]));
        let o = odds::run(&scene, 3, 7, &Reroll::Unfixed, None);
        let pair: Vec<(&str, f64)> = o
            .outcomes
            .iter()
            .filter(|x| x.key.starts_with("pair:A:B:"))
            .map(|x| (x.key.trim_start_matches("pair:A:B:"), x.p))
            .collect();
        prop_assert_eq!(pair, vec![(want, 1.0)], "{} / {}", a, b);
    }
}

#[cfg(feature = "viewer")]
mod viewer {
    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

        /// The viewer plays what `run` plays, and its preview shows what `first` says: the
        /// scene of each generated pair played in the viewer's own world (loaded there, played
        /// ahead for the preview, then stepped to the end) logs exactly `run`'s events, and a
        /// charger's previewed path ends at the segment `first` gives its arrival.
        #[test]
        fn the_viewer_and_its_preview_play_what_run_and_first_say(a in action("A"), b in action("B")) {
            use firststrike::viewer::{Playback, preview::round_ahead};
            prop_assume!(!(a.contains("charge") && b.contains("charge")));
            let figs = figures(&a, &b);
            let d = Defaults::default();
            let (_, seq) = calc::calculate(&figs, &d).unwrap();
            let scene = calc::to_scene(&figs, &d);
            let mut run = Runner::new(scene.clone(), None, None);
            run.run_to_end();
            let mut host = Runner::host();
            let world = host.app.world_mut();
            let mut pb = Playback::start(world, "pair.ron".into(), scene.clone(), None, 0);
            pb.play_through(world, 1);
            let events = &world.resource::<firststrike::sim::EventLog>().events;
            for (i, name) in ["A", "B"].iter().enumerate() {
                let arrives = seq.beats.iter().flat_map(|b| &b.events)
                    .find(|e| e.kind == SeqKind::Arrive && e.name == *name)
                    .and_then(|e| e.segment);
                let p = round_ahead(&scene, events, firststrike::scene::FigureId(i as u32), 1);
                if let Some(s) = arrives {
                    prop_assert_eq!(p.ticks.last().map(|t| t.0), Some(s), "{} / {}", a, b);
                    prop_assert!(p.contact.is_some(), "{} / {}: no contact previewed", a, b);
                }
            }
            pb.goto(world, usize::MAX);
            prop_assert!(pb.over);
            let json = |e: &[firststrike::sim::LogEvent]| serde_json::to_string(e).unwrap();
            let viewer = &world.resource::<firststrike::sim::EventLog>().events;
            prop_assert_eq!(json(viewer), json(&run.log().events), "{} / {}", a, b);
            prop_assert_eq!(pb.log_now(world.resource()).len(), viewer.len());
        }
    }
}
