//! One attack routine: its target (the first still standing), the checks that can stop it
//! (a held routine, a foe on guard after surprise, out of reach), then a to-hit roll and
//! damage for each weapon of the routine, and what a hit does to a caster.

use super::target::first_target;
use super::{Play, Segment};
use crate::name::Name;
use crate::rules::charge::{charge_to_hit_bonus, charging_ac};
use crate::rules::cite::{self, Rule};
use crate::rules::combat::{self, Condition, Modifiers};
use crate::rules::dexterity::defensive_adjustment;
use crate::rules::effect::{self, Effect};
use crate::rules::options::RulesSystem;
use crate::rules::specialist::PointBlank;
use crate::rules::surprise;
use crate::rules::take_initiative::spell::{keeps_spell, level_of};
use crate::scene::{Act, DieKind};
use crate::sim::components::{Casting, CaughtUnaware, Hidden, MundaneHit};
use crate::sim::disruption::{HitOnCaster, end_casting, hit_on_caster};
use crate::sim::log::{EventKind, LogEvent, Payload};
use crate::sim::plan::{Adjust, PlanEntry, Planned, range_adjust};
use crate::tables;
use bevy::prelude::*;

/// Who strikes, at whom, with what: read once before the blows.
struct Blow {
    name: Name,
    target: Entity,
    target_name: Name,
    when: (u32, u32),
    routine: u32,
    of: u32,
    blow: u32,
    /// Which attack of the routine (1-based): a claw, claw or bite, or a hand's weapon.
    attack: u32,
    charge: bool,
    set: bool,
    /// A specialist's shot at point blank range: more damage, doubled (UA p.18).
    point_blank: Option<PointBlank>,
    modifier: i32,
    /// Adjustments to hit with their rules: the plan's, and a missile's range.
    adjust: Vec<Adjust>,
    /// How it landed on a caster: a blow that hit, or a spell's damage saved against or
    /// not (Table VII.C.7: a saved-against attack does not interrupt a spell).
    landed: crate::rules::spell::AttackResult,
}

/// Plays one planned routine of `actor`.
/// A charge's blow that found its target gone on: struck in the segment the charge makes
/// contact, this round (DMG p.66).
#[derive(Component, Clone, Debug)]
pub(super) struct ChargeBlowDue {
    /// The round of the charge.
    round: u32,
    /// The blow as planned.
    entry: PlanEntry,
}

/// The charge blows due now: each charger that has made contact since its blow was
/// planned strikes, in this segment; one still on its way waits; one whose round is over
/// is dropped.
pub(super) fn due_charge_blows(p: &mut Play, seg: &mut Segment) {
    let (round, segment) = p.clock.round_segment();
    if p.due.is_empty() {
        return;
    }
    let due: Vec<(Entity, ChargeBlowDue, bool, bool)> = p
        .due
        .iter()
        .filter_map(|(e, d)| {
            let f = p.figures.get(e).ok()?;
            let stopped_short = matches!(f.intent.act, Act::Charge { .. });
            Some((e, d.clone(), f.closing.is_some(), stopped_short))
        })
        .collect();
    for (actor, due, on_its_way, stopped_short) in due {
        if due.round != round || !p.figures.get(actor).is_ok_and(|a| a.hp.condition.is_up()) {
            p.commands.entity(actor).remove::<ChargeBlowDue>();
            continue;
        }
        if on_its_way {
            continue;
        }
        p.commands.entity(actor).remove::<ChargeBlowDue>();
        // Stopped (a wall) before contact: no blow.
        if stopped_short {
            continue;
        }
        let mut entry = due.entry;
        entry.segment = segment;
        entry.fixed = true;
        entry.rule = cite::CHARGE_CONTACT;
        entry.why = "the charge makes contact".into();
        routine(p, seg, &entry, actor);
    }
}

pub(super) fn routine(p: &mut Play, seg: &mut Segment, entry: &PlanEntry, actor: Entity) {
    let Planned::Strike {
        routine,
        of,
        blow,
        charge,
        set,
        second,
        ref free,
        ref adjust,
    } = entry.what
    else {
        return;
    };
    let when = (p.plan.round, entry.segment);
    let Ok(a) = p.figures.get(actor) else { return };
    let name = a.figure.name.clone();
    // The second action's attack is at the targets it names, with the other weapon; a
    // free attack on a fleer is at the fleer, at +4 ("Take Initiative!" §4).
    let act = match (p.plan.then.get(name.as_str()), free) {
        // A parting shot (house rules) carries its +4 among its adjustments.
        (_, Some(fleer)) => Act::Melee {
            targets: vec![fleer.clone()],
            modifier: if adjust.iter().any(is_parting_shot) {
                0
            } else {
                crate::rules::take_initiative::flee::FREE_ATTACK_BONUS
            },
            hold_after: None,
        },
        (Some(then), _) if second => then.clone(),
        // An archer expecting a foe answers with a shot (§2): a missile's range and
        // Dexterity count as for any shot.
        (_, _) if a.weapon.missile && matches!(a.intent.act, Act::Expect { .. }) => Act::missile(
            a.intent
                .act
                .targets()
                .iter()
                .map(|t| t.to_string())
                .collect(),
        ),
        _ => a.intent.act.clone(),
    };
    let (modifier, hold) = act.modifier_and_hold();
    let idle = |p: &mut Play, target: Option<Name>, why: String, rule: Rule| {
        p.log.write(LogEvent::new(
            when,
            name.clone(),
            EventKind::Idle,
            target,
            why,
            rule,
        ));
    };
    if hold.is_some_and(|h| routine > h) {
        idle(
            p,
            None,
            crate::words!("holds routine {routine} of {of}"),
            entry.rule,
        );
        return;
    }
    let lost = seg
        .disarmed
        .get(&actor)
        .cloned()
        .or_else(|| p.figures.get(actor).ok().and_then(|a| a.disarmed.cloned()));
    // A weapon lost to a fumble strikes no more; a weapon in the other hand still does.
    let other_hand = p.figures.get(actor).is_ok_and(|a| {
        a.fighting.off_hand.as_ref().is_some_and(|(w, _)| {
            !a.weapon.missile && lost.as_ref().is_some_and(|d| d.weapon != *w)
        })
    });
    if let Some(d) = &lost
        && !other_hand
    {
        if seg.said_disarmed.insert(actor) {
            idle(p, None, disarmed_words(d), cite::HOUSE_FUMBLE);
        }
        return;
    }
    // A charge to a point meets whoever stands there (§11a), with no charge bonus: it had
    // no known foe to charge (§11a note 4).
    let (target, met) = match first_target(p, &act, routine) {
        Some(t) => (t, false),
        None => match super::target::met_at_the_point(p, actor, &act) {
            Some(t) => (t, true),
            None if matches!(act, Act::Charge { to: Some(_), .. }) => {
                idle(
                    p,
                    None,
                    "no foe within reach at the point".into(),
                    entry.rule,
                );
                return;
            }
            None => {
                if seg.said_no_target.insert(actor) {
                    idle(p, None, "no target left standing".into(), entry.rule);
                }
                return;
            }
        },
    };
    let charge = charge && !met;
    // On a map a missile needs the foe it aims at in sight: not through a wall, nor into
    // the dark. Judged before the shot is loosed into a melee (where it may strike another).
    if matches!(act, Act::Missile { .. }) && p.scene.0.map.is_some() {
        let index = |e: Entity| p.figures.get(e).map(|f| f.figure.index);
        let seen =
            matches!((index(actor), index(target)), (Ok(a), Ok(t)) if p.sightings.sees(a, t));
        let (may, rule) = crate::rules::sight::may_shoot_at(seen);
        if !may {
            let name = p.figures.get(target).map(|t| t.figure.name.clone());
            let name = name.unwrap_or_default();
            let why = crate::words!(
                "cannot see {name}: a missile is loosed only at a foe in sight (a clear line, and light or infravision)"
            );
            idle(p, Some(name), why, rule);
            return;
        }
    }
    // Loosed into a melee where its comrades fight, the shot may strike any of them.
    let target = super::into_melee::retarget(p, (actor, &act), target, when);
    let Ok(t) = p.figures.get(target) else { return };
    let (target_name, tpos, tsur) = (t.figure.name.clone(), *t.pos, *t.surprised);
    // Hidden in shadows, it cannot be perceived by normal means (§10): no foe singles it
    // out, until it gives itself away (a blow or shot from hiding) — but one it charges
    // meets it as it comes (§10b).
    let comes_at_me = p.figures.get(actor).is_ok_and(|a| {
        (matches!(t.intent.act, Act::Charge { .. }) || t.contact.is_some())
            && t.intent
                .act
                .targets()
                .first()
                .is_some_and(|n| *n == a.figure.name.as_str())
    });
    if t.hidden && !comes_at_me {
        let why = crate::words!(
            "cannot make out {target_name}: hidden in shadows, not perceived by normal means"
        );
        idle(p, Some(target_name), why, cite::TI_HIDDEN_TARGET);
        return;
    }
    if let Some(k) = p.clock.surprise_segment() {
        let own = p
            .figures
            .get(actor)
            .map_or(0, |a| a.surprised.side_segments);
        let (sides, rule) = surprise::sides_at_surprise(k <= own, k <= tsur.side_segments);
        if !sides {
            let why =
                crate::words!("neither side is surprised: no blows at {target_name} until round 1");
            idle(p, Some(target_name), why, rule);
            return;
        }
        let (may, rule) =
            surprise::may_be_struck_by(k <= tsur.segments, k <= tsur.side_segments, charge);
        if !may {
            idle(
                p,
                Some(target_name),
                "target is on guard: no free blows".into(),
                rule,
            );
            return;
        }
    }
    let missile = matches!(act, Act::Missile { .. });
    let reach = blow_reach(p, actor, missile, (charge, set, free.is_some()), adjust);
    // A move or charge a wall stopped this round never came within reach: said first, as
    // anything else (a hand between them) would matter only had it arrived.
    if let Some((segment, by)) = reach.and_then(|r| stopped_short(p, actor, target, r)) {
        let how = if charge { "its charge" } else { "its move" };
        let why =
            crate::words!("no blow: {how} was stopped by {by} in segment {segment}, out of reach");
        idle(p, Some(target_name), why, cite::MOVEMENT_BLOCKED);
        return;
    }
    if let Some(hand) = p
        .figures
        .get(target)
        .ok()
        .and_then(|t| t.interposed.filter(|i| i.against == actor).cloned())
    {
        let (_, rule) = effect::outcome(Effect::Interpose, hand_target());
        idle(
            p,
            Some(target_name),
            crate::words!("{} stands between: the blow cannot reach", hand.spell),
            rule,
        );
        return;
    }
    let mut adjust = adjust.clone();
    if met {
        adjust.push(Adjust {
            value: 0,
            why: "charged to a point, no foe known: no charge bonus".into(),
            rule: cite::TI_RACE,
        });
    }
    if p.figures.get(actor).is_ok_and(|a| a.hidden) {
        from_hiding(p, actor, target, &mut adjust);
    }
    // Range counts under either system (PHB p.38; "Take Initiative!" §8).
    if missile && !adjust.iter().any(is_range) {
        match range(p, actor, tpos) {
            Ok(r) => adjust.extend(r),
            Err(why) => {
                let rule = crate::rules::missile_range::rule_of(p.clock.system);
                return idle(p, Some(target_name), why, rule);
            }
        }
    }
    let point_blank = missile.then(|| point_blank(p, actor, tpos)).flatten();
    adjust.extend(point_blank.as_ref().map(|(a, _)| a.clone()));
    if missile {
        let reaction = p.figures.get(actor).map_or(0, |a| a.dexterity.reaction);
        let (value, rule) = crate::rules::missile_range::missile_to_hit(reaction, p.clock.system);
        if value != 0 {
            let why = "Dexterity attacking adjustment".to_string();
            adjust.push(Adjust { value, why, rule });
        }
    }
    let Ok(a) = p.figures.get(actor) else { return };
    if reach.is_some_and(|r| a.pos.distance(&tpos) > r + 1e-6) {
        // A charge at a figure that moves off arrives later than planned: contact is
        // contact, and the blow comes in the segment the charge reaches it (DMG p.66).
        if charge && a.closing.is_some_and(|c| c.charge && c.target == target) {
            let due = ChargeBlowDue {
                round: p.plan.round,
                entry: entry.clone(),
            };
            p.commands.entity(actor).insert(due);
            let why = "not yet in reach (it moved): strikes when the charge makes contact";
            return idle(p, Some(target_name), why.into(), cite::CHARGE_CONTACT);
        }
        // Said with the distance and the reach, under the reach's own rule (it cited the
        // initiative die that placed the blow, which says nothing of reach).
        let why = crate::words!(
            "target out of reach: {:.1} ft away, its reach {:.1} ft",
            a.pos.distance(&tpos),
            reach.unwrap_or_default()
        );
        idle(p, Some(target_name), why, cite::MELEE_REACH);
        return;
    }
    // A blow reaches along open ground: a wall, closed door or pillar between the two
    // stops it, however near they stand on either side (PHB p.102) — a parting shot or
    // a free attack as a figure turns as much as any.
    let walled = !missile
        && p.grid.0.as_ref().is_some_and(|g| {
            let from = p.figures.get(actor).map(|a| (a.pos.x, a.pos.y));
            from.is_ok_and(|from| !g.open_line_ft(from, (tpos.x, tpos.y)))
        });
    if walled {
        let why = "a wall stands between: the blow cannot reach".to_string();
        return idle(p, Some(target_name), why, cite::MOVEMENT_BLOCKED);
    }
    if p.scene.0.rules.house.ganging_up && !missile {
        let (n, place, size) = super::gang::attackers_on(p, actor, target);
        let (bonus, room, rule) = crate::rules::house::gang_up(n, place, size);
        if !room {
            let why = crate::words!(
                "no room to strike: {} attack it already ({} foe)",
                crate::rules::house::room_for_attackers(size),
                size.letter()
            );
            return idle(p, Some(target_name), why, rule);
        }
        if bonus > 0 {
            // Those with room to strike: the rest stand by.
            let n = n.min(crate::rules::house::room_for_attackers(size));
            let why = crate::words!("ganging up, {n} attackers");
            adjust.push(Adjust {
                value: bonus,
                why,
                rule,
            });
        }
    }
    let Ok(a) = p.figures.get(actor) else { return };
    // One strike with the main weapon, one with the off-hand weapon; the attack after a
    // speed shot is made with the other weapon alone.
    let mut weapons = vec![(a.weapon.weapon.clone(), a.fighting.damage.clone())];
    // A monster's claw/claw/bite: each attack of the routine rolled on its own (DMG p.63).
    if !missile && !a.fighting.natural_attacks.is_empty() {
        weapons = a
            .fighting
            .natural_attacks
            .iter()
            .enumerate()
            .map(|(k, d)| {
                let n = a.fighting.natural_attacks.len();
                // Data, not words: the event's payload names it even in a quiet trial.
                (Some(format!("attack {} of {n}", k + 1)), d.clone())
            })
            .collect();
    }
    if let Some((w, d)) = &a.fighting.off_hand
        && !missile
    {
        if second {
            weapons.clear();
        }
        weapons.push((Some(w.clone()), d.clone()));
    }
    // The same count a parry is spread over (Fighting::melee_attacks).
    debug_assert!(missile || second || weapons.len() as u32 == a.fighting.melee_attacks());
    // A parting shot, or a free attack on a fleer, is a single attack: a claw, not the
    // whole claw/claw/bite, and no second hand.
    // So is the blow of a figure with a minor action this round ("Take Initiative!" App. A).
    if free.is_some() || one_attack_only(&adjust) {
        weapons.truncate(1);
    }
    let mut b = Blow {
        name: name.clone(),
        target,
        target_name,
        when,
        routine,
        of,
        blow,
        attack: 1,
        charge,
        set,
        point_blank: point_blank.map(|(_, pb)| pb),
        modifier,
        adjust,
        landed: crate::rules::spell::AttackResult::Hit,
    };
    let total = weapons.len();
    for (k, (w, dmg)) in weapons.into_iter().enumerate() {
        b.attack = k as u32 + 1;
        let down = p
            .figures
            .get(b.target)
            .map_or(true, |o| !o.hp.condition.is_up());
        // Its foe down, the rest of the routine goes to another it declared within reach.
        if down
            && k > 0
            && let Some(r) = reach
            && let Some(next) = super::target::next_in_reach(p, actor, &act, b.target, r)
        {
            b.target = next;
            b.target_name = p
                .figures
                .get(next)
                .map(|o| o.figure.name.clone())
                .unwrap_or_default();
        }
        if p.figures
            .get(b.target)
            .is_ok_and(|o| o.hp.condition == Condition::Dead)
        {
            // Said, not dropped in silence: the rest of the routine has no one to strike.
            if k > 0 {
                let which = match k + 1 == total {
                    true => crate::words!("attack {total} of {total}"),
                    false => crate::words!("attacks {} to {total}", k + 1),
                };
                let why = crate::words!(
                    "{which}: {} is dead and no other foe it declared stands within reach",
                    b.target_name
                );
                let rule = cite::DECLARE_ACTIONS;
                p.log.write(LogEvent::new(
                    when,
                    name.clone(),
                    EventKind::Idle,
                    Some(b.target_name.clone()),
                    why,
                    rule,
                ));
            }
            break;
        }
        if let Some(d) = lost
            .as_ref()
            .filter(|d| w.as_deref() == Some(d.weapon.as_str()))
        {
            if seg.said_disarmed.insert(actor) {
                idle(p, None, disarmed_words(d), cite::HOUSE_FUMBLE);
            }
            continue;
        }
        // A weapon lost in this very blow: the other hand's still strikes.
        strike(p, seg, entry, actor, &b, w, &dmg);
    }
}

/// Why a figure does not strike with the weapon it lost to a fumble.
fn disarmed_words(d: &crate::sim::components::Disarmed) -> String {
    match d.lies_at {
        Some((x, y)) => crate::words!("disarmed: its {} lies at ({x:.0}, {y:.0})", d.weapon),
        None => crate::words!("disarmed: its {} is broken", d.weapon),
    }
}

/// A blow on a figure as it turns away to follow another (§7) lands where it stood, before
/// it moves off in the same segment.
fn as_it_turns(adjust: &[Adjust]) -> bool {
    adjust
        .iter()
        .any(|a| a.rule == cite::TI_WITHDRAW_BLOCK || is_parting_shot(a))
}

/// Whether the adjustments hold "one attack, not several": a minor action's or a charge's
/// ("Take Initiative!" App. A; §9), or a figure's that moved (house rules).
fn one_attack_only(adjust: &[Adjust]) -> bool {
    adjust.iter().any(|a| {
        [
            cite::TI_MINOR_ONE_ATTACK,
            cite::TI_CHARGE_ONE_ATTACK,
            cite::HOUSE_STANDING_STILL,
        ]
        .contains(&a.rule)
    })
}

/// Whether an adjustment is a parting shot's (house rules): it lands as the figure goes.
fn is_parting_shot(a: &Adjust) -> bool {
    a.rule == cite::HOUSE_PARTING_SHOT
}

/// A hidden figure's attack (§10): its target was unaware of it, and may now change its
/// action; the attacker is hidden no longer.
fn from_hiding(p: &mut Play, actor: Entity, target: Entity, adjust: &mut Vec<Adjust>) {
    let (round, segment) = p.clock.round_segment();
    p.commands.entity(actor).remove::<Hidden>();
    p.commands
        .entity(target)
        .insert(CaughtUnaware(round, segment));
    adjust.push(Adjust {
        value: 0,
        why: "from hiding: the target did not know it was there".into(),
        rule: cite::TI_HIDE,
    });
}

/// Whether an adjustment is a missile's range.
fn is_range(a: &Adjust) -> bool {
    a.rule == cite::TI_RANGED || a.rule == cite::MISSILE_RANGE
}

/// The range penalty of a shot from `actor` at a target at `tpos` (PHB p.38), measured
/// now — under "Take Initiative!" on the shooter's initiative, or after its move (§8); an
/// error beyond long range. None for a weapon with no ranges in the table.
fn range(
    p: &Play,
    actor: Entity,
    tpos: crate::sim::components::Position,
) -> Result<Option<Adjust>, String> {
    let Ok(a) = p.figures.get(actor) else {
        return Ok(None);
    };
    let Some(limits) = a.weapon.range_ft(p.scene.0.setting) else {
        return Ok(None);
    };
    let d = a.pos.distance(&tpos);
    Ok(Some(range_adjust(p.clock.system, d, limits)?))
}

/// A specialist's shot at point blank range (UA p.18): its adjustment to hit, and what it
/// does to the damage if it hits.
fn point_blank(
    p: &Play,
    actor: Entity,
    tpos: crate::sim::components::Position,
) -> Option<(Adjust, PointBlank)> {
    let a = p.figures.get(actor).ok()?;
    let d = a.pos.distance(&tpos);
    let weapon = a.weapon.weapon.as_deref()?;
    let (pb, rule) = crate::rules::specialist::point_blank(weapon, a.weapon.specialist, d)?;
    let adjust = Adjust {
        value: pb.to_hit,
        why: crate::words!("point blank at {d:.0} ft, a specialist"),
        rule,
    };
    Some((adjust, pb))
}

/// How far `actor`'s blow reaches, or None where reach is not asked: a missile, a blow as
/// its foe turns away, a charge's blow at contact (it lands, though the target walks on
/// in the same segment). A weapon set against a charge meets the charger at its length
/// (DMG p.66); a free attack at a fleer comes from a foe within 1" (§4).
fn blow_reach(
    p: &Play,
    actor: Entity,
    missile: bool,
    (charge, set, free): (bool, bool, bool),
    adjust: &[Adjust],
) -> Option<f64> {
    let a = p.figures.get(actor).ok()?;
    let now = p.clock.round_segment();
    let at_contact = charge && a.contact.is_some_and(|c| (c.0, c.1) == now);
    if missile || as_it_turns(adjust) || at_contact {
        return None;
    }
    Some(if set {
        crate::rules::charge::set_weapon_reach(a.reach.0, a.weapon.length_ft).0
    } else if free {
        crate::rules::take_initiative::flee::free_attack_reach(a.reach.0).0
    } else {
        a.reach.0
    })
}

/// The segment a wall stopped `actor`'s move or charge in this round, if it did and its
/// blow's `reach` does not come to `target`.
fn stopped_short(
    p: &Play,
    actor: Entity,
    target: Entity,
    reach: f64,
) -> Option<(u32, &'static str)> {
    let a = p.figures.get(actor).ok()?;
    let b = a.blocked.filter(|b| b.round == p.clock.round_segment().0)?;
    let t = p.figures.get(target).ok()?;
    (a.pos.distance(t.pos) > reach + 1e-6).then_some((b.segment, b.by))
}

/// One weapon's strike: the roll, the damage, a fall, a hit on a caster, a fumble.
fn strike(
    p: &mut Play,
    seg: &mut Segment,
    entry: &PlanEntry,
    actor: Entity,
    b: &Blow,
    weapon: Option<String>,
    dmg: &crate::dice::DiceExpr,
) {
    let Ok(a) = p.figures.get(actor) else {
        return;
    };
    let (to_hit_bonus, thac0, damage_bonus) = (
        a.fighting.to_hit_bonus,
        a.fighting.thac0,
        a.fighting.damage_bonus,
    );
    let Ok(t) = p.figures.get(b.target) else {
        return;
    };
    // A charger has no Dexterity bonus to its AC, or is a class worse without one (DMG p.66).
    let mut tac = *t.ac;
    let charging = t.charging;
    let bonus = (-defensive_adjustment(t.dexterity.score)).max(0);
    // Under "Take Initiative!" a figure casting this round has none either (§9d); under
    // the book, a caster in the middle of a spell (DMG p.65). (Shown in the log only where
    // it changes the AC.)
    let book_casting = p.scene.0.rules.system == RulesSystem::Book
        && t.casting
            .is_some_and(|c| !c.device && !c.potion && c.started <= p.clock.tick());
    let ti_casting = casts_this_round(p, &t);
    let casting = !charging && bonus > 0 && (ti_casting || book_casting);
    if charging && p.clock.system == RulesSystem::TakeInitiative {
        tac.ac = crate::rules::take_initiative::charge::charge_adjusted_ac(tac.ac, bonus).0;
    } else if charging {
        tac.ac = charging_ac(tac.ac, bonus).0;
    } else if casting && ti_casting {
        tac.ac = crate::rules::take_initiative::spell::casting_ac(tac.ac, bonus).0;
    } else if casting {
        tac.ac = crate::rules::spell::casting_ac(tac.ac, bonus).0;
    }
    let vs = weapon
        .as_deref()
        .and_then(|w| tables::weapon(w).ok())
        .map_or(0, |w| w.vs_armor_type(tac.ac_type));
    let m = Modifiers {
        standing: to_hit_bonus,
        vs_armor_type: vs,
        charge: if b.charge {
            charge_to_hit_bonus(true).0
        } else {
            0
        },
        situational: b.modifier + b.adjust.iter().map(|a| a.value).sum::<i32>() - parried(p, b),
    };
    let wname = weapon.unwrap_or_else(|| "attack".into());
    if t.hp.condition.is_helpless() {
        let how = if t.hp.condition == Condition::Held {
            "held"
        } else {
            "asleep"
        };
        p.log.write(
            LogEvent::new(
                b.when,
                b.name.clone(),
                EventKind::Hit,
                Some(b.target_name.clone()),
                crate::words!(
                    "{wname}, routine {} of {}: hits without a roll, the target is {how} — {}",
                    b.routine,
                    b.of,
                    entry.why
                ),
                cite::HELPLESS_HIT,
            )
            .with(Payload::HelplessHit {
                weapon: wname.clone(),
                routine: b.routine,
                of: b.of,
            })
            .placed(entry.fixed),
        );
        let w = Some(wname.as_str());
        damage(p, seg, entry, b, (dmg, w), (damage_bonus, (1, None)));
        return;
    }
    let (need, _) = combat::needed_to_hit(thac0, tac.ac);
    let (d20, fixed) = p.dice.roll(DieKind::ToHit, &b.name, 20);
    // Under the house rule of fumbles a natural 1 misses whatever the bonuses.
    let fumbled = super::fumble::is_fumble(p, d20);
    let hit = combat::hits(d20, &m, need) && !fumbled;
    let blow_note = match (b.blow, parried(p, b)) {
        (_, n) if n > 0 => crate::words!(", parried -{n} (Take Initiative! §3)"),
        (1, _) => String::new(),
        (k, _) => crate::words!(", blow {k}"),
    } + &adjustments(&b.adjust);
    let timing = if entry.fixed || entry.after.is_empty() {
        String::new()
    } else {
        crate::words!(" (after {})", entry.after.join(", "))
    };
    p.log.write(
        LogEvent::new(
            b.when,
            b.name.clone(),
            if hit { EventKind::Hit } else { EventKind::Miss },
            Some(b.target_name.clone()),
            crate::words!(
                "{wname}, routine {} of {}{blow_note}: d20 {d20}{} {:+} = {} against AC {}{} ({}): {} — {}{timing}",
                b.routine,
                b.of,
                if fixed { "" } else { " (rolled)" },
                m.total(),
                d20 + m.total(),
                tac.ac,
                match (charging, casting) {
                    (true, _) => " (charging)",
                    (_, true) if ti_casting => " (casting, Take Initiative! §9d)",
                    (_, true) => " (casting: no Dexterity bonus, DMG p.65)",
                    _ => "",
                },
                needs_words(need, m.total()),
                if hit { "hit" } else { "miss" },
                entry.why
            ),
            entry.rule,
        )
        .with(Payload::Attack {
            weapon: wname.clone(),
            routine: b.routine,
            of: b.of,
            blow: b.blow,
            roll: d20,
            fixed_roll: fixed,
            modifier: m.total(),
            total: d20 + m.total(),
            needed: need,
            ac: tac.ac,
            hit,
            segment_fixed: entry.fixed,
            after: entry.after.clone(),
            beat: entry.beat,
        })
        .placed(entry.fixed),
    );
    if fumbled {
        return super::fumble::fumble(p, seg, entry, actor, (&b.name, &wname, b.when));
    }
    if hit {
        let critical = critical(p, entry, b, d20, need);
        let w = Some(wname.as_str());
        damage(p, seg, entry, b, (dmg, w), (damage_bonus, critical));
    }
}

/// A natural 20 under the house rule of critical hits doubles the damage; with confirming
/// criticals on, only if a second d20 (no bonuses, less the parry) hits too, which is
/// logged either way.
fn critical(p: &mut Play, entry: &PlanEntry, b: &Blow, d20: i32, need: i32) -> (i32, Option<Rule>) {
    use crate::rules::house;
    let rules = p.scene.0.rules.house;
    let (times, rule) = house::critical_multiplier(d20, rules);
    if rule.is_none() || !rules.confirm_criticals {
        return (times, rule);
    }
    let (second, _) = p.dice.roll(DieKind::ToHit, &b.name, 20);
    let parry = parried(p, b);
    let (stands, confirm) = house::confirms_critical(second, parry, need);
    let why = crate::words!(
        "confirms the natural 20: d20 {second}{} vs {need} needed, no bonuses: {}",
        if parry > 0 {
            format!(" - parry {parry}")
        } else {
            String::new()
        },
        if stands { "a critical" } else { "a plain hit" }
    );
    let e = LogEvent::new(
        b.when,
        b.name.clone(),
        EventKind::Act,
        Some(b.target_name.clone()),
        why,
        confirm,
    );
    p.log.write(e.placed(entry.fixed));
    if stands { (times, rule) } else { (1, None) }
}

/// The adjustments to hit, as the log shows them: ", from behind +2, medium range -2".
fn adjustments(adjust: &[Adjust]) -> String {
    adjust
        .iter()
        .map(|a| crate::words!(", {} {:+} ({})", a.why, a.value, a.rule.page_ref()))
        .collect()
}

/// The damage of a blow that hit, and what it does.
fn damage(
    p: &mut Play,
    seg: &mut Segment,
    entry: &PlanEntry,
    b: &Blow,
    (dmg, weapon): (&crate::dice::DiceExpr, Option<&str>),
    (bonus, (times, critical)): (i32, (i32, Option<Rule>)),
) {
    // A point-blank shot adds to the die and doubles that sum (UA p.18); the figure's own
    // bonus (magic) comes after: the Example of Melee's 2(d4+2), +2 for magic.
    let (more, twice) = b.point_blank.map_or((0, 1), |pb| (pb.damage, pb.times));
    let dealt = |die: i32| {
        die.saturating_add(more)
            .saturating_mul(twice)
            .saturating_add(bonus)
    };
    // A damage die fixed in the scene is the whole damage, as it always was.
    let damage = match p.dice.fixed(DieKind::Damage, &b.name) {
        Some(v) => v,
        None => {
            let total = dealt(dmg.roll(|s| p.dice.random(DieKind::Damage, &b.name, s)));
            let within = (dealt(dmg.min()), dealt(dmg.max()));
            p.dice.note(DieKind::Damage, &b.name, total, within);
            total
        }
    }
    .max(1);
    // A weapon set against a charge does double damage ("Take Initiative!" §9).
    let damage = if b.set {
        damage.saturating_mul(2)
    } else {
        damage
    };
    let split = super::brawl::split(
        p,
        entry.actor.unwrap_or(b.target),
        weapon,
        damage.saturating_mul(times),
    );
    wound(p, seg, entry, b, (split, critical));
}

/// Damage a spell does to `target` (a fireball's, PHB p.73), dealt as a blow's is: its hit
/// points, a fall, and what it does to a spell the target is casting.
pub(super) fn spell_wound(
    p: &mut Play,
    seg: &mut Segment,
    done: &super::Completed,
    (target, saved): (Entity, bool),
    damage: i32,
) {
    let Ok(t) = p.figures.get(target) else { return };
    let target_name = t.figure.name.clone();
    let Ok(c) = p.figures.get(done.caster) else {
        return;
    };
    let figure = crate::scene::FigureId(c.figure.index as u32);
    let spell = done.casting.what.clone();
    let entry = PlanEntry {
        segment: done.when.1,
        beat: done.beat.unwrap_or(0),
        fight: 0,
        fixed: true,
        after: Vec::new(),
        actor: Some(done.caster),
        figure,
        name: done.name.into(),
        what: Planned::Act { what: spell },
        rule: cite::SPELL_BLAST_DAMAGE,
        why: String::new(),
    };
    let b = Blow {
        name: done.name.into(),
        target,
        target_name,
        when: done.when,
        routine: 1,
        of: 1,
        blow: 1,
        attack: 1,
        charge: false,
        set: false,
        point_blank: None,
        modifier: 0,
        adjust: Vec::new(),
        landed: if saved {
            crate::rules::spell::AttackResult::Saved
        } else {
            crate::rules::spell::AttackResult::FailedSave
        },
    };
    let split = crate::rules::house::BrawlSplit {
        real: damage.max(0),
        subdual: 0,
    };
    wound(p, seg, &entry, &b, (split, None));
}

/// Damage on the target: its hit points, a fall, and what it does to a casting.
fn wound(
    p: &mut Play,
    seg: &mut Segment,
    entry: &PlanEntry,
    b: &Blow,
    (split, critical): (crate::rules::house::BrawlSplit, Option<Rule>),
) {
    // The blow's own moment: one placed in segment 0 is played with segment 1, yet comes
    // before a spell of no casting time that completes in segment 0 (an outside tester's
    // winner struck a 0-segment spell and it went off regardless).
    let tick = p
        .clock
        .tick()
        .min(p.clock.tick_of(p.plan.round, entry.segment));
    let Ok(t) = p.figures.get(b.target) else {
        return;
    };
    if t.psionic {
        let (round, segment) = p.clock.round_segment();
        p.commands
            .entity(b.target)
            .insert(MundaneHit(round, segment));
    }
    let Ok(mut t) = p.figures.get_mut(b.target) else {
        return;
    };
    let damage = split.real;
    let before = t.hp.condition;
    let hp_before = t.hp.current;
    t.hp.current -= damage;
    // Kept for the save of a casting begun later this round ("Take Initiative!" Basics).
    let this_round = p.clock.round_segment().0;
    let clock = &p.clock;
    t.casting_wounds.wound(tick, damage.max(0) as u32, |k| {
        clock.moment_of(k).0 == this_round
    });
    t.hp.subdual += split.subdual;
    let (mut cond, mut rule) = combat::after_wound(before, t.hp.current);
    let (out, subdued) = crate::rules::house::knocked_out(t.hp.current, t.hp.subdual);
    if out && cond.is_up() {
        (cond, rule) = (Condition::Unconscious, subdued);
    }
    t.hp.condition = cond;
    let subdual_total = t.hp.subdual;
    let hp_now = t.hp.current;
    if cond != before && t.hp.fell_in_round.is_none() {
        t.hp.fell_in_round = Some(b.when.0);
    }
    if before.is_up() && !cond.is_up() {
        seg.fell_at.insert(b.target, entry.beat);
    }
    let casting = t.casting.cloned();
    p.log.write(
        LogEvent::new(
            b.when,
            b.name.clone(),
            EventKind::Damage,
            Some(b.target_name.clone()),
            match critical {
                Some(_) => crate::words!(
                    "{damage} hp ({hp_before} → {hp_now}), doubled: a critical hit on a natural 20{}",
                    subdual_words(split.subdual, subdual_total)
                ),
                None => crate::words!(
                    "{damage} hp ({hp_before} → {hp_now}){}",
                    subdual_words(split.subdual, subdual_total)
                ),
            },
            match (critical, split.subdual) {
                (Some(c), _) => c,
                (None, 0) => rule,
                (None, _) => cite::HOUSE_BRAWL,
            },
        )
        .with(Payload::Damage {
            amount: damage,
            hp_before,
            hp_after: hp_now,
            critical: critical.is_some(),
            subdual: split.subdual,
        })
        .placed(entry.fixed),
    );
    if cond != before {
        let dead = cond == Condition::Dead;
        p.log.write(
            LogEvent::new(
                b.when,
                b.target_name.clone(),
                EventKind::Down,
                Some(b.name.clone()),
                if dead {
                    crate::words!("dies at {hp_now} hp")
                } else if rule == cite::HOUSE_SUBDUED {
                    crate::words!(
                        "is knocked out: {subdual_total} subdual damage, {hp_now} hp left"
                    )
                } else {
                    crate::words!("falls unconscious at {hp_now} hp")
                },
                rule,
            )
            .with(Payload::Down { hp: hp_now, dead })
            .placed(entry.fixed),
        );
    }
    // A hit on a magic-user between cantrips still to come ruins them (DMG p.65).
    if casting.is_none()
        && let Some(what) = cantrips_pending(p, b.target, entry).map(str::to_string)
    {
        return ruin_cantrips(p, seg, (entry, b), what);
    }
    // A hit on a caster before completion.
    let Some(c) = casting else { return };
    let Ok(intent) = p.figures.get(b.target).map(|t| t.intent.clone()) else {
        return;
    };
    if seg.done.contains(&b.target) || c.completes < tick {
        return;
    }
    // Ruined already in this beat by another: a blast saved against still says it did not
    // ruin the spell, so the log is the same whichever of the two is named first.
    if seg.ruined.contains(&b.target) {
        if let Some((detail, rule)) = saved_against(&c, b, cond.is_up()) {
            let e = LogEvent::new(
                b.when,
                b.target_name.clone(),
                EventKind::Act,
                Some(b.name.clone()),
                detail,
                rule,
            );
            p.log.write(e.placed(entry.fixed));
        }
        return;
    }
    // "Take Initiative!": a blow on the spell's own total is a tie, simultaneous with it
    // (Glossary), not damage before its completion.
    if p.clock.system == RulesSystem::TakeInitiative && c.completes == tick {
        return;
    }
    // Under either system, a blow (or a spell's damage) in the very beat the spell goes
    // off is simultaneous with it: both happen, whichever is named first (DMG p.63).
    if c.completes == tick && super::completes_in_beat(p, b.target, entry.beat) {
        return;
    }
    // "Take Initiative!": a damaged caster may still keep the spell with a save.
    let save = (p.clock.system == RulesSystem::TakeInitiative && !c.device && cond.is_up())
        .then(|| failure_save(p, b, &c, damage));
    if let Some((true, why)) = &save {
        let e = LogEvent::new(
            b.when,
            b.target_name.clone(),
            EventKind::Act,
            Some(b.name.clone()),
            why.clone(),
            cite::TI_SPELL_SAVE,
        );
        p.log.write(e.placed(entry.fixed));
        return;
    }
    let outcome = match save {
        Some((false, why)) => HitOnCaster::Ruined(cite::TI_SPELL_SAVE).with_note(why),
        _ => (hit_on_caster(&c, b.routine, cond.is_up(), b.landed), None),
    };
    let (kind, detail, rule) = match outcome.0 {
        HitOnCaster::Ruined(rule) => {
            seg.ruined.insert(b.target);
            end_casting(&mut p.commands, b.target, &c, &intent);
            if matches!(intent.act, Act::Cantrips { .. }) {
                let round = p.plan.round;
                p.commands
                    .entity(b.target)
                    .insert(crate::sim::components::CantripsRuined(round));
            }
            // A spell's damage (a fireball, magic missiles) names the spell, not a blow.
            let by = match &entry.what {
                Planned::Act { what } => what.as_str(),
                _ => "blow",
            };
            let why = crate::words!(
                "{} is ruined by {}'s {by} before it completes{}",
                c.what,
                b.name,
                outcome
                    .1
                    .map(|n| crate::words!(" ({n})"))
                    .unwrap_or_default()
            );
            (EventKind::SpellDisrupted, why, rule)
        }
        HitOnCaster::KeepsWorking(rule) if c.device => (
            EventKind::Act,
            crate::words!("{} keeps working despite the hit", c.what),
            rule,
        ),
        // Wounded by a spell it saved against: the spell goes on (Table VII.C.7, DMG p.65).
        HitOnCaster::KeepsWorking(_) if b.landed == crate::rules::spell::AttackResult::Saved => {
            let Some((detail, rule)) = saved_against(&c, b, cond.is_up()) else {
                return;
            };
            (EventKind::Act, detail, rule)
        }
        HitOnCaster::KeepsWorking(_) => return,
        HitOnCaster::LaterRoutine(rule) => (
            EventKind::Act,
            crate::words!("{} is not ruined: only a first routine can disrupt", c.what),
            rule,
        ),
    };
    let payload = if kind == EventKind::SpellDisrupted {
        Payload::SpellDisrupted {
            spell: c.what.clone(),
            disrupted_by: Some(b.name.to_string()),
        }
    } else {
        Payload::None
    };
    p.log.write(
        LogEvent::new(
            b.when,
            b.target_name.clone(),
            kind,
            Some(b.name.clone()),
            detail,
            rule,
        )
        .with(payload)
        .placed(entry.fixed)
        .answering_a_blow(),
    );
}

/// The cantrip of figure `target` the plan still has to complete this round, after the
/// blow in `entry`, if it casts cantrips and they are not already ruined.
fn cantrips_pending<'a>(p: &'a Play, target: Entity, entry: &PlanEntry) -> Option<&'a str> {
    let t = p.figures.get(target).ok()?;
    let round = p.plan.round;
    if !matches!(t.intent.act, Act::Cantrips { .. })
        || t.cantrips_ruined.is_some_and(|r| r.0 == round)
    {
        return None;
    }
    p.plan.entries.iter().find_map(|e| match &e.what {
        Planned::Complete { what }
            if e.actor == Some(target) && (e.segment, e.beat) > (entry.segment, entry.beat) =>
        {
            Some(what.as_str())
        }
        _ => None,
    })
}

/// A blow on a magic-user with cantrip `what` still to come: it and the rest are ruined
/// (DMG p.65), logged
/// as a spell ruined, and none of them completes this round.
fn ruin_cantrips(p: &mut Play, seg: &mut Segment, (entry, b): (&PlanEntry, &Blow), what: String) {
    seg.ruined.insert(b.target);
    let round = p.plan.round;
    p.commands
        .entity(b.target)
        .insert(crate::sim::components::CantripsRuined(round));
    p.log.write(
        LogEvent::new(
            b.when,
            b.target_name.clone(),
            EventKind::SpellDisrupted,
            Some(b.name.clone()),
            crate::words!("{what} is ruined by {}'s blow before it completes", b.name),
            cite::SPELL_DISRUPTED,
        )
        .with(Payload::SpellDisrupted {
            spell: what,
            disrupted_by: Some(b.name.to_string()),
        })
        .placed(entry.fixed)
        .answering_a_blow(),
    );
}

/// The interposing hand's rule does not depend on the target.
fn hand_target() -> effect::Target {
    effect::Target {
        hp: 0,
        hit_dice: None,
        save: None,
        immune: Default::default(),
        person: true,
    }
}

/// Under "Take Initiative!": the damaged caster's save to keep its spell — d20, less the
/// spell's level, plus the caster's level, less the damage — against its save vs. spells
/// (Basics). Without a saving throw in the scene, a fighter's of its hit dice (DMG p.79).
fn failure_save(p: &mut Play, b: &Blow, c: &Casting, damage: i32) -> (bool, String) {
    keeps_after_wounds(p, (b.target, &b.target_name), c, damage.max(0) as u32)
}

/// The save of a caster wounded in its casting (Basics), with `damage` just taken: every
/// hit point taken in the round its casting began (before a change of action to casting
/// too), and all taken since, before the spell goes off — a spell carried into the next
/// round keeps the wounds of its first. Whether it keeps the spell, and the words.
pub(super) fn keeps_after_wounds(
    p: &mut Play,
    (target, target_name): (Entity, &Name),
    c: &Casting,
    damage: u32,
) -> (bool, String) {
    let began = p.clock.moment_of(c.started).0;
    let clock = &p.clock;
    let Ok(mut t) = p.figures.get_mut(target) else {
        return (false, "no save".into());
    };
    // The blow just taken is counted as `damage`: those before it, not yet counted.
    let earlier = t
        .casting_wounds
        .before(clock.tick(), |tick| clock.moment_of(tick).0 == began);
    let dmg = t.casting_wounds.take(c.started, earlier, damage);
    let carried = began < clock.round_segment().0;
    let (level, save) = (t.hit_dice.map_or(1, |h| h.0), t.saving_throw.map(|s| s.0));
    // The level as the caster's total was costed: the table's, else the declared time.
    let declared = match &t.intent.act {
        Act::Cast { segments, .. } => *segments,
        _ => None,
    };
    let spell_level = level_of(tables::find_spell(&c.what).and_then(|s| s.level), declared);
    // Every caster saves: the scene's number, else a fighter's of its hit dice (DMG p.79),
    // as against a blast.
    let (save, by) = crate::rules::effect::save_vs_spell(save, t.hit_dice.map(|h| h.0));
    let d20 = p.dice.roll(DieKind::Save, target_name, 20).0.clamp(1, 20) as u32;
    let (keeps, _) = keeps_spell(d20, spell_level, level, dmg, save);
    let sum = i64::from(d20) - i64::from(spell_level) + i64::from(level) - i64::from(dmg);
    let why = crate::words!(
        "d20 {d20} - spell level {spell_level} + caster level {level} - damage {} {dmg} = {sum} vs save {save}{}: {}",
        if carried {
            "since it began casting"
        } else {
            "this round"
        },
        if by == crate::rules::cite::SAVE_AS_FIGHTER {
            " (a fighter's of its hit dice, DMG p.79)"
        } else {
            ""
        },
        if keeps { "keeps the spell" } else { "fails" }
    );
    (keeps, why)
}

/// The parry in time against this blow, if any ("Take Initiative!" §3): its penalty.
fn parried(p: &Play, b: &Blow) -> i32 {
    p.plan
        .parries
        .iter()
        .filter(|((a, r, k), t, _)| {
            *a == b.name && *r == b.routine && *k == b.attack && *t == b.target_name
        })
        .map(|x| x.2)
        .sum()
}

/// ", and 2 subdual (5 in all)" for a brawling blow's subdual damage; nothing without.
fn subdual_words(now: i32, total: i32) -> String {
    if now == 0 {
        String::new()
    } else {
        crate::words!(", and {now} subdual ({total} in all)")
    }
}

/// Whether a figure casts a spell this round under "Take Initiative!" (§9d): one begun or
/// under way when the round was planned (a spell that went off or was ruined counts for the
/// rest of the round).
fn casts_this_round(p: &Play, t: &super::FighterReadOnlyItem) -> bool {
    p.scene.0.rules.system == RulesSystem::TakeInitiative
        && t.casts_in.is_some_and(|c| c.0 == p.clock.round_segment().0)
}

/// The roll a blow needs, in words: "needs 17"; when the matrix asks 1 or less, what the
/// die must show after the modifiers — "any roll hits" or "a d20 of 4 or better" — with
/// the matrix's number beside it, never a bare "-2 needed".
fn needs_words(need: i32, modifier: i32) -> String {
    if need > 1 {
        return crate::words!("needs {need}");
    }
    let die = need - modifier;
    if die <= 1 {
        crate::words!("any roll hits; the matrix asks {need}")
    } else {
        crate::words!("a d20 of {die} or better; the matrix asks {need}")
    }
}

/// The note for a caster wounded by a spell it saved against, whose own spell that blast
/// does not ruin (Table VII.C.7, DMG p.65): its words and rule; None for a device, or for
/// anything but a saved-against blast.
fn saved_against(c: &Casting, b: &Blow, caster_up: bool) -> Option<(String, Rule)> {
    if c.device || b.landed != crate::rules::spell::AttackResult::Saved {
        return None;
    }
    let HitOnCaster::KeepsWorking(rule) = hit_on_caster(c, b.routine, caster_up, b.landed) else {
        return None;
    };
    let detail = crate::words!(
        "{} is not ruined by {}'s spell: {} saved against it",
        c.what,
        b.name,
        b.target_name
    );
    Some((detail, rule))
}
