//! Playing the plan: in each segment the planned blows land and spells, devices and
//! potions complete, in the order the rules core gave. A blow that lands on a caster before
//! completion ruins the spell at once (a device only if its wielder falls), because a
//! completion later in the same segment must already see it. Blows of one beat are
//! simultaneous: a figure felled in that very beat still strikes.
//!
//! [`strike`] plays one attack routine; [`complete`] plays completions.

mod brawl;
mod complete;
mod effect;
mod fumble;
mod gang;
mod hide;
mod into_melee;
mod shove;
mod strike;
mod target;

use super::SegmentClock;
use super::components::*;
use super::dice::Dice;
use super::log::{EventKind, LogEvent};
use super::plan::{Plan, PlanEntry, Planned};
use crate::name::Name;
use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// A figure as blows and completions see it.
#[derive(QueryData)]
#[query_data(mutable)]
pub(super) struct Fighter {
    entity: Entity,
    figure: &'static Combatant,
    side: &'static super::components::Side,
    pos: &'static Position,
    reach: &'static Reach,
    fighting: &'static Fighting,
    weapon: &'static WeaponSpeed,
    intent: &'static Intent,
    hp: &'static mut HitPoints,
    ac: &'static mut ArmorClass,
    rate: &'static mut AttackRate,
    movement: &'static mut MovementRate,
    hit_dice: Option<&'static HitDice>,
    immune: Option<&'static super::components::Immune>,
    not_a_person: Has<super::components::NotAPerson>,
    saving_throw: Option<&'static SavingThrow>,
    slowed: Has<Slowed>,
    hasted: Has<super::components::Hasted>,
    casting: Option<&'static Casting>,
    casting_wounds: &'static mut super::components::CastingWounds,
    cantrips_ruined: Option<&'static super::components::CantripsRuined>,
    casts_in: Option<&'static super::components::CastsInRound>,
    surprised: &'static Surprised,
    dexterity: &'static Dexterity,
    charging: Has<Charging>,
    interposed: Option<&'static Interposed>,
    affected: &'static mut Affected,
    hidden: Has<Hidden>,
    hide_chance: Option<&'static HideChance>,
    disarmed: Option<&'static Disarmed>,
    psionic: Has<Psionic>,
    closing: Option<&'static Closing>,
    contact: Option<&'static ChargeContact>,
    blocked: Option<&'static super::components::Blocked>,
}

/// What playing a segment needs.
#[derive(SystemParam)]
pub(super) struct Play<'w, 's> {
    clock: Res<'w, SegmentClock>,
    scene: Res<'w, super::SimScene>,
    grid: Res<'w, super::MapGrid>,
    sightings: Res<'w, super::sight::Sightings>,
    plan: Res<'w, Plan>,
    dice: ResMut<'w, Dice>,
    figures: Query<'w, 's, Fighter>,
    /// Charge blows waiting for contact: a handful, not every figure each segment.
    due: Query<'w, 's, (Entity, &'static strike::ChargeBlowDue)>,
    commands: Commands<'w, 's>,
    log: MessageWriter<'w, LogEvent>,
}

/// One completed casting whose effect is now applied.
pub(super) struct Completed<'a> {
    /// Round and segment.
    pub when: (u32, u32),
    /// The caster.
    pub caster: Entity,
    /// The caster's name.
    pub name: &'a str,
    /// What completed.
    pub casting: &'a super::components::Casting,
    /// The beat it completed in (a figure it fells still acts in that beat).
    pub beat: Option<usize>,
}

/// What has happened so far in this segment.
#[derive(Default)]
struct Segment {
    /// Completed.
    done: BTreeSet<Entity>,
    /// Ruined.
    ruined: BTreeSet<Entity>,
    /// Felled, and in which beat.
    fell_at: BTreeMap<Entity, usize>,
    /// Lost their weapons to a fumble (their `Disarmed` lands after the segment).
    disarmed: BTreeMap<Entity, super::components::Disarmed>,
    /// Told already in this segment that they strike no more with a lost weapon (once a
    /// segment, however many routines it would have swung).
    said_disarmed: BTreeSet<Entity>,
    /// Figures already said to have no target left standing this segment (once, not once
    /// a routine: an outside tester's archer said it twice).
    said_no_target: BTreeSet<Entity>,
}

/// Run condition: a segment of play (not the encounter step).
pub(super) fn in_a_segment(clock: Res<SegmentClock>) -> bool {
    clock.round_segment().1 > 0
}

/// Plays this segment's entries, then whatever else completes now — but the shots loosed
/// before anyone moves ([`before_movement`]).
pub(super) fn resolve(p: Play) {
    play(p, |e| !is_before_movement(e), true);
}

/// The shots loosed before anything else in segment 1, before anyone moves:
/// - a specialist's shot before initiative (UA p.18), at its target where it stood when
///   the round began — a charger is shot at its starting distance, not one segment nearer;
/// - under the house rule of parting shots, the shots at figures leaving a melee, as they
///   go, so a leaver they fell lies where it stood, and later blows find it gone.
/// - the blows of the side with initiative at foes within reach who move off this round
///   (DMG p.61), struck before they go.
pub(super) fn before_movement(p: Play) {
    play(p, is_before_movement, false);
}

/// Run condition: a shot or blow struck before anyone moves is due this segment.
pub(super) fn shots_before_movement_due(clock: Res<SegmentClock>, plan: Res<Plan>) -> bool {
    let (round, segment) = clock.round_segment();
    segment == 1 && plan.round == round && plan.entries.iter().any(is_before_movement)
}

/// Whether a planned entry is loosed before anyone moves: a shot before initiative, a
/// parting shot, or the winning side's blow at a foe in reach who moves off.
fn is_before_movement(e: &PlanEntry) -> bool {
    use crate::rules::cite::{
        HOUSE_PARTING_SHOT, INITIATIVE_BEFORE_THE_MOVE, MISSILE_BEATS_CHARGE, PRE_INITIATIVE_BOW,
        PRE_INITIATIVE_CROSSBOW,
    };
    // The initial missile fire that beats a charge is loosed as the charge begins, at the
    // range the charger starts from (the table's chart key): its first routine only.
    let initial_shot = e.rule == MISSILE_BEATS_CHARGE
        && e.segment <= 1
        && matches!(e.what, Planned::Strike { routine: 1, .. });
    initial_shot
        || [
            HOUSE_PARTING_SHOT,
            INITIATIVE_BEFORE_THE_MOVE,
            PRE_INITIATIVE_BOW,
            PRE_INITIATIVE_CROSSBOW,
        ]
        .contains(&e.rule)
}

/// Plays this segment's entries that `keep` keeps; with `rest`, also the charge blows due,
/// the charges that make contact sooner, and whatever else completes now.
fn play(mut p: Play, keep: impl Fn(&PlanEntry) -> bool, rest: bool) {
    let (round, segment) = p.clock.round_segment();
    // Segment 0, the very beginning of the round, is played with segment 1. (A second
    // handle on the plan, so its entries are read in place while `p` is used mutably.)
    let plan = Res::clone(&p.plan);
    let entries = plan.entries.iter().filter(|e| {
        plan.round == round && (e.segment == segment || (segment == 1 && e.segment == 0)) && keep(e)
    });
    let mut seg = Segment::default();
    if rest {
        strike::due_charge_blows(&mut p, &mut seg);
    }
    // A charge that makes contact sooner than planned (its target came its way) strikes at
    // contact (DMG p.66), and not again where it was planned.
    let book = p.clock.system == crate::rules::options::RulesSystem::Book;
    let early = |p: &Play, e: &PlanEntry| {
        let charge = matches!(e.what, Planned::Strike { charge: true, .. });
        if !(book && charge) {
            return None;
        }
        let contact = e
            .actor
            .and_then(|a| p.figures.get(a).ok())
            .and_then(|a| a.contact.copied());
        match contact {
            Some(c) if c.0 == round => Some(c.1),
            _ => None,
        }
    };
    // The blow struck back at such a charge (or set against it) comes at the contact too:
    // it meets the charge, wherever the plan had put the arrival (a first-time DM's orc
    // struck back a segment after the charge had hit it).
    let meets = |p: &Play, e: &PlanEntry| {
        let back = [
            crate::rules::cite::CHARGE_REACH,
            crate::rules::cite::CHARGE_SET,
        ];
        if !book
            || !back.contains(&e.rule)
            || matches!(e.what, Planned::Strike { charge: true, .. })
        {
            return None;
        }
        let a = e.actor.and_then(|a| p.figures.get(a).ok())?;
        let charger = a.intent.act.targets().first().map(|n| n.to_string())?;
        let c = p
            .figures
            .iter()
            .find(|f| f.figure.name == charger.as_str() && f.charging)?;
        match c.contact.copied() {
            Some(c) if c.0 == round => Some(c.1),
            _ => None,
        }
    };
    let early = |p: &Play, e: &PlanEntry| early(p, e).or_else(|| meets(p, e));
    let sooner: Vec<&PlanEntry> = plan
        .entries
        .iter()
        .filter(|_| rest)
        .filter(|e| plan.round == round && e.segment > segment)
        .filter(|e| early(&p, e) == Some(segment))
        .collect();
    for entry in sooner {
        let mut at = entry.clone();
        at.segment = segment;
        at.fixed = true;
        if matches!(entry.what, Planned::Strike { charge: true, .. }) {
            at.rule = crate::rules::cite::CHARGE_CONTACT;
            at.why = "the charge makes contact sooner than planned".into();
        } else if entry.rule == crate::rules::cite::CHARGE_SET {
            at.why = crate::words!(
                "set against the charge: strikes first at its contact in segment {segment}, sooner than planned, double damage"
            );
        } else {
            at.why = crate::words!(
                "strikes back at the charge's contact in segment {segment}, sooner than planned"
            );
        }
        if let Some(actor) = entry.actor {
            strike::routine(&mut p, &mut seg, &at, actor);
        }
    }
    for entry in entries {
        let Some(actor) = entry.actor else { continue };
        if early(&p, entry).is_some_and(|c| c < entry.segment) {
            continue;
        }
        let Ok(a) = p.figures.get(actor) else {
            continue;
        };
        // Blows in one beat are simultaneous: one felled in this very beat still strikes,
        // and its line says so (it would read as a blow from the fallen).
        let fallen = !a.hp.condition.is_up();
        if fallen && seg.fell_at.get(&actor) != Some(&entry.beat) {
            continue;
        }
        let same_beat;
        let entry = if fallen {
            let mut e = entry.clone();
            let page = match p.clock.system {
                crate::rules::options::RulesSystem::TakeInitiative => {
                    "Take Initiative! Glossary, a tie"
                }
                _ => "DMG p.63",
            };
            // Held or asleep is not felled: the words say which it was.
            let stopped = match a.hp.condition {
                crate::rules::combat::Condition::Held => "what held it",
                crate::rules::combat::Condition::Asleep => "what put it to sleep",
                _ => "what felled it",
            };
            e.why = crate::words!(
                "{} — at the same moment as {stopped}: simultaneous, both happen ({page})",
                entry.why
            );
            same_beat = e;
            &same_beat
        } else {
            entry
        };
        match &entry.what {
            Planned::Complete { what } => complete::planned(&mut p, &mut seg, entry, actor, what),
            Planned::Strike { .. } => strike::routine(&mut p, &mut seg, entry, actor),
            Planned::Turn => {
                let name = a.figure.name.clone();
                let what = "turns undead (its outcome is not modelled)";
                acts(&mut p, entry, name, what);
            }
            Planned::Act { what } => {
                let name = a.figure.name.clone();
                acts(&mut p, entry, name, what);
            }
            Planned::Shove { .. } => shove::shove(&mut p, entry, actor),
            Planned::Hide => hide::hide(&mut p, entry, actor),
        }
    }
    if rest {
        complete::the_rest(&mut p, &mut seg);
    }
}

/// Whether figure `who`'s own spell or device completes in `beat`: a blow or effect on
/// it in that very beat is simultaneous with the completion, and both happen (DMG p.63;
/// "Take Initiative!" Glossary, a tie) — whichever of the two the log names first.
pub(super) fn completes_in_beat(p: &Play, who: Entity, beat: usize) -> bool {
    p.plan
        .entries
        .iter()
        .any(|e| e.by(who) && e.beat == beat && matches!(e.what, Planned::Complete { .. }))
}

/// Logs an act the plan placed (turning undead, a non-combat act), with why it falls here.
fn acts(p: &mut Play, entry: &PlanEntry, name: Name, what: &str) {
    let text = crate::words!("{what} — {}", entry.why);
    act_event(p, entry, (name, None), text, entry.rule);
}

/// Logs what `who` (and at whom) did in a planned entry's segment, by this rule.
fn act_event(
    p: &mut Play,
    entry: &PlanEntry,
    (who, at): (Name, Option<Name>),
    text: String,
    rule: crate::rules::cite::Rule,
) {
    p.log.write(
        LogEvent::new(
            (p.plan.round, entry.segment),
            who,
            EventKind::Act,
            at,
            text,
            rule,
        )
        .placed(entry.fixed),
    );
}
