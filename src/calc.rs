//! The "who strikes first" calculator: reads declared actions written the way a DM would
//! say them, runs them through the rules core and reports the round, with the rule and page
//! behind every step. `firststrike first` is a thin wrapper around this module.
//!
//! An action is `NAME: KIND [key=value ...]`, for example
//! `"Riggby: melee sf=4 d6=4"` or `"Hill giant: charge move=12 distance=200 d6=3"`.

use crate::rules::action::{ActionKind, Declared};
use crate::rules::attack_rate::AttackRate;
use crate::rules::charge::{self, Body};
use crate::rules::dexterity;
use crate::rules::distance::Setting;
use crate::rules::first::Context;
use crate::rules::initiative;
use crate::rules::movement;
use crate::rules::sequence::{EventKind, Sequence, round_sequence};
use crate::tables;
use serde::Serialize;
use std::fmt::Write as _;

/// Settings that apply to every action of a calculation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Defaults {
    /// Indoors or outdoors (charge rates).
    pub setting: Setting,
    /// The round of attacking for alternating rates (1-based).
    pub round: u32,
    /// Rules context (melee round, options).
    pub context: Context,
}

/// The kinds an action may name, for messages.
pub const KINDS: &str = "melee, natural, missile, charge, cast, device, turn";
const KEYS: &str = "d6, d8, side, weapon, spell, sf, attacks, rate, round, reach, dex, move, gear, time, distance, arrive, body, speed, encumbered";

/// Parses one action. Errors name the bad part.
pub fn parse_action(spec: &str, defaults: &Defaults) -> Result<Declared, String> {
    let (name, rest) = spec.split_once(':').ok_or_else(|| {
        format!("'{spec}': expected 'NAME: KIND [key=value ...]', e.g. 'Riggby: melee sf=4 d6=4'")
    })?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("'{spec}': the name before ':' is empty"));
    }
    let mut words = rest.split_whitespace();
    let kind_word = words
        .next()
        .ok_or_else(|| format!("{name}: no action kind after ':' (one of {KINDS})"))?;
    let mut a = Declared::melee(name, 0);
    let mut die: Option<u32> = None;
    let (mut rate, mut round) = (None::<AttackRate>, defaults.round.max(1));
    let (mut dex, mut move_in, mut light) = (None::<u32>, None::<u32>, None::<bool>);
    let (mut time, mut distance, mut arrive) = (None::<u32>, None::<f64>, None::<u32>);
    let (mut body, mut encumbered) = (Body::Biped, false);
    let (mut weapon, mut spell, mut reach_given) = (None, None, false);
    for w in words {
        let (k, v) = w.split_once('=').unwrap_or((w, ""));
        let num = |v: &str| -> Result<u32, String> {
            v.parse::<u32>()
                .map_err(|_| format!("{name}: '{w}': {k} takes a whole number"))
        };
        let feet = |v: &str| -> Result<f64, String> {
            let v = v.trim_end_matches("ft");
            v.parse::<f64>()
                .ok()
                .filter(|f| f.is_finite() && *f >= 0.0)
                .ok_or_else(|| format!("{name}: '{w}': {k} takes a distance in feet"))
        };
        match k {
            "d6" | "d8" => {
                let n = num(v)?;
                let sides = if k == "d8" { 8 } else { 6 };
                if !(1..=sides).contains(&n) {
                    return Err(format!("{name}: '{w}': a {k} shows 1 to {sides}"));
                }
                die = Some(n);
            }
            "side" if !v.is_empty() => a.side = v.replace('_', " "),
            "sf" => a.speed_factor = Some(num(v)?),
            "weapon" => weapon = Some(tables::weapon(v).map_err(|e| format!("{name}: {e}"))?),
            "spell" => spell = Some(tables::spell(v).map_err(|e| format!("{name}: {e}"))?),
            "attacks" => {
                let n = num(v)?;
                if n == 0 {
                    return Err(format!("{name}: '{w}': attacks must be at least 1"));
                }
                a.routines = n;
            }
            "rate" => rate = Some(v.parse().map_err(|e| format!("{name}: {e}"))?),
            "round" => round = num(v)?.max(1),
            "reach" | "length" => {
                a.reach_ft = feet(v)?;
                reach_given = true;
            }
            "dex" => {
                let d = num(v)?;
                if !(1..=25).contains(&d) {
                    return Err(format!(
                        "{name}: '{w}': Dexterity runs from 3 to 18 (25 at most)"
                    ));
                }
                dex = Some(d);
            }
            "move" => move_in = Some(num(v)?),
            "gear" => {
                light = Some(match v {
                    "light" => true,
                    "heavy" => false,
                    _ => return Err(format!("{name}: '{w}': gear is 'light' or 'heavy'")),
                })
            }
            "time" => time = Some(num(v)?),
            "distance" => distance = Some(feet(v)?),
            "arrive" => arrive = Some(num(v)?),
            "body" => {
                body = match v {
                    "biped" => Body::Biped,
                    "quadruped" => Body::Quadruped,
                    _ => return Err(format!("{name}: '{w}': body is 'biped' or 'quadruped'")),
                }
            }
            "speed" if v.is_empty() => a.strikes_first = true,
            "encumbered" if v.is_empty() => encumbered = true,
            _ => return Err(format!("{name}: unknown setting '{w}' (known: {KEYS})")),
        }
    }
    if let Some(w) = weapon {
        let missile = kind_word == "missile";
        if !missile && w.missile {
            return Err(format!(
                "{name}: a {} is a missile weapon; use 'missile weapon=...'",
                w.name
            ));
        }
        if !missile && a.speed_factor.is_none() {
            a.speed_factor = Some(w.speed_factor);
        }
        if !reach_given {
            a.reach_ft = w.length_ft;
        }
        if missile && rate.is_none() && a.routines == 1 {
            rate = w.fire_rate;
        }
        if initiative::strikes_first(&w.name).is_some() {
            a.strikes_first = true;
        }
    }
    if let Some(s) = spell {
        time = time.or(Some(s.segments));
    }
    a.die = die.ok_or_else(|| {
        format!("{name}: give the side's initiative die, e.g. d6=4 (or d8=5 for a spectator)")
    })?;
    if let Some(r) = rate {
        a.routines = r
            .routines_in(round, defaults.context.options.alternating_rate)
            .0;
    }
    let light_gear = light.unwrap_or_else(|| move_in.is_none_or(movement::is_light_gear));
    if let Some(d) = dex {
        a.dex_adjustment = dexterity::effective_adjustment(d, light_gear);
    }
    a.kind = match kind_word {
        "melee" | "natural" => {
            if kind_word == "natural" && a.speed_factor.is_some() {
                return Err(format!(
                    "{name}: natural attacks have no speed factor; use 'melee sf=N' for a weapon"
                ));
            }
            ActionKind::Melee
        }
        "missile" => ActionKind::Missile,
        "turn" => ActionKind::Turn,
        "cast" | "device" => {
            let segments = time.ok_or_else(|| {
                format!("{name}: {kind_word} needs time=SEGMENTS (casting or activation time)")
            })?;
            a.routines = 1;
            ActionKind::Cast {
                segments,
                device: kind_word == "device",
            }
        }
        "charge" => {
            if !charge::may_charge(encumbered).0 {
                return Err(format!(
                    "{name}: an encumbered creature cannot charge (DMG p.66)"
                ));
            }
            let arrival_segment = match (arrive, distance, move_in) {
                (Some(n), _, _) => n,
                (None, Some(d), Some(m)) => {
                    let per = charge::charge_feet_per_segment(m, defaults.setting, body);
                    if per <= 0.0 {
                        return Err(format!("{name}: move must be above 0 to charge"));
                    }
                    if !charge::arrives_this_round(d, per) {
                        return Err(format!(
                            "{name}: at {per} ft a segment the charge cannot cover {d} ft this round (DMG p.66); spend the round closing"
                        ));
                    }
                    charge::arrival_segment(d, per).0
                }
                _ => {
                    return Err(format!(
                        "{name}: a charge needs arrive=SEGMENT, or distance=FEET with move=INCHES"
                    ));
                }
            };
            if arrival_segment > charge::SEGMENTS_PER_ROUND {
                return Err(format!(
                    "{name}: the charge needs {arrival_segment} segments and cannot arrive this round (DMG p.66); spend the round closing"
                ));
            }
            a.routines = 1;
            ActionKind::Charge { arrival_segment }
        }
        other => {
            return Err(format!(
                "{name}: unknown action kind '{other}' (one of {KINDS})"
            ));
        }
    };
    Ok(a)
}

/// One action as reported.
#[derive(Serialize)]
struct ActionReport<'a> {
    name: &'a str,
    side: &'a str,
    category: &'static str,
    initiative: i32,
    routines: u32,
    /// The segment of its first event, where the rules fix one.
    segment: Option<u32>,
}

/// The calculator's JSON answer.
#[derive(Serialize)]
struct Report<'a> {
    first: Vec<&'a str>,
    actions: Vec<ActionReport<'a>>,
    sequence: &'a Sequence,
    options: Vec<String>,
}

/// Lays out the round for the actions.
pub fn calculate(actions: &[Declared], defaults: &Defaults) -> Result<Sequence, String> {
    if actions.len() < 2 {
        return Err("give at least two actions (one per figure)".into());
    }
    for (i, a) in actions.iter().enumerate() {
        if actions[..i].iter().any(|b| b.name == a.name) {
            return Err(format!("{}: the same name is given twice", a.name));
        }
    }
    let sides: std::collections::BTreeSet<_> = actions.iter().map(|a| &a.side).collect();
    if sides.len() < 2 {
        return Err(
            "every action is on the same side: give opponents different side= names".into(),
        );
    }
    for a in actions {
        if let Some(b) = actions.iter().find(|b| b.side == a.side && b.die != a.die) {
            return Err(format!(
                "{} and {} are on side '{}' but give different dice ({} and {}): a side rolls one die",
                a.name, b.name, a.side, a.die, b.die
            ));
        }
    }
    Ok(round_sequence(actions, &defaults.context))
}

fn first_segment(seq: &Sequence, name: &str) -> Option<u32> {
    seq.beats
        .iter()
        .flat_map(|b| &b.events)
        .find(|e| e.name == name)
        .and_then(|e| e.segment)
}

/// The JSON report: `first`, `actions` (with per-action `segment`), `sequence` (beats with
/// events, each with its `rule`), and the options in force.
pub fn to_json(actions: &[Declared], seq: &Sequence, defaults: &Defaults) -> String {
    let report = Report {
        first: seq.beats.first().map(|b| b.names()).unwrap_or_default(),
        actions: actions
            .iter()
            .map(|a| ActionReport {
                name: &a.name,
                side: &a.side,
                category: a.category().heading(),
                initiative: a.initiative(),
                routines: a.routines,
                segment: first_segment(seq, &a.name),
            })
            .collect(),
        sequence: seq,
        options: defaults.context.options.describe(),
    };
    serde_json::to_string_pretty(&report).expect("the report serialises")
}

/// The text report, narrated beat by beat.
pub fn to_text(actions: &[Declared], seq: &Sequence, defaults: &Defaults) -> String {
    let mut out = String::new();
    let first = seq
        .beats
        .first()
        .map(|b| b.names().join(" and "))
        .unwrap_or_default();
    let _ = writeln!(out, "First: {first}");
    let _ = writeln!(out);
    let _ = writeln!(out, "Actions:");
    for a in actions {
        let _ = writeln!(
            out,
            "  {:<14} {:<13} side {:<10} initiative {:>2}  routines {}",
            a.name,
            a.category().heading(),
            a.side,
            a.initiative(),
            a.routines
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Who goes first, pair by pair:");
    for p in &seq.decisions {
        let who = match p.decision.first {
            crate::rules::First::A => format!("{} before {}", p.a, p.b),
            crate::rules::First::B => format!("{} before {}", p.b, p.a),
            crate::rules::First::Together => format!("{} and {} together", p.a, p.b),
        };
        let _ = writeln!(
            out,
            "  {who}: {} [{}; {}]",
            p.decision.why,
            p.decision.cell.label(),
            p.decision.rule.page_ref()
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "The round:");
    for b in &seq.beats {
        let seg = b
            .segment
            .map(|s| format!("segment {s:>2}"))
            .unwrap_or_else(|| "          ".into());
        for (k, e) in b.events.iter().enumerate() {
            let lead = if k == 0 {
                format!("{:>3}. {seg}", b.beat)
            } else {
                format!("     {:>10}", "  (same time)")
            };
            let what = match e.kind {
                EventKind::Routine { routine, of, blow } if blow > 1 => {
                    format!("strikes again (extra blow {blow}, routine {routine} of {of})")
                }
                EventKind::Routine { routine, of, .. } if of > 1 => {
                    format!("attacks (routine {routine} of {of})")
                }
                EventKind::Routine { .. } => "attacks".to_string(),
                EventKind::Arrive => "arrives".to_string(),
                EventKind::Complete => "completes".to_string(),
            };
            let _ = writeln!(
                out,
                "{lead}  {} {what} — {} ({})",
                e.name,
                e.why,
                e.rule.page_ref()
            );
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Readings in force: {}",
        defaults.context.options.describe().join(", ")
    );
    out
}
