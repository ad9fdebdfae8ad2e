//! Teaching in the viewer (the questions and charts are [`crate::teach`]'s):
//! - **predict, then reveal**: in predict mode ([`ViewerMode::Predict`](super::ViewerMode)),
//!   the playback holds before each stretch
//!   of play that answers a question; answering lifts the hold and reveals the rule, its
//!   page and the chart cell. A score, and the questions missed at the end;
//! - **the charts**: which cell of which chart decided the beat in view;
//! - **the tour**: the scene's caption for the moment shown.
//!
//! The lesson (one play of the scene with its decisions) is made when predict or the
//! charts are first wanted, and again whenever the playback is replaced or edited.

use super::playback::Playback;
use crate::rules::sequence::PairDecision;
use crate::scene::TourStop;
use crate::teach::{Lesson, QuestionKind, Quiz, Reveal};
use bevy::prelude::*;

/// What teaching shows and where the quiz stands.
#[derive(Resource, Default)]
pub struct Teach {
    /// The charts window.
    pub charts: bool,
    /// The lesson and its quiz, for the playback of this (generation, edits).
    pub lesson: Option<((u32, u32), Lesson, Quiz)>,
    /// The last answer and what it revealed, by question index.
    pub last: Option<(usize, Reveal)>,
    /// Answers given in advance (1-based, `view --answers`), used as questions come.
    pub scripted: Vec<usize>,
}

impl Teach {
    /// The quiz, if the lesson is made.
    pub fn quiz(&self) -> Option<&Quiz> {
        self.lesson.as_ref().map(|l| &l.2)
    }

    /// The question the playback holds for: the first not yet answered that is asked after
    /// the moment shown (those passed before predict was on are not asked).
    pub fn pending(&self, now: (u32, u32)) -> Option<usize> {
        let quiz = self.quiz()?;
        quiz.questions
            .iter()
            .zip(&quiz.answers)
            .position(|(q, a)| a.is_none() && q.ask_before > now)
    }

    /// Whether the clock should hide the surprise segments: `predicting`, a question about
    /// how many is pending at the moment shown.
    pub fn hides_surprise(&self, now: (u32, u32), predicting: bool) -> bool {
        predicting
            && self.pending(now).is_some_and(|i| {
                self.quiz()
                    .is_some_and(|q| q.questions[i].kind == QuestionKind::SurpriseSegments)
            })
    }

    /// Answers question `i` with `choice` and keeps what it reveals.
    pub fn answer(&mut self, i: usize, choice: usize) {
        if let Some((_, _, quiz)) = &mut self.lesson {
            let r = quiz.answer(i, choice);
            self.last = Some((i, r));
        }
    }

    /// The decision behind the beat in view, for the charts: the one the last reveal was
    /// about, while predicting; else the selected figure's first against a foe this round,
    /// else the round's first between foes.
    pub fn decision_now(
        &self,
        round: u32,
        selected: Option<&str>,
        predicting: bool,
    ) -> Option<(u32, &PairDecision)> {
        let (_, lesson, quiz) = self.lesson.as_ref()?;
        if predicting
            && let Some((i, _)) = &self.last
            && let Some(q) = quiz.questions.get(*i)
            && let Some(k) = q.decision
            && let Some(d) = lesson
                .decisions
                .get(&q.ask_before.0)
                .and_then(|ds| ds.get(k))
        {
            return Some((q.ask_before.0, d));
        }
        let ds = lesson.decisions.get(&round)?;
        let foes = |d: &&PairDecision| lesson.side_of(&d.a) != lesson.side_of(&d.b);
        selected
            .and_then(|s| ds.iter().filter(foes).find(|d| d.a == s || d.b == s))
            .or_else(|| ds.iter().find(foes))
            .map(|d| (round, d))
    }

    /// The attack routines `name` has in `round`, as the rules core counted them.
    pub fn routines(&self, round: u32, name: &str) -> Option<u32> {
        let (_, lesson, _) = self.lesson.as_ref()?;
        lesson
            .declared
            .get(&round)?
            .iter()
            .find(|d| d.name == name)
            .map(|d| d.routines)
    }
}

/// The tour caption for the moment `now`: the latest at or before it in the same round.
pub fn caption(tour: &[TourStop], now: (u32, u32)) -> Option<&TourStop> {
    tour.iter()
        .filter(|t| t.at <= now && t.at.0 == now.0)
        .max_by_key(|t| t.at)
}

/// Keeps the lesson in step with the playback and sets the playback's hold.
///
/// Exclusive, so that it runs on the schedule's own thread: making a lesson plays the
/// scene in a headless app of its own, whose schedules must not wait on a task pool this
/// system holds a thread of.
pub(super) fn follow(world: &mut World) {
    let predicting = super::mode::mode(world) == super::ViewerMode::Predict;
    world.resource_scope(|world, mut teach: Mut<Teach>| {
        if let Some(pb) = world.get_resource_mut::<Playback>() {
            follow_playback(&mut teach, pb, predicting);
        }
    });
}

fn follow_playback(teach: &mut Teach, mut pb: Mut<Playback>, predicting: bool) {
    let key = (pb.generation, pb.edits);
    let wanted = predicting || teach.charts;
    if wanted && teach.lesson.as_ref().is_none_or(|l| l.0 != key) {
        let lesson = Lesson::play((*pb.scene).clone(), pb.seed);
        let quiz = Quiz::new(&lesson);
        teach.lesson = Some((key, lesson, quiz));
        teach.last = None;
    }
    let now = pb.current().when;
    while predicting
        && !teach.scripted.is_empty()
        && let Some(i) = teach.pending(now)
    {
        let k = teach.scripted.remove(0);
        teach.answer(i, k.wrapping_sub(1));
    }
    let hold = if predicting {
        teach
            .pending(now)
            .and_then(|i| teach.quiz().map(|q| q.questions[i].ask_before))
    } else {
        None
    };
    if pb.hold != hold {
        pb.hold = hold;
    }
}
