//! Planning one surprise segment (DMG p.61-62, p.71): who may act — the unsurprised, and a
//! crossbow of speed in the second segment (DMG p.168) — what each does in the segment,
//! and the order of the routines (items of speed first, then the attack sequence).

use super::{
    Changes, Fig, Plan, PlanEntry, Planned, Planning, everyone, first_standing, gap, idle,
    no_target, spell_info,
};
use crate::rules::charge;
use crate::rules::cite;
use crate::rules::movement::feet_per_segment;
use crate::rules::options::RulesOptions;
use crate::rules::spell::potion_delay;
use crate::rules::surprise::{self, SpellFromSurprise, SurpriseAction};
use crate::scene::{Act, DieKind};
use crate::sim::SegmentClock;
use crate::sim::components::{Casting, Closing};
use crate::sim::dice::Dice;
use crate::sim::log::{EventKind, LogEvent, Payload};
use std::collections::BTreeMap;

/// A figure striking in this segment.
struct Striker {
    figure: usize,
    routines: u32,
    speed: bool,
    charge: bool,
}

/// A surprise segment being planned.
struct SegmentBuild<'a> {
    figs: &'a [Fig<'a>],
    clock: &'a SegmentClock,
    options: RulesOptions,
    setting: crate::rules::distance::Setting,
    k: u32,
    when: (u32, u32),
    changes: Changes,
    strikers: Vec<Striker>,
    events: Vec<LogEvent>,
    /// The figures the scene tells what to do in this very segment.
    declared_now: Vec<usize>,
}

/// Run condition: a surprise segment.
pub(in crate::sim) fn in_surprise(clock: bevy::prelude::Res<SegmentClock>) -> bool {
    clock.surprise_segment().is_some()
}

/// Plans one surprise segment.
pub(in crate::sim) fn plan_surprise_segment(mut p: Planning) {
    let Some(k) = p.clock.surprise_segment() else {
        return;
    };
    let scene = p.scene.0.clone();
    let figs = everyone(&p.figures);
    let clock = p.clock.clone();
    let mut b = SegmentBuild {
        figs: &figs,
        clock: &clock,
        options: scene.rules,
        setting: scene.setting,
        k,
        when: (0, k),
        changes: Changes::default(),
        strikers: Vec::new(),
        events: Vec::new(),
        declared_now: figs
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                scene
                    .surprise_segments
                    .get(k as usize - 1)
                    .is_some_and(|d| d.get(f.name().as_str()).is_some())
            })
            .map(|(i, _)| i)
            .collect(),
    };
    for (i, f) in figs.iter().enumerate() {
        if f.up() && may_act(&mut b, i) {
            act(&mut b, i, &mut p.dice);
        }
    }
    let entries = order(&b);
    for e in b.events {
        p.log.write(e);
    }
    *p.plan = Plan {
        round: 0,
        initiative: BTreeMap::new(),
        entries,
        ..Plan::default()
    };
    b.changes.apply(&mut p.commands, &figs, false);
}

/// Whether figure `i` may act in this segment, logging why not (or why it may).
fn may_act(b: &mut SegmentBuild, i: usize) -> bool {
    let (f, k) = (&b.figs[i], b.k);
    let own_surprised = k <= f.surprised.segments;
    let side_surprised = k <= f.surprised.side_segments;
    let speed_shot = f.weapon.of_speed
        && f.weapon.missile
        && matches!(f.act, Act::Missile { .. })
        && surprise::crossbow_of_speed_segment(f.surprised.segments) == Some(k);
    if own_surprised && !speed_shot {
        // Told to do something it cannot: the log says why nothing comes of it.
        if !matches!(f.act, Act::Hold) && b.declared_now.contains(&i) {
            let why = format!("still surprised in surprise segment {k}: it can do nothing yet");
            b.events
                .push(super::idle(b.when, f, None, why, cite::SURPRISE_SEGMENTS));
        }
        return false;
    }
    let action = match f.act {
        Act::Melee { .. } => {
            surprise::melee_action(target_gap(b, i), b.setting, f.movement.inches).0
        }
        Act::Missile { .. } => SurpriseAction::Missiles {
            per_round: 1,
            ready: f.weapon.ready,
        },
        Act::Charge { .. }
        | Act::Move { .. }
        | Act::Close { .. }
        | Act::Flee { .. }
        | Act::Withdraw { .. } => SurpriseAction::Move {
            rate_inches: f.movement.inches,
        },
        Act::Cast {
            spell,
            segments,
            device,
            ..
        } => SurpriseAction::Cast {
            casting_segments: spell_info(spell, *segments, *device).0,
        },
        Act::Cantrips { .. } => SurpriseAction::Cast {
            casting_segments: 1,
        },
        Act::Potion { .. }
        | Act::Other(_)
        | Act::Turn { .. }
        | Act::Set { .. }
        | Act::Parry { .. }
        | Act::Expect { .. }
        | Act::Hide
        | Act::Block { .. } => SurpriseAction::Other,
        Act::Hold => return false,
    };
    if speed_shot {
        b.events.push(LogEvent::new(
            b.when,
            f.name(),
            EventKind::Act,
            None,
            "still surprised, but may shoot its crossbow of speed in the second surprise segment",
            cite::CROSSBOW_OF_SPEED_SURPRISE,
        ));
        return true;
    }
    let (may, rule) = surprise::may_act(action, false, side_surprised);
    if !may {
        let why = format!(
            "on guard: may not {} while one of its side is still surprised",
            f.act.verb()
        );
        b.events.push(idle(b.when, f, None, why, rule));
    }
    may
}

/// What figure `i` does in this segment.
fn act(b: &mut SegmentBuild, i: usize, dice: &mut Dice) {
    let f = &b.figs[i];
    match f.act.clone() {
        Act::Melee { .. } | Act::Missile { .. } => strike(b, i),
        Act::Charge { .. } => charge_on(b, i),
        Act::Close { targets } => {
            let feet = SurpriseAction::Move {
                rate_inches: f.movement.inches,
            }
            .feet_moved();
            let fps = feet_per_segment(f64::from(feet), b.setting);
            b.changes
                .start_move(b.figs, i, (&targets.first().cloned(), &None), fps, 0);
        }
        Act::Flee { to } | Act::Withdraw { to } => {
            let feet = SurpriseAction::Move {
                rate_inches: f.movement.inches,
            }
            .feet_moved();
            let fps = feet_per_segment(f64::from(feet), b.setting);
            b.changes.start_move(b.figs, i, (&None, &Some(to)), fps, 0);
        }
        Act::Parry { .. } | Act::Expect { .. } | Act::Hide | Act::Block { .. } => {}
        Act::Move { toward, to } => {
            // One segment of movement: 1 ft per inch indoors (PHB p.102).
            let feet = SurpriseAction::Move {
                rate_inches: f.movement.inches,
            }
            .feet_moved();
            let fps = feet_per_segment(f64::from(feet), b.setting);
            b.changes.start_move(b.figs, i, (&toward, &to), fps, 0);
        }
        Act::Cast {
            spell,
            target,
            segments,
            device,
            ..
        } => begin_spell(b, i, &spell, target, (segments, device)),
        Act::Potion { name, prepare } => drink(b, i, &name, prepare, dice),
        Act::Turn { .. } => b.events.push(LogEvent::new(
            b.when,
            f.name(),
            EventKind::Act,
            None,
            "turns undead (its outcome is not modelled)",
            cite::TURN_UNDEAD,
        )),
        Act::Other(what) => b.events.push(LogEvent::new(
            b.when,
            f.name(),
            EventKind::Act,
            None,
            what,
            cite::SURPRISE_ACTIONS,
        )),
        Act::Cantrips { .. } => {
            let why = "cantrips are timed in full rounds only".to_string();
            b.events
                .push(idle(b.when, f, None, why, cite::SURPRISE_ACTIONS));
        }
        Act::Hold | Act::Set { .. } => {}
    }
}

/// A round of blows, or of missiles (three times as many if ready), in one segment.
fn strike(b: &mut SegmentBuild, i: usize) {
    let (f, k) = (&b.figs[i], b.k);
    let missile = matches!(f.act, Act::Missile { .. });
    let Some(t) = first_standing(b.figs, f.act) else {
        b.events.push(no_target(b.when, f));
        return;
    };
    let steps = if missile { 0.0 } else { gap(f, &b.figs[t]) };
    let (melee, _) = surprise::melee_action(steps, b.setting, f.movement.inches);
    if !missile && !melee.is_attack() {
        close_in(b, i, t);
        return;
    }
    let tf = &b.figs[t];
    let (sides, rule) = surprise::sides_at_surprise(
        k <= f.surprised.side_segments,
        k <= tf.surprised.side_segments,
    );
    if !sides {
        let why = format!(
            "neither {}'s side nor {}'s is surprised: no blows between them until round 1",
            f.name(),
            tf.name()
        );
        b.events
            .push(idle(b.when, f, Some(tf.name().to_string()), why, rule));
        return;
    }
    let (may, rule) = surprise::may_be_struck_by(
        k <= tf.surprised.segments,
        k <= tf.surprised.side_segments,
        false,
    );
    if !may {
        let why = format!(
            "{} is on guard while one of its side is still surprised: no free blows",
            tf.name()
        );
        b.events
            .push(idle(b.when, f, Some(tf.name().to_string()), why, rule));
        return;
    }
    let nth = f.rate.rounds_attacking + 1;
    let rate = f.rate.of(missile);
    // Ready missiles fly at three times the rate, once: the first volley empties what was
    // ready, and the next segment's is at the normal rate (DMG p.62).
    let ready = missile && f.weapon.ready && f.rate.rounds_attacking == 0;
    let alt = b.options.alternating_rate;
    let (n, _) = if missile {
        surprise::missiles_in_segment(rate, nth, ready, alt)
    } else {
        rate.routines_in(nth, alt)
    };
    if steps > 0.0 {
        step_in(b, i, t, steps);
    }
    // A segment its rate gives no attack still counts toward its rate.
    b.changes.attacked.push(i);
    if n == 0 {
        let why = format!(
            "no {} this segment: its rate, {}, gives {} in every {} segments of surprise",
            if missile { "shot" } else { "blow" },
            rate,
            rate.routines,
            rate.per_rounds
        );
        b.events.push(idle(b.when, f, None, why, cite::ATTACK_RATE));
        return;
    }
    b.strikers.push(Striker {
        figure: i,
        routines: n,
        speed: f.weapon.of_speed,
        charge: false,
    });
}

/// Feet figure `i` has to cover to reach its first standing target (none without one: there
/// is nothing to close on).
fn target_gap(b: &SegmentBuild, i: usize) -> f64 {
    let f = &b.figs[i];
    first_standing(b.figs, f.act).map_or(0.0, |t| gap(f, &b.figs[t]))
}

/// A blow at a foe within 1": the step in comes before it, in the same segment (DMG p.66).
fn step_in(b: &mut SegmentBuild, i: usize, t: usize, g: f64) {
    let own = feet_per_segment(f64::from(b.figs[i].movement.inches), b.setting);
    let closing = Closing {
        target: b.figs[t].e,
        feet_per_segment: g.max(own),
        charge: false,
        arrival: Some(b.k),
        covered: 0.0,
        wait: 0,
        step_in: true,
    };
    b.changes.closing.insert(i, Some(closing));
}

/// A melee at a foe out of reach: the segment is spent moving toward it (DMG p.61-62).
fn close_in(b: &mut SegmentBuild, i: usize, t: usize) {
    let (f, tf) = (&b.figs[i], &b.figs[t]);
    let (action, rule) = surprise::melee_action(gap(f, tf), b.setting, f.movement.inches);
    let feet = action.feet_moved();
    let why = format!(
        "{} is {:.1} ft out of reach: the segment is spent closing, up to {feet} ft, no blow",
        tf.name(),
        gap(f, tf)
    );
    b.events.push(LogEvent::new(
        b.when,
        f.name(),
        EventKind::Act,
        Some(tf.name().into()),
        why,
        rule,
    ));
    let fps = feet_per_segment(f64::from(feet), b.setting);
    let target = Some(tf.name().to_string());
    b.changes.start_move(b.figs, i, (&target, &None), fps, 0);
}

/// A charge's segment of movement; its blow if it arrives now on a foe it may strike.
fn charge_on(b: &mut SegmentBuild, i: usize) {
    let (f, k) = (&b.figs[i], b.k);
    let Some(t) = first_standing(b.figs, f.act) else {
        b.events.push(no_target(b.when, f));
        return;
    };
    let fps = charge::charge_feet_per_segment(f.movement.inches, b.setting, f.movement.body);
    let arrives = charge::arrives_within(gap(f, &b.figs[t]), fps, 1);
    let closing = Closing {
        target: b.figs[t].e,
        feet_per_segment: fps,
        charge: true,
        arrival: arrives.then_some(k),
        covered: f.closing.as_ref().map_or(0.0, |c| c.covered),
        wait: 0,
        step_in: false,
    };
    b.changes.closing.insert(i, Some(closing));
    b.changes.charging.push(i);
    if !arrives {
        return;
    }
    let tf = &b.figs[t];
    // The segment the charge began: a charge already under way while its foe was still
    // surprised ends with its blow (the paladin on the illusionist, Example of Melee);
    // one begun at a foe already on guard does not (DMG p.71).
    let so_far = f.closing.as_ref().map_or(0.0, |c| c.covered);
    let began = k.saturating_sub((so_far / fps).round() as u32);
    let (may, rule) = surprise::may_be_struck_by(
        k <= tf.surprised.segments,
        k <= tf.surprised.side_segments,
        began <= tf.surprised.segments,
    );
    if !may {
        let why = format!(
            "{} is on guard while one of its side is still surprised: the charge engages, but no blow lands until round 1",
            tf.name()
        );
        b.events
            .push(idle(b.when, f, Some(tf.name().to_string()), why, rule));
        return;
    }
    // A charger on guard while its own side is still surprised may move, not strike
    // (DMG p.71): it arrives without a blow.
    if k <= f.surprised.side_segments {
        let why = "on guard while its side is still surprised: the charge arrives, but may not strike until its side is free".to_string();
        b.events.push(idle(
            b.when,
            f,
            Some(tf.name().to_string()),
            why,
            cite::SURPRISE_PARTIAL,
        ));
        return;
    }
    b.strikers.push(Striker {
        figure: i,
        routines: 1,
        speed: false,
        charge: true,
    });
    if rule == cite::CHARGE_COMPLETES {
        b.events.push(LogEvent::new(
            b.when,
            f.name(),
            EventKind::Act,
            Some(tf.name().into()),
            "the charge under way ends with its blow",
            rule,
        ));
    }
}

/// When a spell begun in the surprise with `left` book segments to go at round 1 goes off:
/// by the book, that segment of round 1 (or later); under "Take Initiative!", the ordering
/// segment its time comes to, two for each book segment (`ti.surprise_spell`).
fn round_one_words(clock: &SegmentClock, left: u32) -> String {
    use crate::rules::options::RulesSystem;
    use crate::rules::take_initiative as ti;
    if clock.system != RulesSystem::TakeInitiative {
        return format!("segment {left} of round 1");
    }
    let (total, _) = ti::spell::from_surprise_total(left);
    let (at, _) = ti::acts_at(total);
    let round = 1 + at.rounds_later;
    format!(
        "{left} segment{} into round 1: ordering segment {} of round {round}, two for each",
        if left == 1 { "" } else { "s" },
        at.segment
    )
}

/// A spell begun in surprise: it completes in a later surprise segment or in round 1.
fn begin_spell(
    b: &mut SegmentBuild,
    i: usize,
    spell: &str,
    target: Option<String>,
    given: (Option<u32>, bool),
) {
    let f = &b.figs[i];
    if f.casting.as_ref().is_some_and(|c| c.what == spell) {
        return;
    }
    let (segs, device, note) = spell_info(spell, given.0, given.1);
    let note = note.map(|n| format!("; {n}")).unwrap_or_default();
    let (tick, when_done, completes) =
        match surprise::spell_completion_after_surprise(segs, b.k, b.clock.surprise_segments) {
            SpellFromSurprise::InSurprise(s) => (
                b.clock.tick_of(0, s),
                format!("surprise segment {s}"),
                (0, s),
            ),
            SpellFromSurprise::InRound1(s) => {
                (b.clock.tick_of(1, s), round_one_words(b.clock, s), (1, s))
            }
        };
    b.events.push(
        LogEvent::new(
            b.when,
            f.name(),
            EventKind::SpellStart,
            target.clone().map(Into::into),
            format!(
                "begins {spell} ({segs} segment{}): completes in {when_done}{note}",
                if segs == 1 { "" } else { "s" }
            ),
            cite::SURPRISE_ACTIONS,
        )
        .with(Payload::SpellStart {
            spell: spell.to_string(),
            casting_segments: segs,
            completes,
            occupies: [
                b.clock.moment_of(tick.saturating_sub(segs.max(1) - 1)),
                completes,
            ],
        }),
    );
    let casting = Casting {
        what: spell.to_string(),
        target,
        segments: segs,
        started: b.clock.tick(),
        completes: tick,
        device,
        potion: false,
        at: b.figs[i].act.point(),
    };
    b.changes.casting.insert(i, Some(casting));
}

/// A potion drunk in surprise: it works d4+1 segments later (DMG p.119).
fn drink(b: &mut SegmentBuild, i: usize, name: &str, prepare: u32, dice: &mut Dice) {
    let f = &b.figs[i];
    if f.casting.as_ref().is_some_and(|c| c.what == name) {
        return;
    }
    let delay = potion_delay(dice.roll(DieKind::D4, f.name(), 4).0.max(1) as u32).0;
    let tick = b.clock.tick() + prepare + delay;
    let (r, s) = b.clock.moment_of(tick);
    let at = if r == 0 {
        format!("surprise segment {s}")
    } else {
        format!("segment {s} of round {r}")
    };
    b.events.push(
        LogEvent::new(
            b.when,
            f.name(),
            EventKind::SpellStart,
            None,
            format!("drinks {name}; d4+1 = {delay}: works at the end of {at}"),
            cite::POTION_DELAY,
        )
        .with(Payload::SpellStart {
            spell: name.to_string(),
            casting_segments: prepare + delay,
            completes: (r, s),
            occupies: [b.clock.moment_of(b.clock.tick()), (r, s)],
        }),
    );
    let casting = Casting {
        what: name.to_string(),
        target: None,
        segments: prepare + delay,
        started: b.clock.tick(),
        completes: tick,
        device: true,
        potion: true,
        at: None,
    };
    b.changes.casting.insert(i, Some(casting));
}

/// The segment's routines in order: items of speed first, then by the attack sequence
/// (rules::surprise::segment_beats).
fn order(b: &SegmentBuild) -> Vec<PlanEntry> {
    let shape: Vec<(u32, bool)> = b.strikers.iter().map(|s| (s.routines, s.speed)).collect();
    let (beats, rule) = surprise::segment_beats(&shape);
    let mut entries = Vec::new();
    for (s, beat_of) in b.strikers.iter().zip(beats) {
        let f = &b.figs[s.figure];
        for (r, beat) in beat_of.into_iter().enumerate() {
            let (rule, why) = if s.speed {
                (
                    cite::STRIKES_FIRST,
                    "an item of speed strikes first".to_string(),
                )
            } else if s.charge {
                (
                    cite::CHARGE_ARRIVAL,
                    "the charge's blow on arrival".to_string(),
                )
            } else {
                (
                    rule,
                    format!(
                        "routine {} of {} in the surprise segment",
                        r + 1,
                        s.routines
                    ),
                )
            };
            entries.push(PlanEntry {
                segment: b.k,
                beat,
                fight: 0,
                fixed: true,
                after: Vec::new(),
                actor: Some(f.e),
                figure: f.id(),
                name: f.name().into(),
                what: Planned::Strike {
                    routine: r as u32 + 1,
                    of: s.routines,
                    blow: 1,
                    charge: s.charge,
                    set: false,
                    second: false,
                    free: None,
                    adjust: Vec::new(),
                },
                rule,
                why,
            });
        }
    }
    entries.sort_by_key(|e| e.beat);
    entries
}
