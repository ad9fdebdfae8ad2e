//! A quiz over a lesson: its questions asked in order with the scene's tour captions
//! between them, each answer revealed with its rule and page, and a score with the
//! questions missed.

use super::{Lesson, Question};

/// What answering a question reveals.
#[derive(Clone, Debug, PartialEq)]
pub struct Reveal {
    /// Whether the answer was right.
    pub right: bool,
    /// The right choice, in words.
    pub answer: String,
    /// Why, with the numbers.
    pub why: String,
    /// The rule's id.
    pub rule: &'static str,
    /// Its page ("DMG p.66").
    pub page: String,
    /// The chart cell that decided, in words.
    pub chart: Option<String>,
}

/// A quiz in progress.
#[derive(Clone, Debug)]
pub struct Quiz {
    /// The questions, in order.
    pub questions: Vec<Question>,
    /// Each question's answer so far (None: not yet answered).
    pub answers: Vec<Option<usize>>,
}

impl Quiz {
    /// A quiz over every question of a lesson.
    pub fn new(lesson: &Lesson) -> Quiz {
        let questions = lesson.questions();
        Quiz {
            answers: vec![None; questions.len()],
            questions,
        }
    }

    /// The first question not yet answered, and its index.
    pub fn next(&self) -> Option<(usize, &Question)> {
        let i = self.answers.iter().position(Option::is_none)?;
        Some((i, &self.questions[i]))
    }

    /// Answers question `i` with choice `choice` and reveals it (a choice out of range
    /// counts as wrong).
    pub fn answer(&mut self, i: usize, choice: usize) -> Reveal {
        self.answers[i] = Some(choice);
        let q = &self.questions[i];
        Reveal {
            right: choice == q.answer,
            answer: q.choices[q.answer].clone(),
            why: q.why.clone(),
            rule: q.rule.id,
            page: q.page(),
            chart: q.lit.map(|l| l.describe()),
        }
    }

    /// Right answers and questions answered.
    pub fn score(&self) -> (usize, usize) {
        let answered = self.answers.iter().flatten().count();
        let right = self
            .answers
            .iter()
            .zip(&self.questions)
            .filter(|(a, q)| **a == Some(q.answer))
            .count();
        (right, answered)
    }

    /// The questions answered wrongly, in order.
    pub fn missed(&self) -> Vec<&Question> {
        self.answers
            .iter()
            .zip(&self.questions)
            .filter(|(a, q)| a.is_some_and(|a| a != q.answer))
            .map(|(_, q)| q)
            .collect()
    }
}
