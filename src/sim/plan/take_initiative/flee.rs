//! Turning to flee (§4): on the fleer's total each opponent in melee with it — standing
//! within its reach at the round's start — gets a free attack at +4 (from behind and as if
//! stunned), then the fleer runs for its point, covering its move by the end of the round.
//! An opponent that acts first strikes on its own total as well (4a); one that acts later
//! finds the fleer gone (4b).

use super::{Build, allowance, push_rule};
use crate::rules::cite;
use crate::scene::Act;
use crate::sim::components::Position;
use crate::sim::plan::{MoveTo, Planned, gap};

/// Figure `i` flees on segment `s`.
pub(super) fn flee(b: &mut Build, i: usize, s: u32) {
    let f = &b.figs[i];
    let Act::Flee { to } = f.act else { return };
    let name = f.name.clone();
    let engaged: Vec<usize> = (0..b.figs.len())
        .filter(|&o| {
            let of = &b.figs[o];
            of.up && of.side != f.side && !of.weapon.missile && gap(of, f) <= 0.0
        })
        .collect();
    for o in engaged {
        let what = Planned::Strike {
            routine: 1,
            of: 1,
            blow: 1,
            charge: false,
            set: false,
            second: false,
            free: Some(name.clone()),
            adjust: Vec::new(),
        };
        let why = format!("a free attack at +4 as {name} turns to flee");
        // Before anything else in the segment: it comes as the fleer turns.
        push_rule(b, o, s, i64::MIN + 1, what, why, cite::TI_FLEE);
    }
    let goal = Position { x: to.0, y: to.1 };
    let d = f.pos.distance(&goal);
    let covered = d.min(allowance(b, i, false));
    let k = if d > 0.0 { covered / d } else { 0.0 };
    let at = Position {
        x: f.pos.x + (goal.x - f.pos.x) * k,
        y: f.pos.y + (goal.y - f.pos.y) * k,
    };
    let left = crate::rules::take_initiative::SEGMENTS
        .saturating_sub(s)
        .max(1);
    b.changes
        .moving_to
        .insert(i, MoveTo(at, covered / f64::from(left), s));
}
