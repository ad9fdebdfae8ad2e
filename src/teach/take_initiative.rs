//! "Who goes first" under Take Initiative!: each figure's d10 plus its action's modifiers
//! gives the ordering segment it acts on, the lower first and a tie at once (Take
//! Initiative! §Basics). The question shows the two foes' actions and dice; the answer is
//! when each really acts, as the engine logged it: an expecting figure on its answer (§2),
//! one with several targets at the round's end, a total past 20 in a later round.

use super::{Lesson, Question, QuestionKind};
use crate::scene::FigureId;
use crate::sim::{EventKind, LogEvent, Payload};
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// A figure's initiative this round: its rolled event and die, and the last timing the
/// engine logged for it (an expecting figure's answer comes after its own total).
struct Acts<'a> {
    event: &'a LogEvent,
    die: u32,
    last: &'a LogEvent,
    /// Rounds later, segment, total: the order the engine acts in (lower first; at the
    /// round's end, the lower totals first).
    key: (u32, u32, i64),
}

impl Lesson {
    /// One question a round for each pair of foes who aim at each other, neither already
    /// asked about that round.
    pub(super) fn take_initiative(&self) -> Vec<Question> {
        let mut out = Vec::new();
        let rounds: BTreeSet<u32> = self
            .log
            .iter()
            .map(|e| e.round)
            .filter(|&r| r > 0)
            .collect();
        for round in rounds {
            let acts = |who: Option<FigureId>| self.acts(round, who?);
            let mut asked = BTreeSet::new();
            for d in self
                .log
                .iter()
                .filter(|e| e.round == round && e.kind == EventKind::Declare)
            {
                let Some(target) = d.target.as_deref() else {
                    continue;
                };
                if self.side_of(&d.actor) == self.side_of(target)
                    || [d.who, d.whom].iter().any(|w| asked.contains(w))
                {
                    continue;
                }
                let (Some(a), Some(b)) = (acts(d.who), acts(d.whom)) else {
                    continue;
                };
                asked.insert(d.who);
                asked.insert(d.whom);
                out.push(self.ti_question(round, &a, &b));
            }
        }
        out
    }

    /// The figure's first initiative event of the round, if it rolled a d10 for it, and
    /// the last one (its answer, when it expects a foe).
    fn acts(&self, round: u32, who: FigureId) -> Option<Acts<'_>> {
        let mut timings = self.log.iter().filter(|e| {
            e.round == round && e.by(who) && matches!(e.payload, Payload::TakeInitiative { .. })
        });
        let event = timings.next()?;
        let Payload::TakeInitiative { die: Some(die), .. } = event.payload else {
            return None;
        };
        let last = timings.next_back().unwrap_or(event);
        let Payload::TakeInitiative {
            total,
            rounds_later,
            segment,
            ..
        } = last.payload
        else {
            return None;
        };
        Some(Acts {
            event,
            die,
            last,
            key: (rounds_later, segment, total),
        })
    }

    fn ti_question(&self, round: u32, a: &Acts, b: &Acts) -> Question {
        let doing = |x: &Acts| {
            let action = self.declared_action(round, x.event);
            format!("{} ({action}; d10 shows {})", x.event.actor, x.die)
        };
        let (na, nb) = (a.event.actor.clone(), b.event.actor.clone());
        let order = a.key.cmp(&b.key);
        // The rule that placed the earlier one (the totals' when neither answers a foe).
        let rule = match order {
            Ordering::Greater => b.last.rule,
            _ => a.last.rule,
        };
        let words = |x: &Acts| {
            if std::ptr::eq(x.event, x.last) {
                x.event.detail.clone()
            } else {
                format!("{}; then {}", x.event.detail, x.last.detail)
            }
        };
        Question {
            ask_before: (round, 1),
            kind: QuestionKind::WhoFirst,
            text: format!(
                "Round {round} (Take Initiative!): who acts first, {} or {}?",
                doing(a),
                doing(b)
            ),
            answer: match order {
                Ordering::Less => 0,
                Ordering::Greater => 1,
                Ordering::Equal => 2,
            },
            choices: vec![na.to_string(), nb.to_string(), "both at once".into()],
            rule,
            why: format!("{na}: {}; {nb}: {}", words(a), words(b)),
            lit: None,
            decision: None,
        }
    }

    /// What the figure acting in `acts` declared in `round`, in the engine's words.
    fn declared_action(&self, round: u32, acts: &LogEvent) -> String {
        self.log
            .iter()
            .find_map(|e| match &e.payload {
                Payload::Declare { action, .. }
                    if e.round == round && acts.who.is_some_and(|w| e.by(w)) =>
                {
                    Some(action.clone())
                }
                _ => None,
            })
            .unwrap_or_else(|| "acting".into())
    }
}
