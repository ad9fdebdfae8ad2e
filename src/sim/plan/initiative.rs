//! Initiative for the round (DMG p.62): one die per side among those still standing — the
//! scene's fixed number, else a roll from the side's own stream.

use super::Fig;
use crate::rules::initiative::side_die;
use crate::scene::{DieKind, RoundSpec};
use crate::sim::dice::Dice;
use crate::sim::log::{EventKind, LogEvent, Payload};
use std::collections::BTreeMap;

/// Each side's die this round, with the events that say so.
pub(super) fn roll(
    figs: &[Fig],
    spec: Option<&RoundSpec>,
    dice: &mut Dice,
    when: (u32, u32),
    events: &mut Vec<LogEvent>,
) -> BTreeMap<String, u32> {
    let mut initiative: BTreeMap<String, u32> = BTreeMap::new();
    for f in figs.iter().filter(|f| f.up()) {
        if initiative.contains_key(f.side()) {
            continue;
        }
        let (die, rule) = side_die(
            figs.iter()
                .filter(|g| g.side() == f.side())
                .map(|g| g.init_die()),
        );
        let sides = die.sides();
        let (shows, fixed) = match spec.and_then(|s| s.initiative.get(f.side())) {
            Some(&d) => (d as i32, true),
            None => dice.roll(DieKind::Initiative, f.side(), sides),
        };
        let shows = shows.clamp(1, sides as i32) as u32;
        events.push(
            LogEvent::new(
                when,
                f.side().to_string(),
                EventKind::Initiative,
                None,
                crate::words!(
                    "d{sides} shows {shows}{}",
                    if fixed { " (fixed by the scene)" } else { "" }
                ),
                rule,
            )
            .with(Payload::Initiative {
                die: shows,
                sides,
                fixed,
            }),
        );
        initiative.insert(f.side().to_string(), shows);
    }
    initiative
}
