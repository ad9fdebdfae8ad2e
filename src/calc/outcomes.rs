//! Who strikes first under every roll of the initiative dice, for a DM who wants the answer
//! before rolling: each combination of the sides' dice is planned by the engine, and the
//! combinations are folded into the words a DM would use ("the giant first when its die
//! is higher, together on a tie").

use super::{Defaults, Figure, calculate};
use crate::rules::initiative::side_die;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One roll of every side's die and who acts first on it.
#[derive(Clone, Debug, Serialize)]
pub struct Roll {
    /// Each side's die.
    pub dice: BTreeMap<String, u32>,
    /// Who acts first (several: together).
    pub first: Vec<String>,
}

/// One answer and the rolls that give it.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// Who acts first.
    pub first: Vec<String>,
    /// On how many of the rolls.
    pub count: usize,
    /// Of how many.
    pub of: usize,
    /// The rolls, in words.
    pub when: String,
}

/// Every roll, and the answers folded.
#[derive(Clone, Debug, Serialize)]
pub struct Outcomes {
    /// The sides, in order.
    pub sides: Vec<String>,
    /// Every roll.
    pub rolls: Vec<Roll>,
    /// The answers, most rolls first.
    pub outcomes: Vec<Outcome>,
}

/// The most sides a table of every roll is made for (6³ = 216 rounds planned).
pub const MAX_SIDES: usize = 3;

/// Plans the round for every roll of the sides' dice (d6, or d8 for a side whose figures
/// roll one).
pub fn every_roll(figures: &[Figure], defaults: &Defaults) -> Result<Outcomes, String> {
    // Each side's die, as the rules core decides it from its members' dice.
    let mut sides: Vec<(String, u32)> = Vec::new();
    for f in figures {
        if !sides.iter().any(|s| s.0 == f.declared.side) {
            let members = figures
                .iter()
                .filter(|g| g.declared.side == f.declared.side)
                .map(|g| g.spec.initiative_die.unwrap_or(6));
            sides.push((f.declared.side.clone(), side_die(members).0.sides()));
        }
    }
    if sides.len() > MAX_SIDES {
        return Err(format!(
            "{} sides: without dice, every roll is laid out for at most {MAX_SIDES} sides; give the dice",
            sides.len()
        ));
    }
    let mut rolls = Vec::new();
    let total: u32 = sides.iter().map(|s| s.1).product();
    for k in 0..total {
        let mut rest = k;
        let mut dice = BTreeMap::new();
        for (side, faces) in &sides {
            dice.insert(side.clone(), rest % faces + 1);
            rest /= faces;
        }
        let mut figs = figures.to_vec();
        for f in &mut figs {
            f.declared.die = dice[&f.declared.side];
        }
        let (actions, seq) = calculate(&figs, defaults)?;
        let first = seq
            .first_acting_of(&actions)
            .into_iter()
            .map(str::to_string)
            .collect();
        rolls.push(Roll { dice, first });
    }
    let names: Vec<String> = sides.iter().map(|s| s.0.clone()).collect();
    let outcomes = fold(&names, &rolls);
    Ok(Outcomes {
        sides: names,
        rolls,
        outcomes,
    })
}

/// Groups the rolls by answer and says each group's rolls in words.
fn fold(sides: &[String], rolls: &[Roll]) -> Vec<Outcome> {
    let mut by: BTreeMap<Vec<String>, Vec<&Roll>> = BTreeMap::new();
    for r in rolls {
        by.entry(r.first.clone()).or_default().push(r);
    }
    let mut out: Vec<Outcome> = by
        .into_iter()
        .map(|(first, rs)| Outcome {
            count: rs.len(),
            of: rolls.len(),
            when: describe(sides, &rs, rolls),
            first,
        })
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then(a.first.cmp(&b.first)));
    out
}

/// A comparison of two sides' dice.
type Compare = dyn Fn(u32, u32) -> bool;

/// The rolls in words: a comparison of two sides' dice when it says exactly these rolls,
/// otherwise each die of the first side with the range of the second's.
fn describe(sides: &[String], these: &[&Roll], all: &[Roll]) -> String {
    if these.len() == all.len() {
        return "on every roll".into();
    }
    if sides.len() == 2 {
        let (a, b) = (&sides[0], &sides[1]);
        let pick = |f: &dyn Fn(u32, u32) -> bool| -> usize {
            all.iter().filter(|r| f(r.dice[a], r.dice[b])).count()
        };
        let holds = |f: &dyn Fn(u32, u32) -> bool| {
            these.iter().all(|r| f(r.dice[a], r.dice[b])) && pick(f) == these.len()
        };
        let shapes: [(&Compare, String); 5] = [
            (&|x, y| x > y, format!("when {a} rolls higher")),
            (&|x, y| x < y, format!("when {b} rolls higher")),
            (&|x, y| x == y, "on a tie".into()),
            (&|x, y| x >= y, format!("when {a} rolls higher or ties")),
            (&|x, y| x <= y, format!("when {b} rolls higher or ties")),
        ];
        for (f, words) in &shapes {
            if holds(*f) {
                return words.clone();
            }
        }
        let mut by_a: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for r in these {
            by_a.entry(r.dice[a]).or_default().push(r.dice[b]);
        }
        let parts: Vec<String> = by_a
            .into_iter()
            .map(|(x, mut ys)| {
                ys.sort();
                format!("{a} {x} with {b} {}", ranges(&ys))
            })
            .collect();
        return format!("when the dice show {}", parts.join("; "));
    }
    let list: Vec<String> = these
        .iter()
        .map(|r| {
            let d: Vec<String> = r.dice.iter().map(|(s, v)| format!("{s} {v}")).collect();
            d.join(", ")
        })
        .collect();
    format!("when the dice show {}", list.join("; "))
}

/// "1-3, 5".
fn ranges(xs: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < xs.len() {
        let mut j = i;
        while j + 1 < xs.len() && xs[j + 1] == xs[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            xs[i].to_string()
        } else {
            format!("{}-{}", xs[i], xs[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// The answers as text.
pub fn to_text(o: &Outcomes) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "No dice given: who acts first on each of the {} rolls of {}.",
        o.rolls.len(),
        o.sides.join(" and ")
    );
    let _ = writeln!(out);
    for x in &o.outcomes {
        let _ = writeln!(
            out,
            "  {} first {} ({} of {})",
            x.first.join(" and "),
            x.when,
            x.count,
            x.of
        );
    }
    out
}

/// The answers as JSON.
pub fn to_json(o: &Outcomes) -> String {
    serde_json::to_string_pretty(o).expect("the outcomes serialise")
}
