//! `firststrike quiz SCENE`: the viewer's predict-then-reveal questions on the command
//! line, for a classroom without a GPU. Each question waits for a number (from standard
//! input, or `--answers` for a script), then says right or wrong, why, and the rule with
//! its page; the scene's tour captions come in their place; a score and the questions
//! missed end it.

use super::out;
use crate::teach::{Lesson, Quiz};
use clap::Args;
use std::io::BufRead;

/// Arguments of `quiz`.
#[derive(Args, Debug)]
pub struct QuizArgs {
    /// Scene file (RON).
    pub scene: std::path::PathBuf,
    /// Seed for the dice the scene does not fix.
    #[arg(long, allow_negative_numbers = true, value_parser = super::seed)]
    pub seed: Option<u64>,
    /// Answers given in advance, 1-based and comma-separated ("2,1,1"), instead of reading
    /// them from standard input.
    #[arg(long, value_delimiter = ',', value_parser = answer)]
    pub answers: Option<Vec<usize>>,
}

/// One answer given in advance: a whole number, blanks around it allowed (`"2, 1"`, as
/// standard input allows ` 2 `).
pub(crate) fn answer(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| "an answer is a choice's number (1, 2, ...)".to_string())
}

/// Asks the scene's questions; 0 when done (or when the answers end early: the score says
/// how many were left), 2 on a bad scene, an answer given in advance that is not a choice,
/// more answers given than questions, or [`MAX_TRIES`] answers in a row on standard input
/// that are not a choice.
pub fn run(args: QuizArgs) -> i32 {
    let Some(scene) = super::scene_cmds::load_to_play(&args.scene, None) else {
        return 2;
    };
    let name = scene.name.clone();
    let lesson = Lesson::play_without_sight(scene, args.seed);
    let mut quiz = Quiz::new(&lesson);
    // More answers than questions: a script written for another scene or seed. Said before
    // anything is asked, rather than scoring the first few and dropping the rest.
    if let Some(given) = args.answers.as_ref().map(Vec::len)
        && given > quiz.questions.len()
    {
        eprintln!(
            "error: --answers: {given} answer{} given, but this scene asks {} question{}",
            if given == 1 { "" } else { "s" },
            quiz.questions.len(),
            if quiz.questions.len() == 1 { "" } else { "s" }
        );
        return 2;
    }
    out(&format!("{name} — a quiz\n"));
    if quiz.questions.is_empty() {
        out(
            "This scene holds no question to ask (no side surprised, no two foes compared, no charge, no spell).\n",
        );
        return 0;
    }
    let mut tour = lesson.scene.tour.clone();
    tour.sort_by_key(|t| t.at);
    let mut shown = 0;
    let mut scripted = args.answers.map(|a| a.into_iter());
    let stdin = std::io::stdin();
    let mut lines = Answers(stdin.lock());
    let total = quiz.questions.len();
    while let Some((i, q)) = quiz.next() {
        // A caption comes with the reveal of the beat it tells of: one for the beat just
        // before a question's (the encounter before the surprise question) waits for its
        // answer, so it never gives the answer away.
        let told = |at: (u32, u32)| (at.0, at.1 + 1) < q.ask_before;
        while shown < tour.len() && told(tour[shown].at) {
            out(&format!("\n[tour] {}\n", tour[shown].text));
            shown += 1;
        }
        let mut text = format!("\nQuestion {} of {total}. {}\n", i + 1, q.text);
        for (k, c) in q.choices.iter().enumerate() {
            text += &format!("  {}) {c}\n", k + 1);
        }
        out(&text);
        let n = q.choices.len();
        let choice = match &mut scripted {
            Some(it) => it.next(),
            None => match ask(&mut lines, n) {
                Asked::Choice(k) => Some(k),
                Asked::Ended => None,
                Asked::NoChoice => {
                    eprintln!(
                        "error: question {} of {total}: {MAX_TRIES} answers in a row were not \
                         a choice (a number from 1 to {n}); the quiz stops",
                        i + 1
                    );
                    return 2;
                }
            },
        };
        let Some(choice) = choice else {
            out("(no answer: the quiz stops here)\n");
            break;
        };
        if scripted.is_some() {
            if !(1..=n).contains(&choice) {
                eprintln!(
                    "error: --answers: {choice} for question {} is not a choice (1 to {n})",
                    i + 1
                );
                return 2;
            }
            out(&format!("Your answer: {choice}\n"));
        }
        let r = quiz.answer(i, choice.wrapping_sub(1));
        let mut text = if r.right {
            "Right.\n".to_string()
        } else {
            format!("Not quite: the answer is {}.\n", r.answer)
        };
        text += &format!("  Why: {}\n  Rule: {} ({})\n", r.why, r.rule, r.page);
        if let Some(c) = r.chart {
            text += &format!("  Chart: {c}\n");
        }
        out(&text);
    }
    for t in &tour[shown..] {
        out(&format!("\n[tour] {}\n", t.text));
    }
    let (right, answered) = quiz.score();
    let mut text = format!("\nScore: {right} of {answered}");
    if answered < total {
        text += &format!(
            " ({} of the {total} questions not answered)",
            total - answered
        );
    }
    text += "\n";
    let missed = quiz.missed();
    if !missed.is_empty() {
        text += "Missed:\n";
        for q in missed {
            text += &format!(
                "  - {} (answer: {}; {})\n",
                q.text,
                q.choices[q.answer],
                q.page()
            );
        }
    }
    out(&text);
    0
}

/// What standard input gave for a question.
#[derive(Debug, PartialEq, Eq)]
enum Asked {
    /// A choice from 1 to n.
    Choice(usize),
    /// The input ended (Ctrl+D, or a piped script ran out).
    Ended,
    /// [`MAX_TRIES`] answers in a row that were not a choice: bad input.
    NoChoice,
}

/// Reads a choice from 1 to `n`, asking again on anything else.
fn ask(lines: &mut impl Iterator<Item = String>, n: usize) -> Asked {
    for _ in 0..MAX_TRIES {
        out(&format!("Your answer (1-{n}): "));
        let Some(line) = lines.next() else {
            return Asked::Ended;
        };
        match line.trim().parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => return Asked::Choice(k),
            _ => out(&format!("Answer with a number from 1 to {n}.\n")),
        }
    }
    Asked::NoChoice
}

/// Answers in a row that are not a choice before the quiz stops (a stream of anything
/// but answers, `< /dev/zero`, ends the quiz rather than running forever).
const MAX_TRIES: usize = 20;

/// The longest answer line read whole, in bytes: a longer one is read in pieces of this
/// size, each not a choice, so a line without end never grows memory.
const MAX_LINE: u64 = 256;

/// The answers typed on standard input, a line each: bounded in length, and bytes that
/// are not UTF-8 read as an answer that is not a choice (not as the end of the input).
struct Answers<R>(R);

impl<R: BufRead> Iterator for Answers<R> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        let mut buf = Vec::new();
        match std::io::Read::take(&mut self.0, MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(String::from_utf8_lossy(&buf).into_owned()),
        }
    }
}
