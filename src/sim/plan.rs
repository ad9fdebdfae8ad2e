//! Initiative and the plan of a round or surprise segment: who does what, in which segment
//! and in what order. The order comes from the rules core — [`round_sequence_with`] for a
//! round, [`segment_beats`] for a surprise segment — and is turned into a list of
//! [`PlanEntry`]s that the resolve step plays segment by segment.

use super::components::*;
use super::dice::Dice;
use super::log::{EventKind, LogEvent};
use super::{SegmentClock, SimScene};
use crate::rules::action::{ActionKind, Declared};
use crate::rules::charge::{self, SEGMENTS_PER_ROUND};
use crate::rules::cite::{self, Rule};
use crate::rules::dexterity::effective_adjustment;
use crate::rules::distance::Setting;
use crate::rules::first::Context;
use crate::rules::movement::feet_per_segment;
use crate::rules::sequence::{
    Beat, EventKind as SeqKind, PairDecision, Sequence, round_sequence_with, timeline,
};
use crate::rules::speed_factor::MeleeRound;
use crate::rules::spell::{completion_segment, potion_delay, potion_effect_segment};
use crate::rules::surprise::{self, SpellFromSurprise, SurpriseAction};
use crate::scene::{Act, DieKind};
use crate::tables;
use bevy::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// What a plan entry does.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Planned {
    /// An attack routine (one blow, or a blow with each weapon).
    Strike {
        /// 1-based routine.
        routine: u32,
        /// Routines this round or segment.
        of: u32,
        /// 1-based blow within the routine (speed-factor extra blows).
        blow: u32,
        /// The blow that ends a charge.
        charge: bool,
    },
    /// A spell, device or potion takes effect.
    Complete {
        /// What completes.
        what: String,
    },
}

/// One thing planned for a segment.
#[derive(Clone, Debug, Serialize)]
pub struct PlanEntry {
    /// Segment (0: the very beginning of the round).
    pub segment: u32,
    /// Order of play: entries with equal beats happen together.
    pub beat: usize,
    /// The fight it belongs to (figures joined by who aims at whom).
    pub fight: usize,
    /// Whether a rule fixes its segment; otherwise `segment` is only nominal, the earliest
    /// its fight's order allows.
    pub fixed: bool,
    /// What the rules put directly before it in its fight ("Orc's routine 1").
    pub after: Vec<String>,
    /// The figure.
    #[serde(skip)]
    pub actor: Option<Entity>,
    /// Its name.
    pub name: String,
    /// What it does.
    #[serde(flatten)]
    pub what: Planned,
    /// The rule that placed it.
    pub rule: Rule,
    /// Why it is here.
    pub why: String,
}

/// The plan of the current round (or surprise segment).
#[derive(Resource, Clone, Debug, Default, Serialize)]
pub struct Plan {
    /// Round (0 for a surprise segment).
    pub round: u32,
    /// Each side's initiative die this round.
    pub initiative: BTreeMap<String, u32>,
    /// The entries in order.
    pub entries: Vec<PlanEntry>,
    /// The pairwise decisions behind the order.
    pub decisions: Vec<PairDecision>,
}

/// A figure as the planner sees it.
struct Fig {
    e: Entity,
    index: usize,
    name: String,
    side: String,
    pos: Position,
    reach: f64,
    movement: MovementRate,
    weapon: WeaponSpeed,
    rate: AttackRate,
    dex: Dexterity,
    up: bool,
    dead: bool,
    surprised: Surprised,
    act: Act,
    casting: Option<Casting>,
    closed_last_round: bool,
    init_die: u32,
}

type FigQuery<'a> = (
    Entity,
    &'a Combatant,
    &'a Side,
    &'a Position,
    &'a Reach,
    &'a MovementRate,
    &'a WeaponSpeed,
    &'a AttackRate,
    &'a Dexterity,
    &'a HitPoints,
    &'a Surprised,
    &'a Intent,
    Option<&'a Casting>,
    &'a JustClosed,
    &'a Fighting,
);

fn snapshot(q: &Query<FigQuery>) -> Vec<Fig> {
    let mut figs: Vec<Fig> = q
        .iter()
        .map(
            |(e, c, side, pos, reach, mv, w, rate, dex, hp, sur, intent, cast, jc, f)| Fig {
                e,
                index: c.index,
                name: c.name.clone(),
                side: side.0.clone(),
                pos: *pos,
                reach: reach.0,
                movement: *mv,
                weapon: w.clone(),
                rate: *rate,
                dex: *dex,
                up: hp.condition.is_up(),
                dead: hp.condition == crate::rules::combat::Condition::Dead,
                surprised: *sur,
                act: intent.act.clone(),
                casting: cast.cloned(),
                closed_last_round: jc.last_round,
                init_die: f.initiative_die,
            },
        )
        .collect();
    figs.sort_by_key(|f| f.index);
    figs
}

/// The first target of an action that is still standing, with its index in `figs`;
/// failing that, the first that is not dead (a helpless foe may still be struck).
fn first_standing(figs: &[Fig], act: &Act) -> Option<usize> {
    let find = |ok: &dyn Fn(&Fig) -> bool| {
        act.targets()
            .into_iter()
            .find_map(|t| figs.iter().position(|f| f.name == t && ok(f)))
    };
    find(&|f| f.up).or_else(|| find(&|f| !f.dead))
}

/// Feet still to cover before `f` can strike `t` (a hair's breadth counts as none).
fn gap(f: &Fig, t: &Fig) -> f64 {
    let g = f.pos.distance(&t.pos) - f.reach;
    if g < 1e-6 { 0.0 } else { g }
}

/// What the planner decided for one figure, applied after planning.
#[derive(Default)]
struct Changes {
    closing: BTreeMap<usize, Option<Closing>>,
    casting: BTreeMap<usize, Option<Casting>>,
    attacked: Vec<usize>,
    closing_now: Vec<usize>,
}

fn spell_info(spell: &str, over: Option<u32>) -> (u32, bool) {
    let t = tables::spell(spell).ok();
    (
        over.or(t.map(|s| s.segments)).unwrap_or(1),
        t.is_some_and(|s| s.device),
    )
}

/// Plans the round at its first segment: initiative, declarations turned into timed
/// actions, and the order from the rules core.
#[allow(clippy::too_many_arguments)]
pub(super) fn plan_round(
    scene: Res<SimScene>,
    clock: Res<SegmentClock>,
    mut dice: ResMut<Dice>,
    mut plan: ResMut<Plan>,
    q: Query<FigQuery>,
    mut commands: Commands,
    mut log: MessageWriter<LogEvent>,
) {
    if !clock.round_starts() {
        return;
    }
    let (round, _) = clock.round_segment();
    // Declarations and initiative come at the very beginning of the round (segment 0).
    let when = (round, 0);
    let setting = scene.0.setting;
    let options = scene.0.rules;
    let figs = snapshot(&q);
    let spec = scene.0.rounds.get(round as usize - 1);

    // Initiative: one die per side among those still standing (DMG p.62).
    let mut initiative: BTreeMap<String, u32> = BTreeMap::new();
    for f in figs.iter().filter(|f| f.up) {
        if initiative.contains_key(&f.side) {
            continue;
        }
        let sides = figs
            .iter()
            .filter(|g| g.side == f.side)
            .map(|g| g.init_die)
            .max()
            .unwrap_or(6);
        let (die, fixed) = match spec.and_then(|s| s.initiative.get(&f.side)) {
            Some(&d) => (d as i32, true),
            None => dice.roll(DieKind::Initiative, &f.side, sides),
        };
        let die = die.clamp(1, sides as i32) as u32;
        let rule = if sides == 8 {
            cite::INITIATIVE_SPECTATOR
        } else {
            cite::INITIATIVE_D6
        };
        log.write(LogEvent::new(
            when,
            f.side.clone(),
            EventKind::Initiative,
            None,
            format!(
                "d{sides} shows {die}{}",
                if fixed { " (fixed by the scene)" } else { "" }
            ),
            rule,
        ));
        initiative.insert(f.side.clone(), die);
    }
    let best = initiative.values().copied().max().unwrap_or(0);

    let mut ch = Changes::default();
    let mut declared: Vec<Declared> = Vec::new();
    let mut owner: Vec<usize> = Vec::new();
    let mut targets_of: Vec<Vec<String>> = Vec::new();
    let mut charging: Vec<bool> = Vec::new();
    let mut what_of: Vec<String> = Vec::new();
    let tick_of = |r: u32, s: u32| clock.tick_of(r, s);
    for (i, f) in figs.iter().enumerate() {
        if !f.up {
            continue;
        }
        let die = initiative.get(&f.side).copied().unwrap_or(1);
        let lost = die < best;
        let base = |kind: ActionKind| Declared {
            name: f.name.clone(),
            side: f.side.clone(),
            kind,
            die,
            dex_adjustment: 0,
            routines: 1,
            speed_factor: f.weapon.speed_factor,
            reach_ft: if f.weapon.length_ft > 0.0 {
                f.weapon.length_ft
            } else {
                f.reach
            },
            strikes_first: f.weapon.of_speed,
            casting_total: None,
        };
        // A casting that carries on from surprise or an earlier round.
        let carrying = |what: &str| f.casting.as_ref().filter(|c| c.what == what);
        match &f.act {
            Act::Melee { .. } | Act::Missile { .. } => {
                let Some(t) = first_standing(&figs, &f.act) else {
                    idle(&mut log, when, f, "no target is standing");
                    continue;
                };
                let missile = matches!(f.act, Act::Missile { .. });
                if !missile {
                    let g = gap(f, &figs[t]);
                    let (possible, rule) = charge::melee_possible(g, setting);
                    if !possible {
                        log.write(LogEvent::new(
                            when,
                            f.name.clone(),
                            EventKind::Idle,
                            Some(figs[t].name.clone()),
                            format!(
                                "{g:.0} ft to close, more than 1\": closing this round, no blows"
                            ),
                            rule,
                        ));
                        let fps = feet_per_segment(f64::from(f.movement.inches), setting);
                        ch.closing.insert(
                            i,
                            Some(Closing {
                                target: figs[t].e,
                                feet_per_segment: fps,
                                charge: false,
                                arrival: Some(charge::arrival_segment(g, fps).0),
                            }),
                        );
                        ch.closing_now.push(i);
                        continue;
                    }
                    if g > 0.0 {
                        ch.closing.insert(
                            i,
                            Some(Closing {
                                target: figs[t].e,
                                feet_per_segment: g,
                                charge: false,
                                arrival: Some(1),
                            }),
                        );
                    }
                }
                let nth = f.rate.rounds_attacking + 1;
                let (routines, _) = f.rate.rate.routines_in(nth, options.alternating_rate);
                if routines == 0 {
                    idle(&mut log, when, f, "no attack this round (attack rate)");
                    continue;
                }
                ch.attacked.push(i);
                let mut d = base(if missile {
                    ActionKind::Missile
                } else {
                    ActionKind::Melee
                });
                d.routines = routines;
                if missile {
                    d.dex_adjustment = effective_adjustment(f.dex.score, f.dex.light_gear);
                    d.speed_factor = None;
                }
                declared.push(d);
                owner.push(i);
                targets_of.push(f.act.targets().iter().map(|s| s.to_string()).collect());
                charging.push(false);
                what_of.push(String::new());
            }
            Act::Charge { .. } => {
                let Some(t) = first_standing(&figs, &f.act) else {
                    idle(&mut log, when, f, "no target is standing");
                    continue;
                };
                let (may, rule) = charge::may_charge(f.movement.encumbered);
                if !may {
                    log.write(LogEvent::new(
                        when,
                        f.name.clone(),
                        EventKind::Idle,
                        None,
                        "encumbered: may not charge",
                        rule,
                    ));
                    continue;
                }
                let fps =
                    charge::charge_feet_per_segment(f.movement.inches, setting, f.movement.body);
                let g = gap(f, &figs[t]);
                let (arrival, rule) = match charging_back(&figs, t, i, setting) {
                    // Charging each other: both movements close the gap (DMG p.66).
                    Some(other_fps) => {
                        let d = f.pos.distance(&figs[t].pos);
                        let ((a, _), rule) =
                            charge::mutual_arrival(d, (fps, f.reach), (other_fps, figs[t].reach));
                        (a, rule)
                    }
                    None => charge::arrival_segment(g, fps),
                };
                let arrival = arrival.max(1);
                ch.closing.insert(
                    i,
                    Some(Closing {
                        target: figs[t].e,
                        feet_per_segment: fps,
                        charge: true,
                        arrival: Some(arrival),
                    }),
                );
                ch.closing_now.push(i);
                if arrival > SEGMENTS_PER_ROUND {
                    log.write(LogEvent::new(
                        when,
                        f.name.clone(),
                        EventKind::Idle,
                        Some(figs[t].name.clone()),
                        format!("charging {g:.0} ft at {fps} ft/segment: no contact this round"),
                        rule,
                    ));
                    continue;
                }
                declared.push(base(ActionKind::Charge {
                    arrival_segment: arrival,
                }));
                owner.push(i);
                targets_of.push(f.act.targets().iter().map(|s| s.to_string()).collect());
                charging.push(true);
                what_of.push(String::new());
            }
            Act::Cast {
                spell,
                target,
                segments,
            } => {
                let (segs, device) = spell_info(spell, *segments);
                let cast = match carrying(spell) {
                    Some(c) => c.clone(),
                    None => {
                        let s = completion_segment(segs, lost, best, options.spell_start);
                        let c = Casting {
                            what: spell.clone(),
                            target: target.clone(),
                            segments: segs,
                            started: tick_of(round, 1),
                            completes: tick_of(round, s),
                            device,
                            potion: false,
                        };
                        log.write(LogEvent::new(
                            when,
                            f.name.clone(),
                            EventKind::SpellStart,
                            target.clone(),
                            format!("begins {spell} ({segs} segments; completes in segment {s})"),
                            cite::DECLARE_SPELLS,
                        ));
                        ch.casting.insert(i, Some(c.clone()));
                        c
                    }
                };
                let seg = cast.completes.saturating_sub(tick_of(round, 0));
                let mut d = base(ActionKind::Cast {
                    segments: seg,
                    device: cast.device,
                });
                d.casting_total = Some(cast.segments);
                declared.push(d);
                owner.push(i);
                targets_of.push(target.iter().cloned().collect());
                charging.push(false);
                what_of.push(spell.clone());
            }
            Act::Potion { name, prepare } => {
                let cast = match carrying(name) {
                    Some(c) => c.clone(),
                    None => {
                        let delay =
                            potion_delay(dice.roll(DieKind::D4, &f.name, 4).0.max(1) as u32).0;
                        let drunk = 1 + prepare;
                        let (off, s) = potion_effect_segment(drunk, delay);
                        let c = Casting {
                            what: name.clone(),
                            target: None,
                            segments: prepare + 1 + delay,
                            started: tick_of(round, 1),
                            completes: tick_of(round + off, s),
                            device: true,
                            potion: true,
                        };
                        log.write(LogEvent::new(
                            when,
                            f.name.clone(),
                            EventKind::SpellStart,
                            None,
                            format!("{prepare} segment(s) to ready {name}, drinks it in segment {drunk}; d4+1 = {delay}: works in segment {s}{}", if off > 0 { format!(" of round {}", round + off) } else { String::new() }),
                            cite::POTION_DELAY,
                        ));
                        ch.casting.insert(i, Some(c.clone()));
                        c
                    }
                };
                let seg = cast.completes.saturating_sub(tick_of(round, 0));
                declared.push(base(ActionKind::Cast {
                    segments: seg,
                    device: true,
                }));
                owner.push(i);
                targets_of.push(Vec::new());
                charging.push(false);
                what_of.push(name.clone());
            }
            Act::Cantrips {
                first,
                second,
                target,
            } => {
                let d4 = dice.roll(DieKind::D4, &f.name, 4).0.clamp(1, 4) as u32;
                let ((s1, s2), rule) = crate::rules::spell::cantrip_segments(1, d4);
                log.write(LogEvent::new(
                    when,
                    f.name.clone(),
                    EventKind::SpellStart,
                    target.clone(),
                    format!("cantrips: {first} in segment {s1}, {second} d4 = {d4} segments later, in segment {s2}"),
                    rule,
                ));
                for (name, seg) in [(first, s1), (second, s2)] {
                    declared.push(base(ActionKind::Cast {
                        segments: seg,
                        device: false,
                    }));
                    owner.push(i);
                    targets_of.push(Vec::new());
                    charging.push(false);
                    what_of.push(name.clone());
                }
            }
            Act::Move { toward, to } => {
                let fps = feet_per_segment(f64::from(f.movement.inches), setting);
                start_move(&mut ch, &mut commands, &figs, i, toward, to, fps);
            }
            Act::Other(_) | Act::Hold => {}
        }
    }

    // The order, from the rules core. Casters are timed only against those who attack them;
    // each pair's melee round is its own (just closed or continuing).
    let is_cast = |k: usize| matches!(declared[k].kind, ActionKind::Cast { .. });
    let pair = |a: usize, b: usize| -> Option<Context> {
        let (fa, fb) = (&figs[owner[a]], &figs[owner[b]]);
        let aims = |x: usize, y: usize| targets_of[x].iter().any(|t| *t == figs[owner[y]].name);
        let relevant = match (is_cast(a), is_cast(b)) {
            (true, true) | (false, false) => true,
            (true, false) => aims(b, a),
            (false, true) => aims(a, b),
        };
        relevant.then_some(Context {
            melee_round: if fa.closed_last_round || fb.closed_last_round {
                MeleeRound::FirstAfterClosing
            } else {
                MeleeRound::Continuing
            },
            options,
        })
    };
    // Who aims at whom, which splits the round into fights.
    let mut aims = Vec::new();
    for (a, ts) in targets_of.iter().enumerate() {
        for t in ts {
            for b in (0..declared.len()).filter(|&b| figs[owner[b]].name == *t) {
                aims.push((a, b));
            }
        }
    }
    let seq = round_sequence_with(&declared, &aims, &pair);

    // Beats in play order: each fight's order kept, fights interleaved by the merge.
    // Between fights a higher die goes first (DMG p.61): a side's own number, so a side
    // added elsewhere never reorders two fights already there.
    let rank = |k: usize| u32::MAX - declared[k].die;
    let speed = |k: usize| declared[k].strikes_first;
    let play = timeline::merge(&seq.beats, &rank, &speed);
    let mut entries = Vec::new();
    for (order, &bi) in play.iter().enumerate() {
        let beat = &seq.beats[bi];
        let seg = beat.nominal;
        // Within a beat, completions first: a blow at the same moment does not stop them.
        let mut evs: Vec<_> = beat.events.iter().collect();
        evs.sort_by_key(|e| !matches!(e.kind, SeqKind::Complete));
        for ev in evs {
            let fi = owner[ev.actor];
            let what = match ev.kind {
                SeqKind::Routine { routine, of, blow } => Planned::Strike {
                    routine,
                    of,
                    blow,
                    charge: charging[ev.actor],
                },
                SeqKind::Complete => Planned::Complete {
                    what: what_of[ev.actor].clone(),
                },
                SeqKind::Arrive => continue,
            };
            let seg_here = ev.segment.unwrap_or(seg);
            if seg_here > SEGMENTS_PER_ROUND {
                continue;
            }
            let (rule, why) = (ev.rule, ev.why.clone());
            entries.push(PlanEntry {
                segment: seg_here,
                beat: order,
                fight: beat.fight,
                fixed: ev.segment.is_some(),
                after: after_of(&seq, beat, &what_of),
                actor: Some(figs[fi].e),
                name: figs[fi].name.clone(),
                what,
                rule,
                why,
            });
        }
    }
    *plan = Plan {
        round,
        initiative,
        entries,
        decisions: seq.decisions,
    };
    apply(&mut commands, &figs, ch, true);
}

/// Words for the beats directly before `beat` in its fight.
fn after_of(seq: &Sequence, beat: &Beat, what_of: &[String]) -> Vec<String> {
    seq.fight_beats(beat.fight)
        .filter(|b| beat.after.contains(&b.beat))
        .flat_map(|b| &b.events)
        .filter_map(|e| match e.kind {
            SeqKind::Routine { routine, of, blow } if blow > 1 => Some(format!(
                "{}'s blow {blow} of routine {routine}/{of}",
                e.name
            )),
            SeqKind::Routine { routine, of, .. } if of > 1 => {
                Some(format!("{}'s routine {routine}", e.name))
            }
            SeqKind::Routine { .. } => Some(format!("{}'s blow", e.name)),
            SeqKind::Complete => Some(format!("{}'s {}", e.name, what_of[e.actor])),
            SeqKind::Arrive => None,
        })
        .collect()
}

/// The charge rate of figure `t` if it charges figure `i` this round.
fn charging_back(figs: &[Fig], t: usize, i: usize, setting: Setting) -> Option<f64> {
    let other = &figs[t];
    (other.up
        && matches!(other.act, Act::Charge { .. })
        && first_standing(figs, &other.act) == Some(i))
    .then(|| charge::charge_feet_per_segment(other.movement.inches, setting, other.movement.body))
}

fn idle(log: &mut MessageWriter<LogEvent>, when: (u32, u32), f: &Fig, why: &str) {
    log.write(LogEvent::new(
        when,
        f.name.clone(),
        EventKind::Idle,
        None,
        why.to_string(),
        cite::DECLARE_ACTIONS,
    ));
}

/// Starts a plain move toward a figure (stopping at reach) or a point.
fn start_move(
    ch: &mut Changes,
    commands: &mut Commands,
    figs: &[Fig],
    i: usize,
    toward: &Option<String>,
    to: &Option<(f64, f64)>,
    fps: f64,
) {
    if let Some(t) = toward
        .as_ref()
        .and_then(|t| figs.iter().find(|g| &g.name == t))
    {
        ch.closing.insert(
            i,
            Some(Closing {
                target: t.e,
                feet_per_segment: fps,
                charge: false,
                arrival: None,
            }),
        );
    } else if let Some(p) = to {
        commands
            .entity(figs[i].e)
            .insert(MoveTo(Position { x: p.0, y: p.1 }, fps));
    }
}

/// A plain move toward a point at so many feet a segment.
#[derive(Component, Clone, Copy, Debug)]
pub struct MoveTo(pub Position, pub f64);

fn apply(commands: &mut Commands, figs: &[Fig], ch: Changes, round: bool) {
    for (i, c) in ch.closing {
        match c {
            Some(c) => commands.entity(figs[i].e).insert(c),
            None => commands.entity(figs[i].e).remove::<Closing>(),
        };
    }
    for (i, c) in ch.casting {
        match c {
            Some(c) => commands.entity(figs[i].e).insert(c),
            None => commands.entity(figs[i].e).remove::<Casting>(),
        };
    }
    for i in ch.attacked {
        let mut rate = figs[i].rate;
        rate.rounds_attacking += 1;
        commands.entity(figs[i].e).insert(rate);
    }
    if round {
        for (i, f) in figs.iter().enumerate() {
            commands.entity(f.e).insert(JustClosed {
                last_round: f.closed_last_round,
                this_round: ch.closing_now.contains(&i),
            });
        }
    }
}

/// Plans one surprise segment: who may act (DMG p.61-62, p.71), what each does, and the
/// order of their routines.
#[allow(clippy::too_many_arguments)]
pub(super) fn plan_surprise_segment(
    scene: Res<SimScene>,
    clock: Res<SegmentClock>,
    mut dice: ResMut<Dice>,
    mut plan: ResMut<Plan>,
    q: Query<FigQuery>,
    mut commands: Commands,
    mut log: MessageWriter<LogEvent>,
) {
    let Some(k) = clock.surprise_segment() else {
        return;
    };
    let when = (0, k);
    let setting: Setting = scene.0.setting;
    let options = scene.0.rules;
    let figs = snapshot(&q);
    let mut ch = Changes::default();
    // (figure, routines, item of speed, charge blow)
    let mut strikers: Vec<(usize, u32, bool, bool)> = Vec::new();
    for (i, f) in figs.iter().enumerate() {
        if !f.up {
            continue;
        }
        let own_surprised = k <= f.surprised.segments;
        let side_surprised = k <= f.surprised.side_segments;
        let speed_shot = f.weapon.of_speed
            && f.weapon.missile
            && matches!(f.act, Act::Missile { .. })
            && surprise::crossbow_of_speed_segment(f.surprised.segments) == Some(k);
        if own_surprised && !speed_shot {
            continue;
        }
        let action = match &f.act {
            Act::Melee { .. } => SurpriseAction::MeleeRound,
            Act::Missile { .. } => SurpriseAction::Missiles {
                per_round: 1,
                ready: f.weapon.ready,
            },
            Act::Charge { .. } | Act::Move { .. } => SurpriseAction::Move {
                rate_inches: f.movement.inches,
            },
            Act::Cast {
                spell, segments, ..
            } => SurpriseAction::Cast {
                casting_segments: spell_info(spell, *segments).0,
            },
            Act::Cantrips { .. } => SurpriseAction::Cast {
                casting_segments: 1,
            },
            Act::Potion { .. } | Act::Other(_) => SurpriseAction::Other,
            Act::Hold => continue,
        };
        if !speed_shot {
            let (may, rule) = surprise::may_act(action, false, side_surprised);
            if !may {
                log.write(LogEvent::new(
                    when,
                    f.name.clone(),
                    EventKind::Idle,
                    None,
                    format!("may not {} while its side is still surprised", f.act.verb()),
                    rule,
                ));
                continue;
            }
        } else {
            log.write(LogEvent::new(when, f.name.clone(), EventKind::Act, None, "still surprised, but may shoot its crossbow of speed in the second surprise segment", cite::CROSSBOW_OF_SPEED_SURPRISE));
        }
        match &f.act {
            Act::Melee { .. } | Act::Missile { .. } => {
                let missile = matches!(f.act, Act::Missile { .. });
                let Some(t) = first_standing(&figs, &f.act) else {
                    idle(&mut log, when, f, "no target is standing");
                    continue;
                };
                let tf = &figs[t];
                let (may, rule) = surprise::may_be_struck_by(
                    k <= tf.surprised.segments,
                    k <= tf.surprised.side_segments,
                    false,
                );
                if !may {
                    log.write(LogEvent::new(
                        when,
                        f.name.clone(),
                        EventKind::Idle,
                        Some(tf.name.clone()),
                        format!(
                            "{} is on guard while its side is still surprised: no free blows",
                            tf.name
                        ),
                        rule,
                    ));
                    continue;
                }
                if !missile && gap(f, tf) > 0.0 {
                    idle(&mut log, when, f, "target out of reach");
                    continue;
                }
                let nth = f.rate.rounds_attacking + 1;
                let (n, _) = f.rate.rate.routines_in(nth, options.alternating_rate);
                let n = if missile {
                    SurpriseAction::Missiles {
                        per_round: n,
                        ready: f.weapon.ready,
                    }
                    .missiles()
                } else {
                    n
                };
                if n == 0 {
                    continue;
                }
                ch.attacked.push(i);
                strikers.push((i, n, f.weapon.of_speed, false));
            }
            Act::Charge { .. } => {
                let Some(t) = first_standing(&figs, &f.act) else {
                    idle(&mut log, when, f, "no target is standing");
                    continue;
                };
                let fps =
                    charge::charge_feet_per_segment(f.movement.inches, setting, f.movement.body);
                let g = gap(f, &figs[t]);
                let arrives = g <= fps + 1e-9;
                ch.closing.insert(
                    i,
                    Some(Closing {
                        target: figs[t].e,
                        feet_per_segment: fps,
                        charge: true,
                        arrival: arrives.then_some(k),
                    }),
                );
                if arrives {
                    let tf = &figs[t];
                    let (may, rule) = surprise::may_be_struck_by(
                        k <= tf.surprised.segments,
                        k <= tf.surprised.side_segments,
                        true,
                    );
                    if may {
                        strikers.push((i, 1, false, true));
                        if rule == cite::CHARGE_COMPLETES {
                            log.write(LogEvent::new(
                                when,
                                f.name.clone(),
                                EventKind::Act,
                                Some(tf.name.clone()),
                                "the charge under way ends with its blow",
                                rule,
                            ));
                        }
                    }
                }
            }
            Act::Move { toward, to } => {
                // One segment of movement: 1 ft per inch indoors (PHB p.102).
                let fps = feet_per_segment(f64::from(action.feet_moved()), setting);
                start_move(&mut ch, &mut commands, &figs, i, toward, to, fps);
            }
            Act::Cast {
                spell,
                target,
                segments,
            } => {
                if f.casting.as_ref().is_some_and(|c| &c.what == spell) {
                    continue;
                }
                let (segs, device) = spell_info(spell, *segments);
                let (tick, when_done) = match surprise::spell_completion_after_surprise(
                    segs,
                    k,
                    clock.surprise_segments,
                ) {
                    SpellFromSurprise::InSurprise(s) => {
                        (clock.tick_of(0, s), format!("surprise segment {s}"))
                    }
                    SpellFromSurprise::InRound1(s) => {
                        (clock.tick_of(1, s), format!("segment {s} of round 1"))
                    }
                };
                log.write(LogEvent::new(
                    when,
                    f.name.clone(),
                    EventKind::SpellStart,
                    target.clone(),
                    format!("begins {spell} ({segs} segments): completes in {when_done}"),
                    cite::SURPRISE_ACTIONS,
                ));
                ch.casting.insert(
                    i,
                    Some(Casting {
                        what: spell.clone(),
                        target: target.clone(),
                        segments: segs,
                        started: clock.tick(),
                        completes: tick,
                        device,
                        potion: false,
                    }),
                );
            }
            Act::Potion { name, prepare } => {
                if f.casting.as_ref().is_some_and(|c| &c.what == name) {
                    continue;
                }
                let delay = potion_delay(dice.roll(DieKind::D4, &f.name, 4).0.max(1) as u32).0;
                let drunk = clock.tick() + prepare;
                let tick = drunk + delay;
                let (r, s) = clock.moment_of(tick);
                let at = if r == 0 {
                    format!("surprise segment {s}")
                } else {
                    format!("segment {s} of round {r}")
                };
                log.write(LogEvent::new(
                    when,
                    f.name.clone(),
                    EventKind::SpellStart,
                    None,
                    format!("drinks {name}; d4+1 = {delay}: works at the end of {at}"),
                    cite::POTION_DELAY,
                ));
                ch.casting.insert(
                    i,
                    Some(Casting {
                        what: name.clone(),
                        target: None,
                        segments: prepare + delay,
                        started: clock.tick(),
                        completes: tick,
                        device: true,
                        potion: true,
                    }),
                );
            }
            Act::Other(what) => {
                log.write(LogEvent::new(
                    when,
                    f.name.clone(),
                    EventKind::Act,
                    None,
                    what.clone(),
                    cite::SURPRISE_ACTIONS,
                ));
            }
            Act::Cantrips { .. } => {
                idle(&mut log, when, f, "cantrips are timed in full rounds only");
            }
            Act::Hold => {}
        }
    }
    let shape: Vec<(u32, bool)> = strikers.iter().map(|&(_, n, s, _)| (n, s)).collect();
    let (beats, rule) = surprise::segment_beats(&shape);
    let mut entries = Vec::new();
    for (&(i, n, speed, charge), b) in strikers.iter().zip(beats) {
        for (r, beat) in b.into_iter().enumerate() {
            entries.push(PlanEntry {
                segment: k,
                beat,
                fight: 0,
                fixed: true,
                after: Vec::new(),
                actor: Some(figs[i].e),
                name: figs[i].name.clone(),
                what: Planned::Strike {
                    routine: r as u32 + 1,
                    of: n,
                    blow: 1,
                    charge,
                },
                rule: if speed {
                    cite::STRIKES_FIRST
                } else if charge {
                    cite::CHARGE_ARRIVAL
                } else {
                    rule
                },
                why: if speed {
                    "an item of speed strikes first".into()
                } else if charge {
                    "the charge's blow on arrival".into()
                } else {
                    format!("routine {} of {n} in the surprise segment", r + 1)
                },
            });
        }
    }
    entries.sort_by_key(|e| e.beat);
    *plan = Plan {
        round: 0,
        initiative: BTreeMap::new(),
        entries,
        decisions: Vec::new(),
    };
    apply(&mut commands, &figs, ch, false);
}
