//! Changing an action mid-round (§1): a figure whose action has become impossible — every
//! target down before it acted — and that the scene gives a change to (`rounds[].change`)
//! takes it up while the segment is still at or before its base initiative — or, when the
//! foe it meant to strike ran out of its reach in this segment, to pursue, if its base
//! initiative comes after the fleer's total (§4b). Its pending
//! acts are dropped; it acts on base + 2 + a new d10 + the new action's rows, or in the
//! next round at total − 20 (rules::take_initiative::change).

use super::{Build, act, costed, entries};
use crate::rules::cite;
use crate::rules::take_initiative::{acts_at, change};
use crate::scene::Act;
use crate::scene::DieKind;
use crate::sim::components::{BaseInitiative, CarriedInitiative, CaughtUnaware, Closing};
use crate::sim::log::{EventKind, LogEvent, Payload};
use crate::sim::plan::{Fig, MoveTo, Plan, Planning, everyone};
use bevy::prelude::*;

/// Run condition: a segment of a full round.
pub(in crate::sim) fn in_a_round(clock: Res<crate::sim::SegmentClock>) -> bool {
    matches!(clock.phase, crate::sim::Phase::Round { .. })
}

/// Takes up the changes of action this segment has made due (run after its blows).
pub(in crate::sim) fn change_actions(
    mut p: Planning,
    bases: Query<&BaseInitiative>,
    unaware: Query<&CaughtUnaware>,
) {
    let (round, segment) = p.clock.round_segment();
    let scene = p.scene.0.clone();
    let Some(spec) = scene
        .rounds
        .get((round as usize).saturating_sub(1))
        .filter(|r| !r.change.is_empty())
    else {
        return;
    };
    // Only then is everyone read: this runs every segment of a round.
    let mut figs = everyone(&p.figures);
    for (name, to) in &spec.change {
        let Some(i) = figs.iter().position(|f| f.name() == name && f.up()) else {
            continue;
        };
        let Ok(&BaseInitiative(base)) = bases.get(figs[i].e) else {
            continue;
        };
        let targets = figs[i].act.targets();
        let all_down = !targets.is_empty()
            && targets
                .iter()
                .all(|t| figs.iter().any(|g| g.name() == *t && !g.up()));
        let e = figs[i].e;
        // Something still to do this round: a planned act, or a close still on its way to
        // its (now fallen) foe.
        let closing = figs[i]
            .closing
            .is_some_and(|c| !c.charge && c.arrival.is_none_or(|a| a >= segment));
        let pending = closing
            || p.plan
                .entries
                .iter()
                .any(|x| x.by(e) && x.segment >= segment);
        // Struck from hiding this very segment, it may change as well (§10a, §10c).
        let surprised = unaware
            .get(figs[i].e)
            .is_ok_and(|c| (c.0, c.1) == (round, segment));
        // Its foe ran from it this segment, out of its reach (§4b): it may pursue.
        let fled = !(all_down || surprised) && fled_this_segment(&figs, i, segment, &p.plan);
        if !(all_down || surprised || fled) || !pending || *figs[i].act == *to {
            continue;
        }
        let allowed = if fled {
            change::may_pursue(base, segment, change::Standing::default())
        } else {
            change::may_change(base, segment, change::Standing::default())
        };
        if let Err((why, rule)) = allowed {
            if fled {
                let detail = format!("stays: {}", why.describe());
                p.log.write(stays((round, segment), name, detail, rule));
            }
            continue;
        }
        // A change to a charge it may not make (engaged at the round's start, or charged
        // already this turn, §9) is refused before anything changes: it keeps its action.
        if matches!(to, Act::Charge { .. }) {
            use crate::rules::take_initiative::combine::{Refusal, charge_ready};
            // Engaged as the round began, whoever has fallen since (§4b note a).
            let may = if p.plan.engaged.contains(&e) {
                Err(Refusal::Engaged)
            } else {
                charge_ready(figs[i].last_charge(), round)
            };
            if let Err(refusal) = may {
                // Said once: it keeps its action for the rest of the round.
                if p.plan.refused.contains(&e) {
                    continue;
                }
                p.plan.refused.push(e);
                let detail = format!("cannot change to charge: {}", refusal.describe());
                p.log
                    .write(stays((round, segment), name, detail, refusal.rule()));
                continue;
            }
        }
        p.plan
            .entries
            .retain(|x| !(x.by(e) && x.segment >= segment));
        let reroll = p.dice.roll(DieKind::Initiative, name, 10).0.clamp(1, 10) as u32;
        figs[i].act = to;
        let clock = p.clock.clone();
        let mut b = Build::new(&figs, &clock, &scene, (round, segment));
        let mods = crate::rules::take_initiative::action::modifiers(
            crate::tables::take_initiative(),
            costed(&b, i),
        )
        .0;
        // Changed at the end of this segment, it can act from the next one on.
        let (t, rule) = change::changed(base, segment + 1, reroll, mods);
        let (at, _) = acts_at(t.value());
        let when = if at.rounds_later == 0 {
            format!("segment {}", at.segment)
        } else {
            format!("next round, segment {}", at.segment)
        };
        let detail = format!("changes to {}: {} → {when}", to.verb(), t.describe());
        b.events.push(
            LogEvent::new(
                (round, segment),
                name.clone(),
                EventKind::Initiative,
                None,
                detail,
                rule,
            )
            .with(Payload::TakeInitiative {
                total: t.value(),
                die: Some(reroll),
                rounds_later: at.rounds_later,
                segment: at.segment,
            }),
        );
        b.changes.intent.insert(i, to.clone());
        if at.rounds_later > 0 {
            p.commands.entity(e).insert(CarriedInitiative(at.segment));
        } else {
            act(&mut b, i, at.segment, &mut p.dice);
        }
        // A charge taken up by the change meets its target as a declared one does: the
        // target strikes back at contact, or set to receive it, strikes first (§9a).
        if matches!(to, Act::Charge { .. }) && !b.contacts.is_empty() {
            meets_at_contact(&mut b, &figs, (&bases, &p.plan), (segment, e));
            let backs: Vec<Entity> = b
                .slots
                .iter()
                .filter_map(|(_, _, x)| x.actor.filter(|&a| a != e && x.is_blow_by(a)))
                .collect();
            p.plan
                .entries
                .retain(|x| !(x.segment >= segment && backs.iter().any(|&a| x.is_blow_by(a))));
        }
        let offset = p.plan.entries.iter().map(|x| x.beat + 1).max().unwrap_or(0);
        let mut added = entries(std::mem::take(&mut b.slots));
        for x in &mut added {
            x.beat += offset;
            // The changer's acts are placed by the change; a blow back at its charge keeps
            // the charge rule that placed it.
            if x.by(e) {
                x.rule = cite::TI_CHANGE;
            }
        }
        p.plan.entries.extend(added);
        p.plan.entries.sort_by_key(|x| x.segment);
        for ev in std::mem::take(&mut b.events) {
            p.log.write(ev);
        }
        // What the old action had it doing goes with it: a close or a step toward its
        // fallen foe, a walk to a point (the new action's own movement, if any, follows).
        p.commands.entity(e).remove::<(Closing, MoveTo)>();
        b.changes.apply(&mut p.commands, &figs, false);
    }
}

/// The round so far as the contact rule reads it (each figure's base and the segment of
/// its total, from the plan), then the contact of the changed charge (`super::contact`).
fn meets_at_contact(
    b: &mut Build,
    figs: &[Fig],
    (bases, plan): (&Query<&BaseInitiative>, &Plan),
    (now, charger): (u32, Entity),
) {
    for (k, f) in figs.iter().enumerate() {
        if let Ok(&BaseInitiative(base)) = bases.get(f.e) {
            b.bases.entry(k).or_insert(base);
        }
        if let Some(x) = plan.entries.iter().find(|x| x.by(f.e)) {
            b.acts.entry(k).or_insert(x.segment);
        }
    }
    super::contact(b);
    // One that has struck already this round has no blow left to meet it with.
    let struck: Vec<Entity> = figs
        .iter()
        .map(|f| f.e)
        .filter(|&a| {
            a != charger
                && plan
                    .entries
                    .iter()
                    .any(|x| x.is_blow_by(a) && x.segment < now)
        })
        .collect();
    b.slots.retain(|(_, _, x)| {
        !x.actor
            .is_some_and(|a| struck.contains(&a) && x.is_blow_by(a))
    });
}

/// Whether every standing target of figure `i`'s melee turned to flee in this segment, on
/// its total (§4b: it runs out of reach from here on).
fn fled_this_segment(figs: &[Fig], i: usize, segment: u32, plan: &Plan) -> bool {
    let f = &figs[i];
    if !matches!(f.act, Act::Melee { .. }) {
        return false;
    }
    let standing: Vec<&Fig> = f
        .act
        .targets()
        .iter()
        .filter_map(|t| figs.iter().find(|g| g.name() == *t && g.up()))
        .collect();
    !standing.is_empty()
        && standing
            .iter()
            .all(|t| plan.flights.contains(&(t.e, segment)))
}

/// A figure that keeps its action: a change it may not make, said with the rule.
fn stays(when: (u32, u32), name: &str, detail: String, rule: cite::Rule) -> LogEvent {
    LogEvent::new(when, name, EventKind::Idle, None, detail, rule)
}
