//! Validation after parsing: names that must exist, values that must make sense, figures
//! that must stand on open ground, charges the rules forbid. Each problem is located in the
//! source by walking anchors (section, figure name, field) through the text.

use super::figure::FigureStats;
use super::{Act, Declarations, Scene};
use crate::rules::cite;
use crate::tables;
use std::collections::BTreeSet;

/// One problem with where it is.
pub(super) struct Problem {
    pub offset: usize,
    pub field: String,
    pub message: String,
    pub help: Option<String>,
}

/// Finds the last anchor, each searched for after the one before; stops at the last found.
fn locate(src: &str, anchors: &[String]) -> usize {
    let (mut start, mut from) = (0, 0);
    for a in anchors {
        if let Some(i) = src[from..].find(a.as_str()) {
            start = from + i;
            from = start + a.len();
        }
    }
    start
}

struct Checker<'a> {
    src: &'a str,
    problems: Vec<Problem>,
}

impl Checker<'_> {
    fn add(&mut self, anchors: &[String], field: String, message: String, help: Option<String>) {
        let offset = locate(self.src, anchors);
        self.problems.push(Problem {
            offset,
            field,
            message,
            help,
        });
    }
}

fn q(s: &str) -> String {
    format!("\"{s}\"")
}

fn suggestion<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<String> {
    tables::suggest(name, known).map(|s| format!("did you mean '{s}'?"))
}

/// Checks a parsed scene.
pub(super) fn validate(scene: &Scene, src: &str) -> Vec<Problem> {
    let mut c = Checker {
        src,
        problems: Vec::new(),
    };
    let names: Vec<&str> = scene.combatants.iter().map(|f| f.name.as_str()).collect();
    let sides: BTreeSet<&str> = scene.combatants.iter().map(|f| f.side.as_str()).collect();
    if scene.combatants.is_empty() {
        c.add(
            &["combatants".into()],
            "combatants".into(),
            "a scene needs at least one figure".into(),
            None,
        );
    }
    let map = scene.map.as_ref().map(crate::map::Grid::from_spec);
    if let Some(Err(e)) = &map {
        c.add(
            &["map".into(), "rows".into(), e.row_text.clone()],
            format!("map.rows[{}]", e.row),
            e.message.clone(),
            Some("known cells: # . + / O ~ \" T % and the legend".into()),
        );
    }
    if let Some(m) = &scene.map {
        for (i, l) in m.lights.iter().enumerate() {
            if let Err(e) = tables::light(&l.source) {
                let (msg, help) = split_help(e);
                c.add(
                    &["lights".into(), q(&l.source)],
                    format!("map.lights[{i}].source"),
                    msg,
                    help,
                );
            }
        }
    }
    let mut seen = BTreeSet::new();
    for (i, f) in scene.combatants.iter().enumerate() {
        let anchor = |field: &str| vec!["combatants".to_string(), q(&f.name), format!("{field}:")];
        if !seen.insert(f.name.as_str()) {
            c.add(
                &["combatants".into(), q(&f.name), q(&f.name)],
                format!("combatants[{i}].name"),
                format!("two figures are named '{}'", f.name),
                Some("names must be unique; they are how declarations refer to figures".into()),
            );
        }
        match FigureStats::resolve(f) {
            Ok(stats) => {
                if stats.encumbered && stats.movement.0 == 0 {
                    c.add(
                        &anchor("movement"),
                        format!("combatants[{i}].movement"),
                        "a figure cannot have a movement rate of 0".into(),
                        None,
                    );
                }
            }
            Err(ps) => {
                for p in ps {
                    c.add(
                        &anchor(p.field),
                        format!("combatants[{i}].{}", p.field),
                        p.message,
                        p.help,
                    );
                }
            }
        }
        if !(f.at.0.is_finite() && f.at.1.is_finite()) {
            c.add(
                &anchor("at"),
                format!("combatants[{i}].at"),
                "position must be a finite number of feet".into(),
                None,
            );
        } else if let Some(Ok(grid)) = &map {
            match grid.kind_at_ft(f.at.0, f.at.1) {
                None => c.add(
                    &anchor("at"),
                    format!("combatants[{i}].at"),
                    format!(
                        "({}, {}) ft is outside the map ({} x {} ft)",
                        f.at.0,
                        f.at.1,
                        grid.width_ft(),
                        grid.height_ft()
                    ),
                    None,
                ),
                Some(k) if k.blocks_movement() => c.add(
                    &anchor("at"),
                    format!("combatants[{i}].at"),
                    format!(
                        "'{}' stands inside a {:?} cell at ({}, {}) ft",
                        f.name, k, f.at.0, f.at.1
                    ),
                    Some("move the figure onto floor".into()),
                ),
                _ => {}
            }
        }
    }
    for side in scene.surprise.keys() {
        if !sides.contains(side.as_str()) {
            c.add(
                &["surprise".into(), q(side)],
                format!("surprise.{side}"),
                format!("no side is named '{side}'"),
                suggestion(side, sides.iter().copied()),
            );
        }
    }
    for (i, e) in scene.encounter.iter().enumerate() {
        if let super::EncounterCheck::Vision { figures, .. } = e {
            for f in figures {
                if !names.contains(&f.as_str()) {
                    c.add(
                        &["encounter".into(), "Vision".into(), q(f)],
                        format!("encounter[{i}].figures"),
                        format!("no figure is named '{f}'"),
                        suggestion(f, names.iter().copied()),
                    );
                }
            }
        }
    }
    for (k, d) in scene.surprise_segments.iter().enumerate() {
        let mut anchors = vec!["surprise_segments".to_string()];
        anchors.extend(std::iter::repeat_n("{".to_string(), k + 1));
        check_declarations(
            &mut c,
            scene,
            d,
            &anchors,
            &format!("surprise_segments[{k}]"),
        );
    }
    for (r, round) in scene.rounds.iter().enumerate() {
        let mut anchors = vec!["rounds".to_string()];
        anchors.extend(std::iter::repeat_n("declare".to_string(), r + 1));
        check_declarations(
            &mut c,
            scene,
            &round.declare,
            &anchors,
            &format!("rounds[{r}].declare"),
        );
        for (side, die) in &round.initiative {
            let mut a = anchors.clone();
            a.extend(["initiative".to_string(), q(side)]);
            if !sides.contains(side.as_str()) {
                c.add(
                    &a,
                    format!("rounds[{r}].initiative.{side}"),
                    format!("no side is named '{side}'"),
                    suggestion(side, sides.iter().copied()),
                );
            } else if *die == 0 || *die > 8 {
                c.add(
                    &a,
                    format!("rounds[{r}].initiative.{side}"),
                    format!("an initiative die shows 1-6 (1-8 for a d8), not {die}"),
                    None,
                );
            }
        }
    }
    for (kind, by) in &scene.dice {
        for key in by.keys() {
            if key != "any" && !names.contains(&key.as_str()) && !sides.contains(key.as_str()) {
                c.add(
                    &["dice".into(), q(key)],
                    format!("dice.{kind:?}.{key}"),
                    format!("'{key}' is neither a figure nor a side"),
                    suggestion(key, names.iter().copied().chain(sides.iter().copied())),
                );
            }
        }
    }
    c.problems
}

fn split_help(e: String) -> (String, Option<String>) {
    match e.split_once(" (did you mean") {
        Some((m, h)) => (
            m.to_string(),
            Some(format!("did you mean{}", h.trim_end_matches(')'))),
        ),
        None => (e, None),
    }
}

fn check_declarations(
    c: &mut Checker,
    scene: &Scene,
    d: &Declarations,
    section: &[String],
    path: &str,
) {
    let names: Vec<&str> = scene.combatants.iter().map(|f| f.name.as_str()).collect();
    for (who, act) in d {
        let mut at = section.to_vec();
        at.push(q(who));
        let Some(fig) = scene.combatant(who) else {
            c.add(
                &at,
                format!("{path}.{who}"),
                format!("no figure is named '{who}'"),
                suggestion(who, names.iter().copied()),
            );
            continue;
        };
        for t in act.targets() {
            if !names.contains(&t) {
                let mut a = at.clone();
                a.push(q(t));
                c.add(
                    &a,
                    format!("{path}.{who}.target"),
                    format!("'{who}' aims at '{t}', but no figure has that name"),
                    suggestion(t, names.iter().copied()),
                );
            }
        }
        let spells: Vec<&String> = match act {
            // A spell not in the table is fine when its casting time is given.
            Act::Cast {
                segments: Some(_), ..
            } => vec![],
            Act::Cast { spell, .. } => vec![spell],
            Act::Cantrips { first, second, .. } => vec![first, second],
            _ => vec![],
        };
        for spell in spells {
            if let Err(e) = tables::spell(spell) {
                let (msg, help) = split_help(e);
                let mut a = at.clone();
                a.push(q(spell));
                c.add(&a, format!("{path}.{who}.spell"), msg, help);
            }
        }
        match act {
            Act::Charge { .. } => {
                if let Ok(stats) = FigureStats::resolve(fig)
                    && stats.encumbered
                {
                    c.add(
                        &at,
                        format!("{path}.{who}"),
                        format!(
                            "'{who}' is encumbered and may not charge: {}",
                            cite::CHARGE_ENCUMBERED
                        ),
                        Some("declare Move or Melee instead, or lighten the load".into()),
                    );
                }
            }
            Act::Melee { targets, .. } | Act::Missile { targets, .. } if targets.is_empty() => {
                c.add(
                    &at,
                    format!("{path}.{who}.targets"),
                    "an attack needs at least one target".into(),
                    None,
                );
            }
            Act::Move { toward, to } if toward.is_none() && to.is_none() => {
                c.add(
                    &at,
                    format!("{path}.{who}"),
                    "a move needs `toward` (a figure) or `to` (a point)".into(),
                    None,
                );
            }
            _ => {}
        }
        if let Act::Charge { targets, .. } = act
            && targets.is_empty()
        {
            c.add(
                &at,
                format!("{path}.{who}.targets"),
                "a charge needs a target".into(),
                None,
            );
        }
    }
}
