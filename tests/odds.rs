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
