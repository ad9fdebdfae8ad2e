//! A plain move out of melee (§4, §6). The variant has two ways out of a melee — backing
//! off at half the move or less (a withdrawal) and turning to run (a flight, with the
//! foe's free attack at +4) — and a declared `Move` that takes a figure out of a foe's
//! melee is one of them ([`leaving_melee`]): it is played as that, at its own point, and
//! the log says so. A move that stays in every foe's melee, or toward a figure, is a move.

use crate::rules::distance::Setting;
use crate::rules::movement::feet_per_round;
use crate::rules::take_initiative::flee::{Leaving, in_melee, leaving_melee};
use crate::scene::Act;
use crate::sim::components::Position;
use crate::sim::log::{EventKind, LogEvent};
use crate::sim::movement::feet;
use crate::sim::plan::{Fig, gap};

/// How a figure's move out of melee is played: the act, what it is, how far it goes, and
/// the first foe it leaves.
pub(super) struct MovedOff {
    /// The act it is played as: a `Withdraw` or a `Flee` to the move's point.
    pub act: Act,
    /// Which of the two.
    pub how: Leaving,
    /// Feet it moves this round.
    pub feet: f64,
    /// The first foe whose melee it leaves.
    pub foe: usize,
}

/// For each of `figs`: how its declared move is played, if the move takes it out of a
/// foe's melee (None for every other act).
pub(super) fn played_as(figs: &[Fig], setting: Setting) -> Vec<Option<MovedOff>> {
    (0..figs.len())
        .map(|i| moved_off(figs, i, setting))
        .collect()
}

/// Figure `i`'s move out of melee, if it declared one.
fn moved_off(figs: &[Fig], i: usize, setting: Setting) -> Option<MovedOff> {
    let f = &figs[i];
    let Act::Move { to: Some(p), .. } = f.act else {
        return None;
    };
    if !f.up() {
        return None;
    }
    let goal = Position { x: p.0, y: p.1 };
    let allowance = feet_per_round(f64::from(f.movement.inches), setting);
    let moved = f.pos.distance(&goal).min(allowance);
    let end = f.pos.toward(&goal, moved);
    let aims = |o: &Fig| o.act.targets().iter().any(|t| *t == f.name());
    let foe = (0..figs.len()).find(|&o| {
        let of = &figs[o];
        let engaged = in_melee(of.pos.distance(f.pos), gap(of, f) <= 0.0, aims(of)).0;
        let d = of.pos.distance(&end);
        let still = in_melee(d, d <= of.reach() + 1e-6, aims(of)).0;
        of.up() && of.side() != f.side() && !of.weapon.missile && engaged && !still
    })?;
    let (how, _) = leaving_melee(moved, allowance, true);
    let how = how?;
    let act = match how {
        Leaving::Withdraws => Act::Withdraw { to: *p },
        Leaving::Flees => Act::Flee { to: *p },
    };
    Some(MovedOff {
        act,
        how,
        feet: moved,
        foe,
    })
}

/// The log's word for figure `i`'s move out of melee.
pub(super) fn said(when: (u32, u32), figs: &[Fig], i: usize, m: &MovedOff) -> LogEvent {
    let f = &figs[i];
    let foe = figs[m.foe].name().to_string();
    let (what, rule) = match m.how {
        Leaving::Withdraws => (
            "half its move or less: a withdrawal (§6)",
            crate::rules::cite::TI_WITHDRAW,
        ),
        Leaving::Flees => (
            "more than half its move: it turns to flee (§4), and a foe in melee gets its free attack",
            crate::rules::cite::TI_FLEE,
        ),
    };
    let why = crate::words!("moves {} ft out of melee with {foe}: {what}", feet(m.feet));
    LogEvent::new(when, f.name(), EventKind::Act, Some(foe.into()), why, rule)
}
