//! `firststrike odds`: counts that do not depend on the number of threads, and a
//! probability known by hand falling inside its interval.

mod common;
use common::firststrike as fs;

/// The same trials with 1 and 3 threads: the same counts, to the last one.
#[test]
fn the_same_counts_for_any_thread_count() {
    let run = |threads: &str| {
        let (code, out, err) = fs(&[
            "odds",
            "scenes/otis_vs_robilar.ron",
            "--trials",
            "60",
            "--reroll",
            "all",
            "--threads",
            threads,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let one = run("1");
    assert_eq!(one, run("3"));
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["odds"]["trials"], 60);
    let outcomes = v["odds"]["outcomes"].as_array().unwrap();
    assert!(
        outcomes
            .iter()
            .any(|o| o["key"].as_str().unwrap().starts_with("pair:"))
    );
    for o in outcomes {
        let (p, low, high) = (
            o["p"].as_f64().unwrap(),
            o["low"].as_f64().unwrap(),
            o["high"].as_f64().unwrap(),
        );
        assert!(low <= p && p <= high, "{o}");
    }
}

/// One blow needing 11 on a d20 at a foe of 1 hp: down half the time. Over 1000 trials the
/// 95% interval holds 50%, and is about ±3% wide.
#[test]
fn a_coin_flip_blow() {
    let dir = std::env::temp_dir().join(format!("fs-odds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("flip.ron");
    std::fs::write(
        &path,
        r#"Scene(
    name: "A coin-flip blow",
    setting: Indoors,
    seed: 3,
    combatants: [
        (name: "Fighter", side: "A", at: (10.0, 10.0), weapon: "long sword", thac0: 16, ac: 5, hp: 20),
        (name: "Dummy", side: "B", at: (10.0, 15.0), ac: 5, hp: 1),
    ],
    rounds: [(declare: { "Fighter": Melee(targets: ["Dummy"]), "Dummy": Hold })],
)"#,
    )
    .unwrap();
    let (code, out, err) = fs(&[
        "odds",
        path.to_str().unwrap(),
        "--trials",
        "1000",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let down = v["odds"]["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["key"] == "down:Dummy:round1")
        .expect("the dummy falls in some trials")
        .clone();
    let (low, high) = (
        down["low"].as_f64().unwrap(),
        down["high"].as_f64().unwrap(),
    );
    assert!(low < 0.5 && 0.5 < high, "{down}");
    assert!(high - low < 0.07, "{down}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad input: located scene errors, trials out of range, an unknown kind of die: exit 2.
#[test]
fn bad_input_exits_2() {
    for args in [
        vec!["odds", "scenes/bigby_vs_giant.ron", "--trials", "0"],
        vec!["odds", "scenes/bigby_vs_giant.ron", "--reroll", "charm"],
        vec!["odds", "scenes/bigby_vs_giant.ron", "--threads", "0"],
        vec!["odds", "no/such.ron"],
    ] {
        let (code, _, err) = fs(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.is_empty());
    }
}

/// A sweep of Bigby's casting time against the giant's charge, which arrives in segment 9
/// whatever the dice: up to 9 segments the spell completes every time (at 9 the two come
/// together, and a spell completing as a charge arrives goes off, DMG p.66); at 11 it
/// never completes, and it is ruined whenever the giant's blow lands.
#[test]
fn a_sweep_of_the_casting_time() {
    let (code, out, err) = fs(&[
        "odds",
        "scenes/bigby_vs_giant.ron",
        "--trials",
        "30",
        "--reroll",
        "all",
        "--vary",
        "Bigby.segments=5..11:2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["vary"]["values"],
        serde_json::json!([5.0, 7.0, 9.0, 11.0])
    );
    let p = |run: usize, key: &str| {
        v["runs"][run]["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["key"] == key)
            .unwrap_or_else(|| panic!("run {run} has no {key}: every run lists every outcome"))["p"]
            .as_f64()
            .unwrap()
    };
    // Every value lists the same outcomes, those that never happened at it at 0 trials.
    let keys = |run: usize| -> Vec<&str> {
        v["runs"][run]["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["key"].as_str().unwrap())
            .collect()
    };
    for run in 1..4 {
        assert_eq!(keys(run), keys(0), "run {run}");
    }
    let completes = "spell:Bigby:bigby's grasping hand:completes";
    let ruined = "spell:Bigby:bigby's grasping hand:ruined";
    let hits = "charge:Hill giant:Bigby:hits";
    let before = "charge:Hill giant:Bigby:before_spell";
    let after = "charge:Hill giant:Bigby:after_spell";
    // 5, 7 and 9 segments: the spell is done by segment 9, when the giant arrives.
    for run in 0..3 {
        assert_eq!(p(run, completes), 1.0, "run {run}");
        assert_eq!(p(run, before), 0.0, "run {run}");
        assert_eq!(p(run, after), 1.0, "run {run}");
    }
    assert_eq!(p(3, completes), 0.0);
    assert_eq!(p(3, before), 1.0);
    assert_eq!(p(3, after), 0.0);
    assert_eq!(
        p(3, ruined),
        p(3, hits),
        "ruined exactly when the blow lands"
    );
    // A field a sweep cannot vary, and a value the scene refuses: exit 2, said why.
    let (code, _, err) = fs(&[
        "odds",
        "scenes/bigby_vs_giant.ron",
        "--vary",
        "Bigby.charisma=1..3",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not a field"), "{err}");
    let (code, _, err) = fs(&[
        "odds",
        "scenes/bigby_vs_giant.ron",
        "--vary",
        "Hill giant.y=200..400:100",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("outside the map"), "{err}");
    // A sweep's trials in all are held to the same most as --trials alone.
    let (code, _, err) = fs(&[
        "odds",
        "scenes/bigby_vs_giant.ron",
        "--trials",
        "10000000",
        "--vary",
        "Bigby.hp=1..200",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("trials in all"), "{err}");
}

/// A play restarted in a used app (how the odds play their trials) is the same, event for
/// event, as a play in a new app with that seed — for every scene in the library, after a
/// first play with another seed, and with every die re-rolled.
#[test]
fn a_restarted_play_is_a_fresh_play() {
    use firststrike::calc::odds::{Reroll, for_trial};
    use firststrike::sim::Runner;
    for path in firststrike::testing::library_scenes() {
        let scene = firststrike::scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let scene = for_trial(&scene, &Reroll::All);
        let mut used = Runner::new(scene.clone(), Some(5), None);
        used.run_to_end();
        for seed in [1, 2, 977] {
            let mut fresh = Runner::new(scene.clone(), Some(seed), None);
            fresh.run_to_end();
            used.restart(seed).run_to_end();
            assert!(!fresh.log().events.is_empty(), "{}", path.display());
            assert_eq!(
                used.log().json_lines(),
                fresh.log().json_lines(),
                "{} seed {seed}",
                path.display()
            );
        }
    }
}

/// Two fighters with the same weapon, each side rolling its d6: the higher die strikes
/// first, a tie (6 in 36) strikes at the same moment (equal speed factors and lengths,
/// DMG p.66). The seeded intervals hold 15/36, 15/36 and 6/36, the three outcomes count
/// every trial once, and the intervals shrink as the trials grow (by about √8 from 500
/// to 4,000 trials).
#[test]
fn who_strikes_first_in_36ths() {
    use firststrike::calc::odds::{Odds, Reroll, run};
    let scene = firststrike::scene::parse(
        "duel.ron",
        r#"Scene(
    name: "Same weapons",
    setting: Indoors,
    seed: 3,
    combatants: [
        (name: "Anna", side: "A", at: (10.0, 10.0), weapon: "long sword", hp: 200),
        (name: "Bert", side: "B", at: (10.0, 15.0), weapon: "long sword", hp: 200),
    ],
    rounds: [(declare: { "Anna": Melee(targets: ["Bert"]), "Bert": Melee(targets: ["Anna"]) })],
)"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let get = |o: &Odds, key: &str| {
        o.outcomes
            .iter()
            .find(|x| x.key == key)
            .unwrap_or_else(|| panic!("{key} in {o:?}"))
            .clone()
    };
    let keys = [
        ("pair:Anna:Bert:first", 15.0 / 36.0),
        ("pair:Anna:Bert:second", 15.0 / 36.0),
        ("pair:Anna:Bert:together", 6.0 / 36.0),
    ];
    let small = run(&scene, 500, 11, &Reroll::Unfixed, None);
    let large = run(&scene, 4000, 11, &Reroll::Unfixed, None);
    for o in [&small, &large] {
        let total: u64 = keys.iter().map(|(k, _)| get(o, k).count).sum();
        assert_eq!(total, o.trials, "each trial has one order");
    }
    for (key, p) in keys {
        let (s, l) = (get(&small, key), get(&large, key));
        assert!(l.low < p && p < l.high, "{key}: {p} outside {l:?}");
        assert!(s.low < p && p < s.high, "{key}: {p} outside {s:?}");
        let ratio = (s.high - s.low) / (l.high - l.low);
        assert!((2.4..3.3).contains(&ratio), "{key}: width shrank {ratio}×");
    }
}

/// Quiet segments (nothing planned, nobody moving, nothing completing) are skipped, not
/// played system by system: every library scene gives the same log, event for event, with
/// every segment played in full, for several seeds and every die re-rolled.
#[test]
fn skipping_quiet_segments_changes_nothing() {
    use firststrike::sim::{PlayEverySegment, Runner};
    every_play(|path, scene, seed| {
        let mut quick = Runner::new(scene.clone(), Some(seed), None);
        quick.run_to_end();
        let mut full = Runner::new(scene.clone(), Some(seed), None);
        full.app.insert_resource(PlayEverySegment(true));
        full.run_to_end();
        assert_eq!(
            quick.log().json_lines(),
            full.log().json_lines(),
            "{path} seed {seed}"
        );
    });
}

/// Calls `f` for every library scene with every die re-rolled, at seeds 1, 2 and 977.
fn every_play(mut f: impl FnMut(&str, &firststrike::scene::Scene, u64)) {
    use firststrike::calc::odds::{Reroll, for_trial};
    for path in firststrike::testing::library_scenes() {
        let scene = firststrike::scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let scene = for_trial(&scene, &Reroll::All);
        for seed in [1, 2, 977] {
            f(&path.display().to_string(), &scene, seed);
        }
    }
}

/// The odds play their trials without words (`narrate::quietly`): every library scene,
/// for several seeds with every die re-rolled, gives the same log played quietly as played
/// with words — every event's round, segment, order, actor, kind, target, rule and typed
/// payload — and only the words are missing. The words, played aloud, are there: nothing is
/// decided by them, and none is lost from what `run` shows.
#[test]
fn playing_quietly_changes_nothing_but_the_words() {
    use firststrike::narrate::quietly;
    use firststrike::sim::Runner;
    let strip = |json: String| {
        json.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                let detail = v.as_object_mut().unwrap().remove("detail").unwrap();
                (v, detail.as_str().unwrap().to_string())
            })
            .collect::<Vec<_>>()
    };
    let mut worded = 0;
    every_play(|path, scene, seed| {
        let mut aloud = Runner::new(scene.clone(), Some(seed), None);
        aloud.run_to_end();
        let mut quiet = Runner::new(scene.clone(), Some(seed), None);
        quietly(|| quiet.run_to_end());
        let (a, q) = (
            strip(aloud.log().json_lines()),
            strip(quiet.log().json_lines()),
        );
        assert_eq!(a.len(), q.len(), "{path} seed {seed}");
        for ((ea, da), (eq, dq)) in a.iter().zip(&q) {
            assert_eq!(ea, eq, "{path} seed {seed}");
            assert!(!da.is_empty(), "{path}: aloud, every event has words");
            worded += usize::from(dq.is_empty());
        }
    });
    assert!(
        worded > 1000,
        "the quiet plays skipped the words ({worded} events)"
    );
}

/// Ctrl+C during a long run: the trials stop, the counts so far are printed (marked
/// interrupted, fewer trials than asked) and the exit code is 130.
#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_count_so_far() {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args([
            "odds",
            "scenes/bigby_vs_giant.ron",
            "--trials",
            "10000000",
            "--threads",
            "1",
            "--format",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let played = v["odds"]["trials"].as_u64().unwrap();
    assert!(played > 0 && played < 10_000_000, "{played}");
    assert_eq!(v["odds"]["interrupted"], true);
    let completes = v["odds"]["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["key"] == "spell:Bigby:bigby's grasping hand:cast")
        .expect("Bigby casts in every trial")
        .clone();
    assert_eq!(completes["count"].as_u64(), Some(played));
}

/// A blow in the same beat as a spell's completion is an outcome of its own: a caster of a
/// 4-segment spell against a blow at speed factor 4, each side rolling its d6. On a tie (6
/// in 36) the blow and the completion come together (DMG p.66-67); otherwise one side's
/// die puts one first. The seeded interval holds 1/6; with the dice fixed to a tie, every
/// trial counts it.
#[test]
fn a_blow_as_the_spell_completes() {
    use firststrike::calc::odds::{Reroll, run};
    let src = |initiative: &str| {
        format!(
            r#"Scene(
    name: "Blow as it completes",
    setting: Indoors,
    seed: 5,
    combatants: [
        (name: "Bigby", side: "A", at: (10.0, 10.0), hp: 200),
        (name: "Riggby", side: "B", at: (10.0, 15.0), speed_factor: 4, hp: 200),
    ],
    rounds: [(declare: {{ "Bigby": Cast(spell: "magic missile", target: Some("Riggby"), segments: Some(4)), "Riggby": Melee(targets: ["Bigby"]) }}{initiative})],
)"#
        )
    };
    let key = "spell:Bigby:magic missile:blow_as_it_completes";
    let scene = firststrike::scene::parse("s.ron", &src("")).unwrap_or_else(|e| panic!("{e}"));
    let o = run(&scene, 3000, 7, &Reroll::Unfixed, None);
    let got = o.outcomes.iter().find(|x| x.key == key).expect("counted");
    assert!(
        got.low <= 1.0 / 6.0 && 1.0 / 6.0 <= got.high,
        "{} of {}: [{}, {}]",
        got.count,
        got.trials,
        got.low,
        got.high
    );
    let tied = firststrike::scene::parse("t.ron", &src(r#", initiative: { "A": 3, "B": 3 }"#))
        .unwrap_or_else(|e| panic!("{e}"));
    let o = run(&tied, 50, 7, &Reroll::Unfixed, None);
    let got = o.outcomes.iter().find(|x| x.key == key).expect("counted");
    assert_eq!(got.count, 50);
    let apart = firststrike::scene::parse("a.ron", &src(r#", initiative: { "A": 5, "B": 2 }"#))
        .unwrap_or_else(|e| panic!("{e}"));
    let o = run(&apart, 50, 7, &Reroll::Unfixed, None);
    assert!(!o.outcomes.iter().any(|x| x.key == key));
}

/// Surprise is counted: each side surprised, and for how many segments — the counts of the
/// segments add up to the count of "surprised", and a side is surprised or not in every
/// trial where its surprise is rolled.
#[test]
fn surprise_is_counted_by_side_and_segments() {
    use firststrike::calc::odds::{Reroll, run};
    let scene = firststrike::scene::load(std::path::Path::new("scenes/duergar_ambush.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let o = run(&scene, 300, 3, &Reroll::All, None);
    let count = |k: &str| {
        o.outcomes
            .iter()
            .find(|x| x.key == k)
            .map_or(0, |x| x.count)
    };
    for side in ["Party", "Duergar"] {
        let surprised = count(&format!("surprise:{side}:surprised"));
        let by_segments: u64 = o
            .outcomes
            .iter()
            .filter(|x| x.key.starts_with(&format!("surprise:{side}:segments:")))
            .map(|x| x.count)
            .sum();
        assert_eq!(surprised, by_segments, "{side}");
        assert!(surprised > 0 && surprised < o.trials, "{side}: {surprised}");
    }
}

/// Who strikes first does not depend on hit points: with a foe that falls to any hit, the
/// first blow that drops it still counts as the first strike (it used to vanish, as the
/// foe never struck back), so the same 15/36, 15/36 and 6/36 hold, and every trial has one
/// order. A blow at a bystander who never aimed at the striker is no race.
#[test]
fn a_first_blow_that_drops_the_foe_is_a_first_strike() {
    use firststrike::calc::odds::{Reroll, run};
    let scene = firststrike::scene::parse(
        "duel.ron",
        r#"Scene(
    name: "One blow each",
    setting: Indoors,
    seed: 3,
    combatants: [
        (name: "Anna", side: "A", at: (10.0, 10.0), weapon: "long sword", hp: 1, ac: 10, thac0: 2),
        (name: "Bert", side: "B", at: (10.0, 15.0), weapon: "long sword", hp: 1, ac: 10, thac0: 2),
        (name: "Carl", side: "B", at: (15.0, 10.0), weapon: "long sword", hp: 200),
    ],
    rounds: [(declare: { "Anna": Melee(targets: ["Bert"]), "Bert": Melee(targets: ["Anna"]), "Carl": Hold })],
)"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let o = run(&scene, 3000, 5, &Reroll::Unfixed, None);
    let count = |key: &str| {
        o.outcomes
            .iter()
            .find(|x| x.key == key)
            .map_or(0, |x| x.count)
    };
    let (first, second, together) = (
        count("pair:Anna:Bert:first"),
        count("pair:Anna:Bert:second"),
        count("pair:Anna:Bert:together"),
    );
    assert_eq!(
        first + second + together,
        o.trials,
        "each trial has one order"
    );
    for (key, p) in [
        ("pair:Anna:Bert:first", 15.0 / 36.0),
        ("pair:Anna:Bert:second", 15.0 / 36.0),
        ("pair:Anna:Bert:together", 6.0 / 36.0),
    ] {
        let x = o.outcomes.iter().find(|x| x.key == key).unwrap();
        assert!(x.low < p && p < x.high, "{key}: {p} outside {x:?}");
    }
    assert!(
        !o.outcomes.iter().any(|x| x.key.contains("Carl")),
        "Carl aimed at no one: {:?}",
        o.outcomes.iter().map(|x| &x.key).collect::<Vec<_>>()
    );
}

/// `odds` names only what happened: in every library scene, "X's charge hits Y" is counted
/// only for a figure that declared a charge at Y (a goblin striking back at a charger, a
/// set spear, is no charge of its own), and "X strikes Y before Y strikes X" only for a Y
/// that meant to strike X with a blow (a caster aiming a spell at X is no blow race).
#[test]
fn odds_name_a_charge_or_a_race_only_where_one_was_declared() {
    let scenes: Vec<String> = std::fs::read_dir("scenes")
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| p.display().to_string())
        .collect();
    assert!(scenes.len() > 10);
    for scene in &scenes {
        let Ok(parsed) = firststrike::scene::load(scene) else {
            continue;
        };
        let (code, out, err) = fs(&["odds", scene, "--trials", "40", "--format", "json"]);
        assert_eq!(code, 0, "{scene}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let declares = |who: &str, at: &str, blows: bool| {
            let surprise = parsed.surprise_segments.iter().flat_map(|m| m.iter());
            let rounds = parsed
                .rounds
                .iter()
                .flat_map(|r| r.declare.iter().chain(r.change.iter()));
            surprise.chain(rounds).any(|(n, act)| {
                let kind = act.verb();
                n == who
                    && act.targets().contains(&at)
                    && if blows {
                        [
                            "melee",
                            "missile fire",
                            "charge",
                            "close",
                            "set against a charge",
                        ]
                        .contains(&kind.as_str())
                    } else {
                        kind == "charge"
                    }
            })
        };
        for o in v["odds"]["outcomes"].as_array().unwrap() {
            let key = o["key"].as_str().unwrap();
            let parts: Vec<&str> = key.split(':').collect();
            match parts.as_slice() {
                ["charge", who, at, "hits"] => {
                    assert!(
                        declares(who, at, false),
                        "{scene}: {key} without a charge declared"
                    )
                }
                ["pair", x, y, "first" | "second"] if o["count"].as_u64() > Some(0) => {
                    // One of the two struck; the other must have meant to strike back.
                    assert!(
                        declares(x, y, true) || declares(y, x, true),
                        "{scene}: {key}"
                    );
                }
                _ => {}
            }
        }
    }
}

/// DMG p.61: both sides surprised are netted, and `odds` counts what each side loses after
/// the netting, as `run` says it (the duergar ambush: the duergar lose none, the party 1).
#[test]
fn odds_count_the_surprise_segments_lost_after_netting() {
    let (code, out, err) = common::firststrike(&["odds", "duergar_ambush", "--trials", "50"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Duergar: no segment lost to surprise (netted)"),
        "{out}"
    );
    assert!(out.contains("Party: 1 segment lost to surprise"), "{out}");
    assert!(!out.contains("Party: 2 segments lost"), "{out}");
}

proptest::proptest! {
    /// A sweep's values are the range as the DM wrote it: each has no more decimals than
    /// FROM, TO and STEP (0..1:0.1 gives 0.3, not 0.30000000000000004), the last is TO
    /// when the steps reach it within rounding, and they rise by STEP (outside tester).
    #[test]
    fn a_sweeps_values_are_written_as_the_range_is(
        from_tenths in 0i32..50, steps in 1i32..40, step_tenths in 1i32..30,
    ) {
        let (from, step) = (f64::from(from_tenths) / 10.0, f64::from(step_tenths) / 10.0);
        let to = from + step * f64::from(steps);
        let text = format!("A.y={from:.1}..{to:.1}:{step:.1}");
        let v = firststrike::calc::sweep::parse(&text).unwrap();
        proptest::prop_assert_eq!(v.values.len() as i32, steps + 1, "{}", text);
        for (k, x) in v.values.iter().enumerate() {
            let shown = format!("{x}");
            let decimals = shown.split_once('.').map_or(0, |(_, d)| d.len());
            proptest::prop_assert!(decimals <= 1, "{} in {}", shown, text);
            let want = f64::from(from_tenths + step_tenths * k as i32) / 10.0;
            proptest::prop_assert!((x - want).abs() < 1e-9, "{} != {}", x, want);
        }
    }
}

/// Every kind of die a scene's `dice` can fix can be rolled afresh by name: `scatter` and
/// `into-melee` were refused (outside tester); an unknown name lists them all.
#[test]
fn every_kind_of_fixed_die_can_be_rerolled_by_name() {
    for kind in [
        "initiative",
        "surprise",
        "distance",
        "to-hit",
        "damage",
        "d4",
        "save",
        "percent",
        "scatter",
        "into-melee",
        "to-hit,into-melee",
    ] {
        let (code, _, err) = fs(&["odds", "bigby_vs_giant", "--trials", "20", "--reroll", kind]);
        assert_eq!(code, 0, "{kind}: {err}");
    }
    let (code, _, err) = fs(&[
        "odds",
        "bigby_vs_giant",
        "--trials",
        "20",
        "--reroll",
        "scater",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("scatter") && err.contains("into-melee"),
        "{err}"
    );
}
