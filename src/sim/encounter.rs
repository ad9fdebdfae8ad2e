//! The encounter step: who is surprised and for how long (side by side, then each figure by
//! its Dexterity), and the encounter-distance checks the scene asks for.

use super::components::*;
use super::dice::Dice;
use super::log::{EventKind, LogEvent, Payload};
use super::{SegmentClock, SimScene};
use crate::rules::distance::{self, Terrain};
use crate::rules::surprise::{self, SurpriseRoll};
use crate::scene::{DieKind, EncounterCheck, SurpriseSpec};
use bevy::prelude::*;
use std::collections::BTreeMap;

/// One roll of the check's distance die (`EncounterCheck::distance_die`), fixed or not.
fn distance_roll(dice: &mut Dice, check: &EncounterCheck) -> u32 {
    let die = check.distance_die().unwrap_or(6);
    dice.roll(DieKind::Distance, "any", die)
        .0
        .clamp(1, die as i32) as u32
}

/// How surprise was netted among the sides surprised, in words: every side surprised, the
/// least loss comes off each ("both surprised (3 vs 1): A loses 2, B loses 0", as two
/// sides always read); a side not surprised, no netting at all.
fn net_said(
    when: (u32, u32),
    surprised: &[(&String, u32)],
    net: &BTreeMap<String, u32>,
    rule: crate::rules::cite::Rule,
) -> LogEvent {
    let names: Vec<&str> = surprised.iter().map(|(s, _)| s.as_str()).collect();
    let rolls: Vec<String> = surprised.iter().map(|(_, n)| n.to_string()).collect();
    let losses: Vec<String> = surprised
        .iter()
        .map(|(s, _)| format!("{s} loses {}", net.get(*s).copied().unwrap_or(0)))
        .collect();
    let actor = crate::text::list(&names);
    let detail = if rule == crate::rules::cite::SURPRISE_NET {
        let all = if surprised.len() == 2 { "both" } else { "all" };
        format!(
            "{all} surprised ({}): {}",
            rolls.join(" vs "),
            losses.join(", ")
        )
    } else {
        format!(
            "surprised ({}), but a side is not: no netting, each loses its whole roll ({})",
            rolls.join(" vs "),
            losses.join(", ")
        )
    };
    LogEvent::new(when, actor, EventKind::Surprise, None, detail, rule).with(Payload::SurpriseNet {
        lost: surprised
            .iter()
            .map(|(s, _)| ((*s).clone(), net.get(*s).copied().unwrap_or(0)))
            .collect(),
    })
}

/// A side's surprise on a chance of `n` in `sides` on a die other than the d6, turned
/// into a percentage with the sides' edges (DMG p.61): the d% is rolled against it and the
/// segments lost are the roll ÷ 16⅔, rounded up. Returns the segments (None: not
/// surprised), the words and the rule.
fn on_another_die(
    scene: &crate::scene::Scene,
    side: &str,
    (n, sides): (u32, u32),
    dice: &mut Dice,
    log: &mut MessageWriter<LogEvent>,
) -> (Option<u32>, String, crate::rules::cite::Rule) {
    let base = surprise::Chance::in_die(n, sides);
    let (c, how) = crate::scene::surprise_chance::side_chance_of(scene, side, base);
    let pct = |c: surprise::Chance| {
        let p = format!("{:.1}", c.as_percent());
        format!("{}%", p.trim_end_matches(".0"))
    };
    if !how.is_empty() {
        let rule = if how.contains("less often") {
            crate::rules::cite::SURPRISE_LESS_OFTEN
        } else {
            crate::rules::cite::SURPRISE_MORE_OFTEN
        };
        let words = format!(
            "surprised on {n} in {sides} ({}) {how}: {}",
            pct(base),
            pct(c)
        );
        log.write(LogEvent::new(
            (0, 0),
            side,
            EventKind::Surprise,
            None,
            words,
            rule,
        ));
    }
    let (roll, _) = dice.roll(DieKind::Surprise, side, 100);
    let roll = roll.clamp(1, 100) as u32;
    if c.is_surprised(SurpriseRoll::Percent(roll)) {
        let (s, r) = surprise::segments_lost(SurpriseRoll::Percent(roll));
        let words = format!(
            "surprised on {}: d% shows {roll}, {s} segment(s) lost (the roll ÷ 16⅔, rounded up)",
            pct(c)
        );
        (Some(s), words, r)
    } else {
        let words = format!("not surprised: d% shows {roll}, needs {} or less", pct(c));
        (None, words, crate::rules::cite::SURPRISE_PERCENT)
    }
}

/// Determines surprise and distance in the encounter step.
pub(super) fn encounter(
    scene: Res<SimScene>,
    mut clock: ResMut<SegmentClock>,
    mut dice: ResMut<Dice>,
    mut vision: ResMut<super::MapVision>,
    mut figures: Query<(&Combatant, &Side, &Dexterity, &mut Surprised)>,
    mut log: MessageWriter<LogEvent>,
) {
    if clock.phase != super::clock::Phase::Encounter {
        return;
    }
    let when = (0, 0);
    // Each side's segments lost.
    let mut lost: BTreeMap<String, Option<u32>> = BTreeMap::new();
    for (side, spec) in &scene.0.surprise {
        let (segments, detail, rule) = match *spec {
            SurpriseSpec::None => (
                None,
                "not surprised".to_string(),
                crate::rules::cite::SURPRISE_D6,
            ),
            SurpriseSpec::D6(n) => {
                let (s, r) = surprise::segments_lost(SurpriseRoll::D6(n));
                (
                    Some(s),
                    format!("surprised: d6 shows {n}, {s} segment(s) lost"),
                    r,
                )
            }
            SurpriseSpec::Percent(p) => {
                let (s, r) = surprise::segments_lost(SurpriseRoll::Percent(p));
                (
                    Some(s),
                    format!("surprised: d% shows {p}, {s} segment(s) lost"),
                    r,
                )
            }
            SurpriseSpec::Chance(n, sides) if sides != 6 => {
                on_another_die(&scene.0, side, (n, sides), &mut dice, &mut log)
            }
            SurpriseSpec::ChanceIn6(base) | SurpriseSpec::Chance(base, _) => {
                let (c, how) = crate::scene::surprise_chance::side_chance(&scene.0, side, base);
                let (roll, _) = dice.roll(DieKind::Surprise, side, 6);
                let roll = roll.clamp(1, 6) as u32;
                if !how.is_empty() {
                    log.write(LogEvent::new(
                        when,
                        side.clone(),
                        EventKind::Surprise,
                        None,
                        format!("surprised on {base} in 6 {how}: {c} in 6"),
                        if how.contains("less often") {
                            crate::rules::cite::SURPRISE_LESS_OFTEN
                        } else {
                            crate::rules::cite::SURPRISE_MORE_OFTEN
                        },
                    ));
                }
                if surprise::surprised_on_d6(roll, c).0 {
                    let (s, r) = surprise::segments_lost(SurpriseRoll::D6(roll));
                    (
                        Some(s),
                        format!("surprised on {c} in 6: d6 shows {roll}, {s} segment(s) lost"),
                        r,
                    )
                } else {
                    (
                        None,
                        format!("not surprised: d6 shows {roll}, needs {c} or less"),
                        crate::rules::cite::SURPRISE_D6,
                    )
                }
            }
        };
        log.write(
            LogEvent::new(when, side.clone(), EventKind::Surprise, None, detail, rule).with(
                Payload::Surprise {
                    segments: segments.unwrap_or(0),
                },
            ),
        );
        lost.insert(side.clone(), segments);
    }
    // Surprise netted among every side at once: each pair keeps its own net, and a side
    // not surprised lets none of the others off (rules::surprise::net_among).
    let mut sides: Vec<String> = figures.iter().map(|(_, s, ..)| s.0.clone()).collect();
    sides.extend(lost.keys().cloned());
    sides.sort();
    sides.dedup();
    let rolls: Vec<Option<u32>> = sides
        .iter()
        .map(|s| lost.get(s).copied().flatten())
        .collect();
    let (netted, rule) = surprise::net_among(&rolls);
    let net: BTreeMap<String, u32> = sides.iter().cloned().zip(netted.iter().copied()).collect();
    let surprised: Vec<(&String, u32)> = (sides.iter().zip(&rolls))
        .filter_map(|(s, r)| Some((s, (*r)?)))
        .collect();
    if surprised.len() >= 2 {
        log.write(net_said(when, &surprised, &net, rule));
    }
    // Each figure by its Dexterity.
    let mut all: Vec<_> = figures.iter_mut().collect();
    all.sort_by_key(|(c, ..)| c.index);
    // A side stays surprised while any of its members does: one slow to react (a
    // Dexterity penalty) keeps the rest of his side "on guard" in the segments he adds,
    // neither striking nor struck by free blows (DMG p.71).
    let own_of = |side: &Side, dex: &Dexterity| {
        let side_segments = net.get(&side.0).copied().unwrap_or(0);
        surprise::individual_surprise(side_segments, dex.score, dex.light_gear)
    };
    let mut side_longest: BTreeMap<&str, u32> = BTreeMap::new();
    for (_, side, dex, _) in &all {
        let die = net.get(&side.0).copied().unwrap_or(0);
        let own = own_of(side, dex).0;
        let l = side_longest.entry(side.0.as_str()).or_insert(die);
        *l = (*l).max(own);
    }
    let side_longest: BTreeMap<String, u32> = side_longest
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let mut longest = 0;
    for (c, side, dex, mut sur) in all {
        let side_segments = net.get(&side.0).copied().unwrap_or(0);
        let (own, rule) = own_of(side, dex);
        *sur = Surprised {
            segments: own,
            side_segments: side_longest.get(&side.0).copied().unwrap_or(side_segments),
        };
        longest = longest.max(own).max(side_segments);
        // What Dexterity did to its surprise, as the rules decided it: a bonus or a penalty
        // that changed it, or a bonus void in heavy gear (the rule says which).
        let words = if side_segments == 0 {
            None
        } else if rule == crate::rules::cite::LIGHT_GEAR {
            Some(format!(
                "Dexterity {} (reaction {:+}) counts only in light gear: surprised the full {side_segments} segment(s)",
                dex.score, dex.reaction
            ))
        } else {
            (own != side_segments).then(|| {
                format!(
                    "Dexterity {} (reaction {:+}): surprised {own} segment(s) instead of {side_segments}",
                    dex.score, dex.reaction
                )
            })
        };
        if let Some(words) = words {
            log.write(
                LogEvent::new(when, c.name.clone(), EventKind::Surprise, None, words, rule)
                    .with(Payload::Surprise { segments: own }),
            );
        }
    }
    clock.surprise_segments = longest;
    unplayed_surprise(&scene.0, longest, &mut log);

    for check in &scene.0.encounter {
        let (d, note) = match check {
            EncounterCheck::Outdoors {
                terrain,
                surprise,
                note,
            } => {
                let mut d4s = [0u32; 6];
                for d in &mut d4s {
                    *d = distance_roll(&mut dice, check);
                }
                let t = terrain.unwrap_or(Terrain::Open);
                // The larger surprise actually rolled, unless the scene gives one (DMG p.49).
                let rolled = lost.values().flatten().copied().max().unwrap_or(0);
                let surprise = surprise.unwrap_or(rolled);
                let d = distance::outdoor_distance(d4s, t, surprise);
                let adjusted: Vec<u32> = d4s.iter().map(|&x| t.adjust_die(x)).collect();
                (
                    d,
                    format!(
                        "{note}: 6d4 shows {}, read as {} for {} ground, less {surprise} for surprise = {}\" ({} yards)",
                        crate::text::list(&d4s),
                        crate::text::list(&adjusted),
                        format!("{t:?}").to_lowercase(),
                        d.inches,
                        d.yards()
                    ),
                )
            }
            EncounterCheck::Indoors { note } => {
                let r = distance_roll(&mut dice, check);
                let d = crate::rules::house::indoor_distance(r, scene.0.rules.house);
                // The house rule counts squares where the book counts inches.
                let unit = if d.rule == crate::rules::cite::HOUSE_DISTANCE {
                    " squares"
                } else {
                    "\""
                };
                let words = format!("{note}: d6 {r} + 4 = {}{unit} ({} ft)", d.inches, d.feet);
                (d, words)
            }
            EncounterCheck::Noise { note } => {
                let r = distance_roll(&mut dice, check);
                let d = distance::noise_distance(r, scene.0.setting);
                (
                    d,
                    format!("{note}: d4 {r} → {}\" ({} ft)", d.inches, d.feet),
                )
            }
            EncounterCheck::Area { across_ft, note } => {
                let die = distance::area_die(*across_ft);
                let r = distance_roll(&mut dice, check);
                let d = distance::area_distance(*across_ft, r);
                let what = if d.is_striking() {
                    "striking distance".to_string()
                } else {
                    format!("{} ft", d.feet)
                };
                (
                    d,
                    format!("{note}: {across_ft}-ft area, d{die} {r} → {what}"),
                )
            }
            EncounterCheck::Surprise { across_ft, note } => {
                let d = distance::surprise_distance_cap(*across_ft, scene.0.setting);
                (
                    d,
                    format!(
                        "{note}: with surprise, at most {}\" ({} ft)",
                        d.inches, d.feet
                    ),
                )
            }
            EncounterCheck::Vision { figures: who, note } => {
                let stats: Vec<_> = scene
                    .0
                    .combatants
                    .iter()
                    .filter(|c| who.contains(&c.name))
                    .filter_map(|c| crate::scene::figure::FigureStats::resolve(c).ok())
                    .collect();
                let lights: Vec<f64> = stats
                    .iter()
                    .filter_map(|s| s.light.as_ref().map(|l| l.1))
                    .collect();
                let infra: Vec<f64> = stats.iter().filter_map(|s| s.infravision_ft).collect();
                match distance::vision_limit_ft(&lights, &infra) {
                    Some((ft, rule)) => {
                        // The same limit on the real map: how far it reaches past the walls.
                        let on_map: String = match vision.0.as_mut() {
                            Some(v) => scene
                                .0
                                .combatants
                                .iter()
                                .filter(|c| who.contains(&c.name))
                                .map(|c| {
                                    let (far, cells) = v.encounter_reach(c.at, ft);
                                    format!(
                                        "; on the map {} can meet others up to {far:.0} ft away ({cells} open cells in sight)",
                                        c.name
                                    )
                                })
                                .collect(),
                            None => String::new(),
                        };
                        log.write(
                            LogEvent::new(
                                when,
                                who.join(", "),
                                EventKind::Distance,
                                None,
                                format!(
                                    "{note}: encounters at most {ft} ft away ({}){on_map}",
                                    relied_on(&lights, &infra)
                                ),
                                rule,
                            )
                            .with(Payload::Distance { feet: ft }),
                        );
                    }
                    None => {
                        log.write(LogEvent::new(
                            when,
                            who.join(", "),
                            EventKind::Distance,
                            None,
                            format!(
                                "{note}{}no light and no infravision: nothing is seen in the dark",
                                if note.is_empty() { "" } else { ": " }
                            ),
                            crate::rules::cite::DISTANCE_LIGHT,
                        ));
                    }
                }
                continue;
            }
        };
        // A check with no note of its own begins with what it found.
        let note = match note.strip_prefix(": ") {
            Some(rest) => rest.to_string(),
            None => note,
        };
        // The roll says how far apart the parties met; the figures stand where the scene
        // put them, and the log says so when the two differ.
        let cap = matches!(check, EncounterCheck::Surprise { .. });
        // Words only: a quiet play (the odds' trials) does not look for the nearest foes.
        let placed = crate::narrate::narrating()
            .then(|| nearest_foes_ft(&scene.0))
            .flatten();
        let note = match placed {
            Some(placed)
                if (!cap && (placed - d.feet).abs() > 2.5) || (cap && placed > d.feet + 2.5) =>
            {
                format!(
                    "{note}; the figures stand as the scene places them, the nearest foes {placed:.0} ft apart"
                )
            }
            _ => note,
        };
        log.write(
            LogEvent::new(when, "encounter", EventKind::Distance, None, note, d.rule)
                .with(Payload::Distance { feet: d.feet }),
        );
    }
}

/// How far apart the nearest two figures of different sides stand, in feet, as placed.
/// Declarations for surprise segments the surprise does not last are not played: said,
/// not dropped in silence (a scene with three segments declared and a d6 of 1).
fn unplayed_surprise(scene: &crate::scene::Scene, longest: u32, log: &mut MessageWriter<LogEvent>) {
    let declared = scene.surprise_segments.len() as u32;
    if declared <= longest {
        return;
    }
    let first = longest + 1;
    let which = if first == declared {
        crate::words!("segment {first}")
    } else {
        crate::words!("segments {first}-{declared}")
    };
    let why = crate::words!(
        "the surprise lasts {}: the declarations for surprise {which} are not played",
        crate::text::plural(longest, "segment")
    );
    log.write(LogEvent::new(
        (0, 0),
        "clock",
        EventKind::Surprise,
        None,
        why,
        crate::rules::cite::SURPRISE_SEGMENTS,
    ));
}

fn nearest_foes_ft(scene: &crate::scene::Scene) -> Option<f64> {
    let all = &scene.combatants;
    all.iter()
        .enumerate()
        .flat_map(|(i, a)| all[i + 1..].iter().map(move |b| (a, b)))
        .filter(|(a, b)| a.side != b.side)
        .map(|(a, b)| crate::map::distance_ft(a.at, b.at))
        .min_by(f64::total_cmp)
}

/// What a party relies on to see, in words: "a light of 20 ft radius", "infravision to
/// 60 ft", or both.
fn relied_on(lights: &[f64], infra: &[f64]) -> String {
    let mut parts = Vec::new();
    if !lights.is_empty() {
        let r: Vec<String> = lights.iter().map(|l| format!("{l}")).collect();
        parts.push(format!("light of {} ft radius", crate::text::list(&r)));
    }
    if !infra.is_empty() {
        let r: Vec<String> = infra.iter().map(|l| format!("{l}")).collect();
        parts.push(format!("infravision to {} ft", crate::text::list(&r)));
    }
    if parts.is_empty() {
        "nothing to see by".into()
    } else {
        parts.join(" and ")
    }
}
