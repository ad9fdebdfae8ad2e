//! Missiles on the move (§8b, §8c): an archer that moves first covers its move so as to
//! arrive on its total and shoots from there, at half its rate, the range measured after
//! the move. Two archers moving to shoot at each other at declared ranges (8c): the one
//! that chose the farther range shoots first, both on the earlier total, each at the range
//! it chose; each completes its move on its own total.

use super::{Build, allowance, push_rule};
use crate::rules::cite;
use crate::rules::take_initiative::ranged::{farther_first, shots_when_moving};
use crate::scene::Act;
use crate::sim::components::Position;
use crate::sim::plan::{Adjust, MoveTo, Planned, TiMove, first_standing, range_adjust};

/// Where figure `i` moves to before shooting: its point (8b), or toward its target until
/// the range it chose (8c) — half of that closing when the target comes toward it too,
/// which covers the other half — at most its allowance away.
pub(super) fn shooting_point(b: &Build, i: usize) -> Option<Position> {
    let f = &b.figs[i];
    let Act::Missile {
        move_to, at_range, ..
    } = f.act
    else {
        return None;
    };
    let goal = match (move_to, at_range) {
        (Some(p), _) => Position { x: p.0, y: p.1 },
        (None, Some(r)) => {
            let t = &b.figs[first_standing(b.figs, f.act)?];
            let d = f.pos.distance(t.pos);
            if d <= *r {
                return Some(*f.pos);
            }
            let i_name = f.name().as_str();
            let comes = t.act.targets().first() == Some(&i_name)
                && matches!(
                    t.act,
                    Act::Missile {
                        at_range: Some(_),
                        ..
                    } | Act::Close { .. }
                        | Act::Charge { .. }
                        | Act::Move { .. }
                );
            let share = if comes { 0.5 } else { 1.0 };
            f.pos.toward(t.pos, (d - r) * share)
        }
        (None, None) => return None,
    };
    Some(f.pos.toward(&goal, allowance(b, i, false)))
}

/// Whether figure `i` moves to shoot as App. B counts a move: its shooting point lies more
/// than 10 ft (1") away. A point nearer is a step that costs nothing (App. B counts only
/// movement over 10 ft): the step is taken, but with no move row and at the full rate (an
/// outside tester's archer told to move to its own spot paid +4 and shot at half the rate;
/// another's 5 ft step was then not taken at all, and its target stayed out of range).
pub(super) fn moves_to_shoot(b: &Build, i: usize) -> bool {
    use crate::rules::take_initiative::action::{Action, moving};
    let f = &b.figs[i];
    // Costed as any move is (App. B: a step of 10 ft or less has no row).
    shooting_point(b, i).is_some_and(|p| {
        matches!(
            moving(f.pos.distance(&p), allowance(b, i, false)),
            Action::Move { .. }
        )
    })
}

/// Figure `i` moves, arriving on segment `s`, and shoots.
pub(super) fn moving_shot(b: &mut Build, i: usize, s: u32) {
    let Some(at) = shooting_point(b, i) else {
        return;
    };
    let f = &b.figs[i];
    let ft = f.pos.distance(&at);
    b.changes
        .moving_to
        .insert(i, MoveTo(at, ft / f64::from(s.max(1)), 0));
    b.moves.push(TiMove {
        name: f.name().to_string(),
        from: (f.pos.x, f.pos.y),
        to: (at.x, at.y),
        total: s,
        move_ft: allowance(b, i, false),
    });
    let nth = f.rate.rounds_attacking + 1;
    let moving = moves_to_shoot(b, i);
    let (of, _) = shots_when_moving(f.rate.of(true), moving, nth, b.alternating);
    if of == 0 {
        super::off_round(b, i);
        return;
    }
    b.changes.attacked.push(i);
    let (seg, key, adjust, rule, why) = match facing(b, i) {
        Some(face) => face,
        None => (
            s,
            0,
            Vec::new(),
            cite::TI_RANGED,
            match moving {
                true => "on its total, after its move: half the rate".to_string(),
                false => "on its total, after a step of 10 ft or less: the full rate".to_string(),
            },
        ),
    };
    for routine in 1..=of {
        let what = Planned::routine(routine, of, adjust.clone());
        push_rule(b, i, seg, key, what, why.clone(), rule);
    }
}

/// 8c: figure `i` and its target both move to shoot at each other at declared ranges:
/// the segment (the earlier total), the order within it (the farther range first), the
/// range adjustment of the range it chose, the rule and why.
#[allow(clippy::type_complexity)]
fn facing(b: &Build, i: usize) -> Option<(u32, i64, Vec<Adjust>, cite::Rule, String)> {
    let f = &b.figs[i];
    let Act::Missile {
        at_range: Some(mine),
        ..
    } = f.act
    else {
        return None;
    };
    let t = first_standing(b.figs, f.act)?;
    let Act::Missile {
        at_range: Some(theirs),
        ..
    } = b.figs[t].act
    else {
        return None;
    };
    if first_standing(b.figs, b.figs[t].act) != Some(i) {
        return None;
    }
    let seg = b.acts.get(&i)?.min(b.acts.get(&t)?);
    let adjust = f
        .weapon
        .range_ft(b.setting)
        .and_then(|l| {
            range_adjust(crate::rules::options::RulesSystem::TakeInitiative, *mine, l).ok()
        })
        .into_iter()
        .collect();
    let (first, rule) = farther_first(*mine, *theirs);
    let order = match first {
        Some(true) => "first: it chose the farther range",
        Some(false) => "second: the other chose the farther range",
        None => "with the other: they chose the same range",
    };
    let why = format!("at the {mine:.0} ft it chose, {order}; half the rate on the move");
    Some((*seg, -(mine * 100.0).round() as i64, adjust, rule, why))
}
