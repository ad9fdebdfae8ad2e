//! Edits to a scene, as the viewer's editor makes them: a new scene, painting the map,
//! lights, adding, moving, duplicating and deleting figures, a figure's numbers, the
//! declarations of a round, fixed dice. Each is plain data and [`apply`] makes it on a
//! scene, so undo is a copy of the scene before and every edit can be tested without a
//! window. An edit that would make a bad scene is refused with the reason; the editor
//! checks the result with the loader's own checks as well.

use super::{Act, CellKind, CombatantSpec, DieKind, FixedLight, MapSpec, RoundSpec, Scene};
use crate::rules::distance::Setting;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One edit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Edit {
    /// A new, empty scene: a floor of `width_ft` × `height_ft` walled round, in cells of
    /// `cell_ft`.
    New {
        /// Indoors or outdoors.
        setting: Setting,
        /// Width in feet.
        width_ft: f64,
        /// Height in feet.
        height_ft: f64,
        /// Cell size in feet.
        cell_ft: f64,
    },
    /// Paints the cell at (column, row).
    Paint {
        /// Column.
        col: usize,
        /// Row.
        row: usize,
        /// What the cell becomes.
        kind: CellKind,
    },
    /// Places a light from the lights table.
    AddLight {
        /// Its name in `assets/lights.ron`.
        source: String,
        /// Where, in feet.
        at: (f64, f64),
    },
    /// Removes the light nearest a point (within 5 ft).
    RemoveLight {
        /// The point, in feet.
        at: (f64, f64),
    },
    /// Adds a figure as given (its name made unique if taken), on the nearest open spot no
    /// figure holds ([`super::place::free_spots`]).
    AddFigure(Box<CombatantSpec>),
    /// Adds a squad: `count` figures like `spec`, named "Orc 1" to "Orc N" (each made
    /// unique if taken), in a block round its place, spread, not stacked.
    AddSquad {
        /// The figure each is made from.
        spec: Box<CombatantSpec>,
        /// How many.
        count: u32,
    },
    /// Moves a figure.
    Move {
        /// Its name.
        figure: String,
        /// Where to, in feet.
        to: (f64, f64),
    },
    /// Replaces a figure's numbers (the form); a new name is carried into declarations.
    Replace {
        /// Its name before.
        figure: String,
        /// Everything about it now.
        spec: Box<CombatantSpec>,
    },
    /// Adds `count` copies of a figure beside it ("3 more orcs").
    Duplicate {
        /// Its name.
        figure: String,
        /// How many.
        count: u32,
    },
    /// Deletes a figure, its declarations and its dice.
    Delete {
        /// Its name.
        figure: String,
    },
    /// Declares (or, with `None`, clears) what a figure does in round `round` (from 1).
    Declare {
        /// The round.
        round: usize,
        /// The figure.
        figure: String,
        /// What it does.
        act: Option<Act>,
    },
    /// Declares for a group at once in round `round` (from 1): each of `figures` gets its
    /// own declaration made from `order` ([`GroupOrder`]). All or nothing: a name that is
    /// not there changes no one.
    DeclareGroup {
        /// The round.
        round: usize,
        /// The figures (a side's, or a squad's).
        figures: Vec<String>,
        /// What each does.
        order: GroupOrder,
    },
    /// Fixes the dice of one kind for one key (a figure or a side); empty: rolled.
    Dice {
        /// The kind.
        kind: DieKind,
        /// Whose.
        key: String,
        /// The values, used in order.
        values: Vec<i32>,
    },
    /// The seed for dice not fixed.
    Seed(u64),
    /// The scene's name (its title in the viewer and in saved logs).
    Rename(String),
}

/// What a group is told to do; each figure's own declaration is made from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum GroupOrder {
    /// Melee, each at the one figure of another side nearest it: one target, not a list
    /// (a melee at several targets is its own declaration, and "Take Initiative!" costs it
    /// +1 a target, App. B).
    MeleeNearest,
    /// Missile fire, each at the nearest foe first.
    MissileNearest,
    /// A charge, each at the nearest foe first.
    ChargeNearest,
    /// A charge, all at this figure.
    Charge(String),
    /// Missile fire, all at this figure.
    Missile(String),
    /// Holding.
    Hold,
    /// Each one's declaration cleared.
    Clear,
}

impl GroupOrder {
    /// What `figure` declares under this order: foes (other sides) by distance from where
    /// it stands in the scene, nearest first.
    pub fn act_for(&self, scene: &Scene, figure: &str) -> Option<Act> {
        let me = scene.combatants.iter().find(|c| c.name == figure)?;
        let nearest = || {
            let mut foes: Vec<(f64, &str)> = scene
                .combatants
                .iter()
                .filter(|c| c.side != me.side)
                .map(|c| {
                    let d = (c.at.0 - me.at.0).hypot(c.at.1 - me.at.1);
                    (d, c.name.as_str())
                })
                .collect();
            foes.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)));
            foes.into_iter()
                .map(|f| f.1.to_string())
                .collect::<Vec<_>>()
        };
        match self {
            GroupOrder::MeleeNearest => Some(Act::melee(nearest().into_iter().take(1).collect())),
            GroupOrder::MissileNearest => Some(Act::missile(nearest())),
            GroupOrder::ChargeNearest => Some(Act::charge(nearest())),
            GroupOrder::Charge(t) => Some(Act::charge(vec![t.clone()])),
            GroupOrder::Missile(t) => Some(Act::missile(vec![t.clone()])),
            GroupOrder::Hold => Some(Act::Hold),
            GroupOrder::Clear => None,
        }
    }
}

/// The map character of a cell kind (the loader's legend).
pub fn cell_char(kind: CellKind) -> char {
    match kind {
        CellKind::Wall => '#',
        CellKind::Floor => '.',
        CellKind::DoorClosed => '+',
        CellKind::DoorOpen => '/',
        CellKind::Pillar => 'O',
        CellKind::Water => '~',
        CellKind::Scrub => '"',
        CellKind::Forest => 'T',
        CellKind::Marsh => '%',
    }
}

/// A new scene: a floor walled round.
pub fn new_scene(setting: Setting, width_ft: f64, height_ft: f64, cell_ft: f64) -> Scene {
    let cols = (width_ft / cell_ft).round().max(1.0) as usize + 2;
    let rows = (height_ft / cell_ft).round().max(1.0) as usize + 2;
    let map_rows = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    if r == 0 || c == 0 || r == rows - 1 || c == cols - 1 {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    Scene {
        name: "New encounter".into(),
        about: String::new(),
        setting,
        seed: 1,
        rules: Default::default(),
        map: Some(MapSpec {
            cell_ft,
            rows: map_rows,
            ..MapSpec::default()
        }),
        combatants: Vec::new(),
        encounter: Vec::new(),
        surprise: Default::default(),
        surprise_segments: Vec::new(),
        rounds: Vec::new(),
        psionics: Default::default(),
        tour: Vec::new(),
        dice: Default::default(),
    }
}

/// A name not yet taken in the scene: `base`, else `base 2`, `base 3`...
pub fn free_name(scene: &Scene, base: &str) -> String {
    let taken = |n: &str| scene.combatants.iter().any(|c| c.name == n);
    if !taken(base) {
        return base.to_string();
    }
    let stem = base
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end();
    (2..)
        .map(|k| format!("{stem} {k}"))
        .find(|n| !taken(n))
        .expect("some number is free")
}

/// Makes `edit` on `scene`, or says why not.
pub fn apply(scene: &mut Scene, edit: &Edit) -> Result<(), String> {
    match edit {
        Edit::New {
            setting,
            width_ft,
            height_ft,
            cell_ft,
        } => {
            let ok = |v: f64| v.is_finite() && v > 0.0;
            if !(ok(*width_ft) && ok(*height_ft) && ok(*cell_ft)) {
                return Err("a new scene needs a size and a cell size above 0".into());
            }
            if width_ft / cell_ft > 998.0 || height_ft / cell_ft > 998.0 {
                return Err("at most 1000 cells a side".into());
            }
            *scene = new_scene(*setting, *width_ft, *height_ft, *cell_ft);
        }
        Edit::Paint { col, row, kind } => {
            // A wall painted over a figure would leave the scene failing its checks (a
            // figure stands on open ground), as a figure dragged into a wall would: refused,
            // and said, as that drag is.
            let cell_ft = scene.map.as_ref().map_or(5.0, |m| m.cell_ft);
            let on = |f: &&CombatantSpec| {
                (f.at.0 / cell_ft).floor() == *col as f64
                    && (f.at.1 / cell_ft).floor() == *row as f64
            };
            if kind.blocks_movement()
                && let Some(f) = scene.combatants.iter().find(on)
            {
                return Err(format!(
                    "not painted: '{}' stands in that cell; move the figure first",
                    f.name
                ));
            }
            let map = scene.map.as_mut().ok_or("the scene has no map to paint")?;
            let line = map.rows.get_mut(*row).ok_or("no such row")?;
            let mut cells: Vec<char> = line.chars().collect();
            let cell = cells.get_mut(*col).ok_or("no such column")?;
            *cell = cell_char(*kind);
            *line = cells.into_iter().collect();
        }
        Edit::AddLight { source, at } => {
            crate::tables::light(source).map_err(|e| e.to_string())?;
            let map = scene.map.as_mut().ok_or("the scene has no map")?;
            // A light stands on the map: a click beside it places nothing.
            if let Ok(grid) = map.grid()
                && !(at.0.is_finite() && at.1.is_finite() && grid.kind_at_ft(at.0, at.1).is_some())
            {
                return Err(format!(
                    "a light goes on the map: ({}, {}) ft is outside it ({} x {} ft)",
                    at.0,
                    at.1,
                    grid.width_ft(),
                    grid.height_ft()
                ));
            }
            map.lights.push(FixedLight {
                source: source.clone(),
                at: *at,
                radius_ft: None,
            });
        }
        Edit::RemoveLight { at } => {
            let map = scene.map.as_mut().ok_or("the scene has no map")?;
            let d = |l: &FixedLight| ((l.at.0 - at.0).powi(2) + (l.at.1 - at.1).powi(2)).sqrt();
            let i = (0..map.lights.len())
                .filter(|&i| d(&map.lights[i]) <= 5.0)
                .min_by(|&a, &b| d(&map.lights[a]).total_cmp(&d(&map.lights[b])))
                .ok_or("no light within 5 ft")?;
            map.lights.remove(i);
        }
        Edit::AddFigure(spec) => {
            let mut spec = (**spec).clone();
            spec.name = free_name(scene, &spec.name);
            spec.at = *super::place::free_spots(scene, spec.at, 1)
                .first()
                .ok_or("no open ground left on the map")?;
            scene.combatants.push(spec);
        }
        Edit::AddSquad { spec, count } => {
            let n = (*count).clamp(1, super::limits::SQUAD);
            let spots = super::place::free_spots(scene, spec.at, n as usize);
            if spots.len() < n as usize {
                return Err(format!(
                    "room for {} of {n} on the map's open ground",
                    spots.len()
                ));
            }
            for (k, at) in spots.into_iter().enumerate() {
                let mut one = (**spec).clone();
                one.name = free_name(scene, &format!("{} {}", spec.name, k + 1));
                one.at = at;
                scene.combatants.push(one);
            }
        }
        Edit::Move { figure, to } => {
            // A drag that ends off the map or in a wall moves no one (the scene would not
            // pass its checks): said, and the figure stays where it stood.
            if let Some(Ok(grid)) = scene.map.as_ref().map(|m| m.grid()) {
                let kind = (to.0.is_finite() && to.1.is_finite())
                    .then(|| grid.kind_at_ft(to.0, to.1))
                    .flatten();
                match kind {
                    None => {
                        return Err(format!(
                            "not moved: ({:.1}, {:.1}) ft is off the map ({} x {} ft)",
                            to.0,
                            to.1,
                            grid.width_ft(),
                            grid.height_ft()
                        ));
                    }
                    Some(k) if k.blocks_movement() => {
                        return Err(format!(
                            "not moved: ({:.1}, {:.1}) ft is inside a {k:?} cell: move it onto floor",
                            to.0, to.1
                        ));
                    }
                    Some(_) => {}
                }
            }
            figure_mut(scene, figure)?.at = *to
        }
        Edit::Replace { figure, spec } => replace(scene, figure, spec)?,
        Edit::Duplicate { figure, count } => {
            let base = figure_mut(scene, figure)?.clone();
            let spots = super::place::free_spots(scene, base.at, *count as usize);
            for at in spots {
                let mut copy = base.clone();
                copy.name = free_name(scene, &base.name);
                copy.at = at;
                scene.combatants.push(copy);
            }
        }
        Edit::Delete { figure } => delete(scene, figure)?,
        Edit::Declare { round, figure, act } => declare(scene, *round, figure, act.clone())?,
        Edit::DeclareGroup {
            round,
            figures,
            order,
        } => {
            // On a copy: one refusal leaves the scene as it was.
            let mut next = scene.clone();
            for f in figures {
                figure_mut(&mut next, f)?;
                // A group with no foe in the scene has no one to fight.
                let act = order.act_for(&next, f);
                if act.as_ref().is_some_and(|a| a.targets().is_empty())
                    && !matches!(act, Some(Act::Hold))
                {
                    return Err(format!("'{f}' has no foe in the scene to aim at"));
                }
                declare(&mut next, *round, f, act)?;
            }
            *scene = next;
        }
        Edit::Dice { kind, key, values } => {
            let by_key = scene.dice.entry(*kind).or_default();
            if values.is_empty() {
                by_key.remove(key);
            } else {
                by_key.insert(key.clone(), values.clone());
            }
            scene.dice.retain(|_, m| !m.is_empty());
        }
        Edit::Seed(s) => scene.seed = *s,
        Edit::Rename(name) => {
            let name = name.trim();
            if name.is_empty() {
                return Err("a scene needs a name".into());
            }
            scene.name = name.to_string();
        }
    }
    Ok(())
}

fn figure_mut<'a>(scene: &'a mut Scene, name: &str) -> Result<&'a mut CombatantSpec, String> {
    scene
        .combatants
        .iter_mut()
        .find(|c| c.name == name)
        .ok_or_else(|| format!("no figure is named '{name}'"))
}

/// A figure's form applied; a rename is carried into every declaration and die.
fn replace(scene: &mut Scene, name: &str, spec: &CombatantSpec) -> Result<(), String> {
    if spec.name != name && scene.combatants.iter().any(|c| c.name == spec.name) {
        return Err(format!("'{}' is taken", spec.name));
    }
    *figure_mut(scene, name)? = spec.clone();
    if spec.name != name {
        rename(scene, name, &spec.name);
    }
    Ok(())
}

/// Every mention of a figure by name, renamed: each round's maps keyed by figure and every
/// declaration's targets, the surprise segments, the dice; who awaits whom, and whom a
/// psionic attacks.
fn rename(scene: &mut Scene, from: &str, to: &str) {
    fn rekey<V>(map: &mut BTreeMap<String, V>, from: &str, to: &str) {
        if let Some(v) = map.remove(from) {
            map.insert(to.to_string(), v);
        }
    }
    let declarations = |map: &mut super::Declarations| {
        rekey(map, from, to);
        for act in map.values_mut() {
            act.rename_target(from, to);
        }
    };
    // Initiative goes by figure under "Take Initiative!", by side under the book: a side
    // that shares the figure's name keeps it.
    let by_figure = scene.rules.system == crate::rules::options::RulesSystem::TakeInitiative;
    for r in &mut scene.rounds {
        for map in [&mut r.declare, &mut r.then, &mut r.change] {
            declarations(map);
        }
        if by_figure {
            rekey(&mut r.initiative, from, to);
        }
        rekey(&mut r.hesitation_s, from, to);
        rekey(&mut r.modifiers, from, to);
        rekey(&mut r.awaits, from, to);
        for awaited in r.awaits.values_mut() {
            if awaited == from {
                *awaited = to.to_string();
            }
        }
        rekey(&mut r.psionics, from, to);
        for choice in r.psionics.values_mut().flatten() {
            if choice.at.as_deref() == Some(from) {
                choice.at = Some(to.to_string());
            }
        }
    }
    for segment in &mut scene.surprise_segments {
        declarations(segment);
    }
    for check in &mut scene.encounter {
        if let super::EncounterCheck::Vision { figures, .. } = check {
            for f in figures.iter_mut().filter(|f| *f == from) {
                *f = to.to_string();
            }
        }
    }
    for (kind, by_key) in scene.dice.iter_mut() {
        let by_side = match kind {
            DieKind::Surprise | DieKind::Distance => true,
            DieKind::Initiative => !by_figure,
            _ => false,
        };
        if !by_side {
            rekey(by_key, from, to);
        }
    }
}

/// A figure gone, with everything that names it.
fn delete(scene: &mut Scene, name: &str) -> Result<(), String> {
    let Some(side) = scene.combatant(name).map(|c| c.side.clone()) else {
        return Err(format!("no figure is named '{name}'"));
    };
    scene.combatants.retain(|c| c.name != name);
    // Its side goes with its last figure: the side's initiative and surprise too.
    if !scene.combatants.iter().any(|c| c.side == side) {
        scene.surprise.remove(&side);
        for r in &mut scene.rounds {
            r.initiative.remove(&side);
        }
        for (kind, by_key) in scene.dice.iter_mut() {
            if matches!(kind, DieKind::Surprise | DieKind::Initiative) {
                by_key.remove(&side);
            }
        }
    }
    // Initiative goes by figure under "Take Initiative!"; under the book by side, which
    // goes only with its last figure.
    let by_figure = scene.rules.system == crate::rules::options::RulesSystem::TakeInitiative;
    let side_left = scene.combatants.iter().any(|c| c.side == name);
    let keyed = |kind: Option<DieKind>| match kind {
        Some(DieKind::Surprise | DieKind::Distance) => false,
        Some(DieKind::Initiative) | None if !by_figure => !side_left,
        _ => true,
    };
    for r in &mut scene.rounds {
        for map in [&mut r.declare, &mut r.then, &mut r.change] {
            map.remove(name);
            map.retain(|_, act| act.forget_target(name));
        }
        if keyed(None) {
            r.initiative.remove(name);
        }
        r.hesitation_s.remove(name);
        r.modifiers.remove(name);
        r.awaits.remove(name);
        r.awaits.retain(|_, awaited| awaited != name);
        r.psionics.remove(name);
        for choice in r.psionics.values_mut().flatten() {
            // An attack at the figure gone goes with it; the defense stays.
            if choice.at.as_deref() == Some(name) {
                choice.at = None;
                choice.attack = None;
            }
        }
    }
    for segment in &mut scene.surprise_segments {
        segment.remove(name);
        segment.retain(|_, act| act.forget_target(name));
    }
    for check in &mut scene.encounter {
        if let super::EncounterCheck::Vision { figures, .. } = check {
            figures.retain(|f| f != name);
        }
    }
    // A light check left with no figures has nothing to limit.
    scene.encounter.retain(
        |c| !matches!(c, super::EncounterCheck::Vision { figures, .. } if figures.is_empty()),
    );
    for (kind, by_key) in scene.dice.iter_mut() {
        if keyed(Some(*kind)) {
            by_key.remove(name);
        }
    }
    scene.dice.retain(|_, m| !m.is_empty());
    Ok(())
}

/// Declares what `figure` does in round `round` (from 1), adding rounds as needed.
fn declare(scene: &mut Scene, round: usize, figure: &str, act: Option<Act>) -> Result<(), String> {
    if round == 0 || round > super::limits::ROUNDS as usize {
        return Err(format!("rounds run from 1 to {}", super::limits::ROUNDS));
    }
    figure_mut(scene, figure)?;
    if let Some(t) = act.as_ref().and_then(|a| {
        a.targets()
            .into_iter()
            .find(|t| !scene.combatants.iter().any(|c| c.name == *t))
    }) {
        return Err(format!("no figure is named '{t}'"));
    }
    // The rounds the scene has are how many it plays (an empty last round still plays);
    // only rounds this edit adds, and leaves empty, are taken away again.
    let had = scene.rounds.len();
    while scene.rounds.len() < round {
        scene.rounds.push(RoundSpec::default());
    }
    let r = &mut scene.rounds[round - 1];
    match act {
        Some(a) => {
            r.declare.insert(figure.to_string(), a);
        }
        None => {
            r.declare.remove(figure);
        }
    }
    while scene.rounds.len() > had
        && scene
            .rounds
            .last()
            .is_some_and(|r| *r == RoundSpec::default())
    {
        scene.rounds.pop();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scene's name from the editor's field: taken trimmed; an empty one is refused and
    /// the scene keeps its name.
    #[test]
    fn a_scene_is_renamed_and_never_left_nameless() {
        let mut s = new_scene(Setting::Indoors, 30.0, 20.0, 5.0);
        apply(&mut s, &Edit::Rename("  The orc den ".into())).unwrap();
        assert_eq!(s.name, "The orc den");
        assert_eq!(s.title(), "The orc den", "no dash before an empty 'about'");
        assert!(apply(&mut s, &Edit::Rename("   ".into())).is_err());
        assert_eq!(s.name, "The orc den");
    }

    /// Renaming any figure of any library scene keeps the scene valid and leaves no
    /// mention of the old name in it (declarations, targets, surprise segments, dice,
    /// awaits, psionics); deleting one leaves it valid too.
    #[test]
    fn renaming_or_deleting_any_figure_keeps_every_library_scene_valid() {
        for (path, text) in crate::scene::library::SCENES {
            let Ok(scene) = crate::scene::parse(path, text) else {
                continue;
            };
            for f in scene.combatants.iter().take(6) {
                let mut s = scene.clone();
                let (from, to) = (f.name.clone(), "Zed Q".to_string());
                let i = s.combatants.iter().position(|c| c.name == from).unwrap();
                s.combatants[i].name = to.clone();
                rename(&mut s, &from, &to);
                crate::scene::check(&s).unwrap_or_else(|e| panic!("{path}: {from} renamed: {e}"));
                // A side of the same name stays (sides are not renamed with a figure).
                let side = scene.combatants.iter().any(|c| c.side == from);
                let ron = ron::to_string(&s).unwrap();
                assert!(
                    side || !ron.contains(&format!("\"{from}\"")),
                    "{path}: '{from}' left after rename"
                );
                let mut d = scene.clone();
                delete(&mut d, &from).unwrap();
                if !d.combatants.is_empty() {
                    crate::scene::check(&d)
                        .unwrap_or_else(|e| panic!("{path}: {from} deleted: {e}"));
                }
            }
        }
    }
}
