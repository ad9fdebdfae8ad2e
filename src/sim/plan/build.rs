//! A round being planned: the figures, the clock, the initiative dice and the timed
//! actions gathered so far, shared by the planners of each kind of action (melee, charge,
//! cast, second actions, house rules) while [`super::round`] plans the round.

use super::{Changes, Fig};
use crate::rules::action::{ActionKind, Declared};
use crate::rules::distance::Setting;
use crate::rules::options::RulesOptions;
use crate::sim::SegmentClock;
use crate::sim::log::LogEvent;
use std::collections::BTreeMap;

/// One timed action for the rules core, and whose it is.
pub(super) struct Action {
    /// The action as the timing rules see it.
    pub declared: Declared,
    /// The figure's index in the planner's list of everyone.
    pub owner: usize,
    /// Whom it is aimed at.
    pub targets: Vec<String>,
    /// A charge.
    pub charge: bool,
    /// What completes (spells, potions, cantrips).
    pub what: String,
    /// The figure's second action this round.
    pub second: bool,
    /// What every blow of it carries (one attack only, under a house rule).
    pub adjust: Vec<super::Adjust>,
}

/// A round being planned.
pub(super) struct RoundBuild<'a> {
    /// Everyone, in the scene's order.
    pub figs: &'a [Fig<'a>],
    /// The clock.
    pub clock: &'a SegmentClock,
    /// Indoors or outdoors.
    pub setting: Setting,
    /// The readings in force.
    pub options: RulesOptions,
    /// The round.
    pub round: u32,
    /// When its planning events are logged: its very beginning.
    pub when: (u32, u32),
    /// Each side's die.
    pub initiative: BTreeMap<String, u32>,
    /// The best die shown.
    pub best: u32,
    /// The timed actions so far.
    pub actions: Vec<Action>,
    /// What changes on the figures.
    pub changes: Changes,
    /// Events to log.
    pub events: Vec<LogEvent>,
    /// Segments each figure hesitated in declaring.
    pub hesitation: BTreeMap<String, u32>,
    /// Figures whose round is short under a house rule, and why.
    pub short: BTreeMap<String, (crate::rules::house::TimeLeft, crate::rules::action::LateBy)>,
}

impl RoundBuild<'_> {
    /// Figure `i`'s action of this kind, with its side's die, weapon speed and reach.
    pub fn declared(&self, i: usize, kind: ActionKind) -> Declared {
        let f = &self.figs[i];
        // The engine places every completion itself (`plan::cast`).
        let completion_placed = matches!(kind, ActionKind::Cast { .. });
        Declared {
            name: f.name().to_string(),
            side: f.side().to_string(),
            kind,
            die: self.die_of(i),
            dex_adjustment: 0,
            routines: 1,
            speed_factor: f.weapon.speed_factor,
            // A weapon's length (or the length given) orders blows; without a weapon, the
            // figure's natural reach.
            reach_ft: f.weapon.length_ft.unwrap_or(f.reach()),
            strikes_first: f.weapon.of_speed,
            casting_total: None,
            delay: self.delay_of(i),
            late_by: self.short.get(f.name().as_str()).map(|s| s.1),
            completion_placed,
            set_vs_charge: false,
            slowed: f.slowed,
        }
    }

    /// Segments figure `i` starts late this round: hesitating to declare (DMG p.71), and
    /// under the house rules those lost to surprise or spent waiting.
    pub fn delay_of(&self, i: usize) -> u32 {
        let name = self.figs[i].name().as_str();
        self.hesitation.get(name).copied().unwrap_or(0)
            + self.short.get(name).map_or(0, |s| s.0.used)
    }

    /// Figure `i`'s side's die.
    pub fn die_of(&self, i: usize) -> u32 {
        self.initiative
            .get(self.figs[i].side())
            .copied()
            .unwrap_or(1)
    }

    /// Whether figure `i`'s side lost initiative.
    pub fn lost(&self, i: usize) -> bool {
        self.die_of(i) < self.best
    }

    /// Adds a timed action.
    pub fn push(
        &mut self,
        owner: usize,
        declared: Declared,
        targets: Vec<String>,
        charge: bool,
        what: String,
    ) {
        self.actions.push(Action {
            declared,
            owner,
            targets,
            charge,
            what,
            second: false,
            adjust: Vec::new(),
        });
    }

    /// The tick of a segment of this round.
    pub fn tick(&self, segment: u32) -> u32 {
        self.clock.tick_of(self.round, segment)
    }
}
