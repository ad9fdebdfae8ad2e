//! Ganging up (house rules, "Ganging Up"): several attackers on one foe help each other,
//! up to a limit set by the foe's size.

use crate::rules::cite::{self, Rule};
use crate::rules::size::Size;

/// The most melee attackers a foe of this size has room for under the house rule of
/// ganging up: 4 on a man-sized foe, 6 on a large one, 8 on a huge one (size H). The text
/// says nothing of smaller foes: ours gives them a man-sized foe's 4.
pub fn room_for_attackers(size: Size) -> u32 {
    match size {
        Size::S | Size::M => 4,
        Size::L => 6,
        Size::H => 8,
    }
}

/// Ganging up: when `attackers` figures attack one foe in melee, the bonus to hit each
/// gets — their number, at most +4, and none for a lone attacker ("more than one") — and
/// whether the one at `place` (0-based, in the scene's order) has room to strike at all on
/// a foe of this size.
pub fn gang_up(attackers: u32, place: u32, size: Size) -> (i32, bool, Rule) {
    let room = room_for_attackers(size);
    let fighting = attackers.min(room);
    let bonus = if fighting >= 2 { fighting.min(4) } else { 0 };
    (bonus as i32, place < room, cite::HOUSE_GANG_UP)
}
