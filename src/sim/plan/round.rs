//! Planning a round at its start (DMG p.61-67): initiative, each figure's declaration
//! turned into a timed action, and the order from the rules core.

use super::build::RoundBuild;
use super::{Changes, Fig, Plan, Planning, cast, charge, everyone, initiative, melee, order};
use crate::rules::declare::hesitation_delay;
use crate::rules::movement::feet_per_segment;
use crate::rules::options::RulesOptions;
use crate::scene::Act;
use crate::sim::SegmentClock;
use crate::sim::log::{EventKind, LogEvent};
use crate::text::plural;
use std::collections::BTreeMap;

/// Each figure's delay from hesitating to declare this round (DMG p.71), logged.
fn hesitation(
    figs: &[Fig],
    spec: Option<&crate::scene::RoundSpec>,
    (options, round_starts): (RulesOptions, u32),
    when: (u32, u32),
    events: &mut Vec<LogEvent>,
) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    let Some(spec) = spec else { return out };
    for f in figs.iter().filter(|f| f.up()) {
        let Some(&s) = spec.hesitation_s.get(f.name().as_str()) else {
            continue;
        };
        let (n, rule) = hesitation_delay(s, options.hesitation);
        // A spell begun before the round goes on: there is nothing to declare late.
        let going_on = matches!(f.act, Act::Cast { .. })
            && f.casting
                .is_some_and(|c| !c.potion && c.started < round_starts);
        let text = if going_on {
            crate::words!(
                "hesitated {s} s in declaring, but its spell was begun before this round and goes on: nothing is late"
            )
        } else {
            crate::words!(
                "hesitated {s} s in declaring: acts {} late",
                plural(n, "segment")
            )
        };
        events.push(LogEvent::new(
            when,
            f.name(),
            EventKind::Declare,
            None,
            text,
            rule,
        ));
        if !going_on {
            out.insert(f.name().to_string(), n);
        }
    }
    out
}

/// Run condition: the first segment of a round.
pub(in crate::sim) fn round_starts(clock: bevy::prelude::Res<SegmentClock>) -> bool {
    clock.round_starts()
}

/// Plans the round at its first segment.
pub(in crate::sim) fn plan_round(mut p: Planning) {
    let (round, _) = p.clock.round_segment();
    // Declarations and initiative come at the very beginning of the round (segment 0).
    let when = (round, 0);
    let scene = p.scene.0.clone();
    let figs = everyone(&p.figures);
    let mut events = Vec::new();
    let spec = scene.rounds.get(round as usize - 1);
    let initiative = initiative::roll(&figs, spec, &mut p.dice, when, &mut events);
    let best = initiative.values().copied().max().unwrap_or(0);
    let hesitation = hesitation(
        &figs,
        spec,
        (scene.rules, p.clock.tick_of(round, 1)),
        when,
        &mut events,
    );
    let clock = p.clock.clone();
    let mut b = RoundBuild {
        figs: &figs,
        clock: &clock,
        setting: scene.setting,
        options: scene.rules,
        round,
        when,
        initiative,
        best,
        actions: Vec::new(),
        changes: Changes::default(),
        events,
        hesitation,
        short: BTreeMap::new(),
    };
    b.short = super::house::short_rounds(&b, spec);
    for (i, f) in figs.iter().enumerate() {
        if !f.up() {
            continue;
        }
        if super::house::precluded(&mut b, i) {
            // Moving is never ruled out: a charger still runs at its foe, at the charge rate
            // and from when its side may act, with no blow.
            if matches!(f.act, Act::Charge { .. }) {
                charge::run_without_blow(&mut b, i);
            }
            continue;
        }
        if let Some(w) = super::house::follows_withdrawal(&b, i) {
            super::house::follow_withdrawal(&mut b, i, w);
            continue;
        }
        match f.act {
            Act::Melee { .. } | Act::Missile { .. } => melee::plan(&mut b, i),
            Act::Turn { .. } => melee::plan_turn(&mut b, i),
            Act::Close { .. } => melee::plan_close(&mut b, i),
            Act::Set { against } => melee::plan_set(&mut b, i, against),
            Act::Charge { .. } => charge::plan(&mut b, i),
            Act::Cast { .. } | Act::Potion { .. } | Act::Cantrips { .. } => {
                cast::plan(&mut b, i, &mut p.dice)
            }
            Act::Move { toward, to } => {
                let fps = feet_per_segment(f64::from(f.movement.inches), b.setting);
                b.changes.start_move(&figs, i, (toward, to), fps, 0);
            }
            Act::Other(_) => melee::plan_other(&mut b, i),
            // A fighting withdrawal (house rules, "Parting Shots"): a move to its point.
            Act::Withdraw { to } if b.options.house.parting_shots => {
                let fps = feet_per_segment(f64::from(f.movement.inches), b.setting);
                b.changes.start_move(&figs, i, (&None, &Some(*to)), fps, 0);
            }
            // Declarations of "Take Initiative!" only: validation refuses them here.
            Act::Hold
            | Act::Flee { .. }
            | Act::Parry { .. }
            | Act::Withdraw { .. }
            | Act::Expect { .. }
            | Act::Hide
            | Act::Block { .. } => {}
        }
    }
    if let Some(spec) = spec {
        super::second::plan(&mut b, &spec.then);
    }
    melee::strike_back(&mut b);
    let (mut entries, sequence) = order::entries(&b);
    let mapped = p.vision.as_ref().is_some_and(|v| v.0.is_some());
    let sight = p.sight.as_deref().filter(|_| mapped);
    super::pre_initiative::shots(&b, &mut entries, sight);
    super::house::parting_shots(&mut b, &mut entries);
    super::before_the_move::winners_strike_before_losers_move(&b, &mut entries, sight);
    for e in b.events {
        p.log.write(e);
    }
    *p.plan = Plan {
        round,
        initiative: b.initiative,
        entries,
        declared: b.actions.into_iter().map(|a| a.declared).collect(),
        sequence,
        then: spec.map(|s| s.then.clone()).unwrap_or_default(),
        parries: Vec::new(),
        moves: Vec::new(),
        flights: Vec::new(),
        engaged: Vec::new(),
        refused: Vec::new(),
    };
    b.changes.apply(&mut p.commands, &figs, true);
}
