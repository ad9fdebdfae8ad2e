//! A shot into a melee (DMG p.63): when the target is locked in melee with the shooter's
//! comrades (one aims its blows at the other, within reach), a die picks which of the combatants the missile strikes
//! ([`rules::into_melee`]); the pick is logged, and the blow is struck at the one picked.

use super::Play;
use crate::rules::combat::Condition;
use crate::rules::into_melee::{engaged, struck};
use crate::scene::{Act, DieKind};
use crate::sim::log::{EventKind, LogEvent};
use bevy::prelude::*;

/// The figure a shot by `actor` at `target` strikes: the target, or — fired into a melee
/// where the shooter's comrades fight it — the combatant the die picks.
pub(super) fn retarget(
    p: &mut Play,
    (actor, act): (Entity, &Act),
    target: Entity,
    when: (u32, u32),
) -> Entity {
    let Ok(a) = p.figures.get(actor) else {
        return target;
    };
    // Only a shot or a throw: a missile act with a weapon that flies.
    if !matches!(act, Act::Missile { .. }) {
        return target;
    }
    let (shooter, side) = (a.figure.name.clone(), a.side.0.clone());
    let Ok(t) = p.figures.get(target) else {
        return target;
    };
    // A charger crashing in is not yet locked in melee (the Example of Melee's monk shoots
    // the paladin barreling down on the illusionist: no pick) — in the segment of its
    // contact too; one whose charge made contact in an earlier segment of this round is
    // (an outside tester's archer shot clean past the melee a charger had landed in); a
    // fallen figure no longer is.
    let crashing_in = |f: &super::FighterReadOnlyItem| {
        f.charging && f.contact.is_none_or(|c| c.0 != when.0 || c.1 >= when.1)
    };
    if crashing_in(&t) || !t.hp.condition.is_up() {
        return target;
    }
    let (tpos, treach, tname) = (*t.pos, t.reach.0, t.figure.name.clone());
    let its_foes = t.intent.act.targets();
    let mut comrades: Vec<(usize, Entity, crate::name::Name)> = p
        .figures
        .iter()
        .filter(|f| f.entity != actor && f.entity != target && f.side.0 == side)
        .filter(|f| f.hp.condition.is_up() && f.hp.condition != Condition::Dead && !crashing_in(f))
        .filter(|f| {
            let fighting = f.intent.act.targets().contains(&tname.as_str())
                || its_foes.contains(&f.figure.name.as_str());
            engaged(fighting, f.pos.distance(&tpos), f.reach.0, treach)
        })
        .map(|f| (f.figure.index, f.entity, f.figure.name.clone()))
        .collect();
    if comrades.is_empty() {
        return target;
    }
    comrades.sort_by_key(|c| c.0);
    let n = comrades.len() + 1;
    let (die, _) = p.dice.roll(DieKind::IntoMelee, &shooter, n as u32);
    let Some((k, rule)) = struck(n, die) else {
        return target;
    };
    let (hit, hit_name) = if k == 0 {
        (target, tname.clone())
    } else {
        (comrades[k - 1].1, comrades[k - 1].2.clone())
    };
    let others: Vec<&str> = comrades.iter().map(|c| c.2.as_str()).collect();
    let detail = crate::words!(
        "shoots into the melee round {tname} (with {}): d{n} {die} picks {hit_name}",
        others.join(", ")
    );
    p.log.write(LogEvent::new(
        when,
        shooter,
        EventKind::Act,
        Some(hit_name),
        detail,
        rule,
    ));
    hit
}
