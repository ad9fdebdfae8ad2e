//! A charge at a figure moving away (§9f). If the mover's total comes first it is gone
//! when the charge comes: the charger runs at where it stopped, up to its charge, and its
//! blow is from behind (+2); the mover strikes no blow. If the charge comes first (or with
//! it), the mover is caught where it stands: of the text's three choices, the engine takes
//! the first by default — it strikes back at contact, by weapon length, and does not move —
//! or, with `charged_mover: GoesOn`, the third: it takes the blow and goes on to its
//! destination after the contact, by its total, striking none.

use super::{Build, allowance};
use crate::rules::cite;
use crate::rules::take_initiative::charge::ChargedMover;
use crate::scene::Act;
use crate::sim::components::Position;
use crate::sim::plan::{Adjust, MoveTo, first_standing};

/// Where figure `t` stops this round, if it moves to a point.
fn move_end(b: &Build, t: usize) -> Option<Position> {
    let f = &b.figs[t];
    let Act::Move { to: Some(p), .. } = f.act else {
        return None;
    };
    Some(
        f.pos
            .toward(&Position { x: p.0, y: p.1 }, allowance(b, t, false)),
    )
}

/// Whether figure `t`, moving away, acts before a charge arriving on segment `s`.
pub(super) fn gone_first(b: &Build, t: usize, s: u32) -> bool {
    move_end(b, t).is_some() && b.acts.get(&t).is_some_and(|&td| td < s)
}

/// Whether figure `t`, moving away, is caught in place by a charge on segment `s`.
pub(super) fn caught_in_place(b: &Build, t: usize, s: u32) -> bool {
    move_end(b, t).is_some() && b.acts.get(&t).is_some_and(|&td| td >= s)
}

/// Under `charged_mover: GoesOn`, figure `t`, caught by a charge on segment `s`, sets off
/// only after the contact and still arrives on its total; true if so.
pub(super) fn goes_on(b: &mut Build, t: usize, s: u32) -> bool {
    if b.rules.charged_mover != ChargedMover::GoesOn {
        return false;
    }
    let (Some(&td), Some(end)) = (b.acts.get(&t), move_end(b, t)) else {
        return false;
    };
    let ft = b.figs[t].pos.distance(&end);
    let fps = ft / f64::from(td.saturating_sub(s).max(1));
    b.changes.moving_to.insert(t, MoveTo(end, fps, s));
    true
}

/// Where charger `i` runs to, at its reach from where its target stopped, when the target
/// moved off first.
pub(super) fn chase_point(b: &Build, i: usize, s: u32) -> Option<Position> {
    let f = &b.figs[i];
    if !matches!(f.act, Act::Charge { .. }) {
        return None;
    }
    let t = first_standing(b.figs, f.act)?;
    if !gone_first(b, t, s) {
        return None;
    }
    Some(f.pos.short_of(&move_end(b, t)?, f.reach()))
}

/// The charge's blow on a target that moved off first: from behind.
pub(super) fn from_behind(b: &Build, i: usize, s: u32) -> Vec<Adjust> {
    let t = first_standing(b.figs, b.figs[i].act);
    if t.is_some_and(|t| gone_first(b, t, s)) {
        vec![Adjust {
            value: crate::rules::take_initiative::flee::REAR_BONUS,
            why: "from behind, at a figure moving off".into(),
            rule: cite::TI_CHARGE_LEAVING,
        }]
    } else {
        Vec::new()
    }
}
