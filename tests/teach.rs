//! Teaching: the questions asked before each beat, answered from the engine's typed
//! results, the quiz's score, and the chart cell lit for each decision.

use firststrike::rules::chart;
use firststrike::rules::cite;
use firststrike::teach::{Lesson, LitCell, QuestionKind, Quiz};
use firststrike::testing::library_scenes;

fn lesson(path: &str) -> Lesson {
    Lesson::play(firststrike::scene::load(path).unwrap(), None)
}

/// Answers the first question wrongly and the rest rightly; returns the quiz.
fn first_wrong(l: &Lesson) -> (Quiz, Vec<firststrike::teach::Reveal>) {
    let mut quiz = Quiz::new(l);
    let mut reveals = Vec::new();
    while let Some((i, q)) = quiz.next() {
        let choice = if i == 0 {
            (q.answer + 1) % q.choices.len()
        } else {
            q.answer
        };
        reveals.push(quiz.answer(i, choice));
    }
    (quiz, reveals)
}

/// Bigby and the charging giant (the rules text's example): the giant's 200-ft charge at
/// 24 ft a segment arrives in segment 9, after Bigby's 7-segment spell completes, so
/// Bigby goes first and the spell goes off.
#[test]
fn the_bigby_quiz() {
    let l = lesson("scenes/bigby_vs_giant.ron");
    let (quiz, reveals) = first_wrong(&l);
    let kinds: Vec<QuestionKind> = quiz.questions.iter().map(|q| q.kind).collect();
    assert_eq!(
        kinds,
        vec![
            QuestionKind::WhoFirst,
            QuestionKind::ChargeArrives,
            QuestionKind::SpellRuined
        ]
    );
    let q = &quiz.questions;
    assert_eq!(q[0].choices[q[0].answer], "Bigby");
    assert_eq!(q[1].choices[q[1].answer], "segment 9");
    assert_eq!(q[2].choices[q[2].answer], "it goes off");
    assert_eq!(quiz.score(), (2, 3));
    assert_eq!(quiz.missed().len(), 1);
    assert_eq!(quiz.missed()[0].kind, QuestionKind::WhoFirst);
    assert!(!reveals[0].right && reveals[1].right && reveals[2].right);
    // The charge against the spell: DMG p.66, the spell row against the charge column of
    // the high-low chart (the party won initiative 4-3).
    assert_eq!(
        (reveals[0].rule, reveals[0].page.as_str()),
        ("charge.vs_spell", "DMG p.66")
    );
    let lit = q[0].lit.expect("a chart decided");
    assert_eq!(
        (lit.chart, lit.row, lit.col),
        (
            chart::Chart::HighLow,
            chart::Category::Spell,
            chart::Category::Charge
        )
    );
    assert_eq!(lit.cell, chart::Cell::MoveVsCasting);
    assert_eq!(
        (reveals[1].rule, reveals[1].page.as_str()),
        ("charge.arrival", "PHB p.102")
    );
}

/// Otis against Robilar (the rules text's example): round 1 tied 3-3, the long sword's
/// speed factor 5 beats the battle axe's 7; round 2 Otis (3/2) has one routine against
/// Robilar's two: more routines strike first.
#[test]
fn the_otis_and_robilar_quiz() {
    let l = lesson("scenes/otis_vs_robilar.ron");
    let (quiz, reveals) = first_wrong(&l);
    assert_eq!(quiz.questions.len(), 2);
    assert!(
        quiz.questions
            .iter()
            .all(|q| q.kind == QuestionKind::WhoFirst)
    );
    for q in &quiz.questions {
        assert_eq!(q.choices[q.answer], "Robilar", "{}", q.text);
    }
    assert_eq!(quiz.score(), (1, 2));
    assert_eq!(
        (reveals[0].rule, reveals[0].page.as_str()),
        ("speed_factor.tie", "DMG p.66")
    );
    assert_eq!(
        (reveals[1].rule, reveals[1].page.as_str()),
        ("sequence.multiple_routines", "DMG p.62-63")
    );
    assert_eq!(quiz.questions[0].lit.unwrap().chart, chart::Chart::Tied);
}

/// The command line asks the same questions and scores the same way.
#[test]
fn quiz_on_the_command_line() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args(["quiz", "scenes/bigby_vs_giant.ron", "--answers", "2,3,1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Not quite: the answer is Bigby."), "{text}");
    assert!(text.contains("Rule: charge.vs_spell (DMG p.66)"), "{text}");
    assert!(text.contains("Score: 2 of 3"), "{text}");
    // From standard input, with a bad answer asked again.
    let (_, text) = quiz_on_stdin(b"x\n2\n2\n".to_vec());
    assert!(text.contains("Answer with a number from 1 to 3"), "{text}");
    assert!(text.contains("Score: 2 of 2"), "{text}");
    // A bad scene: exit 2.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args(["quiz", "tests/bad/typo_weapon.ron"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // An answer given in advance that is not a choice: exit 2, saying which.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args(["quiz", "scenes/bigby_vs_giant.ron", "--answers", "9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("9 for question 1 is not a choice (1 to 3)"),
        "{err}"
    );
    // More answers than questions (a script for another scene): exit 2 before any
    // question, saying how many the scene asks.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args(["quiz", "scenes/bigby_vs_giant.ron", "--answers", "2,3,1,1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("4 answers given, but this scene asks 3 questions"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing asked or scored");
}

/// For every decision of every round of every library scene, the lit cell is the cell the
/// rules core read for it (`rules::chart` at the decision's chart, row and column), and
/// only decisions made outside the charts light none.
#[test]
fn the_lit_cell_is_the_one_the_rules_read() {
    let mut lit = 0;
    for path in library_scenes() {
        let scene = firststrike::scene::load(&path).unwrap();
        let l = Lesson::play(scene, None);
        for ds in l.decisions.values() {
            for d in ds {
                let dec = &d.decision;
                match LitCell::of(dec) {
                    Some(c) => {
                        assert_eq!(c.cell, dec.cell, "{}: {} / {}", path.display(), d.a, d.b);
                        assert_eq!(c.cell, chart::cell(c.chart, c.row, c.col));
                        assert_eq!(c.chart, dec.chart);
                        lit += 1;
                    }
                    None => assert!(
                        [cite::STRIKES_FIRST, cite::CHARGE_SET, cite::INSTANT_FIRST]
                            .contains(&dec.rule),
                        "{}: {} / {} decided by {} without a chart",
                        path.display(),
                        d.a,
                        d.b,
                        dec.rule.id
                    ),
                }
            }
        }
        // Every question's lit cell is its decision's.
        for q in l.questions() {
            if let Some(c) = q.lit {
                assert_eq!(c.cell, chart::cell(c.chart, c.row, c.col));
            }
        }
    }
    assert!(lit > 50, "the library lights many cells ({lit})");
}

/// The faded cell is the other die result's: on a tie the first side winning, high
/// against low the other side winning.
#[test]
fn the_other_die_result() {
    use chart::{Category as C, Chart};
    for row in C::ALL {
        for col in C::ALL {
            let tied = LitCell::at(Chart::Tied, row, col).other();
            assert_eq!((tied.chart, tied.row, tied.col), (Chart::HighLow, row, col));
            let high = LitCell::at(Chart::HighLow, row, col).other();
            assert_eq!((high.chart, high.row, high.col), (Chart::HighLow, col, row));
        }
    }
}

/// The surprise question: the lizard men roll 1 on their surprise d6 (fixed in the scene),
/// Robilar's side is not surprised, so one segment is played before round 1 (DMG p.61); in
/// the duergar ambush both sides are surprised (1 and 2 segments) and the smaller loss comes
/// off the larger: one segment (DMG p.61-62).
#[test]
fn surprise_segments_are_asked_before_the_first_surprise_segment() {
    let cases = [
        (
            "scenes/lizard_man_lair.ron",
            "surprise.segments",
            "DMG p.61",
        ),
        ("scenes/duergar_ambush.ron", "surprise.net", "DMG p.61-62"),
    ];
    for (path, rule, page) in cases {
        let qs = lesson(path).questions();
        let q = &qs[0];
        assert_eq!(q.kind, QuestionKind::SurpriseSegments, "{path}");
        assert_eq!(q.ask_before, (0, 1), "{path}");
        assert_eq!(q.choices[q.answer], "1 segment", "{path}");
        assert_eq!((q.rule.id, q.page().as_str()), (rule, page), "{path}");
    }
    // No side surprised, no surprise question.
    let qs = lesson("scenes/bigby_vs_giant.ron").questions();
    assert!(qs.iter().all(|q| q.kind != QuestionKind::SurpriseSegments));
}

/// For every library scene where sides are surprised and no figure's Dexterity changes its
/// own surprise, the answer is the larger side loss less the smaller (DMG p.61-62), read
/// from the sides' surprise events, not from the clock the lesson counted.
#[test]
fn the_surprise_answer_is_the_net_loss_in_every_scene() {
    use firststrike::sim::Payload;
    let mut asked = 0;
    for path in library_scenes() {
        let path = path.display().to_string();
        let l = lesson(&path);
        let Some(q) = l
            .questions()
            .into_iter()
            .find(|q| q.kind == QuestionKind::SurpriseSegments)
        else {
            continue;
        };
        if l.log.iter().any(|e| e.rule == cite::SURPRISE_DEX) {
            continue;
        }
        let lost: Vec<u32> = l
            .log
            .iter()
            .filter(|e| e.round == 0 && e.rule != cite::SURPRISE_DEX)
            .filter_map(|e| match e.payload {
                Payload::Surprise { segments } => Some(segments),
                _ => None,
            })
            .collect();
        let net = lost.iter().max().unwrap() - lost.iter().min().unwrap();
        assert_eq!(q.answer as u32, net, "{path}: {lost:?}");
        asked += 1;
    }
    assert!(asked >= 2, "only {asked} scenes asked about surprise");
}

/// Under Take Initiative! the question compares the two foes' totals (Take Initiative!
/// §Basics, §8a): the swordsman closing rolls 2 and adds 8 for moving over half his move
/// (segment 10); the archer rolls 6 and adds 1 for her bow (segment 7): the archer first.
#[test]
fn take_initiative_asks_who_acts_first_from_the_totals() {
    let qs = lesson("scenes/take_initiative/ranged_8a.ron").questions();
    let q = qs
        .iter()
        .find(|q| q.kind == QuestionKind::WhoFirst)
        .expect("a who-first question");
    assert!(
        q.text.contains("d10 shows 2") && q.text.contains("d10 shows 6"),
        "{}",
        q.text
    );
    assert_eq!(q.choices[q.answer], "Archer");
    assert_eq!(
        (q.rule.id, q.page().as_str()),
        ("ti.total", "Take Initiative! §Basics")
    );
    assert!(
        q.lit.is_none(),
        "no book chart decides under the d10 variant"
    );
}

/// Over every pair of d10s in Take Initiative! §8a, the who-first answer follows the
/// text's modifiers: moving more than half the move adds 8 (the swordsman closing), a
/// nocked bow adds 1 (the archer); the lower total acts first, equal totals together
/// (Take Initiative! §Basics). All three answers occur.
#[test]
fn take_initiative_who_first_over_every_pair_of_dice() {
    let src = std::fs::read_to_string("scenes/take_initiative/ranged_8a.ron").unwrap();
    let fixed = r#"initiative: { "Swordsman": 2, "Archer": 6 }"#;
    assert!(src.contains(fixed), "the scene fixes both dice");
    let mut seen = std::collections::BTreeSet::new();
    for s in 1..=10u32 {
        for a in 1..=10u32 {
            let dice = format!(r#"initiative: {{ "Swordsman": {s}, "Archer": {a} }}"#);
            let scene = firststrike::scene::parse("8a.ron", &src.replace(fixed, &dice)).unwrap();
            let qs = Lesson::play(scene, None).questions();
            let q = qs
                .iter()
                .find(|q| q.kind == QuestionKind::WhoFirst)
                .expect("a who-first question");
            let (sword, archer) = (s + 8, a + 1);
            let expected = match sword.cmp(&archer) {
                std::cmp::Ordering::Less => "Swordsman",
                std::cmp::Ordering::Greater => "Archer",
                std::cmp::Ordering::Equal => "both at once",
            };
            assert_eq!(q.choices[q.answer], expected, "d10s {s} and {a}");
            assert!(q.text.contains(&format!("d10 shows {s}")), "{}", q.text);
            seen.insert(expected);
        }
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
}

/// Over every pair of surprise d6s in the lizard-man lair, the surprise question is asked
/// exactly when a side loses segments, and its answer is the larger loss less the smaller
/// (DMG p.61-62), read from the sides' own surprise events.
#[test]
fn surprise_question_over_every_pair_of_dice() {
    use firststrike::sim::Payload;
    let src = std::fs::read_to_string("scenes/lizard_man_lair.ron").unwrap();
    let fixed = r#"surprise: { "Lizard men": D6(1), "Robilar": None },"#;
    assert!(src.contains(fixed), "the scene fixes the surprise dice");
    let mut answers = std::collections::BTreeSet::new();
    for x in 1..=6u32 {
        for y in 1..=6u32 {
            let dice = format!(r#"surprise: {{ "Lizard men": D6({x}), "Robilar": D6({y}) }},"#);
            let scene = firststrike::scene::parse("lair.ron", &src.replace(fixed, &dice)).unwrap();
            let l = Lesson::play(scene, None);
            let lost: Vec<u32> = l
                .log
                .iter()
                .filter(|e| e.round == 0 && e.rule != cite::SURPRISE_DEX)
                .filter_map(|e| match e.payload {
                    Payload::Surprise { segments } => Some(segments),
                    _ => None,
                })
                .collect();
            assert_eq!(lost.len(), 2, "one roll a side: {x}, {y}");
            let q = l
                .questions()
                .into_iter()
                .find(|q| q.kind == QuestionKind::SurpriseSegments);
            let any = lost.iter().any(|&n| n > 0);
            assert_eq!(q.is_some(), any, "d6s {x}, {y}: {lost:?}");
            if let Some(q) = q {
                let net = lost.iter().max().unwrap() - lost.iter().min().unwrap();
                assert_eq!(q.answer as u32, net, "d6s {x}, {y}: {lost:?}");
                answers.insert(net);
            }
        }
    }
    assert!(answers.len() >= 2, "{answers:?}");
}

/// No question gives its own answer away (issue "the DM's own encounter", point 7): over
/// every library scene, a question's words never contain the choice that answers it (the
/// surprise question shows each side's die, not the segments it costs).
#[test]
fn no_question_states_its_own_answer() {
    let mut faults = Vec::new();
    for path in library_scenes() {
        if path.to_string_lossy().contains("stress") {
            continue;
        }
        let l = lesson(&path.to_string_lossy());
        for q in l.questions() {
            let answer = &q.choices[q.answer];
            // Bare numbers recur innocently, and a choice between named figures names them
            // all; a phrase like "3 segments" that singles out the answer does not.
            let names_them = q.kind == QuestionKind::WhoFirst;
            if answer.contains(' ') && q.text.contains(answer.as_str()) && !names_them {
                faults.push(format!(
                    "{}: \"{}\" holds \"{answer}\"",
                    path.display(),
                    q.text
                ));
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// Standard input that is not answers — an endless line of zero bytes (`< /dev/zero`),
/// bytes that are not UTF-8 — neither grows memory nor ends the quiz as if the input had
/// ended: each piece is an answer that is not a choice, asked again, and after twenty in
/// a row the quiz stops as bad input, exit 2, saying why on stderr. (An endless line once
/// grew until the allocator aborted; the stop once exited 0, as if the quiz were done.)
#[test]
fn a_quiz_fed_garbage_stops_and_never_grows() {
    let run = quiz_on_stdin;
    // 64 MB of zeros with no newline.
    let (code, text) = run(vec![0u8; 64 << 20]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(
            "error: question 1 of 2: 20 answers in a row were not a choice (a number from 1 to 3)"
        ),
        "{text}"
    );
    assert!(
        !text.contains("Score:"),
        "no score for a quiz stopped by bad input: {text}"
    );
    // Bytes that are not UTF-8, then the answers: asked again, then scored.
    let (code, text) = run(b"\xff\xfe\n2\n2\n".to_vec());
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("Answer with a number from 1 to 3"), "{text}");
    assert!(text.contains("Score: 2 of 2"), "{text}");
    assert!(!text.contains("not answered"), "{text}");
}

/// Input that ends before the last question (Ctrl+D, a script that ran out) is the user
/// stopping, not bad input: exit 0, and the score says how many questions were left.
#[test]
fn a_quiz_left_early_says_what_was_not_answered() {
    let (code, text) = quiz_on_stdin(b"2\n".to_vec());
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("(no answer: the quiz stops here)"), "{text}");
    assert!(
        text.contains("Score: 1 of 1 (1 of the 2 questions not answered)"),
        "{text}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args(["quiz", "scenes/bigby_vs_giant.ron", "--answers", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("(2 of the 3 questions not answered)"),
        "{text}"
    );
}

/// The Otis and Robilar quiz answered from standard input: its exit code and what it
/// printed (standard output, then standard error). The input is written from a thread: the quiz may stop reading before all of it
/// is taken.
fn quiz_on_stdin(input: Vec<u8>) -> (Option<i32>, String) {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_firststrike"))
        .args(["quiz", "scenes/otis_vs_robilar.ron"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text += &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// Answers given in advance may have blanks around them, as typed answers may (`"2, 3, 1"`);
/// a word is still refused, exit 2, naming the flag.
#[test]
fn answers_given_with_blanks_are_read() {
    let quiz = |answers: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_firststrike"))
            .args(["quiz", "scenes/bigby_vs_giant.ron", "--answers", answers])
            .output()
            .unwrap()
    };
    let out = quiz(" 2, 3 ,1 ");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Score: 2 of 3"), "{text}");
    let out = quiz("2, x");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--answers") && err.contains("choice's number"),
        "{err}"
    );
}
