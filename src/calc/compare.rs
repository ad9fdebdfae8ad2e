//! The same scene under both rules systems, side by side: who acts in what order each
//! round, which spells go off or are ruined, who is down — and where the two differ. Read
//! from the two event logs, so it says only what the engine did.

use crate::name::Name;
use crate::sim::{EventKind, EventLog, LogEvent};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What one system's run came to.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Each round's figures in the order of their first act (blow, completion, turning, an
    /// act), with the segment it came in.
    pub rounds: BTreeMap<u32, Vec<(Name, u32)>>,
    /// Spells (and devices, potions) that went off: (caster, spell, round, segment).
    pub completed: Vec<(Name, String, u32, u32)>,
    /// Spells ruined or lost: (caster, spell, round, segment).
    pub ruined: Vec<(Name, String, u32, u32)>,
    /// Figures down (unconscious or dead) at the end, with the round they fell in.
    pub down: BTreeMap<Name, u32>,
    /// Who aimed at whom (actor, target), with the first round it was declared in: only
    /// such pairs are compared for order (allies, or foes who never meet, have none to
    /// compare), and a declaration stands from then on. One entry a pair, however many
    /// rounds repeat it (one a round was a gigabyte over 1,000 rounds of a crowd).
    #[serde(skip)]
    pub aims: BTreeMap<(Name, Name), u32>,
}

/// A summary made as the log is played, a step's events at a time: the log itself need
/// not be kept (1,000 rounds of a crowd's log is gigabytes; the summary a few megabytes).
#[derive(Debug, Default)]
pub struct Summarizer {
    s: Summary,
    /// Who has acted in each round already (the first act places a figure in the order).
    seen: std::collections::HashSet<(u32, Name)>,
}

impl Summarizer {
    /// Reads the next events of the log, in order.
    pub fn read(&mut self, events: &[LogEvent]) {
        for e in events {
            self.read_one(e);
        }
    }

    fn read_one(&mut self, e: &LogEvent) {
        let s = &mut self.s;
        // An act logged at segment 0 is a note made as the round is laid out (a house
        // rule's, a parting shot drawn), not something done: blows and completions there
        // are ("the very beginning of the round").
        let acted = match e.kind {
            EventKind::Hit | EventKind::Miss | EventKind::SpellComplete => true,
            // A caster's save to keep its spell is no act of its own: the spell's going off
            // is (an outside tester's mage was listed at its save, not at its spell).
            EventKind::Act => e.segment > 0 && e.rule.id != crate::rules::cite::TI_SPELL_SAVE.id,
            _ => false,
        };
        if acted && e.round > 0 && self.seen.insert((e.round, e.actor.clone())) {
            let order = s.rounds.entry(e.round).or_default();
            order.push((e.actor.clone(), e.segment));
        }
        if e.kind == EventKind::Declare
            && let Some(t) = &e.target
        {
            s.aims
                .entry((e.actor.clone(), t.clone()))
                .or_insert(e.round);
        }
        let spell = || match &e.payload {
            crate::sim::Payload::SpellComplete { spell, .. }
            | crate::sim::Payload::SpellDisrupted { spell, .. } => spell.clone(),
            _ => String::new(),
        };
        match e.kind {
            EventKind::SpellComplete => {
                s.completed
                    .push((e.actor.clone(), spell(), e.round, e.segment));
            }
            EventKind::SpellDisrupted => {
                s.ruined
                    .push((e.actor.clone(), spell(), e.round, e.segment));
            }
            EventKind::Down => {
                s.down.entry(e.actor.clone()).or_insert(e.round);
            }
            _ => {}
        }
    }

    /// The summary of everything read.
    pub fn done(self) -> Summary {
        self.s
    }
}

/// The summary of one run's whole log.
pub fn summary(log: &EventLog) -> Summary {
    let mut z = Summarizer::default();
    z.read(&log.events);
    z.done()
}

/// Each figure's place in a round's order.
fn positions(o: &[(Name, u32)]) -> std::collections::HashMap<&str, usize> {
    o.iter()
        .enumerate()
        .map(|(k, x)| (x.0.as_str(), k))
        .collect()
}

/// Where two summaries differ.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Differences {
    /// Foes who meet (one aims at the other) and act in a different order in some round:
    /// (round, a, b) where the book has `a` first and "Take Initiative!" has `b` first.
    pub order: Vec<(u32, String, String)>,
    /// Foes who meet and whom the book orders while "Take Initiative!" has them act
    /// together (equal totals): (round, a, b) where the book has `a` first.
    pub together: Vec<(u32, String, String)>,
    /// Spells that go off under one system and not the other: (caster, spell, under which
    /// system it goes off).
    pub spells: Vec<(String, String, String)>,
    /// Figures down under one system and not the other: (figure, under which it is down).
    pub down: Vec<(String, String)>,
}

/// The differences between the book's run and the variant's.
pub fn differences(book: &Summary, ti: &Summary) -> Differences {
    let mut d = Differences::default();
    // Foes who meet: one aimed at the other by a round (a declaration stands until another
    // replaces it), under either system; each pair once, by name, from the first round
    // either declares it. Gathered as the rounds go, not sought again for each round.
    let mut aims: Vec<(u32, &str, &str)> = [book, ti]
        .iter()
        .flat_map(|s| s.aims.iter())
        .map(|((x, y), r)| {
            if x <= y {
                (*r, x.as_str(), y.as_str())
            } else {
                (*r, y.as_str(), x.as_str())
            }
        })
        .collect();
    aims.sort_unstable();
    let mut met: BTreeSet<(&str, &str)> = BTreeSet::new();
    let mut next = 0;
    for (round, b_order) in &book.rounds {
        while next < aims.len() && aims[next].0 <= *round {
            met.insert((aims[next].1, aims[next].2));
            next += 1;
        }
        let Some(t_order) = ti.rounds.get(round) else {
            continue;
        };
        let (bp, tp) = (positions(b_order), positions(t_order));
        // Pairs the book orders one way and the variant the other, in the book's order.
        let mut swapped: Vec<(usize, usize, &str, &str)> = Vec::new();
        for &(x, y) in &met {
            let (Some(&bx), Some(&by), Some(&tx), Some(&ty)) =
                (bp.get(x), bp.get(y), tp.get(x), tp.get(y))
            else {
                continue;
            };
            // Under "Take Initiative!" equal totals act together (Glossary, a tie): the
            // order they are listed in within their ordering segment is no order.
            if t_order[tx].1 == t_order[ty].1 {
                let (a, b) = if bx < by { (x, y) } else { (y, x) };
                d.together.push((*round, a.to_string(), b.to_string()));
                continue;
            }
            if bx < by && ty < tx {
                swapped.push((bx, by, x, y));
            } else if by < bx && tx < ty {
                swapped.push((by, bx, y, x));
            }
        }
        swapped.sort_unstable();
        for (_, _, a, b) in swapped {
            d.order.push((*round, a.to_string(), b.to_string()));
        }
    }
    let went_off = |s: &Summary| -> BTreeSet<(String, String)> {
        s.completed
            .iter()
            .map(|c| (c.0.to_string(), c.1.clone()))
            .collect()
    };
    let (bo, to) = (went_off(book), went_off(ti));
    for (who, spell) in bo.difference(&to) {
        d.spells.push((who.clone(), spell.clone(), "book".into()));
    }
    for (who, spell) in to.difference(&bo) {
        d.spells
            .push((who.clone(), spell.clone(), "take_initiative".into()));
    }
    for who in book.down.keys().filter(|k| !ti.down.contains_key(*k)) {
        d.down.push((who.to_string(), "book".into()));
    }
    for who in ti.down.keys().filter(|k| !book.down.contains_key(*k)) {
        d.down.push((who.to_string(), "take_initiative".into()));
    }
    d
}

/// Both summaries and their differences, as text.
pub fn to_text(book: &Summary, ti: &Summary, d: &Differences) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let rounds: BTreeSet<u32> = book
        .rounds
        .keys()
        .chain(ti.rounds.keys())
        .copied()
        .collect();
    for r in rounds {
        let _ = writeln!(out, "Round {r}");
        for (name, s, unit) in [
            ("Book", book, "segment"),
            ("Take Initiative!", ti, "ordering segment"),
        ] {
            let order = s.rounds.get(&r).map_or_else(
                || "nobody acts".to_string(),
                |o| {
                    o.iter()
                        .map(|(n, seg)| format!("{n} ({unit} {seg})"))
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            );
            let _ = writeln!(out, "  {name:<17} {order}");
        }
    }
    let _ = writeln!(out);
    for (name, s) in [("Book", book), ("Take Initiative!", ti)] {
        let list = |v: &[(Name, String, u32, u32)]| {
            v.iter()
                .map(|(w, sp, r, seg)| format!("{w}'s {sp} (round {r}, {seg})"))
                .collect::<Vec<_>>()
                .join("; ")
        };
        let _ = writeln!(out, "{name}: spells off: {}", or_none(&list(&s.completed)));
        let _ = writeln!(out, "{name}: ruined: {}", or_none(&list(&s.ruined)));
        let down: Vec<String> = s
            .down
            .iter()
            .map(|(w, r)| format!("{w} (round {r})"))
            .collect();
        let _ = writeln!(out, "{name}: down: {}", or_none(&down.join(", ")));
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Differences:");
    if d.order.is_empty() && d.together.is_empty() && d.spells.is_empty() && d.down.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for (r, a, b) in &d.order {
        let _ = writeln!(
            out,
            "  round {r}: the book has {a} act before {b}; Take Initiative! has {b} first"
        );
    }
    for (r, a, b) in &d.together {
        let _ = writeln!(
            out,
            "  round {r}: the book has {a} act before {b}; Take Initiative! has them together"
        );
    }
    for (who, spell, sys) in &d.spells {
        let (yes, no) = if sys == "book" {
            ("the book", "Take Initiative!")
        } else {
            ("Take Initiative!", "the book")
        };
        let _ = writeln!(
            out,
            "  {who}'s {spell} goes off under {yes}, not under {no}"
        );
    }
    for (who, sys) in &d.down {
        let under = if sys == "book" {
            "the book"
        } else {
            "Take Initiative!"
        };
        let _ = writeln!(out, "  {who} is down only under {under}");
    }
    out
}

fn or_none(s: &str) -> &str {
    if s.is_empty() { "none" } else { s }
}
