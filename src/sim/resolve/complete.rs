//! Completions: a spell, device or potion takes effect when its time comes — unless it was
//! ruined or lost, which it never survives.

use super::{Play, Segment, effect};
use crate::name::Name;
use crate::rules::cite::{self, Rule};
use crate::scene::Act;
use crate::sim::components::{Casting, Intent};
use crate::sim::disruption::end_casting;
use crate::sim::log::{EventKind, LogEvent, Payload};
use crate::sim::plan::PlanEntry;
use bevy::prelude::*;

/// A completion the plan placed.
pub(super) fn planned(
    p: &mut Play,
    seg: &mut Segment,
    entry: &PlanEntry,
    actor: Entity,
    what: &str,
) {
    if seg.ruined.contains(&actor) {
        return;
    }
    let Ok(a) = p.figures.get(actor) else { return };
    let when = (p.plan.round, entry.segment);
    match a.casting.cloned() {
        Some(c) if c.what == what && !seg.done.contains(&actor) => {
            if !wounds_spare(p, (actor, when), &c) {
                seg.ruined.insert(actor);
                return;
            }
            let Ok(a) = p.figures.get(actor) else { return };
            seg.done.insert(actor);
            let done = Done {
                name: a.figure.name.clone(),
                entity: actor,
                casting: c,
                intent: a.intent.clone(),
            };
            takes_effect(
                p,
                seg,
                (when, Some(entry.beat)),
                done,
                (entry.rule, &entry.why),
            );
        }
        Some(c) if c.what == what => {}
        // A cantrip has nothing under way to carry; a hit before it was done ruined it.
        _ if matches!(a.intent.act, Act::Cantrips { .. })
            && a.cantrips_ruined.is_none_or(|r| r.0 != p.plan.round) =>
        {
            let name = a.figure.name.clone();
            p.log.write(
                LogEvent::new(
                    when,
                    name,
                    EventKind::SpellComplete,
                    None,
                    crate::words!("completes {what} — {}", entry.why),
                    entry.rule,
                )
                .with(Payload::SpellComplete {
                    spell: what.to_string(),
                    casting_segments: 1,
                    beat: Some(entry.beat),
                }),
            );
        }
        // Any other completion without its casting was ruined or lost: it never completes.
        _ => {}
    }
}

/// Under "Take Initiative!": a spell whose caster was wounded earlier in the round it
/// changed its action to casting, and not hit since (a hit while casting rolls its save
/// then), is kept only with the save (Basics): rolled as it would go off. False when it
/// fails: the spell is lost, and the log says so.
fn wounds_spare(p: &mut Play, (actor, when): (Entity, (u32, u32)), c: &Casting) -> bool {
    use crate::rules::options::RulesSystem;
    let Ok(a) = p.figures.get(actor) else {
        return true;
    };
    let began = p.clock.moment_of(c.started).0;
    let w = &a.casting_wounds;
    let rolled = w.since == c.started && w.rolled;
    // Wounds on the completion's own total are simultaneous with it (a tie, Glossary),
    // not before it.
    let earlier = w.before(p.clock.tick(), |t| p.clock.moment_of(t).0 == began);
    if p.clock.system != RulesSystem::TakeInitiative
        || c.device
        || c.potion
        || rolled
        || earlier == 0
    {
        return true;
    }
    let name = a.figure.name.clone();
    let intent = a.intent.clone();
    let (keeps, why) = super::strike::keeps_after_wounds(p, (actor, &name), c, 0);
    let detail = if keeps {
        crate::words!("wounded for {earlier} hp in the round its casting began: {why}")
    } else {
        crate::words!(
            "{} is lost: wounded for {earlier} hp in the round its casting began: {why}",
            c.what
        )
    };
    let kind = if keeps {
        EventKind::Act
    } else {
        EventKind::SpellDisrupted
    };
    let mut e = LogEvent::new(when, name, kind, None, detail, cite::TI_SPELL_SAVE);
    if !keeps {
        e = e.with(Payload::SpellDisrupted {
            spell: c.what.clone(),
            disrupted_by: None,
        });
        end_casting(&mut p.commands, actor, c, &intent);
    }
    p.log.write(e);
    keeps
}

/// Whatever completes now and had no place in the plan (begun in surprise, potions).
pub(super) fn the_rest(p: &mut Play, seg: &mut Segment) {
    let tick = p.clock.tick();
    let when = p.clock.round_segment();
    let mut rest: Vec<_> = p
        .figures
        .iter()
        .filter(|f| f.casting.is_some_and(|c| c.completes == tick) && f.hp.condition.is_up())
        .filter(|f| !seg.done.contains(&f.entity) && !seg.ruined.contains(&f.entity))
        .map(|f| {
            let done = Done {
                name: f.figure.name.clone(),
                entity: f.entity,
                casting: f.casting.cloned().expect("filtered"),
                intent: f.intent.clone(),
            };
            (f.figure.index, done)
        })
        .collect();
    rest.sort_by_key(|r| r.0);
    for (_, done) in rest {
        let rule = if done.casting.potion {
            cite::POTION_DELAY
        } else {
            cite::DECLARE_SPELLS
        };
        takes_effect(p, seg, (when, None), done, (rule, "its time is up"));
    }
}

/// A casting whose time has come.
struct Done {
    name: Name,
    entity: Entity,
    casting: Casting,
    intent: Intent,
}

/// Logs the completion, frees the figure and applies what the spell does. `at` is the round
/// and segment with the beat, if the plan placed it; `rule` is why it completes now.
fn takes_effect(
    p: &mut Play,
    seg: &mut Segment,
    at: ((u32, u32), Option<usize>),
    done: Done,
    (rule, why): (Rule, &str),
) {
    let (when, beat) = at;
    let who_again = done.name.clone();
    let Done {
        name: who,
        entity: e,
        casting: c,
        intent,
    } = done;
    let c = &c;
    let verb = if c.potion {
        "takes effect:"
    } else {
        "completes"
    };
    p.log.write(
        LogEvent::new(
            when,
            who,
            EventKind::SpellComplete,
            c.target.clone().map(Into::into),
            crate::words!("{verb} {} — {why}", c.what),
            rule,
        )
        .with(Payload::SpellComplete {
            spell: c.what.clone(),
            casting_segments: c.segments,
            beat,
        }),
    );
    end_casting(&mut p.commands, e, c, &intent);
    let completed = super::Completed {
        when,
        caster: e,
        name: &who_again,
        casting: c,
        beat,
    };
    effect::apply(p, seg, &completed);
}
