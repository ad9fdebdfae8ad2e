//! Ganging up (house rules, "Ganging Up"; see [`crate::rules::house::gang_up`]): who is
//! attacking a foe in melee at the moment a blow lands. A figure counts when it is up, has
//! declared melee or a charge, has that foe as its first target still standing, and is
//! within reach of it (a charger still on its way does not crowd the foe yet). Missiles do
//! not count: the rule is about attackers getting in each other's way.

use super::Play;
use super::target::first_target;
use crate::rules::size::Size;
use crate::scene::Act;
use bevy::prelude::*;

/// How many figures attack `target` in melee now, the place of `actor` among them (in the
/// scene's order; `actor` always counts, as it is striking), and the target's size.
pub(super) fn attackers_on(p: &Play, actor: Entity, target: Entity) -> (u32, u32, Size) {
    let Ok(t) = p.figures.get(target) else {
        return (1, 0, Size::M);
    };
    let (tpos, size) = (*t.pos, t.figure.size);
    let mut on: Vec<(usize, Entity)> = p
        .figures
        .iter()
        .filter(|o| o.entity == actor || o.hp.condition.is_up())
        .filter(|o| {
            o.entity == actor
                || (matches!(o.intent.act, Act::Melee { .. } | Act::Charge { .. })
                    && o.pos.distance(&tpos) <= o.reach.0 + 1e-6
                    && first_target(p, &o.intent.act, 1) == Some(target))
        })
        .map(|o| (o.figure.index, o.entity))
        .collect();
    on.sort();
    let place = on.iter().position(|&(_, e)| e == actor).unwrap_or(0);
    (on.len() as u32, place as u32, size)
}
