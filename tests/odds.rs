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
            .map_or(0.0, |o| o["p"].as_f64().unwrap())
    };
    let completes = "spell:Bigby:bigby's grasping hand:completes";
    let ruined = "spell:Bigby:bigby's grasping hand:ruined";
    let hits = "charge:Hill giant:Bigby:hits";
    let before = "charge:Hill giant:Bigby:before_spell";
    for run in 0..3 {
        assert_eq!(p(run, completes), 1.0, "run {run}");
        assert_eq!(p(run, before), 0.0, "run {run}");
    }
    assert_eq!(p(3, completes), 0.0);
    assert_eq!(p(3, before), 1.0);
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
}
