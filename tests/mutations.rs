//! Input is checked, never trusted: every scene in `scenes/`, mutated at random — numbers
//! swapped for extreme ones, text cut out, junk put in, one action or variant swapped for
//! another — either fails with located errors (a line and column for each) or plays to its
//! end. Nothing panics. Bounded: a few hundred cases, well under a minute.

use firststrike::scene::parse;
use firststrike::sim::Runner;
use proptest::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The library's scenes (the 200-figure stress scene is left out: it is for the viewer).
fn scenes() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = firststrike::testing::library_scenes()
        .into_iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            (!name.starts_with("stress")).then(|| (name, std::fs::read_to_string(&p).unwrap()))
        })
        .collect();
    v.sort();
    v
}

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "7",
    "101",
    "4294967295",
    "-2147483648",
    "99999999999999999999",
    "1e9",
    "inf",
    "-inf",
    "NaN",
    "0.0",
    "-0.5",
    "1e308",
];
const JUNK: &[&str] = &[
    "(", ")", "[", "]", "{", "}", ",", "\"", ":", "Some(", "None", "\n", "\u{ff}", "//",
];
const WORDS: &[&str] = &[
    "Melee",
    "Missile",
    "Charge",
    "Cast",
    "Hold",
    "Turn",
    "Potion",
    "Cantrips",
    "Move",
    "Other",
    "Indoors",
    "Outdoors",
    "D6",
    "Percent",
    "ChanceIn6",
    "ToHit",
    "Damage",
];

/// One mutation of `src`, chosen by `kind` at a place chosen by `at` (a fraction).
fn mutate(src: &str, kind: u8, at: f64, pick: usize) -> String {
    let pos = |s: &str| s.floor_char_boundary(((s.len() as f64) * at) as usize);
    match kind {
        // A number swapped for an extreme one.
        0 => {
            let spans: Vec<(usize, usize)> = number_spans(src);
            if spans.is_empty() {
                return src.to_string();
            }
            let (a, b) = spans[((spans.len() as f64) * at) as usize % spans.len()];
            format!(
                "{}{}{}",
                &src[..a],
                NUMBERS[pick % NUMBERS.len()],
                &src[b..]
            )
        }
        // Text cut out.
        1 => {
            let a = pos(src);
            let b = src.floor_char_boundary((a + 1 + pick % 40).min(src.len()));
            format!("{}{}", &src[..a], &src[b..])
        }
        // Junk put in.
        2 => {
            let a = pos(src);
            format!("{}{}{}", &src[..a], JUNK[pick % JUNK.len()], &src[a..])
        }
        // A word swapped for another variant.
        _ => {
            let w = WORDS[pick % WORDS.len()];
            let Some(from) = WORDS.iter().filter(|x| src.contains(*x)).nth(pick % 7) else {
                return src.to_string();
            };
            src.replacen(from, w, 1)
        }
    }
}

/// Where the numbers are.
fn number_spans(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            out.push((start, i));
        }
        i += 1;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_scenes_fail_with_located_errors_or_play_to_the_end(
        which in 0usize..64,
        muts in prop::collection::vec((0u8..4, 0.0f64..1.0, 0usize..64), 1..4),
    ) {
        let all = scenes();
        let (name, mut src) = all[which % all.len()].clone();
        for (kind, at, pick) in muts {
            src = mutate(&src, kind, at, pick);
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| match parse(&name, &src) {
            Err(errors) => {
                assert!(!errors.0.is_empty());
                for e in &errors.0 {
                    assert!(e.line >= 1 && e.column >= 1, "unlocated: {e}");
                }
                // Rendering the errors must not panic either, nor echo the file back.
                assert!(errors.render().len() < 20_000);
            }
            Ok(scene) => {
                let mut run = Runner::new(scene, None, None);
                run.run_to_end();
                assert!(run.clock().is_over());
            }
        }));
        prop_assert!(outcome.is_ok(), "{} mutated panicked:\n{}", name, src);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A surprise or dice value out of its range is located on its own entry, wherever the
    /// side's name and the word "surprise" appear before it — in a figure's `side`, its
    /// name, or a comment (outside tester: the caret landed on a figure's `side:`).
    #[test]
    fn an_out_of_range_die_is_located_on_its_own_entry(
        bad in prop_oneof![
            (0u32..=0).prop_map(|n| format!("D6({n})")),
            (7u32..=300).prop_map(|n| format!("D6({n})")),
            (101u32..=5000).prop_map(|n| format!("Percent({n})")),
            (7u32..=60).prop_map(|n| format!("ChanceIn6({n})")),
            (7i32..=60).prop_map(|n| format!("[{n}]")),
        ],
        comment in prop::bool::ANY,
        side in prop::sample::select(vec!["Party", "surprise", "dice", "Foes"]),
    ) {
        let in_dice = bad.starts_with('[');
        let note = if comment { format!("// {side}: surprise and dice\n") } else { String::new() };
        let entry = if in_dice {
            format!("dice: {{ Initiative: {{ \"{side}\": {bad} }} }},")
        } else {
            format!("surprise: {{ \"{side}\": {bad} }},")
        };
        let src = format!(
            "{note}Scene(name: \"surprise dice\", setting: Indoors, seed: 1,\n\
             combatants: [\n\
             (name: \"{side} surprise\", side: \"{side}\", at: (0.0, 0.0), ac: 5, hp: 8),\n\
             (name: \"Other\", side: \"Other\", at: (0.0, 30.0), ac: 5, hp: 8)],\n\
             {entry}\n\
             rounds: [(declare: {{}})])\n"
        );
        let line = src.lines().position(|l| l == entry).unwrap() + 1;
        let errors = match parse("t.ron", &src) {
            Ok(_) => return Err(TestCaseError::fail(format!("accepted:\n{src}"))),
            Err(e) => e.0,
        };
        let field = if in_dice { "dice." } else { "surprise." };
        let e = errors.iter().find(|e| e.field.starts_with(field));
        let e = e.ok_or_else(|| TestCaseError::fail(format!("no {field} error:\n{src}")))?;
        prop_assert_eq!(e.line, line, "{}: {}\n{}", e.field, e.message, src);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A bad value in a round is located on its own entry in that round, whatever order the
    /// round's fields come in and however the rounds are laid out — on one line with the
    /// list's bracket, or a field a line (outside tester: an initiative written before
    /// `declare` was located in the declarations after it).
    #[test]
    fn a_bad_value_in_a_round_is_located_in_that_round(
        rounds in 1usize..4,
        bad in any::<prop::sample::Index>(),
        initiative_first in proptest::collection::vec(any::<bool>(), 4),
        one_line in any::<bool>(),
        value in prop_oneof![Just(0u32), 7u32..40],
        wrong_target in any::<bool>(),
    ) {
        let bad = bad.index(rounds);
        let sep = if one_line { " " } else { "\n        " };
        let items: Vec<String> = (0..rounds)
            .map(|r| {
                let die = if r == bad && !wrong_target { value } else { 2 };
                let target = if r == bad && wrong_target { "Nobody" } else { "B" };
                let init = format!("initiative: {{ \"A\": 3, \"B\": {die} }},");
                let declare = format!("declare: {{ \"A\": Melee(targets: [\"{target}\"]), \"B\": Melee(targets: [\"A\"]) }},");
                let (x, y) = if initiative_first[r] { (init, declare) } else { (declare, init) };
                format!("({x}{sep}{y})")
            })
            .collect();
        let src = format!(
            "Scene(name: \"rounds\", setting: Indoors, seed: 1,\n\
             combatants: [\n\
             (name: \"A\", side: \"A\", at: (0.0, 0.0), ac: 5, hp: 8, thac0: 20, weapon: \"dagger\"),\n\
             (name: \"B\", side: \"B\", at: (0.0, 5.0), ac: 5, hp: 8, thac0: 20, weapon: \"dagger\")],\n\
             rounds: [ {} ])\n",
            items.join(",\n    ")
        );
        let errors = match parse("t.ron", &src) {
            Ok(_) => return Err(TestCaseError::fail(format!("accepted:\n{src}"))),
            Err(e) => e.0,
        };
        // Where the bad entry is: in the bad round's own item.
        let item = src.find(&items[bad]).unwrap();
        let (field, needle) = if wrong_target {
            (format!("rounds[{bad}].declare.A.target"), "\"Nobody\"".to_string())
        } else {
            (format!("rounds[{bad}].initiative.B"), format!("\"B\": {value}"))
        };
        let at = item + src[item..].find(&needle).unwrap();
        let line = src[..at].matches('\n').count() + 1;
        let column = src[..at].rsplit('\n').next().unwrap().chars().count() + 1;
        let e = errors.iter().find(|e| e.field.starts_with(&field));
        let e = e.ok_or_else(|| TestCaseError::fail(format!("no {field} error: {errors:?}\n{src}")))?;
        prop_assert_eq!((e.line, e.column), (line, column), "{}: {}\n{}", e.field, e.message, src);
    }
}
