//! Whom a blow lands on: of the targets declared, the first still standing (one per shot
//! for a volley that names one per shot, and in turn for a melee at several targets under
//! "Take Initiative!"), else the first not yet dead.

use super::Play;
use crate::rules::combat::Condition;
use crate::rules::options::RulesSystem;
use crate::rules::take_initiative;
use crate::scene::Act;
use bevy::prelude::*;

/// The first target still standing; failing that, the first not yet dead (a helpless foe
/// may still be struck).
pub(super) fn first_target(p: &Play, act: &Act, shot: u32) -> Option<Entity> {
    // One target per shot: shot k at the k-th, while it stands. Under "Take Initiative!"
    // a melee naming several targets attacks them in turn the same way (App. B, Weapon).
    let in_turn = match act {
        Act::Missile {
            targets,
            per_shot: true,
            ..
        } => Some(targets),
        Act::Melee { targets, .. }
            if p.scene.0.rules.system == RulesSystem::TakeInitiative
                && take_initiative::multiple_targets(targets.len()).is_some() =>
        {
            Some(targets)
        }
        _ => None,
    };
    if let Some(targets) = in_turn
        && !targets.is_empty()
    {
        let name = &targets[(shot.max(1) as usize - 1) % targets.len()];
        let own = p.figures.iter().find(|o| &o.figure.name == name);
        if let Some(o) = own.filter(|o| o.hp.condition.is_up()) {
            return Some(o.entity);
        }
    }
    let pick = |ok: &dyn Fn(Condition) -> bool| {
        act.targets().into_iter().find_map(|t| {
            p.figures
                .iter()
                .find(|o| o.figure.name == t && ok(o.hp.condition))
                .map(|o| o.entity)
        })
    };
    pick(&|c| c.is_up()).or_else(|| pick(&|c| c != Condition::Dead))
}

/// Whom a charge to a point with no target named strikes under "Take Initiative!" (§11a:
/// racing to a point, a figure that charged attacks the one it meets there, by weapon
/// length): the nearest foe standing within its reach when its blow comes, if any. The
/// book's charge to a point strikes no blow (DMG p.66: it is movement at the charge rate).
pub(super) fn met_at_the_point(p: &Play, actor: Entity, act: &Act) -> Option<Entity> {
    let to_a_point = matches!(act, Act::Charge { to: Some(_), targets, .. } if targets.is_empty());
    if !to_a_point || p.scene.0.rules.system != RulesSystem::TakeInitiative {
        return None;
    }
    let me = p.figures.get(actor).ok()?;
    let (at, reach, side) = (*me.pos, me.reach.0, me.side.0.clone());
    p.figures
        .iter()
        .filter(|o| o.side.0 != side && o.hp.condition.is_up())
        .map(|o| (at.distance(o.pos), o.entity))
        .filter(|(d, _)| *d <= reach + 1e-6)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e)
}

/// Another target of `act` standing within `reach` ft of `actor`, not hidden, for the rest
/// of a routine whose target `fallen` has just gone down: a monster's claw, claw and bite
/// go on to the next foe declared beside it rather than into a body (the Example of
/// Melee's blows turn to the next adjacent foe once one falls).
pub(super) fn next_in_reach(
    p: &Play,
    actor: Entity,
    act: &Act,
    fallen: Entity,
    reach: f64,
) -> Option<Entity> {
    let at = *p.figures.get(actor).ok()?.pos;
    act.targets().into_iter().find_map(|t| {
        p.figures
            .iter()
            .find(|o| o.figure.name == t && o.entity != fallen)
            .filter(|o| o.hp.condition.is_up() && !o.hidden && at.distance(o.pos) <= reach + 1e-6)
            .map(|o| o.entity)
    })
}
