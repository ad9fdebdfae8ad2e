//! A weapon specialist's shot before initiative (UA p.18; Table IV.A-B): a bow specialist
//! who begins the round with an arrow nocked and drawn, its target in sight, or a crossbow
//! specialist cocked and aimed, its target in range, looses one shot before initiative is
//! checked — then shoots at its normal rate (the elf of the example: one, then two more).
//! Only a missile readied at the start counts: the first round it shoots.

use super::build::RoundBuild;
use super::{Fig, PlanEntry, Planned, first_standing};
use crate::rules::declare::{Readied, pre_initiative_shot};
use crate::scene::Act;
use crate::sim::Sightings;

/// How a figure's weapon is readied for a shot before initiative, if it is: a specialist
/// with a bow or crossbow ready at the round's start, not yet shooting.
fn readied(f: &Fig) -> Option<Readied> {
    let w = &f.weapon;
    if !w.specialist || !w.ready || !w.missile || f.rate.rounds_attacking > 0 || !f.up() {
        return None;
    }
    let name = w.weapon.as_deref()?;
    if name.contains("crossbow") {
        Some(Readied::CrossbowCocked)
    } else if name.contains("bow") {
        Some(Readied::BowNocked)
    } else {
        None
    }
}

/// Puts each such shot before everything else in the round (segment 1, the first beat,
/// played before anyone moves: `SimSet::BeforeMovement`), moving every other entry one
/// beat later. `sight` is who sees whom (none without a map:
/// every target is in sight).
pub(super) fn shots(b: &RoundBuild, entries: &mut Vec<PlanEntry>, sight: Option<&Sightings>) {
    let mut first: Vec<PlanEntry> = Vec::new();
    for f in b.figs.iter() {
        if !matches!(f.act, Act::Missile { .. }) {
            continue;
        }
        let Some(t) = first_standing(b.figs, f.act) else {
            continue;
        };
        let in_sight = sight.is_none_or(|s| s.sees(f.index(), b.figs[t].index()));
        let Some(rule) = pre_initiative_shot(readied(f), in_sight) else {
            continue;
        };
        let fight = entries.iter().find(|e| e.by(f.e)).map_or(0, |e| e.fight);
        let what = if readied(f) == Some(Readied::CrossbowCocked) {
            "cocked and aimed"
        } else {
            "arrow nocked and drawn"
        };
        // A weapon slower than a shot a round (a heavy crossbow, 1/2) loosed its one bolt
        // before initiative: it reloads, and shoots again only when its rate comes round.
        let rate = f.rate.of(true);
        let then = if rate.routines < rate.per_rounds {
            entries.retain(|e| !e.is_blow_by(f.e));
            crate::words!("then it reloads: at {rate}, no other shot this round")
        } else {
            "then its normal rate".to_string()
        };
        first.push(PlanEntry {
            segment: 1,
            beat: 0,
            fight,
            fixed: true,
            after: Vec::new(),
            actor: Some(f.e),
            figure: f.id(),
            name: f.name().clone(),
            what: Planned::single_blow(Vec::new()),
            rule,
            why: crate::words!(
                "a specialist's shot before initiative ({what} at the round's start), {then}"
            ),
        });
    }
    if first.is_empty() {
        return;
    }
    for e in entries.iter_mut() {
        e.beat += 1;
    }
    first.append(entries);
    *entries = first;
}
