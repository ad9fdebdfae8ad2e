//! The questions a lesson asks, each built from the engine's own typed results, in the
//! order the beats happen:
//! - **how many surprise segments** are played, from the sides' surprise rolls and the
//!   segments the clock played ([`super::surprise`]);
//! - **who goes first** between two foes' actions, from the round's pairwise decisions
//!   (one per fight a round: the first pair of foes the rules core compared), or under
//!   Take Initiative! from the two foes' totals ([`super::take_initiative`]);
//! - **in which segment a charge arrives**, from the arrival events;
//! - **whether a spell goes off or is ruined**, from the spell's start and its end.
//!
//! Each is asked just before the stretch of play that reveals it: a round's questions
//! before its first segment, a surprise segment's before that segment.

use super::Lesson;
use super::light::LitCell;
use crate::rules::action::{ActionKind, Declared};
use crate::rules::cite::Rule;
use crate::rules::first::First;
use crate::scene::FigureId;
use crate::sim::{EventKind, LogEvent, Payload};
use std::collections::BTreeSet;

/// What a question asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum QuestionKind {
    /// How many surprise segments are played.
    SurpriseSegments,
    /// Who acts first of two foes.
    WhoFirst,
    /// The segment a charge arrives in.
    ChargeArrives,
    /// Whether a spell is ruined.
    SpellRuined,
}

/// One question with its answer and the rule that decides it.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// Asked before playing this (round, segment).
    pub ask_before: (u32, u32),
    /// What it is about.
    pub kind: QuestionKind,
    /// The question.
    pub text: String,
    /// The choices offered.
    pub choices: Vec<String>,
    /// The right choice's index.
    pub answer: usize,
    /// The rule that decided it.
    pub rule: Rule,
    /// Why, with the numbers (the engine's words).
    pub why: String,
    /// The chart cell that decided it, for "who goes first".
    pub lit: Option<LitCell>,
    /// For "who goes first" by the book: the pairwise decision it asks about, as an index
    /// into the lesson's decisions of its round.
    pub decision: Option<usize>,
}

impl Question {
    /// "DMG p.66" for the rule.
    pub fn page(&self) -> String {
        self.rule.page_ref()
    }
}

/// When the stretch of play holding an event starts: a round's first segment, or the
/// surprise segment itself.
fn stretch_of(round: u32, segment: u32) -> (u32, u32) {
    if round == 0 {
        (0, segment.max(1))
    } else {
        (round, 1)
    }
}

impl Lesson {
    /// Every question of the scene, in the order they are asked.
    pub fn questions(&self) -> Vec<Question> {
        // The book's pairwise decisions and Take Initiative!'s totals: a scene has one or
        // the other, and each builder finds nothing in the other's play.
        let mut q: Vec<Question> = self.surprise().into_iter().collect();
        q.extend(self.who_first());
        q.extend(self.take_initiative());
        q.extend(self.charges());
        q.extend(self.spells());
        q.sort_by_key(|x| (x.ask_before, x.kind));
        q
    }

    fn who_first(&self) -> impl Iterator<Item = Question> + '_ {
        self.decisions.iter().flat_map(move |(&round, ds)| {
            let mut fights = BTreeSet::new();
            let declared = &self.declared[&round];
            ds.iter()
                .enumerate()
                .filter(|(_, d)| self.side_of(&d.a) != self.side_of(&d.b))
                .filter(move |(_, d)| fights.insert(d.fight))
                .map(move |(k, d)| {
                    let find = |n: &str| declared.iter().find(|x| x.name == n);
                    let (a, b) = (action(find(&d.a)), action(find(&d.b)));
                    let dec = &d.decision;
                    Question {
                        ask_before: (round, 1),
                        kind: QuestionKind::WhoFirst,
                        text: format!(
                            "Round {round}: who goes first, {} ({a}) or {} ({b})?",
                            d.a, d.b
                        ),
                        choices: vec![d.a.clone(), d.b.clone(), "both at once".into()],
                        answer: match dec.first {
                            First::A => 0,
                            First::B => 1,
                            First::Together => 2,
                        },
                        rule: dec.rule,
                        why: dec.why.clone(),
                        lit: LitCell::of(dec),
                        decision: Some(k),
                    }
                })
        })
    }

    fn charges(&self) -> impl Iterator<Item = Question> + '_ {
        self.log.iter().filter_map(|e| {
            let Payload::Arrive {
                segment,
                charge: true,
                distance_ft,
            } = e.payload
            else {
                return None;
            };
            // Four neighbouring segments of the round, the answer among them.
            let lo = segment.saturating_sub(1).clamp(1, self.per_round - 3);
            let choices: Vec<u32> = (lo..lo + 4).collect();
            let target = e.target.clone().unwrap_or_default();
            Some(Question {
                ask_before: stretch_of(e.round, e.segment),
                kind: QuestionKind::ChargeArrives,
                text: format!(
                    "{}: in which segment does {}'s charge reach {target}?",
                    when_words(e.round),
                    e.actor
                ),
                answer: choices.iter().position(|&c| c == segment)?,
                choices: choices.iter().map(|c| format!("segment {c}")).collect(),
                rule: e.rule,
                why: format!(
                    "{} covers {distance_ft:.0} ft this round and reaches striking distance in segment {segment}",
                    e.actor
                ),
                lit: None,
                decision: None,
            })
        })
    }

    fn spells(&self) -> impl Iterator<Item = Question> + '_ {
        self.log.iter().enumerate().filter_map(|(i, e)| {
            let Payload::SpellStart { spell, .. } = &e.payload else {
                return None;
            };
            let caster = e.who?;
            let end = self.log[i + 1..].iter().find(|x| ends(x, caster, spell))?;
            let ruined = end.kind == EventKind::SpellDisrupted;
            Some(Question {
                ask_before: stretch_of(e.round, e.segment),
                kind: QuestionKind::SpellRuined,
                text: format!(
                    "{}: {} begins {spell}. Does it go off, or is it ruined?",
                    when_words(e.round),
                    e.actor
                ),
                choices: vec!["it goes off".into(), "it is ruined".into()],
                answer: usize::from(ruined),
                rule: end.rule,
                why: end.detail.clone(),
                lit: None,
                decision: None,
            })
        })
    }
}

/// Whether `e` is the end of `caster`'s `spell`: completed or ruined.
fn ends(e: &LogEvent, caster: FigureId, spell: &str) -> bool {
    e.by(caster)
        && match &e.payload {
            Payload::SpellComplete { spell: s, .. } => s == spell,
            Payload::SpellDisrupted { spell: s, .. } => s == spell,
            _ => false,
        }
}

/// "Round 2", or "The surprise segments".
fn when_words(round: u32) -> String {
    if round == 0 {
        "Surprise".into()
    } else {
        format!("Round {round}")
    }
}

/// A declared action in a word or two.
fn action(d: Option<&Declared>) -> String {
    let Some(d) = d else {
        return "acting".into();
    };
    match d.kind {
        ActionKind::Melee => {
            let blows = match d.routines {
                1 => "a blow".to_string(),
                n => format!("{n} blows"),
            };
            match d.speed_factor {
                Some(sf) => format!("{blows}, speed factor {sf}"),
                None => blows,
            }
        }
        ActionKind::Missile => "missiles".into(),
        ActionKind::Charge { .. } => "charging".into(),
        // The whole casting time, and what is left of it this round when it began before,
        // or how late it begins (after the winner's die, hesitation): its casting time is
        // the spell's, not the segment it completes in.
        ActionKind::Cast { segments, .. } => match d.casting_total {
            Some(whole) if whole > segments => {
                format!("casting a {whole}-segment spell, {segments} left this round")
            }
            Some(time) if time < segments => {
                format!(
                    "casting, {}, begun {} late",
                    crate::text::plural(time, "segment"),
                    segments - time
                )
            }
            _ => format!("casting, {segments} segments"),
        },
        ActionKind::Turn => "turning undead".into(),
        ActionKind::Other => "a non-combat act".into(),
    }
}
