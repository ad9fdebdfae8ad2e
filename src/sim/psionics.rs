//! Psionic combat in a round, segment by segment (section V; the rules are in
//! [`crate::rules::psionics`], the tables in `assets/psionics.ron` and the scene's own
//! `psionics`). Each round's `psionics` give every psionic's modes a segment. In each
//! segment, after the blows: if a mundane attack struck a psionic in it, the psionic
//! combat ends there; otherwise every psionic pays for its modes, every attack meets its
//! target's defense at once and non-psionics in a blast's area save; then the losses and
//! deaths land together, and the combat ends when it is decided or after ten segments.

use super::SegmentClock;
use super::components::*;
use super::dice::Dice;
use super::log::{EventKind, LogEvent, Payload};
use crate::rules::combat::Condition;
use crate::rules::psionics::{self as psi, Outcome, PsionicTable};
use crate::scene::{DieKind, PsiChoice};
use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Where the psionic combat of the current round stands.
#[derive(Resource, Clone, Debug, Default)]
pub struct PsionicState {
    /// The round it belongs to.
    pub round: u32,
    /// It has ended this round.
    pub over: bool,
}

/// A figure as psionic combat sees it.
#[derive(QueryData)]
#[query_data(mutable)]
pub(super) struct PsiFigure {
    entity: Entity,
    figure: &'static Combatant,
    pos: &'static Position,
    hp: &'static mut HitPoints,
    psionic: Option<&'static mut Psionic>,
    save: Option<&'static SaveVsPsionics>,
    struck: Option<&'static MundaneHit>,
}

/// What a segment of psionic combat needs.
#[derive(SystemParam)]
pub(super) struct PsiPlay<'w, 's> {
    clock: Res<'w, SegmentClock>,
    scene: Res<'w, super::SimScene>,
    dice: ResMut<'w, Dice>,
    state: ResMut<'w, PsionicState>,
    figures: Query<'w, 's, PsiFigure>,
    log: MessageWriter<'w, LogEvent>,
}

/// Run condition: the scene has psionics.
pub(super) fn any_psionic(q: Query<(), With<Psionic>>) -> bool {
    !q.is_empty()
}

/// One psionic's part in this segment, after paying for its modes.
struct Entrant {
    e: Entity,
    name: String,
    attack: Option<(String, Entity, String)>,
    defense: Option<String>,
}

/// Plays this segment of the round's psionic combat.
pub(super) fn psionic_segment(mut p: PsiPlay) {
    let (round, segment) = p.clock.round_segment();
    if p.state.round != round {
        *p.state = PsionicState { round, over: false };
    }
    let scene = p.scene.0.clone();
    let Some(spec) = scene.rounds.get(round as usize - 1) else {
        return;
    };
    if p.state.over || spec.psionics.is_empty() {
        return;
    }
    let when = (round, segment);
    let struck: Vec<String> = p
        .figures
        .iter()
        .filter(|f| f.psionic.is_some() && f.struck.is_some_and(|s| (s.0, s.1) == when))
        .map(|f| f.figure.name.clone())
        .collect();
    if !struck.is_empty() {
        let why = crate::words!("{} struck by a mundane attack", struck.join(" and "));
        return end(&mut p, when, "mundane_attack", why);
    }
    let table = crate::tables::psionics().merged(&scene.psionics);
    let entrants = pay(&mut p, &table, &spec.psionics, when);
    let mut losses: BTreeMap<Entity, u32> = BTreeMap::new();
    let mut deaths: BTreeSet<Entity> = BTreeSet::new();
    for en in &entrants {
        if let Some((mode, target, tname)) = &en.attack {
            let defense = entrants
                .iter()
                .find(|o| o.e == *target)
                .and_then(|o| o.defense.clone());
            attack(
                &mut p,
                &table,
                (en, mode, tname),
                defense,
                (&mut losses, &mut deaths),
                *target,
                when,
            );
            blast(&mut p, &table, en, mode, &mut deaths, when);
        }
    }
    land(&mut p, &losses, &deaths, when);
    let fighting = p
        .figures
        .iter()
        .filter(|f| f.hp.condition.is_up() && f.psionic.is_some_and(|s| s.attack > 0))
        .filter(|f| spec.psionics.contains_key(&f.figure.name))
        .count();
    if let Some((reason, _)) = psi::ends(segment, false, fighting) {
        let why = match reason {
            "decided" => crate::words!("decided: fewer than two psionics can fight on"),
            _ => crate::words!("ten segments have passed"),
        };
        end(&mut p, when, reason, why);
    }
}

/// Each psionic still up picks this segment's modes (its last entry past the end of its
/// list) and pays for them; what it cannot pay for it does without. Logged.
fn pay(
    p: &mut PsiPlay,
    table: &PsionicTable,
    choices: &BTreeMap<String, Vec<PsiChoice>>,
    when: (u32, u32),
) -> Vec<Entrant> {
    let names: BTreeMap<String, (Entity, bool)> = p
        .figures
        .iter()
        .map(|f| (f.figure.name.clone(), (f.entity, f.hp.condition.is_up())))
        .collect();
    let mut out = Vec::new();
    let mut order: Vec<(usize, Entity)> = p
        .figures
        .iter()
        .map(|f| (f.figure.index, f.entity))
        .collect();
    order.sort();
    for (_, e) in order {
        let Ok(mut f) = p.figures.get_mut(e) else {
            continue;
        };
        let name = f.figure.name.clone();
        let (Some(list), true) = (choices.get(&name), f.hp.condition.is_up()) else {
            continue;
        };
        let Some(mut s) = f.psionic.as_deref().copied() else {
            continue;
        };
        let ch = &list[(when.1 as usize - 1).min(list.len().saturating_sub(1))];
        let before = s.attack + s.defense;
        let mut notes = Vec::new();
        let attack = match (
            &ch.attack,
            ch.at.as_ref().and_then(|t| names.get(t).map(|x| (t, x))),
        ) {
            (Some(a), Some((t, &(te, true)))) => {
                match psi::pay(s.attack, table.attack(a).and_then(|m| m.cost)) {
                    Some(left) => {
                        s.attack = left;
                        Some((a.clone(), te, t.clone()))
                    }
                    None => {
                        notes.push(crate::words!("too weak to pay for {a}"));
                        None
                    }
                }
            }
            _ => None,
        };
        let defense = ch.defense.as_ref().and_then(|d| {
            match psi::pay(s.defense, table.defense(d).and_then(|m| m.cost)) {
                Some(left) => {
                    s.defense = left;
                    Some(d.clone())
                }
                None => {
                    notes.push(crate::words!("too weak to keep up {d}: undefended"));
                    None
                }
            }
        });
        if let Some(ps) = f.psionic.as_deref_mut() {
            *ps = s;
        }
        let spent = before - (s.attack + s.defense);
        let text = crate::words!(
            "psionic modes: {} against {}, {}; {spent} spent, attack {} / defense {} left{}",
            attack
                .as_ref()
                .map_or("no attack".to_string(), |a| a.0.clone()),
            attack
                .as_ref()
                .map_or("no one".to_string(), |a| a.2.clone()),
            defense
                .as_deref()
                .map_or("undefended".to_string(), |d| format!("defends with {d}")),
            s.attack,
            s.defense,
            if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join("; "))
            }
        );
        let payload = Payload::PsionicModes {
            attack: attack.as_ref().map(|a| a.0.clone()),
            defense: defense.clone(),
            spent,
            attack_strength: s.attack,
            defense_strength: s.defense,
        };
        let target = attack.as_ref().map(|a| a.2.clone());
        let ev = LogEvent::new(
            when,
            name.clone(),
            EventKind::Psionic,
            target,
            text,
            crate::rules::cite::PSI_SEGMENT,
        );
        p.log.write(ev.with(payload));
        out.push(Entrant {
            e,
            name,
            attack,
            defense,
        });
    }
    out
}

/// One attack against its target's defense, by the matrix.
fn attack(
    p: &mut PsiPlay,
    table: &PsionicTable,
    (en, mode, tname): (&Entrant, &str, &str),
    defense: Option<String>,
    (losses, deaths): (&mut BTreeMap<Entity, u32>, &mut BTreeSet<Entity>),
    target: Entity,
    when: (u32, u32),
) {
    let against = defense.as_deref().unwrap_or("no defense");
    let cell = table.cell(mode, defense.as_deref()).cloned();
    let (text, payload, rule) = match cell.map(|c| c.outcome) {
        None => (
            crate::words!(
                "{mode} against {against}: no entry in the psionic table, the DM's to rule"
            ),
            psi_payload(mode, &defense, "unknown", 0, None, None, None),
            crate::rules::cite::PSI_DM_TABLE,
        ),
        Some(Outcome::Points(n)) => {
            *losses.entry(target).or_default() += n;
            (
                crate::words!("{mode} against {against}: {tname} loses {n} strength points"),
                psi_payload(mode, &defense, "points", n, None, None, None),
                crate::rules::cite::PSI_MATRIX,
            )
        }
        Some(Outcome::Chance { percent, effect }) => {
            let (d100, _) = p.dice.roll(DieKind::Percent, &en.name, 100);
            let (happens, rule) = psi::chance_happens(percent, d100.clamp(1, 100) as u32);
            if happens && effect == "death" {
                deaths.insert(target);
            }
            (
                crate::words!(
                    "{mode} against {against}: {percent}% chance of {effect}; d% {d100:02}: {}",
                    if happens {
                        format!("{tname} suffers {effect}")
                    } else {
                        "no effect".to_string()
                    }
                ),
                psi_payload(
                    mode,
                    &defense,
                    "chance",
                    0,
                    Some(percent),
                    Some(d100),
                    happens.then_some(effect),
                ),
                rule,
            )
        }
    };
    let ev = LogEvent::new(
        when,
        en.name.clone(),
        EventKind::Psionic,
        Some(tname.to_string()),
        text,
        rule,
    );
    p.log.write(ev.with(payload));
}

/// The payload of one psionic attack.
fn psi_payload(
    mode: &str,
    defense: &Option<String>,
    outcome: &str,
    points: u32,
    chance: Option<u32>,
    roll: Option<i32>,
    effect: Option<String>,
) -> Payload {
    Payload::PsionicAttack {
        attack: mode.to_string(),
        defense: defense.clone(),
        outcome: outcome.to_string(),
        points,
        chance,
        roll,
        effect,
    }
}

/// Non-psionics inside an area attack's reach save against it (DMG p.78).
fn blast(
    p: &mut PsiPlay,
    table: &PsionicTable,
    en: &Entrant,
    mode: &str,
    deaths: &mut BTreeSet<Entity>,
    when: (u32, u32),
) {
    let Some(m) = table.attack(mode).cloned() else {
        return;
    };
    let Some(area) = m.area_ft else { return };
    let Ok(from) = p.figures.get(en.e).map(|f| *f.pos) else {
        return;
    };
    let caught: Vec<(Entity, String, Option<u32>)> = p
        .figures
        .iter()
        .filter(|f| f.psionic.is_none() && f.hp.condition.is_up())
        .filter(|f| f.pos.distance(&from) <= area + 1e-6)
        .map(|f| (f.entity, f.figure.name.clone(), f.save.map(|s| s.0)))
        .collect();
    for (e, name, needed) in caught {
        let (text, roll, saved) = match needed {
            None => (
                crate::words!("in the {mode}'s area with no save given: the DM rules (DMG p.78)"),
                None,
                false,
            ),
            Some(n) => {
                let (d20, _) = p.dice.roll(DieKind::Save, &name, 20);
                let (ok, _) = psi::saves(d20.clamp(1, 20) as u32, n);
                let fate = match (&m.on_failed_save, ok) {
                    (_, true) => "saves".to_string(),
                    (Some(f), false) => format!("fails: {f}"),
                    (None, false) => "fails: the DM rules its effect".to_string(),
                };
                (
                    crate::words!("in the {mode}'s area: d20 {d20} vs {n} needed: {fate}"),
                    Some(d20),
                    ok,
                )
            }
        };
        if !saved && needed.is_some() && m.on_failed_save.as_deref() == Some("death") {
            deaths.insert(e);
        }
        let ev = LogEvent::new(
            when,
            name,
            EventKind::Psionic,
            Some(en.name.clone()),
            text,
            crate::rules::cite::PSI_SAVE,
        );
        p.log.write(ev.with(Payload::PsionicSave {
            needed,
            roll,
            saved,
        }));
    }
}

/// The segment's losses and deaths land together.
fn land(
    p: &mut PsiPlay,
    losses: &BTreeMap<Entity, u32>,
    deaths: &BTreeSet<Entity>,
    when: (u32, u32),
) {
    for (&e, &n) in losses {
        if let Ok(mut f) = p.figures.get_mut(e)
            && let Some(s) = f.psionic.as_deref_mut()
        {
            (s.attack, s.defense) = psi::lose(s.attack, s.defense, n);
        }
    }
    for &e in deaths {
        let Ok(mut f) = p.figures.get_mut(e) else {
            continue;
        };
        if f.hp.condition == Condition::Dead {
            continue;
        }
        f.hp.condition = Condition::Dead;
        f.hp.fell_in_round.get_or_insert(when.0);
        let (name, hp) = (f.figure.name.clone(), f.hp.current);
        let ev = LogEvent::new(
            when,
            name,
            EventKind::Down,
            None,
            crate::words!("dies of a psionic attack"),
            crate::rules::cite::PSI_MATRIX,
        );
        p.log.write(ev.with(Payload::Down { hp, dead: true }));
    }
}

/// The psionic combat ends this segment, for this reason.
fn end(p: &mut PsiPlay, when: (u32, u32), reason: &str, why: String) {
    p.state.over = true;
    let rule = if reason == "decided" {
        crate::rules::cite::PSI_SEGMENT
    } else {
        crate::rules::cite::PSI_END
    };
    let ev = LogEvent::new(
        when,
        "psionic combat".to_string(),
        EventKind::Psionic,
        None,
        crate::words!("ends: {why}"),
        rule,
    );
    p.log.write(ev.with(Payload::PsionicEnd {
        reason: reason.to_string(),
    }));
}
