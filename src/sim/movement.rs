//! Movement: closing, charging and walking figures advance each segment at their rate, all
//! at once. The segment is cut into sub-steps of at most a foot for the fastest mover;
//! in each, every mover steps toward where its target stood at the end of the last
//! sub-step, stops when the target is within reach, and never passes through a wall. Two
//! figures closing on each other share the gap, so they meet where their movements meet,
//! and nothing depends on the order of the figures in the scene file.

use super::components::*;
use super::log::{EventKind, LogEvent, Payload};
use super::plan::MoveTo;
use super::{MapGrid, SegmentClock};
use crate::rules::cite;
use crate::rules::options::RulesSystem;
use crate::scene::Act;
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use std::collections::BTreeMap;

/// A figure that may move this segment.
#[derive(QueryData)]
#[query_data(mutable)]
pub(super) struct Mover {
    entity: Entity,
    figure: &'static Combatant,
    hp: &'static HitPoints,
    reach: &'static Reach,
    closing: Option<&'static Closing>,
    move_to: Option<&'static MoveTo>,
    intent: &'static mut Intent,
    moved: &'static mut super::components::Moved,
}

/// Where a mover is headed.
#[derive(Clone, Copy)]
enum Goal {
    /// A figure, stopping once it is within reach.
    Figure(Entity),
    /// A point.
    Point(Position),
}

/// One mover's progress through the segment.
#[derive(Clone)]
struct Walk {
    entity: Entity,
    goal: Goal,
    stop_at: f64,
    feet_per_segment: f64,
    charge: bool,
    at: Position,
    moved: f64,
    arrived: bool,
    /// What stopped it, in words, if something did.
    blocked: Option<&'static str>,
}

/// Moves every figure that is closing, charging or walking.
pub(super) fn movement(
    clock: Res<SegmentClock>,
    grid: Res<MapGrid>,
    mut commands: Commands,
    mut movers: Query<Mover>,
    mut positions: Query<&mut Position>,
    names: Query<&Combatant>,
    mut log: MessageWriter<LogEvent>,
) {
    let when = clock.round_segment();
    if when.1 == 0 {
        return;
    }
    let mut walks: Vec<(usize, Walk)> = movers
        .iter()
        .filter(|m| m.hp.condition.is_up())
        .filter_map(|m| {
            let (goal, stop_at, fps, charge) = match (m.closing, m.move_to) {
                // A hesitating charger has not set off yet.
                (Some(c), _) if c.wait >= when.1 && when.0 > 0 => return None,
                (Some(c), _) => (
                    Goal::Figure(c.target),
                    m.reach.0,
                    c.feet_per_segment,
                    c.charge,
                ),
                (None, Some(t)) if t.2 >= when.1 && when.0 > 0 => return None,
                (None, Some(t)) => (Goal::Point(t.0), 0.0, t.1, false),
                (None, None) => return None,
            };
            let at = *positions.get(m.entity).ok()?;
            Some((
                m.figure.index,
                Walk {
                    entity: m.entity,
                    goal,
                    stop_at,
                    feet_per_segment: fps,
                    charge,
                    at,
                    moved: 0.0,
                    arrived: false,
                    blocked: None,
                },
            ))
        })
        .collect();
    walks.sort_by_key(|w| w.0);
    let mut walks: Vec<Walk> = walks.into_iter().map(|(_, w)| w).collect();
    // Movers that chase one another move together; groups apart never touch each other's
    // sub-steps, so an unrelated fight cannot change a path by a hair.
    for group in groups(&walks) {
        let mut part: Vec<Walk> = group.iter().map(|&k| walks[k].clone()).collect();
        walk_together(
            &mut part,
            &|e| positions.get(e).ok().copied(),
            grid.0.as_ref(),
        );
        for (w, &k) in part.into_iter().zip(&group) {
            walks[k] = w;
        }
    }
    for w in &walks {
        if let Ok(mut p) = positions.get_mut(w.entity) {
            *p = w.at;
        }
    }
    for w in walks {
        report(&mut commands, &mut movers, &names, &mut log, &clock, &w);
    }
}

/// The movers joined by who moves toward whom, each group in scene order.
fn groups(walks: &[Walk]) -> Vec<Vec<usize>> {
    let mut uf = petgraph::unionfind::UnionFind::<usize>::new(walks.len());
    let index: BTreeMap<Entity, usize> = walks
        .iter()
        .enumerate()
        .map(|(i, w)| (w.entity, i))
        .collect();
    for (i, w) in walks.iter().enumerate() {
        if let Goal::Figure(t) = w.goal
            && let Some(&j) = index.get(&t)
        {
            uf.union(i, j);
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut root_of: BTreeMap<usize, usize> = BTreeMap::new();
    for i in 0..walks.len() {
        let r = uf.find(i);
        let g = *root_of.entry(r).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[g].push(i);
    }
    out
}

/// A mover's sub-step: its length, its direction (x, y), the feet still to cover, and
/// whether its foe is in reach only across a wall (so it walks on into the wall).
type Step = (f64, f64, f64, f64, bool);

/// A group's sub-steps for one segment.
fn walk_together(
    walks: &mut [Walk],
    position_of: &dyn Fn(Entity) -> Option<Position>,
    grid: Option<&crate::map::Grid>,
) {
    let fastest = walks.iter().map(|w| w.feet_per_segment).fold(0.0, f64::max);
    let index: BTreeMap<Entity, usize> = walks
        .iter()
        .enumerate()
        .map(|(i, w)| (w.entity, i))
        .collect();
    let n = fastest.ceil().max(1.0) as usize;
    // One foot or so at a time: the steps are worked out afresh in one buffer.
    let mut steps: Vec<Option<Step>> = Vec::with_capacity(walks.len());
    for _ in 0..n {
        // Where everyone stands before this sub-step (movers first, then the rest).
        let at = |e: Entity| {
            index
                .get(&e)
                .map(|&i| walks[i].at)
                .or_else(|| position_of(e))
        };
        // Each mover's step toward its goal, from where everyone stood.
        steps.clear();
        steps.extend(walks.iter().map(|w| {
            if w.arrived || w.blocked.is_some() {
                return None;
            }
            let goal = match w.goal {
                Goal::Figure(t) => at(t)?,
                Goal::Point(p) => p,
            };
            let dist = w.at.distance(&goal);
            // Within reach only along open ground: across a wall the mover goes on toward
            // its foe (and is stopped by the wall). Asked only once in reach after this
            // sub-step's two steps (its own and its foe's), along a line no longer than the
            // reach and two steps.
            let step = w.feet_per_segment / n as f64;
            let across_a_wall = matches!(w.goal, Goal::Figure(_))
                && dist - w.stop_at <= 2.0 * fastest / n as f64 + 1e-9
                && grid.is_some_and(|g| !g.open_line_ft((w.at.x, w.at.y), (goal.x, goal.y)));
            let stop_at = if across_a_wall { 0.0 } else { w.stop_at };
            let to_cover = (dist - stop_at).max(0.0);
            let step = step.min(to_cover);
            let (dx, dy) = if dist > 0.0 {
                ((goal.x - w.at.x) / dist, (goal.y - w.at.y) / dist)
            } else {
                (0.0, 0.0)
            };
            Some((step, dx, dy, to_cover, across_a_wall))
        }));
        share_mutual_gaps(walks, &index, &mut steps, &at);
        for (w, &s) in walks.iter_mut().zip(&steps) {
            let Some((step, dx, dy, to_cover, _)) = s else {
                continue;
            };
            let next = Position {
                x: w.at.x + dx * step,
                y: w.at.y + dy * step,
            };
            if let Some(g) = grid.filter(|g| !g.passable_ft(next.x, next.y)) {
                w.blocked = Some(crate::map::obstacle_words(g.kind_at_ft(next.x, next.y)));
                continue;
            }
            w.at = next;
            w.moved += step;
            if to_cover - step <= 1e-9 {
                w.arrived = true;
            }
        }
    }
}

/// Two figures closing on each other may not both take their full step when together the
/// steps would cross the gap left by the longer reach: each takes its share.
fn share_mutual_gaps(
    walks: &[Walk],
    index: &BTreeMap<Entity, usize>,
    steps: &mut [Option<Step>],
    at: &dyn Fn(Entity) -> Option<Position>,
) {
    for i in 0..walks.len() {
        let Goal::Figure(ti) = walks[i].goal else {
            continue;
        };
        let Some(&j) = index.get(&ti) else {
            continue;
        };
        if j <= i || !matches!(walks[j].goal, Goal::Figure(t) if t == walks[i].entity) {
            continue;
        }
        let (Some(si), Some(sj)) = (steps[i], steps[j]) else {
            continue;
        };
        // Two on either side of a wall share no gap: each walks into the wall.
        if si.4 || sj.4 {
            continue;
        }
        let (Some(pi), Some(pj)) = (at(walks[i].entity), at(walks[j].entity)) else {
            continue;
        };
        let dist = pi.distance(&pj);
        let gap = (dist - walks[i].stop_at.max(walks[j].stop_at)).max(0.0);
        let total = si.0 + sj.0;
        // Both steps close the gap; where together they would cross it, each takes its share.
        let k = if total > gap && total > 0.0 {
            gap / total
        } else {
            1.0
        };
        // The longer reach stops where the gap closes; the shorter goes on for the rest of
        // the sub-step, up to its own reach.
        let (long, short) = if walks[i].stop_at >= walks[j].stop_at {
            ((si, i), (sj, j))
        } else {
            ((sj, j), (si, i))
        };
        let long_step = long.0.0 * k;
        let short_step = if k < 1.0 && walks[short.1].stop_at < walks[long.1].stop_at {
            short
                .0
                .0
                .min(dist - long_step - walks[short.1].stop_at)
                .max(0.0)
        } else {
            short.0.0 * k
        };
        for ((s, idx), step) in [(long, long_step), (short, short_step)] {
            // Arrived when its own reach is met, judged from both steps (a hair's breadth
            // counts as none).
            let left = dist - (long_step + short_step) - walks[idx].stop_at;
            let left = if left < 1e-6 { 0.0 } else { left };
            steps[idx] = Some((step, s.1, s.2, step + left, false));
        }
    }
}

/// Logs a mover's segment and ends the move when it arrives or is blocked.
fn report(
    commands: &mut Commands,
    movers: &mut Query<Mover>,
    names: &Query<&Combatant>,
    log: &mut MessageWriter<LogEvent>,
    clock: &SegmentClock,
    w: &Walk,
) {
    let (when, clock_system) = (clock.round_segment(), clock.system);
    let Ok(mut m) = movers.get_mut(w.entity) else {
        return;
    };
    let target = match w.goal {
        Goal::Figure(t) => names.get(t).ok().map(|c| c.name.clone()),
        Goal::Point(_) => None,
    };
    // A step into reach between foes that started the round within 1" is part of the
    // round's fighting: said at its very start, before any blow, and not as a move at a
    // rate (DMG p.66) — when it reaches in the round's first segment. One that does not
    // (a foe walking away, a wall in the way) is a move like any other, said when made.
    // In a surprise segment the step comes in the segment whose round of blows it opens.
    let surprise = when.0 == 0;
    let step_in = m.closing.is_some_and(|c| c.step_in)
        && (when.1 == 1 || surprise)
        && w.arrived
        && w.blocked.is_none();
    let rule = match (w.charge, clock_system) {
        _ if step_in => cite::CHARGE_NO_MELEE,
        (true, RulesSystem::TakeInitiative) if when.0 > 0 => cite::TI_CHARGE,
        (true, _) => cite::CHARGE_ARRIVAL,
        (false, _) => cite::MOVEMENT_SEGMENT,
    };
    let logged = if step_in && !surprise {
        (when.0, 0)
    } else {
        when
    };
    let name = m.figure.name.clone();
    if w.moved > 1e-9 {
        m.moved.round = Some(when.0);
        let words = if step_in && surprise {
            crate::words!(
                "steps in {} ft to ({:.1}, {:.1}) to strike: within 1\" the step is part of \
                 the segment's round of blows",
                feet(w.moved),
                w.at.x,
                w.at.y
            )
        } else if step_in {
            crate::words!(
                "steps in {} ft to ({:.1}, {:.1}) to strike: foes that start the round within \
                 1\" fight in it, and the step takes none of its time",
                feet(w.moved),
                w.at.x,
                w.at.y
            )
        } else {
            crate::words!(
                "{} {} ft to ({:.1}, {:.1}) at {} ft/segment",
                if w.charge { "charges" } else { "moves" },
                feet(w.moved),
                w.at.x,
                w.at.y,
                feet(w.feet_per_segment)
            )
        };
        log.write(
            LogEvent::new(
                logged,
                name.clone(),
                EventKind::Move,
                target.clone(),
                words,
                rule,
            )
            .with(Payload::Move {
                feet: w.moved,
                feet_per_segment: w.feet_per_segment,
                to: (w.at.x, w.at.y),
                charge: w.charge,
            }),
        );
    }
    if let Some(by) = w.blocked {
        log.write(LogEvent::new(
            when,
            name,
            EventKind::Idle,
            None,
            crate::words!("stopped by {by}"),
            cite::MOVEMENT_BLOCKED,
        ));
        commands
            .entity(w.entity)
            .remove::<Closing>()
            .remove::<MoveTo>()
            .insert(super::components::Blocked {
                round: when.0,
                segment: when.1,
                by,
            });
        return;
    }
    if !w.arrived {
        if let Some(c) = m.closing {
            let mut c = c.clone();
            c.covered += w.moved;
            c.step_in = false;
            commands.entity(w.entity).insert(c);
        }
        return;
    }
    if m.closing.is_some() {
        log.write(
            LogEvent::new(
                logged,
                name,
                EventKind::Arrive,
                target,
                if w.charge {
                    "the charge reaches striking distance"
                } else {
                    "reaches striking distance"
                },
                rule,
            )
            .with(Payload::Arrive {
                segment: logged.1,
                distance_ft: m.closing.map_or(0.0, |c| c.covered + w.moved),
                charge: w.charge,
            }),
        );
        if w.charge {
            commands
                .entity(w.entity)
                .insert(ChargeContact(when.0, when.1));
        }
        if let Act::Charge {
            targets, modifier, ..
        } = &m.intent.act
        {
            m.intent.act = Act::Melee {
                targets: targets.clone(),
                modifier: *modifier,
                hold_after: None,
            };
        }
    }
    commands
        .entity(w.entity)
        .remove::<Closing>()
        .remove::<MoveTo>();
}

/// Feet for reading: whole feet as such, otherwise two decimals ("24", "4.39").
pub fn feet(x: f64) -> String {
    let r = (x * 100.0).round() / 100.0;
    if (r - r.round()).abs() < 1e-9 {
        format!("{}", r.round())
    } else {
        format!("{r:.2}").trim_end_matches('0').to_string()
    }
}
