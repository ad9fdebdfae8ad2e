//! A summary of what happened, round by round, as Markdown a DM can paste into notes
//! (`run --format markdown`, the viewer's Export): each round's initiative, then each
//! fight — figures joined by who struck or cast at whom — as a short list of who did what
//! to whom, when, and by which rule and page. Sight and step-by-step movement are left to
//! the full log.

use crate::sim::{EventKind as K, LogEvent};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The events among `events` the summary tells: what [`markdown`] reads of a log, kept as
/// a run streams without keeping the rest.
pub fn told(events: &[LogEvent]) -> impl Iterator<Item = &LogEvent> {
    events.iter().filter(|e| worth_telling(e))
}

/// Whether an event belongs in the summary.
fn worth_telling(e: &LogEvent) -> bool {
    !matches!(e.kind, K::Sight | K::Move | K::Declare | K::Attack)
}

/// The fights of a round: groups of figure names joined by who aimed at whom.
fn fights(events: &[&LogEvent]) -> Vec<Vec<String>> {
    let mut group: BTreeMap<String, usize> = BTreeMap::new();
    let mut groups: Vec<Vec<String>> = Vec::new();
    for e in events {
        let names: Vec<&str> = std::iter::once(e.actor.as_str())
            .chain(e.target.as_deref())
            .collect();
        let mut joined: Vec<usize> = names
            .iter()
            .filter_map(|n| group.get(*n).copied())
            .collect();
        joined.sort_unstable();
        joined.dedup();
        let into = match joined.first() {
            Some(&g) => g,
            None => {
                groups.push(Vec::new());
                groups.len() - 1
            }
        };
        for &other in joined.iter().skip(1) {
            let moved = std::mem::take(&mut groups[other]);
            for n in &moved {
                group.insert(n.clone(), into);
            }
            groups[into].extend(moved);
        }
        for n in names {
            if group.insert(n.to_string(), into).is_none() {
                groups[into].push(n.to_string());
            }
        }
    }
    groups.into_iter().filter(|g| !g.is_empty()).collect()
}

/// One event as a line of the summary.
fn line(e: &LogEvent, unit: &str) -> String {
    let when = if e.by_order {
        format!("~{unit} {}", e.segment)
    } else {
        format!("{unit} {}", e.segment)
    };
    format!(
        "- {when}: {}: {} ({})",
        e.who_words(|n| format!("**{n}**")),
        e.detail,
        e.rule.page_ref()
    )
}

/// The summary of these events under `title`, naming a round's segments `unit`.
pub fn markdown(title: &str, events: &[LogEvent], unit: &str) -> String {
    let mut out = format!("# {title}\n");
    let mut rounds: BTreeMap<u32, Vec<&LogEvent>> = BTreeMap::new();
    for e in events.iter().filter(|e| worth_telling(e)) {
        rounds.entry(e.round).or_default().push(e);
    }
    for (round, evs) in rounds {
        let heading = if round == 0 {
            "Before the first round: encounter and surprise".to_string()
        } else {
            format!("Round {round}")
        };
        let _ = write!(out, "\n## {heading}\n\n");
        let initiative: Vec<String> = evs
            .iter()
            .filter(|e| e.kind == K::Initiative)
            .map(|e| format!("{}: {}", e.actor, e.detail))
            .collect();
        if !initiative.is_empty() {
            let _ = writeln!(out, "Initiative — {}.\n", initiative.join("; "));
        }
        let rest: Vec<&LogEvent> = evs
            .iter()
            .copied()
            .filter(|e| e.kind != K::Initiative && e.actor != "clock")
            .collect();
        let joined: Vec<&LogEvent> = rest
            .iter()
            .copied()
            .filter(|e| e.target.is_some())
            .collect();
        for (k, members) in fights(&joined).iter().enumerate() {
            let _ = writeln!(out, "**Fight {}: {}**\n", k + 1, members.join(", "));
            for e in rest.iter().filter(|e| {
                members.iter().any(|m| *m == e.actor)
                    || e.target
                        .as_ref()
                        .is_some_and(|t| members.iter().any(|m| m == t))
            }) {
                let _ = writeln!(out, "{}", line(e, unit));
            }
            out.push('\n');
        }
        let alone: Vec<&&LogEvent> = rest
            .iter()
            .filter(|e| {
                e.target.is_none() && !joined.iter().any(|j| e.who.is_some_and(|w| j.involves(w)))
            })
            .collect();
        if !alone.is_empty() {
            out.push_str("**Elsewhere**\n\n");
            for e in alone {
                let _ = writeln!(out, "{}", line(e, unit));
            }
            out.push('\n');
        }
    }
    out
}
