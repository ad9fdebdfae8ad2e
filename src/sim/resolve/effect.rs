//! What a completed spell does, applied at once so that later beats of the same segment
//! already see it: a slain or held target strikes no more, a silenced caster's spell is
//! lost. [`rules::effect`](crate::rules::effect) decides each outcome; this module only
//! changes the figures and writes the `effect` events.

use super::{Completed, Play, Segment};
use crate::name::Name;
use crate::rules::cite::{self, Rule};
use crate::rules::combat::Condition;
use crate::rules::effect::{self, Effect, Outcome, Save};
use crate::scene::DieKind;
use crate::sim::components::{
    Casting, Hasted, Intent, Interposed, Mark, Position, Slowed, SpellArea,
};
use crate::sim::disruption::end_casting;
use crate::sim::log::{EventKind, LogEvent, Payload};
use crate::tables;
use bevy::prelude::*;

/// Applies what `done` does, or logs that its effect is not modelled.
pub(super) fn apply(p: &mut Play, seg: &mut Segment, done: &Completed) {
    let known = tables::find_spell(&done.casting.what);
    let Some(effect) = known.and_then(|s| s.effect) else {
        let what = if done.casting.potion {
            "the potion's effect is not modelled"
        } else {
            "its effect is not modelled"
        };
        let target = done.casting.target.clone().map(Name::from);
        log(p, done, target, what.into(), None, cite::NOT_MODELLED);
        return;
    };
    // An area spell cast at a point fills its area there, whoever stands in it.
    if let (Some(point), Some(radius_ft)) = (done.casting.at, effect.radius_ft()) {
        let at = Position {
            x: point.0,
            y: point.1,
        };
        let words = if crate::narrate::narrating() {
            crate::scene::point_words(point)
        } else {
            String::new()
        };
        return fill(p, seg, done, effect, (at, words.into(), None), radius_ft);
    }
    // Without a target a spell on oneself (haste, barkskin, light) takes the caster; one
    // aimed at a foe has nothing to work on.
    let target = match &done.casting.target {
        Some(t) => p
            .figures
            .iter()
            .find(|f| &f.figure.name == t)
            .map(|f| f.entity),
        None if effect.on_caster_without_target() => Some(done.caster),
        None => None,
    };
    let Some(target) = target else {
        let o = Some(Outcome::NoTarget);
        log(p, done, None, "it has no target".into(), o, effect.rule());
        return;
    };
    match effect.radius_ft() {
        Some(radius_ft) => area(p, seg, done, effect, target, radius_ft),
        None => on_figure(p, seg, done, effect, target),
    }
}

/// An effect on one figure: decided (with its save), applied, marked and logged.
fn on_figure(p: &mut Play, seg: &mut Segment, done: &Completed, effect: Effect, target: Entity) {
    let Ok(t) = p.figures.get(target) else { return };
    let (tname, before) = (t.figure.name.clone(), t.hp.condition);
    if before == Condition::Dead {
        let why = format!("{tname} is already dead");
        let o = Some(Outcome::AlreadyDead);
        log(p, done, Some(tname), why, o, effect.rule());
        return;
    }
    if let Effect::Missiles { max } = effect {
        return missiles(p, seg, done, (target, tname), max);
    }
    let (outcome, rule, save) = decide(p, effect, target);
    let detail = change(p, done, target, outcome);
    if outcome.took() {
        mark(p, target, (done.casting.what.clone(), Mark::Spell(outcome)));
    }
    if matches!(outcome, Outcome::Slain | Outcome::Held | Outcome::Asleep) {
        helpless(p, seg, done, target, (outcome, rule));
    }
    let detail = match save {
        Some(s) if s.made() => format!("{detail} (save: d20 {} vs {})", s.rolled, s.needed),
        Some(s) => format!(
            "{detail} (fails its save: d20 {} vs {})",
            s.rolled, s.needed
        ),
        None => detail,
    };
    log(p, done, Some(tname.clone()), detail, Some(outcome), rule);
    if outcome == Outcome::Slain && before != Condition::Dead {
        slain(p, done, (target, tname), rule);
    }
}

/// A figure the spell slew is down, dead, as one a blow kills (its `down` event: what
/// `odds` and `compare` count, and what the viewer greys).
fn slain(p: &mut Play, done: &Completed, (target, tname): (Entity, Name), rule: Rule) {
    let hp = p.figures.get(target).map_or(0, |t| t.hp.current);
    p.log.write(
        LogEvent::new(
            done.when,
            tname,
            EventKind::Down,
            Some(done.name.into()),
            crate::words!("dies: slain by {}", done.casting.what),
            rule,
        )
        .with(Payload::Down { hp, dead: true }),
    );
}

/// Changes the figure as `outcome` says, and says how in a few words.
fn change(p: &mut Play, done: &Completed, target: Entity, outcome: Outcome) -> String {
    let Ok(mut t) = p.figures.get_mut(target) else {
        return String::new();
    };
    let tname = t.figure.name.clone();
    match outcome {
        Outcome::Slain => {
            t.hp.condition = Condition::Dead;
            format!("{tname} is slain")
        }
        // An unconscious figure stays unconscious; one awake is held or sleeps.
        Outcome::Held | Outcome::Asleep => {
            if t.hp.condition.is_up() {
                t.hp.condition = if outcome == Outcome::Held {
                    Condition::Held
                } else {
                    Condition::Asleep
                };
            }
            format!("{tname} is {} and can do nothing", outcome.word())
        }
        // Haste and slow undo each other (PHB p.74, p.76); neither doubles up on itself.
        Outcome::Hasted if t.hasted => format!("{tname} is already hasted: no more"),
        Outcome::Slowed if t.slowed => format!("{tname} is already slowed: no more"),
        Outcome::Hasted => {
            t.rate.change(|r| r.hasted().0);
            t.movement.inches = t.movement.inches.saturating_mul(2);
            if t.slowed {
                p.commands.entity(target).remove::<Slowed>();
                return format!("{tname}'s slow is undone: {} attacks", t.rate.rate);
            }
            p.commands.entity(target).insert(Hasted);
            format!("{tname} is hasted: {} attacks", t.rate.rate)
        }
        Outcome::Slowed => {
            t.rate.change(|r| r.slowed().0);
            t.movement.inches /= 2;
            if t.hasted {
                p.commands.entity(target).remove::<Hasted>();
                return format!("{tname}'s haste is undone: {} attacks", t.rate.rate);
            }
            p.commands.entity(target).insert(Slowed);
            format!("{tname} is slowed: {} attacks", t.rate.rate)
        }
        Outcome::Armor(bonus) => {
            let before = t.ac.ac;
            t.ac.ac = before.saturating_sub(bonus);
            format!("{tname}'s AC {before} → {}", t.ac.ac)
        }
        Outcome::Interposed => {
            p.commands.entity(done.caster).insert(Interposed {
                against: target,
                spell: done.casting.what.clone(),
            });
            format!("the hand stands between {} and {tname}", done.name)
        }
        Outcome::Saved => format!("{tname} saves"),
        Outcome::TooStrong => format!("{tname} is beyond its power"),
        Outcome::HitDiceUnknown => format!("{tname}'s hit dice are not given: not applied"),
        Outcome::Spent => format!("{tname} stays awake: the spell is spent"),
        Outcome::Immune => format!("{tname} is not affected: its kind ignores the spell"),
        Outcome::NoTarget | Outcome::AlreadyDead => String::new(),
        Outcome::Area | Outcome::Caught => format!("around {tname}"),
        Outcome::Blinded => format!("{tname} is blinded"),
    }
}

/// Notes on the figure what the spell did, for the viewer.
fn mark(p: &mut Play, target: Entity, mark: (String, Mark)) {
    let Ok(mut t) = p.figures.get_mut(target) else {
        return;
    };
    t.affected.0.push(mark);
}

/// A figure slain, held or asleep: it falls in this beat (its own blow in the same beat
/// still lands) and a spell it was casting is lost.
fn helpless(
    p: &mut Play,
    seg: &mut Segment,
    done: &Completed,
    target: Entity,
    (outcome, rule): (Outcome, Rule),
) {
    if let Some(b) = done.beat {
        seg.fell_at.insert(target, b);
    }
    // Its own spell going off in this very beat is not lost: the two are simultaneous and
    // both happen (DMG p.63), whichever the log names first.
    // Nor one that already went off earlier in this segment, or was ruined: a finished
    // spell is not lost (DMG p.65 ruins only a casting).
    if done
        .beat
        .is_some_and(|b| super::completes_in_beat(p, target, b))
        || seg.done.contains(&target)
        || seg.ruined.contains(&target)
    {
        return;
    }
    let Ok(t) = p.figures.get(target) else { return };
    let Some(casting) = t.casting.cloned() else {
        return;
    };
    let lost = Lost {
        entity: target,
        name: t.figure.name.clone(),
        casting,
        intent: t.intent.clone(),
    };
    lose(p, seg, lost, outcome.word(), rule);
}

/// Decides the outcome on `target`, rolling its save where the effect allows one.
fn decide(p: &mut Play, effect: Effect, target: Entity) -> (Outcome, Rule, Option<Save>) {
    let Ok(t) = p.figures.get(target) else {
        return (Outcome::TooStrong, effect.rule(), None);
    };
    let target_is = effect::Target {
        hp: t.hp.current,
        hit_dice: t.hit_dice.map(|h| h.0),
        save: None,
        immune: t.immune.map(|i| i.0).unwrap_or_default(),
        person: !t.not_a_person,
    };
    let name = t.figure.name.clone();
    // Every figure saves, as it does against a blast: the scene's number, else a fighter's
    // of its hit dice (DMG p.79). A figure the spell does not work on rolls no save.
    let (needed, _) = effect::save_vs_spell(t.saving_throw.map(|s| s.0), target_is.hit_dice);
    let save = (effect.allows_save() && !effect.passes_by(&target_is)).then(|| Save {
        rolled: p.dice.roll(DieKind::Save, &name, 20).0,
        needed,
    });
    let (o, rule) = effect::outcome(effect, effect::Target { save, ..target_is });
    (o, rule, save)
}

/// An area around `target` (silence, light, darkness); silence ends every casting in it.
fn area(
    p: &mut Play,
    seg: &mut Segment,
    done: &Completed,
    effect: Effect,
    target: Entity,
    radius_ft: f64,
) {
    let Ok(t) = p.figures.get(target) else { return };
    let (at, tname) = (*t.pos, t.figure.name.clone());
    if matches!(effect, Effect::Light { .. }) {
        at_the_eyes(p, done, target);
    }
    fill(p, seg, done, effect, (at, tname, Some(target)), radius_ft);
}

/// Light cast at a foe goes at its eyes (PHB p.44): it saves — the globe goes off behind
/// it — or is blinded; said before the globe. A light on a friend is a lamp: no save.
fn at_the_eyes(p: &mut Play, done: &Completed, target: Entity) {
    let (Ok(t), Ok(c)) = (p.figures.get(target), p.figures.get(done.caster)) else {
        return;
    };
    if t.side.0 == c.side.0 || t.hp.condition == Condition::Dead {
        return;
    }
    let name = t.figure.name.clone();
    let (needed, _) = effect::save_vs_spell(t.saving_throw.map(|s| s.0), t.hit_dice.map(|h| h.0));
    let save = Save {
        rolled: p.dice.roll(DieKind::Save, &name, 20).0,
        needed,
    };
    let (outcome, rule) = effect::light_at_the_eyes(save);
    let words = if save.made() {
        crate::words!(
            "{name} saves against the light at its eyes (d20 {} vs {needed}): the globe goes off behind it",
            save.rolled
        )
    } else {
        mark(p, target, (done.casting.what.clone(), Mark::Spell(outcome)));
        crate::words!(
            "{name} fails its save against the light at its eyes (d20 {} vs {needed}): blinded (what blindness does in the fight is not modelled)",
            save.rolled
        )
    };
    log(p, done, Some(name), words, Some(outcome), rule);
}

/// An area centred `at` (round the figure `on`, which it follows, or at a point, named in
/// `tname`): a blast or sleep works on whoever is in it; silence, light and darkness stay.
fn fill(
    p: &mut Play,
    seg: &mut Segment,
    done: &Completed,
    effect: Effect,
    (at, tname, on): (Position, Name, Option<Entity>),
    radius_ft: f64,
) {
    if let Effect::Blast { d6_per_level, .. } = effect {
        return blast(p, seg, done, (at, radius_ft), d6_per_level);
    }
    if let Effect::Sleep { .. } = effect {
        return sleep(p, seg, done, effect, (at, &tname, radius_ft));
    }
    p.commands.spawn(SpellArea {
        spell: done.casting.what.clone(),
        effect,
        radius_ft,
        on,
        at,
    });
    // Round a figure it names the figure; at a point, no one.
    let whom = on.map(|_| tname.clone());
    let words = crate::words!("{radius_ft} ft around {tname}");
    log(p, done, whom, words, Some(Outcome::Area), effect.rule());
    if matches!(effect, Effect::Silence { .. }) {
        silence(p, seg, at, radius_ft, effect.rule());
    }
}

/// Every spell being cast inside a silence is lost; devices and potions go on.
fn silence(p: &mut Play, seg: &mut Segment, at: Position, radius_ft: f64, rule: Rule) {
    let mut lost: Vec<_> = p
        .figures
        .iter()
        .filter(|f| effect::inside(f.pos.distance(&at), radius_ft))
        .filter(|f| !seg.done.contains(&f.entity) && !seg.ruined.contains(&f.entity))
        .filter_map(|f| {
            let c = f.casting.filter(|c| !c.device && !c.potion)?.clone();
            let lost = Lost {
                entity: f.entity,
                name: f.figure.name.clone(),
                casting: c,
                intent: f.intent.clone(),
            };
            Some((f.figure.index, lost))
        })
        .collect();
    lost.sort_by_key(|l| l.0);
    for (_, l) in lost {
        lose(p, seg, l, "silenced", rule);
    }
}

/// A casting an effect ends.
struct Lost {
    entity: Entity,
    name: Name,
    casting: Casting,
    intent: Intent,
}

/// A casting lost to an effect: held, asleep, slain or silenced.
fn lose(p: &mut Play, seg: &mut Segment, lost: Lost, why: &str, rule: Rule) {
    let Lost {
        entity: e,
        name,
        casting: c,
        intent,
    } = lost;
    seg.ruined.insert(e);
    end_casting(&mut p.commands, e, &c, &intent);
    p.log.write(
        LogEvent::new(
            p.clock.round_segment(),
            name,
            EventKind::SpellDisrupted,
            None,
            format!("{} is lost: the caster is {why}", c.what),
            rule,
        )
        .with(Payload::SpellDisrupted {
            spell: c.what.clone(),
            disrupted_by: None,
        }),
    );
}

/// The `effect` event.
fn log(
    p: &mut Play,
    done: &Completed,
    target: Option<Name>,
    detail: String,
    outcome: Option<Outcome>,
    rule: Rule,
) {
    p.log.write(
        LogEvent::new(
            done.when,
            done.name.to_string(),
            EventKind::Effect,
            target,
            format!("{}: {detail}", done.casting.what),
            rule,
        )
        .with(Payload::Effect {
            spell: done.casting.what.clone(),
            outcome: outcome.into(),
            took: outcome.is_some_and(Outcome::took),
        }),
    );
}

/// Whether open ground joins a burst's centre to `at` on the map (always, with no map).
fn open_from(p: &Play, centre: Position, at: Position) -> bool {
    p.grid
        .0
        .as_ref()
        .is_none_or(|g| g.open_line_ft((centre.x, centre.y), (at.x, at.y)))
}

/// A blast (fireball, PHB p.73): every figure within its radius is caught — under "Take
/// Initiative!" a mover by the window of §11b — and takes its damage, rolled once for the
/// blast, half for a figure that makes its save vs. spells.
fn blast(
    p: &mut Play,
    seg: &mut Segment,
    done: &Completed,
    (centre, radius_ft): (Position, f64),
    d6_per_level: u32,
) {
    let ti = p.clock.system == crate::rules::options::RulesSystem::TakeInitiative;
    let mut caught: Vec<(usize, Entity, Name, String)> = Vec::new();
    for f in p.figures.iter() {
        if f.hp.condition == Condition::Dead {
            continue;
        }
        let mover = p.plan.moves.iter().find(|m| ti && m.name == f.figure.name);
        let standing = |at: Position| {
            effect::burst_reaches(at.distance(&centre), radius_ft, open_from(p, centre, at))
                .0
                .then(|| format!("{} ft from its centre", at.distance(&centre).round()))
        };
        let why = match mover {
            // §11b's three cases: moving through the area as it goes off (its total within
            // the window, its path crossing), else still where it started (its total after
            // the spell's), else where its move ended (before).
            Some(m) => {
                let crosses = path_distance(centre, m.from, m.to) <= radius_ft;
                let (n, _) = effect::window(2.0 * radius_ft, m.move_ft);
                let at = i64::from(done.when.1);
                let (inside, _) = effect::within_window(i64::from(m.total), at, n);
                if crosses && inside {
                    Some(format!(
                        "moving through it on {}, within ±{n} of {at} (Take Initiative! §11b)",
                        m.total
                    ))
                } else if i64::from(m.total) > at {
                    let from = Position {
                        x: m.from.0,
                        y: m.from.1,
                    };
                    standing(from)
                        .map(|w| format!("{w}, where it stands until it moves on {}", m.total))
                } else {
                    standing(*f.pos).map(|w| format!("{w}, where its move ended on {}", m.total))
                }
            }
            None => standing(*f.pos),
        };
        if let Some(w) = why {
            caught.push((f.figure.index, f.entity, f.figure.name.clone(), w));
        }
    }
    caught.sort_by_key(|c| c.0);
    let rolled = blast_roll(p, done, d6_per_level);
    // Said, not left silent: a blast with no one in it is not an effect left unmodelled
    // (an outside tester's fireball at ground the orcs had left said nothing).
    if caught.is_empty() {
        let detail = "it catches no one: no figure is in its area".to_string();
        log(
            p,
            done,
            None,
            detail,
            Some(Outcome::NoTarget),
            cite::SPELL_BLAST,
        );
    }
    for (_, e, name, why) in caught {
        mark(
            p,
            e,
            (done.casting.what.clone(), Mark::Spell(Outcome::Caught)),
        );
        let Some((rolled, dice)) = rolled else {
            let detail = format!("{name} is caught: {why}; its damage is not modelled");
            log(
                p,
                done,
                Some(name),
                detail,
                Some(Outcome::Caught),
                cite::SPELL_BLAST,
            );
            continue;
        };
        let (save, said) = blast_save(p, e, &name);
        let (damage, made, rule) = effect::blast_damage(rolled, save);
        let half = if made { ", half" } else { "" };
        let detail =
            format!("{name} is caught: {why}; {dice}d6 = {rolled}{said}: {damage} hp{half}");
        log(p, done, Some(name), detail, Some(Outcome::Caught), rule);
        // Saved against, the blast wounds but does not interrupt a spell (Table VII.C.7).
        super::strike::spell_wound(p, seg, done, (e, made), damage);
    }
}

/// Magic missiles on one figure (PHB p.67): no roll to hit and no save; the damage is
/// a wound like a blow's, so it ruins a spell the figure is still casting (DMG p.65).
fn missiles(
    p: &mut Play,
    seg: &mut Segment,
    done: &Completed,
    (e, name): (Entity, Name),
    max: Option<u32>,
) {
    let (n, rule) = effect::missiles(caster_level(p, done), max);
    let damage = spell_damage(p, done, (n, 4, 1));
    mark(
        p,
        e,
        (done.casting.what.clone(), Mark::Spell(Outcome::Caught)),
    );
    let missiles = if n == 1 {
        "missile strikes"
    } else {
        "missiles strike"
    };
    let detail = format!("{n} {missiles} {name}: {n}d4+{n} = {damage} hp");
    log(p, done, Some(name), detail, Some(Outcome::Caught), rule);
    super::strike::spell_wound(p, seg, done, (e, false), damage);
}

/// A figure inside a sleep's area: scene index, entity, name, (hit dice, given), distance.
type Sleeper = (usize, Entity, Name, (u32, Option<(u32, i32)>), f64);

/// Sleep in an area (PHB p.68): those awake within it, weakest first and nearest first
/// among equals, each using its share of the number rolled for its hit dice, until the
/// spell is spent ([`effect::sleepers`]); none over 4 hit dice. The number for each kind
/// present is rolled once (d4s, keyed by the caster).
fn sleep(
    p: &mut Play,
    seg: &mut Segment,
    done: &Completed,
    sleep: Effect,
    (centre, on, radius_ft): (Position, &str, f64),
) {
    let in_area = |f: &super::FighterReadOnlyItem| {
        let open = open_from(p, centre, *f.pos);
        f.hp.condition.is_up() && effect::burst_reaches(f.pos.distance(&centre), radius_ft, open).0
    };
    // Those it does not work on take none of its strength (MM: the undead).
    let mut immune: Vec<(usize, Name)> = p
        .figures
        .iter()
        .filter(|f| in_area(f) && sleep.ignored_by(f.immune.map(|i| i.0).unwrap_or_default()))
        .map(|f| (f.figure.index, f.figure.name.clone()))
        .collect();
    immune.sort_unstable();
    let mut inside: Vec<Sleeper> = p
        .figures
        .iter()
        .filter(|f| in_area(f) && !sleep.ignored_by(f.immune.map(|i| i.0).unwrap_or_default()))
        .map(|f| {
            // No hit dice given: counted as 1 (the log says so); its row of the table
            // by its dice and the points added to them (a 1+1 hobgoblin is not a 1-HD orc).
            let given = f.hit_dice.map(|h| (h.0, h.1));
            let band = effect::sleep_band(given);
            let d = f.pos.distance(&centre);
            (
                f.figure.index,
                f.entity,
                f.figure.name.clone(),
                (band, given),
                d,
            )
        })
        .collect();
    inside.sort_by_key(|c| c.0);
    // The number for each kind present, rolled once, weakest kind first.
    let mut kinds: Vec<u32> = inside.iter().map(|c| c.3.0).collect();
    kinds.sort_unstable();
    kinds.dedup();
    let mut rolled = std::collections::BTreeMap::new();
    for band in kinds {
        if let (Some((n, sides, added)), _) = effect::sleep_dice(band) {
            let total: i32 = (0..n)
                .map(|_| match sides {
                    1 => 1,
                    // A fixed die larger than the die rolled (a d4's 4 for the d2 of
                    // 4+1 to 4+4 HD) counts as its highest face.
                    _ => p
                        .dice
                        .roll(DieKind::D4, done.name, sides)
                        .0
                        .clamp(1, sides as i32),
                })
                .sum();
            rolled.insert(band, (total + added).max(0) as u32);
        }
    }
    let candidates: Vec<(u32, f64)> = inside.iter().map(|c| (c.3.0, c.4)).collect();
    let (asleep, rule) = effect::sleepers(&candidates, |hd| rolled.get(&hd).copied().unwrap_or(1));
    let counts = rolled
        .iter()
        .map(|(&band, n)| format!("{n} of {}", effect::sleep_band_words(band)))
        .collect::<Vec<_>>()
        .join(", or ");
    let strength = match counts.is_empty() {
        true => "no one in it weak enough to sleep".to_string(),
        false => format!("enough for {counts}"),
    };
    log(
        p,
        done,
        None,
        format!("{radius_ft} ft around {on}: {strength}"),
        Some(Outcome::Area),
        cite::SLEEP_COUNT,
    );
    for (_, name) in immune {
        let why = format!("{name} is not affected: its kind does not sleep");
        log(
            p,
            done,
            Some(name),
            why,
            Some(Outcome::Immune),
            cite::MONSTER_IMMUNE,
        );
    }
    for (k, (_, e, name, (band, given), _)) in inside.into_iter().enumerate() {
        let hd_words = match given {
            Some((d, 0)) => format!("{d} HD"),
            Some((d, p)) => format!("{d}{p:+} HD"),
            None => "no hit dice given: taken as 1".to_string(),
        };
        if asleep.contains(&k) {
            let detail = change(p, done, e, Outcome::Asleep);
            mark(
                p,
                e,
                (done.casting.what.clone(), Mark::Spell(Outcome::Asleep)),
            );
            helpless(p, seg, done, e, (Outcome::Asleep, rule));
            let why = format!("{detail} ({hd_words})");
            log(p, done, Some(name), why, Some(Outcome::Asleep), rule);
        } else {
            let (why, o, rule) = match effect::sleep_dice(band) {
                (None, count) => (
                    format!("{name} ({hd_words}) is too strong to sleep"),
                    Outcome::TooStrong,
                    count,
                ),
                (Some(_), count) if rolled.get(&band) == Some(&0) => (
                    format!(
                        "{name} ({hd_words}) stays awake: the spell's 0 or 1 of {} came to none",
                        effect::sleep_band_words(band)
                    ),
                    Outcome::Spent,
                    count,
                ),
                (Some(_), _) => (
                    format!(
                        "{name} ({hd_words}) stays awake: the spell is spent before it reaches it (the weakest sleep first, then the nearest the centre)"
                    ),
                    Outcome::Spent,
                    rule,
                ),
            };
            log(p, done, Some(name), why, Some(o), rule);
        }
    }
}

/// The blast's damage, rolled once for all it catches: so many d6 per level of the caster
/// (the scene's fixed damage die for the caster if it gives one), with the dice counted.
/// None where the spell's damage is not modelled.
fn blast_roll(p: &mut Play, done: &Completed, d6_per_level: u32) -> Option<(i32, u32)> {
    if d6_per_level == 0 {
        return None;
    }
    let dice = caster_level(p, done).saturating_mul(d6_per_level).min(40);
    Some((spell_damage(p, done, (dice, 6, 0)), dice))
}

/// The level the completed spell's caster casts at ([`effect::caster_level`]: its hit
/// dice, else the least level that casts the spell).
fn caster_level(p: &Play, done: &Completed) -> u32 {
    let hit_dice = p
        .figures
        .get(done.caster)
        .ok()
        .and_then(|c| c.hit_dice.map(|h| h.0));
    let spell_level = tables::find_spell(&done.casting.what).and_then(|s| s.level);
    effect::caster_level(hit_dice, spell_level).0
}

/// A spell's damage, `count` dice of `sides` each with `plus` added to each: the scene's
/// fixed damage die for the caster if it gives one, else rolled (and noted for the table
/// dice); never below 0.
fn spell_damage(p: &mut Play, done: &Completed, (count, sides, plus): (u32, u32, i32)) -> i32 {
    let total = match p.dice.fixed(DieKind::Damage, done.name) {
        Some(v) => v,
        None => {
            let total = (0..count)
                .map(|_| p.dice.random(DieKind::Damage, done.name, sides) as i32 + plus)
                .sum();
            let n = count as i32;
            let within = (
                n.saturating_mul(1 + plus),
                n.saturating_mul(sides as i32 + plus),
            );
            p.dice.note(DieKind::Damage, done.name, total, within);
            total
        }
    };
    total.max(0)
}

/// A caught figure's save vs. spells, rolled, with words for the log.
fn blast_save(p: &mut Play, e: Entity, name: &str) -> (Option<Save>, String) {
    let Ok(t) = p.figures.get(e) else {
        return (None, String::new());
    };
    let given = t.saving_throw.map(|s| s.0);
    let (needed, rule) = effect::save_vs_spell(given, t.hit_dice.map(|h| h.0));
    let rolled = p.dice.roll(DieKind::Save, name, 20).0;
    let save = Save { rolled, needed };
    let verdict = if save.made() { "made" } else { "failed" };
    (
        Some(save),
        format!(
            "; save vs. spells d20 {rolled} vs {needed} ({}): {verdict}",
            rule.page_ref()
        ),
    )
}

/// The least distance from `c` to the path from `a` to `b`.
fn path_distance(c: Position, a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((c.x - a.0) * dx + (c.y - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (px, py) = (a.0 + t * dx, a.1 + t * dy);
    ((c.x - px).powi(2) + (c.y - py).powi(2)).sqrt()
}
