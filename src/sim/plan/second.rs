//! Second actions in a round ([`rules::second_action`](crate::rules::second_action)): a
//! move after a potion sets off the segment after the drink; a normal attack after an item
//! of speed's shot is an action of its own with the other weapon, placed by the usual rules
//! while the shot keeps its place first.

use super::build::RoundBuild;
use crate::rules::action::ActionKind;
use crate::rules::cite;
use crate::rules::movement::feet_per_segment;
use crate::rules::second_action::move_after_potion;
use crate::scene::{Act, Declarations};
use crate::sim::log::{EventKind, LogEvent};
use crate::tables;

/// Plans each figure's second action this round (validation has refused any pair the rules
/// do not allow).
pub(super) fn plan(b: &mut RoundBuild, then: &Declarations) {
    for i in 0..b.figs.len() {
        let f = &b.figs[i];
        let Some(next) = then.get(f.name().as_str()).filter(|_| f.up()) else {
            continue;
        };
        match (f.act, next) {
            (Act::Potion { name, prepare }, Act::Move { toward, to }) => {
                // A potion drunk in an earlier round leaves the whole round to move.
                let begun = f.casting.as_ref().is_some_and(|c| &c.what == name);
                let wait = if begun {
                    0
                } else {
                    move_after_potion(*prepare)
                };
                let fps = feet_per_segment(f64::from(f.movement.inches), b.setting);
                let why = format!("then moves, from segment {}", wait + 1);
                let e = LogEvent::new(
                    b.when,
                    f.name(),
                    EventKind::Act,
                    toward.clone().map(Into::into),
                    why,
                    cite::POTION_THEN_MOVE,
                );
                b.events.push(e);
                b.changes.start_move(b.figs, i, (toward, to), fps, wait);
            }
            (Act::Missile { .. }, Act::Melee { targets, .. }) => attack(b, i, targets),
            (Act::Melee { .. }, Act::Cast { spell, target, .. }) if next.is_instant_device() => {
                let (spell, target) = (spell.clone(), target.clone());
                // Besides a blow only if a blow is planned this round (not while closing);
                // otherwise the device is an act of its own.
                let blow = b
                    .actions
                    .iter()
                    .find(|a| a.owner == i && a.declared.kind == ActionKind::Melee)
                    .map(|a| a.targets.clone());
                super::cast::use_device(b, i, (&spell, target), blow);
            }
            _ => {}
        }
    }
}

/// The normal attack after an item of speed's shot: one routine with the other weapon.
fn attack(b: &mut RoundBuild, i: usize, targets: &[String]) {
    let f = &b.figs[i];
    let weapon = f.off_hand().and_then(|w| tables::weapon(w).ok());
    let mut d = b.declared(i, ActionKind::Melee);
    d.speed_factor = weapon.map(|w| w.speed_factor);
    d.reach_ft = weapon.map_or(f.reach(), |w| w.length_ft);
    d.strikes_first = false;
    let why = format!(
        "then makes its normal attack with its {}",
        f.off_hand().unwrap_or("other weapon")
    );
    b.events.push(LogEvent::new(
        b.when,
        f.name(),
        EventKind::Act,
        targets.first().map(|t| t.as_str().into()),
        why,
        cite::SPEED_SHOT_THEN_ATTACK,
    ));
    b.push(i, d, targets.to_vec(), false, String::new());
    if let Some(a) = b.actions.last_mut() {
        a.second = true;
    }
}
