//! A round made short (house rules, "Determine Surprise" and "Delay Action"): the segments
//! a surprised party lost come off its next round, and a figure that waits on another's
//! action has only what is left after it. Both leave so many segments of the ten, and the
//! same test decides what still fits.
//!
//! **What "precludes" means here.** A figure with `left` segments:
//! - begins no spell whose casting time is more than `left` (a 1-round spell needs all 10);
//! - strikes no blow with a weapon whose speed factor is more than `left` — the text
//!   counts a speed factor as segments (a two-handed sword, 10, is ruled out by 3 lost
//!   segments; after a 6-segment spell only speed factor 4 or less strikes); a blow with no
//!   speed factor (natural weapons) needs 1;
//! - may still move: moving is not ruled out (the text: "everyone can move").
//!
//! What fits happens no earlier than the first segment after those used: its first blow
//! or the completion of its spell is that many segments late.

use crate::rules::charge::SEGMENTS_PER_ROUND;
use crate::rules::cite::{self, Rule};

/// What is left of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Segments already gone (lost to surprise, or spent waiting).
    pub used: u32,
    /// Segments left: `used + left` is always the round's 10.
    pub left: u32,
    /// The rule that made the round short.
    pub rule: Rule,
}

impl TimeLeft {
    fn of(used: u32, rule: Rule) -> TimeLeft {
        let used = used.min(SEGMENTS_PER_ROUND);
        TimeLeft {
            used,
            left: SEGMENTS_PER_ROUND - used,
            rule,
        }
    }
}

/// The round after surprise for a figure that lost `lost` segments to it.
pub fn after_surprise(lost: u32) -> TimeLeft {
    TimeLeft::of(lost, cite::HOUSE_SURPRISE_CARRIES)
}

/// The round of a figure that waits on an action done in segment `done` (a spell's
/// completion, or a blow's speed factor counted as segments).
pub fn after_awaiting(done: u32) -> TimeLeft {
    TimeLeft::of(done, cite::HOUSE_AWAIT)
}

/// What an action needs of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// A spell of this casting time in segments.
    Spell(u32),
    /// A blow with a weapon of this speed factor (none: natural weapons).
    Blow(Option<u32>),
    /// A move.
    Move,
}

impl Needs {
    /// Segments the action needs.
    pub fn segments(self) -> u32 {
        match self {
            Needs::Spell(s) => s,
            Needs::Blow(sf) => sf.unwrap_or(1).max(1),
            Needs::Move => 0,
        }
    }
}

/// Whether an action fits what is left of the round (see the module doc), and the rule.
pub fn fits(time: TimeLeft, needs: Needs) -> (bool, Rule) {
    (needs.segments() <= time.left, time.rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lost_and_left_make_ten_and_only_what_fits_is_allowed() {
        for lost in 0..=12 {
            for t in [after_surprise(lost), after_awaiting(lost)] {
                assert_eq!(t.used + t.left, 10, "lost {lost}");
                for n in 0..=12 {
                    assert_eq!(fits(t, Needs::Spell(n)).0, n <= t.left);
                    assert_eq!(fits(t, Needs::Blow(Some(n))).0, n.max(1) <= t.left);
                }
                assert!(fits(t, Needs::Move).0, "moving always fits");
            }
        }
    }

    #[test]
    fn the_texts_examples() {
        // 3 lost segments leave 7: no two-handed sword (speed factor 10), no 9-segment spell.
        let t = after_surprise(3);
        assert_eq!(t.left, 7);
        assert!(!fits(t, Needs::Blow(Some(10))).0);
        assert!(!fits(t, Needs::Spell(9)).0);
        assert!(fits(t, Needs::Blow(Some(5))).0);
        // Waiting on a 6-segment dispel magic: speed factor 4 or less only.
        let w = after_awaiting(6);
        for sf in 1..=10 {
            assert_eq!(
                fits(w, Needs::Blow(Some(sf))).0,
                sf <= 4,
                "speed factor {sf}"
            );
        }
        assert_eq!(w.rule.id, "house.await");
    }
}
