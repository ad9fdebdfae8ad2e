//! Checks of what the house rules and psionic combat add to a scene: switches that need
//! each other or the book's timing, hands and feet without weaponless combat, who waits on
//! whom, and each psionic's modes against the psionic table.

use super::{Checker, q, suggestion};
use crate::rules::options::RulesSystem;
use crate::rules::psionics::PsionicTable;
use crate::scene::Scene;
use crate::tables;

/// Checks the scene's house rules and psionics.
pub(super) fn check(c: &mut Checker, scene: &Scene) {
    switches(c, scene);
    brawling(c, scene);
    awaits(c, scene);
    psionics(c, scene);
}

fn switches(c: &mut Checker, scene: &Scene) {
    let house = scene.rules.house;
    if house.confirm_criticals && !house.critical_hits {
        c.add(
            &["house".into(), "confirm_criticals".into()],
            "rules.house.confirm_criticals".into(),
            "confirming criticals needs critical hits".into(),
            Some("add critical_hits: true, or leave confirm_criticals out".into()),
        );
    }
    if scene.rules.system == RulesSystem::TakeInitiative {
        timing_switches(c, scene, TimingAsked::InTheScene);
    }
}

/// Where "Take Initiative!" was asked for, which refuses the book's timing switches.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::scene) enum TimingAsked {
    /// The scene's own `rules: (system: TakeInitiative)`.
    InTheScene,
    /// `run --system take-initiative` on a scene of the book's.
    OnTheCommandLine,
}

/// Each of the book's timing switches the scene has on, located on the switch.
pub(in crate::scene) fn timing_switches(c: &mut Checker, scene: &Scene, asked: TimingAsked) {
    for r in scene.rules.house.timing_switches() {
        let (message, help) = match asked {
            TimingAsked::InTheScene => (
                format!(
                    "the house rule '{}' changes the book's segment timing; \"Take Initiative!\" has its own",
                    r.key
                ),
                "under Take Initiative! use Hold and Expect (§2), Flee (§4), Withdraw (§6) and its moves (§8-9); or drop the switch",
            ),
            TimingAsked::OnTheCommandLine => (
                format!(
                    "the house rule '{}' changes the book's segment timing; \"Take Initiative!\" (--system take-initiative) has its own",
                    r.key
                ),
                "play it under the book (leave out --system), or switch it off in the scene; `compare` plays it under both, without it on the variant's side",
            ),
        };
        c.add(
            &["house".into(), r.key.into()],
            format!("rules.house.{}", r.key),
            message,
            Some(help.into()),
        );
    }
}

fn brawling(c: &mut Checker, scene: &Scene) {
    if scene.rules.house.weaponless_combat {
        return;
    }
    for (i, f) in scene.combatants.iter().enumerate() {
        for (field, w) in [("weapon", &f.weapon), ("off_hand", &f.off_hand)] {
            let Some(w) = w else { continue };
            if tables::weapon(w).is_ok_and(|t| t.brawling) {
                c.add(
                    &["combatants".into(), q(&f.name), q(w)],
                    format!("combatants[{i}].{field}"),
                    format!("'{}' fights with {w}, which needs the house rule of weaponless combat", f.name),
                    Some("add rules: (house: (weaponless_combat: true)); the book's percentile brawling (DMG p.72-73) is not modelled".into()),
                );
            }
        }
    }
}

fn awaits(c: &mut Checker, scene: &Scene) {
    let names: Vec<&str> = scene.combatants.iter().map(|f| f.name.as_str()).collect();
    for (r, round) in scene.rounds.iter().enumerate() {
        for (who, on) in &round.awaits {
            let at = vec!["awaits".to_string(), super::key(who)];
            let field = format!("rounds[{r}].awaits.{who}");
            let problem = if !scene.rules.house.await_enemy {
                Some((
                    "waiting on another needs the house rule await_enemy".to_string(),
                    Some("add rules: (house: (await_enemy: true))".to_string()),
                ))
            } else if !names.contains(&who.as_str()) {
                Some((
                    format!("no figure is named '{who}'"),
                    suggestion(who, names.iter().copied()),
                ))
            } else if !names.contains(&on.as_str()) {
                Some((
                    format!("'{who}' waits on '{on}', but no figure has that name"),
                    suggestion(on, names.iter().copied()),
                ))
            } else if who == on {
                Some((format!("'{who}' waits on itself"), None))
            } else {
                None
            };
            if let Some((m, help)) = problem {
                c.add(&at, field, m, help);
            } else if let Some(ring) = ring_of_waits(&round.awaits, who) {
                c.add(
                    &at,
                    field,
                    format!("a ring of waits, in which no one would ever act: {ring}"),
                    Some("one of them must act without waiting: drop its awaits entry".into()),
                );
            }
        }
    }
}

/// The ring of waits `who` starts, if following whom each waits on comes back to it
/// ("A waits on B, B waits on A").
fn ring_of_waits(awaits: &std::collections::BTreeMap<String, String>, who: &str) -> Option<String> {
    let mut chain = vec![who];
    let mut now = who;
    while let Some(next) = awaits.get(now) {
        if next == who {
            chain.push(next);
            return Some(chain.join(" waits on "));
        }
        if chain.contains(&next.as_str()) || chain.len() > awaits.len() {
            return None;
        }
        chain.push(next);
        now = next;
    }
    None
}

fn psionics(c: &mut Checker, scene: &Scene) {
    let table = tables::psionics().merged(&scene.psionics);
    if let Err(m) = table.check() {
        c.add(&[super::field("psionics")], "psionics".into(), m, None);
    }
    psionic_numbers(c, scene);
    psionic_unique(c, scene);
    for (r, round) in scene.rounds.iter().enumerate() {
        for (who, choices) in &round.psionics {
            // The round's own `psionics:` (the r-th round that has one), not the scene's
            // table of modes nor a `save_vs_psionics`.
            let with = scene.rounds[..=r]
                .iter()
                .filter(|x| !x.psionics.is_empty())
                .count();
            let mut at = vec![super::field("rounds")];
            at.extend(std::iter::repeat_n(super::field("psionics"), with));
            at.push(super::key(who));
            let field = format!("rounds[{r}].psionics.{who}");
            let Some(f) = scene.combatant(who) else {
                let help = suggestion(who, scene.combatants.iter().map(|f| f.name.as_str()));
                c.add(&at, field, format!("no figure is named '{who}'"), help);
                continue;
            };
            if f.psionic.is_none() {
                let m = format!("'{who}' has psionic modes but no psionic strengths");
                c.add(
                    &at,
                    field,
                    m,
                    Some("give it psionic: (attack: N, defense: N)".into()),
                );
                continue;
            }
            if choices.is_empty() {
                c.add(
                    &at,
                    field.clone(),
                    "no modes: give one a segment, from segment 1 (a round has 10)".into(),
                    Some(
                        "leave the figure out of psionics: for a round without psionic combat"
                            .into(),
                    ),
                );
            }
            if choices.len() > 10 {
                c.add(
                    &at,
                    field.clone(),
                    format!("{} segments of modes: a round has 10", choices.len()),
                    None,
                );
            }
            for (k, ch) in choices.iter().enumerate() {
                if let Some(m) = choice_problem(scene, &table, who, ch) {
                    c.add(&at, format!("{field}[{k}]"), m.0, m.1);
                }
            }
        }
    }
}

/// The numbers of the scene's own psionic table within their ranges: a cost or a loss of
/// points no more than a strength can hold, an area a distance on the map.
fn psionic_numbers(c: &mut Checker, scene: &Scene) {
    use crate::scene::limits;
    let t = &scene.psionics;
    let modes = t.attacks.iter().map(|m| ("attacks", m));
    for (k, (list, m)) in modes
        .chain(t.defenses.iter().map(|m| ("defenses", m)))
        .enumerate()
    {
        let k = if list == "attacks" {
            k
        } else {
            k - t.attacks.len()
        };
        let at = vec![super::field("psionics"), super::q(&m.name)];
        if let Some(cost) = m.cost
            && let Err(e) = limits::check("a cost of", cost, &limits::PSIONIC_STRENGTH)
        {
            c.add(&at, format!("psionics.{list}[{k}].cost"), e, None);
        }
        if let Some(a) = m.area_ft
            && let Err(e) = limits::check_ft("an area of", a, &limits::VISION_FT)
        {
            c.add(&at, format!("psionics.{list}[{k}].area_ft"), e, None);
        }
    }
    for (k, cell) in t.matrix.iter().enumerate() {
        if let crate::rules::psionics::Outcome::Points(n) = cell.outcome
            && let Err(e) = limits::check("a loss of", n, &limits::PSIONIC_STRENGTH)
        {
            let at = vec![
                super::field("psionics"),
                super::field("matrix"),
                super::q(&cell.attack),
            ];
            c.add(&at, format!("psionics.matrix[{k}].outcome"), e, None);
        }
    }
}

/// Each mode of the scene's psionic table named once, as an attack or a defense, and each
/// (attack, defense) cell of its matrix given once: a second entry was silently dropped.
fn psionic_unique(c: &mut Checker, scene: &Scene) {
    let t = &scene.psionics;
    let mut seen: std::collections::BTreeMap<&str, &str> = std::collections::BTreeMap::new();
    let modes = t.attacks.iter().map(|m| ("attacks", m));
    for (list, m) in modes.chain(t.defenses.iter().map(|m| ("defenses", m))) {
        if let Some(first) = seen.insert(m.name.as_str(), list) {
            let at = vec![super::field("psionics"), super::q(&m.name)];
            let why = if first == list {
                format!("'{}' is given twice in the {list}", m.name)
            } else {
                format!("'{}' is both an attack and a defense mode", m.name)
            };
            c.add(&at, format!("psionics.{list}"), why, None);
        }
    }
    let mut cells = std::collections::BTreeSet::new();
    for (k, cell) in t.matrix.iter().enumerate() {
        if !cells.insert((cell.attack.as_str(), cell.defense.as_str())) {
            let at = vec![
                super::field("psionics"),
                super::field("matrix"),
                super::q(&cell.attack),
            ];
            let why = format!(
                "{} against {} is given twice in the matrix (one outcome each)",
                cell.attack, cell.defense
            );
            c.add(&at, format!("psionics.matrix[{k}]"), why, None);
        }
    }
}

/// What is wrong with one segment's modes, if anything.
fn choice_problem(
    scene: &Scene,
    table: &PsionicTable,
    who: &str,
    ch: &crate::scene::PsiChoice,
) -> Option<(String, Option<String>)> {
    if let Some(a) = &ch.attack
        && table.attack(a).is_none()
    {
        let help = suggestion(a, table.attacks.iter().map(|m| m.name.as_str()));
        return Some((
            format!("'{a}' is not an attack mode in the psionic table"),
            help,
        ));
    }
    if let Some(d) = &ch.defense
        && table.defense(d).is_none()
    {
        let help = suggestion(d, table.defenses.iter().map(|m| m.name.as_str()));
        return Some((
            format!("'{d}' is not a defense mode in the psionic table"),
            help,
        ));
    }
    match (&ch.attack, &ch.at) {
        (Some(a), None) => Some((
            format!("'{who}' attacks with {a} but at no one"),
            Some("add at: \"Name\"".into()),
        )),
        (_, Some(t)) if scene.combatant(t).is_none() => Some((
            format!("'{who}' attacks '{t}', who is not in the scene"),
            None,
        )),
        // A non-psionic is reached only by an attack that fills an area (the blast): it
        // saves inside it (DMG p.78); the other modes meet a defense it does not have.
        (Some(a), Some(t))
            if scene.combatant(t).is_some_and(|t| t.psionic.is_none())
                && table.attack(a).is_none_or(|m| m.area_ft.is_none()) =>
        {
            Some((
                format!(
                    "'{who}' aims {a} at '{t}', who has no psionics: only an attack that fills an area reaches a non-psionic, who saves inside it (DMG p.78)"
                ),
                Some(format!(
                    "aim it at a psionic, or give {a} an area_ft in the scene's psionics table"
                )),
            ))
        }
        (_, Some(t)) if t == who => Some((format!("'{who}' attacks itself"), None)),
        _ => None,
    }
}
