//! A fumble (house rules, "Critical Misses"; the rule is [`crate::rules::house::fumble`]):
//! after a natural 1 to hit, a second d20 plus the weapon's magic decides between a plain
//! miss, the weapon flying d3 squares in a d8 direction, and the weapon breaking. A figure
//! that lost its weapon strikes no more with it: it is [`Disarmed`], and the viewer draws
//! the weapon where it lies.

use super::{Play, Segment};
use crate::rules::house::{self, Fumble};
use crate::scene::DieKind;
use crate::sim::components::Disarmed;
use crate::sim::log::{EventKind, LogEvent, Payload};
use crate::sim::plan::PlanEntry;
use bevy::prelude::*;

/// Whether a blow's natural d20 is a fumble under these house rules.
pub(super) fn is_fumble(p: &Play, natural: i32) -> bool {
    p.scene.0.rules.house.fumbles && natural == 1
}

/// Plays a fumble by `actor` (named `name`) with `weapon`, at `when`; a weapon lost is
/// noted on the figure ([`Disarmed`]).
pub(super) fn fumble(
    p: &mut Play,
    seg: &mut Segment,
    entry: &PlanEntry,
    actor: Entity,
    (name, weapon, when): (&str, &str, (u32, u32)),
) {
    let Ok(a) = p.figures.get(actor) else {
        return;
    };
    let (magic, from) = (a.fighting.weapon_magic, (a.pos.x, a.pos.y));
    // Claws, a bite, bare hands or feet: nothing to throw or break, only a miss — and no
    // second d20, which would take a die the scene fixed for the next attack.
    if !crate::tables::weapon(weapon).is_ok_and(|w| !w.brawling) {
        let e = LogEvent::new(
            when,
            name.to_string(),
            EventKind::Act,
            None,
            crate::words!(
                "fumbles on a natural 1: a plain miss, a claw, bite or bare hand having nothing to throw or break (no second roll)"
            ),
            crate::rules::cite::HOUSE_FUMBLE,
        );
        p.log.write(e.placed(entry.fixed));
        return;
    }
    let (second, _) = p.dice.roll(DieKind::ToHit, name, 20);
    let (outcome, total, rule) = house::fumble(second, magic);
    let (mut lands, mut squares, mut direction) = (None, None, None);
    let what = match outcome {
        Fumble::Miss => crate::words!("a plain miss"),
        Fumble::Broken => crate::words!("the {weapon} breaks"),
        Fumble::Thrown => {
            let (d3, _) = p.dice.roll(DieKind::Scatter, name, 3);
            let (d8, _) = p.dice.roll(DieKind::Scatter, name, 8);
            let (d3, d8) = (d3.clamp(1, 3) as u32, d8.clamp(1, 8) as u32);
            let (at, dir) = house::fumble_lands(from, d3, d8);
            (lands, squares, direction) = (Some(at), Some(d3), Some(dir.to_string()));
            crate::words!(
                "the {weapon} flies {d3} square{} {dir} (d3 {d3}, d8 {d8}) and lands at ({:.0}, {:.0})",
                if d3 == 1 { "" } else { "s" },
                at.0,
                at.1
            )
        }
    };
    let magic_note = if magic != 0 {
        crate::words!(" {magic:+} magic = {total}")
    } else {
        String::new()
    };
    let e = LogEvent::new(
        when,
        name.to_string(),
        EventKind::Act,
        None,
        crate::words!("fumbles on a natural 1: d20 {second}{magic_note}: {what}"),
        rule,
    )
    .with(Payload::Fumble {
        roll: second,
        magic,
        total,
        outcome,
        lands,
        squares,
        direction,
    });
    p.log.write(e.placed(entry.fixed));
    if outcome != Fumble::Miss {
        let d = Disarmed {
            weapon: weapon.to_string(),
            lies_at: lands,
        };
        seg.disarmed.insert(actor, d.clone());
        p.commands.entity(actor).insert(d);
    }
}
