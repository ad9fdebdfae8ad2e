//! Planning a round under "Take Initiative!" (rules::take_initiative): each figure rolls
//! its own d10 (or takes the scene's), adds the Appendix B rows of its action, and acts on
//! that ordering segment of 20 — a total over 20 carries into the next round at total − 20
//! without a roll. Movement is spread over the round so that a mover arrives on its total;
//! a charge strikes on its total, and the charged figure strikes back there, the longer
//! weapon first (§9a); a spell is begun at the round's start and goes off on the total.

mod block;
mod change;
mod expect;
mod flee;
mod leaving;
mod out_of_melee;
mod parry;
mod ranged;
mod withdraw;

pub(in crate::sim) use change::{change_actions, in_a_round};

use super::{
    Changes, Fig, Plan, PlanEntry, Planned, Planning, everyone, first_standing, gap, idle,
};
use crate::rules::charge::charge_feet_per_round;
use crate::rules::cite::{self, Rule};
use crate::rules::movement::feet_per_round;
use crate::rules::take_initiative::action::{self, Action, missile_speed};
use crate::rules::take_initiative::combine::{Refusal, combine, may_charge};
use crate::rules::take_initiative::{
    Total, acts_at, acts_at_round_end, acts_at_whole_round, charge as ti_charge, takes_the_round,
};
use crate::scene::{Act, DieKind, RoundSpec};
use crate::sim::components::{
    BaseInitiative, CarriedInitiative, Casting, Closing, Fleeing, PursuitBurst,
};
use crate::sim::dice::Dice;
use crate::sim::log::{EventKind, LogEvent, Payload};
use crate::sim::plan::MoveTo;
use crate::sim::{SegmentClock, SimScene};
use crate::tables;
use bevy::prelude::*;
use std::collections::BTreeMap;

/// Run condition: the scene is played under "Take Initiative!".
pub(in crate::sim) fn under_take_initiative(scene: Res<SimScene>) -> bool {
    scene.0.rules.system == crate::rules::options::RulesSystem::TakeInitiative
}

/// Run condition: the scene is played under the book's system.
pub(in crate::sim) fn under_the_book(scene: Res<SimScene>) -> bool {
    !under_take_initiative(scene)
}

/// A round being planned under "Take Initiative!".
struct Build<'a, 'w> {
    figs: &'a [Fig<'w>],
    clock: &'a SegmentClock,
    round: u32,
    when: (u32, u32),
    setting: crate::rules::distance::Setting,
    alternating: crate::rules::options::AlternatingRate,
    come_together: ti_charge::ComeTogether,
    /// The readings in force.
    rules: crate::rules::options::RulesOptions,
    events: Vec<LogEvent>,
    changes: Changes,
    /// What is planned: (segment, order within the segment, entry).
    slots: Vec<(u32, i64, PlanEntry)>,
    /// Each acting figure's segment this round.
    acts: BTreeMap<usize, u32>,
    /// Each figure's d10 this round (carried figures have none).
    bases: BTreeMap<usize, u32>,
    /// Figures attacking several melee targets, with their totals: they strike at the
    /// round's end, lower totals first (App. B, Weapon).
    round_end: BTreeMap<usize, i64>,
    /// Figures whose total is below 1, with their order in segment 1: the lower total
    /// still acts first (Glossary, "Win Initiative").
    early: BTreeMap<usize, i64>,
    /// Each charger's contact segment.
    contacts: BTreeMap<usize, u32>,
    /// The moves this round (§11b reads them).
    moves: Vec<super::TiMove>,
    /// The extra Appendix B rows each figure took this round.
    extra: BTreeMap<usize, Vec<String>>,
    /// Figures with a minor action this round: one attack, not several (App. A, note 4).
    one_attack: Vec<usize>,
    /// Fleers that gained on their pursuers this round (§5).
    bursts: Vec<usize>,
    /// Figures charging this round (§9: once a turn).
    charging_now: Vec<usize>,
    /// Figures running from their foes this round.
    fleeing: Vec<usize>,
    /// Figures whose answer to an expected foe carries into the next round, on this
    /// segment (§2).
    carry: Vec<(usize, u32)>,
    /// What a figure's second strike of the round is made as (a weapon hurled on the
    /// charge, §9h), by name.
    then: BTreeMap<String, Act>,
}

impl<'a, 'w> Build<'a, 'w> {
    /// A build for these figures at `when`.
    fn new(
        figs: &'a [Fig<'w>],
        clock: &'a SegmentClock,
        scene: &crate::scene::Scene,
        when: (u32, u32),
    ) -> Build<'a, 'w> {
        Build {
            figs,
            clock,
            round: when.0,
            when,
            setting: scene.setting,
            alternating: scene.rules.alternating_rate,
            come_together: scene.rules.come_together,
            rules: scene.rules,
            events: Vec::new(),
            changes: Changes::default(),
            slots: Vec::new(),
            acts: BTreeMap::new(),
            bases: BTreeMap::new(),
            round_end: BTreeMap::new(),
            early: BTreeMap::new(),
            contacts: BTreeMap::new(),
            moves: Vec::new(),
            extra: BTreeMap::new(),
            one_attack: Vec::new(),
            bursts: Vec::new(),
            charging_now: Vec::new(),
            fleeing: Vec::new(),
            carry: Vec::new(),
            then: BTreeMap::new(),
        }
    }
}

impl Build<'_, '_> {
    /// The figures acting this round whose declaration is of this kind, with their
    /// segments.
    fn acting(&self, kind: impl Fn(&Act) -> bool) -> Vec<(usize, u32)> {
        self.acts
            .iter()
            .filter(|(i, _)| kind(self.figs[**i].act))
            .map(|(&i, &s)| (i, s))
            .collect()
    }
}

/// A book scene's second actions (`then:`) played under this variant
/// (`run --system`, `compare`): a round has one normal action here (App. A), so they are
/// not played — and the log says so, rather than drop them in silence. (A scene written
/// for this variant has them refused by its checks.)
fn second_actions_not_played(b: &mut Build, spec: Option<&RoundSpec>) {
    for who in spec.map(|r| r.then.keys()).into_iter().flatten() {
        let Some(f) = b.figs.iter().find(|f| f.name() == who.as_str()) else {
            continue;
        };
        let why = "its second action (then:) is not played: one normal action a round under this variant; a minor one goes in the round's modifiers".to_string();
        b.events
            .push(idle(b.when, f, None, why, cite::TI_ONE_ACTION));
    }
}

/// Plans the round at its first segment.
pub(in crate::sim) fn plan_round(mut p: Planning) {
    let (round, _) = p.clock.round_segment();
    let scene = p.scene.0.clone();
    // A move out of melee is played as the withdrawal or flight it is (§4, §6).
    let moved_off = out_of_melee::played_as(&everyone(&p.figures), scene.setting);
    let mut figs = everyone(&p.figures);
    for (f, m) in figs.iter_mut().zip(&moved_off) {
        if let Some(m) = m {
            f.act = &m.act;
        }
    }
    let spec = scene.rounds.get(round as usize - 1);
    let clock = p.clock.clone();
    let mut b = Build::new(&figs, &clock, &scene, (round, 0));
    for (i, m) in moved_off.iter().enumerate() {
        if let Some(m) = m {
            b.events.push(out_of_melee::said((round, 0), &figs, i, m));
        }
    }
    second_actions_not_played(&mut b, spec);
    for (i, f) in figs.iter().enumerate() {
        if f.up() {
            initiative(&mut b, i, spec, &mut p.dice, &mut p.commands);
        }
    }
    let acting: Vec<(usize, u32)> = b.acts.iter().map(|(&i, &s)| (i, s)).collect();
    for (i, s) in acting {
        act(&mut b, i, s, &mut p.dice);
    }
    expect::answers(&mut b, &mut p.dice);
    withdraw::withdrawals(&mut b);
    contact(&mut b);
    let parries = parry::parries(&b);
    let entries = entries(std::mem::take(&mut b.slots));
    let engaged: Vec<Entity> = (0..figs.len())
        .filter(|&i| engaged(&b, i).is_err())
        .map(|i| figs[i].e)
        .collect();
    for e in b.events {
        p.log.write(e);
    }
    *p.plan = Plan {
        round,
        initiative: BTreeMap::new(),
        entries,
        parries,
        moves: std::mem::take(&mut b.moves),
        flights: b
            .fleeing
            .iter()
            .filter_map(|i| Some((figs[*i].e, *b.acts.get(i)?)))
            .collect(),
        then: std::mem::take(&mut b.then),
        engaged,
        ..Plan::default()
    };
    for (i, f) in figs.iter().enumerate() {
        let mut e = p.commands.entity(f.e);
        // A spell begun or under way this round: no Dexterity AC this round (§9d).
        let spell = |c: &Casting| !c.device && !c.potion;
        let planned = b.changes.casting.get(&i).and_then(Option::as_ref);
        if planned.is_some_and(spell) || (planned.is_none() && f.casting.is_some_and(spell)) {
            e.insert(crate::sim::components::CastsInRound(round));
        }
        if b.fleeing.contains(&i) {
            e.insert(Fleeing);
        } else if f.fleeing {
            e.remove::<Fleeing>();
        }
        if b.bursts.contains(&i) {
            e.insert(PursuitBurst(round));
        }
        if b.charging_now.contains(&i) {
            e.insert(crate::sim::components::LastCharge(round));
        }
        if let Some(&(_, s)) = b.carry.iter().find(|(k, _)| *k == i) {
            e.insert(CarriedInitiative(s));
        }
        // Declared anew, it leaves what its old declaration had it doing — a charge or a
        // close from the surprise segments not yet arrived, a walk to a point — and does
        // only what its new action sets going.
        if spec.is_some_and(|s| s.declare.contains_key(&**f.name())) {
            if f.closing.is_some() {
                b.changes.closing.entry(i).or_insert(None);
            }
            if !b.changes.moving_to.contains_key(&i) {
                e.remove::<MoveTo>();
            }
        }
    }
    b.changes.apply(&mut p.commands, &figs, true);
}

/// Figure `i`'s total this round, logged; a total over 20 carries over.
fn initiative(
    b: &mut Build,
    i: usize,
    spec: Option<&RoundSpec>,
    dice: &mut Dice,
    commands: &mut Commands,
) {
    let f = &b.figs[i];
    let (total, die, detail) = match f.carried() {
        Some(s) => (
            {
                commands.entity(f.e).remove::<BaseInitiative>();
                i64::from(s)
            },
            None,
            format!("acts on {s}, carried over from last round without a roll"),
        ),
        None => {
            let fixed = spec
                .and_then(|r| r.initiative.get(f.name().as_str()))
                .copied();
            let base =
                fixed.unwrap_or_else(|| dice.roll(DieKind::Initiative, f.name(), 10).0 as u32);
            let base = base.clamp(1, 10);
            b.bases.insert(i, base);
            commands.entity(f.e).insert(BaseInitiative(base));
            let costed = costed(b, i);
            if let Some((total, detail)) = from_surprise(b, f, base) {
                (total, Some(base), detail)
            } else if let Some((total, detail)) = long_spell(f, base) {
                (total, Some(base), detail)
            } else {
                let mut mods = action::modifiers(tables::take_initiative(), costed).0;
                crate::rules::take_initiative::spell::without_cards(
                    &mut mods,
                    costed,
                    b.rules.spell_cards,
                );
                mods.extend(combined_rows(b, i, spec, costed));
                crate::rules::take_initiative::spell::from_scroll(&mut mods);
                mods.extend(several_targets(b, i));
                let t = Total::new(base, mods);
                (t.value(), Some(base), t.describe())
            }
        }
    };
    let f = &b.figs[i];
    let spread = spreads(f);
    let (at, rule) = if takes_whole_round(b, i) {
        acts_at_whole_round()
    } else if spread {
        b.round_end.insert(i, total);
        acts_at_round_end(total)
    } else {
        acts_at(total)
    };
    // A spell of several rounds goes off rounds later, not next round (App. B, Magic).
    let when = match at.rounds_later {
        0 => format!("segment {}", at.segment),
        1 => format!("next round, segment {}", at.segment),
        n => format!(
            "{n} rounds on (round {}), segment {}",
            b.round + n,
            at.segment
        ),
    };
    b.events.push(
        LogEvent::new(
            b.when,
            f.name(),
            EventKind::Initiative,
            None,
            format!("{detail} → {when}"),
            rule,
        )
        .with(Payload::TakeInitiative {
            total,
            die,
            rounds_later: at.rounds_later,
            segment: at.segment,
        }),
    );
    if at.rounds_later > 0 {
        let next = at.segment + crate::rules::take_initiative::SEGMENTS * (at.rounds_later - 1);
        commands.entity(f.e).insert(CarriedInitiative(next));
        // A spell is under way from this round's start, to go off in a later round; one
        // begun in the surprise goes on, now timed in ordering segments.
        if let Act::Cast { spell, target, .. } = f.act {
            let when = (b.round + at.rounds_later, at.segment);
            match begun_in_surprise(b, f) {
                Some(mut c) => {
                    c.completes = b.clock.tick_of(when.0, when.1);
                    b.changes.casting.insert(i, Some(c));
                }
                // Under way from an earlier round (a spell of more than a round): it goes
                // on, not begun again (an outside tester's summoning "began" each round).
                None if f.casting.is_some_and(|c| c.what == *spell) => {}
                None => {
                    let c = casting(b, spell, (target.clone(), f.act.point()), when);
                    begins(b, i, &c, when);
                    b.changes.casting.insert(i, Some(c));
                }
            }
        }
    } else {
        if f.carried().is_some() {
            commands.entity(f.e).remove::<CarriedInitiative>();
        }
        if total < 1 && !spread {
            b.early.insert(i, total - 1);
        }
        b.acts.insert(i, at.segment);
    }
}

/// The spell figure `f` is casting, when it began it in a surprise segment (by the book's
/// time: the surprise comes before the variant's rounds, §2).
fn begun_in_surprise(b: &Build, f: &Fig) -> Option<Casting> {
    let Act::Cast { spell, .. } = f.act else {
        return None;
    };
    f.casting
        .filter(|c| &c.what == spell && b.clock.moment_of(c.started).0 == 0)
        .cloned()
}

/// A spell begun in the surprise and still being cast: its total from the book segments it
/// has left, whatever the d10, and the words for it; none for any other action.
fn from_surprise(b: &Build, f: &Fig, base: u32) -> Option<(i64, String)> {
    let c = begun_in_surprise(b, f)?;
    // The surprise planned its end in book segments from this round's start.
    let left = c.completes.checked_sub(b.clock.tick_of(b.round, 0))?;
    let (total, rule) = crate::rules::take_initiative::spell::from_surprise_total(left);
    let detail = format!(
        "d10 {base}, not counted: {} was begun in the surprise and has {left} segment{} to go, two ordering segments each ({}) = {total}",
        c.what,
        if left == 1 { "" } else { "s" },
        rule.page_ref()
    );
    Some((total, detail))
}

/// A spell of more than a round keeps its own time (App. B), whatever the d10: its total
/// and the words for it, or none for any other action.
fn long_spell(f: &Fig, base: u32) -> Option<(i64, String)> {
    let Act::Cast {
        spell,
        segments,
        device,
        ..
    } = f.act
    else {
        return None;
    };
    let (book, is_device, _) = super::spell_info(spell, *segments, *device);
    if is_device {
        return None;
    }
    let (total, rule) = crate::rules::take_initiative::spell::long_spell_total(book)?;
    let detail = format!(
        "d10 {base}, not counted: {spell} takes {book} segments, over a round, and keeps its own time ({}) = {total}",
        rule.page_ref()
    );
    Some((total, detail))
}

/// The extra Appendix B rows the scene gives figure `i` this round (`rounds[].modifiers`),
/// noted on the build for the contact rule.
fn extra_rows(
    b: &mut Build,
    i: usize,
    spec: Option<&RoundSpec>,
    action: Action,
) -> Vec<crate::rules::take_initiative::Modifier> {
    let f = &b.figs[i];
    let ids = spec
        .and_then(|r| r.modifiers.get(f.name().as_str()))
        .cloned()
        .unwrap_or_default();
    let ctx = crate::rules::take_initiative::ModifierContext {
        weapon_speed: f.weapon.speed_factor.map(|s| s as i32),
        spell_level: match action {
            Action::Cast { level } => Some(level),
            _ => None,
        },
        targets: f.act.targets().len() as u32,
        iaijutsu: f.weapon.iaijutsu,
    };
    let rows = ids
        .iter()
        .filter_map(|id| {
            crate::rules::take_initiative::modifier(tables::take_initiative(), id, &ctx).ok()
        })
        .collect();
    b.extra.insert(i, ids);
    rows
}

/// The extra rows, if they go together with the figure's action (Appendix A-B, Glossary):
/// a minor action leaves it one attack; a combination that does not go together (a move
/// found to be over half the movement beside another normal action) is refused in the log
/// and the action is played without the extra rows.
fn combined_rows(
    b: &mut Build,
    i: usize,
    spec: Option<&RoundSpec>,
    action: Action,
) -> Vec<crate::rules::take_initiative::Modifier> {
    let rows = extra_rows(b, i, spec, action);
    let ids: Vec<&str> = b
        .extra
        .get(&i)
        .map_or(Vec::new(), |v| v.iter().map(String::as_str).collect());
    match combine(tables::take_initiative(), action, &ids) {
        Ok((c, _)) => {
            if c.one_attack {
                b.one_attack.push(i);
            }
            rows
        }
        Err(refusal) => {
            let f = &b.figs[i];
            let why = format!("cannot take {}: {}", ids.join(", "), refusal.describe());
            b.events.push(idle(b.when, f, None, why, refusal.rule()));
            b.extra.remove(&i);
            Vec::new()
        }
    }
}

/// Whether a figure attacks several melee targets at once (App. B, Weapon).
/// Whether figure `i`'s rows take the whole round (standing up, App. B, Movement).
fn takes_whole_round(b: &Build, i: usize) -> bool {
    b.extra.get(&i).is_some_and(|ids| {
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        takes_the_round(tables::take_initiative(), &ids).is_some()
    })
}

fn spreads(f: &Fig) -> bool {
    matches!(f.act, Act::Melee { .. })
        && crate::rules::take_initiative::multiple_targets(f.act.targets().len()).is_some()
}

/// The "multiple melee targets" row for a melee that names several targets, +1 for each,
/// unless the scene gave it among the round's rows already.
fn several_targets(b: &Build, i: usize) -> Option<crate::rules::take_initiative::Modifier> {
    let f = &b.figs[i];
    let given = b
        .extra
        .get(&i)
        .is_some_and(|ids| ids.iter().any(|id| id == "multiple_targets"));
    if !spreads(f) || given {
        return None;
    }
    let ctx = crate::rules::take_initiative::ModifierContext {
        targets: f.act.targets().len() as u32,
        ..Default::default()
    };
    crate::rules::take_initiative::modifier(tables::take_initiative(), "multiple_targets", &ctx)
        .ok()
}

/// Why figure `i` has no weapon to swing in segment `s`, if it has none, with the rule
/// ([`ti_charge::no_weapon_in_hand`], from its rows and whether its total has come).
fn no_weapon_in_hand(b: &Build, i: usize, s: u32) -> Option<(&'static str, Rule)> {
    let rows: Vec<&str> = b
        .extra
        .get(&i)
        .map_or(Vec::new(), |ids| ids.iter().map(String::as_str).collect());
    let acted = b.acts.get(&i).is_some_and(|&own| own <= s);
    ti_charge::no_weapon_in_hand(tables::take_initiative(), &rows, acted)
}

/// Figure `i`'s declaration as "Take Initiative!" costs it.
fn costed(b: &Build, i: usize) -> Action {
    let f = &b.figs[i];
    let t = tables::take_initiative();
    match f.act {
        Act::Melee { .. } => f.melee_action(),
        Act::Missile { .. } if ranged::moves_to_shoot(b, i) => Action::MoveAndShoot {
            far: ranged::shooting_point(b, i)
                .is_some_and(|p| action::far(f.pos.distance(&p), allowance(b, i, false))),
            // No missile is nocked and ready on the move (§8b note b).
            speed: missile_speed(t, f.weapon.weapon.as_deref().unwrap_or(""), false),
            dexterity: f.dex.reaction,
        },
        Act::Missile { .. } => f.missile_action(),
        // A weapon hurled on the charge: its throwing speed, not the charge's +4 (§9h).
        Act::Charge { hurl: true, .. } if hurl_adjust(b, i).is_some() => Action::Missile {
            speed: missile_speed(t, "thrown", false),
            dexterity: f.dex.reaction,
        },
        Act::Charge { .. } => Action::Charge,
        Act::Move { .. } | Act::Close { .. } => match move_needed(b, i) {
            Some((ft, allowance)) => action::moving(ft, allowance),
            None => Action::Move { far: false },
        },
        Act::Cast {
            spell,
            device,
            segments,
            ..
        } => {
            let known = tables::find_spell(spell);
            if *device || known.is_some_and(|s| s.device) {
                Action::Device
            } else {
                let level = crate::rules::take_initiative::spell::level_of(
                    known.and_then(|s| s.level),
                    *segments,
                );
                Action::Cast { level }
            }
        }
        Act::Cantrips { .. } => Action::Cast { level: 0 },
        Act::Turn { .. } => Action::Turn,
        Act::Set { .. } => Action::SetToReceive,
        Act::Potion { .. } => Action::Potion,
        Act::Flee { to } => {
            let goal = crate::sim::components::Position { x: to.0, y: to.1 };
            let far = action::far(f.pos.distance(&goal), allowance(b, i, false));
            crate::rules::take_initiative::flee::running_action(
                !flee::engaged(b, i).is_empty(),
                far,
            )
            .0
        }
        Act::Withdraw { .. } => Action::Withdraw,
        Act::Parry { .. } => Action::Parry,
        Act::Expect { .. } => Action::Expect,
        Act::Hide => Action::Hide,
        Act::Other(_) | Act::Hold | Act::Block { .. } => Action::Other,
    }
}

/// The feet figure `i` must cover to reach its target (or point), and its allowance for
/// the round.
fn move_needed(b: &Build, i: usize) -> Option<(f64, f64)> {
    let f = &b.figs[i];
    let own = allowance(b, i, false);
    let ft = match point_of(f.act) {
        Some(p) => f
            .pos
            .distance(&crate::sim::components::Position { x: p.0, y: p.1 }),
        None => {
            let t = first_standing(b.figs, f.act)?;
            // After a fleer: the gap and as far again as it can run (§5a).
            let runs = if matches!(b.figs[t].act, Act::Flee { .. }) {
                allowance(b, t, false)
            } else {
                0.0
            };
            gap(f, &b.figs[t]) + runs
        }
    };
    Some((ft, own))
}

/// The point a move or a charge heads for, when it heads for a point.
fn point_of(act: &Act) -> Option<(f64, f64)> {
    match act {
        Act::Move { to: Some(p), .. } => Some(*p),
        Act::Charge {
            to: Some(p),
            targets,
            ..
        } if targets.is_empty() => Some(*p),
        _ => None,
    }
}

/// What figure `i` does on segment `s`.
fn act(b: &mut Build, i: usize, s: u32, dice: &mut Dice) {
    let f = &b.figs[i];
    let why = format!("acts on its total, segment {s}");
    match f.act {
        Act::Missile {
            move_to, at_range, ..
        } if move_to.is_some() || at_range.is_some() => ranged::moving_shot(b, i, s),
        Act::Melee { .. } | Act::Missile { .. } => strike(b, i, s),
        Act::Charge { .. } => match may_charge_now(b, i) {
            Ok(_) => {
                b.charging_now.push(i);
                charge(b, i, s)
            }
            Err(refusal) => {
                let e = idle(b.when, f, None, refusal.describe(), refusal.rule());
                b.events.push(e);
            }
        },
        Act::Move { .. } | Act::Close { .. } => {
            travel(b, i, s, false);
        }
        Act::Cast { spell, target, .. } => cast(b, i, s, spell, target.clone()),
        // A potion drunk last round and not yet working (its d4+1 ran past segment 20)
        // takes effect on its own: it is not drunk again.
        Act::Potion { .. } if f.casting.is_some_and(|c| c.potion) => {}
        Act::Potion { name, .. } => {
            let delay = dice.roll(DieKind::D4, f.name(), 4).0.clamp(1, 4) as u32 + 1;
            let c = Casting {
                what: name.clone(),
                target: None,
                segments: s + delay,
                started: b.clock.tick_of(b.round, 1),
                completes: b.clock.tick_of(b.round, s) + delay,
                device: true,
                potion: true,
                at: None,
            };
            b.changes.casting.insert(i, Some(c));
        }
        Act::Turn { .. } => push(b, i, s, 0, Planned::Turn, why),
        Act::Hide => push_rule(b, i, s, 0, Planned::Hide, why, cite::TI_HIDE),
        Act::Other(what) => push(b, i, s, 0, Planned::Act { what: what.clone() }, why),
        Act::Cantrips { first, second, .. } => {
            // One normal action a round (App. A): the second cantrip is a second spell.
            let why = format!(
                "casts {first} only: a second cantrip ({second}) is a second spell, and a round has one normal action"
            );
            let e = idle(b.when, f, None, why, cite::TI_ONE_ACTION);
            b.events.push(e);
            cast(b, i, s, first, None)
        }
        Act::Flee { .. } => flee::flee(b, i, s),
        Act::Set { .. }
        | Act::Hold
        | Act::Parry { .. }
        | Act::Withdraw { .. }
        | Act::Expect { .. }
        | Act::Block { .. } => {}
    }
}

/// Whether figure `i` may charge now (§9): not engaged, and not charged already this turn.
/// A declared charge and a change of action to one are held to the same test.
fn may_charge_now(b: &Build, i: usize) -> Result<Rule, Refusal> {
    engaged(b, i).and_then(|_| {
        crate::rules::take_initiative::combine::charge_ready(b.figs[i].last_charge(), b.round)
    })
}

/// Whether figure `i` may charge this round: not with a standing foe within 1" of it at the
/// round's start (§9).
fn engaged(b: &Build, i: usize) -> Result<Rule, Refusal> {
    let f = &b.figs[i];
    let nearest = b
        .figs
        .iter()
        .filter(|g| g.up() && g.side() != f.side())
        .map(|g| f.pos.distance(g.pos))
        .min_by(f64::total_cmp);
    may_charge(nearest)
}

/// A round its attack rate gives no attack (a rate of 1 every other round, or a slowed
/// figure's halved rate, App. B note 7): it still counts as one of its rounds of attacking,
/// so the next one attacks.
fn off_round(b: &mut Build, i: usize) {
    let f = &b.figs[i];
    let why = "no attack this round (attack rate)".to_string();
    b.events.push(idle(b.when, f, None, why, cite::ATTACK_RATE));
    b.changes.attacked.push(i);
}

/// A blow (or volley) on the total: every routine of the round's rate on that segment.
fn strike(b: &mut Build, i: usize, s: u32) {
    let f = &b.figs[i];
    // Melee at a target a step away steps in on its total, as it strikes; farther needs a
    // charge or a close: moving over 10 ft rules out a normal melee attack (App. B).
    if matches!(f.act, Act::Melee { .. })
        && let Some(t) = first_standing(b.figs, f.act)
        && gap(f, &b.figs[t]) > action::STEP_FT + 1e-9
        && comes_at(&b.figs[t], f.name())
        && !matches!(b.figs[t].act, Act::Charge { .. })
    {
        // It comes safely into melee range (Glossary, Close): only a charge is met with a
        // blow; waiting for a newcomer is Expect's work (§2).
        let why = format!(
            "{} closes in safely: no melee blow on it this round (only an Expect answers a newcomer)",
            b.figs[t].name()
        );
        let e = idle(
            b.when,
            f,
            Some(b.figs[t].name().to_string()),
            why,
            cite::TI_CLOSE,
        );
        b.events.push(e);
        return;
    }
    if matches!(f.act, Act::Melee { .. })
        && let Some(t) = first_standing(b.figs, f.act)
        && gap(f, &b.figs[t]) > action::STEP_FT + 1e-9
        && !comes_at(&b.figs[t], f.name())
    {
        let why = format!(
            "{} is {:.0} ft beyond its reach: a melee attack steps in at most {} ft; farther needs a close or a charge",
            b.figs[t].name(),
            gap(f, &b.figs[t]),
            action::STEP_FT
        );
        let e = idle(
            b.when,
            f,
            Some(b.figs[t].name().to_string()),
            why,
            cite::TI_MOVE_PREVENTS,
        );
        b.events.push(e);
        return;
    }
    let rate = f.routines_this_round(b.alternating);
    if rate == 0 {
        off_round(b, i);
        return;
    }
    // A foe charging at it is met where it stands (§9a: both strike at the defender's
    // place): it does not walk out to meet the charge.
    if matches!(f.act, Act::Melee { .. })
        && let Some(t) = first_standing(b.figs, f.act)
        && gap(f, &b.figs[t]) > 0.0
        && !(matches!(b.figs[t].act, Act::Charge { .. }) && comes_at(&b.figs[t], f.name()))
    {
        let step = Closing {
            target: b.figs[t].e,
            feet_per_segment: gap(f, &b.figs[t]),
            charge: false,
            arrival: Some(s),
            covered: 0.0,
            wait: s.saturating_sub(1),
            step_in: false,
        };
        b.changes.closing.insert(i, Some(step));
    }
    let mut adjust = running_back(b, i);
    // A minor action this round takes away multiple attacks (App. A; note 4): a weapon
    // user's several routines, a monster's claw/claw/bite, a second hand's weapon.
    if b.one_attack.contains(&i) && f.attacks_per_routine() > 1 {
        adjust.push(crate::sim::plan::Adjust {
            value: 0,
            why: format!(
                "a minor action this round: one attack, not {}",
                f.attacks_per_routine()
            ),
            rule: cite::TI_MINOR_ONE_ATTACK,
        });
    }
    let of = if b.one_attack.contains(&i) && rate > 1 {
        let why = format!(
            "a minor action this round: one attack, not {rate} ({})",
            cite::TI_MINOR_ONE_ATTACK.page_ref()
        );
        let e = LogEvent::new(
            b.when,
            f.name(),
            EventKind::Declare,
            None,
            why,
            cite::TI_MINOR_ONE_ATTACK,
        );
        b.events.push(e);
        1
    } else {
        rate
    };
    // Several targets: at the round's end, the lower totals first, each routine at the
    // next target in turn (resolve::target).
    let (key, when, rule) = match b.round_end.get(&i) {
        Some(&total) => (
            total,
            "at the round's end, its targets in turn",
            cite::TI_MULTIPLE_TARGETS,
        ),
        None => (0, "on its total", cite::TI_TOTAL),
    };
    for routine in 1..=of {
        let what = Planned::routine(routine, of, adjust.clone());
        let why = format!("routine {routine} of {of}, {when}");
        push_rule(b, i, s, key, what, why, rule);
    }
    b.changes.attacked.push(i);
}

/// Whether figure `t` moves at the figure named `name` this round (a charge, a close or a
/// move toward it): such a foe comes into reach, and a melee there needs no move of its own.
fn comes_at(t: &Fig, name: &str) -> bool {
    matches!(
        t.act,
        Act::Charge { .. }
            | Act::Close { .. }
            | Act::Move {
                toward: Some(_),
                ..
            }
    ) && t.act.targets().contains(&name)
}

/// A melee blow at a figure already running from it, its back turned (§5b), or a shot at
/// one that turned to flee before the shooter's total (§4): +2.
fn running_back(b: &Build, i: usize) -> Vec<super::Adjust> {
    let f = &b.figs[i];
    let shot = matches!(f.act, Act::Missile { .. });
    let Some(t) =
        first_standing(b.figs, f.act).filter(|_| matches!(f.act, Act::Melee { .. }) || shot)
    else {
        return Vec::new();
    };
    let tf = &b.figs[t];
    // A shot (a dagger thrown) at a figure that turned to flee before the shooter's total
    // has its back too (§4, §5: "+2 rear bonus", less the range's penalty).
    let turned_first = shot
        && matches!(tf.act, Act::Flee { .. })
        && b.acts
            .get(&t)
            .zip(b.acts.get(&i))
            .is_some_and(|(ft, st)| ft < st);
    let running = (tf.fleeing && matches!(tf.act, Act::Flee { .. })) || turned_first;
    let (bonus, rule) = crate::rules::take_initiative::flee::at_a_running_back(running);
    bonus
        .map(|value| super::Adjust {
            value,
            why: "from behind, at a back already running".into(),
            rule,
        })
        .into_iter()
        .collect()
}

/// A charge: it covers the gap by its total and strikes there (§9); meeting a figure that
/// comes at it, both strike where they meet, on the earlier total (§9g).
fn charge(b: &mut Build, i: usize, s: u32) {
    let declared = matches!(b.figs[i].act, Act::Charge { hurl: true, .. });
    // A weapon that cannot carry from the half-way point is not hurled: the charger keeps
    // it and strikes with it at the end of the charge (§9, §9h), on the charge's total.
    let hurled = declared && hurl(b, i, s);
    // Charging from the round's start, whether it arrives or not: no Dexterity AC (§9).
    b.changes.charging.push(i);
    if block::blocked(b, i, s) {
        return;
    }
    if let Some(s) = travel(b, i, s, true) {
        b.contacts.insert(i, s);
        // A weapon hurled is not there for a blow at the end of the charge.
        if hurled {
            return;
        }
        let mut adjust = leaving::from_behind(b, i, s);
        let per_routine = b.figs[i].attacks_per_routine();
        let (_, cut, rule) = crate::rules::take_initiative::charge::attacks_at_the_end(per_routine);
        if cut {
            adjust.push(crate::sim::plan::Adjust {
                value: 0,
                why: format!("a charge: one attack, not {per_routine}"),
                rule,
            });
        }
        let what = Planned::Strike {
            routine: 1,
            of: 1,
            blow: 1,
            charge: true,
            set: false,
            second: false,
            free: None,
            adjust,
        };
        let key = -reach_key(&b.figs[i]);
        push(b, i, s, key, what, "the charge's blow, on its total".into());
    }
}

/// The range adjustment of figure `i`'s weapon hurled from the half-way point of its
/// charge and the distance it flies, if it can carry that far (§9h); None when there is
/// no target or the weapon cannot be thrown so far.
fn hurl_adjust(b: &Build, i: usize) -> Option<(super::Adjust, f64)> {
    let f = &b.figs[i];
    let t = first_standing(b.figs, f.act)?;
    let half = f.pos.distance(b.figs[t].pos) / 2.0;
    let limits = f.weapon.range_ft(b.setting)?;
    let a = super::range_adjust(
        crate::rules::options::RulesSystem::TakeInitiative,
        half,
        limits,
    );
    Some((a.ok()?, half))
}

/// A weapon hurled on the charge (§9, §9h): on the total, before the charger comes to
/// blows, at the range of the half-way point and without the charge's bonus. False when
/// it cannot be hurled that far (said in the log): the charger keeps it for its blow.
fn hurl(b: &mut Build, i: usize, s: u32) -> bool {
    let f = &b.figs[i];
    let Some(t) = first_standing(b.figs, f.act) else {
        return false;
    };
    let Some((adjust, half)) = hurl_adjust(b, i) else {
        let why =
            "has no weapon it can hurl that far: it charges on, the weapon in hand".to_string();
        let name = f.name().to_string();
        b.events.push(LogEvent::new(
            b.when,
            name,
            EventKind::Idle,
            None,
            why,
            cite::TI_HURL,
        ));
        return false;
    };
    let adjust = vec![adjust];
    let target = b.figs[t].name().to_string();
    b.then
        .insert(f.name().to_string(), Act::missile(vec![target]));
    let what = Planned::Strike {
        routine: 1,
        of: 1,
        blow: 1,
        charge: false,
        set: false,
        second: true,
        free: None,
        adjust,
    };
    let why =
        format!("hurls its weapon on its total, at the range of the half-way point ({half:.0} ft)");
    push_rule(b, i, s, i64::MIN + 2, what, why, cite::TI_HURL);
    true
}

/// The feet figure `i` may cover this round: its move, or a charge's half again up to 24".
fn allowance(b: &Build, i: usize, charging: bool) -> f64 {
    let f = &b.figs[i];
    if charging {
        charge_feet_per_round(
            crate::rules::options::RulesSystem::TakeInitiative,
            f.movement.inches,
            b.setting,
            Default::default(),
        )
    } else {
        feet_per_round(f64::from(f.movement.inches), b.setting)
    }
}

/// Two figures moving straight at each other (§9g): where `i` meets `t` — its share of the
/// gap — and on which segment, the earlier of their totals. The text's attacker is the one
/// that charges (§9 names the charger so); when both charge, or neither, the one with the
/// earlier total (the lower index on a tie).
fn coming_together(b: &Build, i: usize, s: u32, charging: bool) -> Option<(f64, u32)> {
    let f = &b.figs[i];
    let t = first_standing(b.figs, f.act)?;
    let st = *b.acts.get(&t)?;
    let comes = matches!(
        b.figs[t].act,
        Act::Charge { .. } | Act::Close { .. } | Act::Move { .. }
    ) && first_standing(b.figs, b.figs[t].act) == Some(i);
    if !comes {
        return None;
    }
    let ft = gap(f, &b.figs[t]);
    let t_charging = matches!(b.figs[t].act, Act::Charge { .. });
    let (mi, mt) = (allowance(b, i, charging), allowance(b, t, t_charging));
    let i_attacks = match (charging, t_charging) {
        (true, false) => true,
        (false, true) => false,
        _ => (s, i) < (st, t),
    };
    let (a, d) = if i_attacks { (mi, mt) } else { (mt, mi) };
    let (x, _) = ti_charge::come_together(ft, a, d, b.come_together);
    let share = if i_attacks { x } else { ft - x };
    Some((share, s.min(st)))
}

/// Moves figure `i` so that it arrives on segment `s` (at most its allowance for the
/// round); returns the segment it reaches its target in, if it does.
fn travel(b: &mut Build, i: usize, s: u32, charging: bool) -> Option<u32> {
    let f = &b.figs[i];
    let (ft, _) = move_needed(b, i)?;
    let allowance = allowance(b, i, charging);
    let (ft, s) = coming_together(b, i, s, charging).unwrap_or((ft, s));
    let covered = ft.min(allowance);
    let dest = match (f.act, first_standing(b.figs, f.act)) {
        (a, _) if let Some(p) = point_of(a) => Some(p),
        (_, Some(t)) => Some((b.figs[t].pos.x, b.figs[t].pos.y)),
        _ => None,
    };
    if let Some(to) = dest {
        b.moves.push(super::TiMove {
            name: f.name().to_string(),
            from: (f.pos.x, f.pos.y),
            to,
            total: s,
            move_ft: allowance,
        });
    }
    // Spread over the segments left before its total (all of them at the round's start).
    let fps = covered / f64::from(s.saturating_sub(b.when.1).max(1));
    let chase = first_standing(b.figs, f.act)
        .and_then(|t| flee::chase_point(b, i, t))
        .or_else(|| leaving::chase_point(b, i, s));
    match (f.act, first_standing(b.figs, f.act)) {
        // To a point: it stops on its total, as far along as its move allows.
        (a, _) if let Some(p) = point_of(a) => {
            let to = crate::sim::components::Position { x: p.0, y: p.1 };
            b.changes
                .moving_to
                .insert(i, MoveTo(f.pos.toward(&to, covered), fps, 0));
        }
        // After a fleer: to its reach from where the fleer stops, as far as its move
        // allows, by its total (§5a).
        (_, Some(_)) if let Some(end) = chase => {
            let d = f.pos.distance(&end);
            let at = f.pos.toward(&end, allowance);
            let fps = f.pos.distance(&at) / f64::from(s.saturating_sub(b.when.1).max(1));
            b.changes.moving_to.insert(i, MoveTo(at, fps, 0));
            return (d <= allowance).then_some(s);
        }
        // Out of reach this round: it covers its allowance by its total and stops there.
        (_, Some(t)) if ft > allowance => {
            let at = f.pos.toward(b.figs[t].pos, covered);
            b.changes.moving_to.insert(i, MoveTo(at, fps, 0));
            let e = short_of(b.when, f, &b.figs[t], ft - covered, charging);
            b.events.push(e);
        }
        (_, Some(t)) => {
            b.changes.closing.insert(
                i,
                Some(Closing {
                    target: b.figs[t].e,
                    feet_per_segment: fps,
                    charge: charging,
                    arrival: (ft <= allowance).then_some(s),
                    covered: 0.0,
                    wait: 0,
                    step_in: false,
                }),
            );
        }
        _ => {}
    }
    (ft <= allowance).then_some(s)
}

/// A charge or a close that stops short of its target this round: how far short, and that
/// no blow comes of it until it arrives (§9; Glossary, Close).
fn short_of(when: (u32, u32), f: &Fig, t: &Fig, ft: f64, charging: bool) -> LogEvent {
    let (what, rule) = if charging {
        ("the charge stops", cite::TI_CHARGE)
    } else {
        ("stops", cite::TI_CLOSE)
    };
    let why = format!("{what} {ft:.1} ft short of it on its total: no blow this round");
    idle(when, f, Some(t.name().to_string()), why, rule)
}

/// Logs a spell begun.
fn begins(b: &mut Build, i: usize, c: &Casting, (round, s): (u32, u32)) {
    let later = match round.saturating_sub(b.round) {
        0 => String::new(),
        1 => " of the next round".to_string(),
        _ => format!(" of round {round}"),
    };
    b.events.push(
        LogEvent::new(
            b.when,
            b.figs[i].name(),
            EventKind::SpellStart,
            c.target.clone().map(Into::into),
            format!("begins {}: it goes off on segment {s}{later}", c.what),
            cite::TI_SPELL,
        )
        .with(Payload::SpellStart {
            spell: c.what.clone(),
            casting_segments: c.segments,
            completes: (round, s),
            // Begun at the round's start, it fills the ordering segments to its total.
            occupies: [(b.round, 1), (round, s)],
        }),
    );
}

/// A spell begun at this round's start, to go off on `(round, segment)`.
fn casting(
    b: &Build,
    spell: &str,
    (target, at): (Option<String>, Option<(f64, f64)>),
    (round, s): (u32, u32),
) -> Casting {
    let device = tables::find_spell(spell).is_some_and(|t| t.device);
    let completes = b.clock.tick_of(round, s);
    let started = b.clock.tick_of(b.round, 1);
    Casting {
        what: spell.to_string(),
        target,
        segments: completes.saturating_sub(started) + 1,
        started,
        completes,
        device,
        potion: false,
        at,
    }
}

/// A spell begun at the round's start (or carried from the last) that goes off on the
/// total.
fn cast(b: &mut Build, i: usize, s: u32, spell: &str, target: Option<String>) {
    let f = &b.figs[i];
    let carried = f.casting.cloned().filter(|c| c.what == spell);
    let begun = carried.is_none();
    let point = f.act.point();
    let mut c = carried.unwrap_or_else(|| casting(b, spell, (target, point), (b.round, s)));
    // A carried spell goes off on its total: the same tick for one carried from an earlier
    // round, and for one begun in the surprise its book time put in ordering segments.
    c.completes = b.clock.tick_of(b.round, s);
    c.device |= matches!(f.act, Act::Cast { device: true, .. });
    if begun {
        begins(b, i, &c, (b.round, s));
    }
    b.changes.casting.insert(i, Some(c));
    let what = Planned::Complete {
        what: spell.to_string(),
    };
    // A completion shares its beat with the blows on the same total (a tie is
    // simultaneous, Glossary): it is played first, so a blow at that moment does not stop
    // it, and a figure it holds or fells still strikes in that beat (`entries`).
    push(
        b,
        i,
        s,
        0,
        what,
        format!("goes off on its total, segment {s}"),
    );
}

/// The charged figures strike back on the charger's total, the longer weapon first (§9a);
/// a spear or pole arm set to receive in time (base − 2 before the blow) does double damage.
fn contact(b: &mut Build) {
    // The first charge to arrive is met (one action a round); of two arriving together,
    // the one at the foe the defender had declared (an outside tester's pikeman met the
    // charger listed later, after the first had already struck it).
    let mut charges: Vec<(usize, u32, usize)> = b
        .contacts
        .iter()
        .filter_map(|(&c, &s)| Some((c, s, first_standing(b.figs, b.figs[c].act)?)))
        .collect();
    charges.sort_by_key(|&(c, s, t)| {
        let declared = b.figs[t].act.targets().contains(&b.figs[c].name().as_str());
        (s, !declared, c)
    });
    let mut met = std::collections::BTreeSet::new();
    for (c, s, t) in charges {
        if met.contains(&t) {
            continue;
        }
        let tf = &b.figs[t];
        // A defender standing, waiting, set, or coming at the charger strikes back at
        // contact (§9a, §9g); one casting, moving elsewhere or charging does not.
        let coming = matches!(tf.act, Act::Close { .. } | Act::Move { .. })
            && first_standing(b.figs, tf.act) == Some(c);
        let at_charger = tf.act.targets().contains(&b.figs[c].name().as_str());
        // A shot at the charger that comes after the contact is foiled, unless the weapon
        // serves in melee too (a javelin, a spear): then it strikes back at contact (§9e).
        let shot_late = matches!(tf.act, Act::Missile { .. })
            && at_charger
            && b.acts.get(&t).is_some_and(|&own| own > s);
        if shot_late && tf.weapon.missile {
            foiled(b, t, c, s);
            continue;
        }
        // A figure moving off that the charge catches in place stands and strikes (§9f).
        let caught = leaving::caught_in_place(b, t, s);
        if caught && leaving::goes_on(b, t, s) {
            continue;
        }
        if caught {
            b.changes.moving_to.remove(&t);
        }
        // Charged from hiding, a foe that has not yet acted meets it at contact; one that
        // has acted gets no blow back (§10b).
        if b.figs[c].hidden {
            let own = b.acts.get(&t).map_or(i64::MAX, |&o| i64::from(o));
            let back =
                crate::rules::take_initiative::hide::strikes_back_unaware(own, i64::from(s)).0;
            if !back || tf.weapon.missile || !tf.up() || tf.casting.is_some() {
                continue;
            }
        }
        // A melee declared at someone else: the figure stands where it is, and meets the
        // charge unless it has already struck (its own total before the contact at a foe
        // in reach): its blow, still to come, is the one at contact (an outside tester's orc
        // whose foe stood beyond its reach never struck back at the knight charging it).
        let elsewhere = matches!(tf.act, Act::Melee { .. })
            && !at_charger
            && (b.acts.get(&t).is_none_or(|&own| own >= s)
                || first_standing(b.figs, tf.act)
                    .is_none_or(|x| gap(tf, &b.figs[x]) > action::STEP_FT + 1e-9));
        let ready = b.figs[c].hidden
            || coming
            || caught
            || (matches!(tf.act, Act::Melee { .. }) && at_charger)
            || elsewhere
            || shot_late
            || matches!(tf.act, Act::Hold | Act::Other(_) | Act::Set { .. })
            // Expecting the charger's charge: it waits for it as a standing defender does.
            || matches!(&tf.act, Act::Expect { target } if *target == *b.figs[c].name());
        // Still changing weapons when the charger arrives: no blow at contact (§9c).
        if !ready || !tf.up() || tf.weapon.missile || no_weapon_in_hand(b, t, s).is_some() {
            continue;
        }
        // Setting to receive needs no change of action (§9a): a spear or pole arm in the
        // hands of a defender standing its ground — waiting, set, meeting the charger where
        // it stands, caught in place — is set whenever base − 2 comes before the blow. One
        // coming at the charger is moving, not set.
        let standing = caught
            || matches!(
                tf.act,
                Act::Hold
                    | Act::Other(_)
                    | Act::Set { .. }
                    | Act::Melee { .. }
                    | Act::Expect { .. }
            );
        let spear = crate::tables::sets_against_charge(tf.weapon.weapon.as_deref());
        let set = (matches!(tf.act, Act::Set { .. }) || (standing && !coming && spear))
            && b.bases
                .get(&t)
                .is_some_and(|&base| ti_charge::set_in_time(base, i64::from(s)).0);
        // Its own blow on its total is replaced by the one at contact; an act of another
        // kind it had declared is dropped: the blow back is its action (App. A: one normal
        // action a round).
        let dropped = b
            .slots
            .iter()
            .any(|(_, _, e)| e.by(tf.e) && matches!(e.what, Planned::Act { .. }));
        // Not said of a hidden charger's target: the line would give the charger away
        // before it moves (the blow at contact says it in its time).
        if elsewhere
            && !b.figs[c].hidden
            && let Some(x) = first_standing(b.figs, tf.act)
        {
            b.events.push(LogEvent::new(
                b.when,
                tf.name(),
                EventKind::Idle,
                Some(b.figs[x].name().clone()),
                format!(
                    "turns from {} to meet {}'s charge (one action a round)",
                    b.figs[x].name(),
                    b.figs[c].name()
                ),
                cite::TI_ONE_ACTION,
            ));
        }
        if dropped && let Act::Other(what) = &tf.act {
            b.events.push(LogEvent::new(
                b.when,
                tf.name(),
                EventKind::Idle,
                None,
                format!(
                    "drops \"{what}\": it strikes back at the charge instead (one action a round)"
                ),
                cite::TI_ONE_ACTION,
            ));
        }
        b.slots.retain(|(_, _, e)| {
            !(e.is_blow_by(tf.e) || (e.by(tf.e) && matches!(e.what, Planned::Act { .. })))
        });
        let what = Planned::Strike {
            routine: 1,
            of: 1,
            blow: 1,
            charge: false,
            set,
            second: false,
            free: None,
            adjust: Vec::new(),
        };
        let name = b.figs[c].name().to_string();
        let why = if set {
            format!("set to receive {name}'s charge: strikes at contact for double damage")
        } else {
            format!("strikes back at {name}'s charge at contact, by weapon length")
        };
        let key = -reach_key(tf);
        b.changes.intent.insert(t, Act::melee(vec![name]));
        push_rule(b, t, s, key, what, why, cite::TI_CHARGE);
        met.insert(t);
    }
}

/// Figure `t`'s shot at charger `c` comes too late: the charge is on it in segment `s`
/// with a bow or crossbow in its hands (§9e).
fn foiled(b: &mut Build, t: usize, c: usize, s: u32) {
    let tf = &b.figs[t];
    b.slots.retain(|(_, _, e)| !e.is_blow_by(tf.e));
    b.events.push(LogEvent::new(
        b.when,
        tf.name(),
        EventKind::Idle,
        Some(b.figs[c].name().into()),
        format!(
            "its shot is foiled: {}'s charge is on it in segment {s}, before its total, and a {} is no weapon at close quarters",
            b.figs[c].name(),
            tf.weapon.weapon.as_deref().unwrap_or("missile weapon")
        ),
        cite::TI_CHARGE_VS_MISSILE,
    ));
}

/// A weapon's reach in hundredths of a foot, to order blows at contact.
fn reach_key(f: &Fig) -> i64 {
    (f.weapon.length_ft.unwrap_or(f.reach()) * 100.0).round() as i64
}

fn push(b: &mut Build, i: usize, s: u32, key: i64, what: Planned, why: String) {
    push_rule(b, i, s, key, what, why, cite::TI_TOTAL);
}

fn push_rule(b: &mut Build, i: usize, s: u32, key: i64, what: Planned, why: String, rule: Rule) {
    // A total below 1 comes before 1 in segment 1, the lowest first.
    let key = match b.early.get(&i) {
        Some(&k) if key == 0 && s == 1 => k,
        _ => key,
    };
    let f = &b.figs[i];
    b.slots.push((
        s,
        key,
        PlanEntry {
            segment: s,
            beat: 0,
            fight: 0,
            fixed: true,
            after: Vec::new(),
            actor: Some(f.e),
            figure: f.id(),
            name: f.name().into(),
            what,
            rule,
            why,
        },
    ));
}

/// The entries in play order: by segment, then by their order within it; equal places
/// share a beat, and so are simultaneous (a spell completing there is played first).
fn entries(mut slots: Vec<(u32, i64, PlanEntry)>) -> Vec<PlanEntry> {
    // Within a beat the completions come first (stable otherwise).
    slots.sort_by_key(|s| (s.0, s.1, !matches!(s.2.what, Planned::Complete { .. })));
    let mut beat = 0;
    let mut last = None;
    slots
        .into_iter()
        .map(|(s, k, mut e)| {
            if last.is_some_and(|l| l != (s, k)) {
                beat += 1;
            }
            last = Some((s, k));
            e.beat = beat;
            e
        })
        .collect()
}
