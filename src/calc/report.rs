//! The calculator's answer as text and JSON: who goes first, the actions, the pairwise
//! decisions and the round beat by beat, each with its rule and page.

use super::Defaults;
use super::scene::Idle;
use crate::rules::action::{ActionKind, Declared};
use crate::rules::sequence::{EventKind, Sequence};
use serde::Serialize;
use std::fmt::Write as _;

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
    /// Figures the order leaves out (a figure closing), and why: only when there are some.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    idle: &'a [Idle],
    sequence: &'a Sequence,
    options: Vec<String>,
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
pub fn to_json(actions: &[Declared], idle: &[Idle], seq: &Sequence, defaults: &Defaults) -> String {
    let report = Report {
        first: seq.first_acting_of(actions),
        actions: actions
            .iter()
            .map(|a| ActionReport {
                name: &a.name,
                side: &a.side,
                category: a.heading(),
                initiative: a.initiative(),
                routines: a.routines,
                segment: first_segment(seq, &a.name),
            })
            .collect(),
        idle,
        sequence: seq,
        options: defaults.context.options.describe(),
    };
    serde_json::to_string_pretty(&report).expect("the report serialises")
}

/// The text report, narrated beat by beat.
pub fn to_text(actions: &[Declared], idle: &[Idle], seq: &Sequence, defaults: &Defaults) -> String {
    let mut out = String::new();
    let first = match seq.first_acting_of(actions) {
        none if none.is_empty() => "no one: no blow or act this round".to_string(),
        some => some.join(" and "),
    };
    let _ = writeln!(out, "First: {first}");
    let _ = writeln!(out);
    let _ = writeln!(out, "Actions:");
    for a in actions {
        // A slowed figure acts as if it lost initiative: its die is shown, and why it
        // does not count (it read "initiative 0").
        let initiative = if a.slowed {
            format!("{:>2} (slowed: as if lost)", a.die)
        } else {
            format!("{:>2}", a.initiative())
        };
        // A charge ends in one blow at contact whatever the figure's rate (its routines
        // come back the next round): said, so an `attacks=2` given does not vanish unseen.
        let once = match a.kind {
            crate::rules::action::ActionKind::Charge { .. } => {
                " (a charge strikes once, at contact)"
            }
            _ => "",
        };
        let _ = writeln!(
            out,
            "  {:<14} {:<13} side {:<10} initiative {initiative}  routines {}{once}",
            a.name,
            a.heading(),
            a.side,
            a.routines
        );
    }
    for i in idle {
        let _ = writeln!(
            out,
            "  {:<14} {:<13} side {:<10} {} ({})",
            i.name,
            "NO BLOW",
            i.side,
            i.why,
            i.rule.page_ref()
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
        // A delay that changed who acts first is named instead of the chart's cell.
        use crate::rules::action::LateBy;
        let late = p.decision.rule == crate::rules::cite::DECLARE_HESITATION
            || [LateBy::Surprise, LateBy::Awaiting, LateBy::Moving]
                .iter()
                .any(|l| l.rule() == p.decision.rule);
        let label = if late {
            p.decision.rule.id.to_string()
        } else if p.decision.rule == crate::rules::cite::STRIKES_FIRST {
            // No cell of the charts: the item decides (DMG p.168; UA p.104, 106).
            "item of speed".to_string()
        } else if p.decision.rule == crate::rules::cite::CHARGE_SET {
            // Nor does the chart's cell (the longer reach): the set weapon decides.
            "set against a charge".to_string()
        } else {
            p.decision.cell.label()
        };
        let _ = writeln!(
            out,
            "  {who}: {} [{label}; {}]",
            p.decision.why,
            p.decision.rule.page_ref()
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "The round:");
    for b in &seq.beats {
        let seg = b
            .segment
            .map(|s| match s {
                ..=10 => format!("segment {s:>2}"),
                _ => crate::text::segment_words(s),
            })
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
                // A figure may have two actions (a blow, then a device): each event is its
                // own action's.
                EventKind::Routine { .. } => match actions.get(e.actor).map(|a| a.kind) {
                    Some(ActionKind::Other) => "acts (no blow)".to_string(),
                    Some(ActionKind::Turn) => "turns undead".to_string(),
                    _ => "attacks".to_string(),
                },
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
