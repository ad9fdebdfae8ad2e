//! Spells, potions and cantrips in a round: a casting begun now gets its completion
//! segment (DMG p.65; a potion d4+1 segments after it is drunk, DMG p.119; two cantrips,
//! the second d4 segments after the first, UA p.45); one carried on from surprise or an
//! earlier round keeps its own.

use super::build::RoundBuild;
use super::spell_info;
use crate::rules::action::ActionKind;
use crate::rules::cite;
use crate::rules::spell::{
    cantrip_segments, completion_segment, potion_delay, potion_effect_segment,
};
use crate::scene::{Act, DieKind};
use crate::sim::components::Casting;
use crate::sim::dice::Dice;
use crate::sim::log::{EventKind, LogEvent, Payload};
use crate::text::plural;

/// Plans figure `i`'s spell, potion or cantrips.
pub(super) fn plan(b: &mut RoundBuild, i: usize, dice: &mut Dice) {
    let act = b.figs[i].act.clone();
    match act.clone() {
        Act::Cast { spell, target, .. }
            if act.is_instant_device() && carried(b, i, &spell).is_none() =>
        {
            use_device(b, i, (&spell, target), None)
        }
        Act::Cast {
            spell,
            target,
            segments,
            device,
            ..
        } => cast(b, i, &spell, target, (segments, device)),
        Act::Potion { name, prepare } => potion(b, i, &name, prepare, dice),
        Act::Cantrips {
            first,
            second,
            target,
        } => cantrips(b, i, [first, second], target, dice),
        _ => {}
    }
}

/// The casting carried on from before, if it is this one.
fn carried(b: &RoundBuild, i: usize, what: &str) -> Option<Casting> {
    b.figs[i].casting.cloned().filter(|c| c.what == what)
}

/// A casting begun now: logged, and put on the figure.
fn begin(b: &mut RoundBuild, i: usize, c: &Casting, detail: String, rule: cite::Rule) {
    let completes = b.clock.moment_of(c.completes);
    let first = b
        .clock
        .moment_of(c.completes.saturating_sub(c.segments.max(1) - 1));
    // Logged at segment 0, the very beginning of the round, it fills segments 1 on.
    let detail = match (first, completes) {
        ((r1, a), (r2, z)) if r1 == r2 && a == z => format!("{detail}: occupies segment {a}"),
        ((r1, a), (r2, z)) if r1 == r2 => format!("{detail}: occupies segments {a}-{z}"),
        ((r1, a), (r2, z)) => {
            format!("{detail}: occupies round {r1} segment {a} to round {r2} segment {z}")
        }
    };
    let f = &b.figs[i];
    b.events.push(
        LogEvent::new(
            b.when,
            f.name(),
            EventKind::SpellStart,
            c.target.clone().map(Into::into),
            detail,
            rule,
        )
        .with(Payload::SpellStart {
            spell: c.what.clone(),
            casting_segments: c.segments,
            completes,
            occupies: [first, completes],
        }),
    );
    b.changes.casting.insert(i, Some(c.clone()));
}

/// Adds the completion of a casting to the round's actions.
fn completes(b: &mut RoundBuild, i: usize, c: &Casting, targets: Vec<String>) {
    let seg = c.completes.saturating_sub(b.tick(0));
    let mut d = b.declared(
        i,
        ActionKind::Cast {
            segments: seg,
            device: c.device,
        },
    );
    d.casting_total = Some(c.segments);
    b.push(i, d, targets, false, c.what.clone());
}

fn cast(
    b: &mut RoundBuild,
    i: usize,
    spell: &str,
    target: Option<String>,
    given: (Option<u32>, bool),
) {
    let c = match carried(b, i, spell) {
        Some(c) => c,
        None => {
            let (segs, device, note) = spell_info(spell, given.0, given.1);
            // Hesitation delays the completion by its segments (DMG p.71).
            let s =
                completion_segment(segs, b.lost(i), b.best, b.options.spell_start) + b.delay_of(i);
            let c = Casting {
                what: spell.to_string(),
                target: target.clone(),
                segments: segs,
                started: b.tick(1),
                completes: b.tick(s),
                device,
                potion: false,
                at: b.figs[i].act.point(),
            };
            let note = note.map(|n| crate::words!("; {n}")).unwrap_or_default();
            let detail = crate::words!(
                "begins {spell} ({}; completes in segment {s}{note})",
                plural(segs, "segment")
            );
            begin(b, i, &c, detail, cite::DECLARE_SPELLS);
            c
        }
    };
    completes(b, i, &c, target.into_iter().collect());
}

/// A device with no activation time: an act of its own, used when its side's initiative
/// comes; nothing is under way for a blow to ruin.
/// `blow`: the targets of the figure's melee blow it is used besides
/// ([`cite::MELEE_THEN_DEVICE`]); the device joins that fight, to go with the blow.
pub(super) fn use_device(
    b: &mut RoundBuild,
    i: usize,
    (name, target): (&str, Option<String>),
    blow: Option<Vec<String>>,
) {
    let f = &b.figs[i];
    let (then, rule) = match blow {
        Some(_) => ("besides its blow, ", cite::MELEE_THEN_DEVICE),
        None => ("", cite::DEVICE_INSTANT),
    };
    b.events.push(LogEvent::new(
        b.when,
        f.name(),
        EventKind::Act,
        target.clone().map(Into::into),
        crate::words!(
            "{then}will use {name} when its side's initiative comes: it has no activation time"
        ),
        rule,
    ));
    let what = match &target {
        Some(t) => crate::words!("uses {name} on {t}"),
        None => crate::words!("uses {name}"),
    };
    let mut aims: Vec<String> = target.into_iter().collect();
    for t in blow.into_iter().flatten() {
        if !aims.contains(&t) {
            aims.push(t);
        }
    }
    super::melee::plan_act(b, i, what, aims);
}

fn potion(b: &mut RoundBuild, i: usize, name: &str, prepare: u32, dice: &mut Dice) {
    let c = match carried(b, i, name) {
        Some(c) => c,
        None => {
            let who = b.figs[i].name().to_string();
            let delay = potion_delay(dice.roll(DieKind::D4, &who, 4).0.max(1) as u32).0;
            // Late by hesitating (DMG p.71) or by a house rule's short round: it starts
            // readying the potion that much later.
            let late = b.delay_of(i);
            let drunk = 1 + late + prepare;
            let (off, s) = potion_effect_segment(drunk, delay);
            let c = Casting {
                what: name.to_string(),
                target: None,
                segments: prepare + 1 + delay,
                started: b.tick(1 + late),
                completes: b.clock.tick_of(b.round + off, s),
                device: true,
                potion: true,
                at: None,
            };
            let later = if off > 0 {
                crate::words!(" of round {}", b.round + off)
            } else {
                String::new()
            };
            let detail = crate::words!(
                "{} to ready {name}, drinks it in segment {drunk}; d4+1 = {delay}: works in segment {s}{later}",
                plural(prepare, "segment")
            );
            begin(b, i, &c, detail, cite::POTION_DELAY);
            c
        }
    };
    completes(b, i, &c, Vec::new());
}

fn cantrips(
    b: &mut RoundBuild,
    i: usize,
    names: [String; 2],
    target: Option<String>,
    dice: &mut Dice,
) {
    let who = b.figs[i].name().to_string();
    let d4 = dice.roll(DieKind::D4, &who, 4).0.clamp(1, 4) as u32;
    let ((s1, s2), rule) = cantrip_segments(1, d4);
    let [first, second] = names;
    b.events.push(
        LogEvent::new(
            b.when,
            who,
            EventKind::SpellStart,
            target.clone().map(Into::into),
            crate::words!(
                "cantrips: {first} in segment {s1}, {second} d4 = {d4} segments later, in segment {s2}"
            ),
            rule,
        )
        .with(Payload::SpellStart {
            spell: first.clone(),
            casting_segments: 1,
            completes: (b.round, s1),
            occupies: [(b.round, s1), (b.round, s1)],
        }),
    );
    for (name, seg) in [(first, s1), (second, s2)] {
        let d = b.declared(
            i,
            ActionKind::Cast {
                segments: seg,
                device: false,
            },
        );
        b.push(i, d, Vec::new(), false, name);
    }
}
