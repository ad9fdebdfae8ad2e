//! Movement: closing and charging figures advance foot by foot each segment at their rate,
//! stop when their target is within reach, and never pass through a wall.

use super::components::*;
use super::log::{EventKind, LogEvent};
use super::plan::MoveTo;
use super::{MapGrid, SegmentClock};
use crate::rules::cite;
use crate::scene::Act;
use bevy::prelude::*;

type Mover<'a> = (
    Entity,
    &'a Combatant,
    &'a HitPoints,
    &'a Reach,
    Option<&'a Closing>,
    Option<&'a MoveTo>,
    &'a mut Intent,
);

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
    let mut list: Vec<_> = movers
        .iter_mut()
        .filter(|m| m.4.is_some() || m.5.is_some())
        .collect();
    list.sort_by_key(|m| m.1.index);
    for (e, c, hp, reach, closing, move_to, mut intent) in list {
        if !hp.condition.is_up() {
            continue;
        }
        let Ok(start) = positions.get(e).copied() else {
            continue;
        };
        let (goal, stop_at, fps, charge, target_name) = match (closing, move_to) {
            (Some(cl), _) => {
                let Ok(t) = positions.get(cl.target).copied() else {
                    continue;
                };
                (t, reach.0, cl.feet_per_segment, cl.charge, Some(cl.target))
            }
            (None, Some(m)) => (m.0, 0.0, m.1, false, None),
            (None, None) => continue,
        };
        let dist = start.distance(&goal);
        let to_cover = (dist - stop_at).max(0.0);
        let step = fps.min(to_cover);
        let (dx, dy) = if dist > 0.0 {
            ((goal.x - start.x) / dist, (goal.y - start.y) / dist)
        } else {
            (0.0, 0.0)
        };
        // Foot by foot, checking the map.
        let mut moved = 0.0;
        let mut blocked = false;
        while moved < step - 1e-9 {
            let inc = (step - moved).min(1.0);
            let (nx, ny) = (start.x + dx * (moved + inc), start.y + dy * (moved + inc));
            if let Some(g) = &grid.0
                && !g.passable_ft(nx, ny)
            {
                blocked = true;
                break;
            }
            moved += inc;
        }
        let end = Position {
            x: start.x + dx * moved,
            y: start.y + dy * moved,
        };
        if let Ok(mut p) = positions.get_mut(e) {
            *p = end;
        }
        let target = target_name
            .and_then(|t| names.get(t).ok())
            .map(|c| c.name.clone());
        let rule = if charge {
            cite::CHARGE_ARRIVAL
        } else {
            cite::MOVEMENT_SEGMENT
        };
        if moved > 0.0 {
            log.write(LogEvent::new(
                when,
                c.name.clone(),
                EventKind::Move,
                target.clone(),
                format!(
                    "{} {moved:.0} ft to ({:.1}, {:.1}) at {fps} ft/segment",
                    if charge { "charges" } else { "moves" },
                    end.x,
                    end.y
                ),
                rule,
            ));
        }
        if blocked {
            log.write(LogEvent::new(
                when,
                c.name.clone(),
                EventKind::Idle,
                None,
                "stopped by a wall",
                cite::MOVEMENT_SEGMENT,
            ));
            commands.entity(e).remove::<Closing>().remove::<MoveTo>();
            continue;
        }
        if to_cover - moved <= 1e-9 {
            if closing.is_some() {
                log.write(LogEvent::new(
                    when,
                    c.name.clone(),
                    EventKind::Arrive,
                    target.clone(),
                    if charge {
                        "the charge reaches striking distance".to_string()
                    } else {
                        "reaches striking distance".to_string()
                    },
                    rule,
                ));
                if let Act::Charge { targets, modifier } = &intent.act {
                    intent.act = Act::Melee {
                        targets: targets.clone(),
                        modifier: *modifier,
                        hold_after: None,
                    };
                }
            }
            commands.entity(e).remove::<Closing>().remove::<MoveTo>();
        }
    }
}
