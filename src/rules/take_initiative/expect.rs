//! Expecting an event (§2): +5 to initiative while waiting for it; when it happens, the
//! figure answers at the later of its initiative and the current segment, − 3 + a new d10 +
//! the answer's modifiers, never before segment 1 — and, in our reading, never before the
//! event it answers (the text's formula alone could put the answer two segments ahead of
//! it). Only once combat is under way; before, surprise decides.

use super::Modifier;
use crate::rules::cite::{self, Rule};

/// The segment an expected event is answered in.
pub fn response(initiative: i64, segment: u32, reroll: u32, mods: &[Modifier]) -> (i64, Rule) {
    let from = initiative.max(i64::from(segment));
    let sum: i64 = mods.iter().map(|m| i64::from(m.value)).sum();
    (
        (from - 3 + i64::from(reroll.min(10)) + sum)
            .max(1)
            .max(i64::from(segment)),
        cite::TI_EXPECT,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §2's door: expecting at 4 + 5 = 9, the door opens in segment 11; with a new d10 of 6
    /// and a weapon of speed 3 the answer comes on 11 - 3 + 6 + 3 = 17.
    #[test]
    fn the_door() {
        let sword = [Modifier::new("weapon", "weapon speed", 3)];
        assert_eq!(response(9, 11, 6, &sword).0, 17);
        // Opened early, the expecting figure's own initiative counts: 9 - 3 + 1 = 7.
        assert_eq!(response(9, 2, 1, &[]).0, 7);
        // Never before segment 1, nor before the event: 11 - 3 + 1 = 9 waits for 11.
        assert_eq!(response(1, 1, 1, &[Modifier::new("x", "x", -5)]).0, 1);
        assert_eq!(response(9, 11, 1, &[]).0, 11);
    }
}
