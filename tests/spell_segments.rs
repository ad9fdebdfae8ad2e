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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// DMG p.65 and Table VII.C.7, with the default reading `instant_actions:
    /// AttackerFirst`: a spell of no casting time is a casting like any other — a winner's
    /// blow that hits it first ruins it, as it ruins a 1-segment spell; a caster who wins
    /// gets it off (the loser's blow comes at |speed factor - die|, at best with it). With
    /// `InstantFirst` it goes off first whatever the dice. (An outside
    /// tester's 0-segment spell was struck first and went off regardless.)
    #[test]
    fn a_spell_of_no_time_is_ruined_by_a_winners_hit(
        segs in 0u32..=1, caster in 1u32..=6, striker in 1u32..=6, instant_first in any::<bool>(),
    ) {
        prop_assume!(caster != striker);
        let rules = if instant_first { "rules: (instant_actions: InstantFirst)," } else { "" };
        let src = format!(
            r#"Scene(name: "zero", setting: Indoors, seed: 2, {rules}
              combatants: [
                (name: "B", side: "A", at: (10.0, 10.0), class: "magic-user", level: 9, ac: 10, hp: 30),
                (name: "R", side: "Z", at: (15.0, 10.0), weapon: "club", thac0: 15, ac: 5, hp: 80),
              ],
              rounds: [( declare: {{ "B": Cast(spell: "quick word", segments: Some({segs}), target: Some("R")), "R": Melee(targets: ["B"]) }},
                         initiative: {{ "A": {caster}, "Z": {striker} }} )],
              dice: {{ ToHit: {{ "R": [15] }} }})"#
        );
        let scene = firststrike::scene::parse("zero.ron", &src).unwrap();
        let mut r = SceneRun::new(scene, None, Some(1));
        r.run_to_end();
        let ev = &r.log().events;
        let ruined = ev.iter().any(|e| e.kind == K::SpellDisrupted);
        let completed = ev.iter().any(|e| e.kind == K::SpellComplete);
        prop_assert!(ruined != completed, "{:#?}", ev);
        let instant = instant_first && segs == 0;
        if striker > caster {
            prop_assert_eq!(ruined, !instant, "{:#?}", ev);
        } else if segs == 0 {
            // The loser's blow comes at |speed factor - its die|, never before segment 0:
            // at best simultaneous with the completion, which happens.
            prop_assert!(completed, "{:#?}", ev);
        }
    }
}
