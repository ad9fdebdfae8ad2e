//! A try to hide in shadows on the figure's total ("Take Initiative!" §10): observed by a
//! foe — one that sees it on the map, or, without a map, one aiming at it this round — it
//! cannot; otherwise d% under its chance hides it.

use super::Play;
use crate::rules::take_initiative::hide::{Hiding, hide as try_hide};
use crate::scene::DieKind;
use crate::sim::components::Hidden;
use crate::sim::plan::PlanEntry;
use bevy::prelude::*;

/// Plays one try to hide of `actor`.
pub(super) fn hide(p: &mut Play, entry: &PlanEntry, actor: Entity) {
    let Ok(a) = p.figures.get(actor) else { return };
    let (name, index, side) = (
        a.figure.name.clone(),
        a.figure.index,
        p.scene.0.combatants[a.figure.index].side.clone(),
    );
    let chance = a.hide_chance.map(|h| h.0);
    let mapped = p.scene.0.map.is_some();
    let watcher = p
        .figures
        .iter()
        .filter(|o| o.hp.condition.is_up() && p.scene.0.combatants[o.figure.index].side != side)
        .find(|o| {
            if mapped {
                p.sightings.sees(o.figure.index, index)
            } else {
                o.intent.act.targets().contains(&name.as_str())
            }
        })
        .map(|o| o.figure.name.clone());
    let (d100, fixed) = p.dice.roll(DieKind::Percent, &name, 100);
    let (outcome, rule) = try_hide(watcher.is_some(), d100 as u32, chance);
    let rolled = if fixed { "" } else { " (rolled)" };
    let why = match outcome {
        Hiding::Hidden => {
            p.commands.entity(actor).insert(Hidden);
            format!(
                "hides in shadows: d% {d100}{rolled} within {}%",
                chance.unwrap_or(0)
            )
        }
        Hiding::Observed => format!(
            "cannot hide in shadows: {} is watching it",
            watcher.unwrap_or_default()
        ),
        Hiding::Failed => format!(
            "fails to hide in shadows: d% {d100}{rolled} over {}%",
            chance.unwrap_or(0)
        ),
        Hiding::NoChance => "cannot hide in shadows: it has no `hide_in_shadows` chance".into(),
    };
    super::act_event(p, entry, (name, None), why, rule);
}
