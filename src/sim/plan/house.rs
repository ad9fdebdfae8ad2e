//! The house rules that change a book round's plan (the rules are in
//! [`crate::rules::house`]):
//! - a round made short — by segments lost to surprise (round 1, after the surprise
//!   segments) or by waiting on another's action — starts each figure's round late, and
//!   what does not fit in what is left is not done ([`short_rounds`], [`precluded`]);
//! - a figure leaving a melee draws a parting shot from each foe in it
//!   ([`parting_shots`]).

use super::build::RoundBuild;
use super::{Fig, PlanEntry, Planned, first_standing, idle, spell_info};
use crate::rules::action::LateBy;
use crate::rules::house::{self, Needs, TimeLeft};
use crate::rules::spell::completion_segment;
use crate::scene::{Act, RoundSpec};
use crate::sim::log::{EventKind, LogEvent};
use crate::sim::plan::Adjust;
use crate::text::plural;
use std::collections::BTreeMap;

/// Each figure whose round is short, and why: its lost surprise segments in round 1
/// (`surprise_carries_over`), or the segments of the action it waits on (`await_enemy`),
/// whichever ends later. A figure waited on may itself wait: its action is done only
/// after its own wait, so a chain of waits is followed to its end (passes until nothing
/// changes; `check` refuses a ring of waits, and the passes are bounded all the same).
pub(super) fn short_rounds(
    b: &RoundBuild,
    spec: Option<&RoundSpec>,
) -> BTreeMap<String, (TimeLeft, LateBy)> {
    let house = b.options.house;
    let mut out: BTreeMap<String, (TimeLeft, LateBy)> = BTreeMap::new();
    for f in b.figs.iter().filter(|f| f.up()) {
        if house.surprise_carries_over && b.round == 1 && f.surprised.segments > 0 {
            let t = house::after_surprise(f.surprised.segments);
            out.insert(f.name().to_string(), (t, LateBy::Surprise));
        }
    }
    let waits: Vec<(usize, usize)> = b
        .figs
        .iter()
        .enumerate()
        .filter(|(_, f)| f.up() && house.await_enemy)
        .filter_map(|(i, f)| {
            let w = spec?.awaits.get(f.name().as_str())?;
            let wi = b.figs.iter().position(|g| g.name() == w && g.up())?;
            Some((i, wi))
        })
        .collect();
    for _ in 0..=waits.len() {
        let mut changed = false;
        for &(i, wi) in &waits {
            let late = out.get(b.figs[wi].name().as_str()).map_or(0, |s| s.0.used);
            let t = house::after_awaiting(done_in(b, wi) + late);
            let name = b.figs[i].name().to_string();
            if out.get(&name).is_none_or(|s| s.0.used < t.used) {
                out.insert(name, (t, LateBy::Awaiting));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    out
}

/// The segment figure `w`'s declared action is done in, from the start of its own round
/// (its own wait is added by the caller): a spell's completion; a blow's speed factor,
/// counted as segments (the text compares them so); a move's end, at its rate (the whole
/// round at most); any other act in the round's first segment, where the log places it
/// (a non-combat act is ordered by its side's die, not timed, DMG p.61-62). A figure that
/// holds does nothing to wait for.
fn done_in(b: &RoundBuild, w: usize) -> u32 {
    let f = &b.figs[w];
    match f.act {
        Act::Move { toward, to } => {
            let goal = to.or_else(|| {
                let t = b
                    .figs
                    .iter()
                    .find(|g| Some(g.name().as_str()) == toward.as_deref())?;
                Some((t.pos.x, t.pos.y))
            });
            moving_for(b, w, goal)
        }
        Act::Close { targets } => {
            let goal = b
                .figs
                .iter()
                .find(|g| targets.first().is_some_and(|t| t == g.name().as_str()))
                .map(|t| (t.pos.x, t.pos.y));
            moving_for(b, w, goal)
        }
        Act::Flee { to } | Act::Withdraw { to } => moving_for(b, w, Some(*to)),
        Act::Hold => 0,
        Act::Other(_) | Act::Turn { .. } | Act::Potion { .. } | Act::Hide => 1,
        Act::Cast {
            spell,
            segments,
            device,
            ..
        } => {
            let (segs, _, _) = spell_info(spell, *segments, *device);
            let hesitated = b.hesitation.get(f.name().as_str()).copied().unwrap_or(0);
            completion_segment(segs, b.lost(w), b.best, b.options.spell_start) + hesitated
        }
        Act::Melee { .. } | Act::Missile { .. } | Act::Charge { .. } | Act::Set { .. } => {
            weapon_speed(f).unwrap_or(1)
        }
        _ => 0,
    }
}

/// The segments figure `w` takes to reach `goal` at its rate: 1 to 10 (a move longer
/// than the round takes all of it; no goal, the whole round).
fn moving_for(b: &RoundBuild, w: usize, goal: Option<(f64, f64)>) -> u32 {
    let f = &b.figs[w];
    let fps = crate::rules::movement::feet_per_segment(f64::from(f.movement.inches), b.setting);
    let Some(goal) = goal.filter(|_| fps > 0.0) else {
        return crate::rules::charge::SEGMENTS_PER_ROUND;
    };
    let ft = f.pos.distance(&crate::sim::components::Position {
        x: goal.0,
        y: goal.1,
    });
    let (n, _) = crate::rules::charge::arrival_segment(ft, fps);
    n.clamp(1, crate::rules::charge::SEGMENTS_PER_ROUND)
}

/// A weapon's speed as the house rules count it, in segments: its speed factor — a bow's
/// or a crossbow's too (PHB p.38: a long bow's is 8), though initiative never reads a
/// missile weapon's. None for natural weapons.
fn weapon_speed(f: &Fig) -> Option<u32> {
    f.weapon.speed_factor.or_else(|| {
        f.weapon
            .weapon
            .as_deref()
            .and_then(|w| crate::tables::weapon(w).ok())
            .filter(|w| w.missile)
            .map(|w| w.speed_factor)
    })
}

/// What figure `f`'s declared action needs of the round.
fn needs(f: &Fig) -> Needs {
    match f.act {
        Act::Cast {
            spell,
            segments,
            device,
            ..
        } => Needs::Spell(spell_info(spell, *segments, *device).0),
        Act::Melee { .. } | Act::Missile { .. } | Act::Charge { .. } | Act::Set { .. } => {
            Needs::Blow(weapon_speed(f))
        }
        _ => Needs::Move,
    }
}

/// Whether figure `i`'s round is short and its action does not fit what is left; if so
/// the reason is logged. A precluded charge still runs at its foe, without a blow.
pub(super) fn precluded(b: &mut RoundBuild, i: usize) -> bool {
    let f = &b.figs[i];
    let Some(&(time, by)) = b.short.get(f.name().as_str()) else {
        return false;
    };
    let need = needs(f);
    let (fits, rule) = house::fits(time, need);
    let why = |what: String| {
        crate::words!(
            "{}: {} of 10 left, {what}",
            by.why(),
            plural(time.left, "segment")
        )
    };
    let text = match need {
        Needs::Spell(s) => why(crate::words!("too few for a spell of {s} segments")),
        Needs::Blow(sf) => why(crate::words!(
            "too few for a weapon of speed factor {}",
            sf.unwrap_or(1)
        )),
        Needs::Move => String::new(),
    };
    if fits {
        return false;
    }
    b.events.push(idle(b.when, f, None, text, rule));
    true
}

/// Under the house rule of parting shots: every figure that leaves a melee this round
/// (moves off, or closes on or charges someone else) while a foe in it strikes at it and
/// has it within reach draws one attack at +4 from that foe as it goes, before anything
/// else in segment 1; a fighting withdrawal (`Withdraw`) draws none.
pub(super) fn parting_shots(b: &mut RoundBuild, entries: &mut Vec<PlanEntry>) {
    if !b.options.house.parting_shots {
        return;
    }
    let mut shots = Vec::new();
    for (i, f) in b.figs.iter().enumerate().filter(|(_, f)| f.up()) {
        let Some(leaving) = leaves(b.figs, i) else {
            continue;
        };
        for (o, foe) in b.figs.iter().enumerate() {
            let engaged = foe.up()
                && foe.side() != f.side()
                && matches!(foe.act, Act::Melee { .. })
                && first_standing(b.figs, foe.act) == Some(i)
                && foe.pos.distance(f.pos) <= foe.reach() + 1e-6;
            if !engaged {
                continue;
            }
            let (bonus, rule) = house::parting_shot(leaving);
            let Some(bonus) = bonus else {
                let why =
                    crate::words!("{} makes a fighting withdrawal: no parting shot", f.name());
                b.events
                    .push(idle(b.when, foe, Some(f.name().to_string()), why, rule));
                continue;
            };
            shots.push((o, i, bonus, rule));
        }
    }
    if shots.is_empty() {
        return;
    }
    for e in entries.iter_mut() {
        e.beat += 1;
    }
    for (k, (o, i, bonus, rule)) in shots.into_iter().enumerate() {
        let (foe, leaver) = (&b.figs[o], &b.figs[i]);
        // Shown in the foe's fight (the first, if it has no other entry).
        let fight = entries.iter().find(|e| e.by(foe.e)).map_or(0, |e| e.fight);
        let why = crate::words!("a parting shot as {} leaves the melee", leaver.name());
        let adjust = vec![Adjust {
            value: bonus,
            why: crate::words!("parting shot, as if stunned and from behind"),
            rule,
        }];
        entries.insert(
            k,
            PlanEntry {
                segment: 1,
                beat: 0,
                fight,
                fixed: true,
                after: Vec::new(),
                actor: Some(foe.e),
                figure: foe.id(),
                name: foe.name().into(),
                what: Planned::Strike {
                    routine: 1,
                    of: 1,
                    blow: 1,
                    charge: false,
                    set: false,
                    second: false,
                    free: Some(leaver.name().to_string()),
                    adjust,
                },
                rule,
                why,
            },
        );
        let e = LogEvent::new(
            b.when,
            leaver.name(),
            EventKind::Act,
            Some(foe.name().into()),
            crate::words!(
                "leaves the melee with {}: it draws a parting shot at +{bonus}",
                foe.name()
            ),
            rule,
        );
        b.events.push(e);
    }
}

/// Whether figure `i` leaves the melee it stands in this round: `Some(true)` by a fighting
/// withdrawal, `Some(false)` by a move, or a close or charge on someone else; `None` when
/// it stays.
fn leaves(figs: &[Fig], i: usize) -> Option<bool> {
    let f = &figs[i];
    match f.act {
        Act::Withdraw { .. } => Some(true),
        Act::Move { .. } => Some(false),
        Act::Charge { .. } | Act::Close { .. } => {
            // Moving on another foe leaves this melee; on a foe already in reach it stays.
            let t = first_standing(figs, f.act)?;
            (f.pos.distance(figs[t].pos) > f.reach() + 1e-6).then_some(false)
        }
        _ => None,
    }
}

/// Under the house rule of parting shots, the withdrawer that figure `i` (closing on or
/// charging it) negates: a foe in a fighting withdrawal with `i` in reach of it. The text
/// lets an opponent always negate a fighting withdrawal by moving with the figure.
pub(super) fn follows_withdrawal(b: &RoundBuild, i: usize) -> Option<(usize, (f64, f64))> {
    if !b.options.house.parting_shots {
        return None;
    }
    let f = &b.figs[i];
    if !matches!(f.act, Act::Close { .. } | Act::Charge { .. }) {
        return None;
    }
    let t = first_standing(b.figs, f.act)?;
    let Act::Withdraw { to } = b.figs[t].act else {
        return None;
    };
    (b.figs[t].side() != f.side() && super::gap(f, &b.figs[t]) <= 0.0).then_some((t, *to))
}

/// Figure `i` moves with the withdrawing figure `t` (to `to`), keeping its place beside
/// it at its pace, and the melee goes on: its blows are planned as a standing melee's.
pub(super) fn follow_withdrawal(b: &mut RoundBuild, i: usize, (t, to): (usize, (f64, f64))) {
    let (f, w) = (&b.figs[i], &b.figs[t]);
    let fps = crate::rules::movement::feet_per_segment(f64::from(w.movement.inches), b.setting);
    let dest = (to.0 + f.pos.x - w.pos.x, to.1 + f.pos.y - w.pos.y);
    let why = crate::words!(
        "moves with {} as it withdraws: the fighting withdrawal is negated and the melee goes on",
        w.name()
    );
    b.events.push(LogEvent::new(
        b.when,
        f.name(),
        EventKind::Act,
        Some(w.name().into()),
        why,
        crate::rules::cite::HOUSE_PARTING_SHOT,
    ));
    let figs = b.figs;
    b.changes.start_move(figs, i, (&None, &Some(dest)), fps, 0);
    super::melee::plan(b, i);
}
