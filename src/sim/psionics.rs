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
use crate::name::Name;
use crate::rules::combat::Condition;
use crate::rules::psionics::{self as psi, Outcome, PsiEnd, PsiOutcome, PsionicTable};
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
    name: Name,
    /// Its attack mode, target and the target's name, if it attacks.
    attack: Option<(String, Entity, Name)>,
    /// Its defense mode, if it keeps one up.
    defense: Option<String>,
    /// What it could not pay for.
    notes: Vec<String>,
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
        .map(|f| f.figure.name.to_string())
        .collect();
    if !struck.is_empty() {
        let why = crate::words!("{} struck by a mundane attack", struck.join(" and "));
        return end(&mut p, when, PsiEnd::MundaneAttack, why);
    }
    let table = crate::tables::psionics().merged(&scene.psionics);
    let entrants = pay(&mut p, &table, &spec.psionics, when);
    let mut out = Outcomes::default();
    for en in &entrants {
        let defense = en.attack.as_ref().and_then(|(_, target, _)| {
            entrants
                .iter()
                .find(|o| o.e == *target)
                .and_then(|o| o.defense.clone())
        });
        attack(&mut p, (&table, when), en, defense, &mut out);
        blast(&mut p, (&table, when), en, &mut out.deaths);
    }
    land(&mut p, &out, when);
    let fighting = p
        .figures
        .iter()
        .filter(|f| f.hp.condition.is_up() && f.psionic.is_some_and(|s| s.attack > 0))
        .filter(|f| spec.psionics.contains_key(f.figure.name.as_str()))
        .count();
    if let Some((reason, _)) = psi::ends(segment, false, fighting) {
        let why = match reason {
            PsiEnd::Decided => crate::words!("decided: fewer than two psionics can fight on"),
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
    let names: BTreeMap<Name, (Entity, bool)> = p
        .figures
        .iter()
        .map(|f| (f.figure.name.clone(), (f.entity, f.hp.condition.is_up())))
        .collect();
    let mut order: Vec<(usize, Entity)> = p
        .figures
        .iter()
        .map(|f| (f.figure.index, f.entity))
        .collect();
    order.sort();
    let mut out = Vec::new();
    for (_, e) in order {
        let Ok(mut f) = p.figures.get_mut(e) else {
            continue;
        };
        let name = f.figure.name.clone();
        let (Some(list), true) = (choices.get(name.as_str()), f.hp.condition.is_up()) else {
            continue;
        };
        let Some(ps) = f.psionic.as_deref_mut() else {
            continue;
        };
        // A segment past the list keeps the last modes; an empty list (refused by the
        // scene's checks) plays none.
        let Some(ch) = list
            .get((when.1 as usize).saturating_sub(1))
            .or(list.last())
        else {
            continue;
        };
        // The target, while it is up.
        let at = ch
            .at
            .as_ref()
            .and_then(|t| match names.get_key_value(t.as_str()) {
                Some((t, &(te, true))) => Some((te, t.clone())),
                _ => None,
            });
        let before = *ps;
        let en = paid(table, ch, at, ps, (e, name));
        let ev = modes_event(&en, before, *ps, when);
        p.log.write(ev);
        out.push(en);
    }
    out
}

/// One psionic's choice paid out of its strengths `s` (changed in place).
fn paid(
    table: &PsionicTable,
    ch: &PsiChoice,
    at: Option<(Entity, Name)>,
    s: &mut Psionic,
    (e, name): (Entity, Name),
) -> Entrant {
    let mut notes = Vec::new();
    let attack = match (&ch.attack, at) {
        (Some(a), Some((te, t))) => {
            match psi::pay(s.attack, table.attack(a).and_then(|m| m.cost)) {
                Some(left) => {
                    s.attack = left;
                    Some((a.clone(), te, t))
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
    Entrant {
        e,
        name,
        attack,
        defense,
        notes,
    }
}

/// The event of a psionic's modes this segment and what they cost it.
fn modes_event(en: &Entrant, before: Psionic, after: Psionic, when: (u32, u32)) -> LogEvent {
    let spent = (before.attack.saturating_add(before.defense))
        .saturating_sub(after.attack.saturating_add(after.defense));
    let attack = match &en.attack {
        Some((a, _, t)) => crate::words!("{a} at {t}"),
        None => crate::words!("no attack"),
    };
    let defense = match &en.defense {
        Some(d) => crate::words!("defends with {d}"),
        None => crate::words!("undefended"),
    };
    let notes = if en.notes.is_empty() {
        String::new()
    } else {
        crate::words!(" ({})", en.notes.join("; "))
    };
    let text = crate::words!(
        "psionic modes: {attack}, {defense}; {spent} spent, attack {} / defense {} left{notes}",
        after.attack,
        after.defense
    );
    let payload = Payload::PsionicModes {
        attack: en.attack.as_ref().map(|a| a.0.clone()),
        defense: en.defense.clone(),
        spent,
        attack_strength: after.attack,
        defense_strength: after.defense,
    };
    let target = en.attack.as_ref().map(|a| a.2.clone());
    LogEvent::new(
        when,
        en.name.clone(),
        EventKind::Psionic,
        target,
        text,
        crate::rules::cite::PSI_SEGMENT,
    )
    .with(payload)
}

/// What a segment's attacks do, gathered before any of it lands (they are simultaneous).
#[derive(Default)]
struct Outcomes {
    /// Strength points each target loses.
    losses: BTreeMap<Entity, u32>,
    /// Those slain.
    deaths: BTreeSet<Entity>,
}

/// One attack by `en` against its target's `defense`, by the matrix.
fn attack(
    p: &mut PsiPlay,
    (table, when): (&PsionicTable, (u32, u32)),
    en: &Entrant,
    defense: Option<String>,
    out: &mut Outcomes,
) {
    let Some((mode, target, tname)) = &en.attack else {
        return;
    };
    // At a non-psionic the matrix has nothing to meet: the blast's area takes it in and it
    // saves there (`blast`), or, beyond that area, nothing reaches it.
    if p.figures.get(*target).is_ok_and(|f| f.psionic.is_none()) {
        return beyond_area(p, (table, when), en);
    }
    let against = defense.as_deref().unwrap_or("no defense");
    let mut payload = PsionicAttackView {
        attack: mode.clone(),
        defense: defense.clone(),
        ..PsionicAttackView::default()
    };
    let (text, rule) = match table
        .cell(mode, defense.as_deref())
        .map(|c| c.outcome.clone())
    {
        None => {
            payload.outcome = PsiOutcome::Unknown;
            let text = crate::words!(
                "{mode} against {against}: no entry in the psionic table, the DM's to rule"
            );
            (text, crate::rules::cite::PSI_DM_TABLE)
        }
        Some(Outcome::Points(n)) => {
            *out.losses.entry(*target).or_default() += n;
            (payload.outcome, payload.points) = (PsiOutcome::Points, n);
            let text = crate::words!("{mode} against {against}: {tname} loses {n} strength points");
            (text, crate::rules::cite::PSI_MATRIX)
        }
        Some(Outcome::Chance { percent, effect }) => {
            let (d100, _) = p.dice.roll(DieKind::Percent, &en.name, 100);
            let (happens, rule) = psi::chance_happens(percent, d100.clamp(1, 100) as u32);
            if happens && effect == "death" {
                out.deaths.insert(*target);
            }
            let fate = if happens {
                crate::words!("{tname} suffers {effect}")
            } else {
                crate::words!("no effect")
            };
            let text = crate::words!(
                "{mode} against {against}: {percent}% chance of {effect}; d% {d100:02}: {fate}"
            );
            payload.outcome = PsiOutcome::Chance;
            (payload.chance, payload.roll) = (Some(percent), Some(d100));
            payload.effect = happens.then_some(effect);
            (text, rule)
        }
    };
    let ev = LogEvent::new(
        when,
        en.name.clone(),
        EventKind::Psionic,
        Some(tname.clone()),
        text,
        rule,
    );
    p.log.write(ev.with(payload.into()));
}

/// The numbers of one psionic attack, made into its payload.
#[derive(Default)]
struct PsionicAttackView {
    attack: String,
    defense: Option<String>,
    outcome: PsiOutcome,
    points: u32,
    chance: Option<u32>,
    roll: Option<i32>,
    effect: Option<String>,
}

impl From<PsionicAttackView> for Payload {
    fn from(v: PsionicAttackView) -> Payload {
        Payload::PsionicAttack {
            attack: v.attack,
            defense: v.defense,
            outcome: v.outcome,
            points: v.points,
            chance: v.chance,
            roll: v.roll,
            effect: v.effect,
        }
    }
}

/// An attack aimed at a non-psionic standing beyond the mode's area: it is not reached
/// (its save comes only inside the area, DMG p.78). Logged; inside, `blast` saves it.
fn beyond_area(p: &mut PsiPlay, (table, when): (&PsionicTable, (u32, u32)), en: &Entrant) {
    let Some((mode, target, tname)) = &en.attack else {
        return;
    };
    let area = table.attack(mode).and_then(|m| m.area_ft);
    let (Ok(from), Ok(to)) = (p.figures.get(en.e), p.figures.get(*target)) else {
        return;
    };
    let apart = from.pos.distance(to.pos);
    let text = match area {
        Some(a) if apart <= a + 1e-6 => return,
        Some(a) => crate::words!(
            "{mode} at {tname}, who has no psionics, {apart:.0} ft away: beyond its {a:.0}-ft area, not reached"
        ),
        None => crate::words!(
            "{mode} at {tname}, who has no psionics: the mode has no area to reach it"
        ),
    };
    let ev = LogEvent::new(
        when,
        en.name.clone(),
        EventKind::Psionic,
        Some(tname.clone()),
        text,
        crate::rules::cite::PSI_SAVE,
    );
    p.log.write(ev);
}

/// Non-psionics inside an area attack's reach save against it (DMG p.78).
fn blast(
    p: &mut PsiPlay,
    (table, when): (&PsionicTable, (u32, u32)),
    en: &Entrant,
    deaths: &mut BTreeSet<Entity>,
) {
    let Some((mode, _, _)) = &en.attack else {
        return;
    };
    let Some(m) = table.attack(mode).cloned() else {
        return;
    };
    let Some(area) = m.area_ft else { return };
    let Ok(from) = p.figures.get(en.e).map(|f| *f.pos) else {
        return;
    };
    let caught: Vec<(Entity, Name, Option<u32>)> = p
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
fn land(p: &mut PsiPlay, out: &Outcomes, when: (u32, u32)) {
    for (&e, &n) in &out.losses {
        if let Ok(mut f) = p.figures.get_mut(e)
            && let Some(s) = f.psionic.as_deref_mut()
        {
            (s.attack, s.defense) = psi::lose(s.attack, s.defense, n);
        }
    }
    for &e in &out.deaths {
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
fn end(p: &mut PsiPlay, when: (u32, u32), reason: PsiEnd, why: String) {
    p.state.over = true;
    let rule = reason.rule();
    let ev = LogEvent::new(
        when,
        "psionic combat".to_string(),
        EventKind::Psionic,
        None,
        crate::words!("ends: {why}"),
        rule,
    );
    p.log.write(ev.with(Payload::PsionicEnd { reason }));
}
