//! The calculator's actions as a small scene, planned by the same engine as `run` and the
//! viewer: the figures stand together (chargers off at the distance they must cover), each
//! aims at every opponent, the sides' dice are fixed, and the round's order is read from
//! the engine's plan. So the calculator and the engine cannot disagree.

use super::{Defaults, Does, Figure};
use crate::rules::action::Declared;
use crate::rules::cite::Rule;
use crate::rules::sequence::Sequence;
use crate::scene::figure::{DEFAULT_REACH_FT, FigureStats};
use crate::scene::{Act, Scene};
use crate::sim::{LogEvent, Plan, Runner};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// How far beyond reach a closing figure starts (2", indoors).
const CLOSE_FROM_FT: f64 = 20.0;

/// A figure the round's order leaves out, and why, in the engine's words (a figure closing
/// strikes no blow the round it closes, DMG p.66).
#[derive(Clone, Debug, Serialize)]
pub struct Idle {
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: String,
    /// Why it has no place in the order.
    pub why: String,
    /// The rule that decided.
    pub rule: Rule,
}

/// The scene of these actions: one round, dice fixed, no map.
pub fn to_scene(figures: &[Figure], defaults: &Defaults) -> Scene {
    let mut combatants = Vec::new();
    let mut declare = BTreeMap::new();
    let mut initiative = BTreeMap::new();
    let mut placed: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    // Everyone but chargers at the origin; a charger at its distance from its target.
    let moves_up = |f: &&Figure| matches!(f.does, Does::Charge { .. } | Does::Close);
    let order: Vec<&Figure> = figures
        .iter()
        .filter(|f| !moves_up(f))
        .chain(figures.iter().filter(moves_up))
        .collect();
    for f in order {
        let foes: Vec<String> = figures
            .iter()
            .filter(|o| o.declared.side != f.declared.side)
            .map(|o| o.declared.name.clone())
            .collect();
        let charged = figures
            .iter()
            .any(|o| o.declared.side != f.declared.side && matches!(o.does, Does::Charge { .. }));
        let base = || {
            foes.first()
                .and_then(|t| placed.get(t).copied())
                .unwrap_or((0.0, 0.0))
        };
        let at = match f.does {
            Does::Charge { gap_ft } => (base().0, base().1 + gap_ft + DEFAULT_REACH_FT),
            // Closing is moving up into reach: it starts two inches (20 ft) beyond it —
            // unless a foe charges it, whose arrival is measured from where it stands.
            Does::Close if !charged => (base().0, base().1 + CLOSE_FROM_FT + DEFAULT_REACH_FT),
            _ => (0.0, 0.0),
        };
        placed.insert(f.declared.name.clone(), at);
        let act = match &f.does {
            _ if f.declared.routines == 0 => Act::Hold,
            Does::Melee => Act::melee(foes),
            Does::Missile => Act::missile(foes),
            Does::Charge { .. } => Act::charge(foes),
            Does::Cast {
                spell,
                segments,
                device,
            } => Act::Cast {
                spell: spell.clone(),
                target: foes.first().cloned(),
                segments: Some(*segments),
                device: *device,
                at: None,
            },
            Does::Turn => Act::Turn { targets: foes },
            Does::Set => Act::Set { against: foes },
            Does::Close => Act::Close { targets: foes },
            Does::Other => Act::Other("acts (a non-combat act)".into()),
            Does::Device { name } => instant_device(name, foes.first()),
        };
        declare.insert(f.declared.name.clone(), act);
        initiative.insert(f.declared.side.clone(), f.declared.die);
    }
    let mut then = BTreeMap::new();
    for f in figures {
        let mut spec = f.spec.clone();
        spec.at = placed[&f.declared.name];
        if let Some(w) = &f.then {
            spec.off_hand = Some(w.clone());
            spec.of_speed = true;
            let foes = figures
                .iter()
                .filter(|o| o.declared.side != f.declared.side)
                .map(|o| o.declared.name.clone())
                .collect();
            then.insert(f.declared.name.clone(), Act::melee(foes));
        } else if f.then_device {
            let foe = figures
                .iter()
                .find(|o| o.declared.side != f.declared.side)
                .map(|o| &o.declared.name);
            then.insert(f.declared.name.clone(), instant_device("the device", foe));
        }
        combatants.push(spec);
    }
    let mut scene = Scene::one_round(
        "first",
        defaults.setting,
        defaults.context.options,
        combatants,
        declare,
        initiative,
    );
    scene.rounds[0].then = then;
    for f in figures {
        if let Some(s) = f.hesitation_s {
            scene.rounds[0]
                .hesitation_s
                .insert(f.declared.name.clone(), s);
        }
    }
    scene
}

/// A device with no activation time used on `target` (no time given: none is known).
fn instant_device(name: &str, target: Option<&String>) -> Act {
    Act::Cast {
        spell: name.to_string(),
        target: target.cloned(),
        segments: None,
        device: true,
        at: None,
    }
}

/// Checks the actions, plans their round with the engine, and returns the actions as the
/// engine ordered them with the order.
pub fn calculate(
    figures: &[Figure],
    defaults: &Defaults,
) -> Result<(Vec<Declared>, Sequence), String> {
    calculate_round(figures, defaults).map(|(a, s, _)| (a, s))
}

/// [`calculate`], with the figures the order leaves out and why.
pub fn calculate_round(
    figures: &[Figure],
    defaults: &Defaults,
) -> Result<(Vec<Declared>, Sequence, Vec<Idle>), String> {
    let actions: Vec<&Declared> = figures.iter().map(|f| &f.declared).collect();
    if actions.len() < 2 {
        return Err("give at least two actions (one per figure)".into());
    }
    for (i, a) in actions.iter().enumerate() {
        if actions[..i].iter().any(|b| b.name == a.name) {
            return Err(format!("{}: the same name is given twice", a.name));
        }
    }
    let sides: BTreeSet<_> = actions.iter().map(|a| &a.side).collect();
    if sides.len() < 2 {
        return Err(
            "every action is on the same side: give opponents different side= names".into(),
        );
    }
    for a in &actions {
        if let Some(b) = actions.iter().find(|b| b.side == a.side && b.die != a.die) {
            return Err(format!(
                "{} and {} are on side '{}' but give different dice ({} and {}): a side rolls one die",
                a.name, b.name, a.side, a.die, b.die
            ));
        }
    }
    // The kind of die too: a side rolls a d8 if any member does (DMG p.62), so a d6 given
    // beside it on the same side is not a roll that side makes.
    let die_of = |f: &Figure| {
        if f.spec.initiative_die == Some(8) {
            "d8"
        } else {
            "d6"
        }
    };
    for f in figures {
        if let Some(g) = figures.iter().find(|g| {
            g.declared.side == f.declared.side
                && g.die_given
                && f.die_given
                && die_of(g) != die_of(f)
        }) {
            return Err(format!(
                "{} and {} are on side '{}' but give a {} and a {}: a side rolls one die (a d8 if any member rolls one, DMG p.62)",
                f.declared.name,
                g.declared.name,
                f.declared.side,
                die_of(f),
                die_of(g)
            ));
        }
    }
    let scene = to_scene(figures, defaults);
    for c in &scene.combatants {
        if let Err(problems) = FigureStats::resolve(c) {
            let p = &problems[0];
            return Err(format!("{}: {}: {}", c.name, p.field, p.message));
        }
    }
    let (plan, events) = plan_round_one(scene);
    let idle = figures
        .iter()
        .filter(|f| !plan.declared.iter().any(|d| d.name == f.declared.name))
        .map(|f| idle_because(f, &events))
        .collect();
    Ok((plan.declared, plan.sequence, idle))
}

/// Why figure `f` has no place in the round's order: the engine's word on its round (a
/// close's "no blows"), else that it has none.
fn idle_because(f: &Figure, events: &[LogEvent]) -> Idle {
    let said = events.iter().rev().find(|e| {
        e.actor == f.declared.name.as_str() && e.rule == crate::rules::cite::CHARGE_NO_MELEE
    });
    Idle {
        name: f.declared.name.clone(),
        side: f.declared.side.clone(),
        why: said.map_or_else(
            || "no blow or act this round".to_string(),
            |e| e.detail.clone(),
        ),
        rule: said.map_or(crate::rules::cite::DECLARE_ACTIONS, |e| e.rule),
    }
}

/// Plays the encounter step and the first segment of round 1, where the round is planned:
/// the plan, and the events so far.
fn plan_round_one(scene: Scene) -> (Plan, Vec<LogEvent>) {
    let mut run = Runner::new(scene, None, Some(1));
    while run.clock().round_segment() != (1, 1) && !run.clock().is_over() {
        run.step(1);
    }
    let plan = run.app.world().resource::<Plan>().clone();
    (plan, run.log().events.clone())
}
