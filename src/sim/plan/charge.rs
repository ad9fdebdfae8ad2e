//! A charge in a round (DMG p.66, PHB p.102): at the charge rate toward the first target
//! standing, arriving when the distance is covered — sooner when the target charges back,
//! since both movements close the gap. A charge that cannot arrive this round has no blow.

use super::build::RoundBuild;
use super::{Fig, first_standing, gap, idle, no_target};
use crate::rules::action::ActionKind;
use crate::rules::charge::{self, SEGMENTS_PER_ROUND};
use crate::rules::cite;
use crate::rules::distance::Setting;
use crate::rules::options::ChargeWithinInch;
use crate::scene::Act;
use crate::sim::components::Closing;
use crate::sim::log::{EventKind, LogEvent};
use crate::sim::movement::feet;

/// Plans figure `i`'s charge.
pub(super) fn plan(b: &mut RoundBuild, i: usize) {
    charge(b, i, true);
}

/// Plans figure `i`'s charge with no blow at its end (a house rule ruled its weapon out
/// this round): it still runs at the charge rate, from when its side may act, as a
/// charge that cannot arrive does.
pub(super) fn run_without_blow(b: &mut RoundBuild, i: usize) {
    charge(b, i, false);
}

/// Plans figure `i`'s charge, with its blow at contact when `blow`.
fn charge(b: &mut RoundBuild, i: usize, blow: bool) {
    let f = &b.figs[i];
    let Some(t) = first_standing(b.figs, f.act) else {
        match f.act {
            // To a point: movement at the charge rate, no blow (DMG p.66).
            Act::Charge { to: Some(p), .. } => {
                let fps =
                    charge::charge_feet_per_segment(f.movement.inches, b.setting, f.movement.body);
                let why = crate::words!(
                    "charges to ({}, {}) at {} ft/segment: no blow",
                    feet(p.0),
                    feet(p.1),
                    feet(fps)
                );
                b.events.push(idle(b.when, f, None, why, cite::CHARGE_RATE));
                b.changes.start_move(b.figs, i, (&None, &Some(*p)), fps, 0);
            }
            _ => b.events.push(no_target(b.when, f)),
        }
        return;
    };
    // Within 1" already: by the default reading, normal melee (DMG p.66).
    let g = gap(f, &b.figs[t]);
    if b.options.charge_within_inch == ChargeWithinInch::AsMelee
        && charge::melee_possible(g, b.setting).0
    {
        // Already there, and no blow: nothing to do.
        if !blow {
            return;
        }
        let why = crate::words!(
            "{} is within 1\": the charge is fought as normal melee (reading charge_within_inch)",
            b.figs[t].name()
        );
        let target = Some(b.figs[t].name().to_string());
        let e = LogEvent::new(
            b.when,
            f.name(),
            EventKind::Act,
            target.map(Into::into),
            why,
            cite::CHARGE_NO_MELEE,
        );
        b.events.push(e);
        super::melee::plan(b, i);
        return;
    }
    let (may, rule) = charge::may_charge(f.movement.encumbered);
    if !may {
        let why = "encumbered: may not charge".to_string();
        b.events.push(idle(b.when, f, None, why, rule));
        return;
    }
    let fps = charge::charge_feet_per_segment(f.movement.inches, b.setting, f.movement.body);
    let g = gap(f, &b.figs[t]);
    let (arrival, rule) = match charging_back(b.figs, t, i, b.setting) {
        Some(other_fps) => {
            let d = f.pos.distance(b.figs[t].pos);
            let other = (other_fps, b.figs[t].reach());
            let ((a, _), rule) = charge::mutual_arrival(d, (fps, f.reach()), other);
            (a, rule)
        }
        None => charge::arrival_segment(g, fps),
    };
    // Hesitation: the charge sets off that many segments late (DMG p.71).
    let wait = b.delay_of(i);
    let arrival = arrival.max(1) + wait;
    let closing = Closing {
        target: b.figs[t].e,
        feet_per_segment: fps,
        charge: true,
        arrival: Some(arrival),
        covered: f.closing.as_ref().map_or(0.0, |c| c.covered),
        wait,
        step_in: false,
    };
    b.changes.closing.insert(i, Some(closing));
    // A charge that makes contact this round strikes at contact: that is the initial round
    // of combat, and the next round's blows go by speed factor (DMG p.66). One that does
    // not arrive only closed.
    if arrival > SEGMENTS_PER_ROUND || !blow {
        b.changes.closing_now.push(i);
    }
    b.changes.charging.push(i);
    if !blow {
        let why = crate::words!(
            "charges {} ft at {} ft/segment from segment {}: no blow this round",
            feet(g),
            feet(fps),
            wait + 1
        );
        let t = Some(b.figs[t].name().to_string());
        b.events.push(idle(b.when, f, t, why, cite::CHARGE_RATE));
        return;
    }
    if arrival > SEGMENTS_PER_ROUND {
        let why = crate::words!(
            "charging {} ft at {} ft/segment: no contact this round",
            feet(g),
            feet(fps)
        );
        b.events.push(idle(
            b.when,
            f,
            Some(b.figs[t].name().to_string()),
            why,
            rule,
        ));
        return;
    }
    let d = b.declared(
        i,
        ActionKind::Charge {
            arrival_segment: arrival,
        },
    );
    let targets = f.act.targets().iter().map(|s| s.to_string()).collect();
    b.push(i, d, targets, true, String::new());
}

/// The charge rate of figure `t` if it charges figure `i` this round.
fn charging_back(figs: &[Fig], t: usize, i: usize, setting: Setting) -> Option<f64> {
    let other = &figs[t];
    super::melee::charged_by(figs, t, i).then(|| {
        charge::charge_feet_per_segment(other.movement.inches, setting, other.movement.body)
    })
}
