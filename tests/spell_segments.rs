//! When does a spell begin? Logged at segment 0, "the very beginning of the round", a spell
//! begun with the round occupies segments 1 to its casting time: the JSON says so in the
//! payload (`occupies`), the text in words, and it completes in the last of them.

use firststrike::sim::{EventKind as K, Payload};
use firststrike::testing::SceneRun;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn a_spell_begun_with_the_round_occupies_segments_one_to_its_time(segs in 1u32..=10) {
        let src = format!(
            r#"Scene(name: "occupies", setting: Indoors, seed: 2,
    combatants: [
        (name: "Mage", side: "A", at: (10.0, 10.0), hp: 50),
        (name: "Orc", side: "B", at: (10.0, 200.0), hp: 50),
    ],
    rounds: [(declare: {{ "Mage": Cast(spell: "magic missile", target: Some("Orc"), segments: Some({segs})), "Orc": Hold }})])"#
        );
        let s = firststrike::scene::parse("o.ron", &src).unwrap_or_else(|e| panic!("{e}"));
        let mut run = SceneRun::new(s, None, Some(1));
        run.run_to_end();
        let ev = &run.log().events;
        let start = ev.iter().find(|e| e.kind == K::SpellStart).expect("begins");
        prop_assert_eq!(start.segment, 0);
        let Payload::SpellStart { occupies, completes, casting_segments, .. } = &start.payload else {
            panic!("a spell start carries its payload");
        };
        prop_assert_eq!(*occupies, [(1, 1), (1, segs)]);
        prop_assert_eq!(*completes, (1, segs));
        prop_assert_eq!(occupies[1].1 - occupies[0].1 + 1, *casting_segments);
        let words = if segs == 1 { "occupies segment 1".to_string() } else { format!("occupies segments 1-{segs}") };
        prop_assert!(start.detail.contains(&words), "{}", start.detail);
        let done = ev.iter().find(|e| e.kind == K::SpellComplete).expect("completes");
        prop_assert_eq!((done.round, done.segment), (1, segs));
        prop_assert!(start.json().contains("\"occupies\":[[1,1],"));
    }
}
