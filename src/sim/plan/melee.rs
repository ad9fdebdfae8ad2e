//! Melee and missile fire in a round: a figure more than 1" from its target spends the
//! round closing (DMG p.66); otherwise its routines this round come from its attack rate,
//! and a missile user's Dexterity counts toward its initiative (DMG p.64).

use super::build::RoundBuild;
use super::{Adjust, first_standing, gap, idle, no_target};
use crate::rules::action::{ActionKind, Declared, LateBy};
use crate::rules::charge;
use crate::rules::cite;
use crate::rules::movement::{feet_per_round, feet_per_segment};
use crate::scene::Act;
use crate::sim::components::Closing;
use crate::sim::log::EventKind;
use crate::sim::movement::feet;

/// Plans figure `i`'s melee or missile fire.
pub(super) fn plan(b: &mut RoundBuild, i: usize) {
    let f = &b.figs[i];
    let Some(t) = first_standing(b.figs, f.act) else {
        b.events.push(no_target(b.when, f));
        return;
    };
    let missile = matches!(f.act, Act::Missile { .. });
    // Charged by its target, it stands and strikes at contact (DMG p.66).
    let moving = if missile || charged_by(b.figs, t, i) {
        Some(0)
    } else {
        close_in(b, i, t)
    };
    let Some(arrives) = moving else {
        return;
    };
    let nth = f.rate.rounds_attacking + 1;
    let (routines, _) = f
        .rate
        .of(missile)
        .routines_in(nth, b.options.alternating_rate);
    let routines = standing_still(b, i, routines, arrives > 0);
    // A round its rate gives no attack still counts as one of its rounds of attacking (a
    // rate of 1 every other round attacks in the next).
    b.changes.attacked.push(i);
    if routines == 0 {
        let why = "no attack this round (attack rate)".to_string();
        b.events.push(idle(b.when, f, None, why, cite::ATTACK_RATE));
        return;
    }
    let kind = if missile {
        ActionKind::Missile
    } else {
        ActionKind::Melee
    };
    let mut d = b.declared(i, kind);
    d.routines = routines;
    if missile {
        d.dex_adjustment = f.dex.adjustment();
        d.speed_factor = None;
    }
    if arrives > 1 {
        // Half a move and a blow (house rules): the blow no earlier than its arrival.
        d.delay = d.delay.max(arrives - 1);
        d.late_by = Some(crate::rules::action::LateBy::Moving);
    }
    let targets = f.act.targets().iter().map(|s| s.to_string()).collect();
    let one_attack = one_attack_only(b, i, arrives > 0, missile);
    b.push(i, d, targets, false, String::new());
    if let (Some(adjust), Some(a)) = (one_attack, b.actions.last_mut()) {
        a.adjust.push(adjust);
    }
}

/// Under the house rule of move or strike, a figure that moved this round or the last and
/// whose routine is several attacks (claw/claw/bite, two weapons) makes the first alone:
/// the cut is logged, and its blows carry the mark the strike reads.
fn one_attack_only(b: &mut RoundBuild, i: usize, moving: bool, missile: bool) -> Option<Adjust> {
    if !b.options.house.move_or_strike || missile {
        return None;
    }
    let f = &b.figs[i];
    let n = f.attacks_per_routine();
    let rule = crate::rules::house::one_attack_after_moving(n, moving, f.moved_before(b.round))?;
    let why = crate::words!(
        "moved {}: one attack, not {n} (several attacks only standing still)",
        if moving { "this round" } else { "last round" }
    );
    let e =
        crate::sim::log::LogEvent::new(b.when, f.name(), EventKind::Act, None, why.clone(), rule);
    b.events.push(e);
    Some(Adjust {
        value: 0,
        why,
        rule,
    })
}

/// Under the house rule of move or strike: the pace of figure `t` if it, too, moves up to
/// strike figure `i` this round (its melee aims at `i`, not yet in reach).
fn meeting(b: &RoundBuild, t: usize, i: usize) -> Option<f64> {
    let (f, tf) = (&b.figs[i], &b.figs[t]);
    let aims =
        tf.up() && matches!(tf.act, Act::Melee { .. }) && first_standing(b.figs, tf.act) == Some(i);
    let fps = feet_per_segment(f64::from(tf.movement.inches), b.setting);
    (aims && !charge::melee_possible(gap(tf, f), b.setting).0).then_some(fps)
}

/// Under the house rule of move or strike, a figure that moves this round (`moving`) or
/// closed last round strikes only once; the cut is logged.
fn standing_still(b: &mut RoundBuild, i: usize, routines: u32, moving: bool) -> u32 {
    if !b.options.house.move_or_strike {
        return routines;
    }
    let f = &b.figs[i];
    let (n, rule) =
        crate::rules::house::routines_after_moving(routines, moving, f.moved_before(b.round));
    if let Some(rule) = rule {
        let why = crate::words!(
            "moved {}: one blow, not {routines} (several attacks only standing still)",
            if moving { "this round" } else { "last round" }
        );
        let e = crate::sim::log::LogEvent::new(
            b.when,
            f.name(),
            crate::sim::log::EventKind::Act,
            None,
            why,
            rule,
        );
        b.events.push(e);
    }
    n
}

/// Plans figure `i`'s closing (DMG p.66): toward its first target still standing at its
/// normal rate, no blows this round — unless that target charges it, when it strikes back
/// at contact like a figure standing in melee.
pub(super) fn plan_close(b: &mut RoundBuild, i: usize) {
    let f = &b.figs[i];
    let Some(t) = first_standing(b.figs, f.act) else {
        b.events.push(no_target(b.when, f));
        return;
    };
    if charged_by(b.figs, t, i) {
        plan(b, i);
        return;
    }
    let tf = &b.figs[t];
    let fps = feet_per_segment(f64::from(f.movement.inches), b.setting);
    let why = crate::words!("closes on {}: no blows this round", tf.name());
    b.events.push(idle(
        b.when,
        f,
        Some(tf.name().to_string()),
        why,
        cite::CHARGE_NO_MELEE,
    ));
    let closing = Closing {
        target: tf.e,
        feet_per_segment: fps,
        charge: false,
        arrival: Some(charge::arrival_segment(gap(f, tf), fps).0),
        covered: 0.0,
        wait: 0,
        step_in: false,
    };
    b.changes.closing.insert(i, Some(closing));
    b.changes.closing_now.push(i);
}

/// Plans figure `i`'s turning of undead: placed by initiative like a blow (DMG p.65-67).
pub(super) fn plan_turn(b: &mut RoundBuild, i: usize) {
    let f = &b.figs[i];
    if first_standing(b.figs, f.act).is_none() {
        b.events.push(no_target(b.when, f));
        return;
    }
    let mut d = b.declared(i, ActionKind::Turn);
    d.speed_factor = None;
    let targets = f.act.targets().iter().map(|s| s.to_string()).collect();
    b.push(i, d, targets, false, String::new());
}

/// Plans figure `i`'s non-combat act: one act, placed by its side's initiative like a blow
/// without a speed factor (DMG p.61-62); no one is struck.
pub(super) fn plan_other(b: &mut RoundBuild, i: usize) {
    let what = match b.figs[i].act {
        crate::scene::Act::Other(what) => what.clone(),
        _ => String::new(),
    };
    plan_act(b, i, what, Vec::new());
}

/// Plans one act of figure `i` that strikes no one (`what` it does, aimed at `targets`),
/// placed by its side's initiative like a blow without a speed factor (DMG p.61-62).
pub(super) fn plan_act(b: &mut RoundBuild, i: usize, what: String, targets: Vec<String>) {
    let mut d = b.declared(i, ActionKind::Other);
    d.speed_factor = None;
    d.routines = 1;
    b.push(i, d, targets, false, what);
}

/// Plans figure `i`'s weapon set against a charge: against the first charger coming at it
/// (one of `against`, or any), a blow that strikes first and doubles its damage.
pub(super) fn plan_set(b: &mut RoundBuild, i: usize, against: &[String]) {
    let f = &b.figs[i];
    let charger = (0..b.figs.len()).find(|&c| {
        charged_by(b.figs, c, i)
            && (against.is_empty() || against.iter().any(|a| a == b.figs[c].name()))
    });
    let settable = f
        .weapon
        .weapon
        .as_deref()
        .and_then(|w| crate::tables::weapon(w).ok());
    let Some(c) = charger.filter(|_| settable.is_some_and(|w| w.set_vs_charge)) else {
        let why = if settable.is_some_and(|w| w.set_vs_charge) {
            "set against a charge that does not come: nothing happens".to_string()
        } else {
            "only a spear or pole arm can be set against a charge".to_string()
        };
        b.events.push(idle(b.when, f, None, why, cite::CHARGE_SET));
        return;
    };
    let name = b.figs[c].name().to_string();
    let mut d = b.declared(i, ActionKind::Melee);
    d.set_vs_charge = true;
    b.changes.intent.insert(i, Act::melee_at(&name));
    b.push(i, d, vec![name], false, String::new());
}

/// A charged figure that declared no blow of its own strikes back at contact, whatever it
/// declared (DMG p.66): at the charger, by weapon length. A non-combat act it declared is
/// dropped for the blow.
pub(super) fn strike_back(b: &mut RoundBuild) {
    let chargers: Vec<usize> = b
        .actions
        .iter()
        .filter(|a| a.charge)
        .map(|a| a.owner)
        .collect();
    for c in chargers {
        let Some(t) = first_standing(b.figs, b.figs[c].act) else {
            continue;
        };
        let tf = &b.figs[t];
        // A non-combat act is dropped to strike back; any other action stands.
        let busy = b
            .actions
            .iter()
            .any(|a| a.owner == t && a.declared.kind != ActionKind::Other);
        let free = matches!(tf.act, Act::Hold | Act::Other(_));
        if !tf.up() || tf.weapon.missile {
            continue;
        }
        if busy && !free {
            turn_to_meet(b, c, t);
            continue;
        }
        stand_and_strike_back(b, t, c, |_| {});
    }
    strike_back_at_blowless(b);
}

/// Figure `t` drops what it declared and strikes back at charger `c` on contact (DMG
/// p.66), said in the log; `late` adjusts the blow (a wait for a blowless charge).
fn stand_and_strike_back(b: &mut RoundBuild, t: usize, c: usize, late: impl Fn(&mut Declared)) {
    b.actions.retain(|a| a.owner != t);
    let name = b.figs[c].name().to_string();
    let why = crate::words!("stands and strikes back at {name}'s charge on contact");
    b.events.push(crate::sim::log::LogEvent::new(
        b.when,
        b.figs[t].name(),
        crate::sim::log::EventKind::Act,
        Some(name.as_str().into()),
        why,
        cite::CHARGE_STRIKE_BACK,
    ));
    let mut d = b.declared(t, ActionKind::Melee);
    late(&mut d);
    b.changes.intent.insert(t, Act::melee_at(&name));
    b.push(t, d, vec![name], false, String::new());
}

/// A charge that runs with no blow of its own (a house rule ruled the charger's weapon
/// out this round) still makes contact, and the figure it reaches strikes back then (DMG
/// p.66), as it would against any charge: a blow already aimed at the charger waits for
/// contact, and a figure that declared nothing but a non-combat act drops it to strike.
/// One whose own round leaves it no blow, or busy with something else, does not.
fn strike_back_at_blowless(b: &mut RoundBuild) {
    let runs: Vec<(usize, u32)> = b
        .changes
        .closing
        .iter()
        .filter_map(|(&i, c)| Some((i, c.as_ref()?)))
        .filter(|(i, c)| c.charge && !b.actions.iter().any(|a| a.owner == *i))
        .filter_map(|(i, c)| Some((i, c.arrival?)))
        .filter(|&(_, at)| at <= crate::rules::charge::SEGMENTS_PER_ROUND)
        .collect();
    for (c, arrival) in runs {
        let Some(t) = first_standing(b.figs, b.figs[c].act) else {
            continue;
        };
        let tf = &b.figs[t];
        if !tf.up() || tf.weapon.missile || b.short.contains_key(tf.name().as_str()) {
            continue;
        }
        let name = b.figs[c].name().to_string();
        let late = |d: &mut Declared| {
            d.delay = d.delay.max(arrival - 1);
            d.late_by = Some(LateBy::MeetingCharge);
        };
        if let Some(a) = b.actions.iter_mut().find(|a| a.owner == t) {
            if a.declared.kind == ActionKind::Melee && a.targets.first() == Some(&name) {
                late(&mut a.declared);
            }
            if a.declared.kind != ActionKind::Other {
                continue;
            }
        }
        if !matches!(tf.act, Act::Hold | Act::Other(_)) {
            continue;
        }
        stand_and_strike_back(b, t, c, late);
    }
}

/// A charged figure in melee with another foe turns its blows on the charger when the charge
/// makes contact, by weapon length (DMG p.66; our reading: the one coming at it is met
/// first, its other foes after). A caster, a set weapon and one already aiming at the
/// charger are left as they are.
fn turn_to_meet(b: &mut RoundBuild, c: usize, t: usize) {
    let name = b.figs[c].name().to_string();
    let Act::Melee {
        targets,
        modifier,
        hold_after,
    } = b.figs[t].act
    else {
        return;
    };
    if targets.first() == Some(&name) {
        return;
    }
    let Some(a) = b
        .actions
        .iter_mut()
        .find(|a| a.owner == t && a.declared.kind == ActionKind::Melee && !a.charge)
    else {
        return;
    };
    a.targets.retain(|x| x != &name);
    a.targets.insert(0, name.clone());
    let mut aims = vec![name.clone()];
    aims.extend(targets.iter().filter(|x| **x != name).cloned());
    b.changes.intent.insert(
        t,
        Act::Melee {
            targets: aims,
            modifier: *modifier,
            hold_after: *hold_after,
        },
    );
    let why = crate::words!("turns to meet {name}'s charge at contact, its other foe after");
    b.events.push(crate::sim::log::LogEvent::new(
        b.when,
        b.figs[t].name(),
        crate::sim::log::EventKind::Act,
        Some(name.into()),
        why,
        cite::CHARGE_STRIKE_BACK,
    ));
}

/// Whether figure `t` charges figure `i` this round.
pub(super) fn charged_by(figs: &[super::Fig], t: usize, i: usize) -> bool {
    let c = &figs[t];
    c.up() && matches!(c.act, Act::Charge { .. }) && first_standing(figs, c.act) == Some(i)
}

/// A melee figure and its target `t`: more than 1" apart, the round is spent closing and
/// there are no blows (returns None); nearer, it steps in and strikes (Some(0)). Under the
/// house rule of move or strike, a foe within half its move is reached and struck: Some of
/// the segment it arrives in.
fn close_in(b: &mut RoundBuild, i: usize, t: usize) -> Option<u32> {
    let (f, tf) = (&b.figs[i], &b.figs[t]);
    let g = gap(f, tf);
    let (possible, rule) = charge::melee_possible(g, b.setting);
    if !possible && b.options.house.move_or_strike {
        let fps = feet_per_segment(f64::from(f.movement.inches), b.setting);
        // A foe that moves up to strike back closes the gap too: each covers its share,
        // in proportion to its pace, so each is within half its move exactly when the gap
        // is within half their two moves together.
        let other = meeting(b, t, i).unwrap_or(0.0);
        let (near, rule) = crate::rules::house::may_close_and_strike(
            g,
            feet_per_round(f64::from(f.movement.inches), b.setting)
                * ((fps + other) / fps.max(1e-9)),
        );
        if near {
            let both = fps + other;
            let arrival = charge::arrival_segment(g, both).0.max(1);
            let within = if other > 0.0 {
                "both moving up, within half their two moves"
            } else {
                "within half its move"
            };
            let why = crate::words!(
                "{} ft to {}, {within}: moves up and strikes once, from segment {arrival}",
                feet(g),
                tf.name()
            );
            let e = crate::sim::log::LogEvent::new(
                b.when,
                f.name(),
                crate::sim::log::EventKind::Act,
                Some(tf.name().into()),
                why,
                rule,
            );
            b.events.push(e);
            let closing = Closing {
                target: tf.e,
                feet_per_segment: fps,
                charge: false,
                arrival: Some(arrival),
                covered: 0.0,
                wait: 0,
                step_in: false,
            };
            b.changes.closing.insert(i, Some(closing));
            b.changes.closing_now.push(i);
            return Some(arrival);
        }
    }
    if !possible {
        let why = crate::words!(
            "{} ft to close, more than 1\": closing this round, no blows",
            feet(g)
        );
        b.events
            .push(idle(b.when, f, Some(tf.name().to_string()), why, rule));
        let fps = feet_per_segment(f64::from(f.movement.inches), b.setting);
        let closing = Closing {
            target: tf.e,
            feet_per_segment: fps,
            charge: false,
            arrival: Some(charge::arrival_segment(g, fps).0),
            covered: 0.0,
            wait: 0,
            step_in: false,
        };
        b.changes.closing.insert(i, Some(closing));
        b.changes.closing_now.push(i);
        return None;
    }
    if g > 0.0 {
        // The step in comes in the first segment: at the figure's own rate, or faster if
        // that is what it takes to cover the gap in one (within 1" it engages).
        let own = feet_per_segment(f64::from(b.figs[i].movement.inches), b.setting);
        let closing = Closing {
            target: tf.e,
            feet_per_segment: g.max(own),
            charge: false,
            arrival: Some(1),
            covered: 0.0,
            wait: 0,
            // Said as taken at the round's start, before any blow (under move or strike
            // it is a move of its own, timed as one).
            step_in: !b.options.house.move_or_strike,
        };
        b.changes.closing.insert(i, Some(closing));
        // Under move or strike even a step in is a move: one blow (arriving in segment 1).
        if b.options.house.move_or_strike {
            return Some(1);
        }
    }
    Some(0)
}
