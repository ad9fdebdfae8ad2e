//! Playing the plan: in each segment the planned blows land and spells, devices and
//! potions complete, in the order the rules core gave. A blow that lands on a caster before
//! completion ruins the spell at once (a device only if its wielder falls), because a
//! completion later in the same segment must already see it.

use super::SegmentClock;
use super::components::*;
use super::dice::Dice;
use super::disruption::end_casting;
use super::log::{EventKind, LogEvent};
use super::plan::{Plan, Planned};
use crate::rules::charge::charge_to_hit_bonus;
use crate::rules::cite;
use crate::rules::combat::{self, Condition, Modifiers};
use crate::rules::spell::{self, AttackResult};
use crate::rules::surprise;
use crate::scene::{Act, DieKind};
use crate::tables;
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

type Fighter<'a> = (
    Entity,
    &'a Combatant,
    &'a Position,
    &'a Reach,
    &'a Fighting,
    &'a WeaponSpeed,
    &'a Intent,
    &'a mut HitPoints,
    &'a ArmorClass,
    Option<&'a Casting>,
    &'a Surprised,
);

/// Plays this segment's entries.
pub(super) fn resolve(
    clock: Res<SegmentClock>,
    plan: Res<Plan>,
    mut dice: ResMut<Dice>,
    mut q: Query<Fighter>,
    mut commands: Commands,
    mut log: MessageWriter<LogEvent>,
) {
    let (round, segment) = clock.round_segment();
    if segment == 0 {
        return;
    }
    let tick = clock.tick();
    let mut done: BTreeSet<Entity> = BTreeSet::new();
    let mut ruined: BTreeSet<Entity> = BTreeSet::new();
    let mut fell_at: BTreeMap<Entity, usize> = BTreeMap::new();
    let entries: Vec<_> = plan
        .entries
        .iter()
        .filter(|e| {
            plan.round == round && (e.segment == segment || (segment == 1 && e.segment == 0))
        })
        .cloned()
        .collect();
    for entry in entries {
        let Some(actor) = entry.actor else { continue };
        let when = (round, entry.segment);
        let Ok(a) = q.get(actor) else { continue };
        // Blows in one beat are simultaneous: one felled in this very beat still strikes.
        if !a.7.condition.is_up() && fell_at.get(&actor) != Some(&entry.beat) {
            continue;
        }
        match entry.what {
            Planned::Complete { ref what } => {
                if ruined.contains(&actor) {
                    continue;
                }
                match a.9.cloned() {
                    Some(c) if &c.what == what => {
                        if done.insert(actor) {
                            complete(
                                &mut commands,
                                &mut log,
                                when,
                                a.1,
                                actor,
                                &c,
                                a.6,
                                entry.rule,
                                &entry.why,
                            );
                        }
                    }
                    // A cantrip has nothing under way to carry; any other completion
                    // without its casting was ruined or lost, and never completes.
                    _ if !matches!(a.6.act, Act::Cantrips { .. }) => {}
                    _ => {
                        log.write(LogEvent::new(
                            when,
                            a.1.name.clone(),
                            EventKind::SpellComplete,
                            None,
                            format!("completes {what} — {}", entry.why),
                            entry.rule,
                        ));
                    }
                }
            }
            Planned::Strike {
                routine,
                of,
                blow,
                charge,
            } => {
                let name = a.1.name.clone();
                let act = a.6.act.clone();
                let (modifier, hold) = match &act {
                    Act::Melee {
                        modifier,
                        hold_after,
                        ..
                    }
                    | Act::Missile {
                        modifier,
                        hold_after,
                        ..
                    } => (*modifier, *hold_after),
                    Act::Charge { modifier, .. } => (*modifier, None),
                    _ => (0, None),
                };
                if hold.is_some_and(|h| routine > h) {
                    log.write(LogEvent::new(
                        when,
                        name,
                        EventKind::Idle,
                        None,
                        format!("holds routine {routine} of {of}"),
                        entry.rule,
                    ));
                    continue;
                }
                // The first target still standing; failing that, the first not yet dead
                // (a helpless foe may still be struck).
                let pick = |pred: &dyn Fn(Condition) -> bool| {
                    act.targets().into_iter().find_map(|t| {
                        q.iter()
                            .find(|o| o.1.name == t && pred(o.7.condition))
                            .map(|o| o.0)
                    })
                };
                let target = pick(&|c| c.is_up()).or_else(|| pick(&|c| c != Condition::Dead));
                let Some(t) = target else {
                    log.write(LogEvent::new(
                        when,
                        name,
                        EventKind::Idle,
                        None,
                        "no target left standing",
                        entry.rule,
                    ));
                    continue;
                };
                let missile = matches!(act, Act::Missile { .. });
                let (apos, areach, fighting, weapon) = (*a.2, a.3.0, a.4.clone(), a.5.clone());
                let Ok(tq) = q.get(t) else { continue };
                let (tname, tpos, tac, tsur) = (tq.1.name.clone(), *tq.2, *tq.8, *tq.10);
                if let Some(k) = clock.surprise_segment() {
                    let (may, rule) = surprise::may_be_struck_by(
                        k <= tsur.segments,
                        k <= tsur.side_segments,
                        charge,
                    );
                    if !may {
                        log.write(LogEvent::new(
                            when,
                            name,
                            EventKind::Idle,
                            Some(tname),
                            "target is on guard: no free blows",
                            rule,
                        ));
                        continue;
                    }
                }
                if !missile && apos.distance(&tpos) > areach + 1e-6 {
                    log.write(LogEvent::new(
                        when,
                        name,
                        EventKind::Idle,
                        Some(tname),
                        "target out of reach",
                        entry.rule,
                    ));
                    continue;
                }
                // One strike with the main weapon, one with the off-hand weapon.
                let mut strikes = vec![(weapon.weapon.clone(), fighting.damage.clone())];
                if let Some((w, d)) = &fighting.off_hand
                    && !missile
                {
                    strikes.push((Some(w.clone()), d.clone()));
                }
                for (w, dmg) in strikes {
                    if q.get(t).is_ok_and(|o| o.7.condition == Condition::Dead) {
                        break;
                    }
                    let vs = w
                        .as_deref()
                        .and_then(|w| tables::weapon(w).ok())
                        .map_or(0, |w| w.vs_armor_type(tac.ac_type));
                    let m = Modifiers {
                        standing: fighting.to_hit_bonus,
                        vs_armor_type: vs,
                        charge: if charge {
                            charge_to_hit_bonus(true).0
                        } else {
                            0
                        },
                        situational: modifier,
                    };
                    let (need, _) = combat::needed_to_hit(fighting.thac0, tac.ac);
                    let (d20, fixed) = dice.roll(DieKind::ToHit, &name, 20);
                    let hit = combat::hits(d20, &m, need);
                    let wname = w.clone().unwrap_or_else(|| "attack".into());
                    let blow_note = if blow > 1 {
                        format!(", blow {blow}")
                    } else {
                        String::new()
                    };
                    log.write(LogEvent::new(
                        when,
                        name.clone(),
                        if hit { EventKind::Hit } else { EventKind::Miss },
                        Some(tname.clone()),
                        format!(
                            "{wname}, routine {routine} of {of}{blow_note}: d20 {d20}{} {:+} = {} vs {need} needed for AC {}: {} — {}",
                            if fixed { "" } else { " (rolled)" },
                            m.total(),
                            d20 + m.total(),
                            tac.ac,
                            if hit { "hit" } else { "miss" },
                            entry.why
                        ),
                        entry.rule,
                    ));
                    if !hit {
                        continue;
                    }
                    let damage = match dice.fixed(DieKind::Damage, &name) {
                        Some(v) => v,
                        None => {
                            dmg.roll(|s| dice.random(DieKind::Damage, &name, s))
                                + fighting.damage_bonus
                        }
                    }
                    .max(1);
                    let Ok(mut tq) = q.get_mut(t) else { continue };
                    let before = tq.7.condition;
                    tq.7.current -= damage;
                    let (cond, hrule) = combat::condition(tq.7.current);
                    tq.7.condition = cond;
                    let hp_now = tq.7.current;
                    if cond != before && tq.7.fell_in_round.is_none() {
                        tq.7.fell_in_round = Some(round);
                    }
                    if before.is_up() && !cond.is_up() {
                        fell_at.insert(t, entry.beat);
                    }
                    let casting = tq.9.cloned();
                    log.write(LogEvent::new(
                        when,
                        name.clone(),
                        EventKind::Damage,
                        Some(tname.clone()),
                        format!("{damage} hp ({} → {hp_now})", hp_now + damage),
                        hrule,
                    ));
                    if cond != before {
                        log.write(LogEvent::new(
                            when,
                            tname.clone(),
                            EventKind::Down,
                            Some(name.clone()),
                            match cond {
                                Condition::Dead => format!("dies at {hp_now} hp"),
                                _ => format!("falls unconscious at {hp_now} hp"),
                            },
                            hrule,
                        ));
                    }
                    // A hit on a caster before completion.
                    if let Some(c) = casting
                        && !done.contains(&t)
                        && !ruined.contains(&t)
                        && c.completes >= tick
                    {
                        let (can, crule) = spell::routine_can_disrupt(routine, c.segments);
                        let (ruins, rule) =
                            spell::disrupts(AttackResult::Hit, c.device, !cond.is_up());
                        if can && ruins {
                            ruined.insert(t);
                            if let Ok(tq) = q.get(t) {
                                end_casting(&mut commands, t, &c, tq.6);
                            }
                            log.write(LogEvent::new(
                                when,
                                tname.clone(),
                                EventKind::SpellDisrupted,
                                Some(name.clone()),
                                format!(
                                    "{} is ruined by {name}'s blow before it completes",
                                    c.what
                                ),
                                rule,
                            ));
                        } else if !ruins && c.device {
                            log.write(LogEvent::new(
                                when,
                                tname.clone(),
                                EventKind::Act,
                                Some(name.clone()),
                                format!("{} keeps working despite the hit", c.what),
                                rule,
                            ));
                        } else if !can {
                            log.write(LogEvent::new(
                                when,
                                tname.clone(),
                                EventKind::Act,
                                Some(name.clone()),
                                format!(
                                    "{} is not ruined: only a first routine can disrupt",
                                    c.what
                                ),
                                crule,
                            ));
                        }
                    }
                }
            }
        }
    }
    // Whatever completes now and had no place in the plan (begun in surprise, potions).
    let mut rest: Vec<_> = q
        .iter()
        .filter(|f| f.9.is_some_and(|c| c.completes == tick) && f.7.condition.is_up())
        .filter(|f| !done.contains(&f.0) && !ruined.contains(&f.0))
        .map(|f| (f.1.index, f.0))
        .collect();
    rest.sort();
    for (_, e) in rest {
        let Ok(f) = q.get(e) else { continue };
        let c = f.9.cloned().expect("filtered");
        let rule = if c.potion {
            cite::POTION_DELAY
        } else {
            cite::DECLARE_SPELLS
        };
        complete(
            &mut commands,
            &mut log,
            (round, segment),
            f.1,
            e,
            &c,
            f.6,
            rule,
            "its time is up",
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn complete(
    commands: &mut Commands,
    log: &mut MessageWriter<LogEvent>,
    when: (u32, u32),
    who: &Combatant,
    e: Entity,
    c: &Casting,
    intent: &Intent,
    rule: cite::Rule,
    why: &str,
) {
    log.write(LogEvent::new(
        when,
        who.name.clone(),
        EventKind::SpellComplete,
        c.target.clone(),
        format!(
            "{} {} — {why}",
            if c.potion {
                "takes effect:"
            } else {
                "completes"
            },
            c.what
        ),
        rule,
    ));
    end_casting(commands, e, c, intent);
}
