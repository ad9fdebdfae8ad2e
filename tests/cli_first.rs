//! `firststrike first` from the command line: the book's cases, JSON shape, bad input.

use serde_json::Value;

mod common;
use common::firststrike as run;

fn json(args: &[&str]) -> Value {
    let mut all = vec!["first", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "stderr: {err}");
    serde_json::from_str(&out).expect("valid JSON")
}

fn segment_of(v: &Value, name: &str) -> Option<u64> {
    v["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .and_then(|a| a["segment"].as_u64())
}

fn outline(v: &Value) -> Vec<String> {
    v["sequence"]["beats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            b["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["name"].as_str().unwrap())
                .collect::<Vec<_>>()
                .join("+")
        })
        .collect()
}

/// A blow whose number passes the round's 10 segments, against a spell of a round or
/// less, is said to be struck last, in segment 10 — the segment it is listed at — not
/// left reading "= 17" beside "segment 10" (outside tester). Whatever the speed factor and
/// dice that make it so.
#[test]
fn a_blow_past_the_rounds_segments_says_it_comes_last() {
    for (sf, die) in [(18, 1), (12, 1), (15, 4)] {
        let (code, out, err) = run(&[
            "first",
            "Mage: cast time=10 d6=5",
            &format!("Ftr: melee sf={sf} d6={die}"),
        ]);
        assert_eq!(code, 0, "{err}");
        let n = sf - die;
        assert!(
            out.contains(&format!(
                "= {n} (past the round's 10 segments: struck last, in segment 10)"
            )),
            "sf {sf} die {die}: {out}"
        );
    }
    let (_, out, _) = run(&["first", "Mage: cast time=10 d6=5", "Ftr: melee sf=8 d6=1"]);
    assert!(!out.contains("past the round's"), "{out}");
}

#[test]
fn power_word_kill_three_cases() {
    // Riggby wins: the staff first.
    let v = json(&["Bigby: cast time=1 d6=2", "Riggby: melee sf=4 d6=5"]);
    assert_eq!(v["first"], serde_json::json!(["Riggby"]));
    // Tied: the spell first (segment 1 against speed factor 4).
    let v = json(&["Bigby: cast time=1 d6=4", "Riggby: melee sf=4 d6=4"]);
    assert_eq!(v["first"], serde_json::json!(["Bigby"]));
    assert_eq!(
        (segment_of(&v, "Bigby"), segment_of(&v, "Riggby")),
        (Some(1), Some(4))
    );
    // Bigby wins 6-4: |4-4| = 0, the staff first.
    let v = json(&["Bigby: cast time=1 d6=6", "Riggby: melee sf=4 d6=4"]);
    assert_eq!(v["first"], serde_json::json!(["Riggby"]));
    assert_eq!(
        (segment_of(&v, "Bigby"), segment_of(&v, "Riggby")),
        (Some(1), Some(0))
    );
    let rule = &v["sequence"]["beats"][0]["events"][0]["rule"];
    assert_eq!(rule["id"], "spell.melee_attacker_loses");
    assert_eq!(rule["page"], "DMG p.66-67");
}

#[test]
fn giant_against_bigbys_seven_segment_spell() {
    let v = json(&[
        "Bigby: cast time=7 d6=4",
        "Hill giant: charge move=12 distance=200 reach=10 d6=3",
    ]);
    assert_eq!(v["first"], serde_json::json!(["Bigby"]));
    assert_eq!(segment_of(&v, "Bigby"), Some(7));
    assert_eq!(segment_of(&v, "Hill giant"), Some(9));
    let (code, text, _) = run(&[
        "first",
        "Bigby: cast time=7 d6=4",
        "Hill giant: charge move=12 distance=200 d6=3",
    ]);
    assert_eq!(code, 0);
    assert!(text.contains("segment  7  Bigby completes"), "{text}");
    assert!(text.contains("segment  9  Hill giant arrives"), "{text}");
    assert!(text.contains("DMG p.66"), "{text}");
}

#[test]
fn zagyg_round_three_sequence() {
    let actors = [
        "Tenser: melee sf=2 length=1.25 d6=3",
        "Otis: melee sf=4 length=3 d6=3",
        "Robilar: melee sf=13 length=18 d6=3",
    ];
    let v = json(&actors);
    assert_eq!(
        outline(&v),
        vec!["Tenser", "Otis", "Tenser", "Otis", "Tenser+Robilar"]
    );
    let mut after = vec!["--after-closing"];
    after.extend_from_slice(&actors);
    assert_eq!(outline(&json(&after)), vec!["Robilar", "Otis", "Tenser"]);
}

#[test]
fn otis_three_halves_by_round() {
    let r1 = json(&[
        "--round",
        "1",
        "Otis: melee sf=7 rate=3/2 d6=3",
        "Robilar: melee sf=5 rate=2/1 d6=3",
    ]);
    assert_eq!(outline(&r1), vec!["Robilar", "Otis", "Robilar", "Otis"]);
    let r2 = json(&[
        "--round",
        "2",
        "Otis: melee sf=7 rate=3/2 d6=3",
        "Robilar: melee sf=5 rate=2/1 d6=3",
    ]);
    assert_eq!(outline(&r2), vec!["Robilar", "Otis", "Robilar"]);
    // The other reading of 3/2 swaps the rounds.
    let alt = json(&[
        "--round",
        "1",
        "--alternating-rate",
        "even",
        "Otis: melee sf=7 rate=3/2 d6=3",
        "Robilar: melee sf=5 rate=2/1 d6=3",
    ]);
    assert_eq!(outline(&alt), vec!["Robilar", "Otis", "Robilar"]);
}

#[test]
fn leomund_dexterity_wins_the_tie() {
    let v = json(&["Leomund: missile dex=16 d6=5", "Spectator: natural d8=5"]);
    assert_eq!(v["first"], serde_json::json!(["Leomund"]));
}

#[test]
fn bad_input_names_the_bad_part_and_exits_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["first", "Bigby cast time=1 d6=6", "Riggby: melee d6=4"],
            "expected 'NAME: KIND",
        ),
        (
            &["first", "Bigby: cast d6=6", "Riggby: melee d6=4"],
            "needs time=SEGMENTS",
        ),
        (
            &["first", "Bigby: fly d6=6", "Riggby: melee d6=4"],
            "unknown action kind 'fly'",
        ),
        (
            &["first", "Bigby: cast time=1 d6=9", "Riggby: melee d6=4"],
            "a d6 shows 1 to 6",
        ),
        (
            &["first", "Bigby: cast time=1", "Riggby: melee d6=4"],
            "initiative die",
        ),
        (
            &[
                "first",
                "Bigby: cast time=1 d6=2 wings=3",
                "Riggby: melee d6=4",
            ],
            "unknown setting 'wings=3'",
        ),
        (
            &[
                "first",
                "Ogre: charge move=9 distance=500 d6=2",
                "Riggby: melee d6=4",
            ],
            "cannot cover 500 ft this round",
        ),
        (
            &["first", "Ogre: charge arrive=12 d6=2", "Riggby: melee d6=4"],
            "cannot arrive this round",
        ),
        (
            &[
                "first",
                "Ogre: charge move=9 distance=50 d6=2 encumbered",
                "Riggby: melee d6=4",
            ],
            "encumbered creature cannot charge",
        ),
        (
            &["first", "A: melee d6=2 side=x", "B: melee d6=4 side=x"],
            "same side",
        ),
        (
            &["first", "A: melee sf=x d6=2", "B: melee d6=4"],
            "sf takes a whole number",
        ),
        (&["first", "A: melee d6=2"], "at least two actions"),
        // A key of the other system's names the flag that takes it, either way.
        (
            &["first", "A: melee d10=3", "B: melee d6=2"],
            "'d10=3' is a setting of \"Take Initiative!\": give --system take-initiative",
        ),
        (
            &[
                "first",
                "--system",
                "take-initiative",
                "A: melee d6=3",
                "B: melee d10=2",
            ],
            "'d6=3' is a setting of the book's rules",
        ),
        (
            &["first", "--round", "zero", "A: melee d6=2", "B: melee d6=3"],
            "invalid value",
        ),
    ];
    for (args, needle) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?} should exit 2; stdout {out}");
        assert!(
            err.contains(needle),
            "{args:?}: stderr should mention {needle:?}, got: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

#[test]
fn help_documents_the_syntax_with_examples() {
    let (code, out, _) = run(&["first", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("NAME: KIND"));
    assert!(out.contains("firststrike first 'Bigby: cast time=1 d6=6' 'Riggby: melee sf=4 d6=4'"));
    // Every reading the README names has its switch.
    for switch in [
        "--alternating-rate",
        "--first-round-tiebreak",
        "--spell-start",
        "--tied-speed-factor",
        "--later-routines",
        "--extra-blows",
        "--missile-volley",
        "--missile-vs-charge",
        "--instant-actions",
    ] {
        assert!(out.contains(switch), "{switch} in --help");
    }
}

#[test]
fn a_reading_switch_changes_the_answer() {
    let actions = ["Archer: missile d6=2", "Ogre: charge arrive=3 d6=5"];
    let v = json(&actions);
    assert_eq!(v["first"], serde_json::json!(["Archer"]));
    let mut args = vec!["--missile-vs-charge", "by-initiative"];
    args.extend(actions);
    let v = json(&args);
    assert_eq!(v["first"], serde_json::json!(["Ogre"]));
    assert!(
        v["options"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o == "missile_vs_charge: ByInitiative")
    );
}

#[test]
fn weapons_and_spells_by_name_from_the_tables() {
    let v = json(&[
        "--round",
        "1",
        "Otis: melee weapon=battle_axe rate=3/2 d6=3",
        "Robilar: melee weapon=long_sword rate=2/1 d6=3",
    ]);
    assert_eq!(outline(&v), vec!["Robilar", "Otis", "Robilar", "Otis"]);
    let v = json(&[
        "Bigby: cast spell=power_word_kill d6=6",
        "Riggby: melee weapon=staff d6=4",
    ]);
    assert_eq!(v["first"], serde_json::json!(["Riggby"]));
    let v = json(&[
        "Bigby: device spell=wand_of_frost_(cone_of_cold) d6=3",
        "Riggby: melee weapon=hammer d6=3",
    ]);
    assert_eq!(v["first"], serde_json::json!(["Bigby"]));
    let (code, _, err) = run(&["first", "A: melee weapon=long_swrod d6=2", "B: melee d6=3"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean 'long_sword'"), "{err}");
    let (code, _, err) = run(&["first", "A: melee weapon=long_bow d6=2", "B: melee d6=3"]);
    assert_eq!(code, 2);
    assert!(err.contains("missile weapon"), "{err}");
}

/// A spear set against a charge ("Take Initiative!" §9) strikes first at contact, though the
/// lance is longer; a weapon that cannot be set is refused.
#[test]
fn a_set_spear_from_the_command_line() {
    let v = json(&[
        "Pikeman: set weapon=spear d6=2",
        "Knight: charge arrive=4 weapon=lance d6=5",
    ]);
    assert_eq!(v["first"], serde_json::json!(["Pikeman"]));
    // The charge arrives, then the set spear meets it, both in segment 4.
    let beats = &v["sequence"]["beats"];
    assert_eq!(beats[0]["events"][0]["name"], "Knight");
    assert_eq!(beats[0]["events"][0]["rule"]["id"], "charge.arrival");
    let beat = &beats[1];
    assert_eq!(beat["segment"], 4);
    assert_eq!(beat["events"][0]["rule"]["id"], "charge.set");
    let (code, _, err) = run(&[
        "first",
        "Pikeman: set weapon=long_sword d6=2",
        "Knight: charge arrive=4 d6=5",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("spear or pole arm"), "{err}");
}

/// `hasted` doubles the rate (PHB p.74; the table's Erac's Cousin): three routines against
/// one, first and last. `close` gives no blows unless the one closed on charges.
#[test]
fn hasted_and_close_from_the_command_line() {
    let v = json(&[
        "Cousin: melee sf=5 rate=3/2 hasted d6=5",
        "Serten: melee sf=7 d6=2",
    ]);
    assert_eq!(outline(&v), vec!["Cousin", "Cousin", "Serten", "Cousin"]);
    let v = json(&["Fighter: close d6=3", "Orc: charge arrive=3 d6=5"]);
    let names: Vec<String> = outline(&v);
    assert!(
        names.iter().any(|b| b.contains("Fighter")),
        "strikes back: {names:?}"
    );
    let v = json(&["Fighter: close d6=3", "Orc: melee d6=5"]);
    assert!(
        !outline(&v).iter().any(|b| b.contains("Fighter")),
        "no blows while closing"
    );
}

/// `slowed` halves the rate and the figure acts as if it lost initiative (a named reading);
/// `then=WEAPON` gives a normal attack after an item of speed's shot, placed by initiative
/// (DMG p.168 for the shot); `other` is a non-combat act placed by its side's die.
#[test]
fn slowed_then_and_other_from_the_command_line() {
    // The 2/1 knight won 6-2, but slowed he attacks once, after the orc.
    let v = json(&[
        "Knight: melee sf=5 rate=2/1 slowed d6=6",
        "Orc: melee sf=7 d6=2",
    ]);
    assert_eq!(outline(&v), vec!["Orc", "Knight"]);
    // The crossbow of speed's two shots (twice the light crossbow's rate) first and last,
    // whatever the dice; the sword after the orc who won 5-2, before it when the archer
    // wins 5-2 — as `run` plays scenes/second_actions.ron.
    let v = json(&[
        "Archer: missile weapon=light_crossbow speed then=short_sword d6=2",
        "Orc: melee weapon=long_sword d6=5",
    ]);
    assert_eq!(outline(&v), vec!["Archer", "Orc", "Archer", "Archer"]);
    let v = json(&[
        "Archer: missile weapon=light_crossbow speed then=short_sword d6=5",
        "Orc: melee weapon=long_sword d6=2",
    ]);
    assert_eq!(outline(&v), vec!["Archer", "Archer", "Orc", "Archer"]);
    // Without an item of speed there is no second action.
    let (code, _, err) = run(&[
        "first",
        "Archer: missile weapon=light_crossbow then=short_sword d6=5",
        "Orc: melee weapon=long_sword d6=2",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("item of speed"), "{err}");
    // The thief's search comes on his side's die: before the ogre when he wins.
    let v = json(&["Thief: other d6=4", "Ogre: melee sf=7 d6=2"]);
    assert_eq!(outline(&v), vec!["Thief", "Ogre"]);
    let v = json(&["Thief: other d6=1", "Ogre: melee sf=7 d6=2"]);
    assert_eq!(outline(&v), vec!["Ogre", "Thief"]);
    assert_eq!(v["actions"][0]["category"], "OTHER");
}

/// Every example in `first --help` runs (exit 0), and every kind of action has one.
#[test]
fn every_help_example_runs_and_every_kind_has_one() {
    let src = std::fs::read_to_string("src/cli/first.rs").unwrap();
    let examples: Vec<&str> = src
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("firststrike first "))
        .collect();
    assert!(examples.len() >= 15, "{}", examples.len());
    let mut kinds = std::collections::BTreeSet::new();
    for ex in &examples {
        // Options are bare words; actions are quoted.
        let mut args = vec!["first".to_string()];
        let mut rest = ex.trim();
        while !rest.is_empty() {
            if let Some(q) = rest.strip_prefix('\'') {
                let end = q.find('\'').expect("closing quote");
                args.push(q[..end].to_string());
                rest = q[end + 1..].trim_start();
            } else {
                let end = rest.find(' ').unwrap_or(rest.len());
                args.push(rest[..end].to_string());
                rest = rest[end..].trim_start();
            }
        }
        for a in args.iter().filter(|a| a.contains(':')) {
            let kind = a
                .split(':')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            kinds.insert(kind.to_string());
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = run(&refs);
        assert_eq!(code, 0, "{ex}: {err}");
    }
    for k in [
        "melee", "natural", "missile", "charge", "cast", "device", "turn", "set", "close", "other",
    ] {
        assert!(kinds.contains(k), "no example of '{k}'");
    }
}

/// `first --system take-initiative`: each figure's d10 and its Appendix B modifiers, named;
/// the lower total first; over 20 in the next round ("Take Initiative!" Basics, §1).
#[test]
fn first_under_take_initiative() {
    let v = json(&[
        "--system",
        "take-initiative",
        "Sword: melee sf=5 d10=9",
        "Orc: melee sf=7 d10=3",
    ]);
    assert_eq!(v["system"], "take_initiative");
    assert_eq!(v["actions"][0]["total"], 14);
    assert_eq!(v["actions"][1]["total"], 10);
    assert_eq!(v["order"][0]["names"][0], "Orc");
    assert_eq!(v["order"][1]["acts"]["segment"], 14);
    // A cantrip is a spell of level 0 (+6 + 0, as a scene's Cantrips are cast): taken,
    // and 10 is still refused with the range.
    let v = json(&[
        "--system",
        "take-initiative",
        "Apprentice: cast level=0 d10=3",
        "Orc: melee d10=5",
    ]);
    assert_eq!(v["actions"][0]["total"], 9);
    let (code, _, err) = run(&[
        "first",
        "--system",
        "take-initiative",
        "Mage: cast level=10 d10=3",
        "Orc: melee d10=5",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("0 to 9"), "{err}");
    // §1: changed on segment 9 to a long move with a new d10 of 4: 23, next round on 3.
    let v = json(&[
        "--system",
        "take-initiative",
        "Sword: move far d10=9 change=4",
        "Orc: melee sf=7 d10=3",
    ]);
    assert_eq!(v["actions"][0]["total"], 23);
    assert_eq!(v["actions"][0]["acts"]["rounds_later"], 1);
    assert_eq!(v["actions"][0]["acts"]["segment"], 3);
    let ids: Vec<&str> = v["actions"][0]["modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec!["change_action", "reroll", "move_full"]);
    // Without dice: each pair over its 100 rolls. A 3rd-level spell (d10 + 9) against a
    // charge (d10 + 4): the charge is first when 4 + k < 9 + j...
    let v = json(&[
        "--system",
        "take-initiative",
        "Mage: cast level=3",
        "Knight: charge",
    ]);
    let p = &v["pairs"][0];
    let (a, t, b) = (
        p["a_first"].as_u64().unwrap(),
        p["together"].as_u64().unwrap(),
        p["b_first"].as_u64().unwrap(),
    );
    assert_eq!(a + t + b, 100);
    // ...counted by hand: together when k = j + 5 (5 ways); the mage first when k > j + 5
    // (1+2+3+4 = 10 ways).
    assert_eq!((a, t, b), (10, 5, 85));
    // Changing past the base die is refused (Basics).
    let (code, _, err) = run(&[
        "first",
        "--system",
        "take-initiative",
        "Sword: move far d10=9 change=4 at=10",
        "Orc: melee sf=7 d10=3",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("past its base initiative"), "{err}");
}

/// What the user typed comes back in `first`'s errors shown, never obeyed: an escape or a
/// bell in a weapon, a spell, a setting or a kind is escaped; a side holding one is
/// refused, as a scene's name is; a name of 100,000 characters is cut.
#[test]
fn escapes_typed_into_first_never_reach_the_terminal() {
    for bad in [
        "A: melee sf=4 d6=3 weapon=a\u{1b}]0;PWNED\u{7}",
        "A: cast spell=x\u{1b}[31m d6=3",
        "A: melee sf=4 d6=3 colour\u{1b}[2J=1",
        "A: smash\u{7} d6=3",
        "A: melee sf=4 d6=3 side=x\u{1b}]0;X\u{7}",
    ] {
        let (code, _, err) = run(&["first", bad, "B: melee sf=4 d6=2"]);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(
            !err.contains('\u{1b}') && !err.contains('\u{7}'),
            "{bad:?}: {err:?}"
        );
    }
    let long = format!("{}: melee sf=4 d6=3 weapon=nothing", "A".repeat(100_000));
    let (code, _, err) = run(&["first", &long, "B: melee sf=4 d6=2"]);
    assert_eq!(code, 2);
    assert!(err.len() < 2_000, "{} bytes of error", err.len());
}

/// An item of speed decides a pair whatever the dice (DMG p.168; UA p.104, 106): `first`
/// names the item, not the charts' "High d6" cell — also when the item's side lost the
/// dice, where "High d6" would say the opposite of what happened.
#[test]
fn an_item_of_speed_is_named_not_the_dice() {
    for (weapon, mine, theirs) in [
        ("light_crossbow", 2, 5),
        ("light_crossbow", 5, 2),
        ("short_sword", 1, 6),
    ] {
        let me = format!(
            "A: {} weapon={weapon} speed d6={mine}",
            if weapon.contains("crossbow") {
                "missile"
            } else {
                "melee"
            }
        );
        let them = format!("O: melee weapon=long_sword d6={theirs}");
        let (code, out, err) = run(&["first", &me, &them]);
        assert_eq!(code, 0, "{err}");
        let pair = out
            .lines()
            .find(|l| l.contains("A before O"))
            .unwrap_or_else(|| panic!("A first:\n{out}"));
        assert!(
            pair.contains("[item of speed; DMG p.168; UA p.104, 106]") && !pair.contains("High d6"),
            "{pair}"
        );
    }
}

/// A weapon set against a charge strikes first whatever the reaches (reading `charge.set`):
/// the pair line names that reading, not the chart's "Longer Reach", which for a short spear
/// against a long pike says the opposite of what happened (outside tester).
#[test]
fn a_set_weapon_names_its_own_reading_not_the_longer_reach() {
    for (set, charger) in [
        ("spear", "awl_pike"),
        ("spear", "spear"),
        ("halberd", "dagger"),
    ] {
        let (code, out, err) = run(&[
            "first",
            &format!("Pike: set weapon={set} d6=5"),
            &format!("Orc: charge arrive=2 weapon={charger} d6=2"),
        ]);
        assert_eq!(code, 0, "{err}");
        let line = out
            .lines()
            .find(|l| l.contains("Pike before Orc"))
            .unwrap_or_else(|| panic!("no pair line for {set} against {charger}:\n{out}"));
        assert!(line.contains("[set against a charge; DMG p.66]"), "{line}");
        assert!(!line.contains("Longer Reach"), "{line}");
    }
}

/// A side rolls one die (DMG p.62: a d8 if any member rolls one): two members of a side
/// giving a d8 and a d6 are refused, as two different numbers are, whatever the numbers
/// (it printed "High d6" with a d8 on the side). Exit 2, both names in the message.
#[test]
fn a_side_giving_a_d8_and_a_d6_is_refused() {
    for (a, b) in [(3, 3), (3, 5), (8, 1)] {
        let (code, _, err) = run(&[
            "first",
            &format!("Watcher: melee side=Us d8={a}"),
            &format!("Guard: melee side=Us d6={}", b.min(6)),
            "Orc: melee d6=2",
        ]);
        assert_eq!(code, 2, "d8={a} d6={b}: {err}");
        assert!(err.contains("Watcher") && err.contains("Guard"), "{err}");
        assert!(err.contains("one die"), "{err}");
    }
    // The same die on the side is accepted.
    let (code, _, err) = run(&[
        "first",
        "Watcher: melee side=Us d8=3",
        "Guard: melee side=Us d8=3",
        "Orc: melee d6=2",
    ]);
    assert_eq!(code, 0, "{err}");
}

/// A Dexterity penalty can take a missile's initiative below zero: the score reads "1 to -2",
/// never "1--2" (outside tester).
#[test]
fn a_score_below_zero_reads_with_to() {
    let (code, out, err) = run(&["first", "A: missile dex=3 d6=1", "B: melee d6=1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("won initiative 1 to -2"), "{out}");
    assert!(!out.contains("--"), "{out}");
}

/// `close` is moving up into reach (DMG p.66: no blows the round one closes): the closer is
/// listed with the engine's reason, never dropped from the answer, and a foe it closes on
/// strikes no blow either — as `run` plays the same two (outside tester: the closer was
/// missing from "Actions" and the JSON, and the foe struck it).
#[test]
fn a_closer_is_listed_with_why_it_strikes_no_blow() {
    for foe in ["melee sf=7", "missile weapon=short_bow", "other"] {
        let (code, out, err) = run(&["first", "F: close d6=5", &format!("O: {foe} d6=2")]);
        assert_eq!(code, 0, "{err}");
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with("F "))
            .unwrap_or_else(|| panic!("F missing:\n{out}"));
        assert!(
            line.contains("no blows this round") && line.contains("DMG p.66"),
            "{line}"
        );
        let v = json(&["F: close d6=5", &format!("O: {foe} d6=2")]);
        let idle = v["idle"].as_array().expect("idle listed");
        assert!(
            idle.iter()
                .any(|i| i["name"] == "F" && i["rule"]["id"] == "charge.no_melee"),
            "{v}"
        );
        assert!(
            !outline(&v).iter().any(|b| b.contains('F')),
            "the closer strikes: {:?}",
            outline(&v)
        );
    }
}

/// Haste doubles a rate's routines: past 12 `first` refuses it as a scene does ("routines
/// 24 is outside 1 to 12"), where it was cut to 12 without a word (outside tester).
#[test]
fn a_hasted_rate_past_twelve_is_refused_as_in_a_scene() {
    for rate in ["7/1", "12/1"] {
        let (code, _, err) = run(&[
            "first",
            &format!("A: melee rate={rate} hasted sf=1 d6=3"),
            "B: melee sf=1 d6=2",
        ]);
        assert_eq!(code, 2, "{rate}: {err}");
        assert!(
            err.contains("hasted") && err.contains("outside 1 to 12"),
            "{err}"
        );
    }
    let (code, out, err) = run(&[
        "first",
        "A: melee rate=6/1 hasted sf=1 d6=3",
        "B: melee sf=1 d6=2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("routines 12"), "{out}");
}

/// The words name who has more routines and put it first: "3 routines (A) against 1 (B)"
/// whichever side is declared first (outside tester: A with 3 read "1 routine against 3").
#[test]
fn more_routines_are_named_with_their_count() {
    for (a, b) in [
        ("A: melee sf=5 attacks=3 d6=2", "B: melee sf=5 d6=5"),
        ("B: melee sf=5 d6=5", "A: melee sf=5 attacks=3 d6=2"),
    ] {
        let (code, out, err) = run(&["first", a, b]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("3 routines (A) against 1 (B)"), "{out}");
    }
}

/// A spell a blow ruins reads as the caster struck by the striker, not as a spell aimed at
/// the striker; the JSON keeps its actor and target.
#[test]
fn a_ruined_spell_names_who_struck_the_caster() {
    let (code, out, err) = run(&["run", "scenes/orc_shaman.ron"]);
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.contains("curse is ruined"))
        .expect("the ruin is logged");
    assert!(line.contains("Shaman (struck by Fighter)"), "{line}");
    assert!(!line.contains("Shaman → Fighter"), "{line}");
    let (code, out, err) = run(&["run", "scenes/orc_shaman.ron", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let ruin: Value = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .find(|e| e["kind"] == "spell_disrupted")
        .expect("the ruin is in the JSON");
    assert_eq!(
        (ruin["actor"].as_str(), ruin["target"].as_str()),
        (Some("Shaman"), Some("Fighter"))
    );
}

/// A charger given several attacks is told it strikes once, at contact (outside tester:
/// attacks=2 became "routines 1" without a word).
#[test]
fn a_charge_says_it_strikes_once() {
    let (code, out, err) = run(&[
        "first",
        "K: charge arrive=3 weapon=long_sword attacks=2 d6=1",
        "P: melee weapon=dagger d6=6",
    ]);
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("K "))
        .expect("K's line");
    assert!(
        line.contains("routines 1 (a charge strikes once, at contact)"),
        "{line}"
    );
}

/// DMG p.61: between figures acting apart (neither aims at the other), the higher die
/// goes first, as `run` merges their fights — for every pair of d6s and whichever figure is
/// named first; on equal dice both are first. (`first` named the first listed whatever the
/// dice.)
#[test]
fn figures_acting_apart_go_by_the_higher_die() {
    for a in 1..=6 {
        for b in 1..=6 {
            for flip in [false, true] {
                let (x, y) = (format!("A: other d6={a}"), format!("B: other d6={b}"));
                let args: Vec<&str> = if flip {
                    vec!["first", &y, &x, "--format", "json"]
                } else {
                    vec!["first", &x, &y, "--format", "json"]
                };
                let (code, out, err) = run(&args);
                assert_eq!(code, 0, "{err}");
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                let mut first: Vec<&str> = v["first"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_str().unwrap())
                    .collect();
                first.sort_unstable();
                let want: Vec<&str> = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => vec!["A"],
                    std::cmp::Ordering::Less => vec!["B"],
                    std::cmp::Ordering::Equal => vec!["A", "B"],
                };
                assert_eq!(first, want, "A {a}, B {b}, flipped {flip}");
            }
        }
    }
}

/// A charge placed two ways at once (arrive= and distance=) is refused, exit 2: the two
/// may disagree (segment 9 at 50 ft, 24 ft a segment, was played as 9 without a word).
#[test]
fn a_charge_given_both_arrive_and_distance_is_refused() {
    let (code, _, err) = run(&[
        "first",
        "A: charge arrive=9 distance=50 move=12 d6=6",
        "B: melee sf=4 d6=4",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not both"), "{err}");
    let (code, out, err) = run(&[
        "first",
        "A: charge distance=50 move=12 d6=6",
        "B: melee sf=4 d6=4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("segment  3"),
        "50 ft at 24 ft a segment: {out}"
    );
}
