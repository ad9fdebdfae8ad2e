//! The surprise question: with each side's surprise die in view, how many surprise
//! segments are played before round 1 — a side's lost segments (DMG p.61), the smaller loss
//! taken from the larger when both are surprised (DMG p.61-62), and a figure's Dexterity
//! lengthening or shortening its own (DMG p.62).

use super::{Lesson, Question, QuestionKind};
use crate::rules::cite::{self, Rule};
use crate::sim::{LogEvent, Payload};
use crate::text::plural;

/// A side's own surprise roll: the die and the segments it costs (not a figure's
/// Dexterity adjustment, which is about one figure).
fn side_roll(e: &LogEvent) -> Option<u32> {
    let side_rules = [
        cite::SURPRISE_D6,
        cite::SURPRISE_SEGMENTS,
        cite::SURPRISE_PERCENT_SEGMENTS,
    ];
    match e.payload {
        Payload::Surprise { segments } if e.round == 0 && side_rules.contains(&e.rule) => {
            Some(segments)
        }
        _ => None,
    }
}

impl Lesson {
    /// The surprise question, when a side is surprised.
    pub(super) fn surprise(&self) -> Option<Question> {
        let rolls: Vec<(&LogEvent, u32)> = self
            .log
            .iter()
            .filter_map(|e| side_roll(e).map(|n| (e, n)))
            .collect();
        let (worst, _) = rolls
            .iter()
            .max_by_key(|(_, n)| *n)
            .filter(|(_, n)| *n > 0)?;
        // Each side's die as it fell, without the segments it costs: that is the question.
        let sides: Vec<String> = rolls
            .iter()
            .map(|(e, n)| match n {
                0 => format!("{}: not surprised", e.actor),
                _ => format!("{}: {}", e.actor, e.detail.split(", ").next().unwrap_or("")),
            })
            .collect();
        let adjustments: Vec<&LogEvent> = self
            .log
            .iter()
            .filter(|e| e.round == 0 && [cite::SURPRISE_NET, cite::SURPRISE_DEX].contains(&e.rule))
            .collect();
        let rule: Rule = adjustments.first().map_or(worst.rule, |e| e.rule);
        let n = self.surprise_segments;
        let choices: Vec<u32> = (0..=n.max(3)).collect();
        let mut why = format!("{} before round 1", plural(n, "surprise segment"));
        for e in std::iter::once(*worst).chain(adjustments) {
            why.push_str(&format!("; {}: {}", e.actor, e.detail));
        }
        Some(Question {
            ask_before: (0, 1),
            kind: QuestionKind::SurpriseSegments,
            text: format!(
                "Surprise: {}. How many surprise segments are played before round 1?",
                sides.join("; ")
            ),
            answer: n as usize,
            choices: choices.iter().map(|&c| plural(c, "segment")).collect(),
            rule,
            why,
            lit: None,
            decision: None,
        })
    }
}
