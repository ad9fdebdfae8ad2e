//! Validation after parsing: names that must exist, values that must make sense, figures
//! that must stand on open ground, charges the rules forbid. Each problem is located in the
//! source by walking anchors (section, figure name, field) through the text.

use super::figure::FigureStats;
use super::limits;
use super::{Act, Declarations, DieKind, Scene};
use crate::rules::cite;
use crate::tables;
use std::collections::BTreeSet;

mod house;
mod text;
mod tour;

pub(crate) use text::{hidden, unshowable};

/// One problem with where it is.
pub(super) struct Problem {
    pub offset: usize,
    pub field: String,
    pub message: String,
    pub help: Option<String>,
}

/// Finds the last anchor, each searched for after the one before; stops at the last found.
/// Words in comments are never anchors (a comment may name a field or a figure), and an
/// anchor made by [`key`] is found only as a map's key (`"Thief":`), not as a value.
fn locate(src: &str, anchors: &[String]) -> usize {
    let comments = comment_spans(src);
    let in_comment = |i: usize| comments.iter().any(|&(a, b)| a <= i && i < b);
    let (mut start, mut from) = (0, 0);
    for a in anchors {
        if let Some(n) = a.strip_prefix(ITEM).and_then(|n| n.parse().ok()) {
            if let Some(i) = item_start(src, from, n, &in_comment) {
                (start, from) = (i, i);
            }
            continue;
        }
        let (text, as_key, as_field) = match (a.strip_prefix(KEY), a.strip_prefix(FIELD)) {
            (Some(k), _) => (k, true, false),
            (_, Some(f)) => (f, true, true),
            _ => (a.as_str(), false, false),
        };
        // A field's name stands alone: `psionics:`, not the end of `save_vs_psionics:`.
        let alone = |i: usize| {
            !as_field
                || src[..i]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
        };
        let found = src[from..]
            .match_indices(text)
            .map(|(i, _)| from + i)
            .find(|&i| {
                !in_comment(i)
                    && alone(i)
                    && (!as_key || src[i + text.len()..].trim_start().starts_with(':'))
            });
        if let Some(i) = found {
            start = i;
            from = start + text.len();
        }
    }
    start
}

/// Where the `n`-th item (from 0) of the first list opening at or after `from` begins:
/// items are split by the commas outside brackets, strings and comments. None if the list
/// has fewer.
fn item_start(
    src: &str,
    from: usize,
    n: usize,
    in_comment: &impl Fn(usize) -> bool,
) -> Option<usize> {
    let b = src.as_bytes();
    let open = (from..b.len()).find(|&i| b[i] == b'[' && !in_comment(i))?;
    let (mut depth, mut k, mut in_str, mut begun) = (0usize, 0usize, false, false);
    let mut i = open + 1;
    while i < b.len() {
        let c = b[i];
        if in_str {
            match c {
                b'\\' => i += 1,
                b'"' => in_str = false,
                _ => {}
            }
        } else if !in_comment(i) {
            if depth == 0 && !begun && !c.is_ascii_whitespace() && c != b',' {
                if c == b']' {
                    return None;
                }
                if k == n {
                    return Some(i);
                }
                begun = true;
            }
            match c {
                b'"' => in_str = true,
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth == 0 => return None,
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => {
                    k += 1;
                    begun = false;
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// Marks an anchor that is the start of a list's item.
const ITEM: &str = "\u{3}item:";

/// An anchor at the start of the `n`-th item (from 0) of the next list.
fn item(n: usize) -> String {
    format!("{ITEM}{n}")
}

/// Marks an anchor that is a map's key.
const KEY: &str = "\u{1}key:";

/// An anchor found only as a map's key: `"NAME":`.
fn key(name: &str) -> String {
    format!("{KEY}{}", q(name))
}

/// Marks an anchor that is a field's name.
const FIELD: &str = "\u{2}field:";

/// An anchor found only as a field of its own: `name:`, not the end of a longer name.
fn field(name: &str) -> String {
    format!("{FIELD}{name}")
}

/// Where the comments are (`//` to the end of the line, `/* */`), outside strings.
pub(crate) fn comment_spans(src: &str) -> Vec<(usize, usize)> {
    let b = src.as_bytes();
    let (mut out, mut i, mut in_str) = (Vec::new(), 0, false);
    while i < b.len() {
        match (in_str, b[i], b.get(i + 1)) {
            (true, b'\\', _) => i += 1,
            (true, b'"', _) => in_str = false,
            (false, b'"', _) => in_str = true,
            (false, b'/', Some(b'/')) => {
                let end = src[i..].find('\n').map_or(b.len(), |n| i + n);
                out.push((i, end));
                i = end;
            }
            (false, b'/', Some(b'*')) => {
                let end = src[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
                out.push((i, end));
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The most problems reported for one scene: the rest are counted, not located (a
/// scene with thousands of the same mistake is answered at once).
pub const MAX_PROBLEMS: usize = 20;

/// The most problems located in the text before the first [`MAX_PROBLEMS`] in file order
/// are shown (each located by a search of the text; past this they are only counted).
const LOCATED: usize = 5 * MAX_PROBLEMS;

pub(in crate::scene) struct Checker<'a> {
    src: &'a str,
    problems: Vec<Problem>,
    /// Problems past [`MAX_PROBLEMS`].
    more: usize,
}

impl<'a> Checker<'a> {
    fn new(src: &'a str) -> Self {
        Checker {
            src,
            problems: Vec::new(),
            more: 0,
        }
    }

    fn add(&mut self, anchors: &[String], field: String, message: String, help: Option<String>) {
        // More are located than shown, so that those shown are the first in the file.
        if self.problems.len() >= LOCATED {
            self.more += 1;
            return;
        }
        let offset = locate(self.src, anchors);
        self.problems.push(Problem {
            offset,
            field,
            message,
            help,
        });
    }

    /// The problems found, and how many more there were.
    fn finish(mut self) -> Vec<Problem> {
        // In file order (the checks run field by field, not line by line); stable, so
        // problems at one place keep the order they were found in.
        self.problems.sort_by_key(|p| p.offset);
        if self.problems.len() > MAX_PROBLEMS {
            self.more += self.problems.len() - MAX_PROBLEMS;
            self.problems.truncate(MAX_PROBLEMS);
        }
        if self.more > 0 {
            let n = self.more;
            self.problems.push(Problem {
                offset: self.problems.last().map_or(0, |p| p.offset),
                field: "scene".into(),
                message: format!(
                    "and {n} more problem{} not shown (mend these first)",
                    if n == 1 { "" } else { "s" }
                ),
                help: None,
            });
        }
        self.problems
    }
}

fn q(s: &str) -> String {
    format!("\"{s}\"")
}

fn suggestion<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<String> {
    tables::suggest(name, known).map(|s| format!("did you mean '{s}'?"))
}

/// Figures that run on defaults the DM probably did not mean: no hit points, AC, THAC0 or
/// weapon given (and no monster, class or level to give them). `check` prints these; `--strict` refuses.
pub(super) fn warnings(scene: &Scene, src: &str) -> Vec<Problem> {
    let mut c = Checker::new(src);
    for (i, f) in scene.combatants.iter().enumerate() {
        if f.monster.is_some() {
            continue;
        }
        let at = vec!["combatants".to_string(), q(&f.name)];
        // THAC0 and weapon matter only to a figure that attacks somewhere in the scene.
        let all = scene
            .rounds
            .iter()
            .map(|r| &r.declare)
            .chain(&scene.surprise_segments);
        let attacks = all.filter_map(|d| d.get(&f.name)).any(|a| {
            matches!(
                a,
                Act::Melee { .. } | Act::Missile { .. } | Act::Charge { .. } | Act::Set { .. }
            )
        });
        // A class and level give hit points (their average) and THAC0; nothing gives AC.
        let classed = f.class.is_some();
        for (missing, field, what) in [
            (
                f.hp.is_none() && !classed,
                "hp",
                "no hit points given: it has 1",
            ),
            (f.ac.is_none(), "ac", "no armor class given: AC 10"),
            (
                attacks && f.thac0.is_none() && !classed,
                "thac0",
                "no THAC0 given: 20",
            ),
            (
                attacks && f.weapon.is_none() && f.speed_factor.is_none() && f.damage.is_none(),
                "weapon",
                "no weapon given: 1d2 blows without a speed factor",
            ),
        ] {
            if missing {
                c.add(
                    &at,
                    format!("combatants[{i}].{field}"),
                    format!("'{}': {what}", f.name),
                    None,
                );
            }
        }
    }
    // A magic-user casting a spell above its level (PHB p.25, `rules::class::
    // magic_user_level_for`, as `spell.caster_level` reads it), or a class that casts no
    // spells casting one: played as declared, but said (outside testers' 1st-level
    // magic-user cast death spell, and a fighter a fireball, unremarked).
    for (i, f) in scene.combatants.iter().enumerate() {
        let Some(class) = f.class.as_deref().map(str::trim) else {
            continue;
        };
        let level = f.level.unwrap_or(1);
        let none = !crate::rules::class::casts_spells(class);
        if !none && !class.eq_ignore_ascii_case("magic-user") {
            continue;
        }
        let rounds = scene.rounds.iter().flat_map(|r| [&r.declare, &r.change]);
        let declared = rounds.chain(&scene.surprise_segments);
        let mut said = std::collections::BTreeSet::new();
        for act in declared.filter_map(|d| d.get(&f.name)) {
            let Act::Cast {
                spell,
                device: false,
                ..
            } = act
            else {
                continue;
            };
            let Some(sl) = tables::find_spell(spell).and_then(|s| s.level) else {
                continue;
            };
            if none && said.insert(spell.clone()) {
                c.add(
                    &["combatants".to_string(), q(&f.name)],
                    format!("combatants[{i}].class"),
                    format!(
                        "'{}': a {class} casts no spells, yet casts {spell}",
                        f.name
                    ),
                    Some("give the figure a spell-casting class, or another action; played as declared".into()),
                );
            } else if let (least, rule) = crate::rules::class::magic_user_level_for(sl)
                && !none
                && level < least
                && said.insert(spell.clone())
            {
                c.add(
                    &["combatants".to_string(), q(&f.name)],
                    format!("combatants[{i}].level"),
                    format!(
                        "'{}': a magic-user of level {level} casts {spell}, a spell of level {sl}, which it may cast from level {least} ({})",
                        f.name,
                        rule.page_ref()
                    ),
                    Some("give the caster its level, or a spell it can cast; played as declared".into()),
                );
            }
        }
    }
    // `D6(n)` says the side is surprised, the d6 showing n: said when the roll is past the
    // side's chance as the scene's figures make it — the usual 2 in 6, less for a ranger's
    // party, more against foes that surprise more often (`surprises_more_often`, the
    // way a scene gives a monster's 3 in 6 or more).
    for (side, spec) in &scene.surprise {
        if let super::SurpriseSpec::D6(n) = *spec {
            let (chance, how) = super::surprise_chance::side_chance(scene, side, 2);
            if n > chance {
                let how = if how.is_empty() {
                    String::new()
                } else {
                    format!(" ({how})")
                };
                c.add(
                    &[field("surprise"), q(side)],
                    format!("surprise.{side}"),
                    format!(
                        "D6({n}) makes '{side}' surprised for {n} segments, though a d6 of {n} is no surprise at its {chance} in 6{how} (DMG p.61)"
                    ),
                    Some("ChanceIn6(2) lets the chance decide (fix the d6 under dice: Surprise); foes that surprise more often say so with surprises_more_often".into()),
                );
            }
        }
    }
    // Under "Take Initiative!" a spell's row is +6 + its level: a spell the tables do not
    // know has none, and its declared casting time stands in (at most 9). Said, not
    // silent.
    if scene.rules.system == crate::rules::options::RulesSystem::TakeInitiative {
        for (r, round) in scene.rounds.iter().enumerate() {
            let declared = round.declare.iter().map(|d| ("declare", d));
            for (map, (who, act)) in declared.chain(round.change.iter().map(|d| ("change", d))) {
                let Act::Cast {
                    spell,
                    segments,
                    device: false,
                    ..
                } = act
                else {
                    continue;
                };
                if crate::tables::find_spell(spell)
                    .and_then(|s| s.level)
                    .is_some()
                {
                    continue;
                }
                let level = crate::rules::take_initiative::spell::level_of(None, *segments);
                c.add(
                    &["rounds".into(), field(map), key(who)],
                    format!("rounds[{r}].{map}.{who}"),
                    format!(
                        "'{spell}' is not in the spell tables: its Take Initiative! row counts level {level}, taken from its casting time (at most 9)"
                    ),
                    Some("name a spell of assets/spells.ron for its own level".into()),
                );
            }
        }
    }
    // The house rule of weaponless combat's fields, where they can do nothing.
    for (i, f) in scene.combatants.iter().enumerate() {
        let at = vec!["combatants".to_string(), q(&f.name)];
        let brawl = scene.rules.house.weaponless_combat;
        let mut said = |field: &str, what: String| {
            c.add(&at, format!("combatants[{i}].{field}"), what, None);
        };
        // A monk parries missiles under "Take Initiative!" (§3): there the flag counts.
        let ti = scene.rules.system == crate::rules::options::RulesSystem::TakeInitiative;
        if ((f.monk && !ti) || f.subdual) && !brawl {
            let field = if f.monk && !ti { "monk" } else { "subdual" };
            said(
                field,
                format!(
                    "'{}': {field} counts only under the house rule of weaponless combat (rules: (house: (weaponless_combat: true))): it does nothing here",
                    f.name
                ),
            );
        } else if f.subdual && !f.is_monk() {
            said(
                "subdual",
                format!(
                    "'{}': only a monk chooses to do all its weaponless damage as subdual (house rules, Weaponless Combat): it does nothing here",
                    f.name
                ),
            );
        }
    }
    // Rows of unequal length: the short ones are wall past their end (the grid pads them
    // so), which a typo (dropped floor) also gives: each short row is said. (The warning
    // said open floor, and only of the first such row, while the engine walled them.)
    if let Some(m) = &scene.map {
        let widest = m.rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        for (i, r) in m
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.chars().count() < widest)
        {
            c.add(
                &["map".into(), "rows".into(), q(r)],
                format!("map.rows[{i}]"),
                format!(
                    "row {i} has {} cells, the widest {widest}: the rest of it is wall",
                    r.chars().count()
                ),
                Some("give every row the same width".into()),
            );
        }
    }
    c.finish()
}

/// The book's timing switches of a scene played under "Take Initiative!" from the command
/// line (`run --system take-initiative`), each located on its switch as `check` locates
/// them in a scene written for the variant.
pub(super) fn variant_declarations_on_the_command_line(scene: &Scene, src: &str) -> Vec<Problem> {
    let mut c = Checker::new(src);
    for v in scene.variant_only() {
        let (list, n, who, what) = (v.list, v.item, &v.figure, &v.what);
        let mut at = vec![field(list), item(n)];
        if let Some(p) = v.field {
            at.push(field(p));
        }
        at.push(key(who));
        let within = v.field.map(|p| format!(".{p}")).unwrap_or_default();
        c.add(
            &at,
            format!("{list}[{n}]{within}.{who}"),
            format!("{what}: a Take Initiative! declaration the book has no action for; --system book would drop it"),
            Some("play it as written (without --system), or compare the two systems with `compare`".into()),
        );
    }
    for (i, f) in scene.variant_fields() {
        c.add(
            &[field("combatants"), item(i), field(f)],
            format!("combatants[{i}].{f}"),
            format!("`{f}` is a Take Initiative! field the book has no rule for; --system book would drop it"),
            Some("play it as written (without --system), or compare the two systems with `compare`".into()),
        );
    }
    c.finish()
}

pub(super) fn timing_switches_on_the_command_line(scene: &Scene, src: &str) -> Vec<Problem> {
    let mut c = Checker::new(src);
    house::timing_switches(&mut c, scene, house::TimingAsked::OnTheCommandLine);
    c.finish()
}

/// Checks a parsed scene.
pub(super) fn validate(scene: &Scene, src: &str) -> Vec<Problem> {
    let mut c = Checker::new(src);
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
    scene_limits(&mut c, scene);
    text::check(&mut c, scene);
    house::check(&mut c, scene);
    tour::check(&mut c, scene);
    let map = scene
        .map
        .as_ref()
        .filter(|m| map_within_limits(m))
        .map(crate::scene::MapSpec::grid);
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
    if let Some(Ok(grid)) = &map {
        points_on_the_map(&mut c, scene, grid);
    }
    let mut seen = BTreeSet::new();
    for (i, f) in scene.combatants.iter().enumerate() {
        // The figure's own entry, found by counting entries ("name:" opens each), not by
        // its name: an empty name, or one written with escapes, is not in the text as is.
        let anchor = |field: &str| {
            let mut at = vec!["combatants".to_string()];
            at.extend(std::iter::repeat_n("name:".to_string(), i + 1));
            if field != "name" {
                at.push(format!("{field}:"));
            }
            at
        };
        if !seen.insert(f.name.as_str()) {
            // Walk the figures' names up to this one: the second of the two is at fault.
            let mut at = vec!["combatants".to_string()];
            for g in &scene.combatants[..=i] {
                at.extend(["name".to_string(), q(&g.name)]);
            }
            c.add(
                &at,
                format!("combatants[{i}].name"),
                format!("two figures are named '{}'", f.name),
                Some("names must be unique; they are how declarations refer to figures".into()),
            );
        }
        for (field, text) in [("name", &f.name), ("side", &f.side)] {
            if let Err(why) = fit_name(text) {
                c.add(
                    &anchor(field),
                    format!("combatants[{i}].{field}"),
                    why,
                    Some(format!(
                        "1 to {MAX_NAME_CHARS} characters, no control characters"
                    )),
                );
            }
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
        // Fields that mean something only under "Take Initiative!".
        let ti = scene.rules.system == crate::rules::options::RulesSystem::TakeInitiative;
        for field in f.variant_fields() {
            if !ti {
                c.add(
                    &anchor(field),
                    format!("combatants[{i}].{field}"),
                    format!(
                        "`{field}` is a Take Initiative! field (rules: (system: TakeInitiative))"
                    ),
                    None,
                );
            }
        }
        // A position that is not finite is reported with the figure's numbers.
        if !(f.at.0.is_finite() && f.at.1.is_finite()) {
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
        let anchors = vec![field("surprise_segments"), item(k)];
        check_declarations(
            &mut c,
            scene,
            d,
            &anchors,
            &format!("surprise_segments[{k}]"),
        );
        expects_in_surprise(&mut c, d, &anchors, k);
    }
    for (r, round) in scene.rounds.iter().enumerate() {
        // The round's own item, then its field: a round's fields come in any order.
        let round_at = vec![field("rounds"), item(r)];
        let within = |f: &str| [round_at.clone(), vec![field(f)]].concat();
        let anchors = within("declare");
        check_declarations(
            &mut c,
            scene,
            &round.declare,
            &anchors,
            &format!("rounds[{r}].declare"),
        );
        let ti = scene.rules.system == crate::rules::options::RulesSystem::TakeInitiative;
        if ti && r == 0 {
            engaged_charges(&mut c, scene, &round.declare, &anchors);
        }
        for (side, die) in &round.initiative {
            let mut a = within("initiative");
            a.push(key(side));
            if ti {
                // "Take Initiative!": each figure rolls its own d10.
                // A name no figure has gets a suggestion; a known one with a bad die, the range.
                let msg = if !names.contains(&side.as_str()) {
                    Some((
                        format!(
                            "under Take Initiative! each figure rolls its own d10: no figure is named '{side}'"
                        ),
                        suggestion(side, names.iter().copied()),
                    ))
                } else if !limits::D10.contains(die) {
                    Some((format!("a d10 shows 1 to 10, not {die}"), None))
                } else {
                    None
                };
                if let Some((m, help)) = msg {
                    c.add(&a, format!("rounds[{r}].initiative.{side}"), m, help);
                }
                continue;
            }
            if !sides.contains(side.as_str()) {
                c.add(
                    &a,
                    format!("rounds[{r}].initiative.{side}"),
                    format!("no side is named '{side}'"),
                    suggestion(side, sides.iter().copied()),
                );
            } else if *die == 0 || *die > side_die(scene, side) {
                c.add(
                    &a,
                    format!("rounds[{r}].initiative.{side}"),
                    format!(
                        "side '{side}' rolls a d{}: it shows 1 to {0}, not {die}",
                        side_die(scene, side)
                    ),
                    None,
                );
            }
        }
        let change_at = within("change");
        check_declarations(
            &mut c,
            scene,
            &round.change,
            &change_at,
            &format!("rounds[{r}].change"),
        );
        for who in round.change.keys() {
            let mut a = change_at.clone();
            a.push(key(who));
            let field = format!("rounds[{r}].change.{who}");
            if !ti {
                let m = "a change of action is a Take Initiative! declaration (rules: (system: TakeInitiative))";
                c.add(&a, field, m.into(), None);
            } else if matches!(round.declare.get(who), Some(Act::Cast { .. })) {
                let m = format!(
                    "'{who}' casts this round: a caster may stop, not change (Take Initiative! Basics)"
                );
                c.add(&a, field, m, None);
            } else if matches!(round.declare.get(who), Some(Act::Hold)) {
                let m = format!(
                    "'{who}' waits until the next round (Hold): a figure that chose to wait may not change its action (Take Initiative! Basics)"
                );
                c.add(&a, field, m, None);
            }
        }
        for (who, ids) in &round.modifiers {
            let mut a = within("modifiers");
            a.push(key(who));
            let field = format!("rounds[{r}].modifiers.{who}");
            let table = tables::take_initiative();
            let msg = if !ti {
                Some("Appendix B modifiers are a Take Initiative! declaration".to_string())
            } else if !names.contains(&who.as_str()) {
                Some(format!("no figure is named '{who}'"))
            } else {
                use crate::rules::take_initiative::Value;
                let row = |id: &str| table.modifiers.iter().find(|m| m.id == id);
                ids.iter()
                    .find(|id| row(id).is_none())
                    .map(|id| format!("no row '{id}' in Appendix B (assets/take_initiative.ron)"))
                    .or_else(|| {
                        // Rows the engine adds itself, from what happens, not a number to
                        // name (as `first` refuses them).
                        ids.iter().find_map(|id| {
                            let r = row(id)?;
                            matches!(r.value, Value::PotionDelay | Value::Slowed | Value::Reroll(_))
                                .then(|| format!(
                                    "'{id}' ({}) is not a number to add: the engine counts it from what happens (a Potion declaration, a slow spell, rounds[].change); a potion beside another action is not modelled",
                                    r.words.to_lowercase()
                                ))
                        })
                    })
                    .or_else(|| combination_refused(round.declare.get(who), ids))
                    .or_else(|| {
                        let targets = round.declare.get(who).map_or(0, |a| a.targets().len());
                        let named = ids.iter().any(|id| id == "multiple_targets");
                        let why = crate::rules::take_initiative::row_for_targets(targets).err()?;
                        named.then(|| format!("{why}: name the targets in Melee(targets: [...]), and the row is added for each"))
                    })
            };
            if let Some(m) = msg {
                c.add(&a, field, m, None);
            }
        }
        let then_at = within("then");
        check_declarations(
            &mut c,
            scene,
            &round.then,
            &then_at,
            &format!("rounds[{r}].then"),
        );
        for (who, next) in &round.then {
            let mut a = then_at.clone();
            a.push(key(who));
            if ti {
                let m = format!(
                    "'{who}' has a second action (then:): under Take Initiative! a round has one normal action (App. A)"
                );
                // A potion beside a normal action is the one minor action the modifiers cannot
                // carry (it needs the potion): not modelled, said plainly, not sent round.
                let potion = matches!(round.declare.get(who), Some(Act::Potion { .. }))
                    || matches!(next, Act::Potion { .. });
                let help = if potion {
                    "a potion quaffed as the minor action beside another action is not modelled under Take Initiative! (docs/TAKE-INITIATIVE-RULES.md): declare the potion alone this round, or the other action alone"
                } else {
                    "a minor action (draw a weapon, open a door...) goes in the round's modifiers; the book's second actions need rules: (system: Book)"
                };
                c.add(&a, format!("rounds[{r}].then.{who}"), m, Some(help.into()));
                continue;
            }
            if let Err(m) = second_action_allowed(scene, round.declare.get(who), who, next) {
                c.add(&a, format!("rounds[{r}].then.{who}"), m, None);
            }
        }
        let ti = scene.rules.system == crate::rules::options::RulesSystem::TakeInitiative;
        for (who, s) in &round.hesitation_s {
            let mut a = within("hesitation_s");
            a.push(key(who));
            if ti {
                // As `first` refuses `hesitate=` under the variant: never ignored unsaid.
                let m = "hesitation is a setting of the book's rules (DMG p.71), not of Take Initiative!: leave it out, or play under rules: (system: Book)";
                c.add(
                    &a,
                    format!("rounds[{r}].hesitation_s.{who}"),
                    m.to_string(),
                    None,
                );
            } else if !names.contains(&who.as_str()) {
                let msg = format!("no figure is named '{who}'");
                c.add(
                    &a,
                    format!("rounds[{r}].hesitation_s.{who}"),
                    msg,
                    suggestion(who, names.iter().copied()),
                );
            } else if let Err(m) =
                limits::check("seconds of hesitation:", *s, &limits::HESITATION_S)
            {
                c.add(&a, format!("rounds[{r}].hesitation_s.{who}"), m, None);
            }
        }
    }
    for (kind, by) in &scene.dice {
        for who in by.keys() {
            if who != "any" && !names.contains(&who.as_str()) && !sides.contains(who.as_str()) {
                c.add(
                    &[field("dice"), key(who)],
                    format!("dice.{kind:?}.{who}"),
                    format!("'{who}' is neither a figure nor a side"),
                    suggestion(who, names.iter().copied().chain(sides.iter().copied())),
                );
            }
        }
    }
    c.finish()
}

/// Whether `next` may follow what `who` declared this round (rules::second_action).
fn second_action_allowed(
    scene: &Scene,
    first: Option<&Act>,
    who: &str,
    next: &Act,
) -> Result<(), String> {
    use crate::rules::second_action::{First, Second, may_follow};
    let Some(first) = first else {
        return Err(format!(
            "'{who}' has a second action but declares no first one this round"
        ));
    };
    let fig = scene.combatant(who);
    let first = match first {
        Act::Potion { .. } => First::Potion,
        Act::Missile { .. } => First::Missile {
            of_speed: fig.is_some_and(|f| f.of_speed),
        },
        Act::Melee { .. } => First::Melee,
        _ => First::Other,
    };
    let second = match next {
        Act::Move { .. } => Second::Move,
        Act::Melee { .. } => Second::Melee {
            other_weapon: fig.is_some_and(|f| f.off_hand.is_some()),
        },
        Act::Cast { spell, .. } => Second::Device {
            instant: next.is_instant_device() && !mistyped(spell),
        },
        _ => Second::Other,
    };
    may_follow(first, second).map(|_| ())
}

/// Whether a device named `spell` works at once: no time given, none in the table.
/// A name close to one the table knows ("wand of frost" for "wand of frost (cone of cold)")
/// is taken for a mistyped table name, not for a device with no activation time: it is
/// refused with the table's name as help.
fn mistyped(spell: &str) -> bool {
    tables::find_spell(spell).is_none()
        && tables::suggest(spell, tables::spells().iter().map(|s| s.name.as_str())).is_some()
}

/// The die a side rolls for initiative: a d8 if any member rolls one (DMG p.62).
fn side_die(scene: &Scene, side: &str) -> u32 {
    let members = scene.combatants.iter().filter(|f| f.side == side);
    let dice = members.filter_map(|f| FigureStats::resolve(f).ok().map(|s| s.initiative_die));
    crate::rules::initiative::side_die(dice).0.sides()
}

/// Whether a map is small enough to build (the limits are reported by [`scene_limits`]).
fn map_within_limits(m: &super::MapSpec) -> bool {
    limits::CELL_FT.contains(&m.cell_ft)
        && m.rows.len() <= limits::MAP_CELLS
        && m.rows
            .iter()
            .all(|r| r.chars().count() <= limits::MAP_CELLS)
}

/// The scene's own numbers against [`limits`]: map, lights, counts, surprise, dice.
fn scene_limits(c: &mut Checker, scene: &Scene) {
    let mut bad = |anchors: Vec<String>, field: String, r: Result<(), String>| {
        if let Err(m) = r {
            c.add(&anchors, field, m, None);
        }
    };
    if scene.combatants.len() > limits::FIGURES {
        let n = scene.combatants.len();
        let r = Err(format!(
            "{n} figures: a scene holds at most {}",
            limits::FIGURES
        ));
        bad(vec![field("combatants")], "combatants".into(), r);
    }
    let rounds = scene.rounds.len() as u64;
    if rounds > u64::from(limits::ROUNDS) {
        let r = Err(format!(
            "{rounds} rounds: a scene declares at most {}",
            limits::ROUNDS
        ));
        bad(vec![field("rounds")], "rounds".into(), r);
    }
    if let Some(m) = &scene.map {
        let cell = limits::check_ft("a cell of", m.cell_ft, &limits::CELL_FT);
        bad(
            vec![field("map"), field("cell_ft")],
            "map.cell_ft".into(),
            cell,
        );
        let wide = m.rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        if m.rows.len() > limits::MAP_CELLS || wide > limits::MAP_CELLS {
            let r = Err(format!(
                "a map of {wide} x {} cells: at most {} each way",
                m.rows.len(),
                limits::MAP_CELLS
            ));
            bad(vec![field("map"), field("rows")], "map.rows".into(), r);
        }
        for (i, l) in m.lights.iter().enumerate() {
            let a = vec![field("lights"), q(&l.source)];
            if let Some(r) = l.radius_ft {
                let r = limits::check_ft("a light's radius", r, &limits::VISION_FT);
                bad(a.clone(), format!("map.lights[{i}].radius_ft"), r);
            }
            bad(
                a,
                format!("map.lights[{i}].at"),
                limits::check_point("a light at", l.at),
            );
        }
    }
    for (i, e) in scene.encounter.iter().enumerate() {
        let a = vec![field("encounter")];
        let r = match e {
            super::EncounterCheck::Area { across_ft, .. }
            | super::EncounterCheck::Surprise {
                across_ft: Some(across_ft),
                ..
            } => limits::check("an area across", *across_ft, &(0..=1000)),
            super::EncounterCheck::Outdoors {
                surprise: Some(s), ..
            } => limits::check("segments of surprise", *s, &(0..=6)),
            _ => Ok(()),
        };
        bad(a, format!("encounter[{i}]"), r);
    }
    for (side, s) in &scene.surprise {
        let r = match *s {
            super::SurpriseSpec::D6(n) => limits::check("a d6 showing", n, &(1..=6)),
            super::SurpriseSpec::Percent(p) => limits::check("a d% showing", p, &(1..=100)),
            super::SurpriseSpec::ChanceIn6(n) => limits::check("a chance in 6 of", n, &(0..=6)),
            super::SurpriseSpec::Chance(_, sides) if !super::SURPRISE_DICE.contains(&sides) => {
                Err(format!(
                    "a surprise chance is given on a d4, d6, d8, d10, d12, d20 or d% (100), not a d{sides}"
                ))
            }
            super::SurpriseSpec::Chance(n, sides) => {
                limits::check(&format!("a chance in {sides} of"), n, &(0..=sides))
            }
            super::SurpriseSpec::None => Ok(()),
        };
        bad(
            vec![field("surprise"), key(side)],
            format!("surprise.{side}"),
            r,
        );
    }
    let ti = scene.rules.system == crate::rules::options::RulesSystem::TakeInitiative;
    for (kind, by) in &scene.dice {
        // "Take Initiative!" rolls a d10 for initiative.
        let range = match kind {
            DieKind::Initiative if ti => 1..=*limits::D10.end() as i32,
            // The encounter's distance die: the largest its checks roll (6d4 outdoors, a d4
            // for noise, a d6 indoors, the area's die).
            DieKind::Distance => 1..=distance_die(scene) as i32,
            _ => kind.range(),
        };
        for (who, values) in by {
            if *kind == DieKind::Distance && who != "any" {
                bad(
                    vec![field("dice"), key(who)],
                    format!("dice.Distance.{who}"),
                    Err(format!(
                        "the encounter's distance dice belong to no side or figure: give them under \"any\", not '{who}'"
                    )),
                );
                continue;
            }
            // A side's d6 shows 1 to 6 (a spectator's d8 1 to 8): a 7 is not a roll it can
            // make, as in a round's `initiative`.
            let range = match kind {
                DieKind::Initiative if !ti && scene.combatants.iter().any(|c| c.side == *who) => {
                    1..=side_die(scene, who) as i32
                }
                // A side surprised on a chance on another die rolls the d%.
                DieKind::Surprise if matches!(scene.surprise.get(who), Some(super::SurpriseSpec::Chance(_, s)) if *s != 6) => {
                    1..=100
                }
                _ => range.clone(),
            };
            for v in values {
                let r = limits::check(&format!("a {kind:?} die of"), *v, &range);
                bad(
                    vec![field("dice"), key(who)],
                    format!("dice.{kind:?}.{who}"),
                    r,
                );
            }
        }
    }
}

/// The largest die the scene's encounter checks roll for a distance (none: a d6).
fn distance_die(scene: &Scene) -> u32 {
    scene
        .encounter
        .iter()
        .filter_map(super::EncounterCheck::distance_die)
        .max()
        .unwrap_or(6)
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

/// A declaration's numbers against [`limits`], and a figure aiming at itself.
fn act_limits(c: &mut Checker, who: &str, act: &Act, section: &[String], path: &str) {
    let mut at = section.to_vec();
    at.push(key(who));
    let mut bad = |field: &str, r: Result<(), String>| {
        if let Err(m) = r {
            c.add(&at, format!("{path}.{who}.{field}"), m, None);
        }
    };
    let (modifier, hold) = act.modifier_and_hold();
    bad(
        "modifier",
        limits::check("a modifier of", modifier, &limits::TO_HIT_BONUS),
    );
    if let Some(h) = hold {
        bad(
            "hold_after",
            limits::check("holding after routine", h, &(0..=12)),
        );
    }
    if let Act::Cast {
        spell,
        target,
        at: Some(p),
        ..
    } = act
    {
        bad("at", limits::check_point("a spell cast at", *p));
        // An unknown name is said once, at the spell, with the nearest name ("darkness"
        // is "darkness 15' radius"): the area is not judged of a spell the table lacks.
        if tables::find_spell(spell).is_some() && tables::spell_area_ft(spell).is_none() {
            let areas: Vec<&str> = tables::spells()
                .iter()
                .filter(|s| tables::spell_area_ft(&s.name).is_some())
                .map(|s| s.name.as_str())
                .collect();
            bad(
                "at",
                Err(format!(
                    "'{spell}' has no area to centre on a point (these have: {}): give it a `target` instead",
                    areas.join(", ")
                )),
            );
        }
        if target.is_some() {
            bad(
                "target",
                Err(
                    "a spell cast at a point names no target: its area goes where `at` says".into(),
                ),
            );
        }
    }
    match act {
        Act::Cast {
            segments: Some(s), ..
        } => bad(
            "segments",
            limits::check("a casting time of", *s, &limits::CASTING_SEGMENTS),
        ),
        Act::Potion { prepare, .. } => bad(
            "prepare",
            limits::check(
                "segments to ready a potion:",
                *prepare,
                &limits::POTION_PREPARE,
            ),
        ),
        Act::Move { to: Some(p), .. } | Act::Flee { to: p } | Act::Withdraw { to: p } => {
            bad("to", limits::check_point("a move to", *p))
        }
        Act::Missile {
            move_to, at_range, ..
        } => {
            if let Some(p) = move_to {
                bad("move_to", limits::check_point("a move to", *p));
            }
            if let Some(r) = at_range {
                bad("at_range", limits::check_range_ft(*r));
            }
        }
        Act::Turn { targets } if targets.is_empty() => bad(
            "targets",
            Err("turning needs the undead it is aimed at".into()),
        ),
        _ => {}
    }
    // A spell may be cast on oneself; a blow, a charge or a move may not aim at oneself.
    let spell = matches!(act, Act::Cast { .. } | Act::Cantrips { .. });
    if !spell && act.targets().contains(&who) {
        bad("targets", Err(format!("'{who}' aims at itself")));
    }
    let targets = act.targets();
    if let Some(twice) = targets
        .iter()
        .enumerate()
        .find_map(|(k, t)| targets[..k].contains(t).then_some(t))
    {
        bad(
            "targets",
            Err(format!("'{twice}' is named twice: name each figure once")),
        );
    }
}

/// The longest name or side a figure may have, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// Whether a figure's name (or side) can be shown: not empty, not too long, and free of
/// control characters, which would reach a terminal as commands (a title, a colour).
pub(crate) fn fit_name(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        Err("a name may not be empty".into())
    } else if text.chars().count() > MAX_NAME_CHARS {
        Err(format!(
            "a name of {} characters is too long (at most {MAX_NAME_CHARS})",
            text.chars().count()
        ))
    } else if let Some(why) = unshowable(text) {
        Err(why)
    } else {
        Ok(())
    }
}

/// Whether a declaration means something only under "Take Initiative!".
/// Every point a scene names on its map — where a figure moves, charges or withdraws to,
/// where a spell is cast, where a fixed light stands — is on the map, as the figures must
/// be: a move to a point off it was played as a walk into a wall, and a light off it lit
/// nothing, without a word. A point inside a wall is not refused: a torch in a wall's cell
/// (a sconce) lights the room beside it, and a mover stops at the wall and says so.
fn points_on_the_map(c: &mut Checker, scene: &Scene, grid: &crate::map::Grid) {
    let size = format!("the map is {} x {} ft", grid.width_ft(), grid.height_ft());
    let off = |c: &mut Checker, anchors: Vec<String>, path: String, (x, y): (f64, f64)| {
        if !(x.is_finite() && y.is_finite()) {
            return;
        }
        if grid.kind_at_ft(x, y).is_none() {
            c.add(
                &anchors,
                path,
                format!("({x}, {y}) ft is outside the map"),
                Some(format!("{size}; a point inside it, from (0, 0)")),
            );
        }
    };
    // A round's declarations are its `declare`; a surprise segment's are the item itself.
    // A round's declarations are its `declare`, `then` and `change`; a surprise
    // segment's are the item itself.
    let rounds = scene.rounds.iter().enumerate().flat_map(|(n, r)| {
        [
            ("declare", &r.declare),
            ("then", &r.then),
            ("change", &r.change),
        ]
        .map(|(part, d)| (d, ("rounds", n), Some(part)))
    });
    let surprise = scene.surprise_segments.iter().enumerate();
    let surprise = surprise.map(|(n, d)| (d, ("surprise_segments", n), None));
    for (declare, (list, n), part) in surprise.chain(rounds) {
        for (who, act) in declare {
            for (name, p) in act.points() {
                let mut anchors = vec![field(list), item(n)];
                anchors.extend(part.map(field));
                anchors.extend([key(who), field(name)]);
                let within = part.map(|p| format!(".{p}")).unwrap_or_default();
                off(c, anchors, format!("{list}[{n}]{within}.{who}.{name}"), p);
            }
        }
    }
    for (i, l) in scene.map.iter().flat_map(|m| m.lights.iter()).enumerate() {
        let anchors = vec![field("map"), field("lights"), item(i), field("at")];
        off(c, anchors, format!("map.lights[{i}].at"), l.at);
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
    let ti = scene.rules.system == crate::rules::options::RulesSystem::TakeInitiative;
    for (who, act) in d {
        let mut at = section.to_vec();
        act_limits(c, who, act, section, path);
        if !ti && act.is_variant_only(scene.rules.house.parting_shots) {
            let mut a = at.clone();
            a.push(key(who));
            c.add(
                &a,
                format!("{path}.{who}"),
                format!(
                    "'{}' (as declared here) is a Take Initiative! declaration (rules: (system: TakeInitiative)); the book has no such action",
                    act.verb()
                ),
                None,
            );
        }
        at.push(key(who));
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
            // A spell not in the table is fine when its casting time is given, and so is a
            // device with no activation time (rules::spell::instant_device).
            Act::Cast {
                segments: Some(_), ..
            } => vec![],
            Act::Cast { spell, .. } if act.is_instant_device() && !mistyped(spell) => vec![],
            Act::Cast { spell, .. } => vec![spell],
            Act::Cantrips { first, second, .. } => vec![first, second],
            _ => vec![],
        };
        let cantrips = matches!(act, Act::Cantrips { .. });
        for spell in spells {
            let mut a = at.clone();
            a.push(q(spell));
            match tables::spell(spell) {
                Err(e) => {
                    let (msg, help) = split_help(e);
                    c.add(&a, format!("{path}.{who}.spell"), msg, help);
                }
                // Cantrips are the spells of level 0, none over half a segment (UA p.45).
                Ok(s) if cantrips && s.level != Some(0) => c.add(
                    &a,
                    format!("{path}.{who}.spell"),
                    format!(
                        "'{spell}' is no cantrip (a spell of level {}): Cantrips(...) casts two cantrips, spells of level 0 (UA p.45)",
                        s.level.map_or("unknown".to_string(), |l| l.to_string())
                    ),
                    Some("declare Cast(spell: ...) for a spell of a higher level".into()),
                ),
                Ok(_) => {}
            }
        }
        match act {
            // A bow, crossbow or sling strikes no blow: melee and a charge's blow need a
            // weapon that is swung (or a monster's own attacks). A second action's blow
            // (`then:`) is struck with the other weapon.
            Act::Melee { .. } | Act::Charge { .. }
                if !path.ends_with(".then")
                    && let Some(w) = FigureStats::resolve(fig)
                        .ok()
                        .and_then(|s| s.weapon)
                        .and_then(|w| tables::weapon(&w).ok())
                        .filter(|w| w.missile) =>
            {
                c.add(
                    &at,
                    format!("{path}.{who}"),
                    format!(
                        "'{who}' is armed with a {}, which is shot, not swung: it strikes no blow in melee",
                        w.name
                    ),
                    Some("declare Missile, or give it a melee weapon (assets/weapons.ron)".into()),
                );
            }
            Act::Charge { .. } => {
                if let Ok(stats) = FigureStats::resolve(fig)
                    && stats.encumbered
                {
                    c.add(
                        &at,
                        format!("{path}.{who}"),
                        format!(
                            "'{who}' is encumbered and may not charge: {}",
                            if scene.rules.system
                                == crate::rules::options::RulesSystem::TakeInitiative
                            {
                                cite::TI_CHARGE_ENCUMBERED
                            } else {
                                cite::CHARGE_ENCUMBERED
                            }
                        ),
                        Some("declare Move or Melee instead, or lighten the load".into()),
                    );
                } else if let Ok(stats) = FigureStats::resolve(fig)
                    && stats.movement.0 == 0
                {
                    // A charge covers ground (DMG p.66): a figure that cannot move cannot
                    // charge, as `first` says too.
                    c.add(
                        &at,
                        format!("{path}.{who}"),
                        format!(
                            "'{who}' has movement 0 and cannot charge: {}",
                            cite::CHARGE_RATE
                        ),
                        Some("give it a movement rate, or declare Melee".into()),
                    );
                }
                if matches!(act, Act::Charge { hurl: true, .. }) {
                    // §9h hurls a throwable melee weapon: one with a throwing range.
                    let weapon = FigureStats::resolve(fig)
                        .ok()
                        .and_then(|s| s.weapon)
                        .and_then(|w| tables::weapon(&w).ok());
                    if let Some(w) = weapon.filter(|w| w.range_in.is_none()) {
                        c.add(
                        &at,
                        format!("{path}.{who}.hurl"),
                        format!(
                            "'{who}' is armed with a {}, which has no throwing range: a charge hurls a throwable melee weapon (a spear, a dagger, a hand axe)",
                            w.name
                        ),
                        Some("give it a weapon with a throwing range, or charge without hurl (assets/weapons.ron)".into()),
                    );
                    }
                }
            }
            Act::Melee { targets, .. } | Act::Missile { targets, .. } | Act::Close { targets }
                if targets.is_empty() =>
            {
                c.add(
                    &at,
                    format!("{path}.{who}.targets"),
                    "an attack needs at least one target".into(),
                    None,
                );
            }
            // Where a figure stands is known before play only for the first declarations.
            Act::Flee { to } | Act::Withdraw { to }
                if (path.starts_with("rounds[0]") || path.starts_with("surprise_segments[0]"))
                    && (to.0 - fig.at.0).hypot(to.1 - fig.at.1) < 1.0 =>
            {
                c.add(
                    &at,
                    format!("{path}.{who}.to"),
                    format!(
                        "'{who}' already stands at ({:.0}, {:.0}): fleeing or withdrawing needs a point to go to",
                        to.0, to.1
                    ),
                    None,
                );
            }
            Act::Parry { against } if against.is_empty() => {
                c.add(
                    &at,
                    format!("{path}.{who}.against"),
                    "a parry needs at least one attacker to parry".into(),
                    None,
                );
            }
            Act::Block { against } if against.is_empty() => {
                c.add(
                    &at,
                    format!("{path}.{who}.against"),
                    "a block needs the opponent it blocks".into(),
                    None,
                );
            }
            // Parrying or blocking one's own side does nothing: a slip, said where it is.
            Act::Parry { against } | Act::Block { against }
                if let Some(friend) = against
                    .iter()
                    .find(|a| scene.combatant(a).is_some_and(|g| g.side == fig.side)) =>
            {
                c.add(
                    &at,
                    format!("{path}.{who}.against"),
                    format!("'{friend}' is on {who}'s own side ({}): a parry or a block is against opponents", fig.side),
                    None,
                );
            }
            Act::Missile {
                at_range: Some(r), ..
            } if let Some(long) = FigureStats::resolve(fig)
                .ok()
                .and_then(|s| s.weapon)
                .and_then(|w| tables::weapon(&w).ok())
                .and_then(|w| w.range_ft(scene.setting))
                .map(|l| l.2)
                && *r > long + 1e-9 =>
            {
                c.add(
                    &at,
                    format!("{path}.{who}.at_range"),
                    format!("{r} ft is beyond its weapon's long range ({long:.0} ft): no shot from there"),
                    None,
                );
            }
            Act::Missile { .. } => {
                let weapon = FigureStats::resolve(fig)
                    .ok()
                    .and_then(|s| s.weapon)
                    .and_then(|w| tables::weapon(&w).ok());
                if let Some(w) = weapon.filter(|w| !w.can_fire()) {
                    c.add(
                        &at,
                        format!("{path}.{who}"),
                        format!(
                            "'{who}' is armed with a {}, which is neither shot nor thrown: missile fire needs a bow, a sling, a crossbow or a weapon with a throwing range",
                            w.name
                        ),
                        Some("give it a missile weapon, or declare Melee (assets/weapons.ron)".into()),
                    );
                }
            }
            Act::Set { .. } => {
                let weapon = FigureStats::resolve(fig).ok().and_then(|s| s.weapon);
                let settable = tables::sets_against_charge(weapon.as_deref());
                if !settable {
                    c.add(
                        &at,
                        format!("{path}.{who}"),
                        format!("'{who}' has no spear or pole arm to set against a charge"),
                        Some(
                            "give it a spear, awl pike, glaive, halberd… (assets/weapons.ron)"
                                .into(),
                        ),
                    );
                }
            }
            Act::Move { toward, to } if toward.is_none() && to.is_none() => {
                c.add(
                    &at,
                    format!("{path}.{who}"),
                    "a move needs `toward` (a figure) or `to` (a point)".into(),
                    None,
                );
            }
            Act::Move {
                toward: Some(_),
                to: Some(_),
            } => {
                c.add(
                    &at,
                    format!("{path}.{who}"),
                    "a move goes `toward` a figure or `to` a point, not both".into(),
                    Some("keep the one meant".into()),
                );
            }
            _ => {}
        }
        if let Act::Charge {
            targets, to: None, ..
        } = act
            && targets.is_empty()
        {
            c.add(
                &at,
                format!("{path}.{who}.targets"),
                "a charge needs a target, or a point to charge to (`to: (x, y)`)".into(),
                None,
            );
        }
        if let Act::Charge { to: Some(p), .. } = act
            && let Err(m) = limits::check_point("a charge to", *p)
        {
            c.add(&at, format!("{path}.{who}.to"), m, None);
        }
    }
}

/// Why a figure's declaration and its extra Appendix B rows do not go together in one
/// round under "Take Initiative!", if they do not (rules::take_initiative::combine). A
/// move's length is not known before play: it counts as up to half the movement here, and
/// the engine checks it again when the round is planned.
fn combination_refused(act: Option<&Act>, ids: &[String]) -> Option<String> {
    use crate::rules::take_initiative::{action::Action, combine::combine};
    let action = match act? {
        Act::Melee { .. } | Act::Block { .. } => Action::Melee { speed_factor: None },
        Act::Missile {
            move_to, at_range, ..
        } if move_to.is_some() || at_range.is_some() => Action::MoveAndShoot {
            far: false,
            speed: 0,
            dexterity: 0,
        },
        Act::Missile { .. } | Act::Charge { hurl: true, .. } => Action::Missile {
            speed: 0,
            dexterity: 0,
        },
        Act::Charge { .. } => Action::Charge,
        Act::Cast { spell, device, .. } => {
            if *device || tables::find_spell(spell).is_some_and(|s| s.device) {
                Action::Device
            } else {
                Action::Cast { level: 1 }
            }
        }
        Act::Cantrips { .. } => Action::Cast { level: 1 },
        Act::Close { .. } | Act::Move { .. } => Action::Move { far: false },
        Act::Set { .. } => Action::SetToReceive,
        Act::Turn { .. } => Action::Turn,
        Act::Potion { .. } => Action::Potion,
        Act::Flee { .. } => Action::Flee,
        Act::Withdraw { .. } => Action::Withdraw,
        Act::Expect { .. } => Action::Expect,
        Act::Hide => Action::Hide,
        Act::Parry { .. } => Action::Parry,
        Act::Other(_) | Act::Hold => Action::Other,
    };
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let targets = match act? {
        Act::Melee { targets, .. } => targets.len(),
        _ => 0,
    };
    match combine(tables::take_initiative(), action, &ids) {
        Err(r) => Some(format!(
            "{} with its declaration: {}",
            ids.join(", "),
            r.describe()
        )),
        // A minor action leaves one attack (App. A): a melee at several targets would pay
        // their row for attacks it cannot make (an outside tester's fighter paid +2 and
        // waited for the round's end to strike one foe).
        Ok((c, _)) => {
            crate::rules::take_initiative::combine::several_targets_refused(targets, c.one_attack)
                .map(|(why, _)| format!("{}: {why}", ids.join(", ")))
        }
    }
}

/// An expect declared in a surprise segment: expecting applies only once combat is under
/// way; before it, surprise decides who may act (Take Initiative! §2).
fn expects_in_surprise(c: &mut Checker, declare: &Declarations, anchors: &[String], k: usize) {
    for (who, act) in declare {
        if matches!(act, Act::Expect { .. }) {
            let mut a = anchors.to_vec();
            a.push(key(who));
            c.add(
                &a,
                format!("surprise_segments[{k}].{who}"),
                format!(
                    "an expected event is answered only once combat is under way; in a surprise segment surprise decides who acts ({})",
                    crate::rules::cite::TI_EXPECT.page_ref()
                ),
                None,
            );
        }
    }
}

/// Under "Take Initiative!": a charge declared for the first round by a figure that starts
/// engaged, a foe within 1" (§9). Later rounds are checked by the engine, where the figures
/// then stand.
fn engaged_charges(c: &mut Checker, scene: &Scene, declare: &Declarations, anchors: &[String]) {
    use crate::rules::take_initiative::combine::may_charge;
    for (who, act) in declare {
        let Some(me) = scene.combatants.iter().find(|f| &f.name == who) else {
            continue;
        };
        if !matches!(act, Act::Charge { .. }) {
            continue;
        }
        let nearest = scene
            .combatants
            .iter()
            .filter(|f| f.side != me.side)
            .map(|f| (f.at.0 - me.at.0).hypot(f.at.1 - me.at.1))
            .min_by(f64::total_cmp);
        if let Err(refusal) = may_charge(nearest) {
            let mut a = anchors.to_vec();
            a.push(key(who));
            c.add(
                &a,
                format!("rounds[0].declare.{who}"),
                refusal.describe(),
                None,
            );
        }
    }
}
